"""The one place that turns a :class:`~controller.lights.scene.Light` into colour, brightness, effect.

Every driver reads this palette: the strip gets ``(r, g, b, effect)`` per LED, single-colour LEDs on
the Pi's pins get a brightness 0..1 and an effect, the panel gets CSS colours.

>>> DEFAULT_PALETTE.pixel(Light.LEGAL)
(0, 160, 0, 0)
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from controller.lights.errors import SceneError
from controller.lights.scene import Light, Scene
from firmware import protocol
from sheshbesh.locations import LOCATIONS


class Effect(enum.IntEnum):
    """How an LED moves; the values are the wire codes of a SCENE frame."""

    STEADY = protocol.STEADY
    BLINK = protocol.BLINK  # 500 ms on, 500 ms off
    PULSE = protocol.PULSE  # breathes over 2 s
    FLASH = protocol.FLASH  # 120 ms on, 120 ms off


@dataclass(frozen=True, slots=True)
class Look:
    """How one Light looks: a colour (0..255 each) and an effect."""

    red: int
    green: int
    blue: int
    effect: Effect = Effect.STEADY

    def __post_init__(self) -> None:
        for channel in (self.red, self.green, self.blue):
            if not 0 <= channel <= 255:
                raise SceneError(f"colour channel {channel!r} is not 0..255 in {self!r}")

    @property
    def css(self) -> str:
        return f"#{self.red:02x}{self.green:02x}{self.blue:02x}"


_LOOKS: Final[Mapping[Light, Look]] = MappingProxyType(
    {
        Light.OFF: Look(0, 0, 0),
        Light.LEGAL: Look(0, 160, 0),
        Light.SOURCE: Look(0, 60, 200),
        Light.ILLEGAL: Look(255, 0, 0, Effect.FLASH),
        Light.TURN: Look(200, 120, 40, Effect.PULSE),
        Light.CUBE_OFFER: Look(220, 180, 0, Effect.BLINK),
        Light.GAME_OVER: Look(150, 0, 200, Effect.PULSE),
    }
)

#: Status flag -> the Light a status LED named after it shows while the flag is set.
FLAG_LIGHTS: Final[Mapping[str, Light]] = MappingProxyType(
    {
        "turn-white": Light.TURN,
        "turn-black": Light.TURN,
        "legal": Light.LEGAL,
        "illegal": Light.ILLEGAL,
        "cube-offer": Light.CUBE_OFFER,
        "game-over": Light.GAME_OVER,
    }
)


@dataclass(frozen=True, slots=True)
class Palette:
    """Looks per Light and a global brightness (0..1) applied to every colour."""

    looks: Mapping[Light, Look] = field(default_factory=lambda: _LOOKS)
    brightness: float = 1.0

    def __post_init__(self) -> None:
        if not 0.0 <= self.brightness <= 1.0:
            raise SceneError(f"palette brightness {self.brightness!r} is not between 0 and 1")
        missing = [light.name for light in Light if light not in self.looks]
        if missing:
            raise SceneError(f"palette has no look for {', '.join(missing)}")

    def look(self, light: Light) -> Look:
        return self.looks[light]

    def pixel(self, light: Light) -> tuple[int, int, int, int]:
        """``(r, g, b, effect)`` for one strip LED, brightness applied."""
        look = self.looks[light]
        scale = self.brightness
        return (
            round(look.red * scale),
            round(look.green * scale),
            round(look.blue * scale),
            int(look.effect),
        )

    def strip_pixels(self, scene: Scene) -> list[tuple[int, int, int, int]]:
        """One ``(r, g, b, effect)`` per location, in LED order (sheshbesh.locations.LOCATIONS)."""
        return [self.pixel(scene[name]) for name in LOCATIONS]

    def level(self, light: Light) -> float:
        """Brightness 0..1 of a single-colour LED showing ``light``."""
        look = self.looks[light]
        return max(look.red, look.green, look.blue) / 255 * self.brightness

    def css(self, light: Light) -> str:
        """CSS colour of ``light`` for the panel's drawing."""
        return self.looks[light].css

    def describe(self, scene: Scene) -> dict[str, dict[str, str]]:
        """The lit locations as the panel draws them: ``{"p3": {"colour": "#00a000",
        "effect": "steady", "light": "legal"}, ...}`` (brightness is left to the panel)."""
        return {
            name: {
                "colour": self.looks[light].css,
                "effect": self.looks[light].effect.name.lower(),
                "light": light.value,
            }
            for name, light in scene.lit().items()
        }


DEFAULT_PALETTE: Final[Palette] = Palette()
