"""What the board's lights should show: a :class:`Scene` maps each location to a :class:`Light`.

The referee describes *what* to show (legal destinations, an illegal play, whose turn...) with the
builder functions here; :mod:`controller.lights.palette` alone decides colours and effects; the
drivers decide how to get them onto LEDs.

>>> scene = legal_scene(["p13"], ["p10", "p8"], mover=0)
>>> scene["p10"], scene["p13"], scene["p1"]
(<Light.LEGAL: 'legal'>, <Light.SOURCE: 'source'>, <Light.OFF: 'off'>)
>>> sorted(scene.flags)
['legal', 'turn-white']
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Final

from controller.lights.errors import SceneError
from sheshbesh.locations import (
    COLOURS,
    LED_INDEX,
    LOCATIONS,
    POINT_LOCATIONS,
    Colour,
    point_location,
)


class Light(enum.Enum):
    """What one location's light means."""

    OFF = "off"
    LEGAL = "legal"  # a legal destination for the checker in hand
    SOURCE = "source"  # where the checker in hand came from
    ILLEGAL = "illegal"  # part of an illegal play or a board mismatch (red)
    TURN = "turn"  # whose turn: the mover's tray and bar
    CUBE_OFFER = "cube-offer"  # a double was offered: the taker's tray and both bars
    GAME_OVER = "game-over"  # the winner's home board and tray


#: Status flags a scene may carry; status LEDs on the Pi's pins are named after them.
STATUS_FLAGS: Final[frozenset[str]] = frozenset(
    {"turn-white", "turn-black", "legal", "illegal", "cube-offer", "game-over"}
)
PLAYER_COLOURS: Final[tuple[str, str]] = ("white", "black")


def player_colour(player: int | str) -> Colour:
    """``"white"`` for player 0, ``"black"`` for player 1 (colour names pass through).

    Raises :class:`SceneError` for anything else.
    """
    if isinstance(player, int) and not isinstance(player, bool) and player in (0, 1):
        return COLOURS[player]
    if player == "white":
        return "white"
    if player == "black":
        return "black"
    raise SceneError(f"player {player!r} is neither 0 (white) nor 1 (black)")


class Scene(Mapping[str, Light]):
    """An immutable picture: every board location (in LED order) -> :class:`Light`, plus flags.

    Locations not given are :attr:`Light.OFF`. ``a | b`` lays ``b``'s lit locations over ``a`` and
    joins the flags. Raises :class:`SceneError` naming an unknown location or flag.
    """

    __slots__ = ("_flags", "_lights")

    def __init__(
        self, lights: Mapping[str, Light] | None = None, flags: Iterable[str] = ()
    ) -> None:
        lit: dict[str, Light] = {}
        for name, light in (lights or {}).items():
            if name not in LED_INDEX:
                raise SceneError(
                    f"scene names unknown location {name!r}; known: {', '.join(LOCATIONS)}"
                )
            if not isinstance(light, Light):
                raise SceneError(f"scene location {name!r} has {light!r}, not a Light")
            if light is not Light.OFF:
                lit[name] = light
        flag_set = frozenset(flags)
        unknown = flag_set - STATUS_FLAGS
        if unknown:
            raise SceneError(
                f"unknown scene flags {sorted(unknown)}; known: {', '.join(sorted(STATUS_FLAGS))}"
            )
        self._lights = {name: lit[name] for name in LOCATIONS if name in lit}
        self._flags = flag_set

    @property
    def flags(self) -> frozenset[str]:
        return self._flags

    def lit(self) -> dict[str, Light]:
        """The locations that are not OFF, in LED order."""
        return dict(self._lights)

    def __getitem__(self, name: str) -> Light:
        if name not in LED_INDEX:
            raise KeyError(name)
        return self._lights.get(name, Light.OFF)

    def __iter__(self) -> Iterator[str]:
        return iter(LOCATIONS)

    def __len__(self) -> int:
        return len(LOCATIONS)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Scene):
            return NotImplemented
        return self._lights == other._lights and self._flags == other._flags

    def __hash__(self) -> int:
        return hash((tuple(self._lights.items()), self._flags))

    def __or__(self, other: Scene) -> Scene:
        return Scene({**self._lights, **other._lights}, self._flags | other._flags)

    def __repr__(self) -> str:
        lights = ", ".join(f"{name!r}: Light.{light.name}" for name, light in self._lights.items())
        if not self._flags:
            return f"Scene({{{lights}}})"
        return f"Scene({{{lights}}}, flags={sorted(self._flags)!r})"

    def to_dict(self) -> dict[str, Any]:
        """JSON form for the panel: ``{"lights": {"p3": "legal", ...}, "flags": [...]}``."""
        return {
            "lights": {name: light.value for name, light in self._lights.items()},
            "flags": sorted(self._flags),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Scene:
        """Parse :meth:`to_dict`'s form; raises :class:`SceneError` naming the bad entry."""
        lights = {}
        for name, value in dict(data.get("lights", {})).items():
            try:
                lights[name] = Light(value)
            except ValueError:
                raise SceneError(f"scene light {value!r} at {name!r} is not a Light") from None
        return cls(lights, data.get("flags", ()))


#: Nothing lit.
DARK: Final[Scene] = Scene()


def _check_locations(kind: str, locations: Iterable[str]) -> list[str]:
    names = list(locations)
    for name in names:
        if name not in LED_INDEX:
            raise SceneError(f"{kind} location {name!r} is not a board location")
    return names


def legal_scene(sources: Iterable[str], destinations: Iterable[str], mover: int | str) -> Scene:
    """Where the checker(s) in hand may go (LEGAL), where they came from (SOURCE), whose turn.

    The mover's tray shows TURN unless it is itself a destination (bearing off).
    """
    colour = player_colour(mover)
    lights = {f"off-{colour}": Light.TURN}
    lights.update(dict.fromkeys(_check_locations("source", sources), Light.SOURCE))
    lights.update(dict.fromkeys(_check_locations("destination", destinations), Light.LEGAL))
    return Scene(lights, {f"turn-{colour}", "legal"})


def illegal_scene(locations: Iterable[str]) -> Scene:
    """The points of an illegal play (or a board mismatch) in red."""
    names = _check_locations("illegal", locations)
    return Scene(dict.fromkeys(names, Light.ILLEGAL), {"illegal"})


def turn_scene(player: int | str) -> Scene:
    """Whose turn it is: the player's tray and bar."""
    colour = player_colour(player)
    return Scene({f"off-{colour}": Light.TURN, f"bar-{colour}": Light.TURN}, {f"turn-{colour}"})


def cube_offer_scene(player: int | str) -> Scene:
    """``player`` offered a double: the opponent's tray and both bars ask for take or pass."""
    taker = "black" if player_colour(player) == "white" else "white"
    lights = {"bar-white": Light.CUBE_OFFER, "bar-black": Light.CUBE_OFFER}
    lights[f"off-{taker}"] = Light.CUBE_OFFER
    return Scene(lights, {"cube-offer"})


def game_over_scene(winner: int | str) -> Scene:
    """The game is over: the winner's home board and tray."""
    colour = player_colour(winner)
    home = [point_location(point, colour) for point in range(1, 7)]
    lights = dict.fromkeys(home, Light.GAME_OVER)
    lights[f"off-{colour}"] = Light.GAME_OVER
    return Scene(lights, {"game-over"})


def mover_location(point: int, mover: int | str) -> str:
    """Location of ``point`` in the mover's own numbering: 1..24, 25 = the mover's bar, 0 = off.

    >>> mover_location(25, 1), mover_location(0, 0), mover_location(24, 1)
    ('bar-black', 'off-white', 'p1')
    """
    colour = player_colour(mover)
    if point == 25:
        return f"bar-{colour}"
    if point == 0:
        return f"off-{colour}"
    if 1 <= point <= 24:
        return point_location(point, colour)
    raise SceneError(f"point {point!r} is not 0 (off), 1..24 or 25 (bar)")


__all__ = [
    "DARK",
    "PLAYER_COLOURS",
    "POINT_LOCATIONS",
    "STATUS_FLAGS",
    "Light",
    "Scene",
    "cube_offer_scene",
    "game_over_scene",
    "illegal_scene",
    "legal_scene",
    "mover_location",
    "player_colour",
    "turn_scene",
]
