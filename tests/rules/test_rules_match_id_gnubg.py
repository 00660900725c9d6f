"""The Match ID while a resignation or a double is pending, settled against GNU Backgammon itself.

gnubg's Python package runs its command interpreter in process: a state is set with
``set gnubgid``, a player resigns (or doubles, then the doubled player resigns) with gnubg's own
commands, and the Match ID gnubg then reports must be the one :meth:`MatchState.to_match_info`
builds and the referee's :func:`match_id_of` passes on.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from controller.referee.judge import match_id_of
from controller.rules.match import MatchState

gnubg: Any = pytest.importorskip(
    "gnubg", reason="the gnubg reference package is not installed (x86-64 wheels only)"
)

pytestmark = pytest.mark.gnubg

START = "4HPwATDgc/ABMA"
LEVEL_WORDS = {1: "single", 2: "gammon", 3: "backgammon"}

STATES = {
    "7-point, White on roll before rolling": (MatchState.new_match(7), 0, (0, 0)),
    "7-point, White rolled 3-1": (MatchState.new_match(7), 0, (3, 1)),
    "7-point 2-3, Black rolled 5-2, cube 2 White's": (
        MatchState(length=7, score=(2, 3), cube_value=2, cube_owner=0, jacoby=False),
        1,
        (5, 2),
    ),
    "5-point Crawford game, White on roll": (
        MatchState(length=5, score=(4, 2), is_crawford_game=True, crawford_done=True, jacoby=False),
        0,
        (0, 0),
    ),
    "money, White rolled 2-1": (MatchState.new_money(), 0, (2, 1)),
    "money, Black rolled 6-4, cube 4 Black's": (
        MatchState(length=0, cube_value=4, cube_owner=1, jacoby=False),
        1,
        (6, 4),
    ),
}


@pytest.fixture(scope="module", autouse=True)
def _two_human_players() -> Iterator[None]:
    # Humans and no automatic roll, so that gnubg waits for commands instead of playing or
    # rolling (it rolls by itself where no double is possible); one thread, or it may hang.
    for command in ("set threads 1", "set confirm new off", "set automatic roll off"):
        gnubg.command(command)
    gnubg.command("set player 0 human")
    gnubg.command("set player 1 human")
    yield
    # gnubg's own defaults again, for later gnubg tests in this process
    gnubg.command("set player 0 gnubg")
    gnubg.command("set automatic roll on")


def _set(state: MatchState, match_id: str) -> None:
    gnubg.command(f"new match {state.length}" if state.length else "new session")
    gnubg.command(f"set gnubgid {START}:{match_id}")


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("name", list(STATES))
def test_a_resignation_gives_gnubgs_match_id(name: str, level: int) -> None:
    state, on_roll, dice = STATES[name]
    before = state.to_match_info(on_roll, dice).to_match_id()
    _set(state, before)
    assert gnubg.matchid() == before, "gnubg did not take the state as set"

    gnubg.command(f"resign {LEVEL_WORDS[level]}")
    theirs = gnubg.matchid()
    assert gnubg.posinfo()["resigned"] == level
    assert state.to_match_info(on_roll, dice, resigned=level).to_match_id() == theirs
    assert match_id_of(state, on_roll, dice if dice != (0, 0) else None, level) == theirs

    gnubg.command("reject")
    assert gnubg.matchid() == before == match_id_of(state, on_roll, dice or None)


def test_the_doubled_player_resigning_gives_gnubgs_match_id() -> None:
    centred = MatchState(length=7, score=(1, 1), jacoby=False)
    _set(centred, centred.to_match_info(0).to_match_id())
    gnubg.command("double")
    offered = MatchState(length=7, score=(1, 1), offered_by=0, jacoby=False)
    assert gnubg.matchid() == match_id_of(offered, 0, None)

    gnubg.command("resign single")
    theirs = gnubg.matchid()
    # gnubg keeps the double marked and hands the turn back to the doubler, who must answer
    assert gnubg.posinfo()["doubled"] == 1 and gnubg.posinfo()["turn"] == 0
    assert match_id_of(offered, 0, None, 1) == theirs
    assert match_id_of(offered, 0, None, 1, resigner=1) == theirs


def test_a_resignation_by_the_player_not_to_act_names_the_resigner() -> None:
    state = MatchState.new_match(7)
    # Black resigns while White is on roll: Black's opponent, White, must answer.
    by_black = state.to_match_info(0, (3, 1), resigned=1, resigner=1)
    assert by_black.turn == 0 and by_black.player_on_roll == 0 and by_black.resigned == 1
    by_white = state.to_match_info(0, (3, 1), resigned=1)
    assert by_white.turn == 1
