"""Reading a whole board known by its markers: checkers, dice and cube of one frame, as an Observation.

This module composes the readers of a marker calibration (:mod:`vision.calibration`): the board is
rectified and its checkers counted (:mod:`vision.checkers`), die candidates are found and each read
in a close-up (:mod:`vision.marker_dice`, :mod:`vision.close_up`), and the cube is read at its
resting places (:mod:`vision.marker_cube`). A board known by its field corners is read by
:mod:`vision.field_board` instead.

>>> import numpy as np
>>> from vision.calibration import calibrate
>>> from vision.synth.render import DieSpec, DrawnScene, random_style, render
>>> rng = np.random.default_rng(7)
>>> style = random_style(rng, hard=False)
>>> calibration = calibrate(render(DrawnScene.starting(), style, rng))
>>> frame = render(DrawnScene.starting(dice=(DieSpec(6), DieSpec(2))), style, rng)
>>> observation = read_marker_board(frame, calibration)
>>> observation.count("p6", "white"), sorted(d.pips for d in observation.dice)
(5, [2, 6])
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sheshbesh.observation import DieReading, FrameState, Observation
from vision.calibration import Calibration
from vision.checkers import SlotEvidence, count_checkers, light_change
from vision.close_up import PATCH_SCALE, board_patch
from vision.config import ReaderConfig
from vision.images import Image, check_image
from vision.marker_cube import read_cube
from vision.marker_dice import find_dice, read_die


@dataclass(frozen=True)
class BoardReading:
    """An observation with what the reader measured on the way (for overlays and tuning)."""

    observation: Observation
    top: Image
    slots: SlotEvidence
    dice_centres: tuple[tuple[float, float], ...]  # board units


def _camera_box(
    calibration: Calibration, centre: tuple[float, float], size: float
) -> tuple[int, int, int, int]:
    """The camera's pixel box (x, y, width, height) around a square of the board, ``size`` units wide.

    A die is found and read on the board, in board units; the observation reports its box in the
    camera's pixels, where an overlay draws it.
    """
    cx, cy = centre
    half = size / 2
    corners = np.array(
        [
            (cx - half, cy - half),
            (cx + half, cy - half),
            (cx + half, cy + half),
            (cx - half, cy + half),
        ]
    )
    seen = calibration.to_camera(corners)
    x0, y0 = seen.min(axis=0)
    x1, y1 = seen.max(axis=0)
    return (int(x0), int(y0), math.ceil(x1 - x0), math.ceil(y1 - y0))


def read_marker_board(
    image: Image,
    calibration: Calibration,
    config: ReaderConfig | None = None,
    *,
    state: FrameState = "settled",
    frame: int = 0,
    time: float = 0.0,
) -> Observation:
    """Everything on the board in ``image`` (BGR uint8, the calibration's size) as an Observation.

    Raises :class:`vision.errors.ImageError` for a bad image and
    :class:`vision.errors.CalibrationError` for a calibration without learned colours.
    """
    return read_marker_board_in_detail(
        image, calibration, config, state=state, frame=frame, time=time
    ).observation


def read_marker_board_in_detail(
    image: Image,
    calibration: Calibration,
    config: ReaderConfig | None = None,
    *,
    state: FrameState = "settled",
    frame: int = 0,
    time: float = 0.0,
) -> BoardReading:
    """Like :func:`read_marker_board`, keeping the rectified image and the evidence for an overlay."""
    config = config or ReaderConfig()
    image = check_image(image)
    top = calibration.rectify(image)
    gain = None if calibration.reference is None else light_change(top, calibration.reference)
    counts, slots = count_checkers(top, calibration, config, gain)
    dice: list[DieReading] = []
    centres: list[tuple[float, float]] = []
    if gain is not None:
        found: list[tuple[DieReading, tuple[float, float]]] = []
        for centre in find_dice(top, calibration, slots, gain, config):
            size = calibration.layout.die_size
            patch = board_patch(image, calibration, centre, size * 2.0)
            pips, confidence, cocked = read_die(patch, size * PATCH_SCALE, config)
            if pips == 0:
                continue
            box = _camera_box(calibration, centre, size * 1.1)
            half = calibration.layout.half_of(centre[0])
            found.append((DieReading(pips, confidence, box, cocked, half), centre))
        # a game has two dice: keep the two surest
        found.sort(key=lambda item: -item[0].confidence)
        dice = [die for die, _ in found[: config.most_dice]]
        centres = [centre for _, centre in found[: config.most_dice]]
    cube = read_cube(image, calibration, config, gain)
    observation = Observation(
        locations=counts, dice=tuple(dice), cube=cube, state=state, frame=frame, time=time
    )
    return BoardReading(observation, top, slots, tuple(centres))
