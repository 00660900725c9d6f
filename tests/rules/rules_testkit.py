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


def _scatter(
    rng: random.Random, count: int, slots: list[int], side: list[int], blocked: set[int]
) -> None:
    for _ in range(count):
        choices = [i for i in slots if i not in blocked]
        side[rng.choice(choices)] += 1


def hard_positions(seed: int, per_family: int) -> Iterator[tuple[str, Position]]:
    """Constructed families that stress the rules: (family name, position)."""
    rng = random.Random(seed)
    for _ in range(per_family):
        # Bar against a closed or nearly closed board.
        me = [0] * 25
        them = [0] * 25
        open_points = rng.sample(range(6), rng.choice([0, 0, 1, 2]))
        for i in range(6):
            if i not in open_points:
                them[i] = 2
        rest_them = 15 - sum(them)
        _scatter(rng, rest_them, list(range(6, 24)), them, set())
        me[24] = rng.randint(1, 3)
        taken = {23 - i for i in range(24) if them[i]}
        _scatter(rng, 15 - me[24], list(range(24)), me, taken)
        yield "bar against a closed board", Position(me, them)

        # Both sides on the bar.
        me = [0] * 25
        them = [0] * 25
        me[24] = rng.randint(1, 2)
        them[24] = rng.randint(1, 2)
        _scatter(rng, 15 - them[24], list(range(24)), them, set())
        taken = {23 - i for i in range(24) if them[i]}
        _scatter(rng, 15 - me[24], list(range(24)), me, taken)
        yield "both sides on the bar", Position(me, them)

        # A prime in front of trapped checkers.
        me = [0] * 25
        them = [0] * 25
        length = rng.randint(4, 6)
        start = rng.randint(1, 24 - length - 1)
        for i in range(start, start + length):
            them[i] = 2
        _scatter(rng, 15 - 2 * length, list(range(24)), them, set())
        behind = [23 - i for i in range(start)]  # our points behind their prime
        taken = {23 - i for i in range(24) if them[i]}
        _scatter(rng, rng.randint(1, 3), behind, me, taken)
        _scatter(rng, 15 - sum(me), list(range(24)), me, taken)
        yield "prime", Position(me, them)

        # Bearing off with contact: our checkers home (some maybe off), theirs on the bar or in our home.
        me = [0] * 25
        them = [0] * 25
        them[24] = rng.randint(0, 1)
        _scatter(rng, rng.randint(1, 3), list(range(18, 24)), them, set())
        _scatter(rng, 15 - sum(them), list(range(24)), them, set())
        taken = {23 - i for i in range(24) if them[i]}
        home = [i for i in range(6) if i not in taken] or [0]
        if 0 in taken:
            them[23] -= them[23]
            them[24] += 0
        _scatter(rng, rng.randint(3, 15), home, me, {23 - i for i in range(24) if them[i]})
        if rng.random() < 0.3:  # one straggler still outside
            outside = [i for i in range(6, 12) if them[23 - i] == 0]
            if outside:
                me[rng.choice(outside)] += 1
        yield "bear-off with contact", Position(me, _fix(them, 15))

        # Races in the bear-off: exact and larger numbers, gaps between points.
        me = [0] * 25
        them = [0] * 25
        _scatter(rng, rng.randint(1, 15), rng.sample(range(6), rng.randint(1, 4)), me, set())
        _scatter(rng, rng.randint(1, 15), list(range(0, 6)), them, set())
        yield "bear-off race", Position(me, them)

        # Few playable numbers: scattered walls so one die or neither can be played.
        me = [0] * 25
        them = [0] * 25
        walls = rng.sample(range(24), rng.randint(5, 7))
        for i in walls:
            them[i] = 2
        _scatter(rng, 15 - sum(them), list(range(24)), them, set())
        taken = {23 - i for i in range(24) if them[i]}
        _scatter(rng, rng.randint(1, 4), list(range(6, 24)), me, taken)
        yield "partial plays", Position(me, them)


def _fix(side: list[int], limit: int) -> list[int]:
    while sum(side) > limit:
        index = max(range(25), key=lambda i: side[i])
        side[index] -= 1
    return side


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
