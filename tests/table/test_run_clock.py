"""``sheshbesh run`` records on the wall clock: a new match's events and its id carry the time the
table was switched on, not the time a recording's frames count from (0)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from controller.record.matfile import read_mat
from controller.record.store import Record
from controller.sim.demo import write_frames

ROOT = Path(__file__).resolve().parents[2]
MATCH = ROOT / "controller" / "data" / "demo-3pt.mat"


def test_a_new_match_starts_on_the_wall_clock(tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    calibration = write_frames(read_mat(MATCH.read_text()), frames, shots=slice(0, 1))
    config = tmp_path / "run.toml"
    config.write_text(f'[record]\nlog = "{tmp_path / "run.log"}"\n[lights]\nkind = "none"\n')
    db = tmp_path / "record.sqlite"
    command = [
        sys.executable, "-m", "controller.cli", "run", "--config", str(config),
        "--camera", str(frames), "--calibration", str(calibration), "--db", str(db),
        "--no-panel", "--frames", "1",
    ]  # fmt: skip
    before = time.time()
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=300, cwd=ROOT, check=False
    )
    after = time.time()
    assert done.returncode == 0, done.stderr
    assert "stopped after 1 frames" in done.stdout
    with Record(db) as record:
        match = record.current_match
        assert match is not None
        events = record.events(match)
    assert events[0].type == "match_started"
    assert all(before <= event.time <= after for event in events), [e.time for e in events]
    assert match.startswith(time.strftime("%Y", time.gmtime(before)))
