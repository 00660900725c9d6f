"""Match bookkeeping: from our match context (scores, cube, rules) to an engine's inputs.

The record keeps the match from a neutral point of view: the match length, the score of player 0
(White) and player 1 (Black), whether this game is the Crawford game, the cube's value and which
player owns it. An engine wants the same facts from the point of view of the player on roll: how
many points *I* still need and how many my opponent needs ("away" scores), whether the cube is in
the middle, mine or my opponent's, and in money play whether the Jacoby rule and beavers apply.

>>> context = MatchContext(length=7, score=(4, 2), cube_value=2, cube_owner=1)
>>> context.for_player(1)
MoverView(away_self=5, away_opponent=3, is_crawford=False, cube_value=2, cube_owner='player', jacoby=False, beaver=False)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from controller.analysis.errors import AnalysisInputError
from controller.rules.match import MatchState

#: The cube's place seen from the player on roll, as engines name it.
OwnerView = Literal["centered", "player", "opponent"]


def _is_power_of_two(value: int) -> bool:
    return value >= 1 and value & (value - 1) == 0


@dataclass(frozen=True, slots=True)
class MoverView:
    """The match around a decision from the point of view of the player on roll.

    ``away_self``/``away_opponent`` are the points each side still needs (both 0 in money play).
    ``jacoby`` and ``beaver`` are only ever true in money play.
    """

    away_self: int
    away_opponent: int
    is_crawford: bool
    cube_value: int
    cube_owner: OwnerView
    jacoby: bool
    beaver: bool

    @property
    def is_money(self) -> bool:
        return self.away_self == 0 and self.away_opponent == 0

    @property
    def is_post_crawford(self) -> bool:
        """A later game of a match in which one side is 1-away (the Crawford game is over)."""
        return (
            not self.is_money and not self.is_crawford and 1 in (self.away_self, self.away_opponent)
        )

    @property
    def is_cube_dead(self) -> bool:
        """Match play: the cube already wins me the match with a single game, so doubling is pointless."""
        return not self.is_money and self.cube_value >= self.away_self

    @property
    def may_double(self) -> bool:
        """Whether the player on roll has a cube decision at all (access, no Crawford, live cube)."""
        return self.cube_owner != "opponent" and not self.is_crawford and not self.is_cube_dead

    def flipped(self) -> MoverView:
        """The same match from the opponent's side."""
        owner: OwnerView = {"centered": "centered", "player": "opponent", "opponent": "player"}[
            self.cube_owner
        ]  # type: ignore[assignment]
        return MoverView(
            away_self=self.away_opponent,
            away_opponent=self.away_self,
            is_crawford=self.is_crawford,
            cube_value=self.cube_value,
            cube_owner=owner,
            jacoby=self.jacoby,
            beaver=self.beaver,
        )


@dataclass(frozen=True, slots=True)
class MatchContext:
    """The match around one decision, from nobody's side (player 0 = White, 1 = Black).

    ``length`` 0 means money play, where ``score`` is ignored and ``jacoby``/``beavers`` apply.
    ``crawford_game`` is true only in the one game right after a player first reaches
    ``length - 1``. ``cube_owner`` is the player who owns the cube, ``None`` while it is centred.

    Raises :class:`AnalysisInputError` for a context that cannot happen (a score at or past the
    length, a cube that is not a power of two, a turned cube in the middle, a Crawford game when
    nobody is 1-away, Jacoby or beavers in match play).
    """

    length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford_game: bool = False
    cube_value: int = 1
    cube_owner: int | None = None
    jacoby: bool = False
    beavers: bool = False

    def __post_init__(self) -> None:
        if self.length < 0:
            raise AnalysisInputError(f"match length {self.length} is negative")
        if len(self.score) != 2 or min(self.score) < 0:
            raise AnalysisInputError(f"score {self.score!r} is not two non-negative numbers")
        if not _is_power_of_two(self.cube_value):
            raise AnalysisInputError(f"cube value {self.cube_value} is not a power of two")
        if self.cube_owner not in (None, 0, 1):
            raise AnalysisInputError(f"cube owner {self.cube_owner!r} is not None, 0 or 1")
        if self.cube_value == 1 and self.cube_owner is not None:
            raise AnalysisInputError(f"a cube on 1 has no owner, got player {self.cube_owner}")
        if self.cube_value > 1 and self.cube_owner is None:
            raise AnalysisInputError(f"a cube on {self.cube_value} must have an owner")
        if self.length == 0:
            if self.crawford_game:
                raise AnalysisInputError("money play has no Crawford game")
            return
        if max(self.score) >= self.length:
            raise AnalysisInputError(
                f"score {self.score[0]}-{self.score[1]} is already over a {self.length}-point match"
            )
        if self.jacoby or self.beavers:
            raise AnalysisInputError("the Jacoby rule and beavers belong to money play only")
        if self.crawford_game and (self.length == 1 or self.length - 1 not in self.score):
            raise AnalysisInputError(
                f"score {self.score[0]}-{self.score[1]} in a {self.length}-point match"
                " cannot be a Crawford game: that is the game after a player first reaches"
                f" {self.length - 1} points, in matches longer than 1 point"
            )
        if self.crawford_game and self.cube_value != 1:
            raise AnalysisInputError("nobody may double in the Crawford game")

    @property
    def is_money(self) -> bool:
        return self.length == 0

    def away(self, player: int) -> int:
        """Points ``player`` still needs to win the match (0 in money play)."""
        _check_player(player)
        return 0 if self.is_money else self.length - self.score[player]

    def for_player(self, player: int) -> MoverView:
        """The engine's inputs for a decision by ``player`` (the one on roll, or the one doubled)."""
        _check_player(player)
        owner: OwnerView
        if self.cube_owner is None:
            owner = "centered"
        elif self.cube_owner == player:
            owner = "player"
        else:
            owner = "opponent"
        return MoverView(
            away_self=self.away(player),
            away_opponent=self.away(1 - player),
            is_crawford=self.crawford_game,
            cube_value=self.cube_value,
            cube_owner=owner,
            jacoby=self.is_money and self.jacoby,
            beaver=self.is_money and self.beavers,
        )

    def to_match_id(self, player: int, dice: tuple[int, int] | None = None) -> str:
        """GNU Backgammon's Match ID with ``player`` on roll, before the roll or with ``dice``.

        >>> MatchContext(7).to_match_id(0)
        'MAHgAAAAAAAE'
        """
        _check_player(player)
        # Not RefereeState.match_state (controller/referee/fold.py): only the Match ID's fields, at
        # a decision with no double awaiting an answer; the fields the judge alone reads keep defaults.
        state = MatchState(
            length=self.length,
            score=self.score,
            is_crawford_game=self.crawford_game,
            cube_value=self.cube_value,
            cube_owner=self.cube_owner,
            jacoby=self.jacoby,
        )
        return state.to_match_info(player, dice or (0, 0)).to_match_id()

    def after_take(self, taker: int) -> MatchContext:
        """The context once ``taker`` has accepted a double: cube doubled, on the taker's side."""
        _check_player(taker)
        return MatchContext(
            self.length,
            self.score,
            self.crawford_game,
            self.cube_value * 2,
            taker,
            self.jacoby,
            self.beavers,
        )


def _check_player(player: int) -> None:
    if player not in (0, 1):
        raise AnalysisInputError(f"player {player!r} is not 0 (White) or 1 (Black)")


def crawford_flags(length: int, scores: Iterable[Sequence[int]]) -> list[bool]:
    """For each game's starting score, in order, whether that game is the Crawford game.

    The Crawford game is the first game that starts with a player at ``length - 1`` points; only
    one game per match can be it. Money play (``length`` 0) has none.

    >>> crawford_flags(5, [(0, 0), (4, 2), (4, 3), (4, 4)])
    [False, True, False, False]
    """
    flags: list[bool] = []
    seen = False
    for score in scores:
        if length == 0:
            flags.append(False)
            continue
        # In a 1-point match both start at "match point": there is no Crawford game there.
        at_match_point = length > 1 and length - 1 in tuple(score)
        flags.append(at_match_point and not seen)
        seen = seen or at_match_point
    return flags
