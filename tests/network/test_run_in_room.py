"""``sheshbesh run --broker URL --table NAME`` on a folder of frames: the record reaches the hub.

The real command in its own process (camera = rendered frames, vision, referee, record), the room
named in its config's ``[network]`` section, the hub in this process over a real mosquitto. When
the frames end, the hub holds exactly the table's record.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from controller.network.hub import Hub
from controller.network.mirror import Mirror
from controller.record.matfile import read_mat
from controller.sim.demo import write_frames
from tests.network.roomkit import MOSQUITTO, Broker, wait_for

ROOT = Path(__file__).resolve().parents[2]
MATCH = ROOT / "controller" / "data" / "demo-3pt.mat"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(MOSQUITTO is None, reason="mosquitto is not installed"),
]


def test_run_publishes_its_record_to_the_room(tmp_path: Path) -> None:
    match = read_mat(MATCH.read_text())
    frames = tmp_path / "frames"
    calibration = write_frames(match, frames, shots=slice(0, 14))
    db = tmp_path / "record.sqlite"
    config = tmp_path / "sheshbesh.toml"
    with Broker(tmp_path / "broker") as broker:
        config.write_text(
            '[match]\nplayers = ["Alice", "Bob"]\nlength = 3\n'
            f'[record]\nlog = "{tmp_path / "run.log"}"\nexports = "{tmp_path / "exports"}"\n'
            f'[network]\nbroker = "{broker.url}"\nroom = "club"\n'
        )
        with Hub(broker.url, Mirror(str(tmp_path / "hub.sqlite")), room="club") as hub:
            command = [
                sys.executable, "-m", "controller.cli", "run", "--config", str(config),
                "--camera", str(frames), "--calibration", str(calibration), "--db", str(db),
                "--no-panel", "--table", "board-7",
            ]  # fmt: skip
            done = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=ROOT)
            assert done.returncode == 0, done.stderr[-3000:]
            assert "not acknowledged" not in done.stderr
            with sqlite3.connect(db) as connection:
                own = connection.execute(
                    "SELECT sequence, type, data FROM events ORDER BY sequence"
                ).fetchall()
            assert any(kind == "play" for _, kind, _ in own)
            mirrored = [(e.sequence, e.type) for e in hub.mirror.events("board-7")]
            assert mirrored == [(sequence, kind) for sequence, kind, _ in own]
            summary = hub.mirror.summary("board-7")
            assert summary is not None and summary["players"] == ["Alice", "Bob"]
            # The table said goodbye when it stopped.
            wait_for(lambda: not hub.tables()[0]["online"], 10, "the table's goodbye")
