"""The referee's state: plain immutable values, rebuilt by folding recorded events one by one.

Nothing here decides anything; :mod:`controller.referee.referee` decides which events happen and
:func:`GameState` values are what those events leave behind. Keeping the state a fold over the log is
what lets a referee resume exactly where it was after a crash or a power cut.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from controller.referee.reading import Board
from controller.rules.position import Position
from controller.rules.sheshbesh import SheshBeshGame
from sheshbesh.match import PHASES as ALL_PHASES
from sheshbesh.match import Phase
from sheshbesh.snapshot import CubeMove, LastPlay, PlayMove

_INITIAL: Final = Position.initial()

#: The phases of a game, in the order they usually come (the words: ``sheshbesh.match.Phase``):
#: idle (no match, or a match whose first game has not been set up yet); roll_off (waiting for
#: the opening roll: one die each); rolling (the player on roll may double, then rolls); moving
#: (dice rolled; the player moves checkers, then picks up the dice or presses done); illegal (an
#: illegal play stands and must be put right, or condoned); cube_offered (a double waits for
#: take, pass or beaver); resign_offered (a resignation waits for accept or reject); won (the game
#: is decided by a pass or an accepted resignation; the result is still to be scored); game_over
#: (the result is scored); match_over.
PHASES: Final[tuple[Phase, ...]] = ALL_PHASES


@dataclass(frozen=True, slots=True)
class PendingIllegal:
    """An illegal play on the board: who, with what dice, and the board it left."""

    player: int
    dice: tuple[int, int]
    board: Board
    reason: str
    locations: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GameState:
    """One game's state. ``position`` has the player to act (on roll, or moving) as its mover."""

    number: int = 0
    position: Position = _INITIAL
    phase: Phase = "idle"
    dice: tuple[int, int] | None = None
    cube: int = 1
    cube_owner: int | None = None
    offered_by: int | None = None
    offered_cube: int = 0
    crawford_game: bool = False
    resign: tuple[int, int] | None = None
    before_resign: Phase = "rolling"
    illegal: PendingIllegal | None = None
    restore_to: Board | None = None
    mismatch: str | None = None
    stale_dice: tuple[int, int] | None = None
    refused: tuple[int, str] | None = None
    won: tuple[int, int, str] | None = None
    moves: tuple[PlayMove | CubeMove, ...] = ()
    last_play: LastPlay | None = None
    #: Shesh Besh only: the game as the rules engine follows it (stacks and laid-down checkers).
    sheshbesh: SheshBeshGame | None = None

    @property
    def turn(self) -> int:
        """The player to act: 0 White, 1 Black."""
        return self.position.turn
