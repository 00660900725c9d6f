"""The cube-face model alone on rendered boards: each labelled cube read at its labelled middle.

    .venv/bin/python benchmarks/bench_cube_model.py tests/data/photoreal [more folders]
        [--split heldout|tune|all] [--model FILE.onnx] [--turns 2]

Each labelled image (``NAME.jpg`` + ``NAME.json`` with ``field_corners`` and ``cube``, as the
photoreal development set writes them) with a numbered cube (not its emblem) and no hand over the
field is calibrated on itself with its labelled corners, as the board reader is; the middle of
the cube's box is taken to the field, and the close-up the board reader cuts there
(:func:`vision.cube_model.cube_crop`) is read by the model in ``--turns`` quarter turns (the
reader's :data:`vision.cube.MODEL_TURNS` unless said). A cube is right when the model names its
value. The split is the label's ``split``; a folder of
renders never used at all is read with ``--split all``. This measures the model, not the board
reader: where the reader looks, and what it makes of the model's answers, are
``bench_field.py``'s figures.

Prints, per folder and in all: cubes right, how many were named at least
:data:`vision.cube.MODEL_SURE` sure (where the reader lets the model's reading stand) and how
many of those are wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.cube import MODEL_SURE, MODEL_TURNS
from vision.cube_model import (
    CUBE_LABELS,
    CUBE_MODEL_FILE,
    classify_cube_crops,
    cube_crop,
    shipped_cube_model,
)
from vision.dice_model import load_model
from vision.errors import VisionError
from vision.synth.photoreal import box_middle, calibrated_on_itself


def cubes_of(folder: Path, split: str) -> tuple[list[np.ndarray], list[int]]:
    """The close-ups at the labelled numbered cubes' middles and their values."""
    crops, values = [], []
    for label_file in sorted(folder.glob("*.json")):
        label = json.loads(label_file.read_text())
        if not isinstance(label, dict) or "field_corners" not in label:
            continue
        cube = label.get("cube")
        if not cube or cube.get("logo") or label.get("occluded"):
            continue
        if split != "all" and label.get("split") != split:
            continue
        try:
            image, field = calibrated_on_itself(label_file, label)
        except VisionError as error:
            print(f"{label_file.name}: left out, calibration refused: {error}")
            continue
        crops.append(cube_crop(image, field, *box_middle(cube["box"], field.homography())))
        values.append(int(cube["value"]))
    return crops, values


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--split", choices=("heldout", "tune", "all"), default="heldout")
    parser.add_argument("--model", help="an ONNX cube-face model (default: the shipped one)")
    parser.add_argument("--turns", type=int, choices=(1, 2, 3, 4), default=MODEL_TURNS)
    args = parser.parse_args()
    for folder in args.folders:
        if not folder.is_dir():
            parser.error(f"{str(folder)!r} is not a folder of labelled frames")
    cv2.setNumThreads(1)
    model = (
        load_model(args.model, file=CUBE_MODEL_FILE, labels=CUBE_LABELS, what="cube-face")
        if args.model
        else shipped_cube_model()
    )
    totals = [0, 0, 0, 0]  # cubes, right, sure and right, sure and wrong
    for folder in args.folders:
        crops, values = cubes_of(folder, args.split)
        if not crops:
            continue
        guesses = classify_cube_crops(np.stack(crops), args.turns, model)
        right = [g.value == v for g, v in zip(guesses, values, strict=True)]
        sure = [g.probability >= MODEL_SURE for g in guesses]
        row = [
            len(values),
            sum(right),
            sum(s and r for s, r in zip(sure, right, strict=True)),
            sum(s and not r for s, r in zip(sure, right, strict=True)),
        ]
        totals = [a + b for a, b in zip(totals, row, strict=True)]
        print(
            f"{folder}: {row[1]}/{row[0]} right; at >= {MODEL_SURE} sure {row[2]} right, "
            f"{row[3]} wrong"
        )
    cubes, right_all, sure_right, sure_wrong = totals
    if not cubes:
        print(f"no labelled numbered cubes in the {args.split} split")
        return 1
    print(
        f"all ({args.split}): {right_all}/{cubes} right ({100 * right_all / cubes:.1f}%); "
        f"at >= {MODEL_SURE} sure {sure_right} right, {sure_wrong} wrong"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
