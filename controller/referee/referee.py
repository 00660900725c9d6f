"""The referee: follows a match over a real board and judges every play and cube action.

A pure state machine. :meth:`Referee.handle` takes one input (an observation, a button, a clock tick,
an admin request) and returns the effects a runner carries out: :class:`RecordEvent` effects first
(append to the event log and commit), then lights, the panel's snapshot and sentences for the
players. The referee's state changes only by folding the events it records (:func:`.fold.fold`,
pure), so :meth:`Referee.from_events` on the log rebuilds exactly the same state (crash and
power-cut recovery). The panel's snapshot and the lights are pure views of that state
(:mod:`.views`); where Shesh Besh's rules differ from backgammon's, the referee asks the match's
variant (:mod:`.variants`).

Decisions taken over the board (see also the docstrings of :mod:`.reading` and :mod:`.turn`):

* Opening roll-off: two dice, one each. White sits at the bottom edge of the camera image and rolls
  into the right-hand half, Black (facing White) into the left-hand half, so the die vision places
  in the right half is White's (without halves, the die whose box lies further right). Equal
  numbers are recorded as a tie (``first`` null) and both roll again. The higher die moves first
  and plays both numbers (Shesh Besh: the winner then rolls both dice).
* A roll counts when exactly two dice are seen, both flat, both in the roller's right-hand half
  (when vision can tell the halves); a cocked or misplaced die means roll again.
* The mover's turn ends when the dice are picked up (no dice seen) or ``done`` is pressed; then the
  board must show a legal result. Boards on the way to a legal play only narrow the hints.
* Cube: in the middle it shows 64 (stake 1). An offer is the cube seen in the middle showing twice
  the stake, while the player on roll has not rolled. A take is the cube next seen on the taker's
  side at that value, a beaver (money play with beavers) on the taker's side at twice that value, a
  pass the cube pushed back to the doubler's side. The buttons double/take/pass do the same (and
  are the only way to double to 64, which the eye cannot tell from a cube in the middle).
* Illegal plays: ``teaching`` blocks until the board is put back as it was (the lights guide it);
  ``tournament`` blocks the opponent's roll until the play is put right (to any legal play);
  ``condone`` lets the opponent accept it by rolling or doubling, and the record keeps the play as
  it was made. Shesh Besh has one outcome per roll: an illegal one must always be put right.
* Buttons are shared: ``double``, ``resign`` and ``undo`` act for the player to act (``double`` while
  a double waits is a beaver by the taker), ``take``/``pass`` and ``accept``/``reject`` answer the
  waiting offer (``take`` accepts a resignation, ``pass`` rejects it). A resignation needs a long
  press (``resign-hold``) or the panel; a short ``resign`` press only says so, so that no knock on
  a button ends a game. ``undo`` (short or held) takes back the last play of the game.
* The match clock (only when the match settings carry one, :mod:`.clock`): whose time runs follows
  from the state after each event (the player to act; the one to answer a double or a
  resignation; nobody before the opening roll, between games or after the match), and the clock
  is folded from the events' recorded times. Before each input the referee records a flag that
  has fallen (and, with ``on_flag = "lose"``, the match lost on time); a referee rebuilt from the
  log records ``clock_resumed`` (by ``restart``) first, so an outage costs nobody. ``clock`` is
  ``done`` under another name; ``pause`` pauses or resumes the clock.
"""

from __future__ import annotations

import time as _time
from collections.abc import Callable, Iterable
from dataclasses import replace

from controller.events import Event
from controller.lights.scene import (
    DARK,
    Scene,
)
from controller.referee import views
from controller.referee.clock import (
    ClockState,
    PauseClock,
)
from controller.referee.errors import RefereeInputError, ReplayError
from controller.referee.fold import RefereeState, fold
from controller.referee.judge import (
    Verdict,
    change_notation,
    judge_beaver,
    judge_double,
    judge_pass,
    judge_take,
    next_game_is_crawford,
)
from controller.referee.messages import (
    ButtonPressed,
    Effect,
    Input,
    MatchSettings,
    NewMatch,
    ObservationSeen,
    PanelState,
    RecordEvent,
    Resign,
    Say,
    ShowLights,
    TakeBack,
    Tick,
)
from controller.referee.reading import Board, Mismatch, raw_counts, read_board
from controller.referee.state import GameState
from controller.referee.turn import TurnPlays, board_of
from controller.referee.variants import Counts, Outcome, differing, trays_from_points
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
    EventPayload,
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
    Undo,
)
from sheshbesh.match import CubeAction, Player
from sheshbesh.observation import CubeReading, DieReading, Observation
from sheshbesh.snapshot import Message, MessageKind, PanelSnapshot

COLOURS = ("white", "black")
NAMES = ("White", "Black")
#: Where each player's dice come to rest, seen from White's seat: White rolls right, Black left.
HALVES = ("right", "left")
RESIGN_WORDS = {1: "a single game", 2: "a gammon", 3: "a backgammon"}

Clock = Callable[[], float]


class Referee:
    """Follows one match at a time; ``handle`` inputs, carry out the effects it returns.

    ``clock`` gives the time in seconds (injected so tests never sleep); ``last_sequence`` is the
    highest sequence number already in the log this referee writes to: the referee numbers its
    events from there, so an event can never be recorded twice.

    >>> referee = Referee(clock=lambda: 0.0)
    >>> effects = referee.handle(NewMatch(MatchSettings(("Alice", "Bob"), length=3)))
    >>> [effect.event.type for effect in effects if isinstance(effect, RecordEvent)]
    ['match_started', 'game_started']
    """

    def __init__(self, clock: Clock = _time.time, last_sequence: int = 0) -> None:
        self.clock = clock
        self.last_sequence = last_sequence
        #: What the log has recorded so far; it changes only by :func:`.fold.fold`.
        self.state = RefereeState()
        # What follows is seen, not recorded: it only shapes lights and messages.
        self._effects: list[Effect] = []
        self._says: list[str] = []
        self._message: Message | None = None
        self._lights: Scene = DARK
        self._last_board: Board | None = None
        self._dice_seen_clear = False
        self._seen_dice: tuple[DieReading, ...] = ()
        self._turn_cache: TurnPlays | None = None
        # Set when rebuilt from the log: the time between the last recorded event and the restart
        # (a power cut) is charged to nobody; the next input records when the clock went on.
        self._clock_interrupted = False

    # -- building from the log ----------------------------------------------------------------

    @classmethod
    def from_events(cls, events: Iterable[Event], clock: Clock = _time.time) -> Referee:
        """The referee exactly as it was after ``events`` (one match's log, in order).

        Raises :class:`ReplayError` when the events cannot be folded (a damaged or foreign log).
        """
        referee = cls(clock=clock)
        for event in events:
            try:
                referee._fold(event)
            except (KeyError, TypeError, ValueError, IndexError) as error:
                raise ReplayError(
                    f"cannot resume from event {event.sequence} ({event.type}) {event.data!r}: {error}"
                ) from error
            referee.last_sequence = max(referee.last_sequence, event.sequence)
        referee._refresh_lights()
        referee._clock_interrupted = referee.timer is not None
        return referee

    # -- the one entry point ------------------------------------------------------------------

    def handle(self, item: Input) -> list[Effect]:
        """Take one input; return the effects to carry out, records first.

        Raises :class:`RefereeInputError` for an admin request that makes no sense now.
        """
        self._effects = []
        self._says = []
        changed_before = self.last_sequence
        if self.timer is not None:
            self._keep_time()
        if isinstance(item, ObservationSeen):
            if item.observation.state != "settled":
                return []
            self._on_observation(item.observation)
        elif isinstance(item, ButtonPressed):
            self._on_button(item.name)
        elif isinstance(item, NewMatch):
            self._new_match(item.settings)
        elif isinstance(item, Resign):
            self._offer_resignation(item.player, item.points)
        elif isinstance(item, TakeBack):
            self._undo(item.to)
        elif isinstance(item, PauseClock):
            self._pause_clock(item.paused, item.by, strict=True)
        elif not isinstance(item, Tick):
            raise RefereeInputError(f"the referee does not know what to do with {item!r}")
        self._follow_up()
        if self.last_sequence != changed_before or isinstance(
            item, ObservationSeen | ButtonPressed
        ):
            self._refresh_lights()
        effects = self._effects
        effects.append(ShowLights(self._lights))
        effects.append(PanelState(self.snapshot()))
        effects.extend(Say(text) for text in self._says)
        self._effects = []
        return effects

    # -- recording ----------------------------------------------------------------------------

    def _emit(self, payload: EventPayload) -> Event:
        """Record an event: it goes out as an effect and is folded into the state at once.

        The payload is typed so that what the referee writes is checked where it is written, and
        the record's data is the payload's ``to_dict`` (the same keys and values the readers parse).
        """
        self.last_sequence += 1
        event = Event.of(payload, float(self.clock()), self.last_sequence)
        self._effects.append(RecordEvent(event))
        self._fold(event)
        return event

    def _fold(self, event: Event) -> None:
        """Fold ``event`` into the recorded state (:func:`.fold.fold`), and forget what it outdates."""
        before = self.state.game
        self.state = fold(self.state, event)
        game = self.state.game
        if game.position != before.position or game.dice != before.dice:
            self._turn_cache = None
        if game.stale_dice != before.stale_dice and game.stale_dice is not None:
            self._dice_seen_clear = False

    # -- the recorded state, by its parts (read-only, but for ``game``) ----------------------

    @property
    def settings(self) -> MatchSettings | None:
        return self.state.settings

    @property
    def match_id(self) -> str | None:
        return self.state.match_id

    @property
    def score(self) -> list[int]:
        return list(self.state.score)

    @property
    def crawford_done(self) -> bool:
        return self.state.crawford_done

    @property
    def winner(self) -> int | None:
        return self.state.winner

    @property
    def timer(self) -> ClockState | None:
        """The match clock (None: the match has none), folded from the events like the rest."""
        return self.state.timer

    @property
    def game(self) -> GameState:
        return self.state.game

    @game.setter
    def game(self, game: GameState) -> None:
        """Set the game's state directly: only for a benchmark or a test that stages a position."""
        self.state = replace(self.state, game=game)

    # -- the match clock ------------------------------------------------------------------------

    def _keep_time(self) -> None:
        """Before any input: note a restart, and record a flag that fell since the last input."""
        timer = self.timer
        assert timer is not None
        if self._clock_interrupted:
            self._clock_interrupted = False
            if timer.running is not None and not timer.paused and self.winner is None:
                self._emit(ClockResumed("restart"))
                timer = self.timer
                assert timer is not None
        now = float(self.clock())
        player = timer.flag_due(now)
        if player is None or self.settings is None:
            return
        at = timer.flag_time()
        on_flag = timer.settings.on_flag
        self._emit(ClockFlag(_player(player), on_flag, at if at is not None else now))
        text = f"{self._name(player)} has run out of time"
        length = self.settings.length
        if on_flag == "lose" and length and self.winner is None:
            winner = 1 - player
            self._emit_game_won(winner, max(1, length - self.score[winner]), "time")
            text += f": {self._name(winner)} wins the match on time"
        self._say(text)
        self._message = views.message("info", text)

    def _pause_clock(self, paused: bool, by: str, *, strict: bool) -> None:
        """Pause or resume the clock; ``strict`` (the panel) refuses what makes no sense."""
        timer = self.timer
        problem = None
        if timer is None:
            problem = "this match has no clock"
        elif self.winner is not None:
            problem = "the match is over"
        elif timer.paused == paused:
            problem = f"the clock is already {'paused' if paused else 'running'}"
        if problem is not None:
            if strict:
                raise RefereeInputError(problem)
            self._say(problem[0].upper() + problem[1:])
            return
        self._emit(ClockPaused(by) if paused else ClockResumed(by))
        self._say("Clock paused" if paused else "Clock running")

    def _name(self, player: int) -> str:
        if self.settings is None:
            return NAMES[player]
        return f"{self.settings.players[player]} ({NAMES[player]})"

    # -- admin inputs -------------------------------------------------------------------------

    def _new_match(self, settings: MatchSettings) -> None:
        now = float(self.clock())
        match_id = settings.match_id or (
            _time.strftime("%Y%m%d-%H%M%S", _time.gmtime(now)) + f"-{self.last_sequence + 1}"
        )
        # The settings as the record keeps them (the id filled in, jacoby as it applies, the clock's
        # seconds as floats): the state folded now is then the one a resume reads back.
        recorded = MatchSettings.from_data(settings.to_data(match_id))
        self._emit(MatchStarted(match_id, recorded))
        self._message = None

    def _offer_resignation(self, player: int, points: int) -> None:
        game = self.game
        if game.phase not in ("rolling", "moving", "illegal", "cube_offered"):
            raise RefereeInputError(f"no game in progress to resign (the game is {game.phase})")
        self._emit(ResignOffered(_player(player), points))
        self._say(
            f"{self._name(player)} offers to resign {RESIGN_WORDS[points]}; "
            f"{self._name(1 - player)}: accept or reject"
        )

    def _undo(self, to: int) -> None:
        if not any(sequence == to for sequence, _ in self.state.checkpoints):
            known = [sequence for sequence, _ in self.state.checkpoints]
            raise RefereeInputError(
                f"cannot undo to event {to}: it is not in the current game (events {known[:1]}"
                f"..{known[-1:]})"
            )
        state = dict(self.state.checkpoints)[to]
        if state.phase in ("game_over", "match_over", "won"):
            raise RefereeInputError(f"cannot undo to event {to}: the game was already over there")
        self._emit(Undo(to, state.position.to_position_id()))
        self._say("Take-back: put the board back as the lights show")

    # -- buttons ------------------------------------------------------------------------------

    def _on_button(self, pressed: str) -> None:
        """A button pressed (``-hold``: held long): :data:`_BUTTONS` says what each one does.

        A short ``resign`` press only says how to resign, so that no knock on a button ends a game;
        a button without a use does nothing.
        """
        if pressed == "resign":
            self._message = views.message(
                "info", "Hold resign to resign a single game, or choose on the panel"
            )
            return
        name = pressed.removesuffix("-hold")
        handler = _BUTTONS.get(name)
        if handler is not None:
            handler(self, name)

    def _press_pause(self, name: str) -> None:
        self._pause_clock(not (self.timer and self.timer.paused), "button", strict=False)

    def _press_done(self, name: str) -> None:
        """The mover's turn ends, as when the dice are picked up: judge the board last seen."""
        game = self.game
        if game.phase in ("moving", "illegal") and self._last_board is not None:
            self._judge_board(self._last_board, dice_visible=True, done=True)
        elif game.phase in ("moving", "illegal"):
            self._say("Nothing seen yet: show the board to the camera")

    def _press_double(self, name: str) -> None:
        """A double by the player to act; while a double waits, a beaver by the taker."""
        game = self.game
        if not self.state.rules.uses_cube:
            self._say("Shesh Besh is played without the cube")
        elif game.phase == "cube_offered":
            assert game.offered_by is not None
            self._beaver(1 - game.offered_by)
        elif game.phase == "illegal" and game.illegal is not None:
            self._condone_then(lambda: self._double(1 - game.illegal.player if game.illegal else 0))
        else:
            self._double(game.turn)

    def _press_take_or_pass(self, name: str) -> None:
        """The answer to the waiting double; to a waiting resignation ``take`` accepts it."""
        game = self.game
        if game.phase == "resign_offered":
            self._press_accept_or_reject("accept" if name == "take" else "reject")
        elif game.phase != "cube_offered" or game.offered_by is None:
            self._say(f"There is no double to {name}")
        elif name == "take":
            self._take(1 - game.offered_by)
        else:
            self._pass(1 - game.offered_by)

    def _press_resign_held(self, name: str) -> None:
        game = self.game
        if game.phase in ("rolling", "moving"):
            self._offer_resignation(game.turn, 1)

    def _press_accept_or_reject(self, name: str) -> None:
        game = self.game
        if game.phase != "resign_offered" or game.resign is None:
            self._say(f"There is no resignation to {name}")
        else:
            answer = ResignAccepted if name == "accept" else ResignRefused
            self._emit(answer(_player(1 - game.resign[0])))

    def _press_undo(self, name: str) -> None:
        target = self._last_play_checkpoint()
        if target is None:
            self._say("Nothing to take back in this game")
        else:
            self._undo(target)

    def _last_play_checkpoint(self) -> int | None:
        """The event just before the last play of this game (its dice still on the board)."""
        target: int | None = None
        for (before, earlier), (_, later) in zip(
            self.state.checkpoints, self.state.checkpoints[1:], strict=False
        ):
            if len(later.moves) > len(earlier.moves) and earlier.phase == "moving":
                target = before
        return target

    # -- observations -------------------------------------------------------------------------

    def _on_observation(self, observation: Observation) -> None:
        """A settled observation: the board and dice seen move the game on, or say what is wrong."""
        if self.settings is None or self.game.phase in ("idle", "match_over"):
            return
        flat, cocked = _dice_of(observation)
        self._seen_dice = observation.dice
        if not observation.dice:
            self._dice_seen_clear = True
        if self.state.rules.one_outcome:
            self._on_counts_observation(observation, flat, cocked)
            return
        board = self._board_seen(observation)
        if board is None or not self._is_restored(board):
            return
        if cocked:
            self._tell("info", "A die is cocked: roll again")
            return
        self._on_board(board, observation, flat)

    def _board_seen(self, observation: Observation) -> Board | None:
        """The board ``observation`` shows; None (and a mismatch recorded once) when it shows none."""
        board_or_mismatch = read_board(observation, is_expected=self._is_expected)
        if isinstance(board_or_mismatch, Mismatch):
            self._last_board = None
            if self.game.mismatch != board_or_mismatch.reason:
                self._emit(
                    BoardMismatch(board_or_mismatch.reason, tuple(board_or_mismatch.locations))
                )
            self._message = views.message(
                "mismatch", board_or_mismatch.reason, board_or_mismatch.locations
            )
            return None
        self._last_board = board_or_mismatch
        return board_or_mismatch

    def _is_restored(self, board: Board) -> bool:
        """Whether play goes on from ``board``: not while the board must be put back as it was.

        A board read again ends a mismatch; one put back as it was ends a restoration.
        """
        game = self.game
        if game.mismatch is not None and game.restore_to is None:
            self._emit(BoardRestored(game.position.to_position_id()))
            self._message = None
        game = self.game
        if game.restore_to is None:
            return True
        if board == game.restore_to:
            self._emit(BoardRestored(game.position.to_position_id()))
            self._message = views.message("info", "Board restored")
            return True
        self._message = views.message(
            "illegal",
            "Put the board back as it was: the lights show where",
            board.differs_at(game.restore_to),
        )
        return False

    def _on_board(
        self, board: Board, observation: Observation, flat: tuple[int, int] | None
    ) -> None:
        """A board read while play goes on: the turn in progress first, then the cube, then a roll."""
        if self._is_turn_in_progress(flat):
            # The turn in progress comes first: the dice picked up end it, and only then may the
            # opponent turn the cube or roll.
            self._judge_board(board, dice_visible=bool(observation.dice), done=False)
            if self.game.phase == "moving":
                return
        if observation.cube is not None and self._on_cube(observation.cube):
            return
        phase = self.game.phase
        if phase == "roll_off":
            self._roll_off(board, observation)
        elif phase == "rolling":
            self._rolling(board, flat)
        elif phase == "illegal" and flat is not None and self._is_new_roll(flat):
            self._roll_during_illegal(board, flat)

    def _is_turn_in_progress(self, flat: tuple[int, int] | None) -> bool:
        """The mover is moving, or an illegal play stands and the opponent has not rolled anew."""
        phase = self.game.phase
        return phase == "moving" or (
            phase == "illegal" and (flat is None or not self._is_new_roll(flat))
        )

    # -- a roll with one outcome (Shesh Besh) ---------------------------------------------------

    def _on_counts_observation(
        self, observation: Observation, flat: tuple[int, int] | None, cocked: bool
    ) -> None:
        """A variant with one outcome a roll: the board must show exactly it.

        Standing stacks look like one checker from above, so the camera's counts are compared with
        what the variant says is visible, never checked for fifteen a side; nor can a camera that
        sees only the playing field tell the trays from fifteen a side (``off_inferred``): they
        are counted from the points (:func:`trays_from_points`).
        """
        current = self.state.rules.visible(self.game)
        seen = raw_counts(observation)
        if observation.extra.get("off_inferred"):
            seen = trays_from_points(seen, current)
        if cocked:
            self._tell("info", "A die is cocked: roll again")
            return
        if not self._are_counts_restored(seen, current):
            return
        game = self.game
        if game.phase in ("roll_off", "rolling"):
            self._counts_before_roll(observation, flat, seen, current)
        elif game.phase in ("moving", "illegal") and game.dice is not None:
            self._counts_after_roll(observation, game.dice, seen, current)

    def _are_counts_restored(self, seen: Counts, current: Counts) -> bool:
        """Whether play goes on: not while the board must be put back as ``current`` shows it.

        The counts seen as they should be again end a mismatch or a restoration.
        """
        game = self.game
        if game.restore_to is not None or (game.mismatch is not None and seen == current):
            if seen != current:
                self._message = views.message(
                    "illegal",
                    "Put the board back as it was: the lights show where",
                    differing(seen, current),
                )
                return False
            self._emit(BoardRestored(game.position.to_position_id()))
        return True

    def _counts_before_roll(
        self, observation: Observation, flat: tuple[int, int] | None, seen: Counts, current: Counts
    ) -> None:
        """The opening roll, or a roll on the board as it stands (the checkers must not move)."""
        game = self.game
        if seen != current:
            self._message = views.message(
                "mismatch",
                "Set up the board as the lights show"
                if game.phase == "roll_off"
                else f"{self._name(game.turn)} has not rolled yet: put the checkers back",
                differing(seen, current),
            )
            return
        self._message = None
        if game.phase == "roll_off":
            self._roll_off_dice(observation)
        elif flat is not None and self._is_new_roll(flat) and self._in_own_half(game.turn):
            dice = (max(flat), min(flat))
            self._emit(DiceRolled(_player(game.turn), dice))

    def _counts_after_roll(
        self, observation: Observation, dice: tuple[int, int], seen: Counts, current: Counts
    ) -> None:
        """The roll's one outcome, recorded once the dice are picked up; else what is wrong."""
        game = self.game
        outcome = self.state.rules.outcome(game)
        assert outcome is not None  # a variant with one outcome a roll gives it
        expected = outcome.counts
        finished = not observation.dice
        if seen == expected and finished:
            self._record_outcome(outcome, dice)
        elif seen == current and game.phase == "illegal":
            self._emit(BoardRestored(game.position.to_position_id()))
            self._message = None
        elif seen in (current, expected):
            self._message = None
        elif finished and not self._is_illegal_recorded(seen):
            self._record_illegal_counts(dice, seen)
        elif not finished:
            self._message = views.message(
                "illegal",
                "That is not what the roll does: the lights show the way",
                differing(seen, expected),
            )

    def _is_illegal_recorded(self, seen: Counts) -> bool:
        """The illegal result seen is the one already recorded (the camera repeats itself)."""
        illegal = self.game.illegal
        return illegal is not None and illegal.board == Board.from_counts(seen)

    def _record_illegal_counts(self, dice: tuple[int, int], seen: Counts) -> None:
        """Record the result seen as an illegal play of ``dice``, and say why it is one."""
        game = self.game
        reason, locations = self.state.rules.explain_illegal(game, seen)
        self._emit(
            IllegalPlay(
                _player(game.turn),
                dice,
                reason,
                tuple(locations),
                position_id=game.position.to_position_id(),
                counts=dict(seen),
            )
        )
        self._message = views.message("illegal", reason, locations)
        self._say(reason)

    def _record_outcome(self, outcome: Outcome, dice: tuple[int, int]) -> None:
        self._emit(
            Play(
                _player(outcome.player),
                dice,
                outcome.notation,
                position_id=outcome.position_id,
                match_id=self.state.gnubg_match_id(),
                result_id=outcome.result_id,
                moved_from=tuple(outcome.moved_from),
                moved_to=tuple(outcome.moved_to),
            )
        )
        self._message = None
        if outcome.rolls_again:
            self._say(f"Doubles: {self._name(outcome.player)} rolls again")

    def _is_expected(self, board: Board) -> bool:
        """A board the rules expect now: the position on the board, or a legal result or prefix."""
        game = self.game
        if board == board_of(game.position):
            return True
        if game.phase == "moving" and game.dice is not None:
            return self._turn().is_on_the_way(board)
        return False

    def _turn(self) -> TurnPlays:
        game = self.game
        assert game.dice is not None
        cache = self._turn_cache
        if cache is None or cache.position != game.position or cache.dice != game.dice:
            cache = self._turn_cache = TurnPlays(game.position, game.dice)
        return cache

    def _is_new_roll(self, dice: tuple[int, int]) -> bool:
        stale = self.game.stale_dice
        if stale is None or self._dice_seen_clear:
            return True
        return sorted(stale) != sorted(dice)

    def _roll_off(self, board: Board, observation: Observation) -> None:
        start = board_of(Position.initial())
        if board != start:
            self._message = views.message(
                "info", "Set up the board for a new game", board.differs_at(start)
            )
            return
        self._roll_off_dice(observation)

    def _roll_off_dice(self, observation: Observation) -> None:
        flat, _ = _dice_of(observation)
        if flat is None or not self._is_new_roll(flat):
            self._message = views.message("info", "Opening roll: one die each")
            return
        halves = {die.half for die in observation.dice}
        if halves == {"left", "right"}:
            ordered = sorted(observation.dice, key=lambda die: die.half)  # "left" sorts first
        elif halves == {""}:
            ordered = sorted(observation.dice, key=lambda die: die.box[0] + die.box[2] / 2)
        else:
            self._tell("info", "Opening roll: one die each, each into your own right-hand half")
            return
        black_die, white_die = ordered[0].pips, ordered[1].pips
        first: Player | None = (
            None if white_die == black_die else (0 if white_die > black_die else 1)
        )
        self._emit(RollOff((white_die, black_die), first))
        if first is None:
            self._say(f"Both rolled {white_die}: roll again")
        else:
            self._say(f"{self._name(first)} starts with {max(flat)}-{min(flat)}")
            self._check_dance()

    def _rolling(self, board: Board, flat: tuple[int, int] | None) -> None:
        game = self.game
        if board != board_of(game.position):
            self._message = views.message(
                "mismatch",
                f"{self._name(game.turn)} has not rolled yet: put the checkers back",
                board.differs_at(board_of(game.position)),
            )
            return
        self._message = None
        if flat is None or not self._is_new_roll(flat) or not self._in_own_half(game.turn):
            return
        dice = (max(flat), min(flat))
        self._emit(DiceRolled(_player(game.turn), dice))
        self._check_dance()

    def _in_own_half(self, player: int) -> bool:
        """Both dice rest in the roller's right-hand half (when vision can tell); else roll again."""
        wanted = HALVES[player]
        if all(die.half in ("", wanted) for die in self._seen_dice):
            return True
        self._tell("info", f"{self._name(player)}: roll again, into your own right-hand half")
        return False

    def _check_dance(self) -> None:
        """Tell the mover at once when the roll cannot be played; the turn ends with the dice."""
        game = self.game
        if game.phase == "moving" and game.dice is not None and not self._turn().can_move:
            self._tell("info", f"{self._name(game.turn)} cannot move: pick up the dice")

    def _judge_board(self, board: Board, dice_visible: bool, done: bool) -> None:
        game = self.game
        if game.dice is None:
            return
        turn = self._turn()
        mover = game.turn
        finished = done or not dice_visible
        if game.phase == "illegal" and game.illegal is not None:
            if board == turn.start:
                self._emit(BoardRestored(game.position.to_position_id()))
                self._message = None
                return
            if board == game.illegal.board:
                return
        if not finished:
            hint = turn.hint(board)
            if board == turn.start or hint is not None or board in turn.results:
                self._message = None
            else:
                self._message = views.message(
                    "illegal",
                    f"That is not a way to play {game.dice[0]}-{game.dice[1]}",
                    board.differs_at(turn.start),
                )
            return
        if board == turn.start:
            if not turn.can_move:
                self._record_play(turn.position, turn.position, "", dice_left=dice_visible)
            elif done:
                self._say("No checker has moved")
            return
        if board in turn.results:
            self._record_play(turn.position, turn.results[board], None, dice_left=dice_visible)
            return
        if game.illegal is not None and game.illegal.board == board:
            return
        result = Position.from_players(board.white, board.black, mover)
        explanation, points = self.state.rules.explain_illegal(game, board.counts())
        self._emit(
            IllegalPlay(
                _player(mover),
                game.dice,
                explanation,
                tuple(points),
                position_id=game.position.to_position_id(),
                result_id=result.to_position_id(),
                dice_left=dice_visible,
            )
        )
        self._message = views.message("illegal", explanation, points)
        self._say(explanation)

    def _record_play(
        self,
        before: Position,
        result: Position,
        notation: str | None,
        dice_left: bool,
        condoned: bool | None = None,
        reason: str | None = None,
    ) -> None:
        """Record a play from ``before`` to ``result``; ``dice_left`` is written only when true,
        ``condoned`` and ``reason`` only when given (a condoned illegal play), as recorded so far."""
        game = self.game
        assert game.dice is not None
        if notation is None:
            turn = self._turn()
            play = turn.play_to(board_of(result))
            notation = str(play) if play is not None else change_notation(before, result)
        moved_from, moved_to = _changed_locations(before, result)
        self._emit(
            Play(
                _player(before.turn),
                game.dice,
                notation,
                position_id=before.to_position_id(),
                match_id=self.state.gnubg_match_id(),
                result_id=result.to_position_id(),
                moved_from=tuple(moved_from),
                moved_to=tuple(moved_to),
                dice_left=True if dice_left else None,
                condoned=condoned,
                reason=reason,
            )
        )
        self._message = None

    def _roll_during_illegal(self, board: Board, dice: tuple[int, int]) -> None:
        """The opponent rolled while an illegal play stands: condoned, or refused by the policy."""
        game = self.game
        assert game.illegal is not None
        turn = self._turn()
        if board in turn.results and game.restore_to is None:
            # Put right while the opponent was already rolling: the corrected play stands.
            self._record_play(turn.position, turn.results[board], None, dice_left=False)
            self._rolling(board, dice)
            return
        if self.state.policy != "condone" or board != game.illegal.board:
            self._message = views.message(
                "illegal",
                f"The illegal play must be corrected before {self._name(1 - game.turn)} rolls",
                game.illegal.locations,
            )
            return
        self._condone()
        self._rolling(board, dice)

    def _condone(self) -> None:
        game = self.game
        assert game.illegal is not None
        result = Position.from_players(
            game.illegal.board.white, game.illegal.board.black, game.turn
        )
        self._record_play(
            game.position,
            result,
            change_notation(game.position, result),
            dice_left=False,
            condoned=True,
            reason=game.illegal.reason,
        )
        self._say(f"{self._name(1 - result.turn)} accepts the play as it stands")

    def _condone_then(self, action: Callable[[], None]) -> None:
        if self.state.policy != "condone":
            self._say("The illegal play must be corrected first")
            return
        self._condone()
        action()

    # -- the cube -----------------------------------------------------------------------------

    def _on_cube(self, reading: CubeReading) -> bool:
        """Judge a cube reading; True when it was a cube action (nothing else to look at)."""
        game = self.game
        if game.phase == "cube_offered" and game.offered_by is not None:
            doubler, taker = game.offered_by, 1 - game.offered_by
            if reading.place == COLOURS[taker] and reading.value == game.offered_cube:
                self._take(taker)
                return True
            if reading.place == COLOURS[taker] and reading.value == 2 * game.offered_cube:
                self._beaver(taker)
                return True
            if reading.place == COLOURS[doubler]:
                self._pass(taker)
                return True
            return False
        turned = (
            reading.place == "middle" and reading.value == 2 * game.cube and reading.value != 64
        )
        if not turned:
            return False
        if game.phase == "rolling":
            self._double(game.turn)
            return True
        if game.phase == "illegal" and game.illegal is not None:
            opponent = 1 - game.illegal.player
            self._condone_then(lambda: self._double(opponent))
            return True
        return False

    def _refused(self, player: int, action: CubeAction, verdict: Verdict) -> bool:
        """Record a refused cube action (once per attempt); True when it was refused."""
        if verdict.allowed:
            return False
        reason = verdict.reason[0].upper() + verdict.reason[1:]
        if self.game.refused != (player, action):
            self._emit(CubeRefused(_player(player), action, reason))
            self._say(reason)
        self._message = views.message("cube", reason)
        return True

    def _double(self, player: int) -> None:
        game = self.game
        verdict = judge_double(
            self.state.match_state(),
            player,
            player_on_roll=game.turn,
            has_rolled=game.phase != "rolling",
        )
        if self._refused(player, "double", verdict):
            return
        value = game.cube * 2
        self._emit(CubeOffered(_player(player), value))
        text = f"{self._name(player)} doubles to {value}"
        if verdict.warning:
            text += f" ({verdict.warning})"
        self._message = views.message("cube", text)
        self._say(text)

    def _take(self, player: int) -> None:
        if self._refused(player, "take", judge_take(self.state.match_state(), player)):
            return
        self._emit(CubeTaken(_player(player), self.game.offered_cube))
        self._say(f"{self._name(player)} takes")
        self._message = None

    def _pass(self, player: int) -> None:
        if self._refused(player, "pass", judge_pass(self.state.match_state(), player)):
            return
        self._emit(CubePassed(_player(player), self.game.cube))
        self._say(f"{self._name(player)} passes")

    def _beaver(self, player: int) -> None:
        if self._refused(player, "beaver", judge_beaver(self.state.match_state(), player)):
            return
        value = self.game.offered_cube * 2
        self._emit(CubeBeavered(_player(player), value))
        self._say(f"{self._name(player)} beavers: the cube is {value}")

    # -- what follows on its own --------------------------------------------------------------

    def _follow_up(self) -> None:
        """Record what follows from the state by itself: results, next game, match end.

        Done after every input, so a crash between two such events is completed on resuming.
        """
        for _ in range(8):
            game = self.game
            settings = self.settings
            if settings is None:
                return
            if game.phase == "idle":
                self._start_game(1)
            elif game.phase == "rolling" and game.number and self._finished() is not None:
                finished = self._finished()
                assert finished is not None
                self._score_game(*finished)
            elif game.phase == "won" and game.won is not None:
                winner, points, kind = game.won
                self._score_game(winner, points, kind)
            elif game.phase == "game_over":
                leader = max((0, 1), key=lambda p: self.score[p])
                if settings.length and self.score[leader] >= settings.length:
                    self._emit(MatchWon(_player(leader), self.state.score))
                    self._say(
                        f"{self._name(leader)} wins the match {self.score[0]}-{self.score[1]}"
                    )
                else:
                    self._start_game(game.number + 1)
            else:
                return

    def _finished(self) -> tuple[int, int, str] | None:
        return self.state.rules.result(self.game, self.state.match_state())

    def _start_game(self, number: int) -> None:
        crawford = False
        if self.state.games:
            last = self.state.games[-1]
            before = list(self.score)
            before[last.winner] -= last.points
            state = replace(self.state.match_state(), score=(before[0], before[1]), game_over=False)
            crawford = next_game_is_crawford(state, last.winner, last.points)
        self._emit(GameStarted(number, self.state.score, crawford))

    def _emit_game_won(self, winner: int, points: int, kind: str) -> None:
        score = list(self.score)
        score[winner] += points
        self._emit(GameWon(self.game.number, _player(winner), points, (score[0], score[1]), kind))

    def _score_game(self, winner: int, points: int, kind: str) -> None:
        self._emit_game_won(winner, points, kind)
        self._say(f"{self._name(winner)} wins {points} point{'s' if points != 1 else ''}")
        self._message = views.message(
            "info", f"{self._name(winner)} wins {points} point{'s' if points != 1 else ''} ({kind})"
        )

    # -- lights and the panel -----------------------------------------------------------------

    def _say(self, text: str) -> None:
        self._says.append(text)

    def _tell(self, kind: MessageKind, text: str, locations: Iterable[str] = ()) -> None:
        """Show a message; say it aloud only when it is new (the camera repeats itself)."""
        message = views.message(kind, text, locations)
        if message != self._message:
            self._say(text)
        self._message = message

    def _refresh_lights(self) -> None:
        self._lights = self.scene()

    def scene(self) -> Scene:
        """The lights the board should show now (:func:`.views.scene`)."""
        return views.scene(self.state, self._message, self._last_board, self._turn)

    def visible_counts(self) -> dict[str, tuple[int, int]]:
        """What the camera should see of the board as it stands, location by location (a Shesh
        Besh stack standing on a point as one checker)."""
        return dict(self.state.rules.visible(self.game))

    def snapshot(self) -> PanelSnapshot:
        """The panel's whole picture, as plain JSON values (:func:`.views.snapshot`)."""
        now = float(self.clock()) if self.state.timer is not None else None
        return views.snapshot(self.state, self._message, self._lights, now)


#: What each button does. A held press (``-hold``) counts as its button; ``clock`` is ``done``
#: under another name (pressing the clock ends the turn, as picking up the dice does).
_BUTTONS: dict[str, Callable[[Referee, str], None]] = {
    "pause": Referee._press_pause,
    "clock": Referee._press_done,
    "done": Referee._press_done,
    "double": Referee._press_double,
    "take": Referee._press_take_or_pass,
    "pass": Referee._press_take_or_pass,
    "resign": Referee._press_resign_held,
    "accept": Referee._press_accept_or_reject,
    "reject": Referee._press_accept_or_reject,
    "undo": Referee._press_undo,
}


def _dice_of(observation: Observation) -> tuple[tuple[int, int] | None, bool]:
    """(both dice when exactly two lie flat, else None; whether any die is cocked)."""
    cocked = any(die.cocked for die in observation.dice)
    if len(observation.dice) != 2 or cocked:
        return None, cocked
    first, second = observation.dice
    return (first.pips, second.pips), False


def _player(value: int) -> Player:
    """``value`` as an event's player: the referee counts players as ints, a payload takes 0 or 1."""
    if value == 0:
        return 0
    if value == 1:
        return 1
    raise ValueError(f"a player is 0 or 1, not {value!r}")


def _changed_locations(before: Position, after: Position) -> tuple[list[str], list[str]]:
    """Locations the mover's checkers left and reached (for the panel's last-play arrows)."""
    start, end = board_of(before), board_of(after)
    first, second = start.counts(), end.counts()
    index = before.turn
    moved_from = [name for name in first if second[name][index] < first[name][index]]
    moved_to = [name for name in first if second[name][index] > first[name][index]]
    return moved_from, moved_to
