"""Load on the panel's event stream: many concurrent listeners, how long an event takes to reach them.

Not a test: a measurement to run by hand. The panel runs under waitress in its own process (as on
the Pi); this process opens LISTENERS event streams on loopback with asyncio, waits until the hub
counts them all, then has the panel publish EVENTS full states (the example state, about 1.5 kB
of JSON) INTERVAL seconds apart. Each state carries its publish time (CLOCK_MONOTONIC, shared by
both processes); each listener notes when it read it.

Reported: per event, the time until the slowest listener had it ("reach all"), median and worst;
per delivery, median, 99th percentile and worst; missed deliveries and listeners the hub dropped.

    .venv/bin/python benchmarks/load_sse.py --listeners 250 --events 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import statistics
import sys
import time
from multiprocessing.connection import Connection
from typing import Any

MAX_LISTENERS = 2000
MAX_EVENTS = 1000


def _serve(pipe: Connection, listeners: int, keepalive: float) -> None:
    """The panel process: serve, then publish on request and report the hub's counts."""
    from web import BackgroundServer, create_app
    from web.hub import PanelHub
    from web.state import example_state

    hub = PanelHub(history=64, queue_size=32)
    app = create_app(
        {"SECRET_KEY": "load", "PIN_FILE": "/nonexistent", "KEEPALIVE": keepalive}
        | {"MAX_LISTENERS": listeners},
        hub=hub,
    )
    server = BackgroundServer(app, "127.0.0.1", 0)
    pipe.send(server.port)
    state = example_state()
    while True:
        command, argument = pipe.recv()
        if command == "count":
            pipe.send((hub.listener_count, hub.dropped))
        elif command == "publish":
            count, interval = argument
            for index in range(count):
                state["message"] = {
                    "kind": "info",
                    "text": str(time.monotonic_ns()),
                    "locations": [],
                }
                state["match"]["game"] = index + 1
                hub.publish(state)
                time.sleep(interval)
            pipe.send("published")
        elif command == "stop":
            server.stop()
            pipe.send("stopped")
            return


class Listener:
    """One event stream on a raw connection; notes (event id, publish ns, receive ns)."""

    def __init__(self) -> None:
        self.received: list[tuple[int, int, int]] = []
        self.connected = asyncio.Event()
        self.writer: asyncio.StreamWriter | None = None

    async def run(self, port: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        self.writer = writer
        writer.write(b"GET /events HTTP/1.1\r\nHost: panel\r\nAccept: text/event-stream\r\n\r\n")
        await writer.drain()
        status = await reader.readline()
        if b" 200 " not in status:
            raise RuntimeError(f"event stream refused: {status!r}")
        self.connected.set()
        event_id = -1
        while True:
            line = await reader.readline()
            if not line:
                return
            if line.startswith(b"id: "):
                event_id = int(line[4:])
            elif line.startswith(b"data: ") and event_id >= 1:
                now = time.monotonic_ns()
                state = json.loads(line[6:])
                self.received.append((event_id, int(state["message"]["text"]), now))

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def _measure(port: int, pipe: Connection, args: argparse.Namespace) -> dict[str, Any]:
    listeners = [Listener() for _ in range(args.listeners)]
    tasks = []
    for listener in listeners:
        tasks.append(asyncio.create_task(listener.run(port)))
        await asyncio.sleep(0)  # let each connect before the next, so none is refused by backlog
    await asyncio.wait_for(
        asyncio.gather(*(lst.connected.wait() for lst in listeners)), args.timeout
    )
    deadline = time.monotonic() + args.timeout
    while True:
        pipe.send(("count", None))
        count, _ = await asyncio.to_thread(pipe.recv)
        if count >= args.listeners or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.05)
    # Each stream starts with the snapshot (id 0, not timed); the published ones follow.
    pipe.send(("publish", (args.events, args.interval)))
    await asyncio.wait_for(asyncio.to_thread(pipe.recv), args.timeout)
    settle = time.monotonic() + min(5.0, args.timeout)
    expected = args.events * args.listeners
    while sum(len(lst.received) for lst in listeners) < expected and time.monotonic() < settle:
        await asyncio.sleep(0.05)
    pipe.send(("count", None))
    _, dropped = await asyncio.to_thread(pipe.recv)
    for listener in listeners:
        listener.close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return _summary(listeners, args, count, dropped)


def _summary(
    listeners: list[Listener], args: argparse.Namespace, connected: int, dropped: int
) -> dict[str, Any]:
    per_delivery: list[float] = []
    reach_all: dict[int, float] = {}
    for listener in listeners:
        for event_id, published, received in listener.received:
            latency = (received - published) / 1e6
            per_delivery.append(latency)
            reach_all[event_id] = max(reach_all.get(event_id, 0.0), latency)
    per_delivery.sort()
    events = sorted(reach_all.values())

    def ms(value: float) -> float:
        return round(value, 2)

    return {
        "listeners": args.listeners,
        "connected": connected,
        "events": args.events,
        "deliveries": len(per_delivery),
        "missed": args.events * args.listeners - len(per_delivery),
        "dropped_by_hub": dropped,
        "reach_all_ms": {
            "median": ms(statistics.median(events)) if events else None,
            "worst": ms(events[-1]) if events else None,
        },
        "per_delivery_ms": {
            "median": ms(statistics.median(per_delivery)) if per_delivery else None,
            "p99": ms(per_delivery[int(len(per_delivery) * 0.99) - 1]) if per_delivery else None,
            "worst": ms(per_delivery[-1]) if per_delivery else None,
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--listeners", type=int, default=250, help="concurrent event streams (200+)"
    )
    parser.add_argument("--events", type=int, default=20, help="states to publish and time")
    parser.add_argument("--interval", type=float, default=0.25, help="seconds between states")
    parser.add_argument("--keepalive", type=float, default=5.0, help="seconds between keep-alives")
    parser.add_argument(
        "--timeout", type=float, default=60.0, help="give up after this many seconds"
    )
    args = parser.parse_args(argv)
    if not 1 <= args.listeners <= MAX_LISTENERS or not 1 <= args.events <= MAX_EVENTS:
        parser.error(f"--listeners must be 1..{MAX_LISTENERS} and --events 1..{MAX_EVENTS}")
    if args.interval < 0 or args.timeout <= 0:
        parser.error("--interval must be >= 0 and --timeout > 0")

    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    panel = context.Process(
        target=_serve, args=(theirs, args.listeners, args.keepalive), daemon=True
    )
    panel.start()
    try:
        if not ours.poll(args.timeout):
            print("error: the panel did not start in time", file=sys.stderr)
            return 1
        port = ours.recv()
        result = asyncio.run(asyncio.wait_for(_measure(port, ours, args), args.timeout * 3))
        ours.send(("stop", None))
        ours.poll(10)
    finally:
        panel.join(10)
        if panel.is_alive():
            panel.terminate()
    print(json.dumps(result, indent=2))
    return 0 if result["missed"] == 0 and result["dropped_by_hub"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
