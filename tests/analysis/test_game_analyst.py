"""Post-game analysis beside the table: reports land in the record after each game, off the loop."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.game_analyst import GameAnalyst
from controller.record.matfile import read_mat
from controller.record.store import Record
from controller.referee import MatchSettings, NewMatch
from controller.sim.director import FAST_TIMING, direct_match
from controller.table.runner import Runner
from controller.table.table import Table
from tests.table.table_testkit import ScriptedReader, act_out

MATCH = Path(__file__).resolve().parents[2] / "controller" / "data" / "demo-3pt.mat"


def test_each_finished_game_is_analysed_and_stored(tmp_path: Path) -> None:
    pytest.importorskip("bgsage", reason="the analysis extra (bgsage) is not installed here")
    match = read_mat(MATCH.read_text())
    record = Record(tmp_path / "record.sqlite")
    analyst = GameAnalyst(record, "0ply")
    assert analyst.status == "available"
    clock = [0.0]
    runner = Runner.resume(record, clock=lambda: clock[0])
    table = Table(ScriptedReader(), runner, on_event=analyst.on_event)
    runner.feed(NewMatch(MatchSettings(players=match.players, length=3, match_id="m")))
    act_out(table, runner, direct_match(match, FAST_TIMING), clock)
    analyst.wait(timeout=240)
    analyst.close()
    assert analyst.saved == 2  # one report after each of the two games
    stored = record.analysis("m")
    assert stored is not None
    assert stored["game"] == 2
    assert stored["level"] == "0ply"
    assert stored["report"]
    record.close()


def test_teaching_matches_get_a_verdict_after_each_decision(tmp_path: Path) -> None:
    pytest.importorskip("bgsage", reason="the analysis extra (bgsage) is not installed here")
    match = read_mat(MATCH.read_text())
    record = Record(tmp_path / "record.sqlite")
    analyst = GameAnalyst(record, "0ply")
    clock = [0.0]
    runner = Runner.resume(record, clock=lambda: clock[0])
    table = Table(ScriptedReader(), runner, on_event=analyst.on_event)
    settings = MatchSettings(players=match.players, length=3, match_id="t", policy="teaching")
    runner.feed(NewMatch(settings))
    assert analyst.is_teaching("t")
    act_out(table, runner, list(direct_match(match, FAST_TIMING))[:20], clock)  # game 1 begins
    plays = sum(e.type == "play" for e in record.events("t"))
    analyst.wait(timeout=240)
    analyst.close()
    assert plays >= 2
    assert analyst.saved == plays  # one verdict after each play, while game 1 goes on
    stored = record.analysis("t")
    assert stored is not None and stored["game"] == 1 and stored["policy"] == "teaching"
    record.close()
