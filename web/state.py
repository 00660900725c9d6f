"""The state snapshot the referee publishes to the panel: its shape, an empty one, an example.

Every page draws from one plain JSON dict (player 0 is White, the left-hand player of a .mat file)::

    {"match": {"id": str|None, "players": [n0, n1], "length": int (0 = money), "score": [s0, s1],
               "crawford_game": bool, "post_crawford": bool, "game": int,
               "variant": "backgammon"|"sheshbesh", "policy": str, "hints": bool,
               "winner": None|0|1},
     "cube": {"value": int, "owner": None|0|1, "offered_by": None|0|1, "dead": bool},
     "turn": None|0|1, "dice": None|[d1, d2], "pips": [p0, p1],
     "position": {"p1": [white, black], ..., "bar-white": [n, 0], "off-black": [0, n], ...},
     "position_id": str, "match_id": str,
     "last_play": None|{"player", "dice", "play", "from": [locations], "to": [locations]},
     "moves": [{"game", "player", "dice", "play"} | {"game", "player", "action", "cube"}, ...],
     "games": [{"game", "winner", "points", "score"}, ...],
     "message": None|{"kind": "illegal"|"mismatch"|"info"|"cube", "text": str,
                      "locations": [locations]},
     "lights": {location: "legal"|"source"|"illegal"|"mismatch"|"hint"|..., ...},
     "status": {"camera": "ok"|"lost"|"none", "leds": "ok"|"lost"|"none", "analysis": str},
     "clock": {"remaining": [seconds0, seconds1], "running": None|0|1, "paused": bool,
               "flagged": [bool, bool], "delay_left": seconds, "delay_seconds": seconds,
               "delay_kind": "simple"|"bronstein", "reserve": seconds, "on_flag": "flag"|"lose",
               "lost_on_time": None|0|1}}   (only in a match with a clock)

``cube.value`` is the stake now (1 while the cube sits in the middle); while ``offered_by`` is set
a double to twice that value awaits a take or a pass. A ``moves`` entry is either a play (with
``dice`` and ``play``) or a cube action (``action``: "double" | "take" | "pass" | "beaver", with the
cube value after it).

``clock`` is absent when the match has no clock. ``remaining`` is each player's reserve at the moment
the snapshot was made, ``running`` whose time was running then (its ``delay_left`` still to come
before the reserve falls, for a simple delay); a page counts down from there until the next
snapshot (``web/static/clock.js``).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, Final

from sheshbesh.locations import LOCATIONS
from sheshbesh.match import COLOUR_NAMES, VARIANTS
from web.errors import PanelStateError

State = dict[str, Any]

MESSAGE_KINDS: Final[tuple[str, ...]] = ("illegal", "mismatch", "info", "cube")
DEVICE_STATUSES: Final[tuple[str, ...]] = ("ok", "lost", "none")
DELAY_KINDS: Final[tuple[str, ...]] = ("simple", "bronstein")
ON_FLAG: Final[tuple[str, ...]] = ("flag", "lose")
#: Seconds of reserve under which a clock is shown as running low.
LOW_TIME_SECONDS: Final[int] = 60
#: The players' colours as the pages name them.
PLAYER_COLOURS: Final[tuple[str, str]] = COLOUR_NAMES

#: Starting position in the panel's form: White's checkers on White's 24, 13, 8, 6 points,
#: Black's on the same points of Black's numbering (White's 1, 12, 17, 19).
_START: Final[dict[str, tuple[int, int]]] = {
    "p24": (2, 0),
    "p13": (5, 0),
    "p8": (3, 0),
    "p6": (5, 0),
    "p1": (0, 2),
    "p12": (0, 5),
    "p17": (0, 3),
    "p19": (0, 5),
}


def position_from_counts(counts: Mapping[str, tuple[int, int]]) -> dict[str, list[int]]:
    """A full ``position`` mapping (every location) from the locations that hold checkers.

    Raises :class:`PanelStateError` for an unknown location name.

    >>> position_from_counts({"p6": (5, 0)})["p6"]
    [5, 0]
    """
    unknown = sorted(set(counts) - set(LOCATIONS))
    if unknown:
        raise PanelStateError(f"unknown board location(s) {', '.join(unknown)}")
    return {name: list(counts.get(name, (0, 0))) for name in LOCATIONS}


def empty_state() -> State:
    """The state before any match: no players, no turn, an empty board."""
    return {
        "match": {
            "id": None,
            "players": ["White", "Black"],
            "length": 0,
            "score": [0, 0],
            "crawford_game": False,
            "post_crawford": False,
            "game": 0,
            "variant": "backgammon",
            "policy": "teaching",
            "hints": False,
            "winner": None,
        },
        "cube": {"value": 1, "owner": None, "offered_by": None, "dead": False},
        "turn": None,
        "dice": None,
        "pips": [0, 0],
        "position": position_from_counts({}),
        "position_id": "",
        "match_id": "",
        "last_play": None,
        "moves": [],
        "games": [],
        "message": None,
        "lights": {},
        "status": {"camera": "none", "leds": "none", "analysis": "off"},
    }


def starting_state(players: tuple[str, str] = ("White", "Black"), length: int = 0) -> State:
    """The state at the start of a match's first game (the opening roll not yet made)."""
    state = empty_state()
    state["match"].update(players=list(players), length=length, game=1)
    state["position"] = position_from_counts(_START)
    state["pips"] = [167, 167]
    state["position_id"] = "4HPwATDgc/ABMA"
    return state


def example_state() -> State:
    """A game in progress, for tests, fakes and screenshots.

    Game 5 of a 7-point match at 3-4; Black owns the cube at 2. White opened 31 (8/5 6/5), Black
    answered 64 (24/18 13/9), and White now has 52 to play. IDs as GNU Backgammon gives them.
    """
    state = empty_state()
    state["match"] = {
        "id": "m-20261130-01",
        "players": ["Ada", "Boris"],
        "length": 7,
        "score": [3, 4],
        "crawford_game": False,
        "post_crawford": False,
        "game": 5,
        "variant": "backgammon",
        "policy": "teaching",
        "hints": True,
        "winner": None,
    }
    state["cube"] = {"value": 2, "owner": 1, "offered_by": None, "dead": False}
    state["turn"] = 0
    state["dice"] = [5, 2]
    state["pips"] = [163, 157]
    state["position"] = position_from_counts(
        {
            "p24": (2, 0),
            "p13": (5, 0),
            "p8": (2, 0),
            "p6": (4, 0),
            "p5": (2, 0),
            "p1": (0, 1),
            "p7": (0, 1),
            "p12": (0, 4),
            "p16": (0, 1),
            "p17": (0, 3),
            "p19": (0, 5),
        }
    )
    state["position_id"] = "4HPhQSCwZ/ABMA"
    state["match_id"] = "EYHqADAAIAAE"
    state["last_play"] = {
        "player": 1,
        "dice": [6, 4],
        "play": "24/18 13/9",
        "from": ["p1", "p12"],
        "to": ["p7", "p16"],
    }
    state["moves"] = [
        {"game": 5, "player": 0, "action": "double", "cube": 2},
        {"game": 5, "player": 1, "action": "take", "cube": 2},
        {"game": 5, "player": 0, "dice": [3, 1], "play": "8/5 6/5"},
        {"game": 5, "player": 1, "dice": [6, 4], "play": "24/18 13/9"},
    ]
    state["games"] = [
        {"game": 1, "winner": 0, "points": 1, "score": [1, 0]},
        {"game": 2, "winner": 1, "points": 2, "score": [1, 2]},
        {"game": 3, "winner": 0, "points": 2, "score": [3, 2]},
        {"game": 4, "winner": 1, "points": 2, "score": [3, 4]},
    ]
    state["message"] = {"kind": "info", "text": "Ada to play 5-2", "locations": []}
    state["lights"] = {"p13": "source", "p8": "source", "p6": "source", "p3": "legal"}
    state["status"] = {"camera": "ok", "leds": "none", "analysis": "off"}
    return copy.deepcopy(state)


def example_clock(running: int | None = 0) -> dict[str, Any]:
    """A match clock for :func:`example_state` (a 7-point match: 14 minutes each, 12 s delay):
    White thinking with 3 s of delay left, Black down to 52 s."""
    return {
        "remaining": [611.4, 52.0],
        "running": running,
        "paused": False,
        "flagged": [False, False],
        "delay_left": 3.0,
        "delay_seconds": 12.0,
        "delay_kind": "simple",
        "reserve": 840.0,
        "on_flag": "lose",
        "lost_on_time": None,
    }


# --- validation ------------------------------------------------------------------------------


def _fail(path: str, problem: str, value: Any) -> PanelStateError:
    return PanelStateError(f"state field {path}: {problem} (got {value!r:.80})")


def _require(mapping: Mapping[str, Any], key: str, path: str) -> Any:
    if key not in mapping:
        raise PanelStateError(f"state field {path}{key} is missing")
    return mapping[key]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _player_or_none(value: Any, path: str) -> None:
    if value is not None and value not in (0, 1):
        raise _fail(path, "must be null, 0 or 1", value)
    if isinstance(value, bool):
        raise _fail(path, "must be null, 0 or 1, not a boolean", value)


def _pair_of_ints(value: Any, path: str, low: int = 0, high: int | None = None) -> None:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(_is_int(v) for v in value)
        or any(v < low or (high is not None and v > high) for v in value)
    ):
        bound = f"{low}..{high}" if high is not None else f">= {low}"
        raise _fail(path, f"must be a list of two integers {bound}", value)


def _locations(value: Any, path: str) -> None:
    if not isinstance(value, list | tuple) or not all(v in LOCATIONS for v in value):
        raise _fail(path, "must be a list of board location names", value)


def _seconds(value: Any, path: str) -> None:
    if not isinstance(value, int | float) or isinstance(value, bool) or not value >= 0:
        raise _fail(path, "must be a number of seconds >= 0", value)


def _check_clock(clock: Any) -> None:
    if not isinstance(clock, dict):
        raise _fail("clock", "must be an object", clock)
    remaining = _require(clock, "remaining", "clock.")
    if not isinstance(remaining, list | tuple) or len(remaining) != 2:
        raise _fail("clock.remaining", "must be a list of two numbers of seconds", remaining)
    for index, value in enumerate(remaining):
        _seconds(value, f"clock.remaining.{index}")
    _player_or_none(_require(clock, "running", "clock."), "clock.running")
    if not isinstance(_require(clock, "paused", "clock."), bool):
        raise _fail("clock.paused", "must be true or false", clock["paused"])
    flagged = _require(clock, "flagged", "clock.")
    if not isinstance(flagged, list | tuple) or len(flagged) != 2:
        raise _fail("clock.flagged", "must be a list of two booleans", flagged)
    if not all(isinstance(value, bool) for value in flagged):
        raise _fail("clock.flagged", "must be a list of two booleans", flagged)
    for key in ("delay_left", "delay_seconds", "reserve"):
        _seconds(_require(clock, key, "clock."), f"clock.{key}")
    if _require(clock, "delay_kind", "clock.") not in DELAY_KINDS:
        raise _fail(
            "clock.delay_kind", f"must be one of {', '.join(DELAY_KINDS)}", clock["delay_kind"]
        )
    if _require(clock, "on_flag", "clock.") not in ON_FLAG:
        raise _fail("clock.on_flag", f"must be one of {', '.join(ON_FLAG)}", clock["on_flag"])
    _player_or_none(clock.get("lost_on_time"), "clock.lost_on_time")


def check_state(state: Any) -> State:
    """Check that ``state`` has the shape every page draws from; returns it unchanged.

    Raises :class:`PanelStateError` naming the first field that is missing or wrong.

    >>> check_state(example_state())["match"]["length"]
    7
    """
    if not isinstance(state, dict):
        raise _fail("(root)", "must be a JSON object", state)
    match = _require(state, "match", "")
    if not isinstance(match, dict):
        raise _fail("match", "must be an object", match)
    players = _require(match, "players", "match.")
    if not isinstance(players, list | tuple) or len(players) != 2:
        raise _fail("match.players", "must be a list of two names", players)
    if not all(isinstance(name, str) for name in players):
        raise _fail("match.players", "names must be strings", players)
    length = _require(match, "length", "match.")
    if not _is_int(length) or length < 0:
        raise _fail("match.length", "must be an integer >= 0 (0 = money)", length)
    _pair_of_ints(_require(match, "score", "match."), "match.score")
    game = _require(match, "game", "match.")
    if not _is_int(game) or game < 0:
        raise _fail("match.game", "must be an integer >= 0", game)
    for flag in ("crawford_game", "post_crawford", "hints"):
        if not isinstance(_require(match, flag, "match."), bool):
            raise _fail(f"match.{flag}", "must be true or false", match[flag])
    if _require(match, "variant", "match.") not in VARIANTS:
        raise _fail("match.variant", f"must be one of {', '.join(VARIANTS)}", match["variant"])
    if not isinstance(_require(match, "policy", "match."), str):
        raise _fail("match.policy", "must be a string", match["policy"])
    _player_or_none(_require(match, "winner", "match."), "match.winner")
    match_id = match.get("id")
    if match_id is not None and not isinstance(match_id, str):
        raise _fail("match.id", "must be a string or null", match_id)

    cube = _require(state, "cube", "")
    if not isinstance(cube, dict):
        raise _fail("cube", "must be an object", cube)
    value = _require(cube, "value", "cube.")
    if not _is_int(value) or value < 1 or value & (value - 1):
        raise _fail("cube.value", "must be a power of two >= 1", value)
    _player_or_none(_require(cube, "owner", "cube."), "cube.owner")
    _player_or_none(_require(cube, "offered_by", "cube."), "cube.offered_by")
    if not isinstance(_require(cube, "dead", "cube."), bool):
        raise _fail("cube.dead", "must be true or false", cube["dead"])

    _player_or_none(_require(state, "turn", ""), "turn")
    dice = _require(state, "dice", "")
    if dice is not None:
        _pair_of_ints(dice, "dice", 1, 6)
    _pair_of_ints(_require(state, "pips", ""), "pips")

    position = _require(state, "position", "")
    if not isinstance(position, dict):
        raise _fail("position", "must be an object keyed by location", position)
    for name, counts in position.items():
        if name not in LOCATIONS:
            raise _fail("position", f"names unknown location {name!r}", name)
        _pair_of_ints(counts, f"position.{name}", 0, 15)
    for index, colour in enumerate(("white", "black")):
        total = sum(counts[index] for counts in position.values())
        if total > 15:
            raise _fail("position", f"holds {total} {colour} checkers, more than 15", total)

    for key in ("position_id", "match_id"):
        if not isinstance(_require(state, key, ""), str):
            raise _fail(key, "must be a string", state[key])

    last_play = _require(state, "last_play", "")
    if last_play is not None:
        if not isinstance(last_play, dict):
            raise _fail("last_play", "must be an object or null", last_play)
        _player_or_none(_require(last_play, "player", "last_play."), "last_play.player")
        if not isinstance(_require(last_play, "play", "last_play."), str):
            raise _fail("last_play.play", "must be a string in move notation", last_play["play"])
        _locations(last_play.get("from", []), "last_play.from")
        _locations(last_play.get("to", []), "last_play.to")

    for key in ("moves", "games"):
        entries = _require(state, key, "")
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            raise _fail(key, "must be a list of objects", entries)

    message = _require(state, "message", "")
    if message is not None:
        if not isinstance(message, dict):
            raise _fail("message", "must be an object or null", message)
        if _require(message, "kind", "message.") not in MESSAGE_KINDS:
            raise _fail(
                "message.kind", f"must be one of {', '.join(MESSAGE_KINDS)}", message["kind"]
            )
        if not isinstance(_require(message, "text", "message."), str):
            raise _fail("message.text", "must be a string", message["text"])
        _locations(message.get("locations", []), "message.locations")

    lights = _require(state, "lights", "")
    if not isinstance(lights, dict):
        raise _fail("lights", "must be an object keyed by location", lights)
    for name, light in lights.items():
        if name not in LOCATIONS:
            raise _fail("lights", f"names unknown location {name!r}", name)
        if not isinstance(light, str):
            raise _fail(f"lights.{name}", "must be a string", light)

    status = _require(state, "status", "")
    if not isinstance(status, dict):
        raise _fail("status", "must be an object", status)
    for device in ("camera", "leds"):
        if status.get(device, "none") not in DEVICE_STATUSES:
            raise _fail(
                f"status.{device}", f"must be one of {', '.join(DEVICE_STATUSES)}", status[device]
            )
    if state.get("clock") is not None:
        _check_clock(state["clock"])
    return state
