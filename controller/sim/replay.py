"""Replay a ``.mat`` match file through the referee, as a perfectly read board would show it.

:func:`controller.record.rules_replay.replay_records` walks a match file through the rules engine
alone. This module shows the same match to the real referee instead: for each entry of the file it
builds the inputs a camera over a perfectly read board and the players' hands would give (the dice
coming to rest, the position after the play, the dice picked up, the cube turned in the middle,
taken to the taker's side or pushed back to the doubler's), feeds them through a
:class:`~controller.table.runner.Runner` writing to a :class:`~controller.record.store.Record`, and
turns the recorded events back into the replay records. For a sound file the records are exactly
:func:`~controller.record.rules_replay.replay_records`'s; a play or cube action the referee refuses
is reported with the line of the file.

Both are visitors of the one walk over a match file (:func:`controller.record.walk.walk`):

- :class:`BoardScript` makes each visit a :class:`Beat` (the inputs of one entry with its line);
  tests subclass it to add hands over the board or one checker at a time.
  :func:`referee_inputs` is the stream of its inputs alone (for tests and demos).
- ``_RefereeReplay`` feeds a :class:`BoardScript`'s beats to a runner, visit by visit, and turns
  what the referee records into replay records: :func:`replay_through_referee`, what ``sheshbesh
  replay`` prints.

How a board shows what the file says:

* A game starts with the checkers set up and the cube in the middle (showing 64).
* The opening: one die each, White's in the right-hand half of the image, Black's in the left; the
  player with the higher die plays both numbers. Later rolls: both dice in the roller's right-hand
  half (White's right is the image's right, Black's its left).
* A play: the position after it with the dice still down, then the dice picked up (which ends the
  turn, a dance included).
* ``Doubles => N``: the cube in the middle showing N (the ``double`` button for 64, which the eye
  cannot tell from a cube in the middle); ``Takes``: the cube on the taker's side at N;
  ``Beavers => N``: the cube on the beaver's side at N; ``Drops``: the cube pushed to the doubler.
* A game that ends with ``Wins N`` while both sides have checkers left and nobody dropped was
  resigned: the :class:`~controller.referee.Resign` input for the loser, then ``accept``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Final

from controller.events import Event
from controller.record.matfile import Action, GameRecord, MatchFile, MatFileError
from controller.record.rules_replay import ReplayRecord
from controller.record.store import Record
from controller.record.walk import AbandonGame, Ending, Entry, MatchVisitor, Move, StopWalk, walk
from controller.referee import (
    ButtonPressed,
    Input,
    MatchSettings,
    NewMatch,
    ObservationSeen,
    RefereeInputError,
    Resign,
)
from controller.referee.turn import board_of
from controller.rules import Play, Position
from controller.table.runner import Runner
from sheshbesh.match import Policy
from sheshbesh.observation import CubeReading, DieReading, LocationCount, Observation

__all__ = [
    "CENTRED_CUBE",
    "Beat",
    "BoardScript",
    "match_settings",
    "observation_of",
    "referee_inputs",
    "replay_through_referee",
]

COLOURS: Final = ("white", "black")
#: Where each player's dice come to rest in the image: White rolls right, Black left.
HALVES: Final = ("right", "left")
#: The cube in the middle: it shows 64 and means a stake of 1.
CENTRED_CUBE: Final = (64, "middle")
# Die boxes (x, y, w, h) in a 640 x 480 image, two in each half.
_BOXES: Final = {
    "right": ((420, 200, 30, 30), (480, 260, 30, 30)),
    "left": ((120, 200, 30, 30), (180, 260, 30, 30)),
}
_CUBE_KINDS: Final = {
    "cube_offered": "double",
    "cube_taken": "take",
    "cube_passed": "pass",
    "cube_beavered": "beaver",
}
#: Recorded events that mean the referee refused what the file says happened.
_REFUSALS: Final = ("illegal_play", "cube_refused", "board_mismatch")


def observation_of(
    position: Position,
    dice: tuple[int, int] | None = None,
    cube: tuple[int, str] | None = CENTRED_CUBE,
    halves: tuple[str, str] = ("right", "right"),
) -> Observation:
    """What a perfectly read frame shows of ``position``, the dice (if down) and the cube.

    ``halves`` says where each die lies (``"right"`` or ``"left"`` half of the image).

    >>> seen = observation_of(Position.initial(), dice=(3, 1))
    >>> seen.count("p24", "white"), [die.pips for die in seen.dice]
    (2, [3, 1])
    """
    locations = {
        name: LocationCount(white, black)
        for name, (white, black) in board_of(position).counts().items()
    }
    dice_seen: tuple[DieReading, ...] = ()
    if dice is not None:
        first, second = halves
        boxes = (_BOXES[first][0], _BOXES[second][1 if first == second else 0])
        dice_seen = (
            DieReading(dice[0], 1.0, boxes[0], False, first),
            DieReading(dice[1], 1.0, boxes[1], False, second),
        )
    cube_seen = None if cube is None else CubeReading(cube[0], cube[1], 1.0)
    return Observation(locations, dice_seen, cube_seen)


def match_settings(
    match: MatchFile,
    *,
    jacoby: bool = True,
    crawford: bool = True,
    policy: Policy = "tournament",
    match_id: str | None = None,
) -> MatchSettings:
    """The referee's settings for ``match`` with the replay's defaults (those of gnubg).

    ``jacoby`` applies to money sessions only; beavers are allowed in a money session whose file
    has one.
    """
    players = (match.players[0] or "White", match.players[1] or "Black")
    beavers = not match.length and any(
        action.kind == "beaver" for game in match.games for action in game.actions
    )
    return MatchSettings(
        players,
        length=match.length,
        crawford=crawford,
        jacoby=jacoby,
        beavers=beavers,
        policy=policy,
        match_id=match_id,
    )


@dataclass(frozen=True, slots=True)
class Beat:
    """The inputs that show one entry of a match file, and where the entry is written.

    ``kind`` is ``"setup"`` (checkers set up for a new game), ``"play"``, ``"roll"`` (a roll
    followed by a resignation: gnubg writes ``52:`` with no play), ``"double"``, ``"take"``,
    ``"pass"``, ``"beaver"`` or ``"resign"``. ``problem`` is set when the entry cannot be shown on
    a board at all (a play moving checkers that are not there); ``illegal`` holds the rules engine's
    objection to a play that can be shown but breaks the rules (the referee is to judge it);
    ``resign`` is (loser, level: 1 single, 2 gammon, 3 backgammon) for a resignation.
    """

    game: int
    kind: str
    inputs: tuple[Input, ...] = ()
    action: Action | None = None
    line: int = 0
    problem: str | None = None
    illegal: str | None = None
    resign: tuple[int, int] | None = None


class BoardScript(MatchVisitor[Beat]):
    """Shows a match file's games on a board, entry by entry, as :class:`Beat` values: a visitor of
    :func:`controller.record.walk.walk`, which makes each play on its board; a beat with a
    ``problem`` is the last of its game.

    Keeps the position and the cube as the board shows them. Two hooks shape how it looks:
    :meth:`hands_over` (frames taken while hands are over the board: none for a perfect reading)
    and :meth:`steps_shown` (how many of a play's checkers are seen moved one at a time first).
    """

    def __init__(self, settings: MatchSettings) -> None:
        self.settings = settings
        self.position = Position.initial()
        self.cube: tuple[int, str] = CENTRED_CUBE

    # -- hooks ----------------------------------------------------------------------------------

    def hands_over(self, position: Position, cube: tuple[int, str] | None) -> list[Input]:
        """Frames seen while hands are over ``position``; a perfect reading sees none."""
        return []

    def steps_shown(self, play: Play) -> int:
        """How many of ``play``'s steps are seen one at a time before the whole play (0 here)."""
        return 0

    # -- building blocks ------------------------------------------------------------------------

    def seen(
        self,
        position: Position,
        dice: tuple[int, int] | None = None,
        halves: tuple[str, str] = ("right", "right"),
    ) -> ObservationSeen:
        """The board showing ``position``, the dice (if down) and the script's cube."""
        return ObservationSeen(observation_of(position, dice, self.cube, halves))

    def _name(self, player: int) -> str:
        return self.settings.players[player]

    def _setup(self) -> list[Input]:
        self.position = Position.initial()
        self.cube = CENTRED_CUBE
        return [self.seen(self.position)]

    def _opening(self, player: int, dice: tuple[int, int]) -> list[Input]:
        high, low = max(dice), min(dice)
        white_die, black_die = (high, low) if player == 0 else (low, high)
        self.position = Position.initial(turn=player)
        return [self.seen(self.position, (white_die, black_die), halves=("right", "left"))]

    def _roll(self, player: int, dice: tuple[int, int]) -> list[Input]:
        self.position = Position.from_players(*self.position.by_player(), turn=player)
        half = HALVES[player]
        return [
            self.seen(self.position),  # the last dice picked up
            *self.hands_over(self.position, self.cube),
            self.seen(self.position, dice, halves=(half, half)),
        ]

    def _shown(self, player: int, dice: tuple[int, int], move: Move) -> list[Input]:
        """The board during and after the play the walk made (as written, when illegal)."""
        before, play, after = move.before, move.play, move.after
        assert play is not None and after is not None
        steps = play.steps
        half = HALVES[player]
        inputs: list[Input] = []
        current = before
        for step in steps[: min(self.steps_shown(play), max(len(steps) - 1, 0))]:
            current = current.apply((step,))
            inputs.extend(self.hands_over(current, self.cube))
            inputs.append(self.seen(current, dice, halves=(half, half)))
        inputs.extend(self.hands_over(after, self.cube))
        inputs.append(self.seen(after, dice, halves=(half, half)))
        inputs.append(self.seen(after))  # the dice picked up: the turn is over
        self.position = after.swap()
        return inputs

    @staticmethod
    def _refuse(beat: Beat) -> Iterator[Beat]:
        """A beat that cannot be shown: the last of its game."""
        yield beat
        raise AbandonGame

    def _opened(self, entry: Entry) -> Iterator[Beat]:
        """A game must open with a roll: the problem beat for any other first entry."""
        if entry.opening:
            action = entry.action
            problem = f"game {entry.game.number} must open with a roll, not a {action.kind}"
            yield from self._refuse(
                Beat(
                    entry.game.number, action.kind, action=action, line=entry.line, problem=problem
                )
            )

    # -- the walk's visits --------------------------------------------------------------------

    def begin_game(self, game: GameRecord) -> Iterator[Beat]:
        """The checkers set up for a new game."""
        yield Beat(game.number, "setup", tuple(self._setup()), line=game.line)

    def visit_play(self, entry: Entry, move: Move) -> Iterator[Beat]:
        """The dice coming to rest, then the board during and after the play."""
        number, action, line, player = entry.game.number, entry.action, entry.line, entry.player
        dice = action.dice
        assert dice is not None
        if entry.opening and dice[0] == dice[1]:
            problem = (
                f"{self._name(player)} opens game {number} with {dice[0]}{dice[1]}: the "
                "opening roll is one die each, so never a double"
            )
            yield from self._refuse(Beat(number, "play", action=action, line=line, problem=problem))
        rolled = self._opening(player, dice) if entry.opening else self._roll(player, dice)
        last_roll = not action.play and entry.last and entry.game.winner == 1 - player
        if last_roll and move.illegal is not None:
            # gnubg writes "52:  Wins 1 point" for a player who rolled, then resigned.
            yield Beat(number, "roll", tuple(rolled), action, line)
            return
        if move.after is None:  # not even a board to show: the rules' objection stands
            problem = f"{self._name(player)}'s {dice[0]}{dice[1]}: {move.illegal}"
            yield from self._refuse(
                Beat(number, "play", tuple(rolled), action, line, problem=problem)
            )
        shown = self._shown(player, dice, move)
        # An illegal play is shown as the file has it: the referee is to judge it.
        illegal = None if move.illegal is None else str(move.illegal)
        yield Beat(number, "play", (*rolled, *shown), action, line, illegal=illegal)

    def visit_cube(self, entry: Entry) -> Iterator[Beat]:
        """The cube turned in the middle, taken, beavered or pushed back to the doubler."""
        yield from self._opened(entry)
        number, action, line, player = entry.game.number, entry.action, entry.line, entry.player
        if action.kind == "double":
            self.position = Position.from_players(*self.position.by_player(), turn=player)
            value = action.cube or (2 if self.cube == CENTRED_CUBE else 2 * self.cube[0])
            if value == 64:
                # The eye cannot tell a cube turned to 64 from one in the middle.
                self.cube = (64, "middle")
                inputs: list[Input] = [ButtonPressed("double")]
            else:
                self.cube = (value, "middle")
                inputs = [self.seen(self.position)]
            yield Beat(number, "double", tuple(inputs), action, line)
        elif action.kind == "take":
            self.cube = (self.cube[0], COLOURS[player])
            inputs = [*self.hands_over(self.position, None), self.seen(self.position)]
            yield Beat(number, "take", tuple(inputs), action, line)
        elif action.kind == "beaver":
            value = action.cube or 2 * self.cube[0]
            self.cube = (value, COLOURS[player])
            yield Beat(number, "beaver", (self.seen(self.position),), action, line)
        else:  # a pass
            self.cube = (self.cube[0], COLOURS[1 - player])
            yield Beat(number, "pass", (self.seen(self.position),), action, line)

    def visit_resign(self, entry: Entry) -> Iterator[Beat]:
        """A resign action built in code shows nothing (the file's result says it all)."""
        yield from self._opened(entry)

    def visit_resignation(self, ending: Ending) -> Iterator[Beat]:
        """The loser resigns from the panel at the level the file's points and cube give."""
        game = ending.game
        assert game.winner is not None
        line = game.result_line or game.line
        loser = 1 - game.winner
        cube = 1 if self.cube[0] == 64 and self.cube[1] == "middle" else self.cube[0]
        level = game.points // cube if game.points % cube == 0 else 0
        jacoby_bars = self.settings.uses_jacoby and cube == 1 and level > 1
        if not 1 <= level <= 3 or jacoby_bars:
            hint = (
                " (the Jacoby rule is on: was this session played without it?)"
                if jacoby_bars
                else ""
            )
            problem = (
                f"{self._name(game.winner)} cannot win {game.points} points by resignation with "
                f"the cube at {cube}{hint}"
            )
            yield Beat(game.number, "resign", line=line, problem=problem)
            return
        inputs = (Resign(loser, level), ButtonPressed("accept"))
        yield Beat(game.number, "resign", inputs, line=line, resign=(loser, level))


def referee_inputs(
    match: MatchFile,
    *,
    jacoby: bool = True,
    crawford: bool = True,
    policy: Policy = "tournament",
    match_id: str | None = None,
    script: Callable[[MatchSettings], BoardScript] = BoardScript,
) -> Iterator[Input]:
    """Every input a perfectly read board gives for ``match``: :class:`NewMatch` first, then each
    game's set-up, rolls, plays, cube actions and resignations.

    Raises :class:`MatFileError` (with the line) at an entry that cannot be shown on a board.

    >>> from controller.record.matfile import read_mat
    >>> match = read_mat(" 1 point match\\n Game 1\\n A : 0  B : 0\\n  1) 31: 8/5 6/5\\n")
    >>> [type(item).__name__ for item in referee_inputs(match)]
    ['NewMatch', 'ObservationSeen', 'ObservationSeen', 'ObservationSeen', 'ObservationSeen']
    """
    settings = match_settings(
        match, jacoby=jacoby, crawford=crawford, policy=policy, match_id=match_id
    )
    yield NewMatch(settings)
    for beat in walk(match, script(settings)):
        if beat.problem is not None:
            raise MatFileError([f"line {beat.line}: {beat.problem}"])
        yield from beat.inputs


# Replay -----------------------------------------------------------------------------------------


@dataclass(slots=True)
class _GameResult:
    winner: int
    points: int
    line: int


class _RefereeReplay(MatchVisitor[ReplayRecord]):
    """A visitor of :func:`controller.record.walk.walk` that shows each entry to the referee.

    It asks a :class:`BoardScript` for the beats of each visit, feeds them to a runner and turns
    the recorded events into replay records; a beat the referee refuses abandons the game.
    """

    def __init__(self, runner: Runner, settings: MatchSettings) -> None:
        self.runner = runner
        self.referee = runner.referee
        self.settings = settings
        self.script = BoardScript(settings)
        self.names = settings.players
        self.problems: list[str] = []
        self.started: tuple[int, tuple[int, int]] | None = None
        self.result: _GameResult | None = None

    def fail(self, line: int, message: str) -> AbandonGame:
        self.problems.append(f"line {line}: {message}")
        return AbandonGame()

    def feed(self, inputs: Iterable[Input]) -> list[Event]:
        events: list[Event] = []
        for item in inputs:
            events.extend(self.runner.feed(item))
        for event in events:
            if event.type == "game_started":
                score = event.data["score"]
                self.started = (int(event.data["game"]), (int(score[0]), int(score[1])))
        return events

    # -- the walk's visits --------------------------------------------------------------------

    def begin_match(self, match: MatchFile) -> Iterator[ReplayRecord]:
        self.feed([NewMatch(self.settings)])
        yield from ()

    def begin_game(self, game: GameRecord) -> Iterator[ReplayRecord]:
        referee = self.referee
        if referee.winner is not None:
            score = referee.score
            self.problems.append(
                f"line {game.line}: game {game.number} is played after "
                f"{self.names[referee.winner]} has won the match {score[0]}-{score[1]}"
            )
            raise StopWalk
        if self.started is not None and self.started[1] != game.score:
            given = self.started[1]
            self.problems.append(
                f"line {game.line}: game {game.number} starts at {game.score[0]}-{game.score[1]}, "
                f"but the replay gives {given[0]}-{given[1]}"
            )
        self.result = None
        yield from self.show(game.number, self.script.begin_game(game))

    def visit_play(self, entry: Entry, move: Move) -> Iterator[ReplayRecord]:
        yield from self.show(entry.game.number, self.script.visit_play(entry, move))

    def visit_cube(self, entry: Entry) -> Iterator[ReplayRecord]:
        yield from self.show(entry.game.number, self.script.visit_cube(entry))

    def visit_resign(self, entry: Entry) -> Iterator[ReplayRecord]:
        yield from self.show(entry.game.number, self.script.visit_resign(entry))

    def visit_resignation(self, ending: Ending) -> Iterator[ReplayRecord]:
        yield from self.show(ending.game.number, self.script.visit_resignation(ending))

    def abandoned(self, game: GameRecord) -> Iterator[ReplayRecord]:
        if game.winner is None:
            raise StopWalk
        if self.result is None and not self.score_as_the_file_does(game):
            raise StopWalk
        yield from ()

    def end_match(self, match: MatchFile) -> Iterator[ReplayRecord]:
        score = self.runner.referee.score
        yield {"type": "match", "score": [score[0], score[1]]}
        if self.problems:
            raise MatFileError(self.problems)

    # -- showing beats ------------------------------------------------------------------------

    def show(self, number: int, beats: Iterable[Beat]) -> Iterator[ReplayRecord]:
        """Feed each beat to the referee: the records of what it recorded, or the game abandoned."""
        for beat in beats:
            if self.result is not None and beat.kind != "setup":
                raise self.fail(
                    beat.line, f"game {number} is already over: nothing more may happen"
                )
            if beat.problem is not None:
                raise self.fail(beat.line, beat.problem)
            events = self.feed(beat.inputs)
            seen: list[str] = []
            for event in events:
                seen.append(event.type)
                if event.type in _REFUSALS:
                    raise self.fail(beat.line, self.refusal(beat, event))
                record = self.record_of(number, beat, event)
                if record is not None:
                    yield record
            self.check(beat, seen)

    def record_of(self, number: int, beat: Beat, event: Event) -> dict[str, Any] | None:
        data = event.data
        if event.type == "play":
            dice = [int(data["dice"][0]), int(data["dice"][1])]
            action = beat.action
            if (
                action is not None
                and action.dice is not None
                and sorted(action.dice) == sorted(dice)
            ):
                dice = [action.dice[0], action.dice[1]]  # as the file writes them
            return {
                "type": "play",
                "game": number,
                "player": int(data["player"]),
                "dice": dice,
                "play": data["play"],
                "position_id": data["position_id"],
                "match_id": data["match_id"],
            }
        if event.type in _CUBE_KINDS:
            cube = int(data["cube"])
            return {
                "type": "cube",
                "game": number,
                "player": int(data["player"]),
                "action": _CUBE_KINDS[event.type],
                # a pass refuses the doubled value; the event holds the stake before the double
                "cube": 2 * cube if event.type == "cube_passed" else cube,
            }
        if event.type == "game_won":
            self.result = _GameResult(int(data["winner"]), int(data["points"]), beat.line)
        return None

    def refusal(self, beat: Beat, event: Event) -> str:
        reason = str(event.data.get("reason", "refused"))
        action = beat.action
        if event.type == "illegal_play" and action is not None and action.dice is not None:
            name = self.names[action.player]
            return (
                f"{name}'s {action.dice[0]}{action.dice[1]}: {action.play!r} is not a legal play: "
                f"{reason[:1].lower()}{reason[1:]}"
            )
        if event.type == "cube_refused":
            return reason[:1].lower() + reason[1:]
        return f"the board does not fit the file here: {reason}"

    def check(self, beat: Beat, seen: list[str]) -> None:
        """Fail unless the referee recorded what ``beat`` shows."""
        action = beat.action
        if beat.kind == "setup":
            return
        if beat.kind == "resign":
            if "resign_accepted" not in seen:
                raise self.fail(beat.line, f"the referee refused the resignation: {self.message()}")
            return
        assert action is not None
        player, name = action.player, self.names[action.player]
        if beat.kind in ("play", "roll"):
            referee = self.runner.referee
            rolled = "dice_rolled" in seen or "roll_off" in seen
            if not rolled:
                game = referee.game
                if game.phase == "cube_offered" and game.offered_by is not None:
                    why = f"{name} rolls while {self.names[game.offered_by]}'s double awaits an answer"
                elif game.phase in ("rolling", "moving") and game.turn != player:
                    why = f"{name} plays, but it is {self.names[game.turn]}'s turn"
                else:
                    why = f"{name}'s roll was not accepted: {self.message()}"
                raise self.fail(beat.line, why)
            if beat.kind == "play" and "play" not in seen:
                assert action.dice is not None
                dice = f"{action.dice[0]}{action.dice[1]}"
                why = beat.illegal or f"{action.play!r} was not recorded: {self.message()}"
                raise self.fail(beat.line, f"{name}'s {dice}: {why}")
            return
        wanted = {"double": "cube_offered", "take": "cube_taken", "pass": "cube_passed"}.get(
            beat.kind, "cube_beavered"
        )
        if wanted not in seen:
            cube = self.runner.referee.game.cube
            expected = action.cube
            if beat.kind == "double" and expected is not None and expected != 2 * cube:
                raise self.fail(
                    beat.line, f"the file turns the cube to {expected}, the replay to {2 * cube}"
                )
            raise self.fail(beat.line, f"{name}'s {beat.kind} was not accepted: {self.message()}")

    def message(self) -> str:
        message = self.runner.referee.snapshot().get("message")
        text = message.get("text") if isinstance(message, dict) else None
        return str(text) if text else f"the game is in phase {self.runner.referee.game.phase!r}"

    def end_game(self, ending: Ending) -> Iterator[ReplayRecord]:
        game = ending.game
        result = self.result
        names = self.names
        if game.winner is None:
            if result is not None:
                raise self.fail(
                    result.line, f"game {game.number} is over here, but the file gives no result"
                )
            return  # an unfinished last game
        line = game.result_line or game.line
        if result is None:
            raise self.fail(line, f"game {game.number} is not over on the board: {self.message()}")
        if (result.winner, result.points) != (game.winner, game.points):
            points = result.points
            raise self.fail(
                line,
                f"the file says {names[game.winner]} wins {game.points}, but the play gives "
                f"{names[result.winner]} {points} point{'s' if points != 1 else ''}",
            )
        yield {
            "type": "game",
            "game": game.number,
            "winner": result.winner,
            "points": result.points,
        }

    def score_as_the_file_does(self, game: GameRecord) -> bool:
        """After an abandoned game, end it with the file's result (a resignation) and go on.

        False (with the problem noted) when the referee cannot end it that way.
        """
        assert game.winner is not None
        referee = self.runner.referee
        cube = referee.game.cube
        level = game.points // cube if game.points % cube == 0 else 0
        why = ""
        if 1 <= level <= 3:
            try:
                events = self.feed([Resign(1 - game.winner, level), ButtonPressed("accept")])
            except RefereeInputError as error:
                why = str(error)
            else:
                won = [event for event in events if event.type == "game_won"]
                if won and (won[0].data["winner"], won[0].data["points"]) == (
                    game.winner,
                    game.points,
                ):
                    return True
                why = f"resigning gives {won[0].data['points'] if won else 0} points"
        else:
            why = f"the cube is at {cube}"
        self.problems.append(
            f"line {game.result_line or game.line}: the referee cannot score game {game.number} "
            f"as the file does ({self.names[game.winner]} wins {game.points}: {why}); "
            "the replay stops here"
        )
        return False


def replay_through_referee(
    match: MatchFile,
    record: Record | None = None,
    *,
    jacoby: bool = True,
    crawford: bool = True,
    match_id: str | None = None,
    clock: Callable[[], float] = time.time,
) -> Iterator[dict[str, Any]]:
    """Replay ``match`` through the referee; yields the records of
    :func:`controller.record.rules_replay.replay_records` (play, cube, game, and last the match score).

    The referee's events go to ``record`` (an in-memory log when None) under ``match_id`` (the
    referee names the match when None). The play records' notation is the referee's (what the
    board shows, in standard notation), their IDs those the referee recorded before the play.

    A play, cube action or result the referee refuses ends that game: it is scored as the file
    says (the loser resigns) and the replay goes on with the next; after the last record
    :class:`MatFileError` lists every problem with its line number.

    >>> from controller.record.matfile import read_mat
    >>> match = read_mat(" 1 point match\\n Game 1\\n A : 0  B : 0\\n  1) 31: 8/5 6/5\\n")
    >>> next(replay_through_referee(match))["position_id"]
    '4HPwATDgc/ABMA'
    """
    settings = match_settings(match, jacoby=jacoby, crawford=crawford, match_id=match_id)
    owned = record is None
    log = Record(":memory:") if record is None else record
    try:
        runner = Runner.resume(log, clock=clock)
        yield from walk(match, _RefereeReplay(runner, settings))
    finally:
        if owned:
            log.close()
