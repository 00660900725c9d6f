"""The one walk over a match file (``controller.record.walk``): the order of its calls, the board
it keeps, and how a visitor abandons a game or stops the walk."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.record.matfile import GameRecord, MatchFile, read_mat, read_mat_file
from controller.record.rules_replay import replay_records
from controller.record.walk import (
    AbandonGame,
    Ending,
    Entry,
    MatchVisitor,
    Move,
    StopWalk,
    walk,
)
from controller.rules import Dice, Play, Position
from controller.sim.director import direct_match
from controller.sim.replay import referee_inputs
from tests.shared_data import MATCHES_DIR

# Game 1: an opening roll, a double, a drop. Game 2: Bob opens, Alice plays, then resigns (the
# result line with checkers still on the board).
SMALL = """ 3 point match

 Game 1
 Alice : 0                      Bob : 0
  1) 31: 8/5 6/5                  Doubles => 2
  2)  Drops                       Wins 1 point

 Game 2
 Alice : 0                      Bob : 1
  1)                             52: 13/8 24/22
  2) 64: 24/18 13/9              Wins 1 point
"""

Call = tuple[object, ...]


class Recorder(MatchVisitor[Call]):
    """Yields one tuple per call: the method, the game, and what the walk handed over."""

    def begin_match(self, match: MatchFile) -> Iterator[Call]:
        yield ("begin_match", match.players)

    def begin_game(self, game: GameRecord) -> Iterator[Call]:
        yield ("begin_game", game.number)

    def entry(self, name: str, entry: Entry) -> Call:
        return (name, entry.game.number, entry.action.kind, entry.line, entry.opening, entry.last)

    def visit_play(self, entry: Entry, move: Move) -> Iterator[Call]:
        yield (*self.entry("visit_play", entry), str(move.play), move.before.turn)

    def visit_cube(self, entry: Entry) -> Iterator[Call]:
        yield self.entry("visit_cube", entry)

    def visit_resign(self, entry: Entry) -> Iterator[Call]:
        yield self.entry("visit_resign", entry)

    def visit_resignation(self, ending: Ending) -> Iterator[Call]:
        yield ("visit_resignation", ending.game.number)

    def end_game(self, ending: Ending) -> Iterator[Call]:
        yield ("end_game", ending.game.number, ending.dropped, ending.resigned)

    def abandoned(self, game: GameRecord) -> Iterator[Call]:
        yield ("abandoned", game.number)

    def end_match(self, match: MatchFile) -> Iterator[Call]:
        yield ("end_match", len(match.games))


def test_the_walk_calls_the_visitor_in_the_files_order() -> None:
    calls = list(walk(read_mat(SMALL), Recorder()))
    assert calls == [
        ("begin_match", ("Alice", "Bob")),
        ("begin_game", 1),
        ("visit_play", 1, "play", 5, True, False, "8/5 6/5", 0),
        ("visit_cube", 1, "double", 5, False, False),
        ("visit_cube", 1, "pass", 6, False, True),
        ("end_game", 1, True, False),
        ("begin_game", 2),
        ("visit_play", 2, "play", 10, True, False, "24/22 13/8", 1),
        ("visit_play", 2, "play", 11, False, True, "24/18 13/9", 0),
        ("visit_resignation", 2),
        ("end_game", 2, False, True),
        ("end_match", 2),
    ]


def test_the_walk_is_lazy() -> None:
    # The demo draws the first shots while the director walks on: nothing runs before it is asked.
    walked = walk(read_mat(SMALL), Recorder())
    assert next(walked) == ("begin_match", ("Alice", "Bob"))
    assert next(walked) == ("begin_game", 1)


class Boards(MatchVisitor[str]):
    """The Position ID of the walk's board before each play, its player on roll."""

    def visit_play(self, entry: Entry, move: Move) -> Iterator[str]:
        yield move.before.to_position_id()


def boards_by_hand(match: MatchFile) -> list[str]:
    """The same boards folded here, play by play, without the walk."""
    found: list[str] = []
    for game in match.games:
        plays = [action for action in game.actions if action.kind == "play"]
        position = Position.initial(turn=plays[0].player) if plays else Position.initial()
        for action in plays:
            assert action.dice is not None
            if position.turn != action.player:
                position = position.swap()
            found.append(position.to_position_id())
            play = Play.from_notation(action.play, position, Dice(*action.dice))
            position = position.apply(play).swap()
    return found


@pytest.mark.parametrize("path", sorted(MATCHES_DIR.glob("*.mat")), ids=lambda p: p.name)
def test_the_walk_hands_every_visitor_the_board_the_file_describes(path: Path) -> None:
    match = read_mat_file(path)
    boards = list(walk(match, Boards()))
    assert boards == boards_by_hand(match)
    assert len(boards) > 20
    # and the rules replay reports those boards
    replayed = replay_records(match, jacoby=False)
    assert [r["position_id"] for r in replayed if r["type"] == "play"] == boards


def test_an_illegal_play_is_made_as_written_when_the_board_allows() -> None:
    # 24/21 with a 5 and a 2 is no legal play, but a checker can be moved so: the referee judges it.
    text = SMALL.replace("52: 13/8 24/22", "52: 13/8 24/21")
    moves: list[Move] = []

    class Moves(MatchVisitor[None]):
        def visit_play(self, entry: Entry, move: Move) -> Iterator[None]:
            moves.append(move)
            yield from ()

    list(walk(read_mat(text), Moves()))
    bob = moves[1]
    assert bob.illegal is not None and bob.play is not None and bob.after is not None
    assert bob.after.mover[20] == 1 and bob.after.mover[23] == 1  # one of two from 24 to 21
    # Alice's play is made on the board as written, with her on roll
    assert moves[2].illegal is None and moves[2].before.turn == 0
    assert moves[2].before.opponent[20] == 1


def test_a_play_that_cannot_be_made_on_the_board_ends_its_game() -> None:
    # No white checker on the 7 point: the game's walk stops; the next game is walked.
    text = SMALL.replace("31: 8/5 6/5", "31: 7/4 6/5")
    calls = [call[0:2] for call in walk(read_mat(text), Recorder())]
    assert calls == [
        ("begin_match", ("Alice", "Bob")),
        ("begin_game", 1),
        ("visit_play", 1),
        ("abandoned", 1),
        ("begin_game", 2),
        ("visit_play", 2),
        ("visit_play", 2),
        ("visit_resignation", 2),
        ("end_game", 2),
        ("end_match", 2),
    ]


def test_a_visitor_abandons_a_game_or_stops_the_walk() -> None:
    class Picky(Recorder):
        def visit_cube(self, entry: Entry) -> Iterator[Call]:
            yield self.entry("visit_cube", entry)
            raise AbandonGame  # the drop of game 1 is never visited

        def begin_game(self, game: GameRecord) -> Iterator[Call]:
            if game.number == 2:
                raise StopWalk
            yield from super().begin_game(game)

    calls = [call[0:3] for call in walk(read_mat(SMALL), Picky())]
    assert calls == [
        ("begin_match", ("Alice", "Bob")),
        ("begin_game", 1),
        ("visit_play", 1, "play"),
        ("visit_cube", 1, "double"),
        ("abandoned", 1),
        ("end_match", 2),
    ]


def test_a_game_that_ends_on_the_board_is_no_resignation() -> None:
    board = Position.from_players([0] * 25, [1] + [0] * 24, turn=1)
    ending = Ending(read_mat(SMALL).games[1], board, False)
    assert not ending.resigned  # White has borne off every checker
    assert Ending(read_mat(SMALL).games[1], Position.initial(), False).resigned


def test_the_three_visitors_read_the_small_match_alike() -> None:
    match = read_mat(SMALL)
    records = list(replay_records(match))
    assert [r["type"] for r in records] == [
        "play",
        "cube",
        "cube",
        "game",
        "play",
        "play",
        "game",
        "match",
    ]
    assert records[-1] == {"type": "match", "score": [0, 2]}
    captions = [shot.caption for shot in direct_match(match)]
    assert "game 1: Bob doubles to 2" in captions and "game 1: Alice passes" in captions
    assert captions[-1] == "game 2: Alice resigns a single game"
    names = [type(item).__name__ for item in referee_inputs(match)]
    assert names[-2:] == ["Resign", "ButtonPressed"]
