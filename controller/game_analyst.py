"""Post-game analysis beside a live table: the referee never waits for the engine.

When a game is won, :class:`GameAnalyst` hands a copy of the match's events to a child process that
runs the analysis engine (bgsage keeps Python's interpreter lock while it thinks, so a thread would
stall the referee); the report comes back to the parent, which saves it in the record through the
record's own connection. Without the analysis extra nothing is started and :attr:`status` says so.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from controller.events import Event
from controller.record.store import Record

log = logging.getLogger("sheshbesh")


#: events after which a teaching match gets a fresh verdict (every decision)
DECISIONS = frozenset({"play", "cube_taken", "cube_passed", "cube_beavered"})


def report_of(
    events_json: list[str], match_id: str, level: str, game_in_progress: bool = False
) -> dict[str, Any] | None:
    """In the child: the report of the match so far, from its events."""
    from controller.analysis.store import analyse_finished_game

    scratch = Record(":memory:")
    for text in events_json:
        scratch.append(Event.from_json(text), match_id=match_id)
    return analyse_finished_game(scratch, match_id, level, game_in_progress=game_in_progress)


class GameAnalyst:
    """Analyses each finished game in a child process and stores the report in ``record``."""

    def __init__(self, record: Record, level: str = "0ply") -> None:
        from controller.analysis.bgsage_engine import availability

        self.record = record
        self.level = level
        self.status = availability()
        self.saved = 0
        self._policies: dict[str, bool] = {}
        self._pool: ProcessPoolExecutor | None = None
        self._pending: list[threading.Event] = []
        if self.status == "available":
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=context)

    def on_event(self, event: Event) -> None:
        """Feed every recorded event; a ``game_won`` starts an analysis (in a teaching match,
        every decision does)."""
        if self._pool is None or (event.type != "game_won" and event.type not in DECISIONS):
            return
        match_id = self.record.current_match
        if match_id is None:
            return
        teaching = event.type in DECISIONS and self.is_teaching(match_id)
        if event.type != "game_won" and not teaching:
            return
        history = self.record.events(match_id)
        events = [e.to_json() for e in history]
        game = sum(1 for e in history if e.type == "game_started")
        stored = threading.Event()
        future = self._pool.submit(report_of, events, match_id, self.level, teaching)
        future.add_done_callback(lambda done: self._store(done, match_id, game, stored))
        self._pending.append(stored)

    def is_teaching(self, match_id: str) -> bool:
        """Whether ``match_id`` is played under the teaching policy (read once from its log)."""
        if match_id not in self._policies:
            started = [e for e in self.record.events(match_id) if e.type == "match_started"]
            self._policies[match_id] = bool(started) and started[0].data.get("policy") == "teaching"
        return self._policies[match_id]

    def _store(
        self,
        done: Future[dict[str, Any] | None],
        match_id: str,
        game: int,
        stored: threading.Event,
    ) -> None:
        try:
            report = done.result()
            if report is not None:
                self.record.save_analysis(match_id, report, game=game, level=self.level)
                self.saved += 1
                log.info("analysis of game %s saved", game)
        except Exception as error:  # the analysis is a bonus: it never stops the table
            log.warning("analysis of game %s failed: %s", game, error)
        finally:
            stored.set()

    def wait(self, timeout: float | None = None) -> None:
        """Wait for the analyses started so far (the end of a demo, a test)."""
        for stored in list(self._pending):
            stored.wait(timeout)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
