"""Calibration: the homography within tolerance, the corner fallback, errors, JSON round trips."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from vision.calibration import Calibration, calibrate, find_markers, locate_board
from vision.errors import BoardNotFoundError, CalibrationError
from vision.synth.render import DrawnScene, random_style, render


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_markers_give_the_board_corners_within_a_pixel_and_a_half(seed: int) -> None:
    rng = np.random.default_rng(seed)
    style = random_style(rng, hard=True)
    image = render(DrawnScene.starting(), dataclasses.replace(style, shadow=0.0), rng)
    calibration = locate_board(image)
    found = calibration.to_camera(style.layout.board_corners())
    error = np.abs(found - np.array(style.corners)).max()
    assert error < 1.5, error
    assert sorted(find_markers(image)) == [0, 1, 2, 3]


def test_corners_by_hand_give_the_same_board() -> None:
    rng = np.random.default_rng(4)
    style = random_style(rng, hard=False)
    image = render(DrawnScene.starting(), style, rng)
    by_hand = locate_board(image, corners=style.corners)
    assert by_hand.method == "corners"
    point = np.array([[0.5, 0.3]])
    assert np.allclose(by_hand.to_camera(point), locate_board(image).to_camera(point), atol=1.5)


def test_a_frame_without_markers_is_a_clear_error() -> None:
    blank = np.full((720, 1280, 3), 120, np.uint8)
    with pytest.raises(BoardNotFoundError, match="board could not be located: 0 of the 4 markers"):
        locate_board(blank)


@pytest.mark.parametrize(
    "corners",
    [
        [(0, 0), (1, 1)],
        [(0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (1, 0), (float("nan"), 1), (0, 1)],
    ],
)
def test_bad_corners_are_refused(corners: list[tuple[float, float]]) -> None:
    with pytest.raises(CalibrationError):
        locate_board(np.zeros((720, 1280, 3), np.uint8), corners=corners)


def test_colours_are_learned_and_white_differs_from_black(easy_session: tuple) -> None:
    _, calibration, _ = easy_session
    white = np.array(calibration.colours["white"])
    black = np.array(calibration.colours["black"])
    assert np.linalg.norm(white - black) > 40
    assert calibration.reference is not None
    assert set(calibration.profiles) == {"white", "black"}


def test_a_frame_with_no_checkers_cannot_teach_colours() -> None:
    rng = np.random.default_rng(9)
    style = random_style(rng, hard=False)
    empty = render(DrawnScene(counts={}), style, rng)
    with pytest.raises(CalibrationError, match="look alike"):
        calibrate(empty)


def test_calibration_round_trips_through_a_file(tmp_path: Path, easy_session: tuple) -> None:
    _, calibration, _ = easy_session
    path = tmp_path / "calibration.json"
    calibration.save(path)
    loaded = Calibration.load(path)
    assert np.allclose(loaded.homography, calibration.homography)
    assert loaded.colours.keys() == calibration.colours.keys()
    assert loaded.reference is not None and loaded.reference.shape == calibration.reference.shape
    assert path.stat().st_size < 400_000


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "not an object"),
        ('{"image_size": [1280, 720]}', "lacks the field 'homography'"),
        ('{"homography": [[1, 0], [0, 1]], "image_size": [1280, 720]}', "3x3"),
        ('{"homography": [[1,0,0],[0,1,0],[0,0,1]], "image_size": [0, 720]}', "image_size"),
        (
            '{"homography": [[1,0,0],[0,1,0],[0,0,1]], "image_size": [1280, 720], "reference": "@@"}',
            "base64",
        ),
    ],
)
def test_malformed_calibrations_name_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(CalibrationError, match=message):
        Calibration.from_json(text)


def test_a_missing_calibration_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match="cannot be read"):
        Calibration.load(tmp_path / "nowhere.json")


def test_a_frame_of_another_size_is_refused(easy_session: tuple) -> None:
    _, calibration, _ = easy_session
    with pytest.raises(CalibrationError, match="differs from the calibration"):
        calibration.rectify(np.zeros((480, 640, 3), np.uint8))


def test_json_form_is_plain_data(easy_session: tuple) -> None:
    _, calibration, _ = easy_session
    data = json.loads(calibration.to_json())
    assert data["method"] == "markers" and len(data["homography"]) == 3
