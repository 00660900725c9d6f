"""LEDs and buttons on the Pi's pins, with gpiozero's mock pin factory."""

from __future__ import annotations

import time
from typing import Any

import pytest

from controller.lights import (
    DEFAULT_PALETTE,
    Light,
    PinMap,
    Scene,
    illegal_scene,
    legal_scene,
    turn_scene,
)
from controller.lights.pins import PinButtons, PinLights
from controller.lights.scene import cube_offer_scene

PINS = PinMap(
    buttons={"done": 5, "undo": 26},
    leds={"turn-white": 17, "turn-black": 27, "illegal": 22, "p6": 12, "legal": 25},
    debounce_ms=20,
    hold_ms=1500,
)


def pin_value(factory: Any, number: int) -> float:
    return float(factory.pin(number).state)


def test_steady_leds_follow_the_scene(mock_factory: Any) -> None:
    with PinLights(PINS, pin_factory=mock_factory) as lights:
        assert all(pin_value(mock_factory, n) == 0 for n in PINS.leds.values())
        lights.show(Scene({"p6": Light.LEGAL}, {"legal"}))
        assert pin_value(mock_factory, 12) == pytest.approx(DEFAULT_PALETTE.level(Light.LEGAL))
        assert pin_value(mock_factory, 25) == pytest.approx(DEFAULT_PALETTE.level(Light.LEGAL))
        assert pin_value(mock_factory, 22) == 0
        lights.show(Scene())
        assert pin_value(mock_factory, 12) == 0 and pin_value(mock_factory, 25) == 0
        assert lights.scene == Scene()


def test_status_leds_blink_and_pulse(mock_factory: Any) -> None:
    lights = PinLights(PINS, pin_factory=mock_factory)
    lights.show(illegal_scene(["p6"]) | turn_scene(0))
    seen_illegal: set[bool] = set()
    seen_turn: set[float] = set()
    deadline = time.monotonic() + 5
    while (len(seen_illegal) < 2 or len(seen_turn) < 3) and time.monotonic() < deadline:
        seen_illegal.add(pin_value(mock_factory, 22) > 0)
        seen_turn.add(round(pin_value(mock_factory, 17), 2))
        time.sleep(0.01)
    assert seen_illegal == {True, False}  # flashing
    assert len(seen_turn) >= 3  # pulsing through several brightnesses
    assert pin_value(mock_factory, 27) == 0  # not Black's turn
    lights.close()
    assert all(pin_value(mock_factory, n) == 0 for n in PINS.leds.values())
    assert not lights.is_connected


def test_unchanged_leds_are_not_restarted(mock_factory: Any) -> None:
    lights = PinLights(PINS, pin_factory=mock_factory)
    lights.show(cube_offer_scene(1) | turn_scene(1))
    led = lights.board[list(PINS.leds).index("turn-black")]
    thread = led._blink_thread
    lights.show(turn_scene(1) | legal_scene([], ["p6"], 1))
    assert led._blink_thread is thread
    assert lights.link_status()["kind"] == "pins"
    lights.close()


def press_cycle(
    factory: Any, buttons: PinButtons, pin: int, schedule: list[tuple[int, bool]]
) -> list[str]:
    """Drive ``pin`` per ``(ms, pressed)`` and poll the buttons every 5 ms of made-up time."""
    reported: list[str] = []
    levels = dict(schedule)
    end = max(levels) + 100
    pressed = False
    for now in range(0, end, 5):
        for at, level in schedule:
            if at == now:
                pressed = level
        if pressed:
            factory.pin(pin).drive_low()
        else:
            factory.pin(pin).drive_high()
        reported.extend(buttons.poll(now))
    return reported


def test_a_press_is_reported_by_name(mock_factory: Any) -> None:
    got: list[str] = []
    buttons = PinButtons(PINS, got.append, pin_factory=mock_factory, start=False)
    assert buttons.names == ("done", "undo")
    reported = press_cycle(mock_factory, buttons, 5, [(100, True), (300, False)])
    assert reported == got == ["done"]
    buttons.close()


def test_bouncing_contacts_count_once(mock_factory: Any) -> None:
    got: list[str] = []
    buttons = PinButtons(PINS, got.append, pin_factory=mock_factory, start=False)
    bounce = [(100, True), (105, False), (110, True), (115, False), (120, True)]
    release = [(400, False), (405, True), (410, False)]
    press_cycle(mock_factory, buttons, 26, bounce + release)
    assert got == ["undo"]
    # A glitch shorter than the debounce time is no press at all.
    got.clear()
    press_cycle(mock_factory, buttons, 26, [(50, True), (60, False)])
    assert got == []
    buttons.close()


def test_a_long_hold_is_reported_once(mock_factory: Any) -> None:
    got: list[str] = []
    buttons = PinButtons(PINS, got.append, pin_factory=mock_factory, start=False)
    press_cycle(mock_factory, buttons, 5, [(0, True), (2500, False)])
    assert got == ["done-hold"]
    buttons.close()


def test_the_polling_thread_reports_presses(mock_factory: Any) -> None:
    got: list[str] = []
    with PinButtons(PINS, got.append, pin_factory=mock_factory, poll_ms=2) as buttons:
        mock_factory.pin(5).drive_low()
        deadline = time.monotonic() + 5
        while not buttons._debouncers[0].is_pressed and time.monotonic() < deadline:
            time.sleep(0.005)
        mock_factory.pin(5).drive_high()
        while not got and time.monotonic() < deadline:
            time.sleep(0.005)
    assert got == ["done"]


def test_a_failing_callback_does_not_stop_the_buttons(mock_factory: Any) -> None:
    calls: list[str] = []

    def explode(name: str) -> None:
        calls.append(name)
        raise RuntimeError("referee crashed")

    buttons = PinButtons(PINS, explode, pin_factory=mock_factory, start=False)
    press_cycle(mock_factory, buttons, 5, [(0, True), (100, False), (300, True), (400, False)])
    assert calls == ["done", "done"]
    buttons.close()
