"""The demo's camera: a match's shots drawn by the synthetic renderer, and the demo's panel controls.

Simulation only: ``sheshbesh demo`` and the tests use it; the live table (``sheshbesh run``) never
imports it, so the renderer and the director stay out of the product's process.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from controller.sim.director import Shot
from controller.table.controls import RunnerControls
from controller.table.reader import Image, VisionReader, jpeg
from controller.table.runner import Runner
from vision.calibration import calibrate
from vision.synth.render import DieSpec, DrawnScene, Style, random_style, render

__all__ = ["DemoControls", "Image", "Stage", "calibrated_reader"]


class Stage:
    """The demo's camera: one board style and pose, drawing each shot of a match."""

    def __init__(self, seed: int = 7, style: Style | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        self.style = style or random_style(self.rng, hard=False)

    def scene(self, shot: Shot, hand: bool = False) -> DrawnScene:
        table = shot.table
        halves = {half for _, half in table.dice}
        dice = tuple(DieSpec(pips, half=half) for pips, half in table.dice)
        return DrawnScene.from_sides(
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
        return render(DrawnScene.starting(), self.style, self.rng)


def calibrated_reader(stage: Stage, settle_seconds: float = 0.4) -> VisionReader:
    """Calibrate on the stage's starting position, as an installer does on a real board."""
    return VisionReader(calibrate(stage.starting_frame()), settle_seconds)


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
