"""The room's pages and JSON over a hub mirror filled from real refereed matches (no broker)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from controller.network.hub import Hub
from controller.network.mirror import Mirror
from tests.network.roomkit import SimulatedTable, fill_mirror
from tests.shared_data import MATCHES_DIR
from web.room import create_room_app


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[SimulatedTable]]:
    """Two tables refereed once for the module: one match over, one in its first game."""
    folder = tmp_path_factory.mktemp("tables")
    files = sorted(MATCHES_DIR.glob("*.mat"))
    finished = SimulatedTable(folder, "finished", files[0].read_text(), "mqtt://127.0.0.1:1")
    finished.feed()
    playing = SimulatedTable(folder, "playing", files[1].read_text(), "mqtt://127.0.0.1:1")
    playing.feed(60)
    yield [finished, playing]
    for table in (finished, playing):
        table.record.close()


@pytest.fixture
def hub(tmp_path: Path, tables: list[SimulatedTable]) -> Iterator[Hub]:
    mirror = Mirror(str(tmp_path / "hub.sqlite"))
    for table in tables:
        fill_mirror(mirror, table)
    mirror.set_presence("finished", False, None)
    yield Hub("mqtt://127.0.0.1:1", mirror, room="cafe")
    mirror.close()


@pytest.fixture
def client(hub: Hub) -> FlaskClient:
    return create_room_app(hub, {"TESTING": True, "KEEPALIVE": 0.2}).test_client()


def test_api_tables_gives_players_length_score_events_online(
    client: FlaskClient, hub: Hub, tables: list[SimulatedTable]
) -> None:
    body = client.get("/api/tables").get_json()
    assert body["room"] == "cafe"
    listed = {table["name"]: table for table in body["tables"]}
    assert set(listed) == {"finished", "playing"}
    finished = listed["finished"]
    assert finished["players"] == list(tables[0].match.players)
    assert finished["length"] == 1
    assert finished["score"] == [0, 2]
    assert finished["finished"] is True and finished["online"] is False
    assert finished["events"] == len(hub.mirror.events("finished"))
    playing = listed["playing"]
    assert playing["online"] is True and playing["finished"] is False
    assert playing["length"] == 3
    assert playing["pips"][0] > 0 and playing["pips"][1] > 0
    assert playing["events"] == len(hub.mirror.events("playing")) > 0


def test_room_page_shows_every_table(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert 'id="card-finished"' in page and 'id="card-playing"' in page
    assert "match over" in page
    assert "offline" in page and "online" in page
    fragment = client.get("/fragments/cards?names=playing").get_data(as_text=True)
    assert "card-playing" in fragment and "card-finished" not in fragment


def test_table_page_draws_the_board_and_overlay_is_transparent(client: FlaskClient) -> None:
    page = client.get("/tables/playing").get_data(as_text=True)
    assert '<svg class="board"' in page
    overlay = client.get("/overlay/playing").get_data(as_text=True)
    assert 'class="rm-overlay"' in overlay and '<svg class="board"' not in overlay
    assert '<svg class="board"' in client.get("/overlay/playing?board=1").get_data(as_text=True)
    assert client.get("/tables/nobody").status_code == 404
    assert client.get("/api/tables/nobody").status_code == 404


def test_event_stream_sends_the_tables_changed_since_the_given_version(
    client: FlaskClient, hub: Hub
) -> None:
    response = client.get("/events?since=0", buffered=False)
    chunks = (bytes(chunk).decode() for chunk in response.response)  # type: ignore[arg-type]
    assert next(chunks) == "retry: 2000\n\n"
    first = next(chunks)
    assert first.startswith("id: ") and "event: tables" in first
    data = json.loads(first.split("data: ", 1)[1])
    assert {t["name"] for t in data["tables"]} == {"finished", "playing"}
    hub.mirror.set_presence("finished", True, None)
    changed = json.loads(next(chunks).split("data: ", 1)[1])
    assert [t["name"] for t in changed["tables"]] == ["finished"]
    assert changed["tables"][0]["online"] is True
    response.close()


def test_event_streams_beyond_the_limit_are_refused(hub: Hub) -> None:
    client = create_room_app(hub, {"TESTING": True, "MAX_LISTENERS": 1}).test_client()
    first = client.get("/events", buffered=False)
    assert first.status_code == 200
    second = client.get("/events", buffered=False)
    assert second.status_code == 503 and second.headers["Retry-After"] == "10"
    first.close()  # the first page goes away: its place is free again
    third = client.get("/events", buffered=False)
    assert third.status_code == 200
    third.close()
