"""Dice benchmark (a script, not a test): the photo dice reader on each family of development data.

    .venv/bin/python benchmarks/bench_dice.py [--families real,drawn,...] [--drawn 300] [--seed 0]
        [--real DIR] [--json] [--misses] [--photoreal tests/data/photoreal] [--model] [--pips-only]

Families come from :mod:`vision.synth.dice_devset` (made from a seed, nothing stored). ``real`` is the
public photo set, tuned on before (reported, no longer a test); ``real-tinted``, ``real-degraded``
and ``drawn`` are the tuning families; ``real-dark`` and ``real-inverted`` are HELD OUT: never looked
at while tuning, reported apart. A die is right when a die with its pips is read in its image (the
multiset of pips read, met with the labelled one); "extra" counts dice read that are not there (a
cocked die read as a flat one counts as extra); an image is exact when its multiset is the labelled
one. The photo reader lets the die-face model judge each face it reads from pips; ``--pips-only``
reads from the pips alone, as it did before. ``--model`` measures the learned face model
(:mod:`vision.dice_model`) alone instead: each labelled die's crop read as 1..6. Times are CPU time (process time, one thread) of :func:`read_dice_photo` alone, so that other work on the machine does not inflate them.
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
from vision.synth.dice_devset import FAMILIES, HELD_OUT, samples  # noqa: E402

REAL = next(
    (
        base / "shared" / "data" / "real" / "dice-matteop65"
        for base in (ROOT.parent, ROOT)
        if (base / "shared" / "data" / "real" / "dice-matteop65").is_dir()
    ),
    ROOT.parent / "shared" / "data" / "real" / "dice-matteop65",
)


#: drawn dice by kind (die style, small, touching, cocked): [right, labelled, extra]
KINDS: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0])
#: times (seconds) by frame size, over every family measured
BY_SIZE: dict[tuple[int, int], list[float]] = collections.defaultdict(list)


def measure(
    family: str, real: Path, seed: int, drawn: int, misses: bool, learned: bool = True
) -> dict[str, float]:
    right = total = extra = exact = images = 0
    times: list[float] = []
    for sample in samples(family, real, seed=seed, drawn=drawn):
        began = time.process_time()
        readings = read_dice_photo(sample.image, learned=learned)
        times.append(time.process_time() - began)
        BY_SIZE[(sample.image.shape[1], sample.image.shape[0])].append(times[-1])
        truth = collections.Counter(sample.pips)
        seen = collections.Counter(d.pips for d in readings)
        right += sum((truth & seen).values())
        total += sum(truth.values())
        extra += sum((seen - truth).values())
        exact += truth == seen
        images += 1
        if family == "drawn":
            tags = [sample.notes["kind"]]
            tags += [t for t in ("small", "touching", "cocked") if f"-{t}" in sample.name]
            for tag in tags:
                KINDS[tag][0] += sum((truth & seen).values())
                KINDS[tag][1] += sum(truth.values())
                KINDS[tag][2] += sum((seen - truth).values())
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


def model_faces(family: str, real: Path, seed: int, drawn: int) -> dict[str, float]:
    """The learned face model (:mod:`vision.dice_model`) alone on each labelled flat die of a
    family: the crop around its label box (side 0.85 of the box's longer side) read as 1..6, and,
    as a check on "no die", a crop a die and a half to the side of each (right when read as none
    or when another labelled die lies there)."""
    from vision.dice_model import NOT_A_DIE, classify_face

    right = total = bare_right = bare = 0
    for sample in samples(family, real, seed=seed, drawn=drawn):
        height, width = sample.image.shape[:2]
        centres = [(x + w / 2, y + h / 2) for x, y, w, h in sample.boxes]
        for (x, y, w, h), pips in zip(sample.boxes, sample.pips, strict=True):
            side = 0.85 * max(w, h)
            cx, cy = x + w / 2, y + h / 2
            if side < 4 or not (0 <= cx < width and 0 <= cy < height):
                continue
            total += 1
            right += classify_face(sample.image, (cx, cy), side).label == pips
            beside = (cx + 1.5 * side, cy)
            if beside[0] < width and all(
                abs(beside[0] - c[0]) + abs(beside[1] - c[1]) > side for c in centres
            ):
                bare += 1
                bare_right += classify_face(sample.image, beside, side).label == NOT_A_DIE
    return {
        "dice": total,
        "right": right,
        "accuracy": right / total if total else 1.0,
        "bare": bare,
        "bare_refused": bare_right / bare if bare else 1.0,
    }


def photoreal(folder: Path) -> dict[str, float]:
    """Dice on rendered boards (labels ``dice: [{pips, box, cocked}]``): each flat die read inside
    its labelled box grown to twice its size, as a board reader that knows where dice lie would
    ask (:func:`read_dice` with a region and the die's size); right when the die read nearest the box's middle has
    the labelled pips. Cocked dice are counted apart (read as any flat die: "not refused")."""
    from vision.dice import read_dice
    from vision.images import load_image

    right = total = cocked = cocked_read = 0
    times: list[float] = []
    for label_file in sorted(folder.glob("*.json")):
        label = json.loads(label_file.read_text())
        if not isinstance(label, dict) or not label.get("dice"):
            continue
        image = load_image(folder / label["image"])
        for die in label["dice"]:
            x, y, w, h = die["box"]
            cx, cy, side = x + w / 2, y + h / 2, max(w, h)
            region = (round(cx - side), round(cy - side), round(2 * side), round(2 * side))
            began = time.process_time()
            readings = read_dice(image, region=region, die_side=side)
            times.append(time.process_time() - began)
            if die.get("cocked"):
                cocked += 1
                cocked_read += bool(readings)
                continue
            total += 1
            if readings:
                nearest = min(
                    readings,
                    key=lambda d: (
                        abs(d.box[0] + d.box[2] / 2 - cx) + abs(d.box[1] + d.box[3] / 2 - cy)
                    ),
                )
                right += nearest.pips == die["pips"]
    return {
        "dice": total,
        "right": right,
        "accuracy": right / total if total else 1.0,
        "cocked": cocked,
        "cocked_read_as_flat": cocked_read,
        "median_ms": 1000 * statistics.median(times) if times else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--drawn", type=int, default=300, help="drawn scenes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--real", type=Path, default=REAL, help="the public dice photo folder")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--misses", action="store_true", help="list each image read wrong")
    parser.add_argument(
        "--photoreal", type=Path, help="also read the dice of rendered boards in this folder"
    )
    parser.add_argument(
        "--model",
        action="store_true",
        help="measure the learned face model alone on each family's labelled dice instead",
    )
    parser.add_argument(
        "--pips-only",
        action="store_true",
        help="read each photo from its pips alone, without the die-face model's word on each face",
    )
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if args.model:
        print(f"{'family':16} {'role':9} {'dice':>5} {'model right':>11} {'bare refused':>12}")
        for family in args.families.split(","):
            r = model_faces(family, args.real, args.seed, args.drawn)
            role = (
                "HELD OUT" if family in HELD_OUT else ("reported" if family == "real" else "tuning")
            )
            print(
                f"{family:16} {role:9} {r['dice']:5d} {100 * r['accuracy']:10.1f}% "
                f"{100 * r['bare_refused']:11.1f}%"
            )
        return
    results = {}
    for family in args.families.split(","):
        if args.misses:
            print(f"{family}:")
        results[family] = measure(
            family, args.real, args.seed, args.drawn, args.misses, not args.pips_only
        )
    speed = {
        f"{w}x{h}": {
            "frames": len(t),
            "median_ms": 1000 * statistics.median(t),
            "worst_ms": 1000 * max(t),
        }
        for (w, h), t in sorted(BY_SIZE.items())
        if len(t) >= 10
    }
    rendered = photoreal(args.photoreal) if args.photoreal else None
    if args.json:
        print(json.dumps({"families": results, "speed": speed, "photoreal": rendered}, indent=2))
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
    if rendered:
        print(
            f"photoreal boards, each die read in its region: {rendered['right']}/{rendered['dice']} "
            f"flat dice right ({100 * rendered['accuracy']:.1f}%), {rendered['cocked_read_as_flat']}"
            f"/{rendered['cocked']} cocked dice read as flat, median {rendered['median_ms']:.1f} ms"
        )
    for kind, (good, labelled, more) in sorted(KINDS.items()):
        share = 100 * good / labelled if labelled else 100.0
        print(f"  drawn {kind:12} {labelled:4d} dice {share:6.1f}% right, {more} extra")
    for size, t in speed.items():
        print(
            f"{size:>9} frames: {t['frames']:4d}, median {t['median_ms']:.1f} ms, worst {t['worst_ms']:.1f} ms"
        )


if __name__ == "__main__":
    main()
