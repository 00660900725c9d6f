"""The runner: records first, then lights and panel; resumes from the log; survives a failed write."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from referee_testkit import seen

from controller.events import Event
from controller.lights.scene import Scene
from controller.record.store import Record, RecordError
from controller.referee import MatchSettings, MatchSettingsError, NewMatch
from controller.rules import Dice, Play, Position
from controller.table.runner import Runner
from web.state import check_state

START = Position.initial()
OPENING = START.apply(Play.from_notation("8/5 6/5", START, Dice(3, 1)))


class Witness:
    """Lights and panel at once: notes what it was shown and what the log held at that moment."""

    def __init__(self, record: Record) -> None:
        self.record = record
        self.seen: list[tuple[str, int]] = []
        self.snapshots: list[dict[str, Any]] = []

    def show(self, scene: Scene) -> None:
        self.seen.append(("lights", self.record.last_sequence()))

    def publish(self, state: Any) -> int:
        self.snapshots.append(state)
        self.seen.append(("panel", self.record.last_sequence()))
        return 1


def test_effects_follow_the_record_and_resume_continues_the_match(tmp_path: Path) -> None:
    path = tmp_path / "events.db"
    with Record(path) as record:
        witness = Witness(record)
        runner = Runner.resume(record, clock=lambda: 5.0, lights=[witness], panels=[witness])
        runner.feed(NewMatch(MatchSettings(("Alice", "Bob"), length=3, match_id="m1")))
        events = runner.feed(seen(START, dice=(3, 1)))
        assert [e.type for e in events] == ["roll_off"]
        # Lights and panel came after the roll-off was committed.
        assert witness.seen[-2:] == [
            ("lights", events[-1].sequence),
            ("panel", events[-1].sequence),
        ]
        check_state(witness.snapshots[-1])
        runner.feed_all([seen(OPENING, dice=(3, 1)), seen(OPENING)])
        before = runner.referee.snapshot()
    with Record(path) as reopened:
        resumed = Runner.resume(reopened, clock=lambda: 6.0)
        after = resumed.referee.snapshot()
        for transient in ("message", "lights"):
            before.pop(transient)
            after.pop(transient)
        assert after == before
        assert after["moves"] == [{"game": 1, "player": 0, "dice": [3, 1], "play": "8/5 6/5"}]
        events = resumed.feed(seen(OPENING.swap(), dice=(6, 5)))
        assert [e.type for e in events] == ["dice_rolled"]
        assert events[0].sequence == reopened.last_sequence()


def test_a_failed_write_lights_nothing_and_rebuilds_the_referee(tmp_path: Path) -> None:
    with Record(tmp_path / "events.db") as record:
        witness = Witness(record)
        runner = Runner.resume(record, clock=lambda: 5.0, lights=[witness])
        runner.feed(NewMatch(MatchSettings(length=3, match_id="m1")))
        shown = len(witness.seen)

        def refuse(event: Event, match_id: str | None = None) -> int:
            raise RecordError("disk full")

        record.append = refuse  # type: ignore[method-assign]
        with pytest.raises(RecordError, match="disk full"):
            runner.feed(seen(START, dice=(3, 1)))
        assert len(witness.seen) == shown
        assert runner.referee.game.phase == "roll_off"  # the unrecorded roll-off is forgotten


def test_admin_actions_for_the_panel() -> None:
    with Record(":memory:") as record:
        runner = Runner.resume(record, clock=lambda: 0.0)
        with pytest.raises(MatchSettingsError, match="policy"):
            runner.new_match({"players": ["A", "B"], "length": 3, "policy": "lenient"})
        runner.new_match({"players": ["A", "B"], "length": 3, "id": "m2", "policy": "condone"})
        runner.feed_all([seen(START, dice=(3, 1)), seen(OPENING, dice=(3, 1)), seen(OPENING)])
        runner.undo()
        assert record.events("m2")[-1].type == "undo"
        runner.resign(0, 1)
        assert [e.type for e in record.events("m2")[-2:]] == ["undo", "resign_offered"]
