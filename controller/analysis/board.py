"""Boards as the analysis sees them: GNU Backgammon's two sides, and the engine's signed array.

A :data:`Sides` value is ``(opponent, mover)``: two tuples of 25 checker counts, each side counting
points from its own 1-point (index ``i`` is point ``i + 1``) with index 24 its bar — the order of
GNU Backgammon and of ``Position.to_gnubg_board()``. Checkers borne off are not stored.

The engine (bgsage) wants one list of 26 signed counts from the mover's side: index 1..24 the
mover's points (positive: the mover's checkers, negative: the opponent's), index 25 the mover's bar
and index 0 the opponent's bar (a positive count).

>>> to_signed_board(START)[:7]
[0, -2, 0, 0, 0, 0, 5]
>>> from_signed_board(to_signed_board(START)) == START
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from controller.analysis.errors import AnalysisInputError

Side = tuple[int, ...]
Sides = tuple[Side, Side]

_START_SIDE: Final[Side] = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0)
#: The starting position, either player on roll.
START: Final[Sides] = (_START_SIDE, _START_SIDE)


def sides_from(board: Sequence[Sequence[int]]) -> Sides:
    """Validate ``[opponent, mover]`` (lists of 25 counts) and freeze it as :data:`Sides`.

    Raises :class:`AnalysisInputError` naming what is wrong: not two sides, a side that is not 25
    counts, a negative count, more than 15 checkers on a side, or both sides on the same point.
    """
    if len(board) != 2:
        raise AnalysisInputError(f"a board has two sides, got {len(board)}")
    sides = (tuple(int(n) for n in board[0]), tuple(int(n) for n in board[1]))
    for name, side in zip(("opponent", "mover"), sides, strict=True):
        if len(side) != 25:
            raise AnalysisInputError(f"the {name}'s side has {len(side)} counts, not 25")
        if min(side) < 0:
            raise AnalysisInputError(f"the {name}'s side has a negative count: {list(side)}")
        if sum(side) > 15:
            raise AnalysisInputError(f"the {name} has {sum(side)} checkers on the board, over 15")
    opponent, mover = sides
    for point in range(1, 25):
        if mover[point - 1] and opponent[24 - point]:
            raise AnalysisInputError(f"both sides have checkers on the mover's {point}-point")
    return sides


def to_signed_board(sides: Sides) -> list[int]:
    """The engine's 26-int board from the mover's side (see the module docstring)."""
    opponent, mover = sides
    board = [0] * 26
    board[0] = opponent[24]
    board[25] = mover[24]
    for point in range(1, 25):
        board[point] = mover[point - 1] - opponent[24 - point]
    return board


def from_signed_board(board: Sequence[int]) -> Sides:
    """Inverse of :func:`to_signed_board`.

    Raises :class:`AnalysisInputError` when ``board`` is not 26 counts or has a negative bar.
    """
    if len(board) != 26:
        raise AnalysisInputError(f"an engine board has 26 counts, got {len(board)}")
    if board[0] < 0 or board[25] < 0:
        raise AnalysisInputError(f"bar counts must not be negative: {list(board)}")
    mover = [0] * 25
    opponent = [0] * 25
    mover[24] = int(board[25])
    opponent[24] = int(board[0])
    for point in range(1, 25):
        count = int(board[point])
        if count > 0:
            mover[point - 1] = count
        elif count < 0:
            opponent[24 - point] = -count
    return (tuple(opponent), tuple(mover))


def swap(sides: Sides) -> Sides:
    """The same position with the other player to move."""
    return (sides[1], sides[0])


def pip_counts(sides: Sides) -> tuple[int, int]:
    """Pip counts ``(opponent, mover)``; a checker on the bar counts 25."""
    opponent, mover = sides
    return (
        sum(count * (index + 1) for index, count in enumerate(opponent)),
        sum(count * (index + 1) for index, count in enumerate(mover)),
    )
