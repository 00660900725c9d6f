"""Vision as the table uses it: settle detection around :func:`vision.reader.read_board`.

:class:`VisionReader` is the :class:`controller.app.BoardReader` of ``run`` and ``demo``.
:class:`Stage` draws a match's shots with the synthetic renderer for the demo.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import replace

import cv2
import numpy as np
import numpy.typing as npt

from controller.director import Shot
from controller.live_controls import RunnerControls
from controller.runner import Runner
from sheshbesh.observation import Observation
from vision.calibration import Calibration, calibrate
from vision.config import ReaderConfig
from vision.field_board import FieldCalibration, FieldSettleDetector, read_field
from vision.reader import read_board
from vision.render import DieSpec, Scene, Style, random_style, render
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
            return read_field(image, self.calibration, frame=self._frame, time=time)
        return read_board(image, self.calibration, self.config, frame=self._frame, time=time)


class Stage:
    """The demo's camera: one board style and pose, drawing each shot of a match."""

    def __init__(self, seed: int = 7, style: Style | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        self.style = style or random_style(self.rng, hard=False)

    def scene(self, shot: Shot, hand: bool = False) -> Scene:
        table = shot.table
        halves = {half for _, half in table.dice}
        dice = tuple(DieSpec(pips, half=half) for pips, half in table.dice)
        return Scene.from_sides(
            table.white,
            table.black,
            dice=dice,
            dice_half=next(iter(halves)) if len(halves) == 1 else "right",
            cube_value=table.cube_value,
            cube_place=table.cube_place,
            hand=hand,
        )

    def frames(self, shot: Shot, count: int) -> Iterator[Image]:
        """``count`` frames of ``shot``: a moving hand changes every frame, a still board does not."""
        if shot.hand:
            for _ in range(count):
                yield render(self.scene(shot, hand=True), self.style, self.rng)
            return
        image = render(self.scene(shot), self.style, self.rng)
        for _ in range(count):
            yield image

    def starting_frame(self) -> Image:
        return render(Scene.starting(), self.style, self.rng)


def calibrated_reader(stage: Stage, settle_seconds: float = 0.4) -> VisionReader:
    """Calibrate on the stage's starting position, as an installer does on a real board."""
    return VisionReader(calibrate(stage.starting_frame()), settle_seconds)


def jpeg(image: Image) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
    if not ok:
        raise ValueError("the frame could not be encoded as JPEG")
    return io.BytesIO(data.tobytes()).getvalue()


class DemoControls(RunnerControls):
    """The panel's admin actions during the demo (``web.interfaces.Controls``)."""

    def __init__(self, runner: Runner, stage: Stage) -> None:
        super().__init__(runner)
        self.stage = stage
        self.latest: Image | None = None

    def set_corners(self, corners: list[tuple[float, float]]) -> None:
        raise ValueError("the demo's camera is calibrated from its markers; corners are not needed")

    def latest_frame(self) -> bytes | None:
        return None if self.latest is None else jpeg(self.latest)

    def calibration_overlay(self) -> bytes | None:
        return None
