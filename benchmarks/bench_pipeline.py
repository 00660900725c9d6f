"""How many frames a second the whole pipeline sustains on one core, and its peak memory.

The demo's rendered frames stand in for a camera (drawing them is not timed); each is fed through settle detection, board reading, the referee, the record (a real SQLite file), the fake
LEDs and the panel's hub, exactly as ``sheshbesh run`` feeds camera frames. Goal: real time at 10
frames a second with room to spare, under 300 MB.

    .venv/bin/python benchmarks/bench_pipeline.py [--shots 120] [--seed 7]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import tempfile
import time
from pathlib import Path

import cv2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", type=int, default=120, help="shots of the demo match to play")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})

    from controller.record.matfile import read_mat
    from controller.sim.demo import open_demo_table, prepare
    from controller.sim.director import FAST_TIMING, direct_match
    from controller.table.assembly import LiveTable

    root = Path(__file__).resolve().parents[1]
    match = read_mat((root / "controller" / "data" / "demo-3pt.mat").read_text())
    with tempfile.TemporaryDirectory() as folder:
        live = open_demo_table(LiveTable("bench"), Path(folder) / "bench.sqlite", panel=True)
        demo = prepare(match, live, seed=args.seed)
        times = []
        count = 0
        for shot in list(direct_match(match, FAST_TIMING))[: args.shots]:
            for image in demo.stage.frames(shot, max(1, round(shot.seconds * 10))):
                demo.clock.now += 0.1
                start = time.perf_counter()
                demo.table.frame(image, demo.clock.now)
                times.append(time.perf_counter() - start)
                count += 1
        settled_reads = demo.table.status.observations
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        live.close()
    total = sum(times)
    print(f"frames: {count} ({settled_reads} settled readings reached the referee)")
    print(f"sustained: {count / total:.1f} frames/s on one core (rendering not counted)")
    print(
        f"per frame: median {statistics.median(times) * 1000:.1f} ms, "
        f"p95 {sorted(times)[int(len(times) * 0.95)] * 1000:.1f} ms, worst {max(times) * 1000:.1f} ms"
    )
    print(f"peak memory (resident, whole process incl. the renderer): {peak:.0f} MB")


if __name__ == "__main__":
    main()
