"""Reading and writing .mat text: the real matches, the layout, and corrupt files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import expected_results, real_match_paths
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.record.matfile import (
    Action,
    GameRecord,
    MatchFile,
    MatFileError,
    read_mat,
    write_mat,
)


def test_the_real_matches_are_there() -> None:
    assert len(real_match_paths()) >= 4


def test_real_match_parses_with_the_results_written_in_it(real_match: Path) -> None:
    text = real_match.read_text()
    match = read_mat(text)
    length = re.search(r"(\d+) point match", text)
    assert length is not None and match.length == int(length.group(1))
    header = re.search(r"^ (\S.*?) : \d+ +(\S.*?) : \d+$", text, re.MULTILINE)
    assert header is not None and match.players == header.groups()
    assert [(g.winner, g.points) for g in match.games] == expected_results(text)
    assert [g.number for g in match.games] == list(range(1, len(match.games) + 1))
    # each game's starting score is the sum of the results before it
    running = [0, 0]
    for game in match.games:
        assert game.score == tuple(running)
        assert game.winner is not None
        running[game.winner] += game.points
    assert match.final_score == tuple(running)
    assert max(match.final_score) >= match.length


def test_real_match_write_reproduces_gnubg_layout(real_match: Path) -> None:
    text = real_match.read_text()
    written = write_mat(read_mat(text))
    assert [line.rstrip() for line in written.splitlines()] == [
        line.rstrip() for line in text.splitlines()
    ]


def test_real_match_read_write_read_is_identity(real_match: Path) -> None:
    match = read_mat(real_match.read_text())
    assert read_mat(write_mat(match)) == match


def test_trailing_spaces_and_crlf_do_not_matter(real_match: Path) -> None:
    text = real_match.read_text()
    stripped = "\r\n".join(line.rstrip() for line in text.splitlines())
    assert read_mat(stripped) == read_mat(text)


def test_details_of_the_three_point_match() -> None:
    path = next(p for p in real_match_paths() if "3pt" in p.name)
    match = read_mat(path.read_text())
    first = match.games[0]
    # line 7: "  1) 21: 13/11 24/23             21: 13/11 24/23 "
    assert first.actions[0] == Action(0, "play", (2, 1), "13/11 24/23")
    assert first.actions[0].line == 7
    assert first.actions[1] == Action(1, "play", (2, 1), "13/11 24/23")
    # line 9: Alice dances with 64
    assert first.actions[4] == Action(0, "play", (6, 4), "")
    # line 10/11: Bob doubles, Alice drops, Bob wins 1 point
    assert first.actions[-2:] == (Action(1, "double", cube=2), Action(0, "pass"))
    assert (first.winner, first.points, first.result_line) == (1, 1, 11)
    second = match.games[1]
    assert second.actions[2:4] == (Action(0, "double", cube=2), Action(1, "take"))
    assert any(a.play == "6/0 5/0" for a in second.actions)
    assert any(a.play == "25/24 24/22" for a in second.actions)


def test_black_starting_a_game_is_read_in_the_right_column() -> None:
    path = next(p for p in real_match_paths() if "7pt" in p.name)
    match = read_mat(path.read_text())
    opening = match.games[0].actions[0]
    assert (opening.player, opening.dice, opening.play) == (1, (5, 2), "13/8 24/22")


def test_overlong_left_entry_still_splits_into_two_players() -> None:
    text = (
        " 7 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
        " 14) 11: 24/23 23/22 13/12* 11/10 52: 25/20 \n"
    )
    with pytest.raises(MatFileError, match="move number 14 out of order"):
        read_mat(text)
    text = text.replace(" 14)", "  1)")
    actions = read_mat(text).games[0].actions
    assert [(a.player, a.play) for a in actions] == [
        (0, "24/23 23/22 13/12* 11/10"),
        (1, "25/20"),
    ]


def test_other_spellings_are_read() -> None:
    text = (
        '; [Site "club"]\n 0 point match\n\n Game 1\n A : 0   B : 0\n'
        "  1) 31: bar/22 6/off                  Doubles => 2\n"
        "  2)  Beavers => 4                     Takes\n"
        "  3) 66: 13/7(2)\n"
        "                                  Wins 4 points and the match\n"
    )
    match = read_mat(text)
    assert match.length == 0
    assert match.comments == ('; [Site "club"]',)
    kinds = [(a.player, a.kind, a.cube) for a in match.games[0].actions]
    assert kinds == [
        (0, "play", None),
        (1, "double", 2),
        (0, "beaver", 4),
        (1, "take", None),
        (0, "play", None),
    ]
    assert match.games[0].actions[0].play == "bar/22 6/off"
    assert (match.games[0].winner, match.games[0].points) == (1, 4)


def test_corrupt_file_lists_every_problem_with_its_line() -> None:
    text = (
        " 5 point match\n"  # 1
        "\n"  # 2
        " Game 1\n"  # 3
        " Alice : 0                      Bob : 0\n"  # 4
        "  1) 31: 8/5 6/5                 72: 13/11\n"  # 5 roll 72 is no roll
        "  2) 62: 24/18 18/16             Doubles => 3\n"  # 6 cube 3
        "  4) 43: 13/9 13/10\n"  # 7 numbering
        "      Wins 1 point\n"  # 8
        "\n"
        " Game 3\n"  # 10 numbering
        " Alice : 2                      Bob : 0\n"  # 11 score should be 1-0
        "  1) 21: 13/11 6/5               Hello there\n"  # 12 garbage
        "      Wins 1 point\n"
    )
    with pytest.raises(MatFileError) as caught:
        read_mat(text)
    problems = caught.value.problems
    lines = sorted(int(p.split(":")[0].removeprefix("line ")) for p in problems)
    assert lines == [5, 6, 7, 10, 11, 12]
    message = str(caught.value)
    assert "line 5: cannot read '72:'" in message
    assert "line 6: expected 'Doubles' to be followed by '=> N'" in message
    assert "line 7: move number 4 out of order: expected 3" in message
    assert "line 10: game 3 out of order: expected game 2" in message
    assert "line 11: game 3 starts at 2-0, but the games before it add up to 1-0" in message
    assert "line 12: cannot read 'Hello'" in message
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "no 'N point match' line"),
        (
            " 3 point match\n  1) 31: 8/5 6/5\n",
            "line 2: '1) 31: 8/5 6/5' before the first 'Game' line",
        ),
        (" 3 point match\n Game 1\n Alice and Bob\n", "line 3: expected the players and scores"),
        (
            " 3 point match\n Game 1\n A : 0  B : 0\n  1) 31: 8/5 6/5\n      Wins 1 point\n"
            "  2) 31: 8/5 6/5\n",
            "line 6: game 1 goes on after its result ('Wins' on line 5)",
        ),
        (
            " 3 point match\n Game 1\n A : 0  B : 0\n  1) 31: 8/5 6/5\n\n Game 2\n A : 0  B : 0\n",
            "line 2: game 1 has no result",
        ),
        (
            " 3 point match\n Game 1\n A : 0  B : 0\n  1) 8/5 6/5\n",
            "line 4: move '8/5' has no roll",
        ),
        (
            " 3 point match\n Game 1\n A : 0  B : 0\n  1) 31: 8/5  Wins 0 points\n",
            "line 4: expected 'Wins N points' with N at least 1",
        ),
    ],
)
def test_corrupt_inputs_name_the_line(text: str, expected: str) -> None:
    with pytest.raises(MatFileError) as caught:
        read_mat(text)
    assert expected in str(caught.value)


def test_an_unfinished_last_game_has_no_winner() -> None:
    match = read_mat(" 3 point match\n Game 1\n A : 0  B : 0\n  1) 31: 8/5 6/5  \n")
    assert match.games[0].winner is None
    assert match.final_score == (0, 0)


def test_write_rejects_names_the_format_cannot_hold() -> None:
    with pytest.raises(ValueError, match="player name 'A:B'"):
        write_mat(MatchFile(1, ("A:B", "C"), ()))


def test_action_rejects_inconsistent_fields() -> None:
    with pytest.raises(ValueError, match="unknown action kind"):
        Action(0, "jump")
    with pytest.raises(ValueError, match="needs dice"):
        Action(0, "play")
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        Action(2, "take")


def test_resignation_is_written_as_the_result_only() -> None:
    game = GameRecord(
        1,
        (0, 0),
        (Action(0, "play", (3, 1), "8/5 6/5"), Action(0, "resign")),
        winner=1,
        points=2,
    )
    text = write_mat(MatchFile(3, ("A", "B"), (game,)))
    back = read_mat(text).games[0]
    assert back.actions == game.actions[:1]
    assert (back.winner, back.points) == (1, 2)


# A random match shape: who acts in what order, with plays and cube actions; the writer must give
# text the reader turns back into the same match.
_moves = st.lists(
    st.sampled_from(["13/8", "24/18*", "25/22", "6/0", "8/5", "bar/20", "6/off"]), max_size=4
)


@st.composite
def _games(draw: st.DrawFn) -> MatchFile:
    games = []
    score = [0, 0]
    for number in range(1, draw(st.integers(1, 4)) + 1):
        player = draw(st.integers(0, 1))
        actions: list[Action] = []
        cube = 1
        for _ in range(draw(st.integers(0, 12))):
            if draw(st.booleans()):
                dice = (draw(st.integers(1, 6)), draw(st.integers(1, 6)))
                actions.append(Action(player, "play", dice, " ".join(draw(_moves))))
                player = 1 - player
            else:
                cube *= 2
                actions.append(Action(player, "double", cube=cube))
                actions.append(Action(1 - player, "take"))
        finished = draw(st.booleans()) or number < 4
        winner = draw(st.integers(0, 1)) if finished else None
        if winner is not None and draw(st.booleans()):
            cube *= 2
            actions.append(Action(winner, "double", cube=cube))
            actions.append(Action(1 - winner, "pass"))
        points = draw(st.integers(1, 6)) if winner is not None else 0
        games.append(GameRecord(number, (score[0], score[1]), tuple(actions), winner, points))
        if winner is None:
            break
        score[winner] += points
    names = st.sampled_from(["Alice Smith", "Bob", "Player 2", "A" * 40, "Zoë van der Berg-Jansen"])
    return MatchFile(draw(st.integers(0, 25)), (draw(names), draw(names)), tuple(games))


@settings(max_examples=150, deadline=None)
@given(_games())
def test_write_then_read_is_identity(match: MatchFile) -> None:
    assert read_mat(write_mat(match)) == match


def test_problems_come_in_line_order_each_once() -> None:
    text = (
        " 3 point match\n Game 1\n A : 0  B : 0\n  1) 31: 8/5 6/5\n\n"
        " Game 2\n A : 5  B : 0\n  1) 31: 8/5 6/5 xx\n      Wins 1 point\n"
    )
    with pytest.raises(MatFileError) as caught:
        read_mat(text)
    assert caught.value.problems == (
        "line 2: game 1 has no result ('Wins N points')",
        "line 8: cannot read 'xx': expected a roll ('52:'), a move, Doubles, Takes, Drops or Wins",
    )
