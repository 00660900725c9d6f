"""The panel's status follows the devices as they change: a lost camera shows at once."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.robustness.conftest import ROOT


def test_a_lost_camera_shows_on_the_panel(tmp_path: Path, calibration: Path) -> None:
    config = tmp_path / "run.toml"
    config.write_text(
        f'[record]\nlog = "{tmp_path / "run.log"}"\nexports = "{tmp_path / "exports"}"\n'
        '[lights]\nkind = "none"\n[analysis]\nenabled = false\n'
    )
    command = [
        sys.executable, "-m", "controller.cli", "run", "--config", str(config),
        "--camera", str(tmp_path / "no-such-camera"), "--calibration", str(calibration),
        "--db", str(tmp_path / "record.sqlite"), "--port", "0",
        "--reconnect-seconds", "0.2", "--give-up-after", "60",
    ]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        assert process.stdout is not None
        url = ""
        for raw in process.stdout:
            line = raw.decode()
            if line.startswith("panel: "):
                url = line.removeprefix("panel: ").strip()
                break
        assert url, process.stderr.read().decode() if process.stderr else ""
        status: dict[str, str] = {}
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with urllib.request.urlopen(url + "api/state", timeout=5) as response:
                status = json.load(response)["state"]["status"]
            if status.get("camera") == "lost":
                break
            time.sleep(0.1)
        assert status["camera"] == "lost" and status["leds"] == "none"
    finally:
        process.terminate()
        process.wait(timeout=30)
