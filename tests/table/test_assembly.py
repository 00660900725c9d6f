"""The live table's assembly: what it owns, and that it closes all of it, last opened first, however
the block ends (a part that refuses to open, an error while refereeing, a part that fails to close)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from controller.lights import FakeButtons, FakeLights, LightsError
from controller.record.store import Record, RecordError
from controller.referee import ButtonPressed, MatchSettings, NewMatch
from controller.table.assembly import FrameClock, LiveTable, TableError
from controller.table.health import Health
from sheshbesh.observation import Observation

NO_ROOM = argparse.Namespace(broker=None, table=None)


class Closings:
    """Wraps each part's ``close`` so that the order of closing can be read back."""

    def __init__(self) -> None:
        self.order: list[str] = []

    def watch(self, name: str, part: Any, closer: str = "close") -> Any:
        close = getattr(part, closer)

        def closing(*args: Any, **kwargs: Any) -> None:
            self.order.append(name)
            close(*args, **kwargs)

        setattr(part, closer, closing)
        return part


class StillReader:
    """A board reader that sees a hand over the board on every frame: nothing reaches the referee."""

    def __init__(self) -> None:
        self.seen = 0

    def observe(self, image: Any, time: float) -> Observation:
        self.seen += 1
        return Observation(locations={}, state="occluded", time=time)


def _reopens(path: Path) -> bool:
    """Whether the record at ``path`` can be opened again (its lock was let go)."""
    try:
        Record(path).close()
    except RecordError:
        return False
    return True


def _open_everything(live: LiveTable, closings: Closings, db: Path) -> None:
    live.open_lights(lambda: closings.watch("lights", FakeLights()))
    live.open_buttons(lambda press: closings.watch("buttons", FakeButtons(press)))
    closings.watch("record", live.open_record(db))
    live.join_room(NO_ROOM)
    live.open_panel()
    live.start_runner()
    closings.watch("analyst", live.open_analyst())
    live.open_table(StillReader())
    server = live.serve_panel(None, "127.0.0.1", 0, db.parent / "exports")
    closings.watch("server", server, closer="stop")


def test_the_parts_close_last_opened_first(tmp_path: Path) -> None:
    closings = Closings()
    db = tmp_path / "record.sqlite"
    with LiveTable("test") as live:
        _open_everything(live, closings, db)
        assert not _reopens(db)  # the table holds the record
        assert closings.order == []
    assert closings.order == ["server", "analyst", "record", "buttons", "lights"]
    assert _reopens(db)


def test_an_error_while_refereeing_still_closes_everything(tmp_path: Path) -> None:
    closings = Closings()
    db = tmp_path / "record.sqlite"
    with pytest.raises(KeyboardInterrupt), LiveTable("test") as live:
        _open_everything(live, closings, db)
        raise KeyboardInterrupt
    assert closings.order == ["server", "analyst", "record", "buttons", "lights"]
    assert _reopens(db)


def test_a_part_that_refuses_to_open_closes_those_opened_before(tmp_path: Path) -> None:
    closings = Closings()

    def broken(press: Any) -> Any:
        raise LightsError("no such button board")

    refused = "the buttons could not be opened: no such button board"
    with pytest.raises(TableError, match=refused), LiveTable("test") as live:
        live.open_lights(lambda: closings.watch("lights", FakeLights()))
        live.open_buttons(broken)
        live.open_record(tmp_path / "never.sqlite")  # not reached
    assert closings.order == ["lights"]
    assert not (tmp_path / "never.sqlite").exists()


def test_a_record_held_elsewhere_is_refused_by_name(tmp_path: Path) -> None:
    db = tmp_path / "record.sqlite"
    closings = Closings()
    with Record(db), pytest.raises(TableError, match="record"), LiveTable("test") as live:
        live.open_lights(lambda: closings.watch("lights", FakeLights()))
        live.open_record(db)
    assert closings.order == ["lights"]


def test_a_part_that_fails_to_close_does_not_keep_the_others_open(tmp_path: Path) -> None:
    db = tmp_path / "record.sqlite"
    lights = FakeLights()
    with pytest.raises(OSError, match="strip unplugged"), LiveTable("test") as live:
        live.open_lights(lambda: lights)
        record = live.open_record(db)

        def unplugged() -> None:
            raise OSError("strip unplugged")

        record_close = record.close
        record.close = unplugged  # type: ignore[method-assign]
        live.start_runner()
    record_close()  # the record's own close was replaced: close it for the check below
    assert lights.closed


def test_the_runner_records_at_the_frames_time_and_buttons_reach_it(tmp_path: Path) -> None:
    clock = FrameClock(100.0)
    with LiveTable("test", clock=clock) as live:
        buttons = live.open_buttons(FakeButtons)
        assert isinstance(buttons, FakeButtons)
        buttons.press("done")  # before the runner: nowhere to go, and no error
        lights = live.open_lights(FakeLights)
        record = live.open_record(tmp_path / "record.sqlite")
        runner = live.start_runner()
        clock.now = 250.0
        runner.feed(NewMatch(MatchSettings(("Ada", "Bo"), length=3, match_id="m1")))
        assert [event.time for event in record.events("m1")] == [250.0, 250.0]
        assert isinstance(lights, FakeLights) and lights.history  # the runner lights the table
        fed: list[Any] = []
        feed = runner.feed
        runner.feed = lambda item: fed.append(item) or feed(item)  # type: ignore[method-assign]
        buttons.press("done")
        assert fed == [ButtonPressed("done")]


def test_progress_lines_for_the_chosen_events_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with LiveTable("test", progress=("game_started",)) as live:
        live.open_lights(FakeLights)
        live.open_record(tmp_path / "record.sqlite")
        runner = live.start_runner()
        table = live.open_table(StillReader())
        events = runner.feed(NewMatch(MatchSettings(("Ada", "Bo"), length=3, match_id="m1")))
        assert table.on_event is not None
        for event in events:
            table.on_event(event)
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["game 1: Ada 0, Bo 0  [game_started]"]


def _frames(folder: Path, count: int) -> Path:
    folder.mkdir()
    rng = np.random.default_rng(3)
    for index in range(count):
        image = rng.integers(0, 255, (48, 64, 3), dtype=np.uint8)
        cv2.imwrite(str(folder / f"frame-{index:03d}.png"), image)
    return folder


def _watching(tmp_path: Path, **health: str) -> tuple[LiveTable, StillReader]:
    live = LiveTable("test", health=Health(**health))
    live.open_lights(FakeLights)
    live.open_record(tmp_path / "record.sqlite")
    live.start_runner()
    reader = StillReader()
    live.open_table(reader)
    return live, reader


CAMERA = argparse.Namespace(width=64, height=48, fps=10.0, exposure=0)


def test_a_folder_of_frames_is_read_to_its_end_or_to_the_limit(tmp_path: Path) -> None:
    folder = _frames(tmp_path / "frames", 5)
    live, reader = _watching(tmp_path, camera="none", leds="ok")
    with live:
        read = live.watch_camera(str(folder), camera=CAMERA, leds_kind="fake", reconnect_seconds=1)
        assert read == reader.seen == 5
        assert live.health()["camera"] == "ok"
        assert live.clock.now > 0  # the frames' own times, from 0, after the start
    again = tmp_path / "again"
    again.mkdir()
    live, reader = _watching(again)
    with live:
        assert (
            live.watch_camera(
                str(folder), camera=CAMERA, leds_kind="none", reconnect_seconds=1, frames=2
            )
            == 2
        )
        assert reader.seen == 2
        assert live.health()["leds"] == "none"


def test_a_camera_that_never_comes_is_given_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    live, reader = _watching(tmp_path, camera="none")
    with live:
        read = live.watch_camera(
            str(tmp_path / "no-such-folder"),
            camera=CAMERA,
            leds_kind="fake",
            reconnect_seconds=0.01,
            give_up_after=0.05,
        )
    assert read == 0 and reader.seen == 0
    assert live.health()["camera"] == "lost"
    assert live.table is not None and live.table.status.camera == "lost"
    assert "sheshbesh test: camera lost:" in capsys.readouterr().err


def test_parts_out_of_order_are_named() -> None:
    with LiveTable("test") as live, pytest.raises(TableError, match="the record is not open"):
        live.start_runner()
