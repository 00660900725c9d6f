"""The outside contract, as other tools use it: real processes, a real broker, the HTTP API.

``sheshbesh hub --broker URL --port P`` and three ``sheshbesh demo --match FILE --speed max
--no-panel --broker URL --table NAME`` at once (the whole pipeline: rendered frames, vision,
referee, record); the broker is killed and started again while the matches are played. Then
``GET /api/tables`` lists each table with its final score and as many events as the table's own
record holds, and says the same after the hub itself is restarted over its mirror.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.network.roomkit import MOSQUITTO, Broker, free_port, wait_for
from tests.shared_data import MATCHES_DIR

ROOT = Path(__file__).resolve().parents[2]
MATCHES = [
    MATCHES_DIR / "gnubg-selfplay-1pt-seed11.mat",
    MATCHES_DIR / "gnubg-selfplay-3pt-seed12345.mat",
    ROOT / "controller" / "data" / "demo-3pt.mat",
]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(MOSQUITTO is None, reason="mosquitto is not installed"),
]


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "controller.cli", *args]


def _tables(port: int) -> dict[str, dict[str, Any]]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=5) as response:
        body = json.loads(response.read())
    return {table["name"]: table for table in body["tables"]}


def _start_hub(broker_url: str, port: int, db: Path, log: Path) -> subprocess.Popen[str]:
    hub = subprocess.Popen(
        _command("hub", "--broker", broker_url, "--port", str(port), "--db", str(db)),
        cwd=ROOT,
        stdout=log.open("a"),
        stderr=subprocess.STDOUT,
        text=True,
    )

    def answers() -> bool:
        try:
            _tables(port)
        except OSError:
            assert hub.poll() is None, log.read_text()
            return False
        return True

    wait_for(answers, 30, "the hub's pages")
    return hub


def _stop(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGTERM)
    process.wait(60)  # a loaded machine may take a while to stop a hub


def test_hub_lists_every_demo_table_with_its_score_and_events(tmp_path: Path) -> None:
    with Broker(tmp_path / "broker") as broker:
        port = free_port()
        hub_db = tmp_path / "hub.sqlite"
        hub = _start_hub(broker.url, port, hub_db, tmp_path / "hub.out")
        demos = {
            f"table-{index}": subprocess.Popen(
                _command(
                    "demo", "--match", str(path), "--speed", "max", "--no-panel",
                    "--broker", broker.url, "--table", f"table-{index}",
                ),
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for index, path in enumerate(MATCHES)
        }  # fmt: skip
        try:
            # Every table has reported some of its match: now the broker dies and comes back.
            wait_for(
                lambda: (
                    len(t := _tables(port)) == len(demos)
                    and all(v["events"] >= 20 for v in t.values())
                ),
                600,
                "every table's first events at the hub",
                step=0.5,
            )
            broker.restart()
            outputs = {name: demo.communicate(timeout=1200) for name, demo in demos.items()}
        finally:
            for demo in demos.values():
                if demo.poll() is None:
                    demo.kill()
        results = {}
        for name, (out, err) in outputs.items():
            assert demos[name].returncode == 0, err[-3000:]
            lines = out.strip().splitlines()
            record = next(line.split(": ", 1)[1] for line in lines if line.startswith("record: "))
            with sqlite3.connect(record) as connection:
                count = connection.execute("SELECT COUNT(*) FROM events").fetchone()[0]
            results[name] = (json.loads(lines[-1]), count)

        def matches_the_tables() -> bool:
            tables = _tables(port)
            return all(
                tables[name]["score"] == result["score"] and tables[name]["events"] == count
                for name, (result, count) in results.items()
            )

        wait_for(matches_the_tables, 30, "the hub's figures to equal the tables' records")
        tables = _tables(port)
        for name, (result, count) in results.items():
            assert tables[name]["finished"] is True
            assert tables[name]["length"] == result["length"]
            assert tables[name]["online"] is False  # each demo said goodbye when it ended
            assert count > 50
        _stop(hub)
        # The hub restarted over its own mirror knows the same.
        hub = _start_hub(broker.url, port, hub_db, tmp_path / "hub.out")
        try:
            again = _tables(port)
            for name, (result, count) in results.items():
                assert again[name]["score"] == result["score"]
                assert again[name]["events"] == count
        finally:
            _stop(hub)
