"""Dice benchmark (a script, not a test): the photo dice reader on each family of development data.

    .venv/bin/python benchmarks/bench_dice.py [--families real,drawn,...] [--drawn 300] [--seed 0]
        [--real DIR] [--json] [--misses]

Families come from :mod:`vision.dice_devset` (made from a seed, nothing stored). ``real`` is the
public photo set, tuned on before (reported, no longer a test); ``real-tinted``, ``real-degraded``
and ``drawn`` are the tuning families; ``real-dark`` and ``real-inverted`` are HELD OUT: never looked
at while tuning, reported apart. A die is right when a die with its pips is read in its image (the
multiset of pips read, met with the labelled one); "extra" counts dice read that are not there (a
cocked die read as a flat one counts as extra); an image is exact when its multiset is the labelled
one. Times are CPU time (process time, one thread) of :func:`read_dice_photo` alone, so that other work on the machine does not inflate them.
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import sys
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.dice import read_dice_photo  # noqa: E402
from vision.dice_devset import FAMILIES, HELD_OUT, samples  # noqa: E402

REAL = next(
    (
        base / "shared" / "data" / "real" / "dice-matteop65"
        for base in (ROOT.parent, ROOT)
        if (base / "shared" / "data" / "real" / "dice-matteop65").is_dir()
    ),
    ROOT.parent / "shared" / "data" / "real" / "dice-matteop65",
)


#: times (seconds) by frame size, over every family measured
BY_SIZE: dict[tuple[int, int], list[float]] = collections.defaultdict(list)


def measure(family: str, real: Path, seed: int, drawn: int, misses: bool) -> dict[str, float]:
    right = total = extra = exact = images = 0
    times: list[float] = []
    for sample in samples(family, real, seed=seed, drawn=drawn):
        began = time.process_time()
        readings = read_dice_photo(sample.image)
        times.append(time.process_time() - began)
        BY_SIZE[(sample.image.shape[1], sample.image.shape[0])].append(times[-1])
        truth = collections.Counter(sample.pips)
        seen = collections.Counter(d.pips for d in readings)
        right += sum((truth & seen).values())
        total += sum(truth.values())
        extra += sum((seen - truth).values())
        exact += truth == seen
        images += 1
        if misses and truth != seen:
            print(f"  {sample.name}: labelled {sorted(sample.pips)} read {sorted(seen.elements())}")
    return {
        "dice": total,
        "right": right,
        "accuracy": right / total if total else 1.0,
        "extra": extra,
        "images": images,
        "exact_images": exact / images if images else 1.0,
        "median_ms": 1000 * statistics.median(times) if times else 0.0,
        "worst_ms": 1000 * max(times) if times else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--drawn", type=int, default=300, help="drawn scenes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--real", type=Path, default=REAL, help="the public dice photo folder")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--misses", action="store_true", help="list each image read wrong")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    results = {}
    for family in args.families.split(","):
        if args.misses:
            print(f"{family}:")
        results[family] = measure(family, args.real, args.seed, args.drawn, args.misses)
    speed = {
        f"{w}x{h}": {
            "frames": len(t),
            "median_ms": 1000 * statistics.median(t),
            "worst_ms": 1000 * max(t),
        }
        for (w, h), t in sorted(BY_SIZE.items())
        if len(t) >= 10
    }
    if args.json:
        print(json.dumps({"families": results, "speed": speed}, indent=2))
        return
    print(
        f"{'family':16} {'role':9} {'dice':>5} {'right':>7} {'extra':>5} {'images':>7} {'ms med':>7} {'worst':>6}"
    )
    for family, r in results.items():
        role = "HELD OUT" if family in HELD_OUT else ("reported" if family == "real" else "tuning")
        print(
            f"{family:16} {role:9} {r['dice']:5d} {100 * r['accuracy']:6.1f}% {r['extra']:5d} "
            f"{100 * r['exact_images']:6.1f}% {r['median_ms']:7.1f} {r['worst_ms']:6.1f}"
        )
    for size, t in speed.items():
        print(
            f"{size:>9} frames: {t['frames']:4d}, median {t['median_ms']:.1f} ms, worst {t['worst_ms']:.1f} ms"
        )


if __name__ == "__main__":
    main()
