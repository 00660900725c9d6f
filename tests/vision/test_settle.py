"""Settle detection over a rendered sequence, with the clock in the test's hands."""

from __future__ import annotations

import numpy as np

from vision.config import ReaderConfig
from vision.settle import SettleDetector
from vision.synth.render import DrawnScene, render


def still(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The same board a moment later: only the sensor noise differs."""
    noisy = image.astype(np.int16) + rng.normal(0, 3, image.shape).astype(np.int16)
    return np.clip(noisy, 0, 255).astype(np.uint8)


def test_still_then_hand_then_still_again(easy_session: tuple) -> None:
    style, calibration, rng = easy_session
    detector = SettleDetector(calibration, ReaderConfig(still_seconds=0.5))
    board = render(DrawnScene.starting(), style, rng)
    assert detector.update(board, 0.0) == "moving"
    assert detector.update(still(board, rng), 0.2) == "moving"
    assert detector.update(still(board, rng), 0.6) == "settled"
    hand = render(DrawnScene.starting(hand=True), style, rng)
    assert detector.update(hand, 0.7) in ("occluded", "moving")
    assert detector.update(still(board, rng), 0.8) == "moving"
    assert detector.update(still(board, rng), 1.0) == "moving"
    assert detector.update(still(board, rng), 1.4) == "settled"


def test_a_changed_board_is_moving_until_still_long_enough(easy_session: tuple) -> None:
    style, calibration, rng = easy_session
    detector = SettleDetector(calibration, ReaderConfig(still_seconds=1.0))
    first = render(DrawnScene.starting(), style, rng)
    moved = render(
        DrawnScene(counts={**DrawnScene.starting().counts, "p6": (3, 0), "p4": (2, 0)}), style, rng
    )
    detector.update(first, 0.0)
    assert detector.update(still(first, rng), 1.1) == "settled"
    assert detector.update(moved, 1.2) == "moving"
    assert detector.update(still(moved, rng), 1.5) == "moving"
    assert detector.update(still(moved, rng), 2.3) == "settled"
    detector.reset()
    assert detector.state == "moving"


def test_hands_over_the_board_are_occluded() -> None:
    from .conftest import session

    occluded = 0
    for seed in range(50, 60):
        style, calibration, rng = session(seed, hard=False)
        detector = SettleDetector(calibration)
        detector.update(render(DrawnScene.starting(), style, rng), 0.0)
        occluded += (
            detector.update(render(DrawnScene.starting(hand=True), style, rng), 0.1) == "occluded"
        )
    assert occluded >= 7
