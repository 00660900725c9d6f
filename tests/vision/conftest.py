"""Shared pieces for the vision tests: seeded styles, calibrations and rendered frames."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision.calibration import Calibration, calibrate
from vision.synth.render import DrawnScene, Style, random_style, render

cv2.setNumThreads(1)


def session(seed: int, *, hard: bool = True) -> tuple[Style, Calibration, np.random.Generator]:
    """A style, its calibration on the starting position (no passing shadow) and the rng after it."""
    rng = np.random.default_rng(seed)
    style = random_style(rng, hard=hard)
    start = render(DrawnScene.starting(), dataclasses.replace(style, shadow=0.0), rng)
    return style, calibrate(start), rng


@pytest.fixture(scope="session")
def easy_session() -> tuple[Style, Calibration, np.random.Generator]:
    return session(7, hard=False)
