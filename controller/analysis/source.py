"""Where turns come from: a ``.mat`` match file, or the record's events.

Both walk the games through the rules engine, so a play the rules do not allow is an error that
names the game, the line or event, and the play.

>>> text = " 1 point match\\n\\n Game 1\\n A : 0   B : 0\\n  1) 31: 8/5 6/5   42: 8/4 6/4\\n"
>>> match = turns_from_mat_text(text)
>>> [(turn.player, turn.played_notation, turn.may_double) for turn in match.turns]
[(0, '8/5 6/5', False), (1, '8/4 6/4', True)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from controller.analysis.board import Sides
from controller.analysis.context import MatchContext, crawford_flags
from controller.analysis.engine import Response
from controller.analysis.errors import AnalysisInputError
from controller.analysis.match import Turn
from controller.events import Event
from controller.record.matfile import MatchFile, read_mat
from controller.rules.errors import RulesError
from controller.rules.position import Play, Position
from sheshbesh import events as typed
from sheshbesh.match import MatchSettings


@dataclass(frozen=True, slots=True)
class TurnSource:
    """The turns of a match with what a report needs to name it."""

    players: tuple[str, str]
    length: int
    turns: tuple[Turn, ...]
    name: str = ""


def _sides(position: Position) -> Sides:
    return (position.opponent, position.mover)


@dataclass(slots=True)
class _PendingDouble:
    player: int
    context: MatchContext
    position: Position
    may_double: bool
    position_id: str
    response: Response | None = None


class _GameWalk:
    """The state of one game while its actions are read: checkers, cube, turn numbers."""

    def __init__(self, game: int, context: MatchContext, turns: list[Turn]) -> None:
        self.game = game
        self.context = context
        self.sides_by_player: tuple[tuple[int, ...], tuple[int, ...]] = (
            Position.initial().by_player()
        )
        self.turns = turns
        self.move = 0
        self.pending: _PendingDouble | None = None

    def position(self, player: int) -> Position:
        return Position.from_players(self.sides_by_player[0], self.sides_by_player[1], player)

    def double(self, player: int, where: str) -> None:
        if self.pending is not None:
            raise AnalysisInputError(f"{where}: a double while another double waits for an answer")
        position = self.position(player)
        self.pending = _PendingDouble(
            player, self.context, position, self.move > 0, position.to_position_id()
        )

    def answer(self, player: int, response: Response, where: str) -> None:
        pending = self.pending
        if pending is None or pending.player == player:
            raise AnalysisInputError(f"{where}: {response} without a double from the opponent")
        pending.response = response
        if response == "take":
            self.context = self.context.after_take(player)
        elif response == "beaver":
            self.context = self.context.after_take(player).after_take(player)
        else:
            self.move += 1
            self.turns.append(self._turn(pending, None, None, ""))
            self.pending = None

    def _turn(
        self,
        pending: _PendingDouble,
        dice: tuple[int, int] | None,
        played: Position | None,
        notation: str,
    ) -> Turn:
        return Turn(
            game=self.game,
            move=self.move,
            player=pending.player,
            sides=_sides(pending.position),
            context=pending.context,
            may_double=pending.may_double,
            doubled=True,
            response=pending.response,
            dice=dice,
            played=None if played is None else _sides(played),
            played_notation=notation,
            position_id=pending.position_id,
        )

    def play(self, player: int, dice: tuple[int, int], notation: str, where: str) -> None:
        position = self.position(player)
        try:
            parsed = Play.from_notation(notation, position, dice)
            result = position.apply(parsed)
        except RulesError as error:
            raise AnalysisInputError(
                f"{where}: {dice[0]}{dice[1]}: {notation or '(no move)'!s}: {error}"
            ) from error
        self.move += 1
        pending = self.pending
        if pending is not None:
            if pending.player != player or pending.response is None:
                raise AnalysisInputError(f"{where}: a roll while a double waits for an answer")
            self.turns.append(self._turn(pending, dice, result, str(parsed)))
            self.pending = None
        else:
            self.turns.append(
                Turn(
                    game=self.game,
                    move=self.move,
                    player=player,
                    sides=_sides(position),
                    context=self.context,
                    may_double=self.move > 1,
                    dice=dice,
                    played=_sides(result),
                    played_notation=str(parsed),
                    position_id=position.to_position_id(),
                )
            )
        self.sides_by_player = result.by_player()


def turns_from_mat(
    match: MatchFile, name: str = "", jacoby: bool = True, beavers: bool = False
) -> TurnSource:
    """Every turn of a parsed match file. ``jacoby``/``beavers`` apply to money sessions only.

    Raises :class:`AnalysisInputError` naming the game and line of a play the rules refuse.
    """
    money = match.length == 0
    flags = crawford_flags(match.length, [game.score for game in match.games])
    turns: list[Turn] = []
    for game, crawford in zip(match.games, flags, strict=True):
        context = MatchContext(
            length=match.length,
            score=(0, 0) if money else game.score,
            crawford_game=crawford,
            jacoby=money and jacoby,
            beavers=money and beavers,
        )
        walk = _GameWalk(game.number, context, turns)
        for action in game.actions:
            where = f"{name or 'match'} game {game.number}, line {action.line}"
            if action.kind == "play":
                assert action.dice is not None
                walk.play(action.player, action.dice, action.play, where)
            elif action.kind == "double":
                walk.double(action.player, where)
            elif action.kind in ("take", "pass", "beaver"):
                response: Response = action.kind  # type: ignore[assignment]
                walk.answer(action.player, response, where)
    return TurnSource(match.players, match.length, tuple(turns), name)


def turns_from_mat_text(
    text: str, name: str = "", jacoby: bool = True, beavers: bool = False
) -> TurnSource:
    """:func:`turns_from_mat` on the text of a ``.mat`` file (``MatFileError`` if unreadable)."""
    return turns_from_mat(read_mat(text), name, jacoby, beavers)


#: The event types that make or withdraw turns.
_TURN_EVENTS = frozenset(
    {
        "match_started",
        "game_started",
        "cube_offered",
        "cube_taken",
        "cube_beavered",
        "cube_passed",
        "play",
        "undo",
    }
)


_RESPONSES: dict[str, Response] = {
    "cube_taken": "take",
    "cube_beavered": "beaver",
    "cube_passed": "pass",
}


def turns_from_events(events: Sequence[Event], name: str = "") -> TurnSource:
    """Every turn of one match from the record's events (in sequence order).

    Positions are taken from each ``play`` event's Position IDs; an ``undo`` withdraws the turns
    recorded after the event it returns to. Raises :class:`AnalysisInputError` for an event stream
    that does not hold together (a play before any game, a bad Position ID).
    """
    walk = _RecordWalk()
    for event in events:
        if event.type not in _TURN_EVENTS:
            continue  # only these shape the turns; the rest need not even be read
        where = f"{name or 'record'} event {event.sequence} ({event.type})"
        try:
            walk.read(event.sequence, event.payload, where)
        except (KeyError, IndexError, TypeError, ValueError) as error:
            if isinstance(error, AnalysisInputError):
                raise
            raise AnalysisInputError(f"{where}: {error!s}") from error
    settings = walk.settings
    turns = tuple(turn for _, turn in walk.recorded)
    return TurnSource(settings.players, settings.length, turns, name)


class _RecordWalk:
    """The turns of a record so far, read event by event (positions from the Position IDs)."""

    def __init__(self) -> None:
        self.settings = MatchSettings(length=0)
        self.recorded: list[tuple[int, Turn]] = []  # (event sequence, turn)
        self.context: MatchContext | None = None
        self.game = 0
        self.move = 0
        self.pending: dict[str, Any] | None = None
        self.last: Position | None = None

    def read(self, sequence: int, payload: typed.EventPayload, where: str) -> None:
        if isinstance(payload, typed.MatchStarted):
            self.settings = payload.settings
        elif isinstance(payload, typed.GameStarted):
            self.start(payload)
        elif isinstance(payload, typed.CubeOffered):
            self.double(payload.player, where)
        elif isinstance(payload, typed.CubeTaken | typed.CubeBeavered | typed.CubePassed):
            self.answer(sequence, payload.player, _RESPONSES[payload.type], where)
        elif isinstance(payload, typed.Play):
            self.play(sequence, payload, where)
        elif isinstance(payload, typed.Undo):
            self.undo(payload.to_sequence)

    def start(self, started: typed.GameStarted) -> None:
        length = self.settings.length
        self.game, self.move, self.pending, self.last = started.game, 0, None, None
        self.context = MatchContext(
            length=length,
            score=(0, 0) if length == 0 else started.score or (0, 0),
            crawford_game=started.is_crawford and length > 0,
            jacoby=self.settings.uses_jacoby,
            beavers=length == 0 and self.settings.beavers,
        )

    def double(self, doubler: int, where: str) -> None:
        if self.context is None:
            raise AnalysisInputError(f"{where}: a double before any game started")
        last = self.last
        if last is None:
            raise AnalysisInputError(f"{where}: a double before the first play of the game")
        at = last.swap() if last.turn != doubler else last
        self.pending = {"player": doubler, "context": self.context, "position": at}

    def answer(self, sequence: int, taker: int, response: Response, where: str) -> None:
        pending, context = self.pending, self.context
        if context is None or pending is None:
            raise AnalysisInputError(f"{where}: an answer without a double")
        pending["response"] = response
        if response == "take":
            self.context = context.after_take(taker)
        elif response == "beaver":
            self.context = context.after_take(taker).after_take(taker)
        else:
            self.move += 1
            at = pending["position"]
            turn = Turn(
                game=self.game,
                move=self.move,
                player=pending["player"],
                sides=_sides(at),
                context=pending["context"],
                doubled=True,
                response="pass",
                position_id=at.to_position_id(),
            )
            self.recorded.append((sequence, turn))
            self.pending = None

    def play(self, sequence: int, play: typed.Play, where: str) -> None:
        if self.context is None:
            raise AnalysisInputError(f"{where}: a play before any game started")
        if play.position_id is None or play.result_id is None:
            raise AnalysisInputError(f"{where}: a play without its Position IDs")
        before = Position.from_position_id(play.position_id, play.player)
        after = Position.from_position_id(play.result_id, play.player)
        self.move += 1
        pending = self.pending
        turn = Turn(
            game=self.game,
            move=self.move,
            player=play.player,
            sides=_sides(before),
            context=self.context if pending is None else pending["context"],
            may_double=self.move > 1,
            doubled=pending is not None,
            response=None if pending is None else pending.get("response"),
            dice=play.dice,
            played=_sides(after),
            played_notation=play.play,
            position_id=play.position_id,
        )
        self.recorded.append((sequence, turn))
        self.pending = None
        self.last = after

    def undo(self, back_to: int) -> None:
        self.recorded = [
            (sequence, turn) for sequence, turn in self.recorded if sequence <= back_to
        ]
        self.pending = None
        self.last = None
        if self.recorded and self.recorded[-1][1].game == self.game and self.recorded[-1][1].played:
            kept = self.recorded[-1][1]
            assert kept.played is not None
            self.last = Position(kept.played[1], kept.played[0], kept.player)
