"""A fake engine for the analysis tests: plain arithmetic, no network, fully predictable.

Checker plays are ranked by the race: equity = (opponent's pips - mover's pips) / 100 after the
play. Cube equities come from a table keyed by Position ID, else a default. The fake can block
until released, to prove the worker never makes its caller wait.
"""

from __future__ import annotations

import dataclasses
import threading

from controller.analysis.board import Sides, pip_counts
from controller.analysis.context import MoverView
from controller.analysis.engine import CubeEquities, RankedPlay
from controller.analysis.errors import AnalysisNotInstalledError
from controller.analysis.source import TurnSource
from controller.events import Event
from controller.rules import Position, legal_plays
from tests.shared_data import MATCHES_DIR

MATCHES = MATCHES_DIR
PROBABILITIES = (0.5, 0.1, 0.0, 0.1, 0.0)


def equities(nd: float, dt: float, dp: float = 1.0, db: float | None = None) -> CubeEquities:
    return CubeEquities(nd, dt, dp, db, PROBABILITIES, "fake")


def make_fake() -> FakeAnalyser:
    """A picklable factory, for a worker whose engine runs in a child process."""
    return FakeAnalyser()


def missing_engine() -> FakeAnalyser:
    """A picklable factory that fails as a missing extra does."""
    raise AnalysisNotInstalledError("analysis is not installed: simulated for a test")


class FakeAnalyser:
    """Race-count checker plays; table-driven cube equities; records every call."""

    def __init__(
        self,
        cube: dict[str, CubeEquities] | None = None,
        default: CubeEquities | None = None,
        gate: threading.Event | None = None,
    ) -> None:
        self.cube = cube or {}
        self.default = default or equities(0.2, -0.3)
        self.gate = gate
        self.cube_calls: list[tuple[Sides, MoverView]] = []
        self.play_calls: list[tuple[Sides, tuple[int, int], MoverView]] = []

    @property
    def name(self) -> str:
        return "fake"

    def _wait(self) -> None:
        if self.gate is not None:
            self.gate.wait(timeout=60)

    def cube_equities(self, sides: Sides, view: MoverView) -> CubeEquities:
        self._wait()
        self.cube_calls.append((sides, view))
        key = Position(sides[1], sides[0]).to_position_id()
        return self.cube.get(key, self.default)

    def ranked_plays(
        self, sides: Sides, dice: tuple[int, int], view: MoverView, played: Sides | None = None
    ) -> list[RankedPlay]:
        self._wait()
        self.play_calls.append((sides, dice, view))
        position = Position(sides[1], sides[0])
        plays = legal_plays(position, dice)
        if not plays.can_move:
            return []
        ranked = []
        for result in plays:
            after: Sides = (result.opponent, result.mover)
            opponent_pips, mover_pips = pip_counts(after)
            ranked.append(
                RankedPlay(after, str(plays[result][0]), (opponent_pips - mover_pips) / 100)
            )
        ranked.sort(key=lambda play: (-play.equity, play.notation))
        return ranked


def events_for(source: TurnSource) -> list[Event]:
    """The record's events for a match, as the referee would have written them."""
    events = [
        Event(
            "match_started", {"id": "m1", "players": list(source.players), "length": source.length}
        ),
    ]
    game = 0
    for turn in source.turns:
        if turn.game != game:
            game = turn.game
            events.append(
                Event(
                    "game_started",
                    {
                        "game": game,
                        "score": list(turn.context.score),
                        "crawford_game": turn.context.crawford_game,
                    },
                )
            )
        if turn.doubled:
            cube = turn.context.cube_value * 2
            events.append(Event("cube_offered", {"player": turn.player, "cube": cube}))
            kind = {"take": "cube_taken", "pass": "cube_passed", "beaver": "cube_beavered"}
            assert turn.response is not None
            events.append(Event(kind[turn.response], {"player": 1 - turn.player, "cube": cube}))
        if turn.dice is not None and turn.played is not None:
            after = Position(turn.played[1], turn.played[0], turn.player)
            events.append(
                Event(
                    "play",
                    {
                        "player": turn.player,
                        "dice": list(turn.dice),
                        "play": turn.played_notation,
                        "position_id": turn.position_id,
                        "match_id": "",
                        "result_id": after.to_position_id(),
                    },
                )
            )
    return [dataclasses.replace(event, sequence=n) for n, event in enumerate(events, start=1)]
