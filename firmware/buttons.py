"""Debouncing of one push button: raw samples in, PRESS and HOLD events out.

Plain Python for MicroPython and CPython alike; the host's gpiozero buttons use the same class, so a
button behaves the same wired to the Pi or to the Pico.

A press counts once the input has been steady for ``debounce_ms``. Released before ``hold_ms``, it
is a PRESS (reported at release). Held for ``hold_ms``, it is a HOLD, reported once while still held;
its release then reports nothing.

>>> button = Debouncer(debounce_ms=20, hold_ms=1500)
>>> [button.sample(True, t) for t in (0, 10, 20)]
[None, None, None]
>>> button.sample(False, 100), button.sample(False, 120)
(None, (1, 100))
"""

from firmware.protocol import HOLD, PRESS, ticks_diff


class Debouncer:
    """Debounced state of one button fed by :meth:`sample`; ``is_pressed`` is the steady level."""

    def __init__(self, debounce_ms: int = 20, hold_ms: int = 1500, now: int = 0) -> None:
        if debounce_ms < 0 or hold_ms <= debounce_ms:
            raise ValueError(
                f"need 0 <= debounce_ms < hold_ms, got debounce_ms={debounce_ms!r} hold_ms={hold_ms!r}"
            )
        self.debounce_ms = debounce_ms
        self.hold_ms = hold_ms
        self.is_pressed = False
        self.is_held = False
        self._raw = False
        self._raw_since = now
        self._pressed_at = now

    def sample(self, pressed: bool, now: int) -> "tuple[int, int] | None":
        """Feed the raw level at tick ``now`` (ms); returns ``(PRESS | HOLD, duration ms)`` or None."""
        if pressed != self._raw:
            self._raw = pressed
            self._raw_since = now
        if self._raw != self.is_pressed and ticks_diff(now, self._raw_since) >= self.debounce_ms:
            self.is_pressed = self._raw
            if self.is_pressed:
                self._pressed_at = self._raw_since
                self.is_held = False
                return None
            if self.is_held:
                self.is_held = False
                return None
            return (PRESS, ticks_diff(self._raw_since, self._pressed_at))
        if self.is_pressed and not self.is_held:
            duration = ticks_diff(now, self._pressed_at)
            if duration >= self.hold_ms:
                self.is_held = True
                return (HOLD, duration)
        return None
