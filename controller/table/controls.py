"""The panel's admin actions on a live table (``web.interfaces.Controls``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from controller.table.reader import VisionReader, jpeg
from controller.table.runner import Runner
from controller.table.table import Table


class RunnerControls:
    """The admin actions that go straight to the referee: new match, resign, undo, the clock."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner

    def new_match(self, settings: Any) -> None:
        self.runner.new_match(settings)

    def resign(self, player: int, points: int) -> None:
        self.runner.resign(player, points)

    def undo(self) -> None:
        self.runner.undo()

    def pause_clock(self, paused: bool) -> None:
        self.runner.pause_clock(paused)


class LiveControls(RunnerControls):
    """New match, resign, undo, and calibration by the board's four corners."""

    def __init__(self, runner: Runner, table: Table, calibration_path: Path) -> None:
        super().__init__(runner)
        self.table = table
        self.calibration_path = calibration_path

    def set_corners(self, corners: list[tuple[float, float]]) -> None:
        from vision.field_board import calibrate_field, standing_for

        image = self.table.status.latest_frame
        if image is None:
            raise ValueError("no camera frame yet: the corners cannot be checked")
        # the playing field's corners, on whatever position the board shows
        variant = self.runner.referee.snapshot()["match"]["variant"]
        calibration = calibrate_field(image, corners, standing=standing_for(variant))
        calibration.save(self.calibration_path)
        reader = self.table.reader
        settle = reader.config.still_seconds if isinstance(reader, VisionReader) else 0.4
        self.table.reader = VisionReader(calibration, settle)

    def latest_frame(self) -> bytes | None:
        image = self.table.status.latest_frame
        return None if image is None else jpeg(np.asarray(image))

    def calibration_overlay(self) -> bytes | None:
        from vision.field_board import FieldCalibration
        from vision.overlay import draw_calibration, draw_field

        image = self.table.status.latest_frame
        reader = self.table.reader
        if image is None or not isinstance(reader, VisionReader):
            return None
        if isinstance(reader.calibration, FieldCalibration):
            return jpeg(draw_field(image, reader.calibration))
        return jpeg(draw_calibration(image, reader.calibration))
