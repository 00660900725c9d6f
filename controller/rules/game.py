"""One game: the opening roll-off, the end of the game, resignations.

The turns in between are the referee's loop over :func:`controller.rules.legal_plays`; this module
holds the rules at the edges of a game.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

from controller.rules.errors import GameStateError, IllegalPlayError
from controller.rules.explain import explain_illegal
from controller.rules.match import KIND_NAMES, MatchState, finish_game, game_points
from controller.rules.movegen import legal_plays
from controller.rules.position import CHECKERS, PLAYER_NAMES, Dice, Play, Position


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


@dataclass(frozen=True, slots=True)
class Game:
    """One backgammon game turn by turn: the position (player on roll's view) and the dice rolled.

    Each method returns the next state; the cube lives in :class:`MatchState`.
    Raises :class:`GameStateError` for an action out of turn, :class:`IllegalPlayError` for a play
    the rules forbid.

    >>> game = Game.start(3, 1)  # White rolled the higher die and plays 3-1
    >>> game = game.play(Play.from_notation('8/5 6/5', game.position, game.dice))
    >>> game.player_on_roll, game.dice is None
    (1, True)
    """

    position: Position
    dice: Dice | None = None
    resignation: Resignation | None = None
    turns: int = 0

    @classmethod
    def start(cls, white_die: int, black_die: int) -> Game | None:
        """The opening: the higher die starts and plays both numbers; None on a tie (roll again)."""
        opening = opening_roll(white_die, black_die)
        if opening is None:
            return None
        first, dice = opening
        return cls(Position.initial(turn=first), dice)

    @property
    def player_on_roll(self) -> int:
        return self.position.turn

    @property
    def result(self) -> GameResult | None:
        """Set once a side has borne off all 15."""
        return game_result(self.position)

    def _require_going_on(self, action: str) -> None:
        if self.result is not None:
            raise GameStateError(f"cannot {action}: the game is over")
        if self.resignation is not None:
            raise GameStateError(
                f"cannot {action}: {self.resignation.describe()}, awaiting an answer"
            )

    def roll(self, dice: Dice | tuple[int, int] | str) -> Game:
        """The player on roll rolls."""
        self._require_going_on("roll")
        if self.dice is not None:
            raise GameStateError(
                f"cannot roll: {self.dice.first}-{self.dice.second} is still to play"
            )
        return replace(self, dice=Dice.coerce(dice))

    def play(self, play: Play) -> Game:
        """Make ``play`` with the dice rolled; the turn passes unless the game is over."""
        self._require_going_on("play")
        if self.dice is None:
            raise GameStateError("cannot play: no dice rolled")
        legal = legal_plays(self.position, self.dice)
        reached = legal.find(play)
        if reached is None:
            context = (
                f"{str(play)!r} with dice {self.dice.first}-{self.dice.second} "
                f"in position {self.position.to_position_id()}"
            )
            try:
                attempted = self.position.apply(play)
            except IllegalPlayError as error:
                raise IllegalPlayError(f"{context} cannot be made: {error}") from None
            reason = explain_illegal(self.position, self.dice, attempted).text
            raise IllegalPlayError(f"{context} is not legal: {reason}")
        if game_result(reached) is not None:
            return replace(self, position=reached, dice=None, turns=self.turns + 1)
        return Game(reached.swap(), None, None, self.turns + 1)

    def offer_resignation(self, player: int, kind: int) -> Game:
        """``player`` offers to resign a single (1), gammon (2) or backgammon (3)."""
        self._require_going_on("resign")
        return replace(self, resignation=Resignation(player, kind))

    def refuse_resignation(self) -> Game:
        """The opponent refuses: the game goes on as before."""
        if self.resignation is None:
            raise GameStateError("there is no resignation to refuse")
        return replace(self, resignation=None)

    def accept_resignation(self) -> GameResult:
        """The opponent accepts: the game ends with the resigned kind."""
        if self.resignation is None:
            raise GameStateError("there is no resignation to accept")
        return GameResult(1 - self.resignation.player, self.resignation.kind)
