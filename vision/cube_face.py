"""The doubling cube's face as drawn: the renderer paints it and the board reader matches against it.

It sits apart from :mod:`vision.synth.render` so that the live reader's cube templates do not load the
whole renderer (the simulation) into the product's process.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.images import Image

BGR = tuple[int, int, int]


def shade(colour: BGR, factor: float) -> BGR:
    """``colour`` darkened (factor below 1) or lightened, each channel capped at 255."""
    return (
        int(min(255, colour[0] * factor)),
        int(min(255, colour[1] * factor)),
        int(min(255, colour[2] * factor)),
    )


def cube_face_image(
    value: int, side: int, body: BGR = (225, 235, 240), ink: BGR = (20, 20, 20)
) -> Image:
    """The face of the doubling cube showing ``value``: a ``side`` x ``side`` BGR image."""
    face = np.empty((side, side, 3), np.uint8)
    face[:] = body
    text = str(value)
    thickness = max(1, side // 14)
    scale = 1.0
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    scale = 0.62 * side / max(tw, th * 1.3)
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    cv2.putText(
        face,
        text,
        ((side - tw) // 2, (side + th) // 2),
        cv2.FONT_HERSHEY_SIMPLEX,
        scale,
        ink,
        thickness,
        cv2.LINE_AA,
    )
    cv2.rectangle(face, (0, 0), (side - 1, side - 1), shade(body, 0.7), max(1, side // 25))
    return face
