"""Pick the lights and buttons a build has, by name: ``fake``, ``pins`` or ``serial``.

Hardware modules (gpiozero, pyserial) are imported only here, only for the kind asked for.

>>> lights = open_lights("fake")
>>> lights.link_status()["kind"]
'fake'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Final

from controller.lights.base import Buttons, Lights, PressCallback
from controller.lights.errors import LightsConfigError
from controller.lights.fake import FakeButtons, FakeLights
from controller.lights.palette import Palette
from controller.lights.pinmap import PinMap, load_pinmap

#: "none" is a build without lights or buttons: it behaves as "fake" and nothing draws it.
KINDS: Final[tuple[str, ...]] = ("none", "fake", "pins", "serial")


@dataclass(frozen=True, slots=True)
class LightsConfig:
    """Which lights/buttons to open. ``port``/``baudrate`` override the pin map's ``[serial]``."""

    kind: str = "fake"
    pinmap: str | None = None
    port: str | None = None
    baudrate: int | None = None
    brightness: float = 1.0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise LightsConfigError(f"lights kind {self.kind!r} is not one of {', '.join(KINDS)}")
        if not 0.0 <= self.brightness <= 1.0:
            raise LightsConfigError(f"lights brightness {self.brightness!r} is not between 0 and 1")

    @classmethod
    def from_value(cls, value: Any) -> LightsConfig:
        """Accept a config, a mapping (a TOML table), an object with such attributes, or a kind."""
        if value is None:
            return cls()
        if isinstance(value, LightsConfig):
            return value
        if isinstance(value, str):
            return cls(kind=value)
        known = {field.name for field in fields(cls)}
        if not isinstance(value, Mapping):  # another settings object, e.g. the app's [lights]
            if not hasattr(value, "kind"):
                raise LightsConfigError(f"lights settings {value!r} have no kind")
            value = {name: getattr(value, name) for name in known if hasattr(value, name)}
        unknown = sorted(set(value) - known)
        if unknown:
            raise LightsConfigError(
                f"unknown lights setting(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
            )
        try:
            return cls(**dict(value))
        except TypeError as error:
            raise LightsConfigError(f"bad lights settings {dict(value)!r}: {error}") from error

    def load_pinmap(self) -> PinMap:
        return load_pinmap(self.pinmap)

    def serial_port(self, pinmap: PinMap) -> tuple[tuple[str, ...], int]:
        """Candidate ports (the config's, else the pin map's) and the baud rate."""
        ports = (self.port,) if self.port else pinmap.serial_ports
        if not ports:
            raise LightsConfigError(
                f"serial lights need a port: none in the config or {pinmap.source}"
            )
        return ports, self.baudrate or pinmap.serial_baudrate


#: A LightsConfig, a mapping of its fields, an object with such attributes, a kind, or None.
ConfigValue = Any


def open_lights(config: ConfigValue = None, pin_factory: Any = None) -> Lights:
    """Open the lights ``config`` names; raises :class:`LightsConfigError` or PinMapError."""
    settings = LightsConfig.from_value(config)
    palette = Palette(brightness=settings.brightness)
    if settings.kind in ("none", "fake"):
        return FakeLights(palette)
    pinmap = settings.load_pinmap()
    if settings.kind == "pins":
        from controller.lights.pins import PinLights

        return PinLights(pinmap, palette, pin_factory=pin_factory)
    from controller.lights.serial_link import SerialLights, SerialLink

    port, baudrate = settings.serial_port(pinmap)
    return SerialLights(SerialLink(port, baudrate), palette)


def open_buttons(
    config: ConfigValue = None,
    on_press: PressCallback | None = None,
    lights: Lights | None = None,
    pin_factory: Any = None,
) -> Buttons:
    """Open the buttons ``config`` names. Serial buttons share ``lights``' link when it is serial."""
    settings = LightsConfig.from_value(config)
    if settings.kind in ("none", "fake"):
        return FakeButtons(on_press)
    pinmap = settings.load_pinmap()
    if settings.kind == "pins":
        from controller.lights.pins import PinButtons

        return PinButtons(pinmap, on_press, pin_factory=pin_factory)
    from controller.lights.serial_link import SerialButtons, SerialLights, SerialLink

    if isinstance(lights, SerialLights):
        return SerialButtons(lights.link, on_press)
    port, baudrate = settings.serial_port(pinmap)
    return SerialButtons(SerialLink(port, baudrate), on_press)
