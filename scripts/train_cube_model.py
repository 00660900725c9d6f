"""Train the cube-face reader (:mod:`vision.cube_model`) from data made here from seeds.

    .venv/bin/pip install -e '.[train]'   # PyTorch (CPU) and onnx: for training only
    nice -n 10 .venv/bin/python scripts/train_cube_model.py [--seed 0]
        [--out vision/models/cube_face.onnx] [--drawn 30000] [--epochs 14] [--copies 120]
        [--width 24] [--quick]

Training data, all regenerated on each run (nothing downloaded, nothing stored but the weights):

* cube faces drawn here with OpenCV, seen as the reader's close-up sees them (:data:`SPAN` checker
  radii across, the face 1.05 to 1.55 radii): a light, dark or coloured cube with digits of the
  other polarity in any of OpenCV's Hershey fonts (upright or italic, thin or bold, one or two
  digits of 35-65% of the face), turned any way, a side face and a shadow showing as from a
  tilted camera, sometimes an inset border and a lamp's glare, on a board with checkers near,
  blurred, shrunk to a camera's size, noisy and JPEG-compressed; "no number": the bare board,
  checkers, a die, a cube showing an emblem or a blank face, a cube off the close-up's middle;
* the cubes of the photoreal renders in every ``tests/data/photoreal*`` set whose label says
  ``"split": "tune"`` (never ``heldout``): each numbered cube cut many times round its box's
  middle, turned any way and relit; its emblem, the dice and bare places of the same frames, on
  and beside the field, as "no number".

A tenth of the examples is kept apart and the accuracy on it printed. The network and its
training are those of ``scripts/train_dice_model.py`` (seven answers, 24 channels in the first
layer; crops turned a quarter at a time but never mirrored: a digit's mirror image is no digit),
written as ONNX for OpenCV's dnn module. About ten minutes on two cores.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import train_dice_model as dice_training  # noqa: E402

from vision.cube_model import (  # noqa: E402
    CROP,
    CUBE_LABELS,
    CUBE_MODEL_FILE,
    NO_NUMBER,
    SPAN,
    VALUES,
    cube_crop,
)
from vision.dice_model import load_model  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.synth import dice_devset  # noqa: E402
from vision.synth.photoreal import box_middle, calibrated_on_itself  # noqa: E402

Crops = list[npt.NDArray[np.uint8]]
#: every photoreal set in the repository; only its renders labelled ``split: tune`` are used
PHOTOREAL_SETS = dice_training.PHOTOREAL_SETS
#: drawing scale: a checker's radius in the drawing's pixels
RADIUS = 36.0
_FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_PLAIN,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_COMPLEX_SMALL,
    cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
)


# --- cube faces drawn --------------------------------------------------------------------------


def _square(centre: tuple[float, float], side: float, angle: float) -> npt.NDArray[np.int32]:
    c, s = math.cos(angle), math.sin(angle)
    half = side / 2
    corners = [(-half, -half), (half, -half), (half, half), (-half, half)]
    points = [(centre[0] + c * u - s * v, centre[1] + s * u + c * v) for u, v in corners]
    return np.rint(np.array(points)).astype(np.int32)


def _body_and_ink(rng: np.random.Generator) -> tuple[npt.NDArray[np.float64], ...]:
    kind = rng.random()
    if kind < 0.45:  # ivory or white, dark digits
        return rng.uniform(185, 250, 3), rng.uniform(0, 70, 3)
    if kind < 0.8:  # black or dark, light or gold digits
        body = rng.uniform(10, 75, 3)
        ink = rng.uniform(170, 250, 3) if rng.random() < 0.6 else np.array([60.0, 170, 210])
        return body, ink
    body = np.zeros(3)  # coloured: red, green, blue, brown; light digits
    body[int(rng.integers(3))] = rng.uniform(120, 220)
    body += rng.uniform(0, 60, 3)
    return body, rng.uniform(200, 250, 3)


def _number(size: int, text: str, face: float, rng: np.random.Generator) -> npt.NDArray[np.float32]:
    """``text`` drawn upright in the middle of a size x size mask (0..1), in a random font."""
    font = int(rng.choice(_FONTS)) | (cv2.FONT_ITALIC if rng.random() < 0.15 else 0)
    tall = face * rng.uniform(0.35, 0.65)
    (_w, unit), _ = cv2.getTextSize("8", font, 1.0, 1)
    scale = tall / max(unit, 1)
    thickness = max(1, round(tall * rng.uniform(0.07, 0.18)))
    (width, height), _ = cv2.getTextSize(text, font, scale, thickness)
    if width > 0.85 * face:  # two digits kept on the face
        scale *= 0.85 * face / width
        (width, height), _ = cv2.getTextSize(text, font, scale, thickness)
    mask = np.zeros((size, size), np.uint8)  # OpenCV writes text on 8-bit images only
    origin = (round(size / 2 - width / 2), round(size / 2 + height / 2))
    cv2.putText(mask, text, origin, font, scale, 255, thickness, cv2.LINE_AA)
    return np.asarray(mask, np.float32) / 255.0


def _emblem(size: int, face: float, rng: np.random.Generator) -> npt.NDArray[np.float32]:
    """A maker's emblem in the middle of a mask: a ring round letters, a star, or a crest."""
    mask = np.zeros((size, size), np.uint8)
    middle = (size // 2, size // 2)
    kind = rng.integers(3)
    if kind == 0:
        cv2.circle(mask, middle, round(face * rng.uniform(0.25, 0.4)), 255, 2, cv2.LINE_AA)
        word = "".join(rng.choice(list("ABCDEGKMNOPRSTVY"), int(rng.integers(1, 4))))
        font = int(rng.choice(_FONTS))
        scale = face / 60
        (width, height), _ = cv2.getTextSize(word, font, scale, 1)
        origin = (round(size / 2 - width / 2), round(size / 2 + height / 2))
        cv2.putText(mask, word, origin, font, scale, 255, max(1, round(face / 25)), cv2.LINE_AA)
    elif kind == 1:
        points = []
        for k in range(10):
            reach = face * (0.35 if k % 2 == 0 else 0.15)
            angle = math.pi * k / 5
            points.append((size / 2 + reach * math.sin(angle), size / 2 - reach * math.cos(angle)))
        cv2.fillPoly(mask, [np.rint(np.array(points)).astype(np.int32)], 255, cv2.LINE_AA)
    else:
        cv2.ellipse(
            mask, middle, (round(face * 0.3), round(face * 0.2)), 0, 0, 360, 255, -1, cv2.LINE_AA
        )
        cv2.ellipse(
            mask, middle, (round(face * 0.2), round(face * 0.1)), 0, 0, 360, 0, -1, cv2.LINE_AA
        )
    return np.asarray(mask, np.float32) / 255.0


def _draw_cube(
    canvas: npt.NDArray[np.float32],
    rng: np.random.Generator,
    centre: tuple[float, float],
    face: float,
    text: str | None,
) -> None:
    """A cube from above at ``centre``: its sides and shadow as a tilted camera sees them, its
    top face turned any way, and on it ``text`` (None: an emblem or nothing)."""
    size = canvas.shape[0]
    angle = rng.uniform(0, 2 * math.pi)
    body, ink = _body_and_ink(rng)
    lean = rng.uniform(-0.3, 0.3, 2) * face  # the sides a tilted camera sees, and the shadow
    shadow = _square((centre[0] + 1.3 * lean[0], centre[1] + 1.3 * lean[1]), face, angle)
    cv2.fillPoly(canvas, [shadow], tuple(float(v) for v in canvas[0, 0] * 0.45), cv2.LINE_AA)
    sides = _square((centre[0] + lean[0], centre[1] + lean[1]), face, angle)
    cv2.fillPoly(canvas, [sides], tuple(float(v) for v in body * 0.7), cv2.LINE_AA)
    top = _square(centre, face, angle)
    cv2.fillPoly(canvas, [top], tuple(float(v) for v in body), cv2.LINE_AA)
    if rng.random() < 0.3:  # an inset border
        border = _square(centre, face * rng.uniform(0.8, 0.9), angle)
        colour = tuple(float(v) for v in (body * 0.6 + ink * 0.4))
        cv2.polylines(canvas, [border], True, colour, 1, cv2.LINE_AA)
    mask: npt.NDArray[np.float32] | None = None
    if text is not None:
        mask = _number(size, text, face, rng)
    elif rng.random() < 0.6:
        mask = _emblem(size, face, rng)
    if mask is not None:
        turn = math.degrees(angle) + 90.0 * int(rng.integers(4))
        rotation = cv2.getRotationMatrix2D((size / 2, size / 2), turn, 1.0)
        rotation[:, 2] += (centre[0] - size / 2, centre[1] - size / 2)
        mask = cv2.warpAffine(mask, rotation, (size, size))
        canvas[:] = canvas * (1 - mask[..., None]) + ink.astype(np.float32) * mask[..., None]
    if rng.random() < 0.3:  # a lamp's glare on the face
        glare = np.zeros(canvas.shape[:2], np.float32)
        spot = (
            round(centre[0] + rng.uniform(-0.4, 0.4) * face),
            round(centre[1] + rng.uniform(-0.4, 0.4) * face),
        )
        axes = (round(face * rng.uniform(0.1, 0.3)), round(face * rng.uniform(0.05, 0.2)))
        cv2.ellipse(glare, spot, axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
        glare = cv2.GaussianBlur(glare, (0, 0), face * 0.08) * rng.uniform(0.3, 0.9)
        face_mask = np.zeros(canvas.shape[:2], np.float32)
        cv2.fillPoly(face_mask, [top], 1.0)
        glare *= face_mask
        canvas[:] = canvas * (1 - glare[..., None]) + 255.0 * glare[..., None]


def _camera(cut: npt.NDArray[np.float32], rng: np.random.Generator) -> npt.NDArray[np.uint8]:
    """A drawn close-up as a board camera gives it: blurred, at 14 to 40 pixels a radius (the
    close-up is shrunk to that and grown back to the model's size), noisy, JPEG-compressed."""
    span = cut.shape[0]
    seen = max(8, round(SPAN * rng.uniform(14, 40)))  # camera pixels across the close-up
    image = cv2.GaussianBlur(cut, (0, 0), rng.uniform(0.3, 1.5) * span / seen)
    small = cv2.resize(image, (seen, seen), interpolation=cv2.INTER_AREA)
    small = small * rng.uniform(0.6, 1.2) + rng.normal(0, rng.uniform(1, 7), small.shape)
    out = np.clip(small, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        _, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 95))])
        out = cv2.imdecode(data, cv2.IMREAD_COLOR)
    grey = cv2.cvtColor(out, cv2.COLOR_BGR2GRAY)
    return np.asarray(cv2.resize(grey, (CROP, CROP), interpolation=cv2.INTER_LINEAR), np.uint8)


def drawn_example(rng: np.random.Generator) -> tuple[npt.NDArray[np.uint8], int]:
    """One drawn close-up and its label (0 no number, 1..6 the values of :data:`VALUES`)."""
    size = round(3 * SPAN * RADIUS)
    canvas = dice_training._board(rng, size)
    middle = (size / 2, size / 2)
    face = RADIUS * rng.uniform(1.05, 1.55)
    kind = rng.random()
    label = NO_NUMBER
    if kind < 0.7:  # a numbered cube in the middle
        label = int(rng.integers(1, len(VALUES) + 1))
        shift = rng.uniform(-0.15, 0.15, 2) * face
        _draw_cube(
            canvas, rng, (middle[0] + shift[0], middle[1] + shift[1]), face, str(VALUES[label - 1])
        )
    elif kind < 0.8:  # a cube showing an emblem or nothing
        _draw_cube(canvas, rng, middle, face, None)
    elif kind < 0.88:  # a numbered cube off the close-up's middle
        angle, reach = rng.uniform(0, 2 * math.pi), rng.uniform(0.8, 1.3) * face
        spot = (middle[0] + reach * math.cos(angle), middle[1] + reach * math.sin(angle))
        _draw_cube(canvas, rng, spot, face, str(rng.choice(VALUES)))
    elif kind < 0.95:  # a die
        dice_devset._draw_die(
            canvas,
            rng,
            middle,
            RADIUS * rng.uniform(0.7, 1.1),
            int(rng.integers(1, 7)),
            dice_devset._die_style(rng),
            rng.uniform(0, 2 * math.pi),
        )
    # else the board alone, checkers round it
    half = SPAN * RADIUS / 2
    lo, hi = round(size / 2 - half), round(size / 2 + half)
    return _camera(canvas[lo:hi, lo:hi], rng), label


def drawn_examples(seed: int, count: int) -> tuple[Crops, list[int]]:
    return dice_training.draw_many(drawn_example, seed, 23, count)


# --- the photoreal renders' tuning split -------------------------------------------------------


def photoreal_examples(seed: int, folder: Path, copies: int) -> tuple[Crops, list[int]]:
    """Cut from the renders of ``folder`` labelled ``split: tune`` that show a cube."""
    crops: Crops = []
    labels: list[int] = []
    for number, label_file in enumerate(sorted(folder.glob("*.json"))):
        label = json.loads(label_file.read_text())
        if not isinstance(label, dict) or label.get("split") != "tune":
            continue
        if "field_corners" not in label or label.get("occluded"):
            continue
        try:
            image, field = calibrated_on_itself(label_file, label)
        except VisionError as error:
            print(f"  {label_file.name} left out: {error}", flush=True)
            continue
        to_field = field.homography()
        rng = np.random.default_rng((seed, 29, number))
        radius = field.radius
        taken: list[tuple[float, float]] = []
        cube = label.get("cube")
        if cube:
            cx, cy = box_middle(cube["box"], to_field)
            taken.append((cx, cy))
            value = NO_NUMBER if cube.get("logo") else VALUES.index(int(cube["value"])) + 1
            for _ in range(copies if value != NO_NUMBER else copies // 4):
                dx, dy = rng.uniform(-0.3, 0.3, 2) * radius
                crop = cube_crop(image, field, cx + dx, cy + dy, rng.uniform(0, 360))
                crops.append(dice_training._relit(crop, rng))
                labels.append(value)
        for die in label.get("dice", []):  # dice are no cube
            mx, my = box_middle(die["box"], to_field)
            for _ in range(4):
                shift = rng.uniform(-0.3, 0.3, 2) * radius
                crop = cube_crop(image, field, mx + shift[0], my + shift[1], rng.uniform(0, 360))
                crops.append(dice_training._relit(crop, rng))
                labels.append(NO_NUMBER)
        made = 0
        for _attempt in range(400):  # bare places and checkers, on the field and round it
            if made >= 40:
                break
            x = rng.uniform(-2.0 * radius, field.width + 2.0 * radius)
            y = rng.uniform(-2.0 * radius, field.height + 2.0 * radius)
            if any(math.hypot(x - tx, y - ty) < 1.3 * radius for tx, ty in taken):
                continue
            made += 1
            crops.append(
                dice_training._relit(cube_crop(image, field, x, y, rng.uniform(0, 360)), rng)
            )
            labels.append(NO_NUMBER)
    return crops, labels


# --- the whole run ----------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=ROOT / "vision" / "models" / CUBE_MODEL_FILE)
    parser.add_argument("--drawn", type=int, default=30000, help="drawn close-ups")
    parser.add_argument("--copies", type=int, default=120, help="cuts of each tuning render cube")
    parser.add_argument("--width", type=int, default=24, help="the first layer's channels")
    parser.add_argument("--epochs", type=int, default=14)
    args, began = dice_training.parse_run(parser)
    if args.quick:
        args.drawn, args.epochs, args.copies = 300, 1, 2
    crops, labels = drawn_examples(args.seed, args.drawn)
    print(f"drawn: {len(crops)} close-ups ({time.monotonic() - began:.0f} s)", flush=True)
    sets = PHOTOREAL_SETS[:1] if args.quick else PHOTOREAL_SETS
    for folder in sets:
        more, more_labels = photoreal_examples(args.seed, folder, args.copies)
        crops += more
        labels += more_labels
    print(f"photoreal tune: {len(crops)} in all ({time.monotonic() - began:.0f} s)", flush=True)
    stack = np.stack(crops)
    answers = np.asarray(labels, np.int64)
    print(f"labels {np.bincount(answers, minlength=CUBE_LABELS).tolist()}", flush=True)
    order = np.random.default_rng((args.seed, 31)).permutation(len(answers))
    kept = order[: len(order) // 10]
    used = order[len(order) // 10 :]
    network = dice_training.train(
        stack[used], answers[used], args.seed, args.epochs, args.width, CUBE_LABELS, mirror=False
    )
    dice_training.export(network, args.out)
    model = load_model(str(args.out), labels=CUBE_LABELS, what="cube-face")
    right = model.probabilities(stack[kept]).argmax(axis=1) == answers[kept]
    print(
        f"kept apart: {int(right.sum())} of {len(kept)} right ({right.mean():.1%}); "
        f"wrote {args.out} ({time.monotonic() - began:.0f} s)",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
