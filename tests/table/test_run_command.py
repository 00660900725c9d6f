"""``sheshbesh run`` on a folder of frames: a match begins, the process stops, a new one resumes it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from controller.record.matfile import read_mat
from controller.record.store import Record
from controller.sim.demo import write_frames
from vision.capture import load_dataset

ROOT = Path(__file__).resolve().parents[2]
MATCH = ROOT / "controller" / "data" / "demo-3pt.mat"

pytestmark = pytest.mark.slow


def _run(camera: Path, calibration: Path, db: Path, config: Path, *extra: str) -> str:
    command = [
        sys.executable, "-m", "controller.cli", "run", "--config", str(config),
        "--camera", str(camera), "--calibration", str(calibration), "--db", str(db), "--no-panel",
        *extra,
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def _plays(db: Path) -> list[str]:
    with Record(db) as record:
        match = record.current_match
        assert match is not None
        return [e.data["play"] for e in record.events(match) if e.type == "play"]


def test_run_referees_frames_and_resumes_after_a_restart(tmp_path: Path) -> None:
    match = read_mat(MATCH.read_text())
    config = tmp_path / "sheshbesh.toml"
    config.write_text(
        '[match]\nplayers = ["Alice", "Bob"]\nlength = 3\nhints = true\n'
        f'[record]\nlog = "{tmp_path / "run.log"}"\nexports = "{tmp_path / "exports"}"\n'
    )
    # Game 2 of the match: its setup, roll-off and first plays, then the next plays.
    first, second = tmp_path / "first", tmp_path / "second"
    shots = 14  # setup (2) + roll-off (2) + a two-step play (4) + pick-up (2) + next roll (2) ...
    start = next(i for i, s in enumerate(_shot_captions(match)) if s.startswith("game 2"))
    calibration = write_frames(match, first, shots=slice(start, start + shots))
    write_frames(match, second, shots=slice(start + shots, start + shots + 12))
    db = tmp_path / "record.sqlite"
    out = _run(first, calibration, db, config)
    assert "record:" in out
    before = _plays(db)
    assert before[:1] == ["8/3 6/3"]
    captured = tmp_path / "captured"
    out = _run(second, calibration, db, config, "--capture", str(captured))
    assert "resumed the match" in out
    after = _plays(db)
    assert after[: len(before)] == before
    assert len(after) > len(before)
    # every play committed in the second run left its frame, labelled, and the calibration
    labelled = list(load_dataset(captured))
    assert len(labelled) == len(after) - len(before)
    assert (captured / "calibration.json").read_bytes() == calibration.read_bytes()
    _path, image, label = labelled[-1]
    assert image.ndim == 3
    assert sum(label.count(p, "white") for p in label.locations) == 15


def _shot_captions(match: object) -> list[str]:
    from controller.sim.director import FAST_TIMING, direct_match

    return [shot.caption for shot in direct_match(match, FAST_TIMING)]  # type: ignore[arg-type]
