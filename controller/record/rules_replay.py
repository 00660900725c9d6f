"""A match file walked through the rules engine: every play checked, every cube action judged.

:func:`replay_records` is ``sheshbesh replay --rules-only``; ``sheshbesh replay`` shows the same
match to the referee instead (:mod:`controller.sim.replay`) and gives the same records for a sound
file. Each game is scored with GNU Backgammon's Position ID and Match ID before each play. The
replay is one visitor of :func:`controller.record.walk.walk`: the walk keeps the board, the visitor
the match's state (score, cube, a pending double) and its judgement.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from controller.record.matfile import GameRecord, MatchFile, MatFileError
from controller.record.walk import AbandonGame, Ending, Entry, MatchVisitor, Move, StopWalk, walk
from controller.rules import (
    MatchState,
    Resignation,
    RulesError,
    beaver,
    finish_game,
    game_points,
    game_result,
    offer_double,
    pass_double,
    take,
)

__all__ = ["replay_records"]

ReplayRecord = dict[str, Any]


class _RulesReplay(MatchVisitor[ReplayRecord]):
    """Judges a :class:`MatchFile` with the rules engine, yielding the replay records."""

    def __init__(self, match: MatchFile, *, jacoby: bool, crawford: bool) -> None:
        self.names = match.players
        self.problems: list[str] = []
        if match.length:
            self.state = MatchState.new_match(match.length, crawford=crawford)
        else:
            beavers = any(a.kind == "beaver" for g in match.games for a in g.actions)
            self.state = MatchState.new_money(jacoby=jacoby, beavers=beavers)
        self.start = self.state  # the state at the start of the game being walked
        # (winner, points, line) once the board or a drop decides the game being walked
        self.result: tuple[int, int, int] | None = None

    def fail(self, line: int, message: str) -> AbandonGame:
        self.problems.append(f"line {line}: {message}")
        return AbandonGame()

    def match_id(self, player: int, dice: tuple[int, int]) -> str:
        # No double is pending when a play is made: the replay refuses one before this is asked.
        return self.state.to_match_info(player, dice).to_match_id()

    def jacoby_hint(self, claimed: int, allowed: int) -> str:
        """A pointer to the Jacoby rule when it is what makes the file's points look wrong."""
        state = self.state
        if state.is_money and state.jacoby and state.cube_value == 1 and claimed > allowed:
            return " (the Jacoby rule is on: was this session played without it?)"
        return ""

    def begin_game(self, game: GameRecord) -> Iterator[ReplayRecord]:
        if self.state.winner is not None:
            self.problems.append(
                f"line {game.line}: game {game.number} is played after "
                f"{self.names[self.state.winner]} has won the match "
                f"{self.state.score[0]}-{self.state.score[1]}"
            )
            raise StopWalk
        if game.score != self.state.score:
            self.problems.append(
                f"line {game.line}: game {game.number} starts at {game.score[0]}-{game.score[1]}, "
                f"but the replay gives {self.state.score[0]}-{self.state.score[1]}"
            )
        self.start = self.state
        self.result = None
        yield from ()

    def abandoned(self, game: GameRecord) -> Iterator[ReplayRecord]:
        # Go on with the next game from the score the file gives for it.
        if game.winner is None:
            raise StopWalk
        self.state = finish_game(self.start, game.winner, game.points)
        yield from ()

    def enter(self, entry: Entry) -> None:
        """What every entry must allow: a game still going, opened by a roll."""
        number = entry.game.number
        if self.result is not None:
            raise self.fail(entry.line, f"game {number} is already over: nothing more may happen")
        if entry.opening and entry.action.kind != "play":
            raise self.fail(
                entry.line, f"game {number} must open with a roll, not a {entry.action.kind}"
            )

    def visit_play(self, entry: Entry, move: Move) -> Iterator[ReplayRecord]:
        self.enter(entry)
        action, line, player, names = entry.action, entry.line, entry.player, self.names
        assert action.dice is not None
        if self.state.offered_by is not None:
            raise self.fail(
                line,
                f"{names[player]} rolls while {names[self.state.offered_by]}'s double "
                "awaits an answer",
            )
        if player != entry.board.turn:
            raise self.fail(
                line, f"{names[player]} plays, but it is {names[entry.board.turn]}'s turn"
            )
        if move.illegal is not None:
            if not action.play and entry.last and entry.game.winner == 1 - player:
                # gnubg writes "52:  Wins 1 point" for a player who rolled, then resigned.
                return
            raise self.fail(
                line, f"{names[player]}'s {action.dice[0]}{action.dice[1]}: {move.illegal}"
            )
        assert move.play is not None and move.after is not None  # a legal play is made
        yield {
            "type": "play",
            "game": entry.game.number,
            "player": player,
            "dice": [action.dice[0], action.dice[1]],
            "play": str(move.play),
            "position_id": move.before.to_position_id(),
            "match_id": self.match_id(player, action.dice),
        }
        finished = game_result(move.after)
        if finished is not None:
            points = game_points(self.state, finished.kind)
            self.result = (finished.winner, points, line)

    def visit_cube(self, entry: Entry) -> Iterator[ReplayRecord]:
        self.enter(entry)
        action, line, player = entry.action, entry.line, entry.player
        try:
            if action.kind == "double":
                self.state = offer_double(self.state, player, player_on_roll=entry.board.turn)
                cube = self.state.cube_value * 2
            elif action.kind == "take":
                self.state = take(self.state, player)
                cube = self.state.cube_value
            elif action.kind == "beaver":
                self.state = beaver(self.state, player)
                cube = self.state.cube_value
            else:  # a pass
                cube = self.state.cube_value * 2
                _, winner, points = pass_double(self.state, player)
                self.result = (winner, points, line)
        except RulesError as error:
            raise self.fail(line, str(error)) from None
        if action.cube is not None and action.cube != cube:
            raise self.fail(line, f"the file turns the cube to {action.cube}, the replay to {cube}")
        yield {
            "type": "cube",
            "game": entry.game.number,
            "player": player,
            "action": action.kind,
            "cube": cube,
        }

    def visit_resign(self, entry: Entry) -> Iterator[ReplayRecord]:
        self.enter(entry)
        raise self.fail(entry.line, f"a {entry.action.kind} cannot be replayed")

    def visit_resignation(self, ending: Ending) -> Iterator[ReplayRecord]:
        # The board did not decide it and nobody passed: the loser resigned.
        game = ending.game
        assert game.winner is not None
        line = game.result_line or game.line
        if self.state.offered_by is not None:
            raise self.fail(line, f"game {game.number} ends while a double awaits an answer")
        kind = next((k for k in (1, 2, 3) if game_points(self.state, k) == game.points), None)
        if kind is None:
            raise self.fail(
                line,
                f"{self.names[game.winner]} cannot win {game.points} points by resignation with "
                f"the cube at {self.state.cube_value}{self.jacoby_hint(game.points, 1)}",
            )
        self.state, winner, points = Resignation(1 - game.winner, kind).accept(self.state)
        self.result = (winner, points, line)
        yield from ()

    def end_game(self, ending: Ending) -> Iterator[ReplayRecord]:
        game, result, names = ending.game, self.result, self.names
        if game.winner is None:
            if result is not None:
                raise self.fail(
                    result[2], f"game {game.number} is over here, but the file gives no result"
                )
            return  # an unfinished last game
        if not ending.resigned:
            assert result is not None
            winner, points, _ = result
            if (winner, points) != (game.winner, game.points):
                raise self.fail(
                    game.result_line or game.line,
                    f"the file says {names[game.winner]} wins {game.points}, but the play gives "
                    f"{names[winner]} {points} point{'s' if points != 1 else ''}"
                    f"{self.jacoby_hint(game.points, points)}",
                )
            self.state = finish_game(self.state, winner, points)
        assert result is not None
        yield {"type": "game", "game": game.number, "winner": result[0], "points": result[1]}

    def end_match(self, match: MatchFile) -> Iterator[ReplayRecord]:
        yield {"type": "match", "score": [self.state.score[0], self.state.score[1]]}
        if self.problems:
            raise MatFileError(self.problems)


def replay_records(
    match: MatchFile, *, jacoby: bool = True, crawford: bool = True
) -> Iterator[ReplayRecord]:
    """Replay a match through the rules engine, yielding one record per play, cube action and game.

    Records, in order (player 0 is the left-hand player of the file)::

        {"type": "play", "game", "player", "dice", "play", "position_id", "match_id"}
        {"type": "cube", "game", "player", "action", "cube"}
        {"type": "game", "game", "winner", "points"}
        {"type": "match", "score": [s0, s1]}   (last)

    ``play`` is the play in standard notation; ``position_id`` and ``match_id`` are GNU
    Backgammon's before the play, with the player on roll as gnubg shows it. ``cube`` is the value
    the cube is turned to in that exchange (a ``pass`` refuses that value). A game that ends with
    neither a bear-off nor a pass was resigned by the loser. ``jacoby`` applies to money sessions
    (length 0; on by default, as in gnubg), ``crawford`` to matches. Beavers are allowed in a money
    session whose file has one.

    Every play is checked against the rules and every cube action judged; a game that goes wrong is
    abandoned (the next one starts from the score the file gives) and, after the last record,
    :class:`MatFileError` lists every problem with its line number.

    >>> from controller.record.matfile import read_mat
    >>> match = read_mat(" 1 point match\\n Game 1\\n A : 0  B : 0\\n  1) 31: 8/5 6/5\\n")
    >>> next(replay_records(match))["position_id"]
    '4HPwATDgc/ABMA'
    """
    return walk(match, _RulesReplay(match, jacoby=jacoby, crawford=crawford))
