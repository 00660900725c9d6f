"""The match events as typed values: one frozen dataclass per event type.

The record keeps each event's data as plain JSON (see ``controller.events`` for the table of
types and keys). Every reader of the record (the referee's fold, the ``.mat`` export, the analysis)
used to pick that JSON apart on its own; here it is read once, checked, and handed on typed.

``from_dict`` reads an event's data and raises :class:`EventDataError` naming the key that is
missing or wrong; ``to_dict`` writes it back exactly: the keys it was read with (a key that may be
left out stays left out), the same values, so ``json.dumps(..., sort_keys=True)`` of the two is the
same text.

>>> play = event_payload("dice_rolled", {"player": 1, "dice": [6, 4]})
>>> play
DiceRolled(player=1, dice=(6, 4))
>>> play.to_dict()
{'player': 1, 'dice': [6, 4]}
>>> event_payload("game_won", {"game": 1, "winner": 2, "points": 1, "score": [1, 0]})
Traceback (most recent call last):
...
sheshbesh.events.EventDataError: game_won: winner must be 0 or 1, not 2
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Self, TypeVar, cast

from sheshbesh.errors import SheshbeshError
from sheshbesh.match import (
    CUBE_ACTIONS,
    CubeAction,
    MatchSettings,
    MatchSettingsError,
    Player,
)

__all__ = [
    "EVENT_CLASSES",
    "BoardMismatch",
    "BoardRestored",
    "ClockFlag",
    "ClockPaused",
    "ClockResumed",
    "CubeBeavered",
    "CubeOffered",
    "CubePassed",
    "CubeRefused",
    "CubeTaken",
    "DiceRolled",
    "EventDataError",
    "EventPayload",
    "GameStarted",
    "GameWon",
    "IllegalPlay",
    "MatchStarted",
    "MatchWon",
    "Play",
    "ResignAccepted",
    "ResignOffered",
    "ResignRefused",
    "RollOff",
    "Undo",
    "event_payload",
]

Pair = tuple[int, int]
T = TypeVar("T")


class EventDataError(SheshbeshError, ValueError):
    """An event's data that does not fit its type; the message names the type and the key."""


class _Reader:
    """Reads one event's data key by key; each method raises :class:`EventDataError`."""

    def __init__(self, kind: str, data: Mapping[str, Any]) -> None:
        if not isinstance(data, Mapping):
            raise EventDataError(f"{kind}: the data must be an object, not {data!r:.60}")
        self.kind = kind
        self.data = data

    def fail(self, key: str, wanted: str) -> EventDataError:
        return EventDataError(f"{self.kind}: {key} must be {wanted}, not {self.data[key]!r:.60}")

    def _get(self, key: str, check: Callable[[Any], bool], wanted: str) -> Any:
        if key not in self.data:
            raise EventDataError(f"{self.kind}: {key} is missing")
        value = self.data[key]
        if not check(value):
            raise self.fail(key, wanted)
        return value

    def _maybe(self, key: str, read: Callable[[str], T]) -> T | None:
        return read(key) if key in self.data else None

    def integer(self, key: str, low: int = 0) -> int:
        return int(self._get(key, lambda v: _is_int(v) and v >= low, f"a whole number >= {low}"))

    def player(self, key: str = "player") -> Player:
        return cast(Player, self._get(key, lambda v: _is_int(v) and v in (0, 1), "0 or 1"))

    def player_or_none(self, key: str) -> Player | None:
        return cast(
            Player | None,
            self._get(key, lambda v: v is None or (_is_int(v) and v in (0, 1)), "0, 1 or null"),
        )

    def pair(self, key: str) -> Pair:
        value = self._get(key, _is_pair, "a list of two whole numbers")
        return (int(value[0]), int(value[1]))

    def dice(self, key: str = "dice") -> Pair:
        value = self._get(
            key, lambda v: _is_pair(v) and all(1 <= d <= 6 for d in v), "two dice, 1 to 6"
        )
        return (int(value[0]), int(value[1]))

    def text(self, key: str) -> str:
        return str(self._get(key, lambda v: isinstance(v, str), "text"))

    def flag(self, key: str) -> bool:
        return bool(self._get(key, lambda v: isinstance(v, bool), "true or false"))

    def number(self, key: str) -> float | int:
        return cast(
            float | int,
            self._get(key, lambda v: _is_int(v) or isinstance(v, float), "a number"),
        )

    def names(self, key: str) -> tuple[str, ...]:
        value = self._get(
            key,
            lambda v: isinstance(v, list) and all(isinstance(s, str) for s in v),
            "a list of texts",
        )
        return tuple(value)

    def counts(self, key: str) -> dict[str, Pair]:
        value = self._get(
            key,
            lambda v: isinstance(v, dict) and all(_is_pair(c) for c in v.values()),
            "an object of [white, black] counts",
        )
        return {str(name): (int(c[0]), int(c[1])) for name, c in value.items()}

    def maybe_text(self, key: str) -> str | None:
        return self._maybe(key, self.text)

    def maybe_flag(self, key: str) -> bool | None:
        return self._maybe(key, self.flag)

    def maybe_names(self, key: str) -> tuple[str, ...] | None:
        return self._maybe(key, self.names)

    def maybe_pair(self, key: str) -> Pair | None:
        return self._maybe(key, self.pair)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_pair(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(_is_int(v) for v in value)


def _put(data: dict[str, Any], key: str, value: Any) -> None:
    """Write an optional key only when it was read (None: it was left out)."""
    if value is not None:
        data[key] = list(value) if isinstance(value, tuple) else value


@dataclass(frozen=True, slots=True)
class MatchStarted:
    """A match began with these settings; ``match_id`` is its id in the record (key ``id``)."""

    type: ClassVar[str] = "match_started"
    match_id: str | None
    settings: MatchSettings

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchStarted:
        read = _Reader(cls.type, data)
        if "players" in data:
            names = read.names("players")
            if len(names) != 2:
                raise read.fail("players", "two names")
        if "length" in data:
            read.integer("length")
        try:
            settings = MatchSettings.from_data(data)
        except MatchSettingsError as error:
            raise EventDataError(f"{cls.type}: {error}") from error
        return cls(read.maybe_text("id"), settings)

    def to_dict(self) -> dict[str, Any]:
        data = self.settings.to_data(self.match_id or "")
        if self.match_id is None:
            del data["id"]
        return data


@dataclass(frozen=True, slots=True)
class GameStarted:
    """Game ``game`` (1-based) began at ``score``; None: a key the data left out."""

    type: ClassVar[str] = "game_started"
    game: int
    score: Pair | None = None
    crawford_game: bool | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameStarted:
        read = _Reader(cls.type, data)
        return cls(
            read.integer("game", 1), read.maybe_pair("score"), read.maybe_flag("crawford_game")
        )

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": self.game}
        _put(data, "score", self.score)
        _put(data, "crawford_game", self.crawford_game)
        return data

    @property
    def is_crawford(self) -> bool:
        """The Crawford game (left out: it is not)."""
        return bool(self.crawford_game)


@dataclass(frozen=True, slots=True)
class RollOff:
    """One die each: ``dice`` is (White's, Black's); ``first`` the player who starts, None on a tie."""

    type: ClassVar[str] = "roll_off"
    dice: Pair
    first: Player | None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RollOff:
        read = _Reader(cls.type, data)
        return cls(read.dice(), read.player_or_none("first"))

    def to_dict(self) -> dict[str, Any]:
        return {"dice": list(self.dice), "first": self.first}


@dataclass(frozen=True, slots=True)
class DiceRolled:
    type: ClassVar[str] = "dice_rolled"
    player: Player
    dice: Pair

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DiceRolled:
        read = _Reader(cls.type, data)
        return cls(read.player(), read.dice())

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "dice": list(self.dice)}


@dataclass(frozen=True, slots=True)
class Play:
    """A play recorded: IDs before (``position_id``, ``match_id``) and after (``result_id``), the
    mover's view; ``moved_from``/``moved_to`` the locations (keys ``from``/``to``)."""

    type: ClassVar[str] = "play"
    player: Player
    dice: Pair
    play: str
    position_id: str | None = None
    match_id: str | None = None
    result_id: str | None = None
    moved_from: tuple[str, ...] | None = None
    moved_to: tuple[str, ...] | None = None
    dice_left: bool | None = None
    condoned: bool | None = None
    reason: str | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Play:
        read = _Reader(cls.type, data)
        return cls(
            read.player(),
            read.dice(),
            read.text("play"),
            read.maybe_text("position_id"),
            read.maybe_text("match_id"),
            read.maybe_text("result_id"),
            read.maybe_names("from"),
            read.maybe_names("to"),
            read.maybe_flag("dice_left"),
            read.maybe_flag("condoned"),
            read.maybe_text("reason"),
        )

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"player": self.player, "dice": list(self.dice), "play": self.play}
        for key, value in (
            ("position_id", self.position_id),
            ("match_id", self.match_id),
            ("result_id", self.result_id),
            ("from", self.moved_from),
            ("to", self.moved_to),
            ("dice_left", self.dice_left),
            ("condoned", self.condoned),
            ("reason", self.reason),
        ):
            _put(data, key, value)
        return data


@dataclass(frozen=True, slots=True)
class IllegalPlay:
    """An illegal play seen: the board it left as ``result_id`` (mover's view) or, in Shesh Besh,
    as ``counts`` ({location: (white, black)})."""

    type: ClassVar[str] = "illegal_play"
    player: Player
    dice: Pair
    reason: str
    locations: tuple[str, ...] | None = None
    position_id: str | None = None
    result_id: str | None = None
    counts: dict[str, Pair] | None = None
    dice_left: bool | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> IllegalPlay:
        read = _Reader(cls.type, data)
        return cls(
            read.player(),
            read.dice(),
            read.text("reason"),
            read.maybe_names("locations"),
            read.maybe_text("position_id"),
            read.maybe_text("result_id"),
            read._maybe("counts", read.counts),
            read.maybe_flag("dice_left"),
        )

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "player": self.player,
            "dice": list(self.dice),
            "reason": self.reason,
        }
        _put(data, "locations", self.locations)
        _put(data, "position_id", self.position_id)
        _put(data, "result_id", self.result_id)
        if self.counts is not None:
            data["counts"] = {name: list(pair) for name, pair in self.counts.items()}
        _put(data, "dice_left", self.dice_left)
        return data


@dataclass(frozen=True, slots=True)
class BoardMismatch:
    type: ClassVar[str] = "board_mismatch"
    reason: str
    locations: tuple[str, ...] | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BoardMismatch:
        read = _Reader(cls.type, data)
        return cls(read.text("reason"), read.maybe_names("locations"))

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"reason": self.reason}
        _put(data, "locations", self.locations)
        return data


@dataclass(frozen=True, slots=True)
class BoardRestored:
    type: ClassVar[str] = "board_restored"
    position_id: str | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BoardRestored:
        return cls(_Reader(cls.type, data).maybe_text("position_id"))

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        _put(data, "position_id", self.position_id)
        return data


@dataclass(frozen=True, slots=True)
class _CubeEvent:
    """``player`` acts on the cube; ``cube`` is its value as the event table says."""

    type: ClassVar[str] = ""
    #: the cube action the event stands for
    action: ClassVar[CubeAction]
    player: Player
    cube: int

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        read = _Reader(cls.type, data)
        return cls(read.player(), read.integer("cube", 1))

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "cube": self.cube}


@dataclass(frozen=True, slots=True)
class CubeOffered(_CubeEvent):
    """A double: ``cube`` is the value after it."""

    type: ClassVar[str] = "cube_offered"
    action: ClassVar[CubeAction] = "double"


@dataclass(frozen=True, slots=True)
class CubeTaken(_CubeEvent):
    type: ClassVar[str] = "cube_taken"
    action: ClassVar[CubeAction] = "take"


@dataclass(frozen=True, slots=True)
class CubePassed(_CubeEvent):
    """A pass: ``cube`` is the value before the double."""

    type: ClassVar[str] = "cube_passed"
    action: ClassVar[CubeAction] = "pass"


@dataclass(frozen=True, slots=True)
class CubeBeavered(_CubeEvent):
    type: ClassVar[str] = "cube_beavered"
    action: ClassVar[CubeAction] = "beaver"


@dataclass(frozen=True, slots=True)
class CubeRefused:
    """A cube action the rules do not allow (``action`` one of the cube actions, or left out)."""

    type: ClassVar[str] = "cube_refused"
    player: Player
    action: CubeAction | None = None
    reason: str | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CubeRefused:
        read = _Reader(cls.type, data)
        action = read.maybe_text("action")
        if action is not None and action not in CUBE_ACTIONS:
            raise read.fail("action", f"one of {', '.join(CUBE_ACTIONS)}")
        return cls(read.player(), action, read.maybe_text("reason"))

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"player": self.player}
        _put(data, "action", self.action)
        _put(data, "reason", self.reason)
        return data


@dataclass(frozen=True, slots=True)
class ResignOffered:
    """``player`` offers to resign ``points`` times the cube (1, 2 or 3)."""

    type: ClassVar[str] = "resign_offered"
    player: Player
    points: int

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ResignOffered:
        read = _Reader(cls.type, data)
        return cls(read.player(), read.integer("points", 1))

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "points": self.points}


@dataclass(frozen=True, slots=True)
class _Answer:
    type: ClassVar[str] = ""
    player: Player

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        return cls(_Reader(cls.type, data).player())

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player}


@dataclass(frozen=True, slots=True)
class ResignAccepted(_Answer):
    type: ClassVar[str] = "resign_accepted"


@dataclass(frozen=True, slots=True)
class ResignRefused(_Answer):
    type: ClassVar[str] = "resign_refused"


@dataclass(frozen=True, slots=True)
class Undo:
    """Back to the position event ``to_sequence`` recorded."""

    type: ClassVar[str] = "undo"
    to_sequence: int
    position_id: str | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Undo:
        read = _Reader(cls.type, data)
        return cls(read.integer("to_sequence"), read.maybe_text("position_id"))

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"to_sequence": self.to_sequence}
        _put(data, "position_id", self.position_id)
        return data


@dataclass(frozen=True, slots=True)
class GameWon:
    """``kind`` is single, gammon, backgammon, pass, resign or time (left out: single);
    ``score`` the match score after the game."""

    type: ClassVar[str] = "game_won"
    game: int
    winner: Player
    points: int
    score: Pair | None = None
    kind: str | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameWon:
        read = _Reader(cls.type, data)
        return cls(
            read.integer("game"),
            read.player("winner"),
            read.integer("points", 1),
            read.maybe_pair("score"),
            read.maybe_text("kind"),
        )

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": self.game, "winner": self.winner, "points": self.points}
        _put(data, "kind", self.kind)
        _put(data, "score", self.score)
        return data

    @property
    def how(self) -> str:
        """How the game was won (``kind``; left out: single)."""
        return self.kind if self.kind is not None else "single"


@dataclass(frozen=True, slots=True)
class MatchWon:
    type: ClassVar[str] = "match_won"
    winner: Player
    score: Pair

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchWon:
        read = _Reader(cls.type, data)
        return cls(read.player("winner"), read.pair("score"))

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "score": list(self.score)}


@dataclass(frozen=True, slots=True)
class _ClockSwitch:
    type: ClassVar[str] = ""
    by: str

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        return cls(_Reader(cls.type, data).text("by"))

    def to_dict(self) -> dict[str, Any]:
        return {"by": self.by}


@dataclass(frozen=True, slots=True)
class ClockPaused(_ClockSwitch):
    """``by``: director or button."""

    type: ClassVar[str] = "clock_paused"


@dataclass(frozen=True, slots=True)
class ClockResumed(_ClockSwitch):
    """``by``: director, button, or restart (the referee resumed from the record)."""

    type: ClassVar[str] = "clock_resumed"


@dataclass(frozen=True, slots=True)
class ClockFlag:
    """``player``'s reserve ran out ``at`` (a time, by the event times before it)."""

    type: ClassVar[str] = "clock_flag"
    player: Player
    on_flag: str
    at: float | int

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ClockFlag:
        read = _Reader(cls.type, data)
        return cls(read.player(), read.text("on_flag"), read.number("at"))

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "on_flag": self.on_flag, "at": self.at}


EventPayload = (
    MatchStarted
    | GameStarted
    | RollOff
    | DiceRolled
    | Play
    | IllegalPlay
    | BoardMismatch
    | BoardRestored
    | CubeOffered
    | CubeTaken
    | CubePassed
    | CubeBeavered
    | CubeRefused
    | ResignOffered
    | ResignAccepted
    | ResignRefused
    | Undo
    | GameWon
    | MatchWon
    | ClockPaused
    | ClockResumed
    | ClockFlag
)

#: Each event type's class, by the type's name in the record.
EVENT_CLASSES: Final[Mapping[str, Any]] = {
    cls.type: cls
    for cls in (
        MatchStarted,
        GameStarted,
        RollOff,
        DiceRolled,
        Play,
        IllegalPlay,
        BoardMismatch,
        BoardRestored,
        CubeOffered,
        CubeTaken,
        CubePassed,
        CubeBeavered,
        CubeRefused,
        ResignOffered,
        ResignAccepted,
        ResignRefused,
        Undo,
        GameWon,
        MatchWon,
        ClockPaused,
        ClockResumed,
        ClockFlag,
    )
}


def event_payload(kind: str, data: Mapping[str, Any]) -> EventPayload:
    """The typed value of an event of type ``kind`` with ``data``.

    Raises :class:`EventDataError` for an unknown type or data that does not fit it.
    """
    cls = EVENT_CLASSES.get(kind)
    if cls is None:
        raise EventDataError(f"unknown event type {kind!r}")
    return cast(EventPayload, cls.from_dict(data))
