"""End to end: a real match rendered as camera frames, read by vision, refereed, recorded, exported.

``sheshbesh demo --match FILE --speed max --no-panel`` runs in its own process exactly as outside tools
call it; the test then checks its last JSON line, every recorded play, the panel's JSON API over the
resumed record, and the exported ``.mat`` against the source match.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from controller.record.matfile import read_mat
from controller.record.rules_replay import replay_records
from controller.record.store import Record
from controller.table.runner import Runner

ROOT = Path(__file__).resolve().parents[2]
MATCH = ROOT / "controller" / "data" / "demo-3pt.mat"

pytestmark = pytest.mark.slow


def _expected(text: str) -> tuple[list[dict[str, Any]], list[int], list[tuple[Any, ...]]]:
    records = list(replay_records(read_mat(text)))
    games = [
        {k: r[k] for k in ("game", "winner", "points")} for r in records if r["type"] == "game"
    ]
    score = next(r for r in records if r["type"] == "match")["score"]
    plays = [(r["game"], r["player"], r["dice"], r["play"]) for r in records if r["type"] == "play"]
    return games, score, plays


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    folder = tmp_path_factory.mktemp("demo")
    db = folder / "record.sqlite"
    command = [
        sys.executable, "-m", "controller.cli", "demo",
        "--match", str(MATCH), "--speed", "max", "--no-panel", "--db", str(db),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=1500, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    last = done.stdout.strip().splitlines()[-1]
    return json.loads(last), db


def test_last_line_gives_each_game_and_the_final_score(
    demo_run: tuple[dict[str, Any], Path],
) -> None:
    result, _ = demo_run
    games, score, _ = _expected(MATCH.read_text())
    assert result["games"] == games
    assert result["score"] == score


def test_every_play_equals_the_match_file(demo_run: tuple[dict[str, Any], Path]) -> None:
    _, db = demo_run
    _, _, plays = _expected(MATCH.read_text())
    with Record(db) as record:
        match_id = record.current_match
        assert match_id is not None
        events = record.events(match_id)
    games = [e for e in events if e.type == "game_started"]
    recorded = []
    for event in events:
        if event.type == "play":
            game = sum(1 for g in games if g.sequence < event.sequence)
            recorded.append((game, event.data["player"], event.data["dice"], event.data["play"]))
    assert recorded == plays
    assert not [e for e in events if e.type == "illegal_play"]


def test_panel_api_shows_the_final_score(demo_run: tuple[dict[str, Any], Path]) -> None:
    from web import create_app
    from web.hub import PanelHub

    _, db = demo_run
    _, score, _ = _expected(MATCH.read_text())
    hub = PanelHub()
    with Record(db) as record:
        runner = Runner.resume(record, clock=lambda: 0.0, panels=[hub])
        hub.publish(runner.referee.snapshot())
        store: Any = record
        client = create_app({"TESTING": True}, hub=hub, store=store).test_client()
        state = client.get("/api/state").get_json()["state"]
        listed = client.get("/api/matches").get_json()["matches"]
    assert state["match"]["score"] == score
    assert listed[0]["score"] == score


def test_exported_mat_equals_the_source_plays(demo_run: tuple[dict[str, Any], Path]) -> None:
    _, db = demo_run
    with Record(db) as record:
        match_id = record.current_match
        assert match_id is not None
        exported = record.export_mat(match_id)
    assert _expected(exported) == _expected(MATCH.read_text())
