"""The panel on its event-driven server, as on the Pi: pages, the event stream, floods."""

from __future__ import annotations

import http.client
import json
import socket
import time
import urllib.request
from typing import Any

import pytest

from web import BackgroundServer, create_app
from web.hub import PanelHub
from web.state import example_state


def _read_event(stream: Any) -> tuple[int, dict[str, Any]]:
    """Read lines up to the next state event; keep-alive comments and retry hints are skipped."""
    fields: dict[str, str] = {}
    while True:
        line = stream.readline().decode()
        assert line, "stream ended"
        line = line.rstrip("\n")
        if not line:
            if "data" in fields:
                return int(fields["id"]), json.loads(fields["data"])
            continue
        if not line.startswith(":"):
            name, _, value = line.partition(": ")
            fields[name] = value


@pytest.fixture
def served(config: dict[str, Any], hub: PanelHub) -> Any:
    app = create_app(config | {"KEEPALIVE": 0.2}, hub=hub)
    with BackgroundServer(app, "127.0.0.1", 0) as server:
        yield server


def test_pages_and_api_are_served(served: BackgroundServer) -> None:
    with urllib.request.urlopen(served.url + "/api/state", timeout=5) as response:
        assert json.load(response)["state"]["match"]["players"] == ["Ada", "Boris"]
    with urllib.request.urlopen(served.url + "/", timeout=5) as response:
        assert b"Ada" in response.read()


def test_events_arrive_through_waitress_and_reconnect_catches_up(
    served: BackgroundServer, hub: PanelHub
) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=5)
    connection.request("GET", "/events", headers={"Accept": "text/event-stream"})
    response = connection.getresponse()
    assert response.status == 200 and response.getheader("Content-Type", "").startswith(
        "text/event-stream"
    )
    assert _read_event(response)[0] == 1
    state = example_state()
    state["dice"] = [6, 5]
    hub.publish(state)
    event_id, received = _read_event(response)
    assert (event_id, received["dice"]) == (2, [6, 5])
    connection.close()

    state["dice"] = [1, 1]
    hub.publish(state)
    again = http.client.HTTPConnection("127.0.0.1", served.port, timeout=5)
    again.request("GET", "/events", headers={"Last-Event-ID": "2"})
    event_id, received = _read_event(again.getresponse())
    assert (event_id, received["dice"]) == (3, [1, 1])
    again.close()


def test_a_vanished_client_is_unsubscribed_at_the_next_keep_alive(
    served: BackgroundServer, hub: PanelHub
) -> None:
    sock = socket.create_connection(("127.0.0.1", served.port), timeout=5)
    sock.sendall(b"GET /events HTTP/1.1\r\nHost: panel\r\n\r\n")
    assert b"200" in sock.recv(200)
    assert hub.listener_count == 1
    sock.close()
    deadline = time.monotonic() + 10
    while hub.listener_count and time.monotonic() < deadline:
        time.sleep(0.05)
    assert hub.listener_count == 0


def test_stopping_ends_the_server_thread(config: dict[str, Any], hub: PanelHub) -> None:
    server = BackgroundServer(create_app(config, hub=hub), "127.0.0.1", 0)
    with urllib.request.urlopen(server.url + "/api/state", timeout=5) as response:
        assert response.status == 200
    server.stop()
    assert not server._thread.is_alive()
    with pytest.raises(OSError):
        urllib.request.urlopen(server.url + "/api/state", timeout=2)


def test_a_page_that_stops_reading_is_dropped_and_others_keep_up(
    served: BackgroundServer, hub: PanelHub
) -> None:
    stuck = socket.socket()
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stuck.connect(("127.0.0.1", served.port))
    stuck.sendall(b"GET /events HTTP/1.1\r\nHost: panel\r\n\r\n")
    reader = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
    reader.request("GET", "/events", headers={"Last-Event-ID": "1"})
    stream = reader.getresponse()
    deadline = time.monotonic() + 10
    while hub.listener_count < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    state = example_state()
    state["message"] = {"kind": "info", "text": "x" * 100_000, "locations": []}
    published = 0
    while hub.dropped == 0 and published < 300:
        published = hub.publish(state) - 1
        assert _read_event(stream)[0] == published + 1  # the reading page gets every event
    stuck.close()
    reader.close()
    assert hub.dropped == 1
    assert published < 300


def test_the_panel_imports_neither_vision_nor_the_controller() -> None:
    import subprocess
    import sys

    code = (
        "import sys, web, web.admin, web.api, web.board, web.events, web.matches, web.pin, "
        "web.scoreboard, web.fakes, web.__main__; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'vision', 'controller', 'cv2'}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_idle_connections_never_keep_the_tv_page_waiting(served: BackgroundServer) -> None:
    # Waitress stopped accepting at 100 connections and reaped idle ones only after 120 s.
    idle = [socket.create_connection(("127.0.0.1", served.port), timeout=5) for _ in range(150)]
    try:
        with urllib.request.urlopen(served.url + "/", timeout=10) as response:
            assert response.status == 200 and b"Ada" in response.read()
    finally:
        for sock in idle:
            sock.close()


def _open_stream(port: int, source: str) -> tuple[socket.socket, bytes]:
    sock = socket.socket()
    sock.settimeout(5)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    sock.sendall(b"GET /events HTTP/1.1\r\nHost: panel\r\n\r\n")
    return sock, sock.recv(200)


def test_one_device_cannot_take_every_event_stream(config: dict[str, Any], hub: PanelHub) -> None:
    app = create_app(config | {"MAX_LISTENERS": 50, "MAX_LISTENERS_PER_CLIENT": 2}, hub=hub)
    with BackgroundServer(app, "127.0.0.1", 0) as server:
        held = [_open_stream(server.port, "127.0.0.2") for _ in range(3)]
        assert [b" 200 " in head for _, head in held] == [True, True, False]
        assert b"503" in held[2][1] and b"Retry-After" in held[2][1].title()
        other, head = _open_stream(server.port, "127.0.0.3")
        assert b" 200 " in head
        for sock, _ in [*held, (other, head)]:
            sock.close()


def test_many_event_streams_take_no_threads(config: dict[str, Any], hub: PanelHub) -> None:
    import threading

    app = create_app(config | {"MAX_LISTENERS": 200, "MAX_LISTENERS_PER_CLIENT": 200}, hub=hub)
    with BackgroundServer(app, "127.0.0.1", 0) as server:
        before = threading.active_count()
        streams = [_open_stream(server.port, "127.0.0.1") for _ in range(120)]
        assert all(b" 200 " in head for _, head in streams)
        assert threading.active_count() - before < 20
        hub.publish(example_state())
        for sock, _ in streams[:5]:
            received = b""
            while b"event: state" not in received:
                received += sock.recv(65536)
        with urllib.request.urlopen(server.url + "/api/state", timeout=10) as response:
            assert response.status == 200
        for sock, _ in streams:
            sock.close()
