"""The panel's status shows the room's broker as it changes, as it shows the camera: connected
or lost, and how many recorded events the hub does not hold yet. The real ``sheshbesh run`` in
its own process, a real mosquitto killed and started again, the real hub."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from controller.network.hub import Hub
from controller.network.mirror import Mirror
from tests.network.roomkit import MOSQUITTO, Broker
from tests.robustness.conftest import ROOT


def _status(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url + "api/state", timeout=5) as response:
        status: dict[str, Any] = json.load(response)["state"]["status"]
    return status


def _until(url: str, wanted: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
    status: dict[str, Any] = {}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        status = _status(url)
        if wanted(status):
            return status
        time.sleep(0.1)
    raise AssertionError(f"the panel never showed {what}: {status}")


def _page(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        return str(response.read().decode())


@pytest.mark.skipif(MOSQUITTO is None, reason="mosquitto is not installed")
def test_the_rooms_broker_shows_on_the_panel(tmp_path: Path, calibration: Path) -> None:
    config = tmp_path / "run.toml"
    config.write_text(
        f'[record]\nlog = "{tmp_path / "run.log"}"\nexports = "{tmp_path / "exports"}"\n'
        '[lights]\nkind = "none"\n[analysis]\nenabled = false\n'
    )
    with Broker(tmp_path / "broker") as broker:
        command = [
            sys.executable, "-m", "controller.cli", "run", "--config", str(config),
            "--camera", str(tmp_path / "no-such-camera"), "--calibration", str(calibration),
            "--db", str(tmp_path / "record.sqlite"), "--port", "0",
            "--reconnect-seconds", "0.2", "--give-up-after", "120",
            "--broker", broker.url, "--table", "t1",
        ]  # fmt: skip
        process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT
        )
        try:
            assert process.stdout is not None
            url = ""
            for raw in process.stdout:
                line = raw.decode()
                if line.startswith("panel: "):
                    url = line.removeprefix("panel: ").strip()
                    break
            assert url, process.stderr.read().decode() if process.stderr else ""
            # Connected, and no hub yet: the new match's events wait for one.
            status = _until(
                url,
                lambda s: s.get("room") == "ok" and int(s.get("room_queued", 0)) > 0,
                "the broker connected with events waiting",
            )
            waiting = int(status["room_queued"])
            page = _page(url + "board")
            assert "Room:" in page and f"{waiting} not yet at the hub" in page
            # The broker goes away: the panel says so.
            broker.kill()
            _until(url, lambda s: s.get("room") == "lost", "the broker lost")
            assert "Room:" in _page(url + "board")
            # Back, with a hub: everything reaches it and nothing is left waiting.
            broker.start()
            with Hub(broker.url, Mirror(str(tmp_path / "hub.sqlite"))) as hub:
                _until(
                    url,
                    lambda s: s.get("room") == "ok" and s.get("room_queued") == "0",
                    "the broker back and every event at the hub",
                )
                assert len(hub.mirror.events("t1")) == waiting
                assert "not yet at the hub" not in _page(url + "board")
        finally:
            process.terminate()
            process.wait(timeout=30)


def test_a_table_alone_shows_no_room() -> None:
    """Without a broker nothing about a room is shown (the status has no room fields)."""
    from web import create_app
    from web.hub import PanelHub
    from web.state import example_state

    hub = PanelHub()
    state = example_state()
    hub.publish(state)
    page = create_app({"TESTING": True, "SECRET_KEY": "t"}, hub=hub).test_client().get("/board")
    assert "Room:" not in page.get_data(as_text=True)
    state["status"] = {**state["status"], "room": "lost", "room_queued": "3"}
    hub.publish(state)
    page = create_app({"TESTING": True, "SECRET_KEY": "t"}, hub=hub).test_client().get("/board")
    text = page.get_data(as_text=True)
    assert "Room:" in text and "3 not yet at the hub" in text
    client = create_app({"TESTING": True, "SECRET_KEY": "t"}, hub=hub).test_client()
    czech = client.get("/board", headers={"Accept-Language": "cs"}).get_data(as_text=True)
    assert "Sál:" in czech and "ještě nedošlo do centrály: 3" in czech
