"""The fold: what the log has recorded so far, and how one more event changes it.

:func:`fold` is the only way the referee's recorded state changes, live (after each event it
records) and when it is rebuilt from the log (:meth:`Referee.from_events`). It is a pure function
of the state and the event: it reads no clock (the clock it keeps is folded from the events'
recorded times) and records nothing, so folding a log gives exactly the state living it gave.

What the referee has only *seen* (the last board, the message on the panel, the lights) is not
here: it shapes lights and messages, never a recorded decision.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Final

from controller.events import Event
from controller.referee.clock import ClockState, flag, pause, resume, start_clock, switch
from controller.referee.errors import ReplayError
from controller.referee.judge import MatchState, match_id_of, resignation_points
from controller.referee.reading import Board
from controller.referee.state import GameState, PendingIllegal
from controller.referee.turn import board_of
from controller.referee.variants import BACKGAMMON, RefereeVariant, variant_rules
from controller.rules.position import Position
from sheshbesh.events import (
    BoardMismatch,
    BoardRestored,
    ClockFlag,
    ClockPaused,
    ClockResumed,
    CubeBeavered,
    CubeOffered,
    CubePassed,
    CubeRefused,
    CubeTaken,
    DiceRolled,
    GameStarted,
    GameWon,
    IllegalPlay,
    MatchStarted,
    MatchWon,
    Play,
    ResignAccepted,
    ResignOffered,
    ResignRefused,
    RollOff,
)
from sheshbesh.events import Undo as Undone
from sheshbesh.match import MatchSettings, Phase, Player, Policy, Variant
from sheshbesh.snapshot import CubeMove, LastPlay, PlayMove

#: Phases in which nobody's clock runs (besides a match already won).
_CLOCK_STOPPED: Final[frozenset[Phase]] = frozenset(
    {"idle", "roll_off", "won", "game_over", "match_over"}
)


@dataclass(frozen=True, slots=True)
class ScoredGame:
    """A game of the match that is over: who won it, how many points and how, the score after."""

    game: int
    winner: Player
    points: int
    kind: str
    score: tuple[int, int]


@dataclass(frozen=True, slots=True)
class RefereeState:
    """Everything the log has recorded about the match, as one immutable value.

    ``checkpoints`` is the game's state after each of this game's events (by sequence number),
    what a take-back returns to; ``timer`` the match clock (None: the match has none).
    """

    settings: MatchSettings | None = None
    match_id: str | None = None
    score: tuple[int, int] = (0, 0)
    games: tuple[ScoredGame, ...] = ()
    crawford_done: bool = False
    winner: int | None = None
    game: GameState = field(default_factory=GameState)
    checkpoints: tuple[tuple[int, GameState], ...] = ()
    timer: ClockState | None = None
    #: The rules of the match's variant, chosen once, from the settings of ``match_started``.
    rules: RefereeVariant = BACKGAMMON

    @property
    def variant(self) -> Variant:
        return self.settings.variant if self.settings else "backgammon"

    @property
    def policy(self) -> Policy:
        return self.settings.policy if self.settings else "tournament"

    @property
    def hints(self) -> bool:
        return self.settings.hints if self.settings else True

    def match_state(self) -> MatchState:
        """The rules engine's view of the match in this state."""
        # Not shared with MatchContext.to_match_id (controller/analysis/context.py): the judge also
        # reads what a Match ID does not (the Crawford rule and whether it is done, game over,
        # beavers), and this Match ID is this moment's, marking a double that awaits an answer.
        settings = self.settings or MatchSettings()
        game = self.game
        return MatchState(
            length=settings.length,
            score=self.score,
            crawford=settings.crawford,
            is_crawford_game=game.crawford_game,
            crawford_done=self.crawford_done,
            cube_value=game.cube,
            cube_owner=game.cube_owner,
            offered_by=game.offered_by,
            jacoby=settings.uses_jacoby,
            beavers=settings.beavers,
            game_number=max(game.number, 1),
            game_over=game.phase in ("won", "game_over", "match_over"),
        )

    def gnubg_match_id(self) -> str:
        """GNU Backgammon's Match ID for this moment (the player to act's view)."""
        game = self.game
        if game.resign is None:
            return match_id_of(self.match_state(), game.turn, game.dice)
        resigner, level = game.resign
        return match_id_of(self.match_state(), game.turn, game.dice, level, resigner)

    def clock_actor(self) -> int | None:
        """Whose time runs in this state (None: nobody's)."""
        game = self.game
        if self.winner is not None or game.phase in _CLOCK_STOPPED:
            return None
        if game.phase == "cube_offered" and game.offered_by is not None:
            return 1 - game.offered_by
        if game.phase == "resign_offered" and game.resign is not None:
            return 1 - game.resign[0]
        return game.turn


def fold(state: RefereeState, event: Event) -> RefereeState:
    """The state after ``event``; the only place the recorded state changes.

    Raises :class:`ReplayError` (or ``ValueError``, ``KeyError``... for data that does not fit)
    when the event cannot follow ``state``.
    """
    game = state.game
    payload = event.payload
    match payload:
        case MatchStarted():
            state = _match_started(payload, event.time)
        case GameStarted():
            state = _game_started(state, payload)
        case RollOff():
            state = replace(state, game=_roll_off(state, game, payload))
        case DiceRolled():
            moving = replace(game, phase="moving", dice=payload.dice, refused=None, stale_dice=None)
            state = replace(state, game=moving)
        case Play():
            state = replace(state, game=_play(state, game, payload))
        case IllegalPlay():
            state = replace(state, game=_illegal(state, game, payload))
        case BoardMismatch():
            state = replace(state, game=replace(game, mismatch=payload.reason))
        case BoardRestored():
            state = replace(state, game=_restored(game, payload))
        case CubeOffered() | CubeTaken() | CubeBeavered() | CubePassed():
            state = replace(state, game=_cube(game, payload))
        case CubeRefused():
            refused = replace(game, refused=(payload.player, payload.action or ""))
            state = replace(state, game=refused)
        case ResignOffered():
            offered = replace(
                game,
                phase="resign_offered",
                resign=(payload.player, payload.points),
                before_resign=game.phase,
            )
            state = replace(state, game=offered)
        case ResignAccepted():
            state = replace(state, game=_resign_accepted(state, game))
        case ResignRefused():
            state = replace(state, game=replace(game, phase=game.before_resign, resign=None))
        case Undone():
            state = _undo(state, payload.to_sequence)
        case GameWon():
            state = _game_won(state, game, payload)
        case MatchWon():
            state = replace(
                state, winner=payload.winner, game=replace(state.game, phase="match_over")
            )
    state = replace(state, checkpoints=(*state.checkpoints, (event.sequence, state.game)))
    if state.timer is not None:
        state = replace(state, timer=_clock_after(state, state.timer, event))
    return state


def _match_started(started: MatchStarted, time: float) -> RefereeState:
    if started.match_id is None:
        raise ValueError("match_started: id is missing")
    settings = started.settings
    clock = settings.clock
    timer = None if clock is None else start_clock(clock, settings.length, time)
    return RefereeState(
        settings=settings,
        match_id=started.match_id,
        timer=timer,
        rules=variant_rules(settings.variant),
    )


def _game_started(state: RefereeState, started: GameStarted) -> RefereeState:
    crawford = started.is_crawford
    score = state.score if started.score is None else (started.score[0], started.score[1])
    return replace(
        state,
        crawford_done=state.crawford_done or crawford,
        score=score,
        game=GameState(number=started.game, phase="roll_off", crawford_game=crawford),
        checkpoints=(),
    )


def _roll_off(state: RefereeState, game: GameState, roll_off: RollOff) -> GameState:
    dice, first = roll_off.dice, roll_off.first
    if first is None:
        return replace(game, stale_dice=dice)
    return state.rules.after_roll_off(game, first, dice)


def _illegal(state: RefereeState, game: GameState, illegal: IllegalPlay) -> GameState:
    if illegal.result_id is not None:
        board = board_of(Position.from_position_id(illegal.result_id, illegal.player))
    elif illegal.counts is not None:
        board = Board.from_counts(illegal.counts)
    else:
        raise ValueError("illegal_play: neither result_id nor counts")
    pending = PendingIllegal(
        illegal.player, illegal.dice, board, illegal.reason, illegal.locations or ()
    )
    teaching = state.policy == "teaching" and state.rules.follows_policy
    return replace(
        game,
        phase="illegal",
        illegal=pending,
        restore_to=board_of(game.position) if teaching else None,
        stale_dice=pending.dice if illegal.dice_left else game.stale_dice,
    )


def _resign_accepted(state: RefereeState, game: GameState) -> GameState:
    if game.resign is None:
        raise ValueError("a resignation was accepted that was never offered")
    resigner, level = game.resign
    points = resignation_points(resigner, level, state.match_state())
    return replace(game, phase="won", won=(1 - resigner, points, "resign"))


def _undo(state: RefereeState, target: int) -> RefereeState:
    for sequence, game in state.checkpoints:
        if sequence == target:
            return replace(
                state,
                game=replace(game, restore_to=board_of(game.position), mismatch=None),
                checkpoints=tuple(c for c in state.checkpoints if c[0] <= target),
            )
    raise ReplayError(f"undo to event {target}, which is not in the current game")


def _game_won(state: RefereeState, game: GameState, won: GameWon) -> RefereeState:
    if won.score is None:
        raise ValueError("game_won: score is missing")
    score = (won.score[0], won.score[1])
    scored = ScoredGame(won.game, won.winner, won.points, won.how, score)
    return replace(
        state,
        score=score,
        games=(*state.games, scored),
        game=replace(game, phase="game_over", won=None),
    )


def _play(state: RefereeState, game: GameState, play: Play) -> GameState:
    player, dice = play.player, play.dice
    moved = state.rules.after_play(game, play)
    entry: PlayMove = {
        "game": game.number,
        "player": player,
        "dice": list(dice),
        "play": play.play,
    }
    last: LastPlay = {
        "player": player,
        "dice": list(dice),
        "play": play.play,
        "from": list(play.moved_from or ()),
        "to": list(play.moved_to or ()),
    }
    return replace(
        moved,
        phase="rolling",
        dice=None,
        illegal=None,
        restore_to=None,
        refused=None,
        stale_dice=dice if play.dice_left else None,
        moves=(*game.moves, entry),
        last_play=last,
    )


def _restored(game: GameState, restored: BoardRestored) -> GameState:
    """The board is as it should be again: what that puts right depends on what was wrong."""
    if game.restore_to is not None and game.phase == "illegal":
        return replace(game, mismatch=None, restore_to=None, phase="moving", illegal=None)
    if game.restore_to is not None:
        return replace(game, mismatch=None, restore_to=None)
    if game.phase == "illegal" and restored.position_id == game.position.to_position_id():
        return replace(game, mismatch=None, phase="moving", illegal=None)
    return replace(game, mismatch=None)


def _cube(game: GameState, cube: CubeOffered | CubeTaken | CubeBeavered | CubePassed) -> GameState:
    """A cube action, and its line in the game's moves."""
    if isinstance(cube, CubeOffered):
        game = replace(
            game,
            phase="cube_offered",
            offered_by=cube.player,
            offered_cube=cube.cube,
            refused=None,
        )
    elif isinstance(cube, CubePassed):
        doubler = 1 - cube.player
        game = replace(game, phase="won", won=(doubler, cube.cube, "pass"), offered_by=None)
    else:
        game = replace(
            game,
            phase="rolling",
            cube=cube.cube,
            cube_owner=cube.player,
            offered_by=None,
            offered_cube=0,
        )
    action: CubeMove = {
        "game": game.number,
        "player": cube.player,
        "action": cube.action,
        "cube": cube.cube,
    }
    return replace(game, moves=(*game.moves, action))


def _clock_after(state: RefereeState, timer: ClockState, event: Event) -> ClockState:
    """The clock after ``event`` (already folded into ``state``): whose time runs now."""
    payload, when = event.payload, event.time
    if isinstance(payload, ClockPaused):
        timer = pause(timer, when)
    elif isinstance(payload, ClockResumed):
        timer = resume(timer, when)
    elif isinstance(payload, ClockFlag):
        timer = flag(timer, payload.player, when)
    return switch(timer, state.clock_actor(), when)
