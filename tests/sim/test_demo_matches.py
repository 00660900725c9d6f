"""``sheshbesh demo --match FILE`` takes the files ``sheshbesh replay`` takes, and plays them through.

A match the demo cannot act out (an illegal play in the file) is one line on stderr naming the
game, the line and the move, never a traceback; a match GNU Backgammon played, tall stacks and
all, ends with the file's own final score.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from controller.commands.replay import replay_file
from controller.record.matfile import read_mat
from controller.record.rules_replay import replay_records
from controller.sim.director import DirectorError, check_match
from tests.shared_data import MATCHES_DIR

ROOT = Path(__file__).resolve().parents[2]
TALL_MATCHES = ROOT / "tests" / "data" / "tall-stacks"
ILLEGAL = (
    " 3 point match\n\n Game 1\n Ann : 0                      Bob : 0\n"
    "  1) 31: 8/5 6/5                  42: 8/4 6/4\n"
    "  2) 66: 24/18 24/18 13/7 13/7    21: 13/11 6/5\n"
    "  3) 54: 8/3 7/3                  55: 8/3 8/3 6/1 6/1\n"
    "  4) 62: 18/10                    11: 24/23 24/23\n"
)


def demo(path: Path, *more: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "controller.cli", "demo", "--match", str(path)]
    return subprocess.run(
        [*command, "--speed", "max", "--no-panel", *more],
        capture_output=True,
        text=True,
        timeout=3600,
        cwd=ROOT,
        check=False,
    )


def test_a_play_the_demo_cannot_act_out_is_one_line_naming_game_line_and_move(
    tmp_path: Path,
) -> None:
    path = tmp_path / "illegal.mat"
    path.write_text(ILLEGAL)
    done = demo(path, "--db", str(tmp_path / "record.sqlite"))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    # Bob plays two of the four 1s when he could play all four
    assert "game 1, line 8: Bob's 11: 24/23 24/23 is no legal play" in lines[0]
    assert str(path) in lines[0]


@pytest.mark.parametrize(
    "path",
    [*sorted(MATCHES_DIR.glob("*.mat")), *sorted(TALL_MATCHES.glob("*.mat")), None],
    ids=lambda p: "illegal" if p is None else p.name,
)
def test_demo_and_replay_accept_the_same_files(path: Path | None, tmp_path: Path) -> None:
    if path is None:
        path = tmp_path / "illegal.mat"
        path.write_text(ILLEGAL)
    replayed = replay_file(path, False, io.StringIO(), io.StringIO(), rules_only=True)
    try:
        check_match(read_mat(path.read_text()))
        acted = 0
    except DirectorError:
        acted = 1
    assert acted == replayed


@pytest.mark.slow
def test_a_gnubg_match_with_twelve_on_a_point_plays_through_to_its_score(
    tmp_path: Path,
) -> None:
    # GNU Backgammon, noisy play: 12 checkers on one point and 6 on the bar at times
    path = TALL_MATCHES / "gnubg-3pt-noisy-seed5023.mat"
    done = demo(path, "--db", str(tmp_path / "record.sqlite"))
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    records = list(replay_records(read_mat(path.read_text())))
    expected = next(r for r in records if r["type"] == "match")["score"]
    games = [
        {k: r[k] for k in ("game", "winner", "points")} for r in records if r["type"] == "game"
    ]
    assert result["score"] == expected
    assert result["games"] == games
