"""One game: the opening roll-off, the end of the game, resignations.

The turns in between are the referee's loop over :func:`controller.rules.legal_plays`; this module
holds the rules at the edges of a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from controller.rules.errors import GameStateError
from controller.rules.match import KIND_NAMES, MatchState, finish_game, game_points
from controller.rules.position import CHECKERS, PLAYER_NAMES, Dice, Position


class GameResult(NamedTuple):
    """The winner (0 White, 1 Black) and the kind: 1 single, 2 gammon, 3 backgammon."""

    winner: int
    kind: int

    @property
    def kind_name(self) -> str:
        return KIND_NAMES[self.kind]


def game_result(position: Position) -> GameResult | None:
    """Who has won and how, once a side has borne off all 15; None while the game goes on.

    Gammon: the loser has borne off none. Backgammon: and still has a checker on the bar or in the
    winner's home board.

    >>> won = Position([0] * 25, [0] * 18 + [15] + [0] * 6, turn=0)  # Black stuck in White's home
    >>> game_result(won)
    GameResult(winner=0, kind=3)
    >>> game_result(Position.initial()) is None
    True
    """
    white, black = position.by_player()
    winners = [player for player, side in enumerate((white, black)) if not any(side)]
    if not winners:
        return None
    if len(winners) == 2:
        raise GameStateError(f"both sides have borne off every checker in {position!r}")
    winner = winners[0]
    loser_side = (white, black)[1 - winner]
    if sum(loser_side) < CHECKERS:
        return GameResult(winner, 1)
    # The winner's home board is the loser's points 19..24 (indices 18..23); index 24 is the bar.
    if any(loser_side[18:25]):
        return GameResult(winner, 3)
    return GameResult(winner, 2)


def roll_off(white_die: int, black_die: int) -> int | None:
    """Who starts: the higher die, or None on a tie (both roll again). Raises :class:`GameStateError`.

    >>> roll_off(5, 3), roll_off(2, 6), roll_off(4, 4)
    (0, 1, None)
    """
    for die in (white_die, black_die):
        if not isinstance(die, int) or not 1 <= die <= 6:
            raise GameStateError(f"roll-off dice must be 1..6, got {white_die!r} and {black_die!r}")
    if white_die == black_die:
        return None
    return 0 if white_die > black_die else 1


def opening_roll(white_die: int, black_die: int) -> tuple[int, Dice] | None:
    """The starting player and the dice they play (both roll-off numbers, higher first); None on a tie."""
    first = roll_off(white_die, black_die)
    if first is None:
        return None
    return first, Dice(max(white_die, black_die), min(white_die, black_die))


@dataclass(frozen=True, slots=True)
class Resignation:
    """A resignation offered by ``player`` of a single (1), gammon (2) or backgammon (3)."""

    player: int
    kind: int

    def __post_init__(self) -> None:
        if self.player not in (0, 1):
            raise GameStateError(f"player must be 0 or 1, got {self.player!r}")
        if self.kind not in KIND_NAMES:
            raise GameStateError(
                f"a resignation is of 1 (single), 2 (gammon) or 3 (backgammon), got {self.kind!r}"
            )

    def points(self, state: MatchState) -> int:
        """What the opponent scores on accepting: the kind times the cube (Jacoby applies)."""
        return game_points(state, self.kind)

    def accept(self, state: MatchState) -> tuple[MatchState, int, int]:
        """The opponent accepts: the game ends. Returns (next state, winner, points)."""
        winner = 1 - self.player
        points = self.points(state)
        return finish_game(state, winner, points), winner, points

    def describe(self) -> str:
        return f"{PLAYER_NAMES[self.player]} resigns a {KIND_NAMES[self.kind]}"


def score_game(state: MatchState, position: Position) -> tuple[MatchState, GameResult, int]:
    """Score a game that ended on the board: (next state, result, points). Raises if unfinished."""
    result = game_result(position)
    if result is None:
        raise GameStateError(f"the game in {position!r} is not over: nobody has borne off all 15")
    points = game_points(state, result.kind)
    return finish_game(state, result.winner, points), result, points
