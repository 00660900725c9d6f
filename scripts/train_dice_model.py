"""Train the die-face classifier (:mod:`vision.dice_model`) from data made here from seeds.

    .venv/bin/pip install -e '.[train]'   # PyTorch (CPU) and onnx: for training only
    nice -n 10 .venv/bin/python scripts/train_dice_model.py [--seed 0] [--out vision/models/dice_face.onnx]
        [--drawn 24000] [--epochs 12] [--width 16] [--crops FILE.npz] [--quick]

Training data, all regenerated on each run (nothing downloaded, nothing stored but the weights):

* dice drawn here with OpenCV at the sizes a board camera sees them (14-40 pixels a side), of
  either polarity (light dice with dark pips, dark or coloured or see-through dice with light
  pips), turned, a little foreshortened, with a side face and a shadow, blurred, noisy and
  JPEG-compressed, on wood, felt or plain boards with checkers, point edges and a cube around;
  a die leaning on a checker is the "cocked" label; crops of the same boards with no die in the
  middle (bare board, a checker's rim, a point's edge, the cube's digits, a word printed on the
  board, a die off to one side) are "no die";
* the dice development set's TUNING families only (``real-tinted``, ``real-degraded``,
  ``drawn``: :data:`vision.synth.dice_devset.TUNING`), each labelled die cut out four times (turned at random), and
  bare patches of the same photos;
* the photoreal renders in every ``tests/data/photoreal*`` set whose label says ``"split": "tune"``
  (never ``heldout``, never the public photos of the ``real`` family): each die cut from the rectified field as the board reader sees it, many times over
  (turned, mirrored, shifted, rescaled, relit), and bare patches of those fields (half of them
  anywhere, half where the field has detail: a printed word, a point's tip, a checker's rim);
  and the same of the tuning renders of every ``tests/data/dice-renders*`` set (scenes rendered
  with several pairs of dice, ``python -m synth render --dice-pairs N``; fewer cuts of each die).

A tenth of the examples is kept apart and the accuracy on it printed. The model is the small
convolutional network of :mod:`vision.dice_model`, trained with PyTorch on the CPU (AdamW, one-cycle
rate, the crops turned, mirrored, moved and re-contrasted on the fly) and written as ONNX for
OpenCV's dnn module; reading needs neither PyTorch nor onnx. The same seed gives the same weights
on the same machine.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.dice_model import (  # noqa: E402
    COCKED,
    CROP,
    CROP_PER_SIDE,
    LABELS,
    MODEL_FILE,
    NOT_A_DIE,
    cut_square,
    load_model,
    standardised,
)
from vision.errors import VisionError  # noqa: E402
from vision.synth import dice_devset  # noqa: E402
from vision.synth.photoreal import LabelledField, labelled_field  # noqa: E402

Crops = list[npt.NDArray[np.uint8]]
#: every photoreal set in the repository; only its renders labelled ``split: tune`` are used
PHOTOREAL_SETS = tuple(sorted((ROOT / "tests" / "data").glob("photoreal*")))
#: renders made to learn dice from (``python -m synth render --dice-pairs N``: several pairs a
#: frame, so no position to read); their tuning renders are cut as the photoreal sets' are
DICE_SETS = tuple(sorted((ROOT / "tests" / "data").glob("dice-renders*")))
REAL = ROOT.parent / "shared" / "data" / "real" / "dice-matteop65"
#: drawing scale: dice are drawn this big, then shrunk to the size a board camera sees
DRAWN_SIDE = 32.0


# --- dice drawn at board sizes ------------------------------------------------------------------


def _checker(
    canvas: npt.NDArray[np.float32],
    rng: np.random.Generator,
    centre: tuple[float, float],
    radius: float,
) -> None:
    colour = rng.uniform(0, 255, 3)
    cv2.circle(
        canvas,
        (round(centre[0]), round(centre[1])),
        round(radius),
        tuple(colour * 0.7),
        -1,
        cv2.LINE_AA,
    )
    cv2.circle(
        canvas,
        (round(centre[0]), round(centre[1])),
        round(radius * 0.85),
        tuple(colour),
        -1,
        cv2.LINE_AA,
    )
    if rng.random() < 0.5:  # ridges or a marbled rim
        cv2.circle(
            canvas,
            (round(centre[0]), round(centre[1])),
            round(radius * 0.6),
            tuple(colour * 0.85),
            2,
            cv2.LINE_AA,
        )


def _board(rng: np.random.Generator, size: int) -> npt.NDArray[np.float32]:
    """A patch of board: a surface, maybe a point's edge across it, checkers near it."""
    canvas = dice_devset._surface(rng, size, size)
    if rng.random() < 0.4:  # a point: a long thin triangle's edge crossing the patch
        colour = rng.uniform(0, 255, 3)
        base_x = rng.uniform(-size, 2 * size)
        tip = (rng.uniform(0, size), rng.uniform(-size, 2 * size))
        width = rng.uniform(0.3, 0.8) * size
        triangle = np.array(
            [[base_x, -size if rng.random() < 0.5 else 2 * size], [base_x + width, -size], tip]
        )
        cv2.fillPoly(canvas, [np.rint(triangle).astype(np.int32)], tuple(colour), cv2.LINE_AA)
    for _ in range(int(rng.integers(0, 4))):
        radius = DRAWN_SIDE * rng.uniform(1.0, 1.25)
        angle = rng.uniform(0, 2 * math.pi)
        reach = radius + rng.uniform(0.6, 1.2) * DRAWN_SIDE  # clear of the middle's die
        _checker(
            canvas,
            rng,
            (size / 2 + reach * math.cos(angle), size / 2 + reach * math.sin(angle)),
            radius,
        )
    return canvas


def _cube(
    canvas: npt.NDArray[np.float32], rng: np.random.Generator, centre: tuple[float, float]
) -> None:
    """The doubling cube from above: a pale or dark square with a number of one or two digits."""
    side = DRAWN_SIDE * rng.uniform(1.0, 1.3)
    light = rng.random() < 0.6
    body = rng.uniform(190, 250, 3) if light else rng.uniform(10, 70, 3)
    ink = rng.uniform(0, 50, 3) if light else rng.uniform(200, 250, 3)
    x, y = centre
    corners = np.array([[x - side / 2, y - side / 2], [x + side / 2, y + side / 2]])
    cv2.rectangle(
        canvas,
        tuple(np.rint(corners[0]).astype(int)),
        tuple(np.rint(corners[1]).astype(int)),
        tuple(body),
        -1,
    )
    text = str(rng.choice(["2", "4", "8", "16", "32", "64"]))
    scale = side / 40 * (1.0 if len(text) == 1 else 0.8)
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
    glyphs = np.zeros(canvas.shape[:2], np.uint8)  # OpenCV writes text on 8-bit images only
    cv2.putText(
        glyphs,
        text,
        (round(x - tw / 2), round(y + th / 2)),
        cv2.FONT_HERSHEY_SIMPLEX,
        scale,
        255,
        max(1, round(side / 14)),
        cv2.LINE_AA,
    )
    share = (glyphs.astype(np.float32) / 255)[..., None]
    canvas[:] = canvas * (1 - share) + ink.astype(np.float32) * share


#: Hershey fonts a board's printed name or maker's word may look like
_FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_PLAIN,
)


def _lettering(
    canvas: npt.NDArray[np.float32], rng: np.random.Generator, centre: tuple[float, float]
) -> None:
    """A word printed on the board (its name, a maker's mark) running through ``centre``:
    capitals a third of a die to a die high; round letters (O, D, B) ring like pips."""
    word = "".join(rng.choice(list("ABCDEGKMNOPRSTUVY"), int(rng.integers(3, 11))))
    font = int(rng.choice(_FONTS))
    height = DRAWN_SIDE * rng.uniform(0.35, 1.0)
    (_w, unit), _ = cv2.getTextSize("M", font, 1.0, 1)
    scale = height / max(unit, 1)
    thickness = max(1, round(scale * rng.uniform(1.0, 2.5)))
    (width, tall), _ = cv2.getTextSize(word, font, scale, thickness)
    x = centre[0] - width * rng.uniform(0.1, 0.9)
    y = centre[1] + tall / 2 + rng.uniform(-0.3, 0.3) * tall
    glyphs = np.zeros(canvas.shape[:2], np.uint8)  # OpenCV writes text on 8-bit images only
    cv2.putText(glyphs, word, (round(x), round(y)), font, scale, 255, thickness, cv2.LINE_AA)
    ink = rng.uniform(0, 255, 3).astype(np.float32)
    share = (glyphs.astype(np.float32) / 255)[..., None]
    canvas[:] = canvas * (1 - share) + ink * share


def _shrunk(
    canvas: npt.NDArray[np.float32], rng: np.random.Generator, factor: float
) -> npt.NDArray[np.uint8]:
    """The drawing as a board camera would give it: smaller, blurred, noisy, JPEG-compressed."""
    image = cv2.GaussianBlur(canvas, (0, 0), rng.uniform(0.3, 1.6) / factor)
    small = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    small = small * rng.uniform(0.6, 1.2) + rng.normal(0, rng.uniform(1, 7), small.shape)
    out = np.clip(small, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        _, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 95))])
        out = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return np.asarray(out, np.uint8)


def drawn_example(rng: np.random.Generator) -> tuple[npt.NDArray[np.uint8], int]:
    """One crop of a drawn board patch and its label (0 no die, 1..6, 7 cocked)."""
    size = round(DRAWN_SIDE * 4)
    canvas = _board(rng, size)
    middle = (size / 2, size / 2)
    style = dice_devset._die_style(rng)
    style["depth"] = float(style["depth"]) * 0.4  # type: ignore[arg-type]  # nearly from above
    choice = rng.random()
    if choice < 0.62:
        label = int(rng.integers(1, 7))
    elif choice < 0.69:
        label = COCKED
    else:
        label = NOT_A_DIE
    centre = middle
    if label == NOT_A_DIE:
        what = rng.choice(5, p=[0.35, 0.2, 0.1, 0.2, 0.15])
        if what == 0:  # a die, but off the crop's middle (the model must say where a die is)
            angle = rng.uniform(0, 2 * math.pi)
            reach = rng.uniform(0.5, 1.3) * DRAWN_SIDE
            off = (middle[0] + reach * math.cos(angle), middle[1] + reach * math.sin(angle))
            dice_devset._draw_die(
                canvas,
                rng,
                off,
                DRAWN_SIDE,
                int(rng.integers(1, 7)),
                style,
                rng.uniform(0, math.pi / 2),
            )
        elif what == 1:  # a checker's rim through the middle
            angle = rng.uniform(0, 2 * math.pi)
            radius = DRAWN_SIDE * rng.uniform(1.0, 1.25)
            reach = radius * rng.uniform(0.7, 1.1)
            _checker(
                canvas,
                rng,
                (middle[0] + reach * math.cos(angle), middle[1] + reach * math.sin(angle)),
                radius,
            )
        elif what == 2:
            _cube(canvas, rng, (middle[0] + rng.uniform(-4, 4), middle[1] + rng.uniform(-4, 4)))
        elif what == 4:  # a word printed on the board
            _lettering(canvas, rng, middle)
        # what == 3: the bare board (with whatever _board put around it)
    elif label == COCKED:  # leaning on a checker: its top face steeply foreshortened
        angle = rng.uniform(0, 2 * math.pi)
        _checker(
            canvas,
            rng,
            (
                middle[0] + 1.0 * DRAWN_SIDE * math.cos(angle),
                middle[1] + 1.0 * DRAWN_SIDE * math.sin(angle),
            ),
            DRAWN_SIDE * 1.1,
        )
        dice_devset._draw_die(
            canvas,
            rng,
            middle,
            DRAWN_SIDE,
            int(rng.integers(1, 7)),
            style,
            rng.uniform(0, math.pi / 2),
            squash=rng.uniform(0.45, 0.65),
            lean=rng.uniform(-0.45, 0.45),
        )
    else:
        if rng.random() < 0.25:  # a second die touching it
            angle = rng.choice([0.0, math.pi / 2, math.pi, 1.5 * math.pi]) + rng.uniform(-0.3, 0.3)
            other = (
                middle[0] + 1.05 * DRAWN_SIDE * math.cos(angle),
                middle[1] + 1.05 * DRAWN_SIDE * math.sin(angle),
            )
            dice_devset._draw_die(
                canvas,
                rng,
                other,
                DRAWN_SIDE,
                int(rng.integers(1, 7)),
                style,
                rng.uniform(-0.2, 0.2),
            )
        dice_devset._draw_die(
            canvas,
            rng,
            middle,
            DRAWN_SIDE,
            label,
            style,
            rng.uniform(0, math.pi / 2),
            squash=rng.uniform(0.85, 1.0),
        )
    side = rng.uniform(14, 40)
    factor = side / DRAWN_SIDE
    image = _shrunk(canvas, rng, factor)
    jitter = rng.uniform(-0.2, 0.2, 2) * side
    guess = side * rng.uniform(0.8, 1.25)  # the caller's idea of a die's side is rough
    crop = cut_square(
        image,
        (centre[0] * factor + jitter[0], centre[1] * factor + jitter[1]),
        CROP_PER_SIDE * guess,
    )
    return crop, label


def draw_many(
    draw: Callable[[np.random.Generator], tuple[npt.NDArray[np.uint8], int]],
    seed: int,
    stream: int,
    count: int,
) -> tuple[Crops, list[int]]:
    """``count`` examples made by ``draw``, each from its own generator (``seed``, ``stream``,
    its index): the same examples on every run, whichever are asked for."""
    crops, labels = [], []
    for index in range(count):
        crop, label = draw(np.random.default_rng((seed, stream, index)))
        crops.append(crop)
        labels.append(label)
    return crops, labels


def drawn_examples(seed: int, count: int) -> tuple[Crops, list[int]]:
    return draw_many(drawn_example, seed, 11, count)


# --- labelled images: the devset's tuning families, the photoreal tuning split -----------------


def _examples_of(
    image: npt.NDArray[np.uint8],
    dice: list[tuple[tuple[float, float], float, int]],
    rng: np.random.Generator,
    copies: int,
    bare: int,
) -> Iterator[tuple[npt.NDArray[np.uint8], int]]:
    """Each die (centre, side, label) cut ``copies`` times, turned, mirrored, shifted, rescaled,
    relit, and a third as often off its middle (no die there); and ``bare`` patches at least a die and a half from every die."""
    height, width = image.shape[:2]
    for (cx, cy), side, label in dice:
        for _ in range(copies):
            shift = rng.uniform(-0.2, 0.2, 2) * side
            span = CROP_PER_SIDE * side * rng.uniform(0.85, 1.2)
            crop = cut_square(
                image,
                (cx + shift[0], cy + shift[1]),
                span,
                rng.uniform(0, 360),
                bool(rng.random() < 0.5),
            )
            yield _relit(crop, rng), label
        for _ in range(max(1, copies // 3)):  # the same die off the crop's middle: no die here
            angle, reach = rng.uniform(0, 2 * math.pi), rng.uniform(0.5, 1.2) * side
            spot = (cx + reach * math.cos(angle), cy + reach * math.sin(angle))
            span = CROP_PER_SIDE * side * rng.uniform(0.85, 1.2)
            crop = cut_square(image, spot, span, rng.uniform(0, 360), bool(rng.random() < 0.5))
            yield _relit(crop, rng), NOT_A_DIE
    sides = [s for _c, s, _l in dice] or [0.04 * width]
    typical = float(np.median(sides))
    # half the bare patches where the picture has detail (a printed word, a point's tip, a
    # checker's rim, grain): where a reader looking for pips looks, and most often errs
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    detail = cv2.blur(
        cv2.magnitude(
            cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
        ),
        (max(1, round(typical / 2)), max(1, round(typical / 2))),
    )[::2, ::2]
    weights = detail.ravel().astype(np.float64) ** 2
    weights /= max(float(weights.sum()), 1e-9)
    made = 0
    for attempt in range(bare * 20):
        if made >= bare:
            break
        if attempt % 2:
            spot = int(rng.choice(weights.size, p=weights))
            y, x = 2.0 * (spot // detail.shape[1]), 2.0 * (spot % detail.shape[1])
        else:
            x, y = rng.uniform(0, width), rng.uniform(0, height)
        if any(math.hypot(x - c[0], y - c[1]) < 1.5 * max(s, typical) for c, s, _l in dice):
            continue
        made += 1
        span = CROP_PER_SIDE * typical * rng.uniform(0.85, 1.2)
        yield _relit(cut_square(image, (x, y), span, rng.uniform(0, 360)), rng), NOT_A_DIE


def _relit(crop: npt.NDArray[np.uint8], rng: np.random.Generator) -> npt.NDArray[np.uint8]:
    """Another light and another camera: gain, gamma, a little blur or noise."""
    values = np.power(crop.astype(np.float32) / 255, rng.uniform(0.7, 1.4)) * rng.uniform(0.7, 1.2)
    if rng.random() < 0.3:
        values = np.asarray(cv2.GaussianBlur(values, (0, 0), rng.uniform(0.4, 1.0)), np.float32)
    noisy = values * 255 + rng.normal(0, rng.uniform(0, 4), values.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8)


def devset_examples(seed: int, real: Path) -> tuple[Crops, list[int]]:
    """Cut from the dice development set's tuning families (never its held-out or ``real``)."""
    crops, labels = [], []
    for family in dice_devset.TUNING:
        for number, sample in enumerate(dice_devset.samples(family, real, seed=seed, drawn=300)):
            rng = np.random.default_rng((seed, 13, dice_devset.FAMILIES.index(family), number))
            dice = [
                ((x + w / 2, y + h / 2), 0.85 * max(w, h), pips)
                for (x, y, w, h), pips in zip(sample.boxes, sample.pips, strict=True)
                if w > 0 and h > 0
            ]
            for crop, label in _examples_of(sample.image, dice, rng, copies=4, bare=3):
                crops.append(crop)
                labels.append(label)
    return crops, labels


def tuning_fields(
    folder: Path, also: Callable[[dict[str, Any]], bool] | None = None
) -> Iterator[tuple[int, dict[str, Any], LabelledField]]:
    """The photoreal renders of ``folder`` labelled ``split: tune`` (and passing ``also``), each
    calibrated on itself: (its number among the folder's label files, its label, its field). A
    render whose calibration is refused is left out, saying so."""
    for number, label_file in enumerate(sorted(folder.glob("*.json"))):
        label = json.loads(label_file.read_text())
        if (
            not isinstance(label, dict)
            or label.get("split") != "tune"
            or "field_corners" not in label
            or (also is not None and not also(label))
        ):
            continue
        try:
            labelled = labelled_field(label_file, label)
        except VisionError as error:
            print(f"  {label_file.name} left out: {error}", flush=True)
            continue
        yield number, label, labelled


def photoreal_examples(seed: int, folder: Path, copies: int) -> tuple[Crops, list[int]]:
    """Cut from the rectified fields of the photoreal renders labelled ``split: tune`` only."""
    crops, labels = [], []
    for number, _label, labelled in tuning_fields(folder):
        dice = [(middle, labelled.side, value) for middle, value in labelled.dice]
        rng = np.random.default_rng((seed, 17, number))
        for crop, value in _examples_of(labelled.top, dice, rng, copies=copies, bare=250):
            crops.append(crop)
            labels.append(value)
    return crops, labels


# --- the network ------------------------------------------------------------------------------


def _network(
    torch: Any, width: int, answers: int = LABELS, shape: tuple[int, int] = (CROP, CROP)
) -> Any:
    """The classifier of :mod:`vision.dice_model`: three 3x3 convolutions (``width``, twice and
    four times as many channels), each with 2x2 max pooling; the first without bias and followed
    by an absolute value (a crop and its negative score alike), the others by ReLU; then a hidden
    layer of 64 and ``answers`` scores (eight for a die's face), for crops of ``shape`` (rows,
    columns)."""
    nn = torch.nn

    class Network(nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.first = nn.Conv2d(1, width, 3, padding=1, bias=False)
            self.second = nn.Conv2d(width, 2 * width, 3, padding=1)
            self.third = nn.Conv2d(2 * width, 4 * width, 3, padding=1)
            self.hidden = nn.Linear(4 * width * (shape[0] // 8) * (shape[1] // 8), 64)
            self.scores = nn.Linear(64, answers)
            self.dropout = nn.Dropout(0.3)

        def forward(self, x: Any) -> Any:
            pool, relu = nn.functional.max_pool2d, nn.functional.relu
            x = pool(torch.abs(self.first(x)), 2)
            x = pool(relu(self.second(x)), 2)
            x = pool(relu(self.third(x)), 2)
            return self.scores(self.dropout(relu(self.hidden(torch.flatten(x, 1)))))

    return Network()


def _augmented(
    torch: Any, batch: Any, rng: np.random.Generator, mirror: bool = True, turns: bool = True
) -> Any:
    """The same faces another way: turned a quarter at a time (unless ``turns`` is false: a
    point's row has a base), mirrored left to right (unless ``mirror`` is false: a digit's mirror
    image is no digit), moved up to two pixels, another contrast and a little noise (a die's
    count is the same whichever way it lies)."""
    if turns:
        batch = torch.rot90(batch, int(rng.integers(4)), (2, 3))
    if rng.random() < 0.5 and mirror:
        batch = batch.flip(3)
    dx, dy = (int(v) for v in rng.integers(-2, 3, 2))
    batch = torch.roll(batch, (dy, dx), (2, 3))
    count = batch.shape[0]
    gain = torch.as_tensor(rng.uniform(0.7, 1.3, (count, 1, 1, 1)), dtype=torch.float32)
    noise = torch.as_tensor(rng.uniform(0, 0.15, (count, 1, 1, 1)), dtype=torch.float32)
    grain = torch.as_tensor(rng.standard_normal(batch.shape), dtype=torch.float32)
    return batch * gain + grain * noise


def train(
    crops: npt.NDArray[np.uint8],
    labels: npt.NDArray[np.int64],
    seed: int,
    epochs: int,
    width: int,
    answers: int = LABELS,
    mirror: bool = True,
    shape: tuple[int, int] = (CROP, CROP),
    turns: bool = True,
) -> Any:
    """The network trained by AdamW with a one-cycle rate on mini-batches of 256, each label
    weighted by the inverse of its share (rare labels count as much); ``answers`` labels, crops of
    ``shape``, mirrored and turned among the augmentations where ``mirror`` and ``turns`` say
    (:func:`_augmented`)."""
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng((seed, 19))
    network = _network(torch, width, answers, shape)
    inputs = torch.as_tensor(standardised(crops, shape))
    targets = torch.as_tensor(labels)
    share = np.bincount(labels, minlength=answers) / len(labels)
    weight = torch.as_tensor(1.0 / np.maximum(share, 1e-3) / answers, dtype=torch.float32)
    batch = 256
    steps_per_epoch = max(1, len(labels) // batch)
    optimiser = torch.optim.AdamW(network.parameters(), 2e-3, weight_decay=1e-3)
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        optimiser, 3e-3, total_steps=epochs * steps_per_epoch
    )
    network.train()
    for epoch in range(epochs):
        order = rng.permutation(len(labels))
        total = 0.0
        for step in range(steps_per_epoch):
            index = torch.as_tensor(order[step * batch : (step + 1) * batch])
            loss = torch.nn.functional.cross_entropy(
                network(_augmented(torch, inputs[index], rng, mirror, turns)),
                targets[index],
                weight=weight,
            )
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach())
        print(f"  epoch {epoch + 1}/{epochs}: loss {total / steps_per_epoch:.4f}", flush=True)
    network.eval()
    return network


def export(network: Any, out: Path, shape: tuple[int, int] = (CROP, CROP)) -> None:
    """Write the network as ONNX (any number of crops of ``shape`` at once), for OpenCV's dnn
    module."""
    import torch

    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        network,
        torch.zeros(1, 1, *shape),
        str(out),
        dynamo=False,
        input_names=["crops"],
        output_names=["scores"],
        dynamic_axes={"crops": {0: "count"}, "scores": {0: "count"}},
        opset_version=13,
    )


def parse_run(parser: argparse.ArgumentParser) -> tuple[argparse.Namespace, float]:
    """A training script's command line: ``parser`` with ``--quick`` added, parsed; OpenCV set to
    one thread and the clock started. Returns the options and the start."""
    parser.add_argument(
        "--quick", action="store_true", help="a tiny run (a smoke test, not a model)"
    )
    args = parser.parse_args()
    cv2.setNumThreads(1)
    return args, time.monotonic()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=ROOT / "vision" / "models" / MODEL_FILE)
    parser.add_argument("--drawn", type=int, default=24000, help="drawn board crops")
    parser.add_argument(
        "--photoreal-copies", type=int, default=60, help="cuts of each tuning render die"
    )
    parser.add_argument(
        "--dice-copies", type=int, default=20, help="cuts of each die of the dice-renders sets"
    )
    parser.add_argument("--width", type=int, default=16, help="the first layer's channels")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument(
        "--real",
        type=Path,
        default=REAL,
        help="the public photos the devset's tuning families are made from",
    )
    parser.add_argument(
        "--crops",
        type=Path,
        help="keep the generated crops in this .npz; reuse them when it exists",
    )
    args, began = parse_run(parser)
    if args.quick:
        args.drawn, args.epochs, args.photoreal_copies, args.dice_copies = 400, 2, 2, 2
    if args.crops is not None and args.crops.is_file():  # made before with these settings
        with np.load(args.crops) as stored:
            crops, labels, sources = stored["crops"], stored["labels"], stored["sources"]
        print(f"crops: {len(labels)} from {args.crops}", flush=True)
    else:
        parts: list[tuple[str, Crops, list[int]]] = []
        parts.append(("drawn", *drawn_examples(args.seed, args.drawn)))
        print(f"drawn: {len(parts[-1][1])} crops ({time.monotonic() - began:.0f} s)", flush=True)
        if not args.quick:
            if args.real.is_dir():
                parts.append(("devset", *devset_examples(args.seed, args.real)))
                print(
                    f"devset tuning families: {len(parts[-1][1])} crops ({time.monotonic() - began:.0f} s)",
                    flush=True,
                )
            else:
                print(f"devset skipped: {args.real} is not a folder", flush=True)
            crops, labels = [], []
            sets = [(folder, args.photoreal_copies) for folder in PHOTOREAL_SETS]
            sets += [(folder, args.dice_copies) for folder in DICE_SETS]
            for number, (folder, many) in enumerate(sets):
                more_crops, more_labels = photoreal_examples(
                    args.seed + 1000 * number, folder, many
                )
                crops += more_crops
                labels += more_labels
            parts.append(("photoreal", crops, labels))
            print(
                f"photoreal tune: {len(parts[-1][1])} crops ({time.monotonic() - began:.0f} s)",
                flush=True,
            )
        crops = np.stack([c for _n, cs, _l in parts for c in cs])
        labels = np.array([v for _n, _c, ls in parts for v in ls], np.int64)
        sources = np.array([n for n, cs, _l in parts for _ in cs])
        if args.crops is not None:
            np.savez(args.crops, crops=crops, labels=labels, sources=sources)
    print(
        f"crops: {len(labels)} ({time.monotonic() - began:.0f} s); labels {np.bincount(labels, minlength=LABELS).tolist()}",
        flush=True,
    )
    rng = np.random.default_rng((args.seed, 23))
    apart = rng.random(len(labels)) < 0.1
    network = train(crops[~apart], labels[~apart], args.seed, args.epochs, args.width)
    export(network, args.out)
    model = load_model(str(args.out))  # read back as reading will run it
    guessed = np.concatenate(
        [
            model.probabilities(crops[apart][i : i + 2048]).argmax(axis=1)
            for i in range(0, int(apart.sum()), 2048)
        ]
    )
    truth = labels[apart]
    for name in sorted(set(sources.tolist())):
        pick = sources[apart] == name
        if pick.any():
            print(
                f"kept apart, {name}: {100 * float((guessed[pick] == truth[pick]).mean()):.1f}% of {int(pick.sum())}"
            )
    dice = truth != NOT_A_DIE
    print(
        f"kept apart, all: {100 * float((guessed == truth).mean()):.1f}%; dice read right "
        f"{100 * float((guessed[dice] == truth[dice]).mean()):.1f}%; non-dice taken for dice "
        f"{100 * float((guessed[~dice] != NOT_A_DIE).mean()):.1f}%"
    )
    print(
        f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB) in {time.monotonic() - began:.0f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
