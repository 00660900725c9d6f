"""One walk over a match file that calls a visitor's methods, modelled on python-chess's PGN visitor.

Three parts of the project go through a parsed :class:`~controller.record.matfile.MatchFile` entry
by entry: the rules replay (:mod:`controller.record.rules_replay`), the referee's inputs for
``sheshbesh replay`` (:mod:`controller.sim.replay`) and the demo director's shots
(:mod:`controller.sim.director`). :func:`walk` is the one loop they share. It keeps what the file
says happened on the board (each game set up for the player who rolls first, each play made with
the player on roll, the board after it handed to the opponent) and calls the visitor for the
match, each game, each entry and each game's end; what a visitor makes of an entry (a record, the
inputs a camera would give, shots of a still table) it yields, and :func:`walk` yields it on.

Unlike python-chess's visitor, which builds one result at the end, the walk is a generator: the
demo draws frames from the first shots while the director is still walking, and ``sheshbesh
replay`` prints the records it has before it reports a problem further on.

The order of calls, for each game of the match::

    begin_match(match)
      begin_game(game)
        visit_play(entry, move)        a roll and its play (the opening roll included)
        visit_cube(entry)              Doubles, Takes, Drops, Beavers
        visit_resign(entry)            an action of kind "resign" (only ever built in code)
        ...
        visit_resignation(ending)      when the file's result ends the game neither on the board
                                       nor by a drop: the loser resigned
      end_game(ending)
    end_match(match)

How the board is kept is the walk's; how strictly it is judged is each visitor's: the rules replay
gives up a game at an illegal play, the referee's inputs show it to the referee as written, the
director refuses to act it out. A visitor gives up the rest of a game by raising
:class:`AbandonGame` (the walk then calls :meth:`MatchVisitor.abandoned` and goes on with the next
game), and ends the whole walk by raising :class:`StopWalk` (only ``end_match`` is called then). A
play that cannot even be made on the board ends its game as if the visitor had abandoned it.

>>> from controller.record.matfile import read_mat
>>> class Plays(MatchVisitor[str]):
...     def visit_play(self, entry: Entry, move: Move) -> Iterator[str]:
...         yield f"game {entry.game.number}: {move.play}"
>>> match = read_mat(" 1 point match\\n Game 1\\n A : 0  B : 0\\n  1) 31: 8/5 6/5   42: 8/4 6/4\\n")
>>> list(walk(match, Plays()))
['game 1: 8/5 6/5', 'game 1: 8/4 6/4']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

from controller.record.matfile import Action, GameRecord, MatchFile
from controller.rules import Dice, Play, Position, RulesError, Step, game_result
from controller.rules.notation import parse_steps

__all__ = [
    "AbandonGame",
    "Ending",
    "Entry",
    "MatchVisitor",
    "Move",
    "StopWalk",
    "walk",
]

T = TypeVar("T")


class AbandonGame(Exception):
    """Raised by a visitor: the rest of this game is skipped; the walk goes on with the next."""


class StopWalk(Exception):
    """Raised by a visitor: no more games are walked; ``end_match`` is still called."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of a game as the walk reaches it.

    ``board`` is the position before the entry, with the player whose turn the board says it is
    on roll (``board.turn``); ``opening`` is true until the game's first roll; ``line`` is where
    the entry is written (the game's header line for an entry built in code).
    """

    game: GameRecord
    action: Action
    index: int
    line: int
    board: Position
    opening: bool
    last: bool

    @property
    def player(self) -> int:
        """Who makes the entry (0 is the file's left-hand player, White)."""
        return self.action.player


@dataclass(frozen=True, slots=True)
class Move:
    """A roll's play as the board shows it.

    ``before`` is the board with the entry's player on roll. ``illegal`` is the rules engine's
    objection when the play as written is no legal play for the dice; the walk then still makes its
    steps as written when the board allows them (``play`` and ``after``), so a visitor that lets
    the referee judge can show them. ``after`` (the same player still the mover) is None when the
    play cannot be made on the board at all: the game's walk ends there.
    """

    before: Position
    play: Play | None
    after: Position | None
    illegal: RulesError | None = None


@dataclass(frozen=True, slots=True)
class Ending:
    """A game's end as the walk reaches it: the board after the last entry, and how it ended.

    ``dropped``: the last entry is a drop. ``resigned``: the file gives a winner, nobody dropped
    and neither side has borne off every checker (the format has no word for a resignation).
    """

    game: GameRecord
    board: Position
    dropped: bool

    @property
    def resigned(self) -> bool:
        """The file's result ends the game neither on the board nor by a drop."""
        return self.game.winner is not None and not self.dropped and game_result(self.board) is None


class MatchVisitor(Generic[T]):
    """What :func:`walk` calls; every method does nothing here, so a visitor overrides only what
    it needs. Each method returns what it makes of its part of the match (an iterable of ``T``,
    most simply written as a generator), and may raise :class:`AbandonGame` or :class:`StopWalk`.
    """

    def begin_match(self, match: MatchFile) -> Iterable[T]:
        """Before the first game."""
        return ()

    def begin_game(self, game: GameRecord) -> Iterable[T]:
        """Before a game's first entry."""
        return ()

    def visit_play(self, entry: Entry, move: Move) -> Iterable[T]:
        """A roll and its play (an empty play for a dance)."""
        return ()

    def visit_cube(self, entry: Entry) -> Iterable[T]:
        """A double, take, drop (``"pass"``) or beaver; ``entry.action.cube`` is the value a
        double or beaver turns the cube to, when the file writes it."""
        return ()

    def visit_resign(self, entry: Entry) -> Iterable[T]:
        """An action of kind ``"resign"``: never read from a file, only built in code."""
        return ()

    def visit_resignation(self, ending: Ending) -> Iterable[T]:
        """The loser resigned (see :attr:`Ending.resigned`); called just before ``end_game``."""
        return ()

    def end_game(self, ending: Ending) -> Iterable[T]:
        """After a game's last entry (not after an abandoned game)."""
        return ()

    def abandoned(self, game: GameRecord) -> Iterable[T]:
        """After the visitor abandoned ``game``; raise :class:`StopWalk` to stop walking."""
        return ()

    def end_match(self, match: MatchFile) -> Iterable[T]:
        """After the last game walked."""
        return ()


def walk(match: MatchFile, visitor: MatchVisitor[T]) -> Iterator[T]:
    """Walk ``match`` once, calling ``visitor``'s methods in the file's order; yield what they
    make. Exceptions other than :class:`AbandonGame` and :class:`StopWalk` pass through."""
    try:
        yield from visitor.begin_match(match)
        for game in match.games:
            try:
                yield from _walk_game(game, visitor)
            except AbandonGame:
                yield from visitor.abandoned(game)
    except StopWalk:
        pass
    yield from visitor.end_match(match)


def _walk_game(game: GameRecord, visitor: MatchVisitor[T]) -> Iterator[T]:
    yield from visitor.begin_game(game)
    first = next((action.player for action in game.actions if action.kind == "play"), 0)
    board = Position.initial(turn=first)
    opening = True
    count = len(game.actions)
    for index, action in enumerate(game.actions):
        entry = Entry(
            game, action, index, action.line or game.line, board, opening, index == count - 1
        )
        if action.kind == "play":
            move = _move(board, action)
            yield from visitor.visit_play(entry, move)
            if move.after is None:
                raise AbandonGame
            board = move.after.swap()
            opening = False
        elif action.kind == "resign":
            yield from visitor.visit_resign(entry)
        else:
            yield from visitor.visit_cube(entry)
    ending = Ending(game, board, bool(game.actions) and game.actions[-1].kind == "pass")
    if ending.resigned:
        yield from visitor.visit_resignation(ending)
    yield from visitor.end_game(ending)


def _move(board: Position, action: Action) -> Move:
    """The play of ``action`` made on ``board`` with the action's player on roll."""
    assert action.dice is not None
    before = board if board.turn == action.player else board.swap()
    try:
        play = Play.from_notation(action.play, before, Dice(*action.dice))
    except RulesError as error:
        try:
            steps = tuple(Step(*step) for step in parse_steps(action.play))
            return Move(before, Play(steps), before.apply(steps), error)
        except RulesError:
            return Move(before, None, None, error)
    return Move(before, play, before.apply(play))
