"""The panel snapshot: the referee's whole picture of the match, as the pages draw it.

The referee writes it (``controller.referee.Referee.snapshot``), the table adds its health, the
panel and the room read it. Its shape is typed here once, as ``TypedDict`` classes that mypy checks
where the snapshot is built and read, and :func:`check_snapshot` checks a snapshot that arrives at
run time (a publish, a room's mirror) against the same classes: one description of the shape,
no second one written by hand. The JSON is plain (lists, not tuples), as the pages receive it.

``Annotated`` fields say what more a value must be: the text metadata is the wording of the
error, a :class:`Rule` a further condition (a range, a power of two, a board location).

>>> check_snapshot({"value": 3, "owner": None, "offered_by": None, "dead": False}, CubeView, "cube")
Traceback (most recent call last):
...
sheshbesh.snapshot.SnapshotError: state field cube.value: must be a power of two >= 1 (got 3)
"""

from __future__ import annotations

import functools
import math
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import (
    Annotated,
    Any,
    Final,
    Literal,
    NotRequired,
    TypedDict,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

from sheshbesh.errors import SheshbeshError
from sheshbesh.locations import LOCATIONS
from sheshbesh.match import CubeAction, Phase, Player, Policy, Variant

__all__ = [
    "DEVICE_STATUSES",
    "MESSAGE_KINDS",
    "ClockView",
    "CubeMove",
    "CubeView",
    "GameResult",
    "LastPlay",
    "MatchView",
    "Message",
    "MessageKind",
    "PanelSnapshot",
    "PlayMove",
    "Rule",
    "SnapshotError",
    "Status",
    "check_snapshot",
]


class SnapshotError(SheshbeshError, ValueError):
    """A snapshot that does not have the panel's shape; the message names the first wrong field."""


@dataclass(frozen=True, slots=True)
class Rule:
    """A further condition on a value: ``holds(value)`` or the problem in words."""

    holds: Callable[[Any], bool]
    problem: str | Callable[[Any], str]

    def check(self, value: Any) -> str | None:
        if self.holds(value):
            return None
        return self.problem if isinstance(self.problem, str) else self.problem(value)


def _at_most_fifteen_each(position: Mapping[str, Any]) -> str | None:
    for index, colour in enumerate(("white", "black")):
        total = sum(counts[index] for counts in position.values())
        if total > 15:
            return f"holds {total} {colour} checkers, more than 15"
    return None


_LOCATION: Final = Rule(
    lambda name: name in LOCATIONS, lambda name: f"names unknown location {name!r}"
)
_FIFTEEN: Final = Rule(
    lambda p: _at_most_fifteen_each(p) is None, lambda p: _at_most_fifteen_each(p) or ""
)

PlayerOrNone = Annotated[Player | None, "null, 0 or 1"]
Location = Annotated[str, _LOCATION]
Locations = Annotated[list[Location], "a list of board location names"]
Count = Annotated[int, Rule(lambda n: 0 <= n <= 15, "a whole number 0..15")]
Counts = Annotated[list[Count], Rule(lambda c: len(c) == 2, "a list of two integers 0..15")]
Die = Annotated[int, Rule(lambda n: 1 <= n <= 6, "a die 1..6")]
Dice = Annotated[list[Die], Rule(lambda d: len(d) == 2, "a list of two integers 1..6")]
Natural = Annotated[int, Rule(lambda n: n >= 0, "an integer >= 0")]
Pair = Annotated[list[Natural], Rule(lambda p: len(p) == 2, "a list of two integers >= 0")]
Seconds = Annotated[float, Rule(lambda s: math.isfinite(s) and s >= 0, "a number of seconds >= 0")]
MessageKind = Literal["illegal", "mismatch", "info", "cube"]
MESSAGE_KINDS: Final[tuple[MessageKind, ...]] = get_args(MessageKind)
DeviceStatus = Literal["ok", "lost", "none"]
DEVICE_STATUSES: Final[tuple[DeviceStatus, ...]] = get_args(DeviceStatus)


class MatchView(TypedDict):
    id: NotRequired[str | None]
    players: Annotated[list[str], Rule(lambda p: len(p) == 2, "a list of two names")]
    length: Annotated[Natural, "an integer >= 0 (0 = money)"]
    score: Pair
    crawford_game: bool
    post_crawford: bool
    game: Natural
    variant: Variant
    policy: Policy
    hints: bool
    winner: PlayerOrNone


class CubeView(TypedDict):
    """``value`` is the stake now (1 while the cube sits in the middle); while ``offered_by`` is
    set a double to twice that value awaits a take or a pass."""

    value: Annotated[int, Rule(lambda v: v >= 1 and not v & (v - 1), "a power of two >= 1")]
    owner: PlayerOrNone
    offered_by: PlayerOrNone
    dead: bool


LastPlay = TypedDict(
    "LastPlay",
    {
        "player": PlayerOrNone,
        "dice": NotRequired[list[int]],
        "play": Annotated[str, "a string in move notation"],
        "from": NotRequired[Locations],
        "to": NotRequired[Locations],
    },
)


class PlayMove(TypedDict):
    game: int
    player: Player
    dice: list[int]
    play: str


class CubeMove(TypedDict):
    """A cube action, with the cube's value after it."""

    game: int
    player: Player
    action: CubeAction
    cube: int


class GameResult(TypedDict):
    game: int
    winner: Player
    points: int
    score: list[int]


class Message(TypedDict):
    kind: MessageKind
    text: str
    locations: NotRequired[Locations]


class Status(TypedDict, total=False):
    """The table's health (added by the table) and the game's phase (the referee's)."""

    camera: DeviceStatus
    leds: DeviceStatus
    analysis: str
    phase: Phase


class ClockView(TypedDict):
    """``remaining`` is each reserve when the snapshot was made; ``running`` whose time ran."""

    remaining: Annotated[
        list[Seconds], Rule(lambda r: len(r) == 2, "a list of two numbers of seconds")
    ]
    running: PlayerOrNone
    paused: bool
    flagged: Annotated[list[bool], Rule(lambda f: len(f) == 2, "a list of two booleans")]
    delay_left: Seconds
    delay_seconds: Seconds
    delay_kind: Literal["simple", "bronstein"]
    reserve: Seconds
    on_flag: Literal["flag", "lose"]
    lost_on_time: NotRequired[PlayerOrNone]


class PanelSnapshot(TypedDict):
    """Everything a page draws. Player 0 is White, the left-hand player of a .mat file."""

    match: MatchView
    cube: CubeView
    turn: PlayerOrNone
    dice: Dice | None
    pips: Pair
    position: Annotated[dict[Location, Counts], _FIFTEEN]
    position_id: str
    match_id: str
    last_play: LastPlay | None
    moves: list[PlayMove | CubeMove]
    games: list[GameResult]
    message: Message | None
    lights: dict[Location, str]
    status: Status
    #: only in a match with a clock
    clock: NotRequired[ClockView | None]


def check_snapshot(value: Any, shape: Any = PanelSnapshot, path: str = "(root)") -> Any:
    """Check ``value`` against ``shape`` (a class of this module; the whole snapshot by default,
    ``path`` naming where it sits) and return it unchanged.

    Raises :class:`SnapshotError` naming the first field that is missing or wrong.
    """
    problem = _checker(shape)(value)
    if problem is not None:
        where, tail = problem
        if path == "(root)" and where:  # noqa: SIM108
            field = where.removeprefix(".")
        else:
            field = path + where
        raise SnapshotError(f"state field {field}{tail}")
    return value


#: What is wrong, if anything: (where below the value checked, e.g. ".match.score", and the rest
#: of the sentence, e.g. ": must be ... (got ...)"). Returned, not raised: a union tries its
#: options, and a snapshot is checked on every publish.
Problem = tuple[str, str] | None
Checker = Callable[[Any], Problem]


def _must(wanted: str, value: Any) -> Problem:
    return "", f": must be {wanted} (got {value!r:.80})"


def _below(where: str, problem: Problem) -> Problem:
    return None if problem is None else (where + problem[0], problem[1])


@functools.cache
def _checker(shape: Any) -> Checker:
    """The checker of ``shape``, built once per type from its annotations."""
    origin = get_origin(shape)
    if origin is Annotated:
        return _annotated_checker(shape)
    if is_typeddict(shape):
        return _object_checker(shape)
    if origin in (Union, types.UnionType):
        return _union_checker(shape)
    if origin is Literal:
        return _literal_checker(shape)
    if origin is list:
        return _list_checker(get_args(shape)[0])
    if origin is dict:
        return _mapping_checker(*get_args(shape))
    if shape is Any:
        return lambda v: None
    fits, wanted = _plain(shape), _describe(shape)
    return lambda v: None if fits(v) else _must(wanted, v)


def _literal_checker(shape: Any) -> Checker:
    # (type, value) pairs: True is not the literal 1, nor 1.0 the literal 1.
    allowed, wanted = frozenset((type(x), x) for x in get_args(shape)), _describe(shape)

    def check(value: Any) -> Problem:
        try:
            if (type(value), value) in allowed:
                return None
        except TypeError:  # an unhashable value (a list, an object) is no literal
            pass
        return _must(wanted, value)

    return check


def _plain(shape: Any) -> Callable[[Any], bool]:
    if shape is type(None):
        return lambda v: v is None
    if shape is float:
        return lambda v: isinstance(v, int | float) and not isinstance(v, bool)
    if shape is int:
        return lambda v: isinstance(v, int) and not isinstance(v, bool)
    return lambda v: isinstance(v, shape)


def _annotated_checker(shape: Any) -> Checker:
    base, *notes = get_args(shape)
    wording = next((note for note in notes if isinstance(note, str)), None)
    rules = [note for note in notes if isinstance(note, Rule)]
    inner = _checker(base)

    def check(value: Any) -> Problem:
        problem = inner(value)
        if problem is not None:
            return problem if wording is None else _must(wording, value)
        for rule in rules:
            broken = rule.check(value)
            if broken is not None:
                return _must(broken, value)
        return None

    return check


def _object_checker(shape: Any) -> Checker:
    fields = [(key, _checker(hint), required) for key, hint, required in _fields(shape)]

    def check(value: Any) -> Problem:
        if not isinstance(value, dict):
            return _must("an object", value)
        for key, item, required in fields:
            if key in value:
                problem = item(value[key])
                if problem is not None:
                    return f".{key}{problem[0]}", problem[1]
            elif required:
                return f".{key}", " is missing"
        return None

    return check


def _required(hint: Any) -> Any:
    """The type inside ``NotRequired[...]`` (``get_type_hints`` keeps it with extras)."""
    return get_args(hint)[0] if get_origin(hint) is NotRequired else hint


def _union_checker(shape: Any) -> Checker:
    options = [_checker(option) for option in get_args(shape)]
    others = [option for option in get_args(shape) if option is not type(None)]
    wanted = _describe(shape)
    if len(others) == 1 and len(options) == 2:
        # X or null: a value that is not null gets X's own, more precise, problem.
        inner = _checker(others[0])
        return lambda v: None if v is None else inner(v)
    if all(is_typeddict(option) for option in get_args(shape)):
        return _objects_checker(get_args(shape), wanted)

    def check(value: Any) -> Problem:
        for option in options:
            if option(value) is None:
                return None
        return _must(wanted, value)

    return check


def _objects_checker(shapes: tuple[Any, ...], wanted: str) -> Checker:
    """One of several kinds of object: the first whose keys the value has is the one checked."""
    kinds = [(_keys_needed(shape), _checker(shape)) for shape in shapes]

    def check(value: Any) -> Problem:
        if isinstance(value, dict):
            for needed, checker in kinds:
                if needed <= value.keys():
                    return checker(value)
        return _must(wanted, value)

    return check


def _keys_needed(shape: Any) -> frozenset[str]:
    return frozenset(key for key, _, required in _fields(shape) if required)


@functools.cache
def _fields(shape: Any) -> tuple[tuple[str, Any, bool], ...]:
    """(key, type, required) of a TypedDict."""
    hints = get_type_hints(shape, include_extras=True)
    # Read NotRequired from the hints themselves: with postponed annotations Python 3.11 files
    # every key of a total class under __required_keys__.
    return tuple(
        (key, _required(hint), shape.__total__ and get_origin(hint) is not NotRequired)
        for key, hint in hints.items()
    )


def _list_checker(item_shape: Any) -> Checker:
    item, wanted = _checker(item_shape), f"a list of {_describe(item_shape)}"

    def check(value: Any) -> Problem:
        if not isinstance(value, list | tuple):
            return _must(wanted, value)
        for index, entry in enumerate(value):
            problem = item(entry)
            if problem is not None:
                return f".{index}{problem[0]}", problem[1]
        return None

    return check


def _mapping_checker(key_shape: Any, item_shape: Any) -> Checker:
    item = _checker(item_shape)
    key_rules = [note for note in get_args(key_shape)[1:] if isinstance(note, Rule)]

    def check(value: Any) -> Problem:
        if not isinstance(value, dict):
            return _must("an object keyed by location", value)
        for key, entry in value.items():
            for rule in key_rules:
                broken = rule.check(key)
                if broken is not None:
                    return "", f": {broken} (got {key!r:.80})"
            problem = item(entry)
            if problem is not None:
                return f".{key}{problem[0]}", problem[1]
        return None

    return check


def _describe(shape: Any) -> str:
    """A type in words, for an error."""
    origin = get_origin(shape)
    if origin is Annotated:
        notes = get_args(shape)[1:]
        return next(
            (note for note in notes if isinstance(note, str)), _describe(get_args(shape)[0])
        )
    if origin is Literal:
        return "one of " + ", ".join(str(v) for v in get_args(shape))
    if origin in (Union, types.UnionType):
        return " or ".join(_describe(option) for option in get_args(shape))
    if is_typeddict(shape):
        return f"an object like {shape.__name__}"
    if origin is dict:
        return "an object"
    if origin is list:
        return "a list"
    return {bool: "true or false", int: "an integer", float: "a number", str: "a string"}.get(
        shape, "null" if shape is type(None) else str(shape)
    )
