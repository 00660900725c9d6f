"""Vision as the table uses it: settle detection around :func:`vision.reader.read_marker_board`.

:class:`VisionReader` is the :class:`controller.table.table.BoardReader` of ``run`` and ``demo``. The live
table imports this module, so it imports nothing of the simulation: the demo's rendered camera is
:mod:`controller.sim.stage`.
"""

from __future__ import annotations

import io
from dataclasses import replace

import cv2
import numpy as np
import numpy.typing as npt

from sheshbesh.observation import Observation
from vision.calibration import Calibration
from vision.config import ReaderConfig
from vision.field_board import FieldCalibration, FieldSettleDetector, watch_field
from vision.reader import read_marker_board
from vision.settle import SettleDetector

Image = npt.NDArray[np.uint8]


class VisionReader:
    """Frames in, observations out; the board is read only once it has settled.

    Settle detection (:class:`vision.settle.SettleDetector`) runs on every frame; the costly reading
    runs once per settled stretch and is handed back until something moves again.
    """

    def __init__(
        self, calibration: Calibration | FieldCalibration, settle_seconds: float = 0.4
    ) -> None:
        self.calibration = calibration
        self.config = ReaderConfig(still_seconds=settle_seconds)
        self.detector: SettleDetector | FieldSettleDetector
        if isinstance(calibration, FieldCalibration):
            self.detector = FieldSettleDetector(calibration, still_seconds=settle_seconds)
        else:
            self.detector = SettleDetector(calibration, self.config)
        self._reading: Observation | None = None
        self._frame = 0

    def observe(self, image: Image, time: float) -> Observation:
        self._frame += 1
        state = self.detector.update(image, time)
        if state != "settled":
            self._reading = None
            return Observation(locations={}, state=state, frame=self._frame, time=time)
        if self._reading is None:
            reading = self._read(image, time)
            if reading.state != "settled":  # a hand resting still over the field
                return reading
            self._reading = reading
        return replace(self._reading, frame=self._frame, time=time)

    def _read(self, image: Image, time: float) -> Observation:
        if isinstance(self.calibration, FieldCalibration):
            # a frame without the board (the light out, the camera knocked) is waited out
            return watch_field(image, self.calibration, frame=self._frame, time=time)
        return read_marker_board(image, self.calibration, self.config, frame=self._frame, time=time)


def jpeg(image: Image) -> bytes:
    """A frame as the panel shows it: JPEG at quality 80, small enough to fetch every second."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
    if not ok:
        raise ValueError("the frame could not be encoded as JPEG")
    return io.BytesIO(data.tobytes()).getvalue()
