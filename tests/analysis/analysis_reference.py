"""GNU Backgammon as the reference for the analysis tests (x86-64 only; never a run-time need).

Cube decisions are reachable only through gnubg's command interpreter, whose output goes to the
process's file descriptor 1, so :func:`capture` redirects that descriptor around each command.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from controller.analysis.engine import Analyser, CubeEquities
from controller.analysis.match import Turn
from controller.analysis.verdicts import proper_action
from controller.rules.position import Play, Position

_CUBE_LINE = re.compile(r"^\s*\d\.\s+(.+?)\s{2,}([+-]\d+\.\d+)", re.MULTILINE)
_PROPER = re.compile(r"^Proper cube action:\s*(.+?)\s*(?:\(.*\))?\s*$", re.MULTILINE)
_MOVE_LINE = re.compile(
    r"^\s*\d+\.\s+Cube\w+\s+\S+\s+(.*?)\s+Eq\.:\s*([+-]?\d+\.\d+)", re.MULTILINE
)


def _gnubg() -> Any:
    import gnubg

    return gnubg


def capture(command: str) -> str:
    """Run one gnubg command and return what it printed."""
    gnubg = _gnubg()
    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 1)
        try:
            gnubg.command(command)
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)
        sink.seek(0)
        return sink.read().decode("utf-8", errors="replace")


def set_up(plies: int = 0) -> None:
    """One thread (``hint`` hangs without it), the evaluation depth for both kinds of hint."""
    capture("set threads 1")
    capture(f"set evaluation chequerplay evaluation plies {plies}")
    capture(f"set evaluation cubedecision evaluation plies {plies}")


def match_id(turn: Turn, dice: tuple[int, int] | None = None) -> str:
    """gnubg's Match ID for ``turn`` (player numbers and scores map one to one)."""
    gnubg = _gnubg()
    context = turn.context if dice is None else turn.play_context
    owner = -1 if context.cube_owner is None else context.cube_owner
    cube = gnubg.cubeinfo(
        context.cube_value,
        owner,
        turn.player,
        context.length,
        context.score,
        int(context.crawford_game),
        0,
    )
    position = gnubg.posinfo(turn.player, 0, 0, 1, dice or (0, 0))
    text = str(gnubg.matchid(cube, position))
    if context.is_money:
        # The last character holds bit 66, "Jacoby off"; gnubg's beavers are a global setting.
        text = text[:-1] + ("A" if context.jacoby else "E")
        capture(f"set beavers {1 if context.beavers else 0}")
    return text


@dataclass(frozen=True, slots=True)
class CubeHint:
    no_double: float
    double_take: float
    double_pass: float
    proper_action: str


def normalise_action(text: str) -> str:
    """gnubg's words for a cube action in ours: ``Too good to redouble, pass`` -> ``too good, pass``."""
    words = text.lower().replace("redouble", "double")
    words = words.replace("too good to double", "too good")
    return words.strip()


def cube_hint(position_id: str, turn: Turn) -> CubeHint | None:
    """gnubg's cube equities and proper action, or None when gnubg says there is no cube decision."""
    capture(f"set gnubgid {position_id}:{match_id(turn)}")
    text = capture("hint")
    values: dict[str, float] = {}
    for label, value in _CUBE_LINE.findall(text):
        key = normalise_action(label)
        if key.startswith("no double"):
            values["nd"] = float(value)
        elif key.endswith("take") or key.endswith("beaver"):
            values["dt"] = float(value)
        elif key.endswith("pass"):
            values["dp"] = float(value)
    proper = _PROPER.search(text)
    if proper is None or len(values) != 3:
        return None
    return CubeHint(values["nd"], values["dt"], values["dp"], normalise_action(proper.group(1)))


def play_hint(position_id: str, turn: Turn) -> list[tuple[Position, str, float]]:
    """gnubg's ranking of the plays for ``turn.dice``: (result, notation, equity), best first."""
    assert turn.dice is not None
    capture(f"set gnubgid {position_id}:{match_id(turn, turn.dice)}")
    text = capture("hint 500")
    before = Position(turn.sides[1], turn.sides[0], turn.player)
    ranking = []
    for notation, equity in _MOVE_LINE.findall(text):
        play = Play.from_notation(notation, before, turn.dice)
        ranking.append((before.apply(play), notation, float(equity)))
    return ranking


@dataclass(frozen=True, slots=True)
class CubeComparison:
    turn: Turn
    ours: CubeEquities
    ours_action: str
    theirs: CubeHint

    @property
    def agrees(self) -> bool:
        return self.ours_action == self.theirs.proper_action

    @property
    def no_double_gap(self) -> float:
        return abs(self.ours.no_double - self.theirs.no_double)

    @property
    def double_take_gap(self) -> float:
        return abs(self.ours.double_take - self.theirs.double_take)


@dataclass(frozen=True, slots=True)
class PlayComparison:
    turn: Turn
    choices: int
    same_best: bool
    our_loss: float  # the player's play, judged by our engine
    their_loss: float  # the same play, judged by gnubg
    our_best_judged_by_them: float  # what gnubg thinks our best play gives away
    our_best: str
    their_best: str


def compare_cube(analyser: Analyser, turns: Sequence[Turn]) -> list[CubeComparison]:
    """Our engine and gnubg on every turn with a cube decision."""
    found = []
    for turn in turns:
        view = turn.context.for_player(turn.player)
        if not (turn.may_double and view.may_double):
            continue
        hint = cube_hint(turn.position_id, turn)
        assert hint is not None, f"gnubg gave no cube hint for {turn.position_id}"
        ours = analyser.cube_equities(turn.sides, view)
        found.append(CubeComparison(turn, ours, proper_action(ours), hint))
    return found


def compare_plays(analyser: Analyser, turns: Sequence[Turn]) -> list[PlayComparison]:
    """Our engine and gnubg on every roll with more than one legal play."""
    found = []
    for turn in turns:
        if turn.dice is None or turn.played is None:
            continue
        theirs = play_hint(turn.position_id, turn)
        if len(theirs) <= 1:
            continue
        view = turn.play_context.for_player(turn.player)
        ours = analyser.ranked_plays(turn.sides, turn.dice, view, played=turn.played)
        assert len(ours) == len(theirs), f"{turn.position_id} {turn.dice}: play counts differ"
        played = Position(turn.played[1], turn.played[0], turn.player)
        their_equity = {result: equity for result, _, equity in theirs}
        our_best = Position(ours[0].result[1], ours[0].result[0], turn.player)
        our_played = next(play.equity for play in ours if play.result == turn.played)
        found.append(
            PlayComparison(
                turn=turn,
                choices=len(ours),
                same_best=our_best == theirs[0][0],
                our_loss=ours[0].equity - our_played,
                their_loss=theirs[0][2] - their_equity[played],
                our_best_judged_by_them=theirs[0][2] - their_equity[our_best],
                our_best=ours[0].notation,
                their_best=theirs[0][1],
            )
        )
    return found
