"""Match and cube: who may double, take, pass or beaver, how a game scores, Crawford, money sessions.

Every cube action is judged by a function returning a :class:`Verdict` (allowed, and the reason in
words); the matching transition function applies an allowed action and raises
:class:`CubeActionError` with that reason otherwise. States are immutable: each action returns a new
:class:`MatchState`. Players are 0 (White) and 1 (Black).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Final

from controller.rules.errors import CubeActionError, GameStateError
from controller.rules.ids import MatchInfo
from controller.rules.position import PLAYER_NAMES

KIND_NAMES: Final = {1: "single", 2: "gammon", 3: "backgammon"}


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether an action is allowed, why not, and any warning for an allowed action.

    >>> Verdict(False, "the Crawford game: no doubling")
    Verdict(allowed=False, reason='the Crawford game: no doubling', warning='')
    """

    allowed: bool
    reason: str = ""
    warning: str = ""

    def __bool__(self) -> bool:
        return self.allowed


def _name(player: int) -> str:
    return PLAYER_NAMES[player]


def _check_player(player: int) -> None:
    if player not in (0, 1) or isinstance(player, bool):
        raise GameStateError(f"player must be 0 (White) or 1 (Black), got {player!r}")


@dataclass(frozen=True, slots=True)
class MatchState:
    """Score and cube of a match (``length`` > 0) or a money session (``length`` 0).

    ``cube_owner`` None means centred. ``offered_by`` is the player whose double awaits an answer.
    ``crawford_done`` records that the Crawford game has been played, so later games are
    post-Crawford. ``jacoby`` and ``beavers`` apply to money play only.

    >>> state = MatchState.new_match(5)
    >>> judge_double(state, 0, player_on_roll=0).allowed
    True
    >>> state = finish_game(state, winner=0, points=4)
    >>> state.is_crawford_game, judge_double(state, 1, player_on_roll=1).reason
    (True, 'the Crawford game: no doubling')
    """

    length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford: bool = True
    is_crawford_game: bool = False
    crawford_done: bool = False
    cube_value: int = 1
    cube_owner: int | None = None
    offered_by: int | None = None
    jacoby: bool = True
    beavers: bool = False
    game_number: int = 1
    game_over: bool = False
    history: tuple[tuple[int, int], ...] = field(default=(), compare=True)

    def __post_init__(self) -> None:
        if self.length < 0:
            raise GameStateError(f"match length must be 0 (money) or more, got {self.length}")
        if len(self.score) != 2 or min(self.score) < 0:
            raise GameStateError(f"score must be two numbers of at least 0, got {self.score!r}")
        value = self.cube_value
        if value < 1 or value & (value - 1):
            raise GameStateError(f"cube value must be a power of two, got {value!r}")
        if self.cube_owner not in (None, 0, 1) or self.offered_by not in (None, 0, 1):
            raise GameStateError(
                f"cube owner and offering player must be None, 0 or 1: {self.cube_owner!r}, {self.offered_by!r}"
            )

    @classmethod
    def new_match(cls, length: int, *, crawford: bool = True) -> MatchState:
        """A match to ``length`` points: Crawford on by default, no Jacoby, no beavers."""
        if length < 1:
            raise GameStateError(f"a match is played to 1 point or more, got {length!r}")
        return cls(length=length, crawford=crawford, jacoby=False, beavers=False)

    @classmethod
    def new_money(cls, *, jacoby: bool = True, beavers: bool = False) -> MatchState:
        """A money session: Jacoby on by default, beavers off by default."""
        return cls(length=0, crawford=False, jacoby=jacoby, beavers=beavers)

    @property
    def is_money(self) -> bool:
        return self.length == 0

    @property
    def is_post_crawford(self) -> bool:
        """True in match games after the Crawford game."""
        return self.length > 0 and self.crawford_done and not self.is_crawford_game

    def points_needed(self, player: int) -> int | None:
        """Points ``player`` still needs to win the match; None in money play."""
        _check_player(player)
        if self.is_money:
            return None
        return max(self.length - self.score[player], 0)

    @property
    def winner(self) -> int | None:
        """The match winner, once a player has reached the match length."""
        return match_winner(self)

    def to_match_info(
        self,
        player_on_roll: int,
        dice: tuple[int, int] = (0, 0),
        *,
        resigned: int = 0,
        resigner: int | None = None,
    ) -> MatchInfo:
        """The Match ID fields for this state with ``player_on_roll`` to play ``dice``.

        This is the one place the project turns a match state into Match ID fields; GNU
        Backgammon's ``turn`` is the player who must act now. A pending double makes that the
        doubled player. A pending resignation (``resigned`` 1..3: single, gammon, backgammon)
        makes it the resigner's opponent, who accepts or rejects; the double stays marked as
        offered. ``resigner`` defaults to the player who was to act, as gnubg's ``resign`` command
        does (the player on roll, or the doubled player while a double awaits an answer).

        >>> MatchState.new_match(7).to_match_info(0).to_match_id()
        'MAHgAAAAAAAE'
        >>> MatchState.new_match(7).to_match_info(0, resigned=1).to_match_id()
        'MCngAAAAAAAE'

        Raises :class:`GameStateError` for a player other than 0 or 1.
        """
        _check_player(player_on_roll)
        turn = player_on_roll if self.offered_by is None else 1 - self.offered_by
        if resigned:
            if resigner is None:
                resigner = turn
            _check_player(resigner)
            turn = 1 - resigner
        return MatchInfo(
            cube_value=self.cube_value,
            cube_owner=self.cube_owner,
            player_on_roll=player_on_roll,
            crawford=self.is_crawford_game,
            game_state=1,
            turn=turn,
            doubled=self.offered_by is not None,
            resigned=resigned,
            dice=dice,
            match_length=self.length,
            score=self.score,
            jacoby=self.is_money and self.jacoby,
        )


def match_winner(state: MatchState) -> int | None:
    """The player who has reached the match length, or None (always None in money play)."""
    if state.is_money:
        return None
    for player in (0, 1):
        if state.score[player] >= state.length:
            return player
    return None


# judging --------------------------------------------------------------------------------------


def _common_refusal(state: MatchState) -> str | None:
    if match_winner(state) is not None:
        return "the match is over"
    if state.game_over:
        return "the game is over"
    return None


def judge_double(
    state: MatchState, player: int, *, player_on_roll: int, has_rolled: bool = False
) -> Verdict:
    """May ``player`` double (or redouble) now? Only on their own turn, before rolling.

    >>> print(judge_double(MatchState.new_money(), 1, player_on_roll=0).reason)
    only the player on roll may double, before rolling: it is White's turn
    """
    _check_player(player)
    refusal = _common_refusal(state)
    if refusal:
        return Verdict(False, refusal)
    if state.offered_by is not None:
        return Verdict(False, f"{_name(state.offered_by)}'s double awaits an answer")
    if state.is_crawford_game:
        return Verdict(False, "the Crawford game: no doubling")
    if player != player_on_roll:
        return Verdict(
            False,
            f"only the player on roll may double, before rolling: it is {_name(player_on_roll)}'s turn",
        )
    if has_rolled:
        return Verdict(False, "doubling after rolling is not allowed")
    if state.cube_owner is not None and state.cube_owner != player:
        return Verdict(False, f"{_name(state.cube_owner)} owns the cube")
    return Verdict(True, "", dead_cube_warning(state, player) or "")


def judge_redouble(
    state: MatchState, player: int, *, player_on_roll: int, has_rolled: bool = False
) -> Verdict:
    """A redouble is a double by the cube's owner; a centred cube cannot be redoubled."""
    if state.cube_owner is None and state.offered_by is None and not state.game_over:
        return Verdict(False, "the cube is in the middle: that is a first double, not a redouble")
    return judge_double(state, player, player_on_roll=player_on_roll, has_rolled=has_rolled)


def _judge_answer(state: MatchState, player: int, action: str) -> Verdict:
    _check_player(player)
    refusal = _common_refusal(state)
    if refusal:
        return Verdict(False, refusal)
    if state.offered_by is None:
        return Verdict(False, f"there is no double to {action}")
    if state.offered_by == player:
        return Verdict(False, f"{_name(player)} offered the double and cannot {action} it")
    return Verdict(True)


def judge_take(state: MatchState, player: int) -> Verdict:
    """May ``player`` take? Only the doubled player, while a double is offered."""
    return _judge_answer(state, player, "take")


def judge_pass(state: MatchState, player: int) -> Verdict:
    """May ``player`` pass (drop)? Only the doubled player, while a double is offered."""
    return _judge_answer(state, player, "pass")


def judge_beaver(state: MatchState, player: int) -> Verdict:
    """May ``player`` beaver (take and redouble at once, keeping the cube)? Money play, by agreement."""
    verdict = _judge_answer(state, player, "beaver")
    if not verdict:
        return verdict
    if not state.is_money:
        return Verdict(False, "beavers are for money play only")
    if not state.beavers:
        return Verdict(False, "beavers are not agreed in this session")
    return Verdict(True)


def dead_cube_warning(state: MatchState, player: int) -> str | None:
    """A warning when doubling gains ``player`` nothing in match play (the cube is dead for them).

    The cube is dead for a player once its value already wins them the match: doubling is pointless
    but legal, so the referee warns and does not forbid (GNU Backgammon refuses such a double).

    >>> dead_cube_warning(MatchState(length=5, score=(3, 1), cube_value=2, cube_owner=0, jacoby=False), 0)
    'dead cube: the 2-cube already gives White the 2 points needed'
    """
    if state.is_money:
        return None
    needed = state.points_needed(player)
    assert needed is not None
    if state.cube_value >= needed:
        points = "point" if needed == 1 else "points"
        return (
            f"dead cube: the {state.cube_value}-cube already gives {_name(player)} "
            f"the {needed} {points} needed"
        )
    return None


# transitions ----------------------------------------------------------------------------------


def _require(verdict: Verdict, action: str, player: int) -> None:
    if not verdict.allowed:
        raise CubeActionError(f"{_name(player)} may not {action}: {verdict.reason}")


def offer_double(
    state: MatchState, player: int, *, player_on_roll: int, has_rolled: bool = False
) -> MatchState:
    """``player`` turns the cube. Raises :class:`CubeActionError` with the reason when not allowed."""
    _require(
        judge_double(state, player, player_on_roll=player_on_roll, has_rolled=has_rolled),
        "double",
        player,
    )
    return replace(state, offered_by=player)


def take(state: MatchState, player: int) -> MatchState:
    """``player`` takes: the stake doubles and the taker owns the cube."""
    _require(judge_take(state, player), "take", player)
    return replace(state, cube_value=state.cube_value * 2, cube_owner=player, offered_by=None)


def beaver(state: MatchState, player: int) -> MatchState:
    """``player`` beavers: takes and redoubles at once, keeping the cube (value times four)."""
    _require(judge_beaver(state, player), "beaver", player)
    return replace(state, cube_value=state.cube_value * 4, cube_owner=player, offered_by=None)


def pass_double(state: MatchState, player: int) -> tuple[MatchState, int, int]:
    """``player`` passes: the doubler wins the stake before the double. Returns (state, winner, points)."""
    _require(judge_pass(state, player), "pass", player)
    winner = 1 - player
    points = state.cube_value
    return finish_game(replace(state, offered_by=None), winner, points), winner, points


def game_points(state: MatchState, kind: int) -> int:
    """Points for a game won as single (1), gammon (2) or backgammon (3), times the cube.

    Under Jacoby (money play) gammons and backgammons count single unless the cube was turned.

    >>> game_points(MatchState.new_money(), 2), game_points(MatchState.new_money(jacoby=False), 3)
    (1, 3)
    """
    if kind not in KIND_NAMES:
        raise GameStateError(
            f"a game is won as 1 (single), 2 (gammon) or 3 (backgammon), got {kind!r}"
        )
    if state.is_money and state.jacoby and state.cube_value == 1:
        kind = 1
    return kind * state.cube_value


def finish_game(state: MatchState, winner: int, points: int) -> MatchState:
    """Score a finished game and set up the next: cube centred, Crawford and post-Crawford.

    Raises :class:`GameStateError` once the match is over.
    """
    _check_player(winner)
    if match_winner(state) is not None:
        raise GameStateError(f"the match is already over ({state.score[0]}-{state.score[1]})")
    if points < 1:
        raise GameStateError(f"a game is worth at least 1 point, got {points!r}")
    score = list(state.score)
    score[winner] += points
    crawford_done = state.crawford_done or state.is_crawford_game
    next_is_crawford = False
    if state.length and state.crawford and not crawford_done:
        leader_at_match_point = max(score) == state.length - 1 and min(score) < state.length - 1
        if leader_at_match_point and max(score) < state.length:
            next_is_crawford = True
    finished = replace(
        state,
        score=(score[0], score[1]),
        is_crawford_game=next_is_crawford,
        crawford_done=crawford_done or next_is_crawford,
        cube_value=1,
        cube_owner=None,
        offered_by=None,
        game_number=state.game_number + 1,
        game_over=False,
        history=(*state.history, (winner, points)),
    )
    return finished


def game_kind_name(kind: int) -> str:
    """``single``, ``gammon`` or ``backgammon``."""
    return KIND_NAMES[kind]


# money sessions -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MoneySession:
    """A running total of money games, from White's point of view and per player.

    >>> session = MoneySession().record(0, 2).record(1, 4)
    >>> session.totals, session.balance
    ((2, 4), -2)
    """

    totals: tuple[int, int] = (0, 0)
    games: int = 0

    def record(self, winner: int, points: int) -> MoneySession:
        """Add a game won by ``winner`` for ``points``."""
        _check_player(winner)
        if points < 1:
            raise GameStateError(f"a game is worth at least 1 point, got {points!r}")
        totals = list(self.totals)
        totals[winner] += points
        return MoneySession((totals[0], totals[1]), self.games + 1)

    @property
    def balance(self) -> int:
        """White's net result: positive when White is ahead."""
        return self.totals[0] - self.totals[1]
