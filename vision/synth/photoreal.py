"""The photoreal development set's fields and dice as the board reader sees them, for training and
measuring.

A labelled render (``NAME.jpg`` + ``NAME.json`` with ``field_corners`` and ``dice``, as
``python -m synth`` writes them) is calibrated on itself with its labelled corners (with its
game's standing stacks, :func:`vision.field_board.standing_for`); its field is rectified, and each
labelled die's middle is taken onto that field. ``scripts/train_dice_model.py`` cuts its training
crops there and ``benchmarks/bench_dice_model.py`` reads the model there, so both see a die
exactly as :func:`vision.field_board.field_dice` crops it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.dice_model import COCKED
from vision.field import Field
from vision.field_board import DIE_SIDE, calibrate_field, standing_for
from vision.images import Image, load_image


@dataclass(frozen=True)
class LabelledField:
    """A render's rectified field (BGR), a die's side there as the board reader assumes it
    (field pixels), and each labelled die: its middle on the field and its label (1..6 pips, or
    :data:`vision.dice_model.COCKED` for a die leaning on something); and the field as
    calibration measured it."""

    top: Image
    side: float
    dice: list[tuple[tuple[float, float], int]]
    field: Field


def camera_faults(image: Image, quality: int, noise: float, rng: np.random.Generator) -> Image:
    """``image`` with sensor noise of standard deviation ``noise`` (grey levels; 0: none), then
    stored as a JPEG of ``quality`` (0: not stored), the order a camera streaming its frames
    works in."""
    if noise:
        grainy = image.astype(np.float32) + rng.normal(0.0, noise, image.shape).astype(np.float32)
        image = np.clip(grainy, 0, 255).astype(np.uint8)
    if quality:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if not ok:
            raise RuntimeError("OpenCV could not encode a JPEG")
        image = np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)
    return image


def calibrated_on_itself(label_file: Path, label: dict[str, Any]) -> tuple[Image, Field]:
    """The frame of the render labelled by ``label`` (read from ``label_file``) and its field,
    calibrated on that frame with its labelled corners and its game's standing stacks.

    Raises :class:`vision.errors.VisionError` when calibration refuses the frame.
    """
    image = load_image(label_file.with_name(str(label["image"])))
    corners = [tuple(c) for c in label["field_corners"]]
    standing = standing_for(label.get("variant", "backgammon"))
    return image, calibrate_field(image, corners, standing=standing).field


def labelled_field(
    label_file: Path, label: dict[str, Any], fault: Callable[[Image], Image] | None = None
) -> LabelledField:
    """The field and dice of the render labelled by ``label`` (read from ``label_file``);
    ``fault`` gives the frame a camera's faults (:func:`camera_faults`) after calibration on
    the clean frame and before its field is rectified.

    Raises :class:`vision.errors.VisionError` when calibration refuses the frame.
    """
    image, field = calibrated_on_itself(label_file, label)
    if fault is not None:
        image = fault(image)
    to_field = field.homography()
    dice = []
    for die in label.get("dice", []):
        value = COCKED if die.get("cocked") else int(die["pips"])
        dice.append((box_middle(die["box"], to_field), value))
    return LabelledField(field.rectify(image), DIE_SIDE * field.radius, dice, field)


def box_middle(box: Sequence[float], to_field: npt.NDArray[np.float64]) -> tuple[float, float]:
    """The middle of a labelled box (x, y, width, height in camera pixels) in field pixels
    (``to_field``: the field's homography)."""
    x, y, w, h = box
    middle = cv2.perspectiveTransform(np.array([[[x + w / 2, y + h / 2]]], np.float64), to_field)
    return float(middle[0, 0, 0]), float(middle[0, 0, 1])
