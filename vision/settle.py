"""Settle detection: trust a frame only once the board has been still for a while.

A frame is ``occluded`` when something crosses the band just outside the board (a hand, an arm),
``moving`` while frames still differ from one another (dice rolling, a checker sliding) or until the
board has been still for ``still_seconds``, and ``settled`` after that. Time comes from the caller,
so tests never sleep.

>>> import numpy as np
>>> from vision.calibration import calibrate
>>> from vision.synth.render import DrawnScene, random_style, render
>>> rng = np.random.default_rng(2)
>>> style = random_style(rng, hard=False)
>>> frame = render(DrawnScene.starting(), style, rng)
>>> detector = SettleDetector(calibrate(frame))
>>> [detector.update(frame, t) for t in (0.0, 0.3, 1.0)]
['moving', 'moving', 'settled']
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from sheshbesh.observation import FrameState
from vision.calibration import Calibration
from vision.config import ReaderConfig
from vision.images import Image, check_image

#: pixels per board unit of the small top-down image settle detection works on
SETTLE_SCALE = 120.0


@dataclass
class SettleDetector:
    """Feed it frames with their times; it says ``settled``, ``moving`` or ``occluded``."""

    calibration: Calibration
    config: ReaderConfig = field(default_factory=ReaderConfig)

    def __post_init__(self) -> None:
        layout = self.calibration.layout
        width, height = layout.rectified_size(SETTLE_SCALE)
        band = np.zeros((height, width), np.uint8)

        def box(x0: float, y0: float, x1: float, y1: float, value: int) -> None:
            a = layout.to_pixels(x0, y0, SETTLE_SCALE)
            b = layout.to_pixels(x1, y1, SETTLE_SCALE)
            cv2.rectangle(band, (round(a[0]), round(a[1])), (round(b[0]), round(b[1])), value, -1)

        box(-0.07, -0.07, 1.07, layout.height + 0.07, 1)
        box(-0.015, -0.015, 1.015, layout.height + 0.015, 0)
        for corners in layout.marker_corners().values():  # the markers stay put; skip them
            middle = corners.mean(axis=0)
            x0, y0 = middle + 1.5 * (corners.min(axis=0) - middle)
            x1, y1 = middle + 1.5 * (corners.max(axis=0) - middle)
            box(x0, y0, x1, y1, 0)
        self._band = band.astype(bool)
        self._band_reference: npt.NDArray[np.float32] | None = None
        if self.calibration.reference is not None:
            small = cv2.resize(
                self.calibration.reference, (width, height), interpolation=cv2.INTER_AREA
            )
            self._band_reference = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
        self._previous: npt.NDArray[np.float32] | None = None
        self._still_since: float | None = None
        self.state: FrameState = "moving"

    def _small(self, image: Image) -> Image:
        image = check_image(image)
        return self.calibration.rectify(image, SETTLE_SCALE)

    def occlusion(self, small: Image) -> float:
        """Share of the band around the board that differs from the calibration frame."""
        if self._band_reference is None:
            return 0.0
        lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
        difference = (lab - self._band_reference) * np.array([0.5, 1.0, 1.0], np.float32)
        distance = np.sqrt((difference**2).sum(axis=2))
        return float((distance[self._band] > self.config.occlusion_level).mean())

    def update(self, image: Image, time: float) -> FrameState:
        """The state after the frame ``image`` taken at ``time`` (seconds, any origin)."""
        small = self._small(image)
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
        occluded = self.occlusion(small) > self.config.occlusion_fraction
        moved = self._previous is None or (
            float((np.abs(grey - self._previous) > self.config.motion_level).mean())
            > self.config.motion_fraction
        )
        self._previous = grey
        if occluded or moved:
            self._still_since = None if occluded else time
        elif self._still_since is None:
            self._still_since = time
        if occluded:
            self.state = "occluded"
        elif (
            self._still_since is not None and time - self._still_since >= self.config.still_seconds
        ):
            self.state = "settled"
        else:
            self.state = "moving"
        return self.state

    def reset(self) -> None:
        self._previous = None
        self._still_since = None
        self.state = "moving"
