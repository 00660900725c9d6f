"""One turn's legal plays seen as boards: which results are legal, and what a partial board allows.

The referee matches what it sees against :class:`TurnPlays`: a finished board is a legal result or
not; a board on the way (checkers moved one at a time) lies between the start and some legal results,
which narrows the hints to those results.

"Between" is judged by the flow of checkers, which only ever move towards home: counting, for each
point, the mover's checkers on that point or further back (bar included), a board on the way to a
result has no more than the start and no fewer than the result at every point, and the opponent's
checkers are each as at the start or as in the result (a blot hit or not yet hit). The hint for a
partial board is where checkers must still leave (sources) and where they must still arrive
(destinations), over every legal result it can still become.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from controller.lights.scene import mover_location
from controller.referee.reading import Board
from controller.rules.movegen import legal_plays
from controller.rules.position import Dice, Play, Position


def board_of(position: Position) -> Board:
    """The board of ``position`` (who is on roll does not matter to the eye)."""
    white, black = position.by_player()
    return Board(white, black)


#: One row per legal result, one column per side index (24 = the bar).
Matrix = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class Hint:
    """Where checkers must still leave (sources) and arrive (destinations) to finish a legal play."""

    sources: frozenset[str]
    destinations: frozenset[str]


class TurnPlays:
    """The legal plays of ``position``'s mover with ``dice``, indexed by the boards they make.

    >>> turn = TurnPlays(Position.initial(), (3, 1))
    >>> len(turn.results), turn.can_move
    (16, True)
    >>> sorted(turn.hint(turn.start).sources)
    ['p13', 'p24', 'p6', 'p8']
    """

    def __init__(self, position: Position, dice: tuple[int, int]) -> None:
        self.position = position
        self.dice = dice
        self.legal = legal_plays(position, Dice(dice[0], dice[1]))
        self.player = position.turn
        self.start = board_of(position)
        # LegalPlays keeps each result as (mover side, opponent side); a board is (White, Black).
        flip = self.player == 1
        self.results: dict[Board, Position] = {}
        for result in self.legal:
            mover, opponent = result.mover, result.opponent
            self.results[Board(opponent, mover) if flip else Board(mover, opponent)] = result
        self._flows: tuple[Matrix, Matrix, Matrix] | None = None
        self._hints: dict[Board, Hint | None] = {}

    @property
    def can_move(self) -> bool:
        """False when the roll cannot be played at all."""
        return not (len(self.results) == 1 and self.start in self.results)

    def play_to(self, board: Board) -> Play | None:
        """The play (first in notation order) that makes ``board``, or None if no legal play does."""
        result = self.results.get(board)
        if result is None:
            return None
        return self.legal[result][0]

    def hint(self, board: Board) -> Hint | None:
        """What is left to do from ``board`` towards a legal play (None: it leads to none)."""
        if board in self._hints:
            return self._hints[board]
        hint = self._hint(board)
        self._hints[board] = hint
        return hint

    def is_on_the_way(self, board: Board) -> bool:
        """True when ``board`` is the start, a legal result, or lies between them."""
        return board in self.results or self.hint(board) is not None

    def _hint(self, board: Board) -> Hint | None:
        if self._flows is None:
            movers = np.array([result.side(self.player) for result in self.results])
            opponents = np.array([result.side(1 - self.player) for result in self.results])
            backward = np.cumsum(movers[:, ::-1], axis=1)[:, ::-1]
            self._flows = (movers, opponents, backward)
        movers, opponents, result_backward = self._flows
        start_mover = np.array(self.start.side(self.player))
        start_opponent = np.array(self.start.side(1 - self.player))
        mover = np.array(board.side(self.player))
        opponent = np.array(board.side(1 - self.player))
        backward = np.cumsum(mover[::-1])[::-1]
        if (backward > np.cumsum(start_mover[::-1])[::-1]).any():
            return None
        if not start_opponent[24] <= opponent[24]:
            return None
        unchanged = opponent[:24] == start_opponent[:24]
        fits = (
            (backward >= result_backward).all(axis=1)
            & (unchanged | (opponent[:24] == opponents[:, :24])).all(axis=1)
            & (opponent[24] <= opponents[:, 24])
        )
        if not fits.any():
            return None
        reachable = movers[fits]
        sources = np.nonzero(mover > reachable.min(axis=0))[0].tolist()
        destinations = np.nonzero(mover < reachable.max(axis=0))[0].tolist()
        if mover.sum() > reachable.sum(axis=1).min():
            destinations.append(-1)
        return Hint(
            frozenset(mover_location(_point(index), self.player) for index in sources),
            frozenset(mover_location(_point(index), self.player) for index in destinations),
        )


def _point(index: int) -> int:
    """Side index to step numbering: 24 is the bar (25), -1 is off (0)."""
    return 25 if index == 24 else index + 1
