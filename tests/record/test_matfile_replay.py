"""Replaying .mat files through the rules engine: results, scores, IDs, and wrong files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import expected_results, real_match_paths

from controller.record.matfile import MatFileError, read_mat
from controller.record.rules_replay import replay_records


def _replay(text: str, **options: bool) -> list[dict[str, Any]]:
    return list(replay_records(read_mat(text), **options))


def _real(name_part: str) -> str:
    return next(p for p in real_match_paths() if name_part in p.name).read_text()


def test_real_match_replays_to_the_results_in_the_file(real_match: Path) -> None:
    text = real_match.read_text()
    records = _replay(text)
    games = [(r["winner"], r["points"]) for r in records if r["type"] == "game"]
    assert games == expected_results(text)
    score = [0, 0]
    for winner, points in games:
        score[winner] += points
    assert records[-1] == {"type": "match", "score": score}
    assert [r["type"] for r in records].count("match") == 1


def test_real_match_records_have_exactly_the_contract_keys(real_match: Path) -> None:
    keys = {
        "play": ["type", "game", "player", "dice", "play", "position_id", "match_id"],
        "cube": ["type", "game", "player", "action", "cube"],
        "game": ["type", "game", "winner", "points"],
        "match": ["type", "score"],
    }
    records = _replay(real_match.read_text())
    for record in records:
        assert sorted(record) == sorted(keys[record["type"]])
        json.dumps(record)
    plays = [r for r in records if r["type"] == "play"]
    assert all(len(r["position_id"]) == 14 and len(r["match_id"]) == 12 for r in plays)


def test_every_play_and_cube_action_of_the_file_is_replayed(real_match: Path) -> None:
    match = read_mat(real_match.read_text())
    records = _replay(real_match.read_text())
    for kind, record_type in (
        ("play", "play"),
        ("double", "cube"),
        ("take", "cube"),
        ("pass", "cube"),
    ):
        in_file = [(g.number, a.player) for g in match.games for a in g.actions if a.kind == kind]
        replayed = [
            (r["game"], r["player"])
            for r in records
            if r["type"] == record_type and (record_type == "play" or r["action"] == kind)
        ]
        assert replayed == in_file


def test_opening_and_first_ids_of_the_seven_point_match() -> None:
    records = _replay(_real("7pt"))
    first = records[0]
    # Bob opens with 52 from the starting position; gnubg's IDs for that moment.
    assert first == {
        "type": "play",
        "game": 1,
        "player": 1,
        "dice": [5, 2],
        "play": "24/22 13/8",
        "position_id": "4HPwATDgc/ABMA",
        "match_id": first["match_id"],
    }
    # Match ID fields: 7 points, Black (1) on roll, dice 5 and 2, cube centred, Jacoby-off bit.
    from controller.rules import MatchInfo

    info = MatchInfo.from_match_id(first["match_id"])
    assert (info.match_length, info.player_on_roll, info.turn) == (7, 1, 1)
    assert (max(info.dice), min(info.dice), info.cube_owner, info.cube_value) == (5, 2, None, 1)


def test_cube_records_follow_the_cube() -> None:
    cubes = [r for r in _replay(_real("5pt")) if r["type"] == "cube"]
    game4 = [(r["player"], r["action"], r["cube"]) for r in cubes if r["game"] == 4]
    # line 91-93: Alice doubles to 2, Bob takes, Bob redoubles to 4, Alice takes
    assert game4 == [(0, "double", 2), (1, "take", 2), (1, "double", 4), (0, "take", 4)]
    game1 = [(r["player"], r["action"], r["cube"]) for r in cubes if r["game"] == 1]
    assert game1 == [(0, "double", 2), (1, "pass", 2)]


def test_resigned_game_is_scored_from_the_cube() -> None:
    # 5pt game 2 ends with Alice still bearing off: Bob resigned a single game at cube 2.
    records = _replay(_real("5pt"))
    game2 = next(r for r in records if r["type"] == "game" and r["game"] == 2)
    assert (game2["winner"], game2["points"]) == (0, 2)


def _corrupt(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


@pytest.mark.parametrize(
    ("old", "new", "line", "expected"),
    [
        ("44: 11/7* 8/4 8/4 8/4", "44: 11/7* 8/4 8/4 5/1", 8, "is not a legal play"),
        ("  3) 64:           ", "  3) 64: 24/18 13/9", 9, "is not a legal play"),
        (
            "  2)  Doubles => 2                Takes",
            "  2)  Takes                      Doubles => 2",
            16,
            "there is no double to take",
        ),
        ("      Wins 6 points", "      Wins 4 points", 38, "the file says Alice wins 4, but"),
        (" 17) 65: 6/0 5/0", " 17) 65: 6/0 5/x", 31, "cannot read '5/x'"),
    ],
    ids=[
        "no-checker-there",
        "dance-that-could-move",
        "take-before-double",
        "wrong-points",
        "unreadable",
    ],
)
def test_wrong_play_or_cube_action_is_an_error_with_its_line(
    old: str, new: str, line: int, expected: str
) -> None:
    text = _corrupt(_real("3pt"), old, new)
    with pytest.raises(MatFileError) as caught:
        _replay(text)
    assert [p for p in caught.value.problems if p.startswith(f"line {line}: ") and expected in p], (
        caught.value.problems
    )


def test_illegal_play_message_names_line_player_and_reason() -> None:
    text = _corrupt(_real("3pt"), "  5) 52: 22/20 20/15", "  5) 52: 22/20 20/16")
    with pytest.raises(MatFileError) as caught:
        _replay(text)
    (problem,) = caught.value.problems
    assert problem.startswith("line 19: Alice's 52: ")
    assert "'22/20 20/16' is not a legal play" in problem


def test_replay_goes_on_with_the_next_game_after_a_broken_one() -> None:
    text = _corrupt(_real("7pt"), "  2) 62: 24/18 18/16", "  2) 62: 24/18 18/15")
    records: list[dict[str, Any]] = []
    with pytest.raises(MatFileError) as caught:
        records.extend(replay_records(read_mat(text)))
    assert len(caught.value.problems) == 1
    games = [r["game"] for r in records if r["type"] == "game"]
    assert games == [2, 3, 4, 5]
    assert records[-1] == {"type": "match", "score": [8, 5]}


def test_play_out_of_turn_is_refused() -> None:
    text = (
        " 5 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
        "  1) 31: 8/5 6/5                  Doubles => 2\n"
        "  2)  Takes                      \n"
        "  3) 62: 24/18 13/11            \n"
        "  4)  Doubles => 4\n"
    )
    # Bob doubled on his turn and Alice took: fine. But then Alice played when it was Bob's roll.
    with pytest.raises(MatFileError, match=r"line 7: Alice plays, but it is Bob's turn"):
        _replay(text)


def test_crawford_game_refuses_a_double() -> None:
    text = (
        " 3 point match\n\n Game 1\n A : 0                          B : 0\n"
        "  1) 31: 8/5 6/5                  Doubles => 2\n"
        "  2)  Drops                       Wins 1 point\n\n"
        " Game 2\n A : 0                          B : 1\n"
        "  1) 31: 8/5 6/5                  Doubles => 2\n"
        "  2)  Drops                       Wins 1 point\n\n"
        " Game 3\n A : 0                          B : 2\n"
        "  1) 31: 8/5 6/5                  Doubles => 2\n"
        "  2)  Drops                       Wins 1 point\n"
    )
    with pytest.raises(MatFileError) as caught:
        _replay(text)
    assert caught.value.problems == (
        "line 15: Black may not double: the Crawford game: no doubling",
    )


def test_double_by_the_player_not_on_roll_is_refused() -> None:
    text = (
        " 5 point match\n\n Game 1\n A : 0                          B : 0\n"
        "  1) 31: 8/5 6/5\n"
        "  2)  Doubles => 2\n"
    )
    with pytest.raises(MatFileError) as caught:
        _replay(text)
    assert caught.value.problems == (
        "line 6: White may not double: only the player on roll may double, before rolling: "
        "it is Black's turn",
    )


def test_game_after_the_match_is_won_is_an_error() -> None:
    text = (
        " 1 point match\n\n Game 1\n A : 0                          B : 0\n"
        "  1) 31: 8/5 6/5                  Doubles => 2\n"
        "  2)  Drops                       Wins 1 point\n\n"
        " Game 2\n A : 0                          B : 1\n"
        "  1) 31: 8/5 6/5\n"
    )
    with pytest.raises(
        MatFileError, match="line 8: game 2 is played after B has won the match 0-1"
    ):
        _replay(text)


def test_money_session_with_a_beaver_and_jacoby() -> None:
    text = (
        " 0 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
        "  1) 31: 8/5 6/5                  Doubles => 2\n"
        "  2)  Beavers => 4               62: 24/18 13/11\n"
        "  3) 43: 13/9 13/10\n"
        "      Wins 4 points\n"
    )
    records = _replay(text)
    cubes = [(r["player"], r["action"], r["cube"]) for r in records if r["type"] == "cube"]
    assert cubes == [(1, "double", 2), (0, "beaver", 4)]
    assert records[-2:] == [
        {"type": "game", "game": 1, "winner": 0, "points": 4},
        {"type": "match", "score": [4, 0]},
    ]
    # A money Match ID has length 0; the Jacoby rule (on by default) changes it.
    from controller.rules import MatchInfo

    play = next(r for r in _replay(text, jacoby=False) if r["type"] == "play")
    assert MatchInfo.from_match_id(play["match_id"]).match_length == 0
    assert play["match_id"] != next(r for r in records if r["type"] == "play")["match_id"]


def test_rolled_then_resigned_as_gnubg_writes_it() -> None:
    text = (
        " 3 point match\n\n Game 1\n A : 0                          B : 0\n"
        "  1) 31: 8/5 6/5                 62: 24/18 13/11 \n"
        "  2) 52:  Wins 2 points\n"
    )
    records = _replay(text)
    assert [r["type"] for r in records] == ["play", "play", "game", "match"]
    assert records[-2] == {"type": "game", "game": 1, "winner": 1, "points": 2}
    # the same empty play in mid-game is an illegal dance
    with pytest.raises(MatFileError, match="line 6: A's 52: no move given"):
        _replay(
            text.replace("  2) 52:  Wins 2 points\n", "  2) 52:                         41: 13/9\n")
        )


def test_money_gammon_counts_single_under_jacoby() -> None:
    # The 1-point match turned into a money session: Alice resigns a gammon at cube 1.
    text = _real("1pt").replace(" 1 point match", " 0 point match")
    assert _replay(text, jacoby=False)[-1] == {"type": "match", "score": [0, 2]}
    with pytest.raises(MatFileError) as caught:
        _replay(text)
    (problem,) = caught.value.problems
    assert problem.startswith("line 32: Bob cannot win 2 points by resignation with the cube at 1")
    assert "Jacoby rule is on" in problem
