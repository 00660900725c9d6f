"""The bar of a board from its field's corners: a raised bar's shadow beside it is not the bar."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pytest

import vision.field_board as field_board
from vision.errors import CalibrationError
from vision.field import BAR_CENTRING, Field, find_bar
from vision.field_board import calibrate_field, synthetic_field_corners
from vision.field_reader import RingSettings
from vision.synth.render import DrawnScene, random_style, render_frame


def _board_with_a_shadow_beside_its_bar() -> np.ndarray:
    """A drawn field 720 wide: a bar at 342..378 (in the middle) with faint edges, and a dark
    shadow at 318..342 beside it whose edges stand out far more."""
    top = np.full((500, 720, 3), 150, np.uint8)
    top[:, 342:378] = (165, 165, 165)  # the bar, a little lighter than the field
    top[:, 318:342] = (20, 20, 20)  # its shadow
    return top


def test_a_shadow_beside_the_bar_misleads_unless_the_bar_is_held_to_the_middle() -> None:
    top = _board_with_a_shadow_beside_its_bar()
    # the shadow alone lies too far off the middle to be the bar, but its strong edge still
    # draws the band found towards it
    assert find_bar(top) != pytest.approx((342, 378), abs=2)
    assert find_bar(top, BAR_CENTRING) == pytest.approx((342, 378), abs=2)


def test_a_band_further_off_the_middle_than_a_bar_ever_lies_is_not_the_bar() -> None:
    # a dark band 18 wide whose middle lies 26 pixels (3.6% of the field) left of the field's,
    # its edges standing out far more than the true bar's faint ones in the middle
    top = np.full((500, 720, 3), 150, np.uint8)
    top[:, 340:380] = (165, 165, 165)  # the bar
    top[:, 325:343] = (20, 20, 20)  # a dark groove and shadow beside it
    left, right = find_bar(top)
    assert abs((left + right) / 2 - 360) <= 0.025 * 720
    assert (left, right) != pytest.approx((325, 343), abs=2)


def test_calibration_looks_for_the_bar_again_in_the_middle_before_refusing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # on a real board a shadow taken for the bar puts every point a little off, and no checker
    # is found; here calibration is made to fail that way whenever the bar is off the middle
    rng = np.random.default_rng(4)
    while True:  # a frame seen from White's side, so the corners come in their order
        style = random_style(rng, hard=False)
        frame = render_frame(DrawnScene.starting(), style, rng)
        corners = synthetic_field_corners(frame.homography, style.layout)
        if corners[0][0] < corners[1][0]:
            break
    real = field_board._calibrate
    tried: list[tuple[float, float]] = []

    def only_a_middle_bar(
        image: np.ndarray,
        field: Field,
        swap: bool,
        settings: RingSettings,
        standing: Mapping[str, str],
    ) -> field_board.FieldCalibration:
        tried.append(field.bar)
        if abs(sum(field.bar) / 2 - field.width / 2) > 0.005 * field.width:
            raise CalibrationError("only 0 checkers found on the field")
        return real(image, field, swap, settings, standing)

    monkeypatch.setattr(field_board, "_calibrate", only_a_middle_bar)
    monkeypatch.setattr(
        field_board,
        "locate_field",
        lambda image, corners, *, bar_centring=None: _shifted_unless_centred(
            image, corners, bar_centring
        ),
    )
    calibration = calibrate_field(frame.image, corners)
    assert len(set(tried)) == 2  # the first bar, then the one held to the middle
    middle = sum(calibration.field.bar) / 2
    assert middle == pytest.approx(calibration.field.width / 2, abs=0.005 * 720)


def _shifted_unless_centred(
    image: np.ndarray, corners: list[tuple[float, float]], centring: float | None
) -> Field:
    """The field as found, its bar moved a shadow's width left when not held to the middle."""
    from vision.field import locate_field

    field = locate_field(image, corners, bar_centring=centring)
    if centring is not None:
        return field
    left, right = field.bar
    return Field(
        field.corners,
        field.image_size,
        field.width,
        field.height,
        (left - 24, right - 24),
        field.radius,
    )
