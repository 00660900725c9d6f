"""Whole real matches (GNU Backgammon self-play .mat files) driven through the referee as a board."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from referee_testkit import match_inputs, match_paths, of_type, run

from controller.record.matfile import MatchFile, read_mat
from controller.record.rules_replay import replay_records
from controller.referee import Referee
from controller.referee.fold import RefereeState, fold
from controller.rules import Dice, Play, Position
from web.state import check_state

PATHS = match_paths()
pytestmark = pytest.mark.skipif(not PATHS, reason="the shared .mat matches are not present")


def _expected_plays(match: MatchFile) -> list[tuple[int, int, tuple[int, int], str]]:
    """(game, player, dice, play in our notation) for every play of the file."""
    plays = []
    for game in match.games:
        position = Position.initial()
        for action in game.actions:
            if action.kind != "play":
                continue
            assert action.dice is not None
            before = Position.from_players(*position.by_player(), turn=action.player)
            play = Play.from_notation(action.play, before, Dice(*action.dice))
            plays.append(
                (game.number, action.player, (max(action.dice), min(action.dice)), str(play))
            )
            position = before.apply(play)
    return plays


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_real_match_gives_the_files_results_and_score(path: Path) -> None:
    match = read_mat(path.read_text())
    referee = Referee(clock=lambda: 0.0)
    events = run(referee, match_inputs(match))
    results = [(e.data["winner"], e.data["points"]) for e in of_type(events, "game_won")]
    assert results == [(game.winner, game.points) for game in match.games]
    assert tuple(referee.score) == match.final_score
    assert not list(of_type(events, "illegal_play", "board_mismatch", "cube_refused"))
    plays = [
        (e.data["player"], tuple(e.data["dice"]), e.data["play"]) for e in of_type(events, "play")
    ]
    assert plays == [(player, dice, play) for _, player, dice, play in _expected_plays(match)]
    won = list(of_type(events, "match_won"))
    if max(match.final_score) >= match.length:
        assert [e.data["winner"] for e in won] == [match.final_score.index(max(match.final_score))]


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_noise_and_one_checker_at_a_time_change_nothing(path: Path) -> None:
    match = read_mat(path.read_text())
    plain = run(Referee(clock=lambda: 0.0), match_inputs(match))
    noisy = run(
        Referee(clock=lambda: 0.0), match_inputs(match, one_at_a_time=0.7, with_noise=True, seed=3)
    )
    assert [(e.type, e.data) for e in noisy] == [(e.type, e.data) for e in plain]


def test_every_snapshot_fits_the_panel_and_the_fold_equals_the_live_state() -> None:
    match = read_mat(PATHS[1].read_text())
    referee = Referee(clock=lambda: 0.0)
    events = []
    for index, item in enumerate(match_inputs(match)):
        events.extend(e.event for e in referee.handle(item) if hasattr(e, "event"))
        live = referee.snapshot()
        check_state(live)
        if index % 7 == 0:
            resumed = Referee.from_events(events, clock=_no_clock)
            assert resumed.state == referee.state, f"state after input {index} differs when folded"
            rebuilt = resumed.snapshot()
            for transient in ("message", "lights"):
                live.pop(transient)
                rebuilt.pop(transient)
            assert rebuilt == live, f"state after input {index} differs when rebuilt from the log"
    # The fold alone, without a referee, gives the state living the match gave.
    assert functools.reduce(fold, events, RefereeState()) == referee.state
    assert referee.state.winner is not None and len(referee.state.games) == len(match.games)


def _no_clock() -> float:
    """Folding reads the events' recorded times, never the clock (a match without a clock)."""
    raise AssertionError("the fold read the clock")


def test_play_events_carry_gnubg_ids_before_the_play() -> None:
    match = read_mat(PATHS[0].read_text())
    events = run(Referee(clock=lambda: 0.0), match_inputs(match))
    first = next(of_type(events, "play"))
    assert first.data["position_id"] == "4HPwATDgc/ABMA"
    assert len(first.data["match_id"]) == 12
    second = list(of_type(events, "play"))[1]
    assert (
        second.data["position_id"]
        == Position.from_position_id(first.data["result_id"]).swap().to_position_id()
    )


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_the_referee_records_what_the_match_file_replay_reports(path: Path) -> None:
    """Over the board or from the file, the same plays, IDs, cube actions and results."""
    match = read_mat(path.read_text())
    events = run(Referee(clock=lambda: 0.0), match_inputs(match))
    from_file = list(replay_records(match))
    plays = [
        (r["game"], r["player"], r["play"], r["position_id"], r["match_id"])
        for r in from_file
        if r["type"] == "play"
    ]
    game = 0
    recorded_plays = []
    for event in events:
        if event.type == "game_started":
            game = event.data["game"]
        elif event.type == "play":
            data = event.data
            recorded_plays.append(
                (game, data["player"], data["play"], data["position_id"], data["match_id"])
            )
    assert recorded_plays == plays
    cube = [(r["player"], r["action"]) for r in from_file if r["type"] == "cube"]
    actions = {"cube_offered": "double", "cube_taken": "take", "cube_passed": "pass"}
    assert [(e.data["player"], actions[e.type]) for e in of_type(events, *actions)] == cube
    games = [(r["winner"], r["points"]) for r in from_file if r["type"] == "game"]
    assert [(e.data["winner"], e.data["points"]) for e in of_type(events, "game_won")] == games
