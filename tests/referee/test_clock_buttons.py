"""The ``clock`` and ``pause`` buttons on the Pi's pins, through gpiozero's mock pins, to the record.

The shipped pin map wires them (GPIO 16 and 20); the presses go the way ``sheshbesh run`` sends
them: :class:`PinButtons` -> ``ButtonPressed`` -> the runner -> the SQLite record.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from referee_testkit import seen

from controller.lights.pinmap import load_pinmap
from controller.record.store import Record
from controller.referee import ButtonPressed, ClockSettings, MatchSettings, NewMatch
from controller.rules import Play, Position
from controller.table.runner import Runner

gpiozero = pytest.importorskip("gpiozero", reason="gpiozero is not installed")
os.environ.setdefault("GPIOZERO_MOCK_REVISION", "c03111")  # a Raspberry Pi 4


@pytest.fixture
def factory() -> Iterator[Any]:
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    saved = Device.pin_factory
    mock = MockFactory()
    Device.pin_factory = mock
    yield mock
    mock.reset()
    Device.pin_factory = saved


def press(factory: Any, buttons: Any, pin: int, start_ms: int) -> list[str]:
    """Hold ``pin`` down for 200 ms of made-up time, polling every 5 ms; returns what was reported."""
    reported: list[str] = []
    for now in range(start_ms, start_ms + 400, 5):
        if now < start_ms + 200:
            factory.pin(pin).drive_low()
        else:
            factory.pin(pin).drive_high()
        reported.extend(buttons.poll(now))
    return reported


def test_the_pause_and_clock_buttons_reach_the_record(factory: Any, tmp_path: Path) -> None:
    from controller.lights.pins import PinButtons

    pinmap = load_pinmap()
    assert (pinmap.buttons["clock"], pinmap.buttons["pause"]) == (16, 20)
    now = [0.0]
    with Record(tmp_path / "board.sqlite") as log:
        runner = Runner.resume(log, clock=lambda: now[0])
        buttons = PinButtons(
            pinmap,
            lambda name: runner.feed(ButtonPressed(name)) and None,
            pin_factory=factory,
            start=False,
        )
        try:
            settings = MatchSettings(
                ("Ada", "Boris"), length=3, match_id="m", clock=ClockSettings()
            )
            runner.feed(NewMatch(settings))
            start = Position.initial(turn=0)
            now[0] = 30.0
            runner.feed(seen(start, dice=(3, 1)))  # White's time runs from 30
            now[0] = 40.0
            assert press(factory, buttons, 20, 1000) == ["pause"]
            now[0] = 900.0
            assert press(factory, buttons, 20, 2000) == ["pause"]
            played = start.apply(Play.from_notation("8/5 6/5", start, (3, 1)))
            now[0] = 910.0
            runner.feed(seen(played, dice=(3, 1)))  # played; the dice stay down
            now[0] = 915.0
            assert press(factory, buttons, 16, 3000) == ["clock"]
        finally:
            buttons.close()
        events = [
            (e.type, e.data.get("by"), e.time)
            for e in log.events("m")
            if e.type in ("clock_paused", "clock_resumed", "play")
        ]
        clock = runner.referee.snapshot()["clock"]
    assert events == [
        ("clock_paused", "button", 40.0),
        ("clock_resumed", "button", 900.0),
        ("play", None, 915.0),
    ]
    # White used 10 s before the pause and 15 s after it: 25 - 12 = 13 s off 360.
    assert clock["remaining"] == [347.0, 360.0]
    assert clock["running"] == 1
