"""Explanations of illegal results: plain words and the points to light, keyed by Position ID."""

from __future__ import annotations

import pytest

from controller.rules import (
    BAR_POINT,
    OFF_POINT,
    Dice,
    IllegalPlayError,
    Play,
    Position,
    RulesError,
    explain_illegal,
    legal_plays,
)
from controller.rules.explain import apply_loosely
from controller.rules.notation import parse_steps

START = "4HPwATDgc/ABMA"


def attempt(position_id: str, text: str) -> Position:
    """The result of moving checkers as written, without any rule but the board's."""
    position = Position.from_position_id(position_id)
    result = apply_loosely(position, parse_steps(text))
    assert result is not None, f"{text!r} cannot be carried out in {position_id}"
    return result


def side(**points: int) -> list[int]:
    counts = [0] * 25
    for name, count in points.items():
        counts[24 if name == "bar" else int(name[1:]) - 1] = count
    return counts


BAR_POSITION = Position(side(bar=1, p13=5, p8=3, p6=5, p24=1), side(p24=2, p13=5, p8=3, p6=4, p3=1))
BEAR_OFF = Position(side(p6=2, p5=2, p8=1), side(p24=2, p1=13))
HIGHER_DIE = Position(side(p13=1, p2=14), side(p22=2, p24=13))
HIGHER_POINT = Position(side(p6=1, p2=2), side(p24=2, p1=13))
PRIMED = Position(side(p13=1, p6=14), side(p16=2, p18=2, p24=11))

CASES = [
    # (position id, dice, attempted play, words expected, points expected)
    (START, "61", "13/7", "both dice could be played", {13, 7}),
    (START, "61", "13/7 13/7", "12 pips moved, but 6-1 gives 7", {13, 7}),
    (START, "64", "13/9 13/9", "13/9 needs a 4, but 6-4 has no 4 left for it", {13, 9}),
    (START, "31", "24/22 24/23", "24/22 moves 2 pips: no number of 3-1 makes 2", {24, 22}),
    (START, "21", "6/5 6/5 6/5", "too many checkers moved: 3, but 2-1 moves at most 2", {6, 5}),
    (START, "66", "24/18 24/18 13/7", "4 6s could be played, only 3 were", {24, 18, 13, 7}),
    (
        BAR_POSITION.to_position_id(),
        "63",
        "13/7 8/5",
        "a checker on the bar must enter first",
        {25, 13, 8},
    ),
    (
        BAR_POSITION.to_position_id(),
        "63",
        "25/22 13/10",
        "13/10 needs a 3, but 6-3 has no 3 left for it",
        {13, 10},
    ),
    (
        BEAR_OFF.to_position_id(),
        "65",
        "6/off 5/off",
        "bearing off with checkers outside the home board",
        {8},
    ),
    (
        BEAR_OFF.to_position_id(),
        "62",
        "8/2 6/off",
        "6/off needs a 6 or higher, and none of 6-2 is left for it",
        {6, 0},
    ),
    (HIGHER_DIE.to_position_id(), "64", "13/9", "the higher die (6) must be played", {13, 9}),
    (
        HIGHER_POINT.to_position_id(),
        "43",
        "2/off 2/off",
        "2/off: a checker may be borne off from a lower point only when no checker stands higher (6)",
        {2, 6},
    ),
]


@pytest.mark.parametrize(("position_id", "dice", "text", "words", "points"), CASES)
def test_explanations(position_id: str, dice: str, text: str, words: str, points: set[int]) -> None:
    position = Position.from_position_id(position_id)
    result = attempt(position_id, text)
    assert result not in legal_plays(position, dice)
    explanation = explain_illegal(position, dice, result)
    assert explanation.text == words
    assert set(explanation.points) == points


def test_no_move_when_a_move_is_possible() -> None:
    start = Position.initial()
    explanation = explain_illegal(start, "61", start)
    assert explanation.text == "no checker was moved, but the roll can be played"
    assert explanation.points


def test_blocked_landing_names_the_holder() -> None:
    # Seen: a White checker put on 7 beside Black's pair. Only the mover's side can show that.
    position = Position(side(p13=2, p6=13), side(p18=2, p1=13))  # Black holds our 7
    explanation = explain_illegal(position, Dice(6, 1), side(p13=1, p7=1, p6=13))
    assert explanation.text == "13/7 lands on a blocked point (Black holds 7)"
    assert explanation.points == (13, 7)


def test_a_mover_side_with_a_hit_is_judged_like_the_position() -> None:
    position = Position(side(p13=2, p8=13), side(p18=1, p24=14))  # Black blot on our 7
    legal_side = side(p13=1, p8=12, p7=2)  # 13/7* 8/7
    assert explain_illegal(position, "61", legal_side).text == "legal"
    with pytest.raises(RulesError, match="25 counts"):
        explain_illegal(position, "61", [1, 2, 3])


def test_blocked_combined_move_is_named() -> None:
    # 13/3 with 6-4 would touch down on 9 or 7, both held by Black. Seen: the checker on 3.
    result = Position(side(p3=1, p6=14), side(p16=2, p18=2, p24=11))
    explanation = explain_illegal(PRIMED, "64", result)
    assert explanation.text == "13/3 cannot touch down: Black holds 7 and 9"
    assert set(explanation.points) == {13, 7, 9, 3}


def test_blocked_double_touch_down_is_named() -> None:
    position = Position(side(p13=1, p6=14), side(p16=2, p24=13))  # Black holds our 9
    result = Position(side(p5=1, p6=14), side(p16=2, p24=13))  # 13/5 with 4-4 touches 9
    explanation = explain_illegal(position, "44", result)
    assert explanation.text.startswith("13/5 touches down on a blocked point (Black holds 9)")


def test_opponent_checkers_must_not_move() -> None:
    start = Position.initial()
    moved = list(start.opponent)
    moved[5] -= 1
    moved[4] += 1
    result = Position(start.apply(Play.from_notation("8/5 6/5", start, "31")).mover, moved)
    explanation = explain_illegal(start, "31", result)
    assert explanation.text == "Black's checkers moved during White's turn"


def test_backwards_move() -> None:
    start = Position.initial()
    mover = list(start.mover)
    mover[5] -= 1
    mover[6] += 1
    assert (
        explain_illegal(start, "31", Position(mover, start.opponent)).text
        == "6/7 moves a checker backwards"
    )


def test_a_blot_removed_without_a_hit() -> None:
    position = Position(side(p13=2, p8=13), side(p18=1, p24=14))  # Black blot on our 7
    # 13/12 8/2 is fine, but the blot on 7 went to the bar with no checker landing there.
    result = Position(side(p13=1, p12=1, p8=12, p2=1), side(bar=1, p24=14))
    explanation = explain_illegal(position, "61", result)
    assert explanation.text == "Black's checker on 7 went to the bar without being hit"
    assert explanation.points == (7,)


def test_legal_result_says_legal_and_other_side_is_refused() -> None:
    start = Position.initial()
    legal = next(iter(legal_plays(start, "31")))
    assert explain_illegal(start, "31", legal).text == "legal"
    with pytest.raises(RulesError, match="same side"):
        explain_illegal(start, "31", start.swap())


def test_illegal_play_errors_carry_the_explanation() -> None:
    with pytest.raises(IllegalPlayError, match="the higher die \\(6\\) must be played"):
        Play.from_notation("13/9", HIGHER_DIE, "64")
    assert BAR_POINT == 25 and OFF_POINT == 0


def test_touching_down_on_a_blot_hits_it() -> None:
    # 2-2: 20/14 touches down on 18 and 16; Black's blot on 16 must be hit on the way.
    position = Position(side(p20=1, p6=14), side(p9=1, p1=14))  # Black's 9 is our 16
    result = Position(side(p14=1, p6=12, p4=2), side(p9=1, p1=14))
    explanation = explain_illegal(position, "22", result)
    assert explanation.text == "20/14 touches down on 16, so Black's blot there must be hit"
    assert set(explanation.points) == {20, 16, 14}


def test_entering_checker_may_not_move_on_while_another_waits() -> None:
    # Two on the bar, 4-2: Black holds our 21, so only the 2 enters; bar/19 moved on anyway.
    position = Position(side(bar=2, p6=13), side(p4=2, p24=13))
    result = Position(side(bar=1, p19=1, p6=13), side(p4=2, p24=13))
    explanation = explain_illegal(position, "42", result)
    assert explanation.text.startswith("bar/19 moved on after entering while another checker waits")
    assert explanation.points == (25, 19)


def test_bearing_off_with_a_larger_number_while_a_higher_point_is_occupied() -> None:
    position = Position(side(p5=1, p3=1, p2=1, p1=6), side(p1=10))
    result = Position(side(p3=2, p1=6), side(p1=10))  # 5/3 2/off with 4-2
    explanation = explain_illegal(position, "42", result)
    assert explanation.text == (
        "2/off with a 4: a checker may be borne off from a lower point only when no checker "
        "stands higher (3)"
    )
