"""Train the stack counter (:mod:`vision.stack_model`) from the photoreal renders' tuning split.

    .venv/bin/pip install -e '.[train]'   # PyTorch (CPU) and onnx: for training only
    nice -n 10 .venv/bin/python scripts/train_stack_model.py [--seed 0]
        [--out vision/models/stack_count.onnx] [--epochs 16] [--width 16] [--quick]

Training data, regenerated on each run (nothing downloaded, nothing stored but the weights): the
24 points of every backgammon render in the ``tests/data/photoreal*`` sets whose label says
``"split": "tune"`` (never ``heldout``; Shesh Besh's standing stacks are another game's piling),
each calibrated on itself with its labelled corners as the board reader is, its field rectified,
and each point's strip (:func:`vision.stack_model.point_strip`) cut many times, moved a little
across and along the point and grown or shrunk a little, relit. Tall stacks are few among the
renders' points, so a point with more checkers is cut more often (:data:`COPIES`), and each
count is weighted by the inverse of its share in training.

A tenth of the renders (every tenth in each set's order) is kept apart: none of its points is
trained on, and the counts read there, from the strip cut as reading cuts it, are printed, with
how many the model is at least 0.5, 0.8 and 0.9 sure of and how many of those it counts right.
The network and its training are those of ``scripts/train_dice_model.py`` (16 answers; strips
mirrored across but never turned: a point's row grows from its base). A few minutes on two cores.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import train_dice_model as dice_training  # noqa: E402

from sheshbesh.locations import POINT_LOCATIONS  # noqa: E402
from vision.dice_model import load_model  # noqa: E402
from vision.stack_model import (  # noqa: E402
    SHAPE,
    STACK_LABELS,
    STACK_MODEL_FILE,
    count_strips,
    point_strip,
)

Strips = list[npt.NDArray[np.uint8]]
#: cuts of a point's strip by how many checkers lie there: none, 1 to 4, 5, 6 and more
COPIES = {0: 2, 1: 6, 5: 16, 6: 60}
#: how sure the kept-apart counts are reported at
SURE = (0.5, 0.8, 0.9)


def _copies(count: int) -> int:
    return COPIES[max(k for k in COPIES if k <= count)]


def _backgammon_in_view(label: dict[str, Any]) -> bool:
    """A backgammon frame with no hand over the field."""
    return label.get("variant", "backgammon") == "backgammon" and not label.get("occluded")


def photoreal_points(
    seed: int, folder: Path, scale: int
) -> tuple[Strips, list[int], Strips, list[int]]:
    """The strips of the tuning renders of ``folder``: cuts to train on and their counts, then
    the kept-apart renders' strips (cut as reading cuts them) and their counts. ``scale``
    multiplies the cuts of each point (:data:`COPIES`)."""
    strips: Strips = []
    counts: list[int] = []
    apart: Strips = []
    apart_counts: list[int] = []
    usable = 0
    for number, label, labelled in dice_training.tuning_fields(folder, _backgammon_in_view):
        usable += 1
        kept_apart = usable % 10 == 0
        rng = np.random.default_rng((seed, 37, number))
        for location in POINT_LOCATIONS:
            count = sum(label["locations"][location].values())
            if kept_apart:
                apart.append(point_strip(labelled.top, labelled.field, location))
                apart_counts.append(count)
                continue
            for _ in range(_copies(count) * scale):
                shift = (rng.uniform(-0.15, 0.15), rng.uniform(-0.25, 0.25))
                strip = point_strip(
                    labelled.top, labelled.field, location, shift, rng.uniform(0.93, 1.07)
                )
                strips.append(dice_training._relit(strip, rng))
                counts.append(count)
    return strips, counts, apart, apart_counts


def _report(model_file: Path, apart: Strips, counts: list[int]) -> None:
    """The kept-apart points as the shipped code reads them: right, and sure and right."""
    if not apart:
        print("kept apart: none", flush=True)
        return
    model = load_model(str(model_file), labels=STACK_LABELS, what="stack-count", shape=SHAPE)
    guesses = count_strips(np.stack(apart), model=model)
    guess = np.array([g.count for g in guesses])
    sure = np.array([g.probability for g in guesses])
    truth = np.asarray(counts)
    for name, chosen in (("all", truth >= 0), ("5 or more", truth >= 5), ("6 or more", truth >= 6)):
        right = int((guess[chosen] == truth[chosen]).sum())
        parts = [f"{name}: {right} of {int(chosen.sum())} right"]
        for level in SURE:
            taken = chosen & (sure >= level)
            parts.append(
                f"{int((guess[taken] == truth[taken]).sum())} of {int(taken.sum())} at {level} sure"
            )
        print("kept apart, " + ", ".join(parts), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=ROOT / "vision" / "models" / STACK_MODEL_FILE)
    parser.add_argument("--width", type=int, default=16, help="the first layer's channels")
    parser.add_argument("--epochs", type=int, default=16)
    parser.add_argument("--copies", type=int, default=1, help="multiplies each point's cuts")
    args, began = dice_training.parse_run(parser)
    if args.quick:
        args.epochs = 1
    sets = dice_training.PHOTOREAL_SETS[:1] if args.quick else dice_training.PHOTOREAL_SETS
    strips: Strips = []
    counts: list[int] = []
    apart: Strips = []
    apart_counts: list[int] = []
    for folder in sets:
        more, more_counts, kept, kept_counts = photoreal_points(args.seed, folder, args.copies)
        strips += more
        counts += more_counts
        apart += kept
        apart_counts += kept_counts
    answers = np.asarray(counts, np.int64)
    print(
        f"photoreal tune: {len(strips)} strips, {len(apart)} points kept apart "
        f"({time.monotonic() - began:.0f} s); counts "
        f"{np.bincount(answers, minlength=STACK_LABELS).tolist()}",
        flush=True,
    )
    network = dice_training.train(
        np.stack(strips),
        answers,
        args.seed,
        args.epochs,
        args.width,
        STACK_LABELS,
        mirror=True,
        shape=SHAPE,
        turns=False,
    )
    dice_training.export(network, args.out, SHAPE)
    _report(args.out, apart, apart_counts)
    print(f"wrote {args.out} ({time.monotonic() - began:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
