"""Can a Raspberry Pi 4 or 5 keep up with 10 camera frames a second? An estimate, stated as one.

What is measured (on this machine, in CPU time of one thread, OpenCV on one thread): the work of
``sheshbesh run`` on the demo's rendered 1280x720 frames (the renderer stands in for the camera
and is not timed):

* ``decode``: turning a USB webcam's MJPEG frame into pixels (``cv2.imdecode``). A Pi Camera
  Module through picamera2 delivers pixels and skips this.
* ``settle``: settle detection, run on every frame (:class:`vision.settle.SettleDetector`).
* ``read``: reading the board (:func:`vision.reader.read_marker_board`), run once per settled stretch,
  not per frame (:class:`controller.table.reader.VisionReader`).
* ``rest``: the referee, the record (a real SQLite file), the fake LEDs and the panel's hub.

How it is scaled: no Pi is at hand, so each figure is multiplied by the ratio of single-core
speeds from published Geekbench 6 single-core results, approximate and rounded (they vary with
cooling, clock and OS): this machine's core (AMD EPYC, Zen 4, a cloud vCPU) about 2000; a
Raspberry Pi 5 (Cortex-A76, 2.4 GHz) about 800; a Raspberry Pi 4 (Cortex-A72, 1.8 GHz) about 270.
That gives about 2.5x for the Pi 5 and 7.5x for the Pi 4. OpenCV's kernels use wider vector units
here (AVX-512) than on the Pi (NEON, 128-bit), so image work may scale worse than a general
benchmark: the ``--simd`` factor (default 1.3) is applied to decode, settle and read on top.
Everything here shares two cores with other work, which makes the x86 figures (and so the
estimates) pessimistic, not optimistic. Override any ratio on the command line.

    .venv/bin/python benchmarks/pi_estimate.py [--shots 120] [--pi4 7.5] [--pi5 2.5] [--simd 1.3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

FPS = 10.0
BUDGET_MS = 1000.0 / FPS
#: seconds between settled stretches in real play (a move, a roll): an assumption, stated
PLAY_SECONDS = 3.0


#: CPU seconds of this thread: what a Pi's core would have to do, unaffected by other programs
#: taking turns on this shared machine (wall-clock time here would count their turns too).
clock = time.thread_time


@dataclass
class Timings:
    """CPU seconds per call of each part; ``rest`` per frame (the frame less settle and read)."""

    decode: list[float]
    settle: list[float]
    read: list[float]
    frame: list[float]
    rest: list[float]


def timed(calls: list[float], function: Callable[..., Any]) -> Callable[..., Any]:
    """``function``, recording the seconds each call takes into ``calls``."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = clock()
        try:
            return function(*args, **kwargs)
        finally:
            calls.append(clock() - start)

    return wrapper


def measure(shots: int, seed: int) -> Timings:
    """Plays the first ``shots`` shots of the demo match at 10 frames a second, timing each part."""
    import controller.table.reader as adapter
    from controller.record.matfile import read_mat
    from controller.sim.demo import open_demo_table, prepare
    from controller.sim.director import FAST_TIMING, direct_match
    from controller.table.assembly import LiveTable

    root = Path(__file__).resolve().parents[1]
    match = read_mat((root / "controller" / "data" / "demo-3pt.mat").read_text())
    timings = Timings([], [], [], [], [])
    # The adapter calls read_marker_board by its module-level name: time it there.
    original_read = adapter.read_marker_board  # type: ignore[attr-defined]
    setattr(adapter, "read_marker_board", timed(timings.read, original_read))  # noqa: B010
    try:
        with tempfile.TemporaryDirectory() as folder:
            live = open_demo_table(LiveTable("bench"), Path(folder) / "bench.sqlite")
            demo = prepare(match, live, seed=seed)
            reader: Any = demo.table.reader
            reader.detector.update = timed(timings.settle, reader.detector.update)
            for shot in list(direct_match(match, FAST_TIMING))[:shots]:
                for image in demo.stage.frames(shot, max(1, round(shot.seconds * FPS))):
                    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
                    assert ok
                    start = clock()
                    pixels = np.asarray(
                        cv2.imdecode(np.frombuffer(jpeg.tobytes(), np.uint8), cv2.IMREAD_COLOR),
                        np.uint8,
                    )
                    timings.decode.append(clock() - start)
                    demo.clock.now += 1.0 / FPS
                    reads_before = len(timings.read)
                    start = clock()
                    demo.table.frame(pixels, demo.clock.now)
                    total = clock() - start
                    timings.frame.append(total)
                    read = sum(timings.read[reads_before:])
                    timings.rest.append(max(0.0, total - timings.settle[-1] - read))
            live.close()
    finally:
        setattr(adapter, "read_marker_board", original_read)  # noqa: B010
    return timings


def ms(values: list[float], scale: float = 1.0) -> str:
    ordered = sorted(values)
    median = statistics.median(ordered) * 1000 * scale
    p95 = ordered[int(len(ordered) * 0.95)] * 1000 * scale
    return f"median {median:6.1f} ms  p95 {p95:6.1f} ms  worst {ordered[-1] * 1000 * scale:6.1f} ms"


def estimate(name: str, timings: Timings, ratio: float, simd: float) -> None:
    """Prints the scaled figures of one Pi and whether 10 frames a second fit on one core."""
    image = ratio * simd
    frames = len(timings.frame)
    reads = len(timings.read)
    settle = statistics.mean(timings.settle) * 1000 * image
    rest = statistics.mean(timings.rest) * 1000 * ratio
    decode = statistics.mean(timings.decode) * 1000 * image
    read_each = statistics.mean(timings.read) * 1000 * image if reads else 0.0
    read_share = read_each * reads / frames
    for camera, capture in (("Pi camera (picamera2)", 0.0), ("USB webcam (MJPEG)", decode)):
        per_frame = capture + settle + rest + read_share
        load = per_frame / BUDGET_MS * 100
        # The frame on which the board settles also carries the whole reading.
        worst = capture + settle + rest + read_each
        most_fps = 1000.0 / per_frame
        verdict = "fits" if load <= 70 else ("fits, tightly" if load <= 100 else "does NOT fit")
        print(
            f"{name:5} {camera:22} {per_frame:6.1f} ms/frame on average = {load:5.1f}% of one "
            f"core at 10 fps ({verdict}); at most {most_fps:5.1f} fps; the settling frame "
            f"{worst:6.1f} ms"
        )
    # The demo settles every few frames; over the board a stretch lasts a move, a few seconds.
    play = settle + rest + read_each / (PLAY_SECONDS * FPS)
    print(
        f"{name:5} over the board (a reading every {PLAY_SECONDS:.0f} s, Pi camera): {play:5.1f} "
        f"ms/frame = {play / BUDGET_MS * 100:4.1f}% of one core"
    )
    print(
        f"{name:5} parts: settle {settle:.1f} ms every frame, read {read_each:.1f} ms per settled "
        f"stretch ({reads} in {frames} frames), rest {rest:.1f} ms, MJPEG decode {decode:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", type=int, default=120, help="shots of the demo match to play")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--pi4", type=float, default=7.5, help="Pi 4 single core: times slower")
    parser.add_argument("--pi5", type=float, default=2.5, help="Pi 5 single core: times slower")
    parser.add_argument("--simd", type=float, default=1.3, help="extra factor on image work")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})

    timings = measure(args.shots, args.seed)
    print(f"measured here (x86-64, one core): {len(timings.frame)} frames, 1280x720, 10 fps")
    print(f"  MJPEG decode   {ms(timings.decode)}")
    print(f"  settle         {ms(timings.settle)}")
    print(f"  read (n={len(timings.read):3})  {ms(timings.read)}")
    print(f"  rest           {ms(timings.rest)}")
    print(f"  whole frame    {ms(timings.frame)}  (decode not included)")
    print(
        f"scaled by single-core ratios: Pi 5 x{args.pi5}, Pi 4 x{args.pi4}; image work also "
        f"x{args.simd} (vector width); budget {BUDGET_MS:.0f} ms a frame at {FPS:.0f} fps"
    )
    estimate("Pi 5", timings, args.pi5, args.simd)
    estimate("Pi 4", timings, args.pi4, args.simd)


if __name__ == "__main__":
    main()
