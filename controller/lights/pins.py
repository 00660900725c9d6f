"""Lights and buttons on the Raspberry Pi's own pins, through gpiozero (the small build).

gpiozero is imported when this module is, and this module only when the factory asks for ``pins``.
Pins come from the pin map; the pin factory is gpiozero's choice (``GPIOZERO_PIN_FACTORY``) unless
one is passed in, as the tests do with ``MockFactory(pin_class=MockPWMPin)``.

Buttons are sampled every ``poll_ms`` and debounced by :class:`firmware.buttons.Debouncer`, the
same code the LED controller runs, so a button behaves alike on the Pi and on the Pico.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from gpiozero import Button, LEDBoard

from controller.lights.base import PressCallback, hold_name
from controller.lights.palette import DEFAULT_PALETTE, FLAG_LIGHTS, Effect, Palette
from controller.lights.pinmap import PinMap
from controller.lights.scene import DARK, Light, Scene
from firmware.buttons import Debouncer
from firmware.protocol import HOLD, PRESS, TICKS_PERIOD
from sheshbesh.closing import Closing

log = logging.getLogger(__name__)


def monotonic_ms() -> int:
    """Milliseconds on the same wrapping clock as MicroPython's ``ticks_ms``."""
    return int(time.monotonic() * 1000) & (TICKS_PERIOD - 1)


class PinLights(Closing):
    """Single-colour LEDs on the Pi's pins, each named after a location or a status flag.

    A location LED shows that location's Light; a status LED lights while its flag is set. The
    palette gives brightness (PWM) and effect (blink, pulse, flash).
    """

    def __init__(
        self, pinmap: PinMap, palette: Palette = DEFAULT_PALETTE, pin_factory: Any = None
    ) -> None:
        self.pinmap = pinmap
        self.palette = palette
        self.names = tuple(pinmap.leds)
        self.board = LEDBoard(*pinmap.leds.values(), pwm=True, pin_factory=pin_factory)
        self._showing: dict[str, Light] = dict.fromkeys(self.names, Light.OFF)
        self._scene = DARK
        self._closed = False

    @property
    def scene(self) -> Scene:
        return self._scene

    @property
    def is_connected(self) -> bool:
        return not self._closed

    def light_of(self, name: str, scene: Scene) -> Light:
        """The Light the LED called ``name`` shows for ``scene``."""
        if name in FLAG_LIGHTS:
            return FLAG_LIGHTS[name] if name in scene.flags else Light.OFF
        return scene[name]

    def show(self, scene: Scene) -> None:
        self._scene = scene
        if self._closed:
            return
        for index, name in enumerate(self.names):
            light = self.light_of(name, scene)
            if self._showing[name] is light:
                continue  # an unchanged blinking LED keeps its rhythm
            self._showing[name] = light
            self._drive(self.board[index], light)

    def _drive(self, led: Any, light: Light) -> None:
        level = self.palette.level(light)
        effect = self.palette.look(light).effect
        if level <= 0:
            led.off()
        elif effect is Effect.BLINK:
            led.blink(on_time=0.5, off_time=0.5)
        elif effect is Effect.FLASH:
            led.blink(on_time=0.12, off_time=0.12)
        elif effect is Effect.PULSE:
            led.pulse(fade_in_time=1.0, fade_out_time=1.0)
        else:
            led.value = level

    def value(self, name: str) -> float:
        """The LED's present PWM value 0..1 (changes over time while it blinks or pulses)."""
        return float(self.board[self.names.index(name)].value)

    def link_status(self) -> dict[str, Any]:
        return {
            "kind": "pins",
            "state": "disconnected" if self._closed else "connected",
            "leds": dict(self.pinmap.leds),
        }

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.board.off()
            self.board.close()


class PinButtons(Closing):
    """Push buttons on the Pi's pins (to ground, internal pull-ups), reporting to ``on_press``.

    With ``start=True`` a daemon thread samples them every ``poll_ms``; tests pass ``start=False``
    and call :meth:`poll` with their own clock.
    """

    def __init__(
        self,
        pinmap: PinMap,
        on_press: PressCallback | None = None,
        pin_factory: Any = None,
        poll_ms: int = 5,
        start: bool = True,
    ) -> None:
        self.on_press = on_press
        self.pinmap = pinmap
        self.poll_ms = poll_ms
        self._names = tuple(pinmap.buttons)
        self.buttons = [
            Button(pin, pull_up=True, pin_factory=pin_factory) for pin in pinmap.buttons.values()
        ]
        now = monotonic_ms()
        self._debouncers = [Debouncer(pinmap.debounce_ms, pinmap.hold_ms, now) for _ in self._names]
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if start:
            self._thread = threading.Thread(target=self._run, name="pin-buttons", daemon=True)
            self._thread.start()

    @property
    def names(self) -> tuple[str, ...]:
        return self._names

    def poll(self, now_ms: int) -> list[str]:
        """Sample every button at ``now_ms``; report and return the presses this completes."""
        reported = []
        for name, button, debouncer in zip(
            self._names, self.buttons, self._debouncers, strict=True
        ):
            event = debouncer.sample(bool(button.is_pressed), now_ms)
            if event is None:
                continue
            kind, _duration = event
            if kind == PRESS:
                reported.append(name)
            elif kind == HOLD:
                reported.append(hold_name(name))
        for name in reported:
            if self.on_press is not None:
                try:
                    self.on_press(name)
                except Exception:
                    log.exception("button callback failed for %s", name)
        return reported

    def _run(self) -> None:
        while not self._stop.wait(self.poll_ms / 1000):
            self.poll(monotonic_ms())

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1)
        for button in self.buttons:
            button.close()
