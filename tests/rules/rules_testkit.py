"""Shared helpers for the rules tests: seeded random games and constructed hard positions."""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import strategies as st

from controller.rules import Dice, Position, legal_plays

ALL_ROLLS: tuple[Dice, ...] = tuple(Dice(a, b) for a in range(1, 7) for b in range(1, a + 1))


def random_game_positions(seed: int, games: int, max_plies: int = 400) -> Iterator[Position]:
    """Positions (player on roll's view) met in random games: each play chosen at random."""
    rng = random.Random(seed)
    for _ in range(games):
        position = Position.initial(turn=rng.randint(0, 1))
        for _ in range(max_plies):
            yield position
            dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
            results = sorted(legal_plays(position, dice))
            after = rng.choice(results)
            if after.mover_off == 15:
                break
            position = after.swap()


def _place(
    rng: random.Random, side: list[int], count: int, slots: list[int], other: list[int]
) -> None:
    """Put up to ``count`` checkers on ``slots`` (indices of ``side``) the other side does not hold."""
    for _ in range(count):
        free = [i for i in slots if i == 24 or not other[23 - i]]
        if not free or sum(side) >= 15:
            return
        side[rng.choice(free)] += 1


def hard_positions(seed: int, per_family: int) -> Iterator[tuple[str, Position]]:
    """Constructed families that stress the rules: (family name, position).

    Bar against a closed or nearly closed board, both sides on the bar, primes with checkers
    trapped behind them, bearing off with contact, bear-off races with gaps, and scattered walls
    where only one number or none can be played.
    """
    rng = random.Random(seed)
    everywhere = list(range(24))
    for _ in range(per_family):
        me, them = [0] * 25, [0] * 25
        for index in range(6):
            them[index] = 2
        for index in rng.sample(range(6), rng.choice([0, 0, 1, 2])):
            them[index] = 0
        _place(rng, them, 15 - sum(them), list(range(6, 24)), me)
        me[24] = rng.randint(1, 3)
        _place(rng, me, 15 - me[24], everywhere, them)
        yield "bar against a closed board", Position(me, them)

        me, them = [0] * 25, [0] * 25
        me[24], them[24] = rng.randint(1, 2), rng.randint(1, 2)
        _place(rng, them, 15 - them[24], everywhere, me)
        _place(rng, me, 15 - me[24], everywhere, them)
        yield "both sides on the bar", Position(me, them)

        me, them = [0] * 25, [0] * 25
        length = rng.randint(4, 6)
        start = rng.randint(1, 23 - length)
        for index in range(start, start + length):
            them[index] = 2
        behind = [23 - index for index in range(start)]  # our points behind their prime
        _place(rng, me, rng.randint(1, 3), behind, them)
        _place(rng, them, 15 - sum(them), everywhere, me)
        _place(rng, me, 15 - sum(me), everywhere, them)
        yield "prime", Position(me, them)

        me, them = [0] * 25, [0] * 25
        them[24] = rng.randint(0, 1)
        _place(rng, them, rng.randint(1, 3), list(range(18, 24)), me)  # in our home board
        _place(rng, me, rng.randint(3, 15), list(range(6)), them)
        if rng.random() < 0.3:
            _place(rng, me, 1, list(range(6, 12)), them)  # a straggler still outside
        _place(rng, them, 15 - sum(them), everywhere, me)
        yield "bear-off with contact", Position(me, them)

        me, them = [0] * 25, [0] * 25
        _place(rng, me, rng.randint(1, 15), rng.sample(range(6), rng.randint(1, 4)), them)
        _place(rng, them, rng.randint(1, 15), list(range(6)), me)
        yield "bear-off race", Position(me, them)

        me, them = [0] * 25, [0] * 25
        for index in rng.sample(range(24), rng.randint(5, 7)):
            them[index] = 2
        _place(rng, them, 15 - sum(them), everywhere, me)
        _place(rng, me, rng.randint(1, 4), list(range(6, 24)), them)
        yield "partial plays", Position(me, them)


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Any legal-looking position: up to 15 checkers a side, bars included, no shared points."""
    mover = [0] * 25
    opponent = [0] * 25
    mover[24] = draw(st.integers(0, 3))
    opponent[24] = draw(st.integers(0, 2))
    mover_total = draw(st.integers(mover[24], 15))
    opponent_total = draw(st.integers(opponent[24], 15))
    home_bias = draw(st.booleans())
    for _ in range(mover_total - mover[24]):
        index = draw(st.integers(0, 5 if home_bias else 23))
        if opponent[23 - index] == 0:
            mover[index] += 1
    for _ in range(opponent_total - opponent[24]):
        index = draw(st.integers(0, 23))
        if mover[23 - index] == 0:
            opponent[index] += 1
    return Position(mover, opponent, draw(st.integers(0, 1)))
