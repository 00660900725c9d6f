"""Turn a recorded match into what a camera would see over a real board, shot by shot.

The demo and the end-to-end tests replay a ``.mat`` match as physical events: players' hands reach in,
dice are rolled and come to rest, checkers move one at a time, dice are picked up, the cube is turned,
pushed to the middle and pulled to the taker's side. Each :class:`Shot` is a still table (what lies on
the board) held for some seconds, with or without a hand over it. The renderer draws shots as frames;
vision and the referee never see the match file, only the frames.

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
from controller.rules import Dice, Play, Position, game_result
from sheshbesh.errors import SheshbeshError

Half = Literal["left", "right"]
HALVES: tuple[Half, Half] = ("right", "left")  # White rolls right, Black left
SIDE_NAMES = ("white", "black")


class DirectorError(SheshbeshError, ValueError):
    """A match file cannot be acted out (an illegal play, a cube action out of place)."""


@dataclass(frozen=True, slots=True)
class Table:
    """What lies on the board: both sides' checkers (own numbering, index 24 = bar), dice, cube."""

    white: tuple[int, ...]
    black: tuple[int, ...]
    dice: tuple[tuple[int, Half], ...] = ()
    cube_value: int = 64
    cube_place: str = "middle"

    @classmethod
    def from_position(cls, position: Position) -> Table:
        white, black = position.by_player()
        return cls(tuple(white), tuple(black))

    def with_position(self, position: Position) -> Table:
        white, black = position.by_player()
        return replace(self, white=tuple(white), black=tuple(black))


@dataclass(frozen=True, slots=True)
class Shot:
    """One still moment: ``table`` held for ``seconds``; ``hand`` means a hand is over the board."""

    table: Table
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
    pace = timing or Timing()
    for game in match.games:
        yield from _direct_game(game, match.players, pace)


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


def _direct_game(game: GameRecord, players: tuple[str, str], pace: Timing) -> Iterator[Shot]:
    number = game.number
    plays = [a for a in game.actions if a.kind == "play"]
    first = plays[0].player if plays else 0
    position = Position.initial(turn=first)
    table = Table.from_position(position)
    yield Shot(table, pace.hand, True, f"game {number}: setting up", number)
    yield Shot(table, pace.setup, False, f"game {number}: {players[0]} v {players[1]}", number)
    cube = 1
    offered_by: int | None = None
    opening = True
    for action in game.actions:
        who = players[action.player]
        if action.kind == "play":
            assert action.dice is not None
            dice = Dice.coerce(action.dice)
            if opening:
                high, low = max(action.dice), min(action.dice)
                rolled = [(0, HALVES[0]), (0, HALVES[1])]
                rolled[action.player] = (high, HALVES[action.player])
                rolled[1 - action.player] = (low, HALVES[1 - action.player])
                opening = False
                caption = f"game {number}: roll-off {rolled[0][0]}-{rolled[1][0]}, {who} starts"
                dice_on_table = (rolled[0], rolled[1])
            else:
                half = HALVES[action.player]
                dice_on_table = ((action.dice[0], half), (action.dice[1], half))
                caption = f"game {number}: {who} rolls {action.dice[0]}{action.dice[1]}"
            if position.turn != action.player:
                position = position.swap()
            table = replace(table.with_position(position), dice=dice_on_table)
            yield Shot(replace(table, dice=()), pace.hand, True, caption, number)
            yield Shot(table, pace.still, False, caption, number)
            try:
                play = Play.from_notation(action.play, position, dice)
            except ValueError as error:
                raise DirectorError(
                    f"{_where(number, action)}: {who}'s {_entry(action)} is no legal play ({error})"
                ) from error
            for count in range(1, len(play.steps) + 1):
                moved = position.apply(Play(play.steps[:count]))
                table = table.with_position(moved)
                step_caption = f"game {number}: {who} plays {play}"
                yield Shot(table, pace.hand, True, step_caption, number)
                yield Shot(table, pace.still, False, step_caption, number)
            position = position.apply(play)
            table = replace(table, dice=())
            yield Shot(table, pace.hand, True, f"game {number}: {who} picks up the dice", number)
            yield Shot(table, pace.still, False, f"game {number}: {who} picks up the dice", number)
            position = position.swap()
        elif action.kind in ("double", "beaver"):
            if action.kind == "double":
                offered_by = action.player
                cube = action.cube or cube * 2
                table = replace(table, cube_value=_cube_face(cube), cube_place="middle")
                caption = f"game {number}: {who} doubles to {cube}"
            else:
                cube = action.cube or cube * 2
                offered_by = None
                place = SIDE_NAMES[action.player]
                table = replace(table, cube_value=_cube_face(cube), cube_place=place)
                caption = f"game {number}: {who} beavers to {cube}"
            yield Shot(table, pace.hand, True, caption, number)
            yield Shot(table, pace.still, False, caption, number)
        elif action.kind == "take":
            offered_by = None
            table = replace(table, cube_place=SIDE_NAMES[action.player])
            caption = f"game {number}: {who} takes"
            yield Shot(table, pace.hand, True, caption, number)
            yield Shot(table, pace.still, False, caption, number)
        elif action.kind == "pass":
            doubler = 1 - action.player if offered_by is None else offered_by
            table = replace(table, cube_place=SIDE_NAMES[doubler])
            caption = f"game {number}: {who} passes"
            yield Shot(table, pace.hand, True, caption, number)
            yield Shot(table, pace.still, False, caption, number)
        else:
            raise DirectorError(
                f"{_where(number, action)}: a {action.kind!r} cannot be acted out on the board"
            )
    ended = bool(game.actions) and game.actions[-1].kind == "pass"
    if game.winner is not None and not ended and game_result(position) is None:
        # The format has no word for a resignation: the game just ends with "Wins N points".
        loser = 1 - game.winner
        level = max(1, min(3, game.points // cube))
        words = ("", "a single game", "a gammon", "a backgammon")[level]
        caption = f"game {number}: {players[loser]} resigns {words}"
        yield Shot(table, pace.still, False, caption, number, resign=(loser, level))


def final_positions(match: MatchFile) -> list[Position]:
    """The position at the end of each game (for tests of the director itself)."""
    finals: list[Position] = []
    for game in match.games:
        table: Table | None = None
        for shot in _direct_game(game, match.players, Timing()):
            table = shot.table
        assert table is not None
        finals.append(Position.from_players(table.white, table.black, 0))
    return finals


#: full speed: each moment lasts just long enough for vision to see the board settle
FAST_TIMING = Timing(hand=0.2, still=0.6, setup=0.6)
