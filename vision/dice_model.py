"""A small learned die-face classifier: a crop around a die candidate -> 1..6, "cocked" or "no die".

The pip reader (:mod:`vision.dice`) reads a face from its pips; on a board seen from above the
dice are small (16-30 pixels), blurred, and their pips only two or three pixels wide, so it misses
some dice and takes some marks of the board for faces. This model judges a whole square crop at
once: its input is the crop's gradient-orientation histograms (a HOG-like descriptor computed here
with numpy; the installed OpenCV has neither ``cv2.ml`` nor ``cv2.HOGDescriptor``), with
orientations taken modulo 180 degrees, so a light die with dark pips and a dark die with light pips
give the same features: nothing depends on polarity. A one-hidden-layer perceptron (numpy weights,
``vision/models/dice_face.npz``) turns them into eight scores: no die, one to six, cocked.

It is trained by ``scripts/train_dice_model.py`` on data made from seeds (dice drawn with OpenCV,
the dice development set's tuning families, and the tuning split of the photoreal renders); nothing
is downloaded and nothing held out is used.

>>> from vision.synth.dice_devset import plain_scene
>>> image = plain_scene([(5, (60.0, 60.0))], body=(240, 240, 240), pip=(20, 20, 20), side=24)
>>> classify_face(image, (60.0, 60.0), 24.0).label
5
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from importlib import resources

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import ImageError
from vision.images import Image, check_image

FloatArray = npt.NDArray[np.float32]

#: the crop's side (pixels) after normalising, and the share of it a die's side fills
CROP = 32
CROP_PER_SIDE = 1.6
#: histogram cells (pixels), orientation bins over 0..180 degrees
CELL = 4
BINS = 9
#: labels: 0 no die, 1..6 a flat die's pips, 7 a die leaning (its top not facing the camera)
NOT_A_DIE = 0
COCKED = 7
LABELS = 8
MODEL_FILE = "dice_face.npz"
#: a bin index over 0..360 degrees, less one, folded onto 0..180 degrees (see face_features)
_FOLD = (np.arange(-1, 2 * BINS + 2) % BINS).astype(np.int64)
#: each crop pixel's cell, times BINS: where its histogram starts in a crop's features
_CELL_PLACES = (
    (np.arange(CROP)[:, None] // CELL * (CROP // CELL) + np.arange(CROP)[None, :] // CELL) * BINS
).astype(np.int64)


@dataclass(frozen=True, slots=True)
class FaceGuess:
    """The model's answer for one crop: ``label`` (0 no die, 1..6 pips, 7 cocked) and the
    probability it gives that label and each of the eight (softmax over its scores)."""

    label: int
    probability: float
    probabilities: tuple[float, ...]

    @property
    def is_die(self) -> bool:
        return self.label != NOT_A_DIE

    @property
    def die_probability(self) -> float:
        """How sure the model is that a die lies there, flat or cocked."""
        return 1.0 - self.probabilities[NOT_A_DIE]


def crop_die(image: Image, centre: tuple[float, float], side: float) -> npt.NDArray[np.uint8]:
    """The grey CROP x CROP square around ``centre`` for a die of ``side`` pixels (borders
    replicated where it runs off the image).

    Raises :class:`vision.errors.ImageError` for a bad image, a side under 4 pixels or a centre
    outside the image.
    """
    image = check_image(image)
    height, width = image.shape[:2]
    cx, cy = (float(v) for v in centre)
    if not (math.isfinite(side) and side >= 4.0):
        raise ImageError(f"die side {side} is not a size of at least 4 pixels")
    if not (0 <= cx < width and 0 <= cy < height):
        raise ImageError(f"die centre {centre} lies outside the {width}x{height} image")
    return cut_square(image, (cx, cy), CROP_PER_SIDE * side)


def cut_square(
    image: Image, centre: tuple[float, float], span: float, turn: float = 0.0, mirror: bool = False
) -> npt.NDArray[np.uint8]:
    """The grey CROP x CROP view of the square of side ``span`` around ``centre``, turned by
    ``turn`` degrees and mirrored if asked (the training script's augmentations use the same cut
    as reading does). No checks: :func:`crop_die` is the public door."""
    # cut at the image's own scale first (sub-pixel centre, replicated borders), then shrink by
    # area averaging: a die read from a large photo keeps its pips, not the aliasing of its grain
    size = max(CROP, math.ceil(span))
    step = span / size
    cx, cy = centre
    matrix = cv2.getRotationMatrix2D((cx, cy), turn, 1 / step)
    matrix[0, 2] += size / 2 - cx
    matrix[1, 2] += size / 2 - cy
    if mirror:
        matrix[0] = -matrix[0]
        matrix[0, 2] += size
    cut = cv2.warpAffine(
        image, matrix, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    if size != CROP:
        cut = cv2.resize(cut, (CROP, CROP), interpolation=cv2.INTER_AREA)
    grey = cut if cut.ndim == 2 else cv2.cvtColor(cut, cv2.COLOR_BGR2GRAY)
    return np.asarray(grey, np.uint8)


def face_features(crops: npt.NDArray[np.uint8]) -> FloatArray:
    """Orientation histograms of N grey CROP x CROP crops (N x CROP x CROP uint8) -> N x D float32.

    Per CELL x CELL cell, gradient magnitude summed into BINS orientation bins over 0..180 degrees
    (a gradient and its opposite in one bin: polarity does not count), split linearly between the
    two nearest bins; each 2 x 2 block of cells normalised (L2, clipped at 0.2, normalised again)
    so that a faint die and a sharp one look alike.
    """
    stack = np.asarray(crops, np.float32)
    if stack.ndim != 3 or stack.shape[1:] != (CROP, CROP):
        raise ImageError(f"face crops must be N x {CROP} x {CROP}, not {stack.shape}")
    count = stack.shape[0]
    gx = np.zeros_like(stack)
    gy = np.zeros_like(stack)
    gx[:, :, 1:-1] = stack[:, :, 2:] - stack[:, :, :-2]
    gy[:, 1:-1, :] = stack[:, 2:, :] - stack[:, :-2, :]
    # OpenCV's polar form (its angle within 0.01 degree of arctan2's) in one pass, several times
    # as fast as numpy's; the crops stacked as one tall image
    magnitude, angle = cv2.cartToPolar(gx.reshape(-1, CROP), gy.reshape(-1, CROP))
    magnitude = magnitude.reshape(stack.shape)
    # the angle in bins over 0..360 degrees, each bin's middle at half a bin; a pixel's share
    # is split between the bin below and the one above, taken modulo 180 degrees
    shifted = angle.reshape(stack.shape) * np.float32(BINS / math.pi) - np.float32(0.5)
    low = np.floor(shifted)
    upper = magnitude * (shifted - low)
    below = low.astype(np.int32) + 1  # 0 .. 2 BINS: index into the fold
    low_bin, high_bin = _FOLD[below], _FOLD[below + 1]
    cells = CROP // CELL
    # each pixel's cell and bins as one flat index into N x cells x cells x BINS (bincount sums
    # the shares far faster than a scattered add)
    place = _CELL_PLACES[None] + (np.arange(count) * (cells * cells * BINS))[:, None, None]
    size = count * cells * cells * BINS
    sums = np.bincount((place + low_bin).ravel(), (magnitude - upper).ravel(), size) + np.bincount(
        (place + high_bin).ravel(), upper.ravel(), size
    )
    histogram = sums.astype(np.float32).reshape(count, cells, cells, BINS)
    blocks = np.concatenate(
        [
            histogram[:, :-1, :-1],
            histogram[:, :-1, 1:],
            histogram[:, 1:, :-1],
            histogram[:, 1:, 1:],
        ],
        axis=3,
    ).reshape(count, (cells - 1) ** 2, 4 * BINS)
    blocks /= np.sqrt((blocks * blocks).sum(axis=2, keepdims=True) + 1e-3)[...]
    blocks = np.minimum(blocks, 0.2)
    blocks /= np.sqrt((blocks * blocks).sum(axis=2, keepdims=True) + 1e-3)
    return np.ascontiguousarray(blocks.reshape(count, -1), np.float32)


@dataclass(frozen=True)
class FaceModel:
    """The perceptron's weights: features standardised (``mean``, ``scale``), one hidden ReLU
    layer (``w1``, ``b1``), eight output scores (``w2``, ``b2``)."""

    mean: FloatArray
    scale: FloatArray
    w1: FloatArray
    b1: FloatArray
    w2: FloatArray
    b2: FloatArray

    def scores(self, features: FloatArray) -> FloatArray:
        """N x D features -> N x LABELS raw scores (before softmax)."""
        hidden = np.maximum((features - self.mean) * self.scale @ self.w1 + self.b1, 0)
        return np.asarray(hidden @ self.w2 + self.b2, np.float32)

    def probabilities(self, features: FloatArray) -> FloatArray:
        scores = self.scores(features)
        scores -= scores.max(axis=1, keepdims=True)
        odds = np.exp(scores)
        return np.asarray(odds / odds.sum(axis=1, keepdims=True), np.float32)


def load_model(path: str | None = None) -> FaceModel:
    """The model from ``path``, or the one shipped in the package (``vision/models``).

    Raises :class:`ValueError` when the file is not a die-face model.
    """
    if path is None:
        with resources.as_file(resources.files("vision") / "models" / MODEL_FILE) as shipped:
            return load_model(str(shipped))
    with np.load(path) as data:
        names = ("mean", "scale", "w1", "b1", "w2", "b2")
        missing = [n for n in names if n not in data.files]
        if missing:
            raise ValueError(f"{path} is not a die-face model (missing {', '.join(missing)})")
        model = FaceModel(*(np.asarray(data[n], np.float32) for n in names))
    if model.w2.shape[1] != LABELS or model.w1.shape[0] != model.mean.shape[-1]:
        raise ValueError(f"{path} is not a die-face model (layer shapes do not fit)")
    return model


@cache
def shipped_model() -> FaceModel:
    """The package's model, loaded once, when first needed."""
    return load_model()


def classify_crops(crops: npt.NDArray[np.uint8]) -> list[FaceGuess]:
    """The model's guess for each of N grey CROP x CROP crops."""
    if len(crops) == 0:
        return []
    odds = shipped_model().probabilities(face_features(crops))
    guesses = []
    for row in odds:
        label = int(np.argmax(row))
        guesses.append(FaceGuess(label, float(row[label]), tuple(float(p) for p in row)))
    return guesses


def classify_face(image: Image, centre: tuple[float, float], side: float) -> FaceGuess:
    """What lies at ``centre`` of ``image`` (BGR uint8) for a die of ``side`` pixels.

    Raises :class:`vision.errors.ImageError` for a bad image, side or centre.
    """
    return classify_crops(crop_die(image, centre, side)[None])[0]
