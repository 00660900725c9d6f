"""A recorded match written as a ``.mat`` file: the export's reader of the event log.

``sheshbesh export`` and the room's hub turn one match's events (``controller.events``) into the
:class:`~controller.record.matfile.MatchFile` GNU Backgammon imports, each play checked against the
rules and rewritten one step per die as gnubg writes it. ``sheshbesh run`` asks the same reader,
through :func:`check_events`, whether a match it resumes holds damage an export would report.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from controller.events import Event
from controller.record.matfile import Action, GameRecord, MatchFile, MatFileError, write_mat
from controller.rules import Play, Position, RulesError
from controller.rules.notation import parse_steps
from sheshbesh.events import (
    CubeBeavered,
    CubeOffered,
    CubePassed,
    CubeTaken,
    EventDataError,
    EventPayload,
    GameStarted,
    GameWon,
    MatchStarted,
    ResignOffered,
)
from sheshbesh.events import Play as PlayRecorded
from sheshbesh.events import Undo as Undone

__all__ = ["MatchExportError", "check_events", "export_mat", "match_from_events"]


class MatchExportError(MatFileError):
    """A recorded event stream that cannot be written as a match file; each problem names the
    event (``"event 17 (play): ..."``)."""

    def __init__(self, problems: Iterable[str], source: str = "event stream") -> None:
        super().__init__(problems, source)


@dataclass(slots=True)
class _PendingGame:
    number: int
    score: tuple[int, int]
    actions: list[tuple[int, Action]] = field(default_factory=list)  # (event sequence, action)
    winner: int | None = None
    points: int = 0
    resigner: int | None = None
    condoned: dict[int, str] = field(default_factory=dict)  # event sequence -> result Position ID


def _mat_steps(steps: Iterable[tuple[int, int, bool]]) -> str:
    """Steps as gnubg writes them in .mat files: one per die, 25 for the bar and 0 for off."""
    return " ".join(
        f"{source}/{destination}{'*' if hit else ''}" for source, destination, hit in steps
    )


#: Events that are no part of a .mat file: a play event carries its dice; illegal plays are
#: corrected or condoned as plays; refusals change nothing; the clock's events (pause, flag) are
#: not part of the play.
_NOT_PLAYED: Final = frozenset(
    {
        "roll_off",
        "dice_rolled",
        "illegal_play",
        "board_mismatch",
        "board_restored",
        "cube_refused",
        "resign_refused",
        "match_won",
        "clock_paused",
        "clock_resumed",
        "clock_flag",
    }
)


class _EventReader:
    def __init__(self, *, any_variant: bool = False) -> None:
        # any_variant: checking a log (not writing a file), where any variant is fine.
        self.any_variant = any_variant
        self.variant = "backgammon"
        self.problems: list[str] = []
        self.players: tuple[str, str] | None = None
        self.length: int | None = None
        self.games: list[_PendingGame] = []

    def problem(self, label: str, message: str) -> None:
        self.problems.append(f"{label}: {message}")

    def read(self, events: Iterable[Event]) -> MatchFile:
        for index, event in enumerate(events, start=1):
            sequence = event.sequence or index
            self.read_event(sequence, f"event {sequence} ({event.type})", event)
        if self.length is None or self.players is None:
            self.problems.insert(0, "event 1: the stream has no match_started event")
        games = tuple(self.finish(game) for game in self.games)
        if self.problems:
            raise MatchExportError(self.problems)
        assert self.length is not None and self.players is not None
        return MatchFile(self.length, self.players, games)

    def read_event(self, sequence: int, label: str, event: Event) -> None:
        if event.type in _NOT_PLAYED:
            return
        try:
            payload = event.payload
        except EventDataError as error:
            self.problem(label, str(error))
            if event.type == "match_started" and self.length is None:
                self.players, self.length = ("White", "Black"), 0
            elif event.type == "game_started":
                self.games.append(_PendingGame(len(self.games) + 1, (0, 0)))
            return
        if isinstance(payload, MatchStarted):
            self.read_start(label, payload)
            return
        if isinstance(payload, GameStarted):
            self.read_game_start(label, payload)
            return
        game = self.games[-1] if self.games else None
        if game is None:
            self.problem(label, "before any game_started event")
        elif game.winner is not None and not isinstance(payload, Undone):
            self.problem(label, f"game {game.number} is already over")
        else:
            self.read_action(sequence, label, game, payload)

    def read_start(self, label: str, started: MatchStarted) -> None:
        if self.length is not None:
            self.problem(label, "a second match_started: export one match at a time")
            return
        settings = started.settings
        self.variant = settings.variant
        if settings.variant != "backgammon" and not self.any_variant:
            self.problem(
                label, f"a {settings.variant!r} match cannot be written as .mat: backgammon only"
            )
        self.players = settings.players
        self.length = settings.length

    def read_game_start(self, label: str, started: GameStarted) -> None:
        number = started.game
        if number != len(self.games) + 1:
            self.problem(label, f"game {number!r} out of order: expected {len(self.games) + 1}")
            number = len(self.games) + 1
        self.games.append(_PendingGame(number, started.score or (0, 0)))

    def read_action(
        self, sequence: int, label: str, game: _PendingGame, payload: EventPayload
    ) -> None:
        if isinstance(payload, Undone):
            target = payload.to_sequence
            game.actions = [(seq, action) for seq, action in game.actions if seq <= target]
        elif isinstance(payload, GameWon):
            game.winner, game.points = payload.winner, payload.points
            if payload.kind in ("resign", "time"):  # no word for either: ends as resigned
                resigner = game.resigner if game.resigner is not None else 1 - payload.winner
                game.actions.append((sequence, Action(resigner, "resign")))
        elif isinstance(payload, PlayRecorded):
            game.actions.append(
                (sequence, Action(payload.player, "play", payload.dice, payload.play))
            )
            if payload.condoned and payload.result_id is not None:
                game.condoned[sequence] = payload.result_id
        elif isinstance(payload, CubeOffered | CubeBeavered):
            cube = payload.cube
            if cube < 2 or cube & (cube - 1):
                self.problem(label, f"cube must be a power of two, 2 or more, got {cube!r}")
                return
            game.actions.append((sequence, Action(payload.player, payload.action, cube=cube)))
        elif isinstance(payload, CubeTaken | CubePassed):
            game.actions.append((sequence, Action(payload.player, payload.action)))
        elif isinstance(payload, ResignOffered):
            game.resigner = payload.player
        # resign_accepted: the game_won that follows carries the result

    def finish(self, game: _PendingGame) -> GameRecord:
        """Rewrite each play in gnubg's step form, checking it against the rules as we go."""
        if self.variant != "backgammon":  # only when checking: other rules, no .mat to write
            actions_only = tuple(action for _, action in game.actions)
            return GameRecord(game.number, game.score, actions_only, game.winner, game.points)
        actions: list[Action] = []
        position: Position | None = None
        for sequence, action in game.actions:
            if action.kind != "play":
                actions.append(action)
                continue
            assert action.dice is not None
            if position is None:
                position = Position.initial(action.player)
            label = f"event {sequence} (play)"
            if action.player != position.turn:
                self.problem(
                    label, f"player {action.player} plays, but it is player {position.turn}'s turn"
                )
                return GameRecord(game.number, game.score, (), game.winner, game.points)
            try:
                if sequence in game.condoned:
                    # An illegal play the opponent accepted: kept as played, the board as seen.
                    steps = parse_steps(action.play)
                    after = Position.from_position_id(game.condoned[sequence], action.player)
                else:
                    play = Play.from_notation(action.play, position, action.dice)
                    steps = [(s.source, s.destination, s.hit) for s in play.steps]
                    after = position.apply(play)
            except RulesError as error:
                self.problem(label, str(error))
                return GameRecord(game.number, game.score, (), game.winner, game.points)
            actions.append(Action(action.player, "play", action.dice, _mat_steps(steps)))
            position = after.swap()
        return GameRecord(game.number, game.score, tuple(actions), game.winner, game.points)


def match_from_events(events: Iterable[Event]) -> MatchFile:
    """Build the :class:`MatchFile` of one recorded match from its events, in order.

    Plays are checked against the rules and rewritten one step per die as gnubg writes them;
    an ``undo`` drops the actions recorded after the event it returns to. Raises
    :class:`MatchExportError` listing every event that does not fit.
    """
    return _EventReader().read(events)


def check_events(events: Iterable[Event]) -> tuple[str, ...]:
    """The problems :func:`match_from_events` finds in one recorded match, each naming its
    event, or none. Unlike an export, a variant other than backgammon is no problem here (its
    plays follow other rules and are not checked): ``sheshbesh run`` checks the match it resumes
    with this, so it refuses exactly the damage that ``sheshbesh export`` would report.
    """
    try:
        _EventReader(any_variant=True).read(events)
    except MatchExportError as error:
        return error.problems
    return ()


def export_mat(events: Iterable[Event]) -> str:
    """The ``.mat`` text of one recorded match (see :func:`match_from_events`, :func:`write_mat`).

    Raises :class:`MatchExportError`.
    """
    return write_mat(match_from_events(events))
