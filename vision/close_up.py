"""Top-down close-ups of a board known by its markers, in which pips and cube faces are read.

The rectified board (:meth:`vision.calibration.Calibration.rectify`) is too coarse for a die's pips
or the cube's digits; a close-up warps just the few board units around one place from the camera
frame at a finer scale. The marker reader's dice (:mod:`vision.marker_dice`) and cube
(:mod:`vision.marker_cube`) are read in such close-ups, so the warp is kept once, here.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.images import Image

#: pixels per board unit of the close-up patches in which pips and cube faces are read
PATCH_SCALE = 1400.0


def board_patch(
    image: Image,
    calibration: Calibration,
    centre: tuple[float, float],
    size: float,
    scale: float = PATCH_SCALE,
) -> Image:
    """A top-down close-up of the board around ``centre`` (board units), ``size`` units wide."""
    side = max(8, round(size * scale))
    cx, cy = centre
    units_to_patch = np.array(
        [[scale, 0, side / 2 - cx * scale], [0, scale, side / 2 - cy * scale], [0, 0, 1.0]]
    )
    matrix = units_to_patch @ np.linalg.inv(calibration.homography)
    patch = cv2.warpPerspective(
        image, matrix, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return np.asarray(patch, np.uint8)
