"""The pin map: which GPIO carries which button and LED, read from ``hardware/pinmap.toml``.

>>> pins = load_pinmap()
>>> pins.buttons["done"], pins.pico_led_count
(5, 28)
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from controller.lights.base import BUTTON_NAMES
from controller.lights.errors import PinMapError
from controller.lights.scene import STATUS_FLAGS
from sheshbesh.locations import LED_INDEX

PROJECT_ROOT: Final[Path] = Path(__file__).resolve().parents[2]
#: The pin map shipped with the project.
DEFAULT_PINMAP: Final[Path] = PROJECT_ROOT / "hardware" / "pinmap.toml"
PI_GPIO: Final[range] = range(0, 28)
PICO_GPIO: Final[range] = range(0, 29)


@dataclass(frozen=True, slots=True)
class PinMap:
    """Buttons and LEDs on the Pi's pins, the Pico's pins, and the serial port of the LED controller."""

    buttons: Mapping[str, int] = field(default_factory=dict)
    leds: Mapping[str, int] = field(default_factory=dict)
    debounce_ms: int = 20
    hold_ms: int = 1500
    pico_strip_pin: int = 0
    pico_led_count: int = 28
    pico_buttons: Mapping[str, int] = field(default_factory=dict)
    serial_ports: tuple[str, ...] = ()
    serial_baudrate: int = 115200
    source: str = "<defaults>"

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], source: str = "<mapping>") -> PinMap:
        """Check and build a pin map from parsed TOML; raises :class:`PinMapError` naming the key."""

        def table(where: Mapping[str, Any], key: str, path: str) -> Mapping[str, Any]:
            value = where.get(key, {})
            if not isinstance(value, Mapping):
                raise PinMapError(f"{source}: [{path}] must be a table, got {value!r}")
            return value

        def integer(where: Mapping[str, Any], key: str, path: str, default: int) -> int:
            value = where.get(key, default)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise PinMapError(f"{source}: {path}.{key} = {value!r} is not a whole number >= 0")
            return value

        def pins(
            where: Mapping[str, Any], path: str, known: set[str], gpio: range
        ) -> dict[str, int]:
            result: dict[str, int] = {}
            for name in where:
                if name not in known:
                    raise PinMapError(
                        f"{source}: [{path}] names {name!r}, which is none of: "
                        + ", ".join(sorted(known))
                    )
                pin = integer(where, name, path, 0)
                if pin not in gpio:
                    raise PinMapError(
                        f"{source}: {path}.{name} = {pin} is not a GPIO {gpio.start}..{gpio.stop - 1}"
                    )
                result[name] = pin
            return result

        pi = table(data, "pi", "pi")
        buttons = pins(table(pi, "buttons", "pi.buttons"), "pi.buttons", set(BUTTON_NAMES), PI_GPIO)
        leds = pins(
            table(pi, "leds", "pi.leds"), "pi.leds", set(STATUS_FLAGS) | set(LED_INDEX), PI_GPIO
        )
        used: dict[int, str] = {}
        for kind, mapping in (("pi.buttons", buttons), ("pi.leds", leds)):
            for name, pin in mapping.items():
                if pin in used:
                    raise PinMapError(
                        f"{source}: GPIO {pin} is used twice: {used[pin]} and {kind}.{name}"
                    )
                used[pin] = f"{kind}.{name}"
        debounce_ms = integer(pi, "debounce_ms", "pi", 20)
        hold_ms = integer(pi, "hold_ms", "pi", 1500)
        if hold_ms <= debounce_ms:
            raise PinMapError(
                f"{source}: pi.hold_ms ({hold_ms}) must exceed pi.debounce_ms ({debounce_ms})"
            )
        pico = table(data, "pico", "pico")
        strip_pin = integer(pico, "strip_pin", "pico", 0)
        if strip_pin not in PICO_GPIO:
            raise PinMapError(f"{source}: pico.strip_pin = {strip_pin} is not a GP pin 0..28")
        pico_buttons = pins(
            table(pico, "buttons", "pico.buttons"), "pico.buttons", set(BUTTON_NAMES), PICO_GPIO
        )
        if strip_pin in pico_buttons.values():
            raise PinMapError(f"{source}: pico GP{strip_pin} is both the strip and a button")
        led_count = integer(pico, "led_count", "pico", len(LED_INDEX))
        if not 1 <= led_count <= 120:
            raise PinMapError(f"{source}: pico.led_count = {led_count} is not 1..120")
        serial = table(data, "serial", "serial")
        port = serial.get("port", [])
        ports = [port] if isinstance(port, str) else port
        if not isinstance(ports, list) or not all(isinstance(p, str) and p for p in ports):
            raise PinMapError(f"{source}: serial.port = {port!r} is not a path or a list of paths")
        return cls(
            buttons=buttons,
            leds=leds,
            debounce_ms=debounce_ms,
            hold_ms=hold_ms,
            pico_strip_pin=strip_pin,
            pico_led_count=led_count,
            pico_buttons=pico_buttons,
            serial_ports=tuple(ports),
            serial_baudrate=integer(serial, "baudrate", "serial", 115200),
            source=source,
        )


def load_pinmap(path: str | Path | None = None) -> PinMap:
    """Read and check a pin map file (default: the project's ``hardware/pinmap.toml``).

    A relative path not found from the working directory is looked up in the project's folder.

    Raises :class:`PinMapError` naming the file when it is missing, not TOML, or inconsistent.
    """
    file = Path(path) if path is not None else DEFAULT_PINMAP
    if not file.is_absolute() and not file.exists() and (PROJECT_ROOT / file).exists():
        file = PROJECT_ROOT / file  # "hardware/pinmap.toml" works from any working directory
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except OSError as error:
        raise PinMapError(f"cannot read pin map {file}: {error.strerror or error}") from error
    except tomllib.TOMLDecodeError as error:
        raise PinMapError(f"pin map {file} is not valid TOML: {error}") from error
    return PinMap.from_mapping(data, str(file))
