"""Invariants on arbitrary positions (hypothesis): conservation, most dice used, undo, prefixes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rules_testkit import positions

from controller.rules import Dice, Position, legal_plays, partial_positions
from controller.rules.movegen import generate

dice_strategy = st.builds(Dice, st.integers(1, 6), st.integers(1, 6))


@settings(max_examples=150, deadline=None)
@given(positions(), dice_strategy)
def test_conservation_most_dice_and_undo(position: Position, dice: Dice) -> None:
    plays = legal_plays(position, dice)
    assert len(plays) >= 1
    dice_used = {len(plays[result][0]) for result in plays}
    assert len(dice_used) == 1, "every legal play uses the same, maximal, number of dice"
    used = dice_used.pop()
    assert used <= len(dice.moves)
    for result in plays:
        assert result.turn == position.turn
        assert sum(result.mover) + result.mover_off == 15 - (
            15 - sum(position.mover) - position.mover_off
        )
        assert result.mover_off >= position.mover_off
        assert sum(result.opponent) == sum(position.opponent)  # hits go to the bar, never off
        assert result.pip_count(result.turn) <= position.pip_count(position.turn)
        for play in plays[result]:
            assert len(play) == used
            assert position.apply(play) == result
            assert result.undo(play) == position
    if not plays.can_move:
        assert list(plays) == [position]


@settings(max_examples=100, deadline=None)
@given(positions(), dice_strategy)
def test_no_reachable_position_uses_fewer_dice_than_possible(
    position: Position, dice: Dice
) -> None:
    plays = legal_plays(position, dice)
    ways = partial_positions(position, dice)
    finals = frozenset(plays)
    assert ways[position] == finals
    for prefix, reachable in ways.items():
        assert reachable <= finals
        if prefix in finals:
            assert prefix in reachable
    # Every final position is its own prefix. (It may also lie on the way to another: with 2-1,
    # checkers on 2 and 1 can end as 2/1 1/off, or pass through that board with 2/off then 1/off.)
    for result in finals:
        assert result in ways[result]


@settings(max_examples=100, deadline=None)
@given(positions(), dice_strategy)
def test_generation_with_and_without_paths_agree(position: Position, dice: Dice) -> None:
    with_paths = generate(position.mover, position.opponent, dice, keep_paths=True)
    without = generate(position.mover, position.opponent, dice, keep_paths=False)
    assert set(with_paths) == set(without)
    reversed_dice = Dice(dice.second, dice.first)
    assert set(legal_plays(position, reversed_dice)) == set(legal_plays(position, dice))


@settings(max_examples=150, deadline=None)
@given(positions(), dice_strategy, dice_strategy, st.integers(0, 10_000))
def test_explanations_never_fail_and_never_call_an_illegal_result_legal(
    position: Position, dice: Dice, other: Dice, pick: int
) -> None:
    """Results reached with another roll are judged against this roll: words for every one."""
    from controller.rules import explain_illegal

    legal = legal_plays(position, dice)
    candidates = list(legal_plays(position, other))
    result = candidates[pick % len(candidates)]
    explanation = explain_illegal(position, dice, result)
    if result in legal:
        assert explanation.text == "legal"
    else:
        assert explanation.text and explanation.text != "legal"
        assert all(0 <= point <= 25 for point in explanation.points)
