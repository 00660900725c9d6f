"""The LED controller on a Raspberry Pi Pico: neopixel strip, buttons on pins, USB serial.

``main.py`` calls :func:`main` at power-up. The host tests import this module with fake ``machine``
and ``neopixel`` modules and call :func:`run` with a pseudo-terminal as the link.
"""

import sys

import machine
import neopixel

from firmware import config
from firmware.buttons import Debouncer
from firmware.ledcontroller import Controller
from firmware.protocol import TICKS_PERIOD

try:
    from time import sleep_ms, ticks_ms  # type: ignore[attr-defined]
except ImportError:  # CPython (host tests): the same wrapping millisecond clock
    import time

    def ticks_ms() -> int:
        return int(time.monotonic() * 1000) & (TICKS_PERIOD - 1)

    def sleep_ms(ms: int) -> None:
        time.sleep(ms / 1000)


TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


class UsbSerial:
    """The Pico's USB serial port (MicroPython's stdin and stdout), read without blocking."""

    def __init__(self) -> None:
        import select

        import micropython

        micropython.kbd_intr(-1)  # a 0x03 byte inside a frame must not raise KeyboardInterrupt
        self._input = sys.stdin.buffer
        self._output = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

    def read(self) -> bytes:
        data = bytearray()
        while len(data) < 512 and self._poll.poll(0):
            data.extend(self._input.read(1))
        return bytes(data)

    def write(self, data: bytes) -> None:
        self._output.write(data)


def open_strip() -> "Any":
    return neopixel.NeoPixel(machine.Pin(config.STRIP_PIN, machine.Pin.OUT), config.LED_COUNT)


def open_buttons() -> "list[tuple[str, Any]]":
    return [
        (name, machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP))
        for name, pin in config.BUTTONS
    ]


def run(
    link: "Any" = None,
    stop: "Callable[[], bool] | None" = None,
    silence_ms: int = config.SILENCE_MS,
    retransmit_ms: int = config.RETRANSMIT_MS,
    loop_ms: int = 1,
    started: "Callable[[Controller], Any] | None" = None,
) -> Controller:
    """Serve the host over ``link`` (USB serial by default) until ``stop()`` says so (never on a Pico).

    ``started`` is called with the controller once it is built (the tests watch its state).
    """
    if link is None:
        link = UsbSerial()
    strip = open_strip()
    buttons = open_buttons()
    now = ticks_ms()
    controller = Controller(
        strip,
        link.write,
        [name for name, _ in buttons],
        now=now,
        silence_ms=silence_ms,
        retransmit_ms=retransmit_ms,
        current_limit_ma=config.CURRENT_LIMIT_MA,
        channel_ma=config.CHANNEL_MA,
    )
    debouncers = [Debouncer(config.DEBOUNCE_MS, config.HOLD_MS, now) for _ in buttons]
    if started is not None:
        started(controller)
    while stop is None or not stop():
        now = ticks_ms()
        data = link.read()
        if data:
            controller.receive(data, now)
        for index in range(len(buttons)):
            event = debouncers[index].sample(buttons[index][1].value() == 0, now)
            if event is not None:
                controller.button(index, event[0], event[1], now)
        controller.tick(now)
        if not data:
            sleep_ms(loop_ms)
    return controller


def is_safe_boot() -> bool:
    """True while the safe-boot button is held: the firmware then leaves the REPL to the user."""
    for name, pin in open_buttons():
        if name == config.SAFE_BOOT_BUTTON:
            return bool(pin.value() == 0)
    return False


def main() -> None:
    """Power-up entry: run forever; on an unexpected error, reset the board and start again."""
    if is_safe_boot():
        return
    try:
        run()
    except Exception:
        machine.reset()
