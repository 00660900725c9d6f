"""Move notation both ways, and errors that quote the input, the dice and the position."""

from __future__ import annotations

import pytest
from rules_testkit import random_game_positions

from controller.rules import (
    Dice,
    IllegalPlayError,
    NotationError,
    Play,
    Position,
    Step,
    legal_plays,
)

START = Position.initial()


def side(**points: int) -> list[int]:
    counts = [0] * 25
    for name, count in points.items():
        counts[24 if name == "bar" else int(name[1:]) - 1] = count
    return counts


@pytest.mark.parametrize(
    ("steps", "text"),
    [
        ((Step(24, 18), Step(13, 10, True)), "24/18 13/10*"),
        ((Step(25, 22),), "bar/22"),
        ((Step(6, 0),), "6/off"),
        ((Step(8, 5), Step(8, 5)), "8/5(2)"),
        ((Step(13, 7, True), Step(7, 1)), "13/7*/1"),
        ((Step(24, 18), Step(18, 13)), "24/13"),
        ((Step(6, 0), Step(6, 0), Step(5, 0), Step(5, 0)), "6/off(2) 5/off(2)"),
        ((), ""),
    ],
)
def test_printing(steps: tuple[Step, ...], text: str) -> None:
    assert str(Play(steps)) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("8/5 6/5", "8/5 6/5"),
        ("6/5 8/5", "8/5 6/5"),
        ("24/20", "24/20"),
        ("24/23/20", "24/20"),
        ("24/21 21/20", "24/20"),
        ("13/9", "13/9"),
        ("8/4", "8/4"),
    ],
)
def test_parsing_the_opening_31(text: str, expected: str) -> None:
    play = Play.from_notation(text, START, "31")
    assert str(play) == expected
    assert START.apply(play) in legal_plays(START, "31")


def test_parsing_gnubg_mat_forms_and_hits() -> None:
    position = Position(side(bar=1, p13=5, p8=3, p6=5, p24=1), side(p24=2, p13=5, p8=3, p6=4, p3=1))
    # Black's 3-point is our 22: a blot there.
    play = Play.from_notation("25/22* 13/7", position, "36")
    assert play == Play.from_notation("bar/22* 13/7", position, "63")
    assert str(play) == "bar/22* 13/7"
    assert position.apply(play).opponent[24] == 1
    bear = Position(side(p6=2, p5=1), side(p24=2, p1=13))
    assert str(Play.from_notation("6/0 5/0", bear, "65")) == "6/off 5/off"
    assert str(Play.from_notation("6/off 5/off", bear, "56")) == "6/off 5/off"


def test_hit_marks_may_be_left_out_when_only_one_play_fits() -> None:
    position = Position(side(p13=2, p8=13), side(p18=1, p24=14))  # Black blot on our 7
    assert str(Play.from_notation("13/7 8/7", position, "61")) in {"13/7* 8/7", "13/7 8/7*"}


def test_empty_play() -> None:
    closed = Position(side(bar=2, p6=13), side(p1=2, p2=2, p3=2, p4=2, p5=2, p6=2, p13=3))
    assert Play.from_notation("", closed, "64") == Play(())
    with pytest.raises(IllegalPlayError, match="the roll can be played"):
        Play.from_notation("", START, "64")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("24-18", "cannot read '24-18'"),
        ("18/24", "moves away from home"),
        ("off/3", "cannot read"),
        ("6/off/3", "nothing moves on after bearing off"),
        ("26/20", "a move starts on a point 1..24 or the bar"),
        ("8/5(5)", "repeats 1 to 4 times"),
    ],
)
def test_syntax_errors_quote_input_dice_and_position(text: str, fragment: str) -> None:
    with pytest.raises(NotationError, match=fragment) as raised:
        Play.from_notation(text, START, "31")
    message = str(raised.value)
    assert "4HPwATDgc/ABMA" in message and "3-1" in message


@pytest.mark.parametrize(
    ("text", "dice", "fragment"),
    [
        ("13/7", "61", "both dice could be played"),
        ("24/17", "65", "blocked point"),
        ("13/12 13/7", "61", "13/12 lands on a blocked point \\(Black holds 12\\)"),
        ("24/18 13/10", "61", "does not fit|pips"),
        ("7/1", "61", "no checker on point 7"),
    ],
)
def test_illegal_plays_quote_input_dice_position_and_reason(
    text: str, dice: str, fragment: str
) -> None:
    with pytest.raises(IllegalPlayError, match=fragment) as raised:
        Play.from_notation(text, START, dice)
    message = str(raised.value)
    assert repr(text) in message and "4HPwATDgc/ABMA" in message
    assert f"{dice[0]}-{dice[1]}" in message


def test_legal_plays_print_and_parse_back_to_their_positions() -> None:
    """Every seventh play in two random games' positions with 5-3 and 4-4 (over 1000 plays)."""
    checked = 0
    counter = 0
    for position in random_game_positions(seed=8, games=2):
        for dice in (Dice(5, 3), Dice(4, 4)):
            plays = legal_plays(position, dice)
            for result in plays:
                for play in plays[result]:
                    counter += 1
                    if counter % 7:
                        continue
                    text = str(play)
                    assert position.apply(Play.from_notation(text, position, dice)) == result
                    checked += 1
    assert checked > 1000
