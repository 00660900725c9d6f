"""The referee's append latency while the panel's readers hammer a large record.

Builds a record of ``--matches`` finished matches (10,000 by default, about 220,000 events),
serves the panel over it on 127.0.0.1 (the real app and server, the real SQLite file), and starts
``--readers`` clients in another process, each requesting match-list pages, match pages, a 404
and ``/api/matches`` pages back to back. Meanwhile this process appends ``--appends`` events the
way the referee does (one commit and fsync each) and times each append. Goal: p99 under 20 ms
with 8 readers.

Beside each append it times a 4 KiB write and fsync of a file of its own in the same folder
("disk"), and a ``time.sleep(0)`` ("cpu": how long this thread waits to run again, for the
interpreter lock and a core). An append cannot beat the disk's own sync, so when the two tails
move together the machine is the limit, not the record.

    .venv/bin/python benchmarks/bench_record_readers.py [--matches 10000] [--readers 8] [--appends 400]
        [--inline-checkpoints]
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import sqlite3
import statistics
import tempfile
import threading
import time
from pathlib import Path

from controller.events import Event
from controller.record.store import Record

GAMES = 4
EVENTS_PER_GAME = 4  # game_started, two plays, game_won


def build(path: Path, matches: int) -> None:
    """A record of ``matches`` finished matches, written in one transaction (setup, not timed)."""
    with Record(path):
        pass  # creates the schema and the WAL journal
    connection = sqlite3.connect(path)
    rows = []
    sequence = 0
    for index in range(matches):
        match_id = f"m{index:05d}"
        start = 1_700_000_000.0 + index * 3600

        def row(
            kind: str, data: dict[str, object], match_id: str = match_id, start: float = start
        ) -> tuple[int, str, float, str, str]:
            nonlocal sequence
            sequence += 1
            return (sequence, match_id, start + sequence % 3600, kind, json.dumps(data))

        rows.append(row("match_started", {"id": match_id, "players": ["Ada", "Bo"], "length": 7}))
        score = [0, 0]
        for game in range(1, GAMES + 1):
            rows.append(row("game_started", {"game": game, "score": list(score)}))
            rows.append(row("play", {"player": 0, "dice": [3, 1], "play": "8/5 6/5"}))
            rows.append(row("play", {"player": 1, "dice": [6, 4], "play": "24/18 13/9"}))
            winner = game % 2
            score[winner] += 1
            rows.append(
                row("game_won", {"game": game, "winner": winner, "points": 1, "score": list(score)})
            )
        rows.append(row("match_won", {"winner": 0, "score": score}))
    connection.executemany(
        "INSERT INTO events (sequence, match_id, time, type, data) VALUES (?, ?, ?, ?, ?)", rows
    )
    connection.commit()
    connection.close()


def reader(port: int, matches: int, stop_at: float, counts: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    """One client: requests until ``stop_at``; puts (requests, slowest page seconds)."""
    rng = random.Random(port)
    pages = max(1, matches // 50)
    done, slowest = 0, 0.0
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    while time.time() < stop_at:
        path = rng.choice(
            [
                f"/matches?page={rng.randint(1, pages)}",
                f"/matches/m{rng.randrange(matches):05d}",
                "/matches/no-such-match",
                f"/api/matches?offset={rng.randrange(matches)}",
                "/matches",
            ]
        )
        began = time.perf_counter()
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        slowest = max(slowest, time.perf_counter() - began)
        done += 1
    counts.put((done, slowest))


def clients(
    port: int, matches: int, readers: int, stop_at: float, counts: multiprocessing.Queue
) -> None:  # type: ignore[type-arg]
    threads = [
        threading.Thread(target=reader, args=(port, matches, stop_at, counts))
        for _ in range(readers)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--readers", type=int, default=8)
    parser.add_argument("--appends", type=int, default=400)
    parser.add_argument("--gap", type=float, default=0.02, help="seconds between appends")
    parser.add_argument(
        "--page-threads", type=int, default=None, help="the panel's page threads (default 8)"
    )
    parser.add_argument(
        "--inline-checkpoints",
        action="store_true",
        help="let the appending connection checkpoint (SQLite's default) instead of the record's"
        " background checkpointer",
    )
    parser.add_argument(
        "--default-switching",
        action="store_true",
        help="keep Python's 5 ms thread switch interval (run sets 0.5 ms: favour_the_referee)",
    )
    args = parser.parse_args()
    from controller.table.runner import favour_the_referee
    from web import BackgroundServer, create_app

    if not args.default_switching:
        favour_the_referee()

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "record.sqlite"
        began = time.perf_counter()
        build(path, args.matches)
        print(f"record: {args.matches} matches, {path.stat().st_size / 2**20:.1f} MB,"
              f" built in {time.perf_counter() - began:.1f} s")  # fmt: skip
        for readers in (0, args.readers):
            with Record(path, background_checkpoints=not args.inline_checkpoints) as record:
                record.append(Event("match_started", {"id": "live", "players": ["A", "B"]}))
                app = create_app({"SECRET_KEY": "bench", "EXPORTS_DIR": folder}, store=record)
                with BackgroundServer(app, "127.0.0.1", 0, threads=args.page_threads) as server:
                    counts: multiprocessing.Queue = multiprocessing.Queue()  # type: ignore[type-arg]
                    duration = args.appends * args.gap + 2.0
                    stop_at = time.time() + duration
                    process = None
                    if readers:
                        process = multiprocessing.Process(
                            target=clients,
                            args=(server.port, args.matches, readers, stop_at, counts),
                        )
                        process.start()
                        time.sleep(1.0)  # let the readers get going
                    latencies: list[float] = []
                    disk: list[float] = []
                    cpu: list[float] = []
                    probe = os.open(Path(folder) / "probe", os.O_RDWR | os.O_CREAT)
                    for index in range(args.appends):
                        event = Event("dice_rolled", {"player": index % 2, "dice": [3, 1]})
                        start = time.perf_counter()
                        record.append(event)
                        latencies.append((time.perf_counter() - start) * 1000)
                        time.sleep(args.gap / 2)
                        start = time.perf_counter()
                        os.pwrite(probe, b"x" * 4096, (index % 16) * 4096)
                        os.fsync(probe)
                        disk.append((time.perf_counter() - start) * 1000)
                        start = time.perf_counter()
                        time.sleep(0)
                        cpu.append((time.perf_counter() - start) * 1000)
                        time.sleep(args.gap / 2)
                    os.close(probe)
                    requests, slowest = 0, 0.0
                    if process is not None:
                        process.join()
                        for _ in range(readers):
                            done, worst = counts.get(timeout=10)
                            requests += done
                            slowest = max(slowest, worst)
            print(
                f"readers {readers}: append p50 {statistics.median(latencies):.2f} ms,"
                f" p99 {percentile(latencies, 0.99):.2f} ms, max {max(latencies):.2f} ms;"
                f" disk p50 {statistics.median(disk):.2f} p99 {percentile(disk, 0.99):.2f} ms;"
                f" cpu p99 {percentile(cpu, 0.99):.2f} ms"
                + (
                    f"; readers made {requests} requests"
                    f" ({requests / duration:.0f}/s), slowest {slowest * 1000:.0f} ms"
                    if readers
                    else ""
                )
                + f"; load {os.getloadavg()[0]:.1f}"
            )


if __name__ == "__main__":
    main()
