"""``sheshbesh demo --broker URL --table NAME`` plays the match the room's director assigned the
table: the real demo process (rendered frames, vision, referee, record), a real mosquitto and the
real hub; the assignment is the hub's retained command, as ``sheshbesh run`` receives it."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from controller.network.director import DirectorInbox
from controller.network.hub import Hub
from controller.network.mirror import Mirror
from controller.network.options import demo_assignment
from tests.network.roomkit import MOSQUITTO, Broker, wait_for

#: A 1-point match that a demo acts out in seconds: two plays, then Bo resigns.
SHORT_MATCH = """ 1 point match

 Game 1
 Ada : 0                        Bo : 0
  1) 31: 8/5 6/5                 42: 13/11 13/9
  2) 65: 24/13
      Wins 1 point
"""


def _demo(broker: Broker, match: Path, db: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable, "-m", "controller.cli", "demo", "--match", str(match),
            "--speed", "max", "--no-panel", "--broker", broker.url, "--table", "t1",
            "--db", str(db),
        ],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip


def _matches(db: Path) -> list[dict[str, Any]]:
    connection = sqlite3.connect(db)
    try:
        rows = connection.execute(
            "SELECT data FROM events WHERE type = 'match_started' ORDER BY sequence"
        ).fetchall()
    finally:
        connection.close()
    return [json.loads(row[0]) for row in rows]


@pytest.mark.slow
@pytest.mark.skipif(MOSQUITTO is None, reason="mosquitto is not installed")
def test_demo_plays_the_directors_assignment_once(tmp_path: Path) -> None:
    match = tmp_path / "short.mat"
    match.write_text(SHORT_MATCH)
    db = tmp_path / "t1.sqlite"
    with Broker(tmp_path / "broker") as broker:
        hub = Hub(broker.url, Mirror(str(tmp_path / "hub.sqlite"))).start()
        try:
            wait_for(lambda: hub.is_connected, 20, "the hub connected")
            assigned = hub.assign(
                "t1",
                {"players": ["Dana", "Eli"], "length": 1, "policy": "teaching", "hints": True},
            )
            done = _demo(broker, match, db)
            assert done.returncode == 0, done.stderr
            lines = done.stdout.strip().splitlines()
            assert f"playing the director's assignment {assigned}" in lines
            result = json.loads(lines[-1])
            assert result["score"] == [1, 0]
            started = _matches(db)
            assert [m["id"] for m in started] == [assigned]
            assert started[0]["players"] == ["Dana", "Eli"]
            assert started[0]["length"] == 1 and started[0]["policy"] == "teaching"
            # The hub holds the assigned match, played to its end, under the director's names.
            wait_for(
                lambda: (hub.mirror.summary("t1") or {}).get("finished") is True,
                30,
                "the hub to hold the finished match",
            )
            summary = hub.mirror.summary("t1")
            assert summary is not None
            assert summary["match"] == assigned and summary["players"] == ["Dana", "Eli"]
            assert summary["score"] == [1, 0]
            # The broker still holds the retained assignment: a second demo on the same record
            # does not play it again, but its own match.
            again = _demo(broker, match, db)
            assert again.returncode == 0, again.stderr
            assert "playing the director's assignment" not in again.stdout
            started = _matches(db)
            assert started[0]["id"] == assigned and len(started) == 2
            assert started[1]["players"] == ["Ada", "Bo"]
            # An assignment the match file cannot act out is refused in one line; the file's
            # own match is played.
            refused = hub.assign("t1", {"players": ["Fay", "Gus"], "length": 3})
            other = _demo(broker, match, tmp_path / "other.sqlite")
            assert other.returncode == 0, other.stderr
            assert (
                f"the director's assignment {refused} is a 3-point match, and the match file is"
                " 1-point" in other.stderr
            )
            assert [m["players"] for m in _matches(tmp_path / "other.sqlite")] == [["Ada", "Bo"]]
        finally:
            hub.close()


class _Link:
    """Stands in for a link that never joins the room."""

    def wait_until_subscribed(self, timeout: float) -> bool:
        return False


class _Record:
    def matches(self) -> list[dict[str, Any]]:
        return []


def test_a_demo_whose_broker_never_answers_plays_its_own_match(
    capsys: pytest.CaptureFixture[str],
) -> None:
    inbox = DirectorInbox()
    inbox.command({"action": "assign", "id": "a1", "settings": {"players": ["A", "B"]}})
    assert demo_assignment(_Link(), inbox, _Record(), 7, join_wait=0.01) is None
    assert "did not answer within 0.01 s" in capsys.readouterr().err
    assert demo_assignment(None, inbox, _Record(), 7) is None  # not in a room
