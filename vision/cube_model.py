"""A small learned reader of the doubling cube's face: a close-up of a place on or beside the
field -> 2, 4, 8, 16, 32, 64, or "no number" (the bare board, a checker, a die, a cube's emblem).

The shape matcher of :mod:`vision.cube` reads a face from the ink it cuts out with one local
threshold: where a cube's glare joins its digits, or its edge and its shadow touch them, the
shapes it cuts out are no digits and the face is not read. This model judges the whole close-up
at once. It is the network of :mod:`vision.dice_model` (the same layers, the same standardised
32x32 grey input, so a light cube with dark digits and a dark one with light digits score alike)
with seven answers, run by OpenCV's ``dnn`` module from ``vision/models/cube_face.onnx``.

The close-up (:func:`cube_crop`) is :data:`SPAN` checker radii across, cut from the camera's
frame through the field's homography, so the cube is seen at one size on every board and frame
size. A cube lies at any angle: the model was trained on faces turned every way; a close-up may
be read in up to four quarter turns and the answers averaged (:func:`classify_cube_crops`; the
board reader reads two, :data:`vision.cube.MODEL_TURNS`).

It is trained by ``scripts/train_cube_model.py`` (PyTorch on the CPU, a development-only extra)
on cube faces drawn with OpenCV's fonts and on the cubes of the photoreal renders labelled
``split: tune``; nothing is downloaded and nothing held out is used.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.dice_model import CROP, FaceModel, load_model
from vision.field import Field
from vision.images import Image

#: the model's answers: 0 no number; 1..6 the cube's values, in order
NO_NUMBER = 0
VALUES = (2, 4, 8, 16, 32, 64)
CUBE_LABELS = 1 + len(VALUES)
CUBE_MODEL_FILE = "cube_face.onnx"
#: the close-up's side, in the field's checker radii: a cube's face is 1.1 to 1.5 radii across
SPAN = 2.2
#: the close-up is cut at this many times the model's size, then shrunk by area averaging
CUT = 2


@dataclass(frozen=True, slots=True)
class CubeGuess:
    """The model's answer for one close-up: the value it names (None: no number) and how sure it
    is (the probability of that answer, averaged over the quarter turns it was read in)."""

    value: int | None
    probability: float


def cube_crop(
    image: Image, field: Field, x: float, y: float, turn: float = 0.0
) -> npt.NDArray[np.uint8]:
    """The grey CROP x CROP close-up of the square of :data:`SPAN` radii round field pixel
    (x, y) of ``image`` (the camera's frame; the place may lie beyond the field, on the frame or
    in a tray), turned by ``turn`` degrees (the training script cuts its examples so)."""
    size = CROP * CUT
    scale = size / (SPAN * field.radius)
    shift = (size / 2 - x * scale, size / 2 - y * scale)
    matrix = field.view_matrix((image.shape[1], image.shape[0]), scale, shift)
    if turn:
        rotation = np.vstack([cv2.getRotationMatrix2D((size / 2, size / 2), turn, 1.0), [0, 0, 1]])
        matrix = rotation @ matrix
    patch = cv2.warpPerspective(
        image, matrix, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    small = cv2.resize(patch, (CROP, CROP), interpolation=cv2.INTER_AREA)
    grey = small if small.ndim == 2 else cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    return np.asarray(grey, np.uint8)


@cache
def shipped_cube_model() -> FaceModel:
    """The package's cube-face model, loaded once, when first needed."""
    return load_model(file=CUBE_MODEL_FILE, labels=CUBE_LABELS, what="cube-face")


def classify_cube_crops(
    crops: npt.NDArray[np.uint8], turns: int = 4, model: FaceModel | None = None
) -> list[CubeGuess]:
    """The answer of ``model`` (the shipped one unless given) for each of N grey CROP x CROP
    close-ups (:func:`cube_crop`), each read in its first ``turns`` quarter turns (1 to 4) and
    the probabilities averaged."""
    if len(crops) == 0:
        return []
    stack = np.asarray(crops)
    views = [np.rot90(stack, turn, axes=(1, 2)) for turn in range(turns)]
    model = model or shipped_cube_model()
    odds = model.probabilities(np.ascontiguousarray(np.concatenate(views)))
    odds = odds.reshape(len(views), len(stack), -1).mean(axis=0)
    guesses = []
    for row in odds:
        label = int(np.argmax(row))
        value = None if label == NO_NUMBER else VALUES[label - 1]
        guesses.append(CubeGuess(value, float(row[label])))
    return guesses


def read_cube_faces(
    image: Image, field: Field, places: Sequence[tuple[float, float]], turns: int = 4
) -> list[CubeGuess]:
    """The model's answer at each field pixel of ``places`` (the middle of a close-up each),
    each close-up read in ``turns`` quarter turns (:func:`classify_cube_crops`)."""
    if not places:
        return []
    crops = np.stack([cube_crop(image, field, x, y) for x, y in places])
    return classify_cube_crops(crops, turns)
