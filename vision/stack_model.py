"""A small learned counter of a point's checkers: the strip of a point from its base -> how many
checkers lie there, 0 to 15, however they are piled.

The ring reader (:mod:`vision.field_reader`) finds each checker by its round rim. On a tall stack
the checkers of the layers above lie over the gaps of the row under them, each on checkers of
its own colour, so their rims are faint, and a light set's rims fainter still: a stack of nine
or twelve often reads as its row alone. This model judges the whole strip at once, from the
pattern the piled checkers make along it. It is the network of :mod:`vision.dice_model` (the
same layers and input standardisation, so a light set and a dark one score alike) on a strip of
:data:`ALONG` x :data:`ACROSS` grey pixels, with sixteen answers (0 to 15 checkers), run by
OpenCV's ``dnn`` module from ``vision/models/stack_count.onnx``.

The strip (:func:`point_strip`) is cut from the rectified field (:meth:`vision.field.Field.rectify`)
at :data:`PER_RADIUS` pixels a checker radius: :data:`ACROSS_SPAN` radii across the point's
middle line and :data:`ALONG_SPAN` radii from its base towards the bar's middle, the base always
at the strip's first row, so every point of every board is seen alike.

It is trained by ``scripts/train_stack_model.py`` (PyTorch on the CPU, a development-only extra)
on the points of the backgammon renders labelled ``split: tune``; nothing is downloaded and
nothing held out is used. The renders pile checkers as the photoreal renderer does (five on the
row, each next layer over the gaps of the one below), so that is the piling it knows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.dice_model import FaceModel, load_model
from vision.field import Field
from vision.images import Image

#: the strip: rows along the point from its base, columns across it
ALONG = 112
ACROSS = 24
SHAPE = (ALONG, ACROSS)
#: strip pixels a checker radius, and the strip's reach in radii
PER_RADIUS = 10.0
ALONG_SPAN = ALONG / PER_RADIUS
ACROSS_SPAN = ACROSS / PER_RADIUS
#: answers: 0 to 15 checkers on the point
STACK_LABELS = 16
STACK_MODEL_FILE = "stack_count.onnx"
#: the strip is cut at this many times its size, then shrunk by area averaging
CUT = 2


@dataclass(frozen=True, slots=True)
class StackGuess:
    """The model's answer for one point: how many checkers and how sure (its probability)."""

    count: int
    probability: float


def point_strip(
    top: Image,
    field: Field,
    location: str,
    shift: tuple[float, float] = (0.0, 0.0),
    scale: float = 1.0,
) -> npt.NDArray[np.uint8]:
    """The grey ALONG x ACROSS strip of point ``location`` of a rectified field ``top``, its
    base at the first row; ``shift`` (across, along; in radii) and ``scale`` move and grow the
    strip a little (the training script cuts its examples so)."""
    left, right, base, direction = field.column(location)
    step = field.radius / PER_RADIUS / CUT * scale  # field pixels a cut pixel
    middle = (left + right) / 2 + shift[0] * field.radius
    start = base + direction * shift[1] * field.radius
    # cut pixel (u, v) -> field pixel: across from the middle line, along from the base
    matrix = np.array(
        [
            [step, 0.0, middle - (ACROSS * CUT / 2 - 0.5) * step],
            [0.0, direction * step, start + direction * 0.5 * step],
        ]
    )
    cut = cv2.warpAffine(
        top,
        matrix,
        (ACROSS * CUT, ALONG * CUT),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    small = cv2.resize(cut, (ACROSS, ALONG), interpolation=cv2.INTER_AREA)
    grey = small if small.ndim == 2 else cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    return np.asarray(grey, np.uint8)


@cache
def shipped_stack_model() -> FaceModel:
    """The package's stack-count model, loaded once, when first needed."""
    return load_model(file=STACK_MODEL_FILE, labels=STACK_LABELS, what="stack-count", shape=SHAPE)


def count_strips(
    strips: npt.NDArray[np.uint8], mirror: bool = True, model: FaceModel | None = None
) -> list[StackGuess]:
    """The answer of ``model`` (the shipped one unless given: the training script reads its own
    run's) for each of N grey strips (:func:`point_strip`), each read as it is and, where
    ``mirror``, mirrored across (a point's row looks the same from either side), the
    probabilities averaged."""
    if len(strips) == 0:
        return []
    stack = np.asarray(strips)
    views = [stack, stack[:, :, ::-1]] if mirror else [stack]
    if model is None:
        model = shipped_stack_model()
    odds = model.probabilities(np.ascontiguousarray(np.concatenate(views)))
    odds = odds.reshape(len(views), len(stack), -1).mean(axis=0)
    return [StackGuess(int(np.argmax(row)), float(row.max())) for row in odds]


def count_points(top: Image, field: Field, locations: Sequence[str]) -> list[StackGuess]:
    """The model's answer for each point of ``locations`` of a rectified field ``top``."""
    if not locations:
        return []
    return count_strips(np.stack([point_strip(top, field, location) for location in locations]))
