"""The match's shared words: players, colours, variants, policies, cube actions, phases, settings.

Every room speaks of a match in these terms: the referee records them, the panel draws and asks
for them, the config file and the room's director set them. They are typed here once (``Literal``
types with the tuple of their values beside them) so no room retypes them as string tuples, and
:class:`MatchSettings` is the one shape of "how a match is played", with one set of defaults.

>>> settings = MatchSettings(("Ada", "Boris"), length=0)
>>> settings.uses_jacoby, settings.to_data("m1")["players"]
(True, ['Ada', 'Boris'])
>>> MatchSettings.from_data(settings.to_data("m1")).match_id
'm1'
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, get_args

from sheshbesh.errors import SheshbeshError

__all__ = [
    "COLOURS",
    "COLOUR_NAMES",
    "CUBE_ACTIONS",
    "MAX_LENGTH",
    "MAX_NAME",
    "PHASES",
    "PLAYERS",
    "POLICIES",
    "VARIANTS",
    "ClockSettings",
    "ClockSettingsError",
    "Colour",
    "CubeAction",
    "MatchSettings",
    "MatchSettingsError",
    "Phase",
    "Player",
    "Policy",
    "Variant",
    "as_player",
    "as_player_or_none",
]

#: 0 is White, the left-hand player of a .mat file; 1 is Black.
Player = Literal[0, 1]
PLAYERS: Final[tuple[Player, Player]] = (0, 1)
#: The checker sets, by player: the panel's, vision's and the LEDs' words.
Colour = Literal["white", "black"]
COLOURS: Final[tuple[Colour, Colour]] = ("white", "black")
#: The same, as a name for people ("White", "Black").
COLOUR_NAMES: Final[tuple[str, str]] = ("White", "Black")
Variant = Literal["backgammon", "sheshbesh"]
VARIANTS: Final[tuple[Variant, ...]] = get_args(Variant)
#: What the referee does with an illegal play: show it and put the board back (teaching), stop
#: until it is put right (tournament), or let the opponent accept it as played (condone).
Policy = Literal["teaching", "tournament", "condone"]
POLICIES: Final[tuple[Policy, ...]] = get_args(Policy)
CubeAction = Literal["double", "take", "pass", "beaver"]
CUBE_ACTIONS: Final[tuple[CubeAction, ...]] = get_args(CubeAction)
#: The phases of a game, in the order they usually come (what each means: ``controller.referee.state``).
Phase = Literal[
    "idle",
    "roll_off",
    "rolling",
    "moving",
    "illegal",
    "cube_offered",
    "resign_offered",
    "won",
    "game_over",
    "match_over",
]
PHASES: Final[tuple[Phase, ...]] = get_args(Phase)
#: The longest match the forms and the config accept, and the longest player name.
MAX_LENGTH: Final[int] = 64
MAX_NAME: Final[int] = 40

ReserveKind = Literal["per-point", "fixed"]
RESERVE_KINDS: Final[tuple[ReserveKind, ...]] = get_args(ReserveKind)
DelayKind = Literal["simple", "bronstein"]
DELAY_KINDS: Final[tuple[DelayKind, ...]] = get_args(DelayKind)
OnFlag = Literal["flag", "lose"]
ON_FLAG: Final[tuple[OnFlag, ...]] = get_args(OnFlag)
#: Upper bounds that keep a typo from making a clock nobody can run out (or a negative one).
MAX_RESERVE_SECONDS: Final[float] = 24 * 3600.0
MAX_DELAY_SECONDS: Final[float] = 600.0
_CLOCK_KEYS: Final = ("reserve", "reserve_seconds", "delay_seconds", "delay", "on_flag")


def as_player(number: int) -> Player:
    """``number`` (0 or 1) as a :data:`Player`; raises ``ValueError`` for any other number.

    >>> as_player(1)
    1
    """
    if number == 0:
        return 0
    if number == 1:
        return 1
    raise ValueError(f"a player is 0 (White) or 1 (Black), not {number!r}")


def as_player_or_none(number: int | None) -> Player | None:
    """:func:`as_player`, keeping None (nobody)."""
    return None if number is None else as_player(number)


class MatchSettingsError(SheshbeshError, ValueError):
    """A match setting that makes no sense; the message names it."""


class ClockSettingsError(MatchSettingsError):
    """A clock setting that makes no sense; the message names it."""


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """How a match's clock runs. Raises :class:`ClockSettingsError` naming a bad setting.

    ``reserve`` is ``"per-point"`` (``reserve_seconds`` for every point of the match length; a
    money session counts as one point) or ``"fixed"`` (``reserve_seconds`` for the whole match).
    ``on_flag`` is ``"flag"`` (the flag is recorded and shown; play goes on for the director to
    decide) or ``"lose"`` (the flagged player loses the match on time; in a money session, which
    has no match to lose, a flag is only recorded).

    >>> ClockSettings().reserve_for(7)
    840.0
    """

    reserve: ReserveKind = "per-point"
    reserve_seconds: float = 120.0
    delay_seconds: float = 12.0
    delay: DelayKind = "simple"
    on_flag: OnFlag = "flag"

    def __post_init__(self) -> None:
        for name, choices in (
            ("reserve", RESERVE_KINDS),
            ("delay", DELAY_KINDS),
            ("on_flag", ON_FLAG),
        ):
            if getattr(self, name) not in choices:
                raise ClockSettingsError(
                    f"clock {name} {getattr(self, name)!r} is not one of {', '.join(choices)}"
                )
        _seconds("reserve_seconds", self.reserve_seconds, MAX_RESERVE_SECONDS, positive=True)
        _seconds("delay_seconds", self.delay_seconds, MAX_DELAY_SECONDS, positive=False)

    def reserve_for(self, length: int) -> float:
        """Each player's reserve for a match of ``length`` points (0: a money session)."""
        if self.reserve == "fixed":
            return float(self.reserve_seconds)
        return float(self.reserve_seconds) * max(int(length), 1)

    def to_data(self) -> dict[str, Any]:
        """The settings as plain JSON (kept in the ``match_started`` event)."""
        return {
            "reserve": self.reserve,
            "reserve_seconds": float(self.reserve_seconds),
            "delay_seconds": float(self.delay_seconds),
            "delay": self.delay,
            "on_flag": self.on_flag,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> ClockSettings:
        """Read :meth:`to_data` back; raises :class:`ClockSettingsError` naming what is wrong."""
        if not isinstance(data, Mapping):
            raise ClockSettingsError(f"clock settings must be a table, not {data!r}")
        unknown = sorted(set(data) - set(_CLOCK_KEYS))
        if unknown:
            raise ClockSettingsError(f"unknown clock setting(s): {', '.join(unknown)}")
        defaults = cls()
        return cls(**{key: data.get(key, getattr(defaults, key)) for key in _CLOCK_KEYS})


def _seconds(name: str, value: Any, most: float, *, positive: bool) -> None:
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if not number or not math.isfinite(value) or value < 0 or (positive and value == 0):
        wanted = "more than 0" if positive else "0 or more"
        raise ClockSettingsError(
            f"clock {name} must be a number of seconds {wanted}, not {value!r}"
        )
    if value > most:
        raise ClockSettingsError(f"clock {name} = {value!r} is more than {most:g} seconds")


@dataclass(frozen=True, slots=True)
class MatchSettings:
    """How a match is played: the one shape, with the one set of defaults.

    ``length`` 0 is a money session. ``jacoby`` None means "as gnubg": on in money play; match play
    never uses it (:attr:`uses_jacoby`). ``hints`` lights the legal destinations while a player
    moves. ``clock`` None: the match has no clock, and nothing about one is recorded. Callers
    that want other values say so (the config file's ``[match]`` section, the room director's
    assignment and the panel's form each have their own documented choices).

    Raises :class:`MatchSettingsError` naming the bad setting.

    >>> MatchSettings(("Alice", "Bob"), length=5).crawford
    True
    >>> MatchSettings(length=3, beavers=True)
    Traceback (most recent call last):
    ...
    sheshbesh.match.MatchSettingsError: beavers are for money sessions (length 0), not match play
    """

    players: tuple[str, str] = COLOUR_NAMES
    length: int = 7
    crawford: bool = True
    jacoby: bool | None = None
    beavers: bool = False
    variant: Variant = "backgammon"
    policy: Policy = "tournament"
    hints: bool = True
    match_id: str | None = None
    clock: ClockSettings | None = None

    def __post_init__(self) -> None:
        if len(self.players) != 2 or not all(isinstance(p, str) and p for p in self.players):
            raise MatchSettingsError(f"players must be two names, not {self.players!r}")
        if not isinstance(self.length, int) or self.length < 0:
            raise MatchSettingsError(f"match length must be 0 (money) or more, not {self.length!r}")
        if self.variant not in VARIANTS:
            raise MatchSettingsError(f"variant {self.variant!r} is not one of {VARIANTS}")
        if self.policy not in POLICIES:
            raise MatchSettingsError(f"policy {self.policy!r} is not one of {POLICIES}")
        if self.beavers and self.length:
            raise MatchSettingsError("beavers are for money sessions (length 0), not match play")

    @property
    def uses_jacoby(self) -> bool:
        """Jacoby applies: on by default in money play, never in match play."""
        if self.length:
            return False
        return True if self.jacoby is None else self.jacoby

    def to_data(self, match_id: str) -> dict[str, Any]:
        """The ``match_started`` event data (key order as recorded since the first record)."""
        data: dict[str, Any] = {
            "id": match_id,
            "players": list(self.players),
            "length": self.length,
            "crawford": self.crawford,
            "jacoby": self.uses_jacoby,
            "beavers": self.beavers,
            "variant": self.variant,
            "policy": self.policy,
            "hints": self.hints,
        }
        if self.clock is not None:
            data["clock"] = self.clock.to_data()
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> MatchSettings:
        """Read ``match_started`` data (or the same keys from the panel or the room) back.

        A missing key takes the class's default, except ``length``: a record without one was
        always read as a money session (0).
        Raises :class:`MatchSettingsError` naming what is malformed.
        """
        defaults = cls()
        players = data.get("players", list(defaults.players))
        try:
            clock = data.get("clock")
            return cls(
                players=(str(players[0]), str(players[1])),
                length=int(data.get("length", 0)),
                crawford=bool(data.get("crawford", defaults.crawford)),
                jacoby=None if "jacoby" not in data else bool(data["jacoby"]),
                beavers=bool(data.get("beavers", defaults.beavers)),
                variant=str(data.get("variant", defaults.variant)),  # type: ignore[arg-type]
                policy=str(data.get("policy", defaults.policy)),  # type: ignore[arg-type]
                hints=bool(data.get("hints", defaults.hints)),
                match_id=data.get("id"),
                clock=None if clock is None else ClockSettings.from_data(clock),
            )
        except (IndexError, TypeError, ValueError) as error:
            raise MatchSettingsError(
                f"malformed match_started data {dict(data)!r}: {error}"
            ) from error
