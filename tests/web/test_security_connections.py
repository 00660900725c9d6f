"""Connections are limited per client address on the panel's server, with real sockets: idle
ones beyond the limit are closed at once, other clients and the Pi itself are not touched, and
a freed slot can be taken again."""

from __future__ import annotations

import select
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest

from web import BackgroundServer, create_app
from web.hub import PanelHub

LIMIT = 4


@pytest.fixture
def served(config: dict[str, Any], hub: PanelHub) -> Iterator[BackgroundServer]:
    app = create_app(config | {"MAX_CONNECTIONS_PER_CLIENT": LIMIT}, hub=hub)
    with BackgroundServer(app, "127.0.0.1", 0) as server:
        yield server


def _connect(port: int, source: str) -> socket.socket:
    """An idle connection from ``source`` (another loopback address stands for a phone)."""
    sock = socket.socket()
    sock.settimeout(5)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def _closed_by_server(socks: list[socket.socket], expected: int, wait: float = 10.0) -> set[int]:
    """The indexes of ``socks`` that the server closed (end of file or reset): waits up to
    ``wait`` seconds for ``expected`` of them, then a moment more, so a late close is seen."""
    closed: set[int] = set()
    deadline = time.monotonic() + wait
    settle = None
    while True:
        now = time.monotonic()
        if len(closed) >= expected and settle is None:
            settle = now + 0.3
        if now >= (settle if settle is not None else deadline):
            return closed
        waiting = [sock for index, sock in enumerate(socks) if index not in closed]
        readable, _, _ = select.select(waiting, [], [], 0.05) if waiting else ([], [], [])
        for sock in readable:
            try:
                data = sock.recv(1)
            except ConnectionResetError:
                data = b""
            assert data == b"", "the server spoke first on an idle connection"
            closed.add(socks.index(sock))


def _served(sock: socket.socket) -> bool:
    """Whether a request on ``sock`` gets the panel's answer."""
    sock.settimeout(10)
    sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: panel\r\n\r\n")
    try:
        return sock.recv(64).startswith(b"HTTP/1.1 200 ")
    except OSError:
        return False


def test_idle_connections_beyond_the_limit_are_closed(served: BackgroundServer) -> None:
    socks = [_connect(served.port, "127.0.0.2") for _ in range(LIMIT + 6)]
    try:
        closed = _closed_by_server(socks, 6)
        assert len(closed) == 6
        kept = [sock for index, sock in enumerate(socks) if index not in closed]
        assert served.connections.open_from("127.0.0.2") == LIMIT
        assert all(_served(sock) for sock in kept)  # the kept ones are served
        # Another phone is untouched, and so is the Pi itself (its own screen, a local proxy).
        other = [_connect(served.port, "127.0.0.3") for _ in range(LIMIT)]
        own = [_connect(served.port, "127.0.0.1") for _ in range(LIMIT + 6)]
        socks += other + own
        assert not _closed_by_server(other + own, 0, wait=0.5)
        assert _served(other[0]) and _served(own[-1])
        # A connection that closes frees its slot.
        kept[0].close()
        deadline = time.monotonic() + 10
        while served.connections.open_from("127.0.0.2") >= LIMIT:
            assert time.monotonic() < deadline, "the server never saw the connection close"
            time.sleep(0.05)
        again = _connect(served.port, "127.0.0.2")
        socks.append(again)
        assert not _closed_by_server([again], 0, wait=0.5) and _served(again)
        one_more = _connect(served.port, "127.0.0.2")
        socks.append(one_more)
        assert _closed_by_server([one_more], 1) == {0}
    finally:
        for sock in socks:
            sock.close()


def test_no_limit_behind_a_proxy_or_when_turned_off(config: dict[str, Any], hub: PanelHub) -> None:
    """Behind a reverse proxy every client has the proxy's address, so the proxy must limit."""
    for extra in ({"PROXIES": 1}, {"MAX_CONNECTIONS_PER_CLIENT": 0}):
        app = create_app(config | {"MAX_CONNECTIONS_PER_CLIENT": LIMIT} | extra, hub=hub)
        with BackgroundServer(app, "127.0.0.1", 0) as server:
            socks = [_connect(server.port, "127.0.0.2") for _ in range(LIMIT + 3)]
            try:
                assert not _closed_by_server(socks, 0, wait=0.5)
                assert all(_served(sock) for sock in socks)
            finally:
                for sock in socks:
                    sock.close()
