"""Flood the panel on 127.0.0.1 and time the TV's page meanwhile.

The panel runs in its own process (as on the Pi), publishing a new full state every second.
This process then opens ``--idle`` connections that never send a byte and ``--half`` that send
half a request and stop (slow clients), and ``--streams`` event streams spread over source
addresses 127.0.0.2, 127.0.0.3, ... (``--per-address`` each, as phones on a café's network);
one more "hostile" address asks for ``--hostile`` streams at once, and another opens
``--hostile-idle`` idle connections (the server keeps ``MAX_CONNECTIONS_PER_CLIENT`` of them
and closes the rest at once; the idle and half-open connections above come from 127.0.0.1, the
Pi itself, which is never limited). While all are held, it fetches ``/`` and ``/api/state``
``--probes`` times and reports how long they took, how many streams were accepted and whether
they kept receiving events.

Bounded: at most 2,000 connections in all and ``--seconds`` of flooding; loopback only.

    .venv/bin/python benchmarks/flood_panel.py [--idle 300] [--streams 150] [--hostile-idle 500]
        [--server event|waitress]
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import resource
import select
import socket
import statistics
import sys
import time
from multiprocessing.connection import Connection

MAX_CONNECTIONS = 2000


def _serve(pipe: Connection, kind: str) -> None:
    from web import BackgroundServer, create_app
    from web.hub import PanelHub
    from web.server import make_server
    from web.state import example_state

    hub = PanelHub()
    hub.publish(example_state())
    app = create_app({"SECRET_KEY": "flood", "PIN_FILE": "/nonexistent", "KEEPALIVE": 5.0}, hub=hub)
    if kind == "waitress":
        import threading

        server = make_server(app, "127.0.0.1", 0)
        threading.Thread(target=server.run, daemon=True).start()
        port = int(server.effective_port)
    else:
        port = BackgroundServer(app, "127.0.0.1", 0).port
    pipe.send(port)
    state = example_state()
    while not pipe.poll(1.0):
        state["pips"] = [state["pips"][0] + 1, state["pips"][1]]
        hub.publish(state)
    pipe.send(hub.listener_count)


def _stream(port: int, source: str) -> socket.socket | None:
    sock = socket.socket()
    sock.settimeout(10)
    try:
        sock.bind((source, 0))
        sock.connect(("127.0.0.1", port))
        sock.sendall(b"GET /events HTTP/1.1\r\nHost: panel\r\nAccept: text/event-stream\r\n\r\n")
        head = sock.recv(64)
    except OSError:
        sock.close()
        return None
    if b" 200 " not in head:
        sock.close()
        return None
    sock.setblocking(False)
    return sock


def _probe(port: int, path: str) -> float:
    began = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            return float("inf")
    except OSError:
        return float("inf")
    finally:
        connection.close()
    return time.perf_counter() - began


def _kept(socks: list[socket.socket], wait: float = 2.0) -> int:
    """How many of ``socks`` the server has not closed after ``wait`` seconds."""
    poller = select.poll()  # select() cannot watch descriptors above 1023
    by_fd = {sock.fileno(): sock for sock in socks}
    for fd in by_fd:
        poller.register(fd, select.POLLIN)
    closed: set[int] = set()
    deadline = time.monotonic() + wait
    while len(closed) < len(by_fd) and time.monotonic() < deadline:
        for fd, _ in poller.poll(100):
            try:
                ended = by_fd[fd].recv(1) == b""
            except BlockingIOError:
                ended = False
            except OSError:
                ended = True
            if ended:
                closed.add(fd)
                poller.unregister(fd)
    return len(socks) - len(closed)


def _drain(sock: socket.socket) -> int:
    got = 0
    try:
        while chunk := sock.recv(65536):
            got += chunk.count(b"event: state")
    except (BlockingIOError, InterruptedError):
        pass
    except OSError:
        return -1
    return got


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle", type=int, default=300)
    parser.add_argument("--half", type=int, default=50)
    parser.add_argument("--streams", type=int, default=150)
    parser.add_argument("--per-address", type=int, default=5)
    parser.add_argument("--hostile", type=int, default=100)
    parser.add_argument("--hostile-idle", type=int, default=500)
    parser.add_argument("--probes", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--server", choices=("event", "waitress"), default="event")
    args = parser.parse_args()
    total = args.idle + args.half + args.streams + args.hostile + args.hostile_idle
    if total > MAX_CONNECTIONS:
        sys.exit(f"at most {MAX_CONNECTIONS} connections, not {total}")
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
    ours, theirs = multiprocessing.Pipe()
    panel = multiprocessing.Process(target=_serve, args=(theirs, args.server), daemon=True)
    panel.start()
    port = ours.recv()
    deadline = time.monotonic() + args.seconds
    held: list[socket.socket] = []
    began = time.perf_counter()
    for _ in range(args.idle):
        held.append(socket.create_connection(("127.0.0.1", port), timeout=10))
    for _ in range(args.half):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(b"GET / HTTP/1.1\r\nHost: pan")
        held.append(sock)
    streams = []
    for index in range(args.streams):
        source = (
            f"127.0.{2 + index // (args.per_address * 250)}.{2 + (index // args.per_address) % 250}"
        )
        stream = _stream(port, source)
        if stream is not None:
            streams.append(stream)
        if time.monotonic() > deadline:
            break
    hostile = [s for s in (_stream(port, "127.0.9.9") for _ in range(args.hostile)) if s]
    hostile_idle = []
    for _ in range(args.hostile_idle):
        sock = socket.socket()
        sock.settimeout(10)
        try:
            sock.bind(("127.0.9.8", 0))
            sock.connect(("127.0.0.1", port))
        except OSError:
            sock.close()
            continue
        hostile_idle.append(sock)
    opened = time.perf_counter() - began
    times = {"/": [], "/api/state": []}
    for _ in range(args.probes):
        for path in times:
            times[path].append(_probe(port, path))
        if time.monotonic() > deadline:
            break
    time.sleep(2.5)  # two more published states
    live = sum(1 for stream in streams if _drain(stream) > 0)
    # While the panel still runs: which connections it has kept open.
    held_at_end = _kept(held, 0.5)
    idle_kept = _kept(hostile_idle) if hostile_idle else 0
    ours.send("stop")
    listeners = ours.recv()
    for sock in held + streams + hostile + hostile_idle:
        sock.close()
    panel.terminate()
    print(
        f"server {args.server}: held {held_at_end} of {len(held)} idle/half-open connections"
        f" and {len(streams)} of {args.streams} streams ({live} still receiving events,"
        f" hub counted {listeners} listeners); the hostile address got {len(hostile)} of"
        f" {args.hostile} streams, and kept {idle_kept} of {len(hostile_idle)} idle"
        f" connections; opened in {opened:.1f} s"
    )
    for path, values in times.items():
        worst = max(values)
        print(
            f"  GET {path}: median {statistics.median(values) * 1000:.0f} ms,"
            f" worst {'failed' if worst == float('inf') else f'{worst * 1000:.0f} ms'}"
            f" over {len(values)} tries"
        )


if __name__ == "__main__":
    main()
