"""Turn a recorded match into what a camera would see over a real board, shot by shot.

The demo and the end-to-end tests replay a ``.mat`` match as physical events: players' hands reach in,
dice are rolled and come to rest, checkers move one at a time, dice are picked up, the cube is turned,
pushed to the middle and pulled to the taker's side. Each :class:`Shot` is a still table (what lies on
the board) held for some seconds, with or without a hand over it. The renderer draws shots as frames;
vision and the referee never see the match file, only the frames. The director is one visitor of the
one walk over a match file (:func:`controller.record.walk.walk`), which keeps the board.

Conventions shared with the referee: White (player 0) sits at the bottom and rolls into the right half
of the board, Black into the left half; in the opening roll-off each player's die lies in their own half.
The cube starts in the middle showing 64; an offer is the cube turned to the new value in the middle, a
take is the cube pulled to the taker's side, a pass is the cube pushed back to the doubler's side.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Literal

from controller.record.matfile import Action, GameRecord, MatchFile
from controller.record.walk import Ending, Entry, MatchVisitor, Move, walk
from controller.rules import Dice, Play, Position
from sheshbesh.errors import SheshbeshError

Half = Literal["left", "right"]
HALVES: tuple[Half, Half] = ("right", "left")  # White rolls right, Black left
SIDE_NAMES = ("white", "black")


class DirectorError(SheshbeshError, ValueError):
    """A match file cannot be acted out (an illegal play, a cube action out of place)."""


@dataclass(frozen=True, slots=True)
class StillTable:
    """What lies on the board: both sides' checkers (own numbering, index 24 = bar), dice, cube."""

    white: tuple[int, ...]
    black: tuple[int, ...]
    dice: tuple[tuple[int, Half], ...] = ()
    cube_value: int = 64
    cube_place: str = "middle"

    @classmethod
    def from_position(cls, position: Position) -> StillTable:
        white, black = position.by_player()
        return cls(tuple(white), tuple(black))

    def with_position(self, position: Position) -> StillTable:
        white, black = position.by_player()
        return replace(self, white=tuple(white), black=tuple(black))


@dataclass(frozen=True, slots=True)
class Shot:
    """One still moment: ``table`` held for ``seconds``; ``hand`` means a hand is over the board."""

    table: StillTable
    seconds: float
    hand: bool
    caption: str
    game: int
    #: a resignation offered from the panel and accepted at the end of this shot:
    #: (the resigning player, 1 single / 2 gammon / 3 backgammon)
    resign: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Timing:
    """Seconds each kind of moment lasts (the demo's pace; ``--speed`` divides them)."""

    hand: float = 0.4
    still: float = 0.8
    setup: float = 1.5


def direct_match(match: MatchFile, timing: Timing | None = None) -> Iterator[Shot]:
    """Yield the shots that act out every game of ``match``; raises :class:`DirectorError`."""
    return walk(match, _Director(match.players, timing or Timing()))


def check_match(match: MatchFile) -> int:
    """Walk every shot of ``match`` without drawing any: the number of shots.

    Raises :class:`DirectorError` naming the game, the move and the reason for the first entry
    that cannot be acted out, before a single frame is drawn.
    """
    return sum(1 for _ in direct_match(match))


def _where(game: int, action: Action) -> str:
    line = f", line {action.line}" if action.line else ""
    return f"game {game}{line}"


def _entry(action: Action) -> str:
    if action.kind != "play" or action.dice is None:
        return action.kind
    return f"{action.dice[0]}{action.dice[1]}: {action.play or '(no move)'}"


def _cube_face(value: int) -> int:
    return 64 if value == 1 else value


class _Director(MatchVisitor[Shot]):
    """A visitor of :func:`controller.record.walk.walk`: each entry as the shots of a still table.

    It keeps what lies on the table (the checkers as the walk's board has them, the dice, the cube)
    and refuses, with a :class:`DirectorError`, a play the rules do not allow.
    """

    def __init__(self, players: tuple[str, str], pace: Timing) -> None:
        self.players = players
        self.pace = pace
        self.table = StillTable.from_position(Position.initial())
        self.cube = 1
        self.offered_by: int | None = None

    def two(
        self, caption: str, number: int, *, hand_table: StillTable | None = None
    ) -> Iterator[Shot]:
        """A hand over the board, then the table still: how every moment is shown."""
        pace = self.pace
        yield Shot(hand_table or self.table, pace.hand, True, caption, number)
        yield Shot(self.table, pace.still, False, caption, number)

    def begin_game(self, game: GameRecord) -> Iterator[Shot]:
        number, players = game.number, self.players
        plays = [a for a in game.actions if a.kind == "play"]
        first = plays[0].player if plays else 0
        self.table = StillTable.from_position(Position.initial(turn=first))
        self.cube = 1
        self.offered_by = None
        yield Shot(self.table, self.pace.hand, True, f"game {number}: setting up", number)
        yield Shot(
            self.table,
            self.pace.setup,
            False,
            f"game {number}: {players[0]} v {players[1]}",
            number,
        )

    def visit_play(self, entry: Entry, move: Move) -> Iterator[Shot]:
        action, number = entry.action, entry.game.number
        who = self.players[action.player]
        assert action.dice is not None
        Dice.coerce(action.dice)  # dice no die can show are refused before any shot, as ever
        if entry.opening:
            high, low = max(action.dice), min(action.dice)
            rolled = [(0, HALVES[0]), (0, HALVES[1])]
            rolled[action.player] = (high, HALVES[action.player])
            rolled[1 - action.player] = (low, HALVES[1 - action.player])
            caption = f"game {number}: roll-off {rolled[0][0]}-{rolled[1][0]}, {who} starts"
            dice_on_table = (rolled[0], rolled[1])
        else:
            half = HALVES[action.player]
            dice_on_table = ((action.dice[0], half), (action.dice[1], half))
            caption = f"game {number}: {who} rolls {action.dice[0]}{action.dice[1]}"
        position = move.before
        self.table = replace(self.table.with_position(position), dice=dice_on_table)
        yield from self.two(caption, number, hand_table=replace(self.table, dice=()))
        if move.illegal is not None:
            raise DirectorError(
                f"{_where(number, action)}: {who}'s {_entry(action)} is no legal play "
                f"({move.illegal})"
            ) from move.illegal
        assert move.play is not None
        play = move.play
        for count in range(1, len(play.steps) + 1):
            moved = position.apply(Play(play.steps[:count]))
            self.table = self.table.with_position(moved)
            yield from self.two(f"game {number}: {who} plays {play}", number)
        self.table = replace(self.table, dice=())
        yield from self.two(f"game {number}: {who} picks up the dice", number)

    def visit_cube(self, entry: Entry) -> Iterator[Shot]:
        action, number = entry.action, entry.game.number
        who = self.players[action.player]
        if action.kind == "double":
            self.offered_by = action.player
            self.cube = action.cube or self.cube * 2
            self.table = replace(self.table, cube_value=_cube_face(self.cube), cube_place="middle")
            caption = f"game {number}: {who} doubles to {self.cube}"
        elif action.kind == "beaver":
            self.cube = action.cube or self.cube * 2
            self.offered_by = None
            place = SIDE_NAMES[action.player]
            self.table = replace(self.table, cube_value=_cube_face(self.cube), cube_place=place)
            caption = f"game {number}: {who} beavers to {self.cube}"
        elif action.kind == "take":
            self.offered_by = None
            self.table = replace(self.table, cube_place=SIDE_NAMES[action.player])
            caption = f"game {number}: {who} takes"
        else:  # a pass: the cube goes back to the doubler
            doubler = 1 - action.player if self.offered_by is None else self.offered_by
            self.table = replace(self.table, cube_place=SIDE_NAMES[doubler])
            caption = f"game {number}: {who} passes"
        yield from self.two(caption, number)

    def visit_resign(self, entry: Entry) -> Iterator[Shot]:
        raise DirectorError(
            f"{_where(entry.game.number, entry.action)}: a {entry.action.kind!r} cannot be acted "
            "out on the board"
        )

    def visit_resignation(self, ending: Ending) -> Iterator[Shot]:
        # The format has no word for a resignation: the game just ends with "Wins N points".
        game = ending.game
        assert game.winner is not None
        loser = 1 - game.winner
        level = max(1, min(3, game.points // self.cube))
        words = ("", "a single game", "a gammon", "a backgammon")[level]
        caption = f"game {game.number}: {self.players[loser]} resigns {words}"
        yield Shot(self.table, self.pace.still, False, caption, game.number, resign=(loser, level))


def final_positions(match: MatchFile) -> list[Position]:
    """The position at the end of each game (for tests of the director itself)."""
    finals: list[Position] = []
    for game in match.games:
        table: StillTable | None = None
        for shot in direct_match(MatchFile(match.length, match.players, (game,))):
            table = shot.table
        assert table is not None
        finals.append(Position.from_players(table.white, table.black, 0))
    return finals


#: full speed: each moment lasts just long enough for vision to see the board settle
FAST_TIMING = Timing(hand=0.2, still=0.6, setup=0.6)
