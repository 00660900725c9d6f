"""The state snapshot the referee publishes to the panel: its check, an empty one, an example.

Every page draws from one plain JSON object, typed once as :class:`sheshbesh.snapshot.PanelSnapshot`
(player 0 is White, the left-hand player of a .mat file): ``match``, ``cube``, ``turn``, ``dice``,
``pips``, ``position`` (every location's [white, black] counts), ``position_id``, ``match_id``,
``last_play``, ``moves`` (plays and cube actions), ``games``, ``message``, ``lights``, ``status``
and, only in a match with a clock, ``clock``. :func:`check_state` checks a published snapshot
against that one description.

``clock.remaining`` is each player's reserve at the moment the snapshot was made, ``running`` whose
time was running then (its ``delay_left`` still to come before the reserve falls, for a simple
delay); a page counts down from there until the next snapshot (``web/static/clock.js``).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, Final, cast

from sheshbesh.locations import LOCATIONS
from sheshbesh.match import COLOUR_NAMES, Player
from sheshbesh.snapshot import ClockView, PanelSnapshot, SnapshotError, check_snapshot
from web.errors import PanelStateError

State = PanelSnapshot

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
    match = state["match"]
    match["players"], match["length"], match["game"] = list(players), length, 1
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


def example_clock(running: Player | None = 0) -> ClockView:
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


def check_state(state: Any) -> State:
    """Check that ``state`` has the shape every page draws from (:class:`PanelSnapshot`);
    returns it unchanged.

    Raises :class:`PanelStateError` naming the first field that is missing or wrong.

    >>> check_state(example_state())["match"]["length"]
    7
    """
    try:
        return cast(State, check_snapshot(state))
    except SnapshotError as error:
        raise PanelStateError(str(error)) from None
