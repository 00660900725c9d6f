"""GNU Backgammon / Jellyfish ``.mat`` match files as text: read and write.

A ``.mat`` file is a plain-text transcript. Each game has a header (``Game N`` and the two players
with their scores at its start) and numbered lines with two columns: the left-hand player (player 0,
White) and the right-hand player (player 1, Black). An entry is a roll and its play (``52: 13/8 24/22``,
an empty play for a dance), a cube action (``Doubles => 2``, ``Takes``, ``Drops``, ``Beavers => 4``), or
the result (``Wins 2 points``), written in the winner's column::

     5 point match

     Game 1
     Alice : 0                      Bob : 0
      1)                             52: 13/8 24/22
      2) 62: 24/18 18/16              Doubles => 2
      3)  Takes                      63: 22/16 16/13

:func:`read_mat` and :func:`write_mat` are text only. The reader checks the layout (numbering,
scores from game to game, cube values), keeps every play exactly as written and lists every
problem with its line number; the writer reproduces gnubg's own layout. The rest of the record
package builds on the :class:`MatchFile` read here: :mod:`controller.record.walk` walks it once
with visitors (the rules replay of :mod:`controller.record.rules_replay` is one), and
:mod:`controller.record.export` writes one from the recorded events.

A resignation has no word of its own in the format: the game simply ends with ``Wins N points``
while both sides still have checkers on the board. :func:`write_mat` therefore writes an action of
kind ``"resign"`` as nothing but the result line, as GNU Backgammon does, and the replay reads a
game that ends neither on the board nor by a pass as resigned by the loser.

Example:

>>> match = read_mat(" 1 point match\\n\\n Game 1\\n A : 0   B : 0\\n  1) 31: 8/5 6/5\\n")
>>> match.length, match.players, match.games[0].actions[0].play
(1, ('A', 'B'), '8/5 6/5')
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from sheshbesh.errors import SheshbeshError

__all__ = [
    "ACTION_KINDS",
    "Action",
    "GameRecord",
    "MatFileError",
    "MatchFile",
    "decode_mat",
    "read_mat",
    "read_mat_file",
    "write_mat",
]

#: What an :class:`Action` can be. ``"resign"`` is never read (the format has no word for it).
ACTION_KINDS: Final[frozenset[str]] = frozenset(
    {"play", "double", "take", "pass", "beaver", "resign"}
)

#: The most points a Match ID can hold (15 bits): a longer match or a higher score cannot be
#: refereed, so the reader refuses it rather than failing later in the middle of a replay.
MAX_POINTS: Final = 32767
#: The largest cube a Match ID can hold (its logarithm has 4 bits).
MAX_CUBE: Final = 2**15
#: Problems listed before the reader gives up: past this the file is most likely not a match file
#: at all, and a list of thousands of lines helps nobody (and costs memory).
MAX_PROBLEMS: Final = 50
#: A match file larger than this is refused unread. A long money session is a few hundred kB.
MAX_FILE_BYTES: Final = 16 * 1024 * 1024

_LENGTH_RE: Final = re.compile(r"^\s*(\d+)\s+point\s+match\s*$", re.IGNORECASE)
_GAME_RE: Final = re.compile(r"^\s*Game\s+(\d+)\s*$", re.IGNORECASE)
# gnubg pads "name : score" to 31 characters, so a long first name runs into the second.
_PLAYERS_RE: Final = re.compile(r"^\s*(\S.*?)\s*:\s*(\d+)\s*(\S.*?)\s*:\s*(\d+)\s*$")
_NUMBERED_RE: Final = re.compile(r"^\s*(\d+)\)(.*)$")
_WINS_RE: Final = re.compile(
    r"^\s*Wins\s+(\d+)\s+points?(?:\s+and\s+the\s+match)?\s*$", re.IGNORECASE
)
_ROLL_RE: Final = re.compile(r"^([1-6])([1-6]):$")
# One checker's move: 13/8, 24/18/13, 25/22, bar/22, 6/0, 6/off, with hits (*) and repeats (2).
_MOVE_RE: Final = re.compile(r"^(?:bar|\d{1,2})(?:/(?:\d{1,2}|off)\*?)+(?:\(\d\))?$", re.IGNORECASE)

# Column layout as GNU Backgammon writes it: "%3d) " then the left entry padded to 27 and a space.
_LEFT_WIDTH: Final = 27
_RIGHT_COLUMN: Final = 33
_WINS_INDENT: Final = ("      ", " " * 34)


class MatFileError(SheshbeshError, ValueError):
    """A match file that cannot be read; ``problems`` lists every one, each ``"line N: ..."``."""

    def __init__(self, problems: Iterable[str], source: str = "match file") -> None:
        self.problems: tuple[str, ...] = tuple(problems)
        self.source = source
        count = len(self.problems)
        heading = f"{source}: {count} problem{'s' if count != 1 else ''}"
        super().__init__("\n".join([heading, *self.problems]))


@dataclass(frozen=True, slots=True)
class Action:
    """One entry of a game: a play with its dice, or a cube action.

    ``play`` is the notation exactly as written (empty for a dance); ``cube`` is the cube value a
    ``double`` or ``beaver`` turns it to. ``line`` is where it was read (0 when built in code) and
    takes no part in equality.
    """

    player: int
    kind: str
    dice: tuple[int, int] | None = None
    play: str = ""
    line: int = field(default=0, compare=False)
    cube: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in ACTION_KINDS:
            raise ValueError(f"unknown action kind {self.kind!r}")
        if self.player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, not {self.player!r}")
        if (self.kind == "play") != (self.dice is not None):
            raise ValueError(
                f"a {self.kind!r} action {'needs' if self.kind == 'play' else 'has no'} dice"
            )


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game: its number, the score at its start, its actions, and its result if it ended."""

    number: int
    score: tuple[int, int]
    actions: tuple[Action, ...]
    winner: int | None = None
    points: int = 0
    line: int = field(default=0, compare=False)
    result_line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class MatchFile:
    """A whole match file: length in points (0 = money session), the players, the games."""

    length: int
    players: tuple[str, str]
    games: tuple[GameRecord, ...]
    comments: tuple[str, ...] = ()

    @property
    def final_score(self) -> tuple[int, int]:
        """The score after the last game, as the file tells it."""
        if not self.games:
            return (0, 0)
        last = self.games[-1]
        scores = list(last.score)
        if last.winner is not None:
            scores[last.winner] += last.points
        return (scores[0], scores[1])


@dataclass(slots=True)
class _Entry:
    """A column entry on a numbered line, before its player is known."""

    column: int
    kind: str
    dice: tuple[int, int] | None = None
    moves: list[str] = field(default_factory=list)
    cube: int | None = None
    points: int = 0


@dataclass(slots=True)
class _GameBuilder:
    number: int
    line: int
    score: tuple[int, int] | None = None
    actions: list[Action] = field(default_factory=list)
    winner: int | None = None
    points: int = 0
    result_line: int = 0
    score_line: int = 0
    next_move_number: int = 1
    cube: int = 1


class _Reader:
    def __init__(self) -> None:
        self.problems: list[str] = []
        self.length: int | None = None
        self.players: tuple[str, str] | None = None
        self.comments: list[str] = []
        self.games: list[_GameBuilder] = []

    def problem(self, line: int, message: str) -> None:
        self.problems.append(f"line {line}: {message}")
        if len(self.problems) >= MAX_PROBLEMS - 1:  # the last one says reading stopped
            raise _TooManyProblems(line)

    def read(self, text: str) -> MatchFile:
        try:
            for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
                self.read_line(number, raw.rstrip())
            if self.length is None:
                self.problems.insert(0, "line 1: no 'N point match' line: not a .mat match file")
            elif not self.games and not self.problems:
                self.problems.append("line 1: no 'Game 1' line: the file holds no games")
            games = self.finish_games()
        except _TooManyProblems as stop:
            self.problems.append(
                f"line {stop.line}: {MAX_PROBLEMS} problems so far: reading stopped here"
                " (is this a .mat match file?)"
            )
            raise MatFileError(sorted(self.problems, key=_line_number)) from None
        if self.problems:
            raise MatFileError(sorted(self.problems, key=_line_number))
        assert self.length is not None
        players = self.players or ("", "")
        return MatchFile(self.length, players, games, tuple(self.comments))

    def read_line(self, number: int, line: str) -> None:
        stripped = line.strip()
        if not stripped:
            return
        if stripped.startswith(";"):
            if self.length is None and not self.games:
                self.comments.append(stripped)
            return
        if match := _LENGTH_RE.match(line):
            if self.length is not None:
                self.problem(number, "a second 'point match' line")
            elif self.games:
                self.problem(number, "the 'point match' line must come before the first game")
            self.length = int(match.group(1))
            if self.length > MAX_POINTS:
                self.problem(number, f"a {self.length} point match: at most {MAX_POINTS} points")
                self.length = 0
            return
        if match := _GAME_RE.match(line):
            self.start_game(number, int(match.group(1)))
            return
        game = self.games[-1] if self.games else None
        if game is None:
            self.problem(number, f"{stripped[:40]!r} before the first 'Game' line")
            return
        if game.score is None:
            self.read_players(number, line, game)
            return
        if match := _WINS_RE.match(line):
            indent = len(line) - len(line.lstrip())
            self.set_result(number, game, 1 if indent >= 20 else 0, int(match.group(1)))
            return
        if match := _NUMBERED_RE.match(line):
            self.read_numbered(number, line, match, game)
            return
        self.problem(number, f"cannot read {stripped[:40]!r}")

    def start_game(self, number: int, game_number: int) -> None:
        expected = len(self.games) + 1
        if game_number != expected:
            self.problem(number, f"game {game_number} out of order: expected game {expected}")
        self.games.append(_GameBuilder(game_number, number))

    def read_players(self, number: int, line: str, game: _GameBuilder) -> None:
        match = _PLAYERS_RE.match(line)
        if match is None:
            self.problem(
                number,
                f"expected the players and scores ('Name : 0   Name : 0'), got {line.strip()[:40]!r}",
            )
            game.score = (0, 0)
            game.score_line = number
            return
        names = (match.group(1), match.group(3))
        game.score = (int(match.group(2)), int(match.group(4)))
        game.score_line = number
        if max(game.score) > MAX_POINTS:
            self.problem(number, f"a score of {max(game.score)}: at most {MAX_POINTS} points")
            game.score = (0, 0)
        if self.players is None:
            self.players = names
        elif names != self.players:
            self.problem(
                number,
                f"players {names[0]!r} and {names[1]!r} differ from game 1's {self.players[0]!r} and {self.players[1]!r}",
            )

    def read_numbered(
        self, number: int, line: str, match: re.Match[str], game: _GameBuilder
    ) -> None:
        move_number = int(match.group(1))
        if move_number != game.next_move_number:
            self.problem(
                number, f"move number {move_number} out of order: expected {game.next_move_number}"
            )
        game.next_move_number = move_number + 1
        paren = match.start(2) - 1
        entries = self.tokenize(number, line, match.start(2))
        if entries is None:
            return
        actions = [entry for entry in entries if entry.kind != "wins"]
        if len(actions) > 2:
            self.problem(
                number, f"{len(actions)} entries on one line: at most two (one per player)"
            )
            return
        if len(actions) == 2:
            players = [0, 1]
        elif len(actions) == 1:
            players = [1 if actions[0].column - paren >= 15 else 0]
        else:
            players = []
        for entry, player in zip(actions, players, strict=True):
            self.add_action(number, game, entry, player)
        for entry in entries:
            if entry.kind != "wins":
                continue
            before = [e for e in actions if e.column < entry.column]
            if before:
                winner = 1 - players[actions.index(before[-1])]
            else:
                winner = 1 if entry.column - paren >= 15 else 0
            self.set_result(number, game, winner, entry.points)

    def tokenize(self, number: int, line: str, start: int) -> list[_Entry] | None:
        tokens = [(m.start() + start, m.group()) for m in re.finditer(r"\S+", line[start:])]
        entries: list[_Entry] = []
        index = 0
        while index < len(tokens):
            column, token = tokens[index]
            word = token.lower()
            roll = _ROLL_RE.match(token)
            if roll:
                entry = _Entry(column, "play", dice=(int(roll.group(1)), int(roll.group(2))))
                index += 1
                while index < len(tokens) and _MOVE_RE.match(tokens[index][1]):
                    entry.moves.append(tokens[index][1])
                    index += 1
                entries.append(entry)
                continue
            if word in ("doubles", "beavers"):
                value = self.cube_value(tokens, index)
                if value is None:
                    self.problem(
                        number,
                        f"expected {token!r} to be followed by '=> N' with N a power of two, 2 or more",
                    )
                    return None
                entries.append(
                    _Entry(column, "double" if word == "doubles" else "beaver", cube=value)
                )
                index += 3
                continue
            if word in ("takes", "accepts"):
                entries.append(_Entry(column, "take"))
                index += 1
                continue
            if word in ("drops", "passes", "rejects"):
                entries.append(_Entry(column, "pass"))
                index += 1
                continue
            if word == "wins":
                rest = " ".join(t for _, t in tokens[index:])
                wins = re.match(
                    r"^Wins\s+(\d+)\s+points?(\s+and\s+the\s+match)?$", rest, re.IGNORECASE
                )
                if wins is None or int(wins.group(1)) < 1:
                    self.problem(
                        number, f"expected 'Wins N points' with N at least 1, got {rest!r}"
                    )
                    return None
                entries.append(_Entry(column, "wins", points=int(wins.group(1))))
                break
            if _MOVE_RE.match(token):
                self.problem(
                    number, f"move {token!r} has no roll before it (expected 'DD: {token}')"
                )
            else:
                self.problem(
                    number,
                    f"cannot read {token!r}: expected a roll ('52:'), a move, Doubles, Takes, Drops or Wins",
                )
            return None  # one problem per line: what follows a bad token is guesswork
        return entries

    @staticmethod
    def cube_value(tokens: list[tuple[int, str]], index: int) -> int | None:
        if index + 2 >= len(tokens) or tokens[index + 1][1] != "=>":
            return None
        text = tokens[index + 2][1]
        if not text.isdigit():
            return None
        value = int(text)
        if value < 2 or value & (value - 1) or value > MAX_CUBE:
            return None
        return value

    def add_action(self, number: int, game: _GameBuilder, entry: _Entry, player: int) -> None:
        if game.winner is not None:
            self.problem(
                number,
                f"game {game.number} goes on after its result ('Wins' on line {game.result_line})",
            )
            return
        if entry.kind in ("double", "beaver") and entry.cube is not None:
            if entry.cube != game.cube * 2:
                self.problem(
                    number,
                    f"the cube goes from {game.cube} to {entry.cube}: a double must make it {game.cube * 2}",
                )
            game.cube = entry.cube
        game.actions.append(
            Action(player, entry.kind, entry.dice, " ".join(entry.moves), number, entry.cube)
        )

    def set_result(self, number: int, game: _GameBuilder, winner: int, points: int) -> None:
        if game.winner is not None:
            self.problem(
                number, f"game {game.number} already has its result on line {game.result_line}"
            )
            return
        if points < 1:
            self.problem(number, f"a game is won by 1 point or more, not {points}")
        if points > MAX_POINTS:
            self.problem(number, f"a game won by {points} points: at most {MAX_POINTS}")
            points = 1
        game.winner, game.points, game.result_line = winner, points, number

    def finish_games(self) -> tuple[GameRecord, ...]:
        games: list[GameRecord] = []
        running: tuple[int, int] | None = None
        for index, game in enumerate(self.games):
            score = game.score or (0, 0)
            if game.score is None:
                self.problem(game.line, f"game {game.number} has no players-and-scores line")
            elif running is not None and score != running:
                self.problem(
                    game.score_line,
                    f"game {game.number} starts at {score[0]}-{score[1]}, but the games before "
                    f"it add up to {running[0]}-{running[1]}",
                )
            if game.winner is None and index < len(self.games) - 1:
                self.problem(game.line, f"game {game.number} has no result ('Wins N points')")
            if game.winner is not None:
                scores = list(score)
                scores[game.winner] += game.points
                running = (scores[0], scores[1])
                if max(running) > MAX_POINTS:
                    self.problem(
                        game.result_line,
                        f"game {game.number} brings the score to {max(running)}:"
                        f" at most {MAX_POINTS} points",
                    )
                    running = None
            else:
                running = None
            games.append(
                GameRecord(
                    game.number,
                    score,
                    tuple(game.actions),
                    game.winner,
                    game.points,
                    game.line,
                    game.result_line,
                )
            )
        return tuple(games)


class _TooManyProblems(Exception):
    """Internal: the reader has listed :data:`MAX_PROBLEMS` problems and stops at ``line``."""

    def __init__(self, line: int) -> None:
        super().__init__(line)
        self.line = line


def _line_number(problem: str) -> int:
    """The N of a ``"line N: ..."`` problem, for sorting."""
    return int(problem.split(":", 1)[0].removeprefix("line "))


def read_mat(text: str) -> MatchFile:
    """Parse the text of a ``.mat`` file (a leading byte-order mark is skipped).

    Raises :class:`MatFileError` listing every problem found, each as ``"line N: ..."``; after
    :data:`MAX_PROBLEMS` problems it stops reading and says so.
    """
    return _Reader().read(text)


def decode_mat(data: bytes) -> str:
    """The text of a ``.mat`` file's bytes: UTF-8 (with or without a byte-order mark), else
    Latin-1, the encoding of older Jellyfish and GNU Backgammon files, so ``Zoë`` stays ``Zoë``.

    Raises :class:`MatFileError` for bytes that are no text at all (a NUL byte).

    >>> decode_mat("\ufeff1 point match".encode()), decode_mat("Zoë".encode("latin-1"))
    ('1 point match', 'Zoë')
    """
    if b"\x00" in data:
        offset = data.index(b"\x00")
        line = data.count(b"\n", 0, offset) + 1
        raise MatFileError([f"line {line}: a NUL byte: this is not a text file"])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_mat_file(path: str | os.PathLike[str]) -> MatchFile:
    """Read and parse a ``.mat`` file (see :func:`decode_mat`, :func:`read_mat`).

    A file over :data:`MAX_FILE_BYTES` is refused unread, so memory stays bounded whatever it
    holds. Raises :class:`MatFileError`, and ``OSError`` when the file cannot be read.
    """
    with open(path, "rb") as handle:
        data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise MatFileError(
            [f"line 1: the file is larger than {MAX_FILE_BYTES // 2**20} MiB: not a match file"]
        )
    return read_mat(decode_mat(data))


def _entry_text(action: Action) -> str:
    if action.kind == "play":
        assert action.dice is not None
        moves = action.play.split()
        # gnubg leaves a space after each move of a play shorter than four moves.
        return (
            f"{action.dice[0]}{action.dice[1]}:"
            + "".join(" " + m for m in moves)
            + (" " if len(moves) < 4 else "")
        )
    if action.kind == "double":
        return f" Doubles => {action.cube}"
    if action.kind == "beaver":
        return f" Beavers => {action.cube}"
    if action.kind == "take":
        return " Takes"
    if action.kind == "pass":
        return " Drops"
    return ""


def _wins_text(points: int) -> str:
    return f"Wins {points} point{'s' if points != 1 else ''}"


def _write_game(game: GameRecord, players: tuple[str, str], out: list[str]) -> None:
    out.append(f" Game {game.number}")
    first = f"{players[0]} : {game.score[0]}"
    out.append(f" {first:<31}{' ' if len(first) >= 31 else ''}{players[1]} : {game.score[1]}")
    line = ""  # the numbered line being built; empty when none is open
    move_number = 0
    for action in game.actions:
        if action.kind == "resign":
            continue
        text = _entry_text(action)
        if action.player == 0:
            if line:
                out.append(line)
            move_number += 1
            line = f"{move_number:3d}) {text:<{_LEFT_WIDTH}} "
        else:
            if not line:
                move_number += 1
                line = f"{move_number:3d}) ".ljust(_RIGHT_COLUMN)
            out.append(line + text)
            line = ""
    if game.winner is not None:
        wins = _wins_text(game.points)
        if line and game.winner == 1:
            # After a left-hand entry the winner's column is the right-hand one on the same line;
            # a drop is written this way by gnubg ("Drops" then "Wins" 23 spaces on).
            if game.actions and game.actions[-1].kind == "pass":
                out.append(line.rstrip() + " " * 23 + wins)
            else:
                out.append(line.ljust(_RIGHT_COLUMN) + wins)
        else:
            if line:
                out.append(line)
            out.append(_WINS_INDENT[game.winner] + wins)
    elif line:
        out.append(line)
    out.append("")


def write_mat(match: MatchFile) -> str:
    """Write a match in the ``.mat`` layout GNU Backgammon writes and imports.

    Lines may end in spaces, as gnubg's own do. Raises ``ValueError`` for a player name that
    the format cannot hold (empty, starting with a digit, with a colon or a line break).
    """
    for name in match.players:
        if (
            not name.strip()
            or ":" in name
            or "\n" in name
            or name != name.strip()
            or name[0].isdigit()
        ):
            raise ValueError(f"player name {name!r} cannot be written in a .mat file")
    out: list[str] = []
    for comment in match.comments:
        out.append(comment if comment.startswith(";") else f"; {comment}")
    if match.comments:
        out.append("")
    out.append(f" {match.length} point match")
    out.append("")
    for game in match.games:
        _write_game(game, match.players, out)
    return "\n".join(out) + "\n"
