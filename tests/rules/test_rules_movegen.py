"""Legal-play generation: opening counts, the rules of §1 by example, and a gnubg differential."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from rules_testkit import ALL_ROLLS, hard_positions, positions, random_game_positions

from controller.rules import (
    Dice,
    Play,
    Position,
    Step,
    legal_plays,
    partial_positions,
)

OPENING_COUNTS = {
    "66": 11, "65": 7, "64": 14, "63": 14, "62": 14, "61": 10, "55": 4, "54": 9, "53": 9,
    "52": 8, "51": 8, "44": 52, "43": 17, "42": 18, "41": 14, "33": 73, "32": 17, "31": 16,
    "22": 75, "21": 15, "11": 42,
}  # fmt: skip


def side(**points: int) -> list[int]:
    """A side from keyword counts: p6=5 puts 5 on the 6-point, bar=1 one on the bar."""
    counts = [0] * 25
    for name, count in points.items():
        counts[24 if name == "bar" else int(name[1:]) - 1] = count
    return counts


def texts(position: Position, dice: str) -> set[str]:
    plays = legal_plays(position, dice)
    return {str(play) for result in plays for play in plays[result]}


@pytest.mark.parametrize(("dice", "count"), sorted(OPENING_COUNTS.items()))
def test_opening_counts(dice: str, count: int) -> None:
    assert len(legal_plays(Position.initial(), dice)) == count
    assert len(legal_plays(Position.initial(), dice[::-1])) == count


def test_entering_from_the_bar_comes_first() -> None:
    # Black holds its 1, 2, 3, 4 and 6 points (our 24, 23, 22, 21, 19): only the 5 enters, at 20.
    position = Position(side(bar=1, p6=14), side(p1=2, p2=2, p3=2, p4=2, p6=2, p13=5))
    assert texts(position, "52") == {"bar/18", "bar/20 6/4"}
    assert texts(position, "55") == {"bar/5", "bar/10 6/1", "bar/15 6/1(2)", "bar/20 6/1(3)"}


def test_closed_board_forfeits_the_turn() -> None:
    position = Position(side(bar=2, p6=13), side(p1=2, p2=2, p3=2, p4=2, p5=2, p6=2, p13=3))
    plays = legal_plays(position, "64")
    assert list(plays) == [position]
    assert plays[position] == (Play(()),)
    assert not plays.can_move
    assert plays.dice_used == 0


def test_only_one_of_two_checkers_on_the_bar_enters() -> None:
    position = Position(side(bar=2, p6=13), side(p1=2, p2=2, p3=2, p4=2, p6=2, p13=5))
    assert texts(position, "54") == {"bar/20"}
    assert texts(position, "55") == {
        "bar/15(2)",
        "bar/10 bar/20",
        "bar/15 bar/20 6/1",
        "bar/20(2) 6/1(2)",
    }


def test_higher_die_must_be_played_when_only_one_can() -> None:
    # 13/7 or 13/9 alone, but Black holds our 3 so neither continues; the 2-point checkers cannot
    # bear off while 13 is outside. Only the 6 may be played.
    position = Position(side(p13=1, p2=14), side(p22=2, p24=13))
    plays = legal_plays(position, "64")
    assert texts(position, "64") == {"13/7"}
    assert plays.dice_used == 1


def test_combined_move_must_touch_down_on_an_open_point() -> None:
    # 13/3 with 6-4 touches down on 7 or 9; Black holds both: the 13 checker cannot move at all.
    position = Position(side(p13=1, p6=14), side(p16=2, p18=2, p24=11))
    assert texts(position, "64") == {"6/2"}
    open_one = Position(side(p13=1, p6=14), side(p16=2, p24=13))
    assert "13/3" in texts(open_one, "64")


def test_bearing_off_exact_and_from_the_highest_point() -> None:
    position = Position(side(p5=1, p3=1), side(p24=2, p1=13))
    assert texts(position, "64") == {"5/off 3/off"}
    assert texts(position, "61") == {"5/off 3/2", "5/off"}
    # With 6 and 2 occupied, a 3 or 4 may not bear off from 2; once 6 has moved down it may.
    higher_occupied = Position(side(p6=1, p2=1), side(p1=13, p24=2))
    assert texts(higher_occupied, "43") == {"6/off"}
    assert set(legal_plays(higher_occupied, "43")) == {Position(side(p2=1), side(p1=13, p24=2))}


def test_bear_off_is_suspended_after_a_hit() -> None:
    # A checker on the bar must come home before any bears off.
    position = Position(side(bar=1, p1=5, p2=5), side(p10=15))
    assert texts(position, "66") == {"bar/1"}


def test_doubles_play_four_times() -> None:
    plays = legal_plays(Position.initial(), "66")
    assert plays.dice_used == 4
    assert "24/18(2) 13/7(2)" in texts(Position.initial(), "66")


def test_hit_sends_the_blot_to_the_bar() -> None:
    position = Position(side(p13=2, p8=13), side(p18=1, p24=14))  # Black blot on our 7
    plays = legal_plays(position, "61")
    hits = [r for r in plays if r.opponent[24] == 1]
    assert hits
    assert "13/7* 8/7" in texts(position, "61")


def test_hit_on_the_way_prints_and_applies() -> None:
    position = Position(side(p13=1, p6=14), side(p18=1, p1=14))  # Black blot on our 7
    assert texts(position, "66") == {"13/7*/1 6/off(2)"}
    result = position.apply(Play((Step(13, 7, True), Step(7, 1))))
    assert result.opponent[24] == 1 and result.mover[0] == 1


def test_partial_positions_follow_checkers_moved_one_at_a_time() -> None:
    start = Position.initial()
    ways = partial_positions(start, "31")
    assert ways[start] == frozenset(legal_plays(start, "31"))
    after_8_5 = start.apply([Step(8, 5)])
    after_6_5 = start.apply([Step(6, 5)])
    final = start.apply([Step(8, 5), Step(6, 5)])
    assert ways[after_8_5] >= {final}
    assert ways[after_6_5] >= {final}
    assert ways[final] == frozenset({final})
    assert start.apply([Step(6, 4)]) not in ways  # a 2 was not rolled: never a prefix
    for prefix, finals in ways.items():
        assert finals <= frozenset(legal_plays(start, "31"))
        assert prefix.turn == start.turn


def test_every_result_uses_the_most_dice_and_conserves_checkers() -> None:
    for position in random_game_positions(seed=5, games=4):
        for dice in (Dice(6, 5), Dice(2, 2)):
            plays = legal_plays(position, dice)
            used = {len(plays[result][0]) for result in plays} if plays.can_move else {0}
            assert len(used) == 1
            for result in plays:
                assert sum(result.mover) + result.mover_off == 15
                assert sum(result.opponent) + result.opponent_off == 15
                assert result.opponent_off == position.opponent_off
                for play in plays[result]:
                    assert position.apply(play) == result
                    assert result.undo(play) == position


@pytest.mark.gnubg
def test_differential_against_gnubg_random_games() -> None:
    gnubg_nn = pytest.importorskip(
        "gnubg_nn", reason="gnubg-nn is the reference (pip install gnubg-nn, x86-64)"
    )
    import random

    rng = random.Random(2024)
    checked = 0
    for position in random_game_positions(seed=11, games=40):
        dice = rng.choice(ALL_ROLLS)
        _compare(gnubg_nn, position, dice)
        checked += 1
    assert checked > 2000


@pytest.mark.gnubg
def test_differential_against_gnubg_hard_families() -> None:
    gnubg_nn = pytest.importorskip(
        "gnubg_nn", reason="gnubg-nn is the reference (pip install gnubg-nn, x86-64)"
    )
    families: dict[str, int] = {}
    for family, position in hard_positions(seed=3, per_family=25):
        families[family] = families.get(family, 0) + 1
        for dice in ALL_ROLLS:
            _compare(gnubg_nn, position, dice)
    assert len(families) == 6


@pytest.mark.gnubg
@settings(max_examples=300, deadline=None)
@given(positions(), st.sampled_from(ALL_ROLLS))
def test_differential_against_gnubg_arbitrary_positions(position: Position, dice: Dice) -> None:
    gnubg_nn = pytest.importorskip(
        "gnubg_nn", reason="gnubg-nn is the reference (pip install gnubg-nn, x86-64)"
    )
    # With a side already finished the game is over; gnubg then returns a meaningless board.
    assume(any(position.mover) and any(position.opponent))
    _compare(gnubg_nn, position, dice)


def _compare(gnubg_nn: object, position: Position, dice: Dice) -> None:
    """Same set of reachable (mover, opponent) sides as gnubg; no move means the start itself."""
    board = position.to_gnubg_board()
    keys = gnubg_nn.moves(board, dice.first, dice.second, 0)  # type: ignore[attr-defined]
    boards = [gnubg_nn.board_from_position_key(key) for key in keys]  # type: ignore[attr-defined]
    expected = {(tuple(b[1]), tuple(b[0])) for b in boards} or {(position.mover, position.opponent)}
    got = {(p.mover, p.opponent) for p in legal_plays(position, dice)}
    assert got == expected, f"{position!r} {dice}: extra {got - expected}, missing {expected - got}"
