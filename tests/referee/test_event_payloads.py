"""The typed events (sheshbesh.events): read once from the record, written back byte for byte."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from referee_testkit import match_inputs, match_paths, run

from controller.events import EVENT_TYPES, Event
from controller.record.matfile import read_mat
from controller.record.store import Record
from controller.referee import Referee
from sheshbesh.events import EVENT_CLASSES, EventDataError, GameWon, Play, event_payload

PATHS = match_paths()

#: One event of each type as the referee writes it, optional keys included (and some left out).
SAMPLES: list[tuple[str, dict[str, Any]]] = [
    (
        "match_started",
        {
            "id": "m1",
            "players": ["Ada", "Boris"],
            "length": 0,
            "crawford": True,
            "jacoby": True,
            "beavers": True,
            "variant": "backgammon",
            "policy": "condone",
            "hints": False,
            "clock": {
                "reserve": "fixed",
                "reserve_seconds": 600.0,
                "delay_seconds": 12.0,
                "delay": "bronstein",
                "on_flag": "lose",
            },
        },
    ),
    ("game_started", {"game": 2, "score": [1, 0], "crawford_game": False}),
    ("game_started", {"game": 1}),
    ("roll_off", {"dice": [4, 4], "first": None}),
    ("roll_off", {"dice": [3, 1], "first": 0}),
    ("dice_rolled", {"player": 1, "dice": [6, 6]}),
    (
        "play",
        {
            "player": 0,
            "dice": [3, 1],
            "play": "8/5 6/5",
            "position_id": "4HPwATDgc/ABMA",
            "match_id": "cAkAAAAAAAAA",
            "result_id": "4HPwATDgc/ABMA",
            "from": ["p8", "p6"],
            "to": ["p5"],
            "dice_left": True,
            "condoned": True,
            "reason": "a checker on the bar must enter first",
        },
    ),
    (
        "illegal_play",
        {
            "player": 1,
            "dice": [5, 2],
            "reason": "13/6 lands on a blocked point",
            "locations": ["p6"],
            "position_id": "4HPwATDgc/ABMA",
            "result_id": "4HPwATDgc/ABMA",
            "dice_left": False,
        },
    ),
    (
        "illegal_play",
        {
            "player": 0,
            "dice": [6, 5],
            "reason": "lay down a checker on point 6",
            "locations": [],
            "position_id": "AAAAAAAAAAAAAA",
            "counts": {"p6": [1, 0], "off-black": [0, 2]},
        },
    ),
    ("board_mismatch", {"reason": "16 white checkers", "locations": ["p1", "bar-white"]}),
    ("board_restored", {"position_id": "4HPwATDgc/ABMA"}),
    ("board_restored", {}),
    ("cube_offered", {"player": 0, "cube": 2}),
    ("cube_taken", {"player": 1, "cube": 2}),
    ("cube_passed", {"player": 1, "cube": 1}),
    ("cube_beavered", {"player": 1, "cube": 4}),
    ("cube_refused", {"player": 0, "action": "double", "reason": "the cube is dead"}),
    ("resign_offered", {"player": 1, "points": 3}),
    ("resign_accepted", {"player": 0}),
    ("resign_refused", {"player": 0}),
    ("undo", {"to_sequence": 12, "position_id": "4HPwATDgc/ABMA"}),
    ("game_won", {"game": 3, "winner": 1, "points": 4, "kind": "pass", "score": [2, 5]}),
    ("match_won", {"winner": 1, "score": [2, 5]}),
    ("clock_paused", {"by": "director"}),
    ("clock_resumed", {"by": "restart"}),
    ("clock_flag", {"player": 0, "on_flag": "flag", "at": 1234.5}),
]


def _stored(data: dict[str, Any]) -> str:
    """The data as the record stores it (``controller.record``)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def test_every_event_type_has_its_class_and_a_sample() -> None:
    assert set(EVENT_CLASSES) == EVENT_TYPES
    assert {kind for kind, _ in SAMPLES} == EVENT_TYPES


@pytest.mark.parametrize(("kind", "data"), SAMPLES, ids=[kind for kind, _ in SAMPLES])
def test_each_type_round_trips_byte_for_byte(kind: str, data: dict[str, Any]) -> None:
    payload = event_payload(kind, data)
    assert type(payload).type == kind
    assert _stored(payload.to_dict()) == _stored(data)
    assert Event.of(payload, 1.0, 7).to_json() == Event(kind, data, 1.0, 7).to_json()


def test_the_record_reads_each_event_once_and_the_typed_value_is_kept() -> None:
    with Record(":memory:") as record:
        record.append(Event(*SAMPLES[0]))
        record.append(Event("game_won", {"game": 1, "winner": 0, "points": 2, "score": [2, 0]}))
        started, won = record.events()
    assert started.payload is started.payload
    assert isinstance(won.payload, GameWon) and won.payload.how == "single"
    assert won.payload.score == (2, 0)


@pytest.mark.parametrize(
    ("kind", "data", "words"),
    [
        ("play", {"player": 0, "dice": [3, 1]}, "play: play is missing"),
        ("play", {"player": 2, "dice": [3, 1], "play": "8/5"}, "play: player must be 0 or 1"),
        ("dice_rolled", {"player": 0, "dice": [3, 7]}, "dice must be two dice, 1 to 6"),
        ("dice_rolled", {"player": True, "dice": [3, 1]}, "player must be 0 or 1, not True"),
        ("game_won", {"game": 1, "winner": 0, "points": 0}, "points must be a whole number >= 1"),
        ("cube_refused", {"player": 0, "action": "redouble"}, "action must be one of double"),
        ("match_started", {"id": "m", "players": ["A"]}, "players must be two names"),
        ("match_started", {"id": "m", "policy": "lenient"}, "policy 'lenient' is not one of"),
        ("undo", [], "undo: the data must be an object"),
        ("teleport", {}, "unknown event type 'teleport'"),
    ],
)
def test_bad_data_is_refused_naming_the_key(kind: str, data: Any, words: str) -> None:
    with pytest.raises(EventDataError, match=words.replace("(", r"\(")):
        event_payload(kind, data)


@pytest.mark.skipif(not PATHS, reason="the shared .mat matches are not present")
@pytest.mark.parametrize("path", PATHS[:3], ids=lambda p: p.name)
def test_what_the_referee_records_round_trips(path: Path) -> None:
    events = run(Referee(clock=lambda: 0.0), match_inputs(read_mat(path.read_text())))
    assert len(events) > 20
    for event in events:
        assert _stored(event.payload.to_dict()) == _stored(event.data), event
    plays = [event.payload for event in events if event.type == "play"]
    assert all(isinstance(play, Play) and play.result_id for play in plays)
