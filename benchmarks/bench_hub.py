"""Load on the room's hub: many tables, one event a second each, through a real mosquitto.

Not a test: a measurement to run by hand (under ``nice``: it keeps both cores busy). This process
starts mosquitto on a free loopback port and ``sheshbesh hub`` as its own process (so its CPU time
and memory are its own), then runs TABLES simulated tables: each a real record (SQLite file) and a
real :class:`~controller.network.link.TableLink`, recording one event a second (stamped with the
wall-clock time it was recorded) and handing the link a state snapshot as the runner does. A
reader holds the hub's page stream (``/events``) open, as a browser on the room page does, and
notes when each table's new last event shows up there.

Reported: events recorded, events the hub holds at the end (lost = recorded - held, after a short
drain), latency from a table's record to the hub's page stream (median, p95, worst), the hub's CPU
(percent of one core over the run) and memory (resident now, and its peak).

    nice -n 10 .venv/bin/python benchmarks/bench_hub.py --tables 100 --seconds 60
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from controller.events import Event  # noqa: E402
from controller.network.link import TableLink  # noqa: E402
from controller.record.store import Record  # noqa: E402
from tests.network.roomkit import Broker, free_port, wait_for  # noqa: E402
from web.state import example_state  # noqa: E402


def _proc_times(pid: int) -> float:
    """CPU seconds (user + system) of process ``pid``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def _memory(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM (peak resident) of ``pid`` in kB."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            found[key] = int(value.split()[0])
    return found


class PageReader(threading.Thread):
    """Reads the hub's event stream; notes when each (table, sequence) first shows on the page."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.seen: dict[tuple[str, int], float] = {}
        self.event_times: dict[tuple[str, int], float] = {}
        self.running = True

    def run(self) -> None:
        with urllib.request.urlopen(self.url + "/events", timeout=60) as stream:
            for raw in stream:
                if not self.running:
                    return
                line = raw.decode().rstrip("\n")
                if not line.startswith("data: "):
                    continue
                now = time.time()
                for table in json.loads(line[6:])["tables"]:
                    last = table["last_event"]
                    key = (table["name"], int(last["sequence"]))
                    if key not in self.seen:
                        self.seen[key] = now
                        self.event_times[key] = float(last["time"])


class LoadTable:
    """One simulated table: a record file, its link, one event a second."""

    def __init__(self, folder: Path, name: str, broker_url: str) -> None:
        self.name = name
        self.path = folder / f"{name}.sqlite"
        self.record = Record(self.path)
        self.record.append(
            Event(
                "match_started",
                {"id": f"{name}-m", "players": [f"{name}-W", f"{name}-B"], "length": 7},
                time.time(),
            )
        )
        self.link = TableLink(self.path, broker_url, name).start()
        self.state = example_state()
        self.recorded = 1

    def record_one(self, rng: random.Random) -> None:
        dice = [rng.randint(1, 6), rng.randint(1, 6)]
        self.record.append(
            Event("dice_rolled", {"player": self.recorded % 2, "dice": dice}, time.time())
        )
        self.recorded += 1
        self.state["dice"] = dice
        self.state["turn"] = self.recorded % 2
        self.link.publish(self.state)  # what the runner does after each recorded event

    def close(self) -> None:
        self.link.close()
        self.record.close()


def _worker(
    pipe: Connection, names: list[str], folder: str, broker_url: str, args: argparse.Namespace
) -> None:
    """One process of tables (paho's select() loop cannot serve more than ~90 clients per
    process; a real room has one table per Pi anyway)."""
    rng = random.Random(names[0])
    tables = [LoadTable(Path(folder), name, broker_url) for name in names]
    wait_for(lambda: all(t.link.acknowledged >= 1 for t in tables), 120, "the tables at the hub")
    pipe.send("ready")
    start, offsets = pipe.recv()
    interval = 1.0 / args.rate
    late = 0
    for tick in range(int(args.seconds * args.rate)):
        for table, offset in zip(tables, offsets, strict=True):
            delay = start + tick * interval + offset - time.time()
            if delay > 0:
                time.sleep(delay)
            elif delay < -interval:
                late += 1
            table.record_one(rng)
    pipe.send(({t.name: t.recorded for t in tables}, late))
    pipe.recv()  # the hub has drained: say goodbye
    for table in tables:
        table.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--rate", type=float, default=1.0, help="events a second per table")
    parser.add_argument("--drain", type=float, default=15.0, help="seconds allowed to catch up")
    parser.add_argument("--per-process", type=int, default=25, help="tables per worker process")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-hub-"))
    with Broker(folder / "broker") as broker:
        port = free_port()
        hub = subprocess.Popen(
            [sys.executable, "-m", "controller.cli", "hub", "--broker", broker.url,
             "--port", str(port), "--db", str(folder / "hub.sqlite")],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        url = f"http://127.0.0.1:{port}"

        def answers() -> bool:
            try:
                urllib.request.urlopen(url + "/api/tables", timeout=2).close()
            except OSError:
                return False
            return True

        wait_for(answers, 30, "the hub")
        names = [f"t{index:03d}" for index in range(args.tables)]
        groups = [names[i : i + args.per_process] for i in range(0, len(names), args.per_process)]
        workers = []
        for group in groups:
            mine, theirs = multiprocessing.Pipe()
            process = multiprocessing.Process(
                target=_worker, args=(theirs, group, str(folder), broker.url, args)
            )
            process.start()
            workers.append((process, mine))
        for _, pipe in workers:
            if not pipe.poll(180) or pipe.recv() != "ready":
                raise SystemExit("a worker's tables did not reach the hub")
        print(f"{len(names)} tables at the hub", file=sys.stderr, flush=True)
        reader = PageReader(url)
        reader.start()
        time.sleep(1.0)
        cpu_before, wall_before = _proc_times(hub.pid), time.monotonic()
        interval = 1.0 / args.rate
        start = time.time() + 0.5
        position = 0
        for (_, pipe), group in zip(workers, groups, strict=True):
            # Tables spread evenly over each second, as independent boards would be.
            offsets = [(position + i) * interval / len(names) for i in range(len(group))]
            position += len(group)
            pipe.send((start, offsets))
        reports = [pipe.recv() for _, pipe in workers]
        cpu_run, wall_run = _proc_times(hub.pid) - cpu_before, time.monotonic() - wall_before
        memory = _memory(hub.pid)
        recorded_by = {name: n for counts, _ in reports for name, n in counts.items()}
        late = sum(late for _, late in reports)
        deadline = time.monotonic() + args.drain
        while time.monotonic() < deadline:
            held = {t["name"]: t["events"] for t in _tables(url)}
            if all(held.get(name) == n for name, n in recorded_by.items()):
                break
            time.sleep(0.5)
        held = {t["name"]: t["events"] for t in _tables(url)}
        lost = sum(max(0, n - held.get(name, 0)) for name, n in recorded_by.items())
        reader.running = False
        latencies = sorted(
            seen - reader.event_times[key] for key, seen in reader.seen.items() if key[1] > 1
        )
        for process, pipe in workers:
            pipe.send("close")
            process.join(30)
        hub.terminate()
        hub.wait(20)
    p95 = latencies[int(0.95 * (len(latencies) - 1))] if latencies else float("nan")
    recorded = sum(recorded_by.values())
    result: dict[str, Any] = {
        "tables": args.tables,
        "seconds": args.seconds,
        "events_recorded": recorded,
        "events_held_by_hub": sum(held.values()),
        "events_lost": lost,
        "events_shown_on_page": len(latencies),
        "latency_ms": {
            "median": round(statistics.median(latencies) * 1000, 1) if latencies else None,
            "p95": round(p95 * 1000, 1),
            "max": round(latencies[-1] * 1000, 1) if latencies else None,
        },
        "hub_cpu_percent_of_one_core": round(100 * cpu_run / wall_run, 1),
        "hub_memory_kb": {"resident": memory.get("VmRSS"), "peak": memory.get("VmHWM")},
        "late_ticks": late,
        "load_average": os.getloadavg()[0],
    }
    print(json.dumps(result))
    return 0


def _tables(url: str) -> list[dict[str, Any]]:
    with urllib.request.urlopen(url + "/api/tables", timeout=10) as response:
        tables: list[dict[str, Any]] = json.loads(response.read())["tables"]
    return tables


if __name__ == "__main__":
    sys.exit(main())
