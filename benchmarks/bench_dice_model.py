"""The die-face model alone on rendered boards: each labelled die read at its labelled middle.

    .venv/bin/python benchmarks/bench_dice_model.py tests/data/photoreal [more folders]
        [--split heldout|tune|all] [--model FILE.onnx] [--jpeg 60] [--noise 4]

Each labelled image (``NAME.jpg`` + ``NAME.json`` with ``field_corners`` and ``dice``, as the
photoreal development set writes them) is calibrated on itself with its labelled corners; each
labelled die's middle is taken to the rectified field, and the crop the board reader would cut
there (:func:`vision.dice_model.cut_square`, a die's side 0.9 of a checker's radius) is read by
the model. A die is right when the model names its pips (a leaning die: "cocked"). The split is
the label's ``split`` (the styles tuned on, or held out from tuning); a folder of renders never
used at all is read with ``--split all``. This measures the model, not the board reader: where
the reader looks, and what it makes of the model's answers, are ``bench_field.py``'s figures.

Prints, per folder and in all: dice right, the share named with at least 0.9 of the model's
belief and how many of those are wrong, and what each label was read as. ``--jpeg`` and
``--noise`` give every frame a streaming camera's faults first, as ``bench_field.py`` does
(:func:`vision.synth.photoreal.camera_faults`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_field import add_camera_fault_options

from vision.dice_model import COCKED, CROP_PER_SIDE, cut_square, load_model
from vision.errors import VisionError
from vision.images import Image
from vision.synth.photoreal import camera_faults, labelled_field

SURE = 0.9


def crops_of(
    folder: Path, split: str, fault: Callable[[Image], Image] | None = None
) -> tuple[list[np.ndarray], list[int]]:
    """The crops at the labelled dice's middles and their labels (1..6, or COCKED), each frame
    through ``fault`` first where one is given."""
    crops, labels = [], []
    for label_file in sorted(folder.glob("*.json")):
        label = json.loads(label_file.read_text())
        if not isinstance(label, dict) or "field_corners" not in label or not label.get("dice"):
            continue
        if split != "all" and label.get("split") != split:
            continue
        try:
            labelled = labelled_field(label_file, label, fault)
        except VisionError as error:
            print(f"{label_file.name}: left out, calibration refused: {error}")
            continue
        grey = cv2.cvtColor(labelled.top, cv2.COLOR_BGR2GRAY)  # as the board reader cuts
        for middle, value in labelled.dice:
            crops.append(cut_square(grey, middle, CROP_PER_SIDE * labelled.side))
            labels.append(value)
    return crops, labels


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--split", choices=("heldout", "tune", "all"), default="heldout")
    parser.add_argument("--model", help="an ONNX die-face model (default: the shipped one)")
    add_camera_fault_options(parser)
    args = parser.parse_args()
    grain = np.random.default_rng(1)

    def fault(image: Image) -> Image:
        return camera_faults(image, args.jpeg, args.noise, grain)

    cv2.setNumThreads(1)
    model = load_model(args.model)
    confusion: Counter[tuple[int, int]] = Counter()
    totals = [0, 0, 0, 0]  # dice, right, sure, sure and wrong
    for folder in args.folders:
        crops, labels = crops_of(folder, args.split, fault)
        if not crops:
            print(f"{folder}: no labelled dice in the {args.split} split")
            continue
        odds = model.probabilities(np.stack(crops))
        named = odds.argmax(axis=1)
        sure = odds.max(axis=1) >= SURE
        truth = np.array(labels)
        right = named == truth
        row = [len(labels), int(right.sum()), int(sure.sum()), int((sure & ~right).sum())]
        totals = [a + b for a, b in zip(totals, row, strict=True)]
        confusion.update(zip(truth.tolist(), named.tolist(), strict=True))
        print(
            f"{folder}: {row[1]}/{row[0]} right ({100 * row[1] / row[0]:.1f}%); "
            f"{row[2]} named at >= {SURE}, {row[3]} of them wrong"
        )
    dice, right, sure, wrong = totals
    if dice:
        print(
            f"all ({args.split}): {right}/{dice} right ({100 * right / dice:.1f}%); "
            f"{sure} named at >= {SURE}, {wrong} of them wrong"
        )
        names = {COCKED: "cocked", 0: "no die"}
        for truth in sorted({t for t, _n in confusion}):
            read = ", ".join(
                f"{names.get(n, n)}: {c}" for (t, n), c in sorted(confusion.items()) if t == truth
            )
            print(f"  {names.get(truth, truth)} read as {read}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
