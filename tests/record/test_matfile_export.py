"""Exporting a recorded event stream as .mat text: plays, cube, undo, resignations, errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import events_from_replay, real_match_paths

from controller.events import Event
from controller.record.export import MatchExportError, export_mat, match_from_events
from controller.record.matfile import read_mat
from controller.record.rules_replay import replay_records


def _numbered(events: list[Event]) -> list[Event]:
    return [Event(e.type, e.data, float(i), i) for i, e in enumerate(events, start=1)]


def _start(length: int = 3) -> list[Event]:
    return [
        Event("match_started", {"id": "m", "players": ["Ann", "Ben"], "length": length}),
        Event("game_started", {"game": 1, "score": [0, 0], "crawford_game": False}),
    ]


def test_export_of_a_recorded_real_match_replays_the_same(real_match: Path) -> None:
    match = read_mat(real_match.read_text())
    text = export_mat(events_from_replay(match))
    exported = read_mat(text)
    assert (exported.length, exported.players) == (match.length, match.players)
    assert list(replay_records(exported)) == list(replay_records(match))


def test_plays_are_written_one_step_per_die_as_gnubg_does() -> None:
    events = _numbered(
        [
            *_start(),
            Event("roll_off", {"dice": [3, 1], "first": 0}),
            Event("play", {"player": 0, "dice": [3, 1], "play": "8/5 6/5"}),
            Event("dice_rolled", {"player": 1, "dice": [6, 4]}),
            Event("play", {"player": 1, "dice": [6, 4], "play": "24/14"}),
            Event("play", {"player": 0, "dice": [6, 6], "play": "24/18(2) 13/7(2)"}),
            Event("play", {"player": 1, "dice": [3, 3], "play": "bar/22 14/8"}),
        ]
    )
    with pytest.raises(
        MatchExportError, match=r"event 8 \(play\): 'bar/22 14/8' .*no checker on the bar"
    ):
        export_mat(events)
    events[-1] = Event("play", {"player": 1, "dice": [3, 3], "play": "13/10(2) 6/3(2)"}, 8.0, 8)
    actions = match_from_events(events).games[0].actions
    plays = [a.play for a in actions]
    # one checker running 24/14 may touch down on 18 or on 20: either is gnubg's form
    assert plays[1] in ("24/18 18/14", "24/20 20/14")
    assert plays[0::2] == ["8/5 6/5", "24/18 24/18 13/7 13/7"]
    assert plays[3] == "13/10 13/10 6/3 6/3"
    text = export_mat(events)
    assert f"  1) 31: 8/5 6/5                 64: {plays[1]}" in text


def test_cube_and_resignation_are_exported() -> None:
    events = _numbered(
        [
            *_start(),
            Event("play", {"player": 0, "dice": [3, 1], "play": "8/5 6/5"}),
            Event("cube_offered", {"player": 1, "cube": 2}),
            Event("cube_taken", {"player": 0, "cube": 2}),
            Event("play", {"player": 1, "dice": [6, 2], "play": "24/18 13/11"}),
            Event("resign_offered", {"player": 0, "points": 4}),
            Event("resign_accepted", {"player": 1}),
            Event(
                "game_won",
                {"game": 1, "winner": 1, "points": 4, "kind": "resign", "score": [0, 4]},
            ),
            Event("match_won", {"winner": 1, "score": [0, 4]}),
        ]
    )
    game = match_from_events(events).games[0]
    assert [(a.player, a.kind) for a in game.actions] == [
        (0, "play"),
        (1, "double"),
        (0, "take"),
        (1, "play"),
        (0, "resign"),
    ]
    text = export_mat(events)
    assert text.splitlines()[-2] == " " * 34 + "Wins 4 points"
    records = list(replay_records(read_mat(text)))
    assert records[-2:] == [
        {"type": "game", "game": 1, "winner": 1, "points": 4},
        {"type": "match", "score": [0, 4]},
    ]


def test_undo_drops_what_was_taken_back() -> None:
    events = _numbered(
        [
            *_start(),
            Event("play", {"player": 0, "dice": [3, 1], "play": "8/5 6/5"}),  # 3
            Event("play", {"player": 1, "dice": [6, 4], "play": "24/18 13/9"}),  # 4
            Event("undo", {"to_sequence": 3, "position_id": "x"}),  # 5
            Event("play", {"player": 1, "dice": [6, 4], "play": "24/14"}),  # 6
        ]
    )
    plays = [a.play for a in match_from_events(events).games[0].actions]
    assert plays[0] == "8/5 6/5"
    assert plays[1] in ("24/18 18/14", "24/20 20/14")
    assert len(plays) == 2


def test_condoned_illegal_play_is_kept_as_played() -> None:
    from controller.rules import Position, Step

    start = Position.initial(0)
    # 31 played as 8/4: illegal (a 4 was not rolled), condoned by the opponent.
    after = start.apply([Step(8, 4)])
    events = _numbered(
        [
            *_start(),
            Event(
                "play",
                {
                    "player": 0,
                    "dice": [3, 1],
                    "play": "8/4",
                    "condoned": True,
                    "reason": "a 4 was not rolled",
                    "result_id": after.to_position_id(),
                },
            ),
            Event("play", {"player": 1, "dice": [6, 4], "play": "24/14"}),
        ]
    )
    actions = match_from_events(events).games[0].actions
    assert actions[0].play == "8/4"
    assert actions[1].play in ("24/18 18/14", "24/20 20/14")


@pytest.mark.parametrize(
    ("events", "expected"),
    [
        ([Event("game_started", {"game": 1, "score": [0, 0]})], "no match_started event"),
        (
            [
                *_start(),
                Event("play", {"player": 0, "dice": [3, 1], "play": "8/5 6/5"}),
                Event("play", {"player": 0, "dice": [6, 4], "play": "24/14"}),
            ],
            "event 4 (play): player 0 plays, but it is player 1's turn",
        ),
        (
            [*_start(), Event("play", {"player": 0, "dice": [3, 9], "play": "8/5 6/5"})],
            "event 3 (play): play: dice must be two dice, 1 to 6, not [3, 9]",
        ),
        (
            [*_start(), Event("cube_offered", {"player": 0, "cube": 3})],
            "cube must be a power of two",
        ),
        ([Event("match_started", {"players": ["A"], "length": 3})], "players must be two names"),
        ([*_start(), Event("game_started", {"game": 3, "score": [0, 0]})], "game 3 out of order"),
        (
            [Event("match_started", {"players": ["A", "B"], "length": 0, "variant": "sheshbesh"})],
            "event 1 (match_started): a 'sheshbesh' match cannot be written as .mat",
        ),
    ],
)
def test_export_errors_name_the_event(events: list[Event], expected: str) -> None:
    with pytest.raises(MatchExportError) as caught:
        export_mat(_numbered(events))
    assert any(expected in problem for problem in caught.value.problems), caught.value.problems


def test_all_real_matches_are_exported() -> None:
    for path in real_match_paths():
        assert export_mat(events_from_replay(read_mat(path.read_text())))
