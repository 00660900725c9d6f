"""A small learned die-face classifier: a crop around a die candidate -> 1..6, "cocked" or "no die".

The pip reader (:mod:`vision.dice`) reads a face from its pips; on a board seen from above the
dice are small (16-30 pixels), blurred, and their pips only two or three pixels wide, so it misses
some dice and takes some marks of the board for faces. This model judges a whole square crop at
once: a small convolutional network (three 3x3 convolution layers of 16, 32 and 64 channels, each
followed by 2x2 max pooling, then 64 hidden units and eight scores: no die, one to six, cocked),
run by OpenCV's ``dnn`` module from ``vision/models/dice_face.onnx``.

Its input is the grey crop less its mean, over its spread (:func:`standardised`). The first layer
has no bias and is followed by an absolute value, so a crop and its negative (a light die with
dark pips, a dark die with light pips) give the same scores: nothing depends on polarity.

It is trained by ``scripts/train_dice_model.py`` (PyTorch on the CPU, a development-only extra) on
data made from seeds (dice drawn with OpenCV, the dice development set's tuning families, and the
tuning split of the photoreal renders); nothing is downloaded and nothing held out is used.

>>> from vision.synth.dice_devset import plain_scene
>>> image = plain_scene([(5, (60.0, 60.0))], body=(240, 240, 240), pip=(20, 20, 20), side=24)
>>> classify_face(image, (60.0, 60.0), 24.0).label
5
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources

import cv2
import numpy as np
import numpy.typing as npt

from sheshbesh.observation import DieReading
from vision.errors import ImageError
from vision.images import Image, check_image

FloatArray = npt.NDArray[np.float32]

#: the crop's side (pixels) after normalising, and the share of it a die's side fills
CROP = 32
CROP_PER_SIDE = 1.6
#: labels: 0 no die, 1..6 a flat die's pips, 7 a die leaning (its top not facing the camera)
NOT_A_DIE = 0
COCKED = 7
LABELS = 8
MODEL_FILE = "dice_face.onnx"
#: crops per forward pass: a thousand crops run about a tenth faster in batches of this size
#: than in one (the work stays in the processor's cache); the scores are the same
BATCH = 128
#: added to a crop's spread before dividing by it: a bare, even patch is not blown up to noise
SPREAD_FLOOR = 8.0
#: the model's word on a face read from pips (:func:`judge_faces`), each crop read in its eight
#: turns and mirror images: the face is kept where the model gives the six faces together this
#: share (less, and it takes it for no die or a leaning one: a board's mark, a die's side, a
#: glyph), and takes the model's count where it is this sure of another; chosen on the photoreal
#: tuning split for boards, and kept for photos (the dice development set's tuning families)
KEEP_FACE = 0.8
OVERRULE_FACE = 0.9
#: the model also takes its own count where it all but rules out the count read from pips (gives
#: it less than this share): pips of a small, blurred face merge or split, the face as a whole
#: does not; chosen on the photoreal tuning split: of the 16 such faces kept there, its count was
#: right for 10 flat dice, the pips' for none (2 flat dice both wrong, 2 cocked dice, 2 no die)
RULED_OUT = 0.1


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

    @property
    def face_probability(self) -> float:
        """How sure the model is that a flat die's face lies there: the six faces together."""
        return sum(self.probabilities[1:COCKED])


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


def standardised(crops: npt.NDArray[np.uint8], shape: tuple[int, int] = (CROP, CROP)) -> FloatArray:
    """N grey crops of ``shape`` (rows, columns; CROP x CROP unless said) as uint8 -> the
    network's input, N x 1 x rows x columns float32: each crop less its mean, over its standard
    deviation plus :data:`SPREAD_FLOOR`, so a faint die and a sharp one, in dim light or bright,
    look alike. A crop's negative gives the negated input."""
    stack = np.asarray(crops, np.float32)
    if stack.ndim != 3 or stack.shape[1:] != shape:
        raise ImageError(f"crops must be N x {shape[0]} x {shape[1]}, not {stack.shape}")
    mean = stack.mean(axis=(1, 2), keepdims=True)
    spread = stack.std(axis=(1, 2), keepdims=True) + np.float32(SPREAD_FLOOR)
    return np.ascontiguousarray(((stack - mean) / spread)[:, None], np.float32)


@dataclass
class FaceModel:
    """The network, as OpenCV's dnn module runs it (one forward pass at a time)."""

    net: cv2.dnn.Net
    labels: int = LABELS  # how many answers it scores
    shape: tuple[int, int] = (CROP, CROP)  # the crops it takes: rows, columns
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def scores(self, crops: npt.NDArray[np.uint8]) -> FloatArray:
        """N grey crops -> N x LABELS raw scores (before softmax)."""
        blob = standardised(crops, self.shape)
        parts = []
        with self._lock:  # an OpenCV net holds one input at a time
            for start in range(0, len(blob), BATCH):
                batch = blob[start : start + BATCH]
                self.net.setInput(batch)
                parts.append(np.asarray(self.net.forward(), np.float32).reshape(len(batch), -1))
        return np.concatenate(parts) if parts else np.zeros((0, self.labels), np.float32)

    def probabilities(self, crops: npt.NDArray[np.uint8]) -> FloatArray:
        scores = self.scores(crops)
        scores -= scores.max(axis=1, keepdims=True)
        odds = np.exp(scores)
        return np.asarray(odds / odds.sum(axis=1, keepdims=True), np.float32)


def load_model(
    path: str | None = None,
    *,
    file: str = MODEL_FILE,
    labels: int = LABELS,
    what: str = "die-face",
    shape: tuple[int, int] = (CROP, CROP),
) -> FaceModel:
    """The model from ``path`` (an ONNX file), or the one shipped in the package as ``file``
    (``vision/models``), scoring ``labels`` answers for a crop of ``shape`` (rows, columns;
    CROP x CROP unless said; ``what`` names it in errors: the die-face model by default,
    :mod:`vision.cube_model` for the cube's face, :mod:`vision.stack_model` for a point's row).

    Raises :class:`ValueError` when the file is not such a model.
    """
    if path is None:
        with resources.as_file(resources.files("vision") / "models" / file) as shipped:
            return load_model(str(shipped), file=file, labels=labels, what=what, shape=shape)
    try:
        net = cv2.dnn.readNetFromONNX(path)
    except cv2.error as error:
        raise ValueError(f"{path} is not a {what} model (OpenCV could not load it)") from error
    model = FaceModel(net, labels, shape)
    try:
        answers = model.scores(np.zeros((1, *shape), np.uint8)).shape
    except cv2.error as error:
        raise ValueError(
            f"{path} is not a {what} model (it takes no {shape[0]}x{shape[1]} crop)"
        ) from error
    if answers != (1, labels):
        raise ValueError(f"{path} is not a {what} model ({answers[1]} scores, not {labels})")
    return model


@cache
def shipped_model() -> FaceModel:
    """The package's model, loaded once, when first needed."""
    return load_model()


def classify_crops(crops: npt.NDArray[np.uint8], *, every_way: bool = False) -> list[FaceGuess]:
    """The model's guess for each of N grey CROP x CROP crops. With ``every_way`` each crop is
    read in its eight turns and mirror images (a face's count is the same in each) and the
    probabilities averaged: eight times the work, a steadier answer."""
    if len(crops) == 0:
        return []
    if every_way:
        stack = np.asarray(crops)
        views = [np.rot90(stack, turn, axes=(1, 2)) for turn in range(4)]
        views += [view[:, :, ::-1] for view in views]
        odds = shipped_model().probabilities(np.concatenate(views))
        odds = odds.reshape(len(views), len(stack), -1).mean(axis=0)
    else:
        odds = shipped_model().probabilities(crops)
    guesses = []
    for row in odds:
        label = int(np.argmax(row))
        guesses.append(FaceGuess(label, float(row[label]), tuple(float(p) for p in row)))
    return guesses


def judge_faces(
    grey: npt.NDArray[np.uint8],
    readings: Sequence[DieReading],
    sides: Sequence[Sequence[float]],
) -> list[DieReading | None]:
    """The model's word on each face read from pips in ``grey`` (the image, one channel): the
    reading, with the model's count where it is sure of another (:data:`OVERRULE_FACE`) or all but
    rules out the count read from pips (:data:`RULED_OUT`), or None
    where the model does not take it for a flat die's face (:data:`KEEP_FACE`).

    Each reading is cut at its box's middle at every die side of ``sides`` for it, and judged at
    the side the model takes most for a face: where the die's size is known (a calibrated
    board), one side; in a photo the box the pips give is not quite the die's (a side face, a
    shadow), so a few."""
    return [verdict for verdict, _guess in judged_faces(grey, readings, sides)]


def judged_faces(
    grey: npt.NDArray[np.uint8],
    readings: Sequence[DieReading],
    sides: Sequence[Sequence[float]],
) -> list[tuple[DieReading | None, FaceGuess]]:
    """:func:`judge_faces`, each verdict with the model's guess it rests on."""
    if not readings:
        return []
    centres = [(x + w / 2, y + h / 2) for x, y, w, h in (die.box for die in readings)]
    crops = [
        cut_square(grey, centre, CROP_PER_SIDE * side)
        for centre, options in zip(centres, sides, strict=True)
        for side in options
    ]
    guesses = iter(classify_crops(np.stack(crops), every_way=True))
    verdicts: list[tuple[DieReading | None, FaceGuess]] = []
    for die, options in zip(readings, sides, strict=True):
        guess = max((next(guesses) for _side in options), key=lambda g: g.face_probability)
        if guess.face_probability < KEEP_FACE:
            verdicts.append((None, guess))
        elif 1 <= guess.label <= 6 and (
            guess.probability >= OVERRULE_FACE or guess.probabilities[die.pips] < RULED_OUT
        ):
            verdicts.append((replace(die, pips=guess.label), guess))
        else:
            verdicts.append((die, guess))
    return verdicts


def classify_face(image: Image, centre: tuple[float, float], side: float) -> FaceGuess:
    """What lies at ``centre`` of ``image`` (BGR uint8) for a die of ``side`` pixels.

    Raises :class:`vision.errors.ImageError` for a bad image, side or centre.
    """
    return classify_crops(crop_die(image, centre, side)[None])[0]
