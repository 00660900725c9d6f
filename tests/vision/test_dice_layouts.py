"""The polarity-agnostic dice reader (vision.dice) on dice drawn here: both polarities, every face,
dice touching, the canonical layouts under any slanted view, and reading inside a region or mask."""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision.dice import LAYOUT_LIMIT, layout_misfit, read_dice, read_dice_photo
from vision.errors import ImageError
from vision.synth.dice_devset import LAYOUTS, plain_scene

POLARITIES = {
    "white die, black pips": ((235.0, 235.0, 235.0), (20.0, 20.0, 20.0)),
    "black die, white pips": ((30.0, 30.0, 30.0), (240.0, 240.0, 240.0)),
    "red die, white pips": ((40.0, 40.0, 200.0), (245.0, 245.0, 245.0)),
    "blue die, yellow pips": ((150.0, 60.0, 20.0), (60.0, 215.0, 235.0)),
}


@pytest.mark.parametrize("polarity", list(POLARITIES))
@pytest.mark.parametrize("pips", range(1, 7))
def test_every_face_of_either_polarity_is_read(polarity: str, pips: int) -> None:
    body, pip = POLARITIES[polarity]
    image = plain_scene([(pips, (240.0, 180.0))], body, pip)
    readings = read_dice_photo(image)
    assert [d.pips for d in readings] == [pips]
    x, y, w, h = readings[0].box
    assert x <= 240 <= x + w and y <= 180 <= y + h
    assert 30 <= w <= 90 and 0 < readings[0].confidence <= 1


@pytest.mark.parametrize("polarity", list(POLARITIES))
@pytest.mark.parametrize(("left", "right"), [(3, 5), (2, 6), (4, 4), (1, 6)])
def test_touching_dice_are_told_apart(polarity: str, left: int, right: int) -> None:
    body, pip = POLARITIES[polarity]
    side = 56.0
    image = plain_scene(
        [(left, (200.0, 180.0)), (right, (200.0 + 1.02 * side, 180.0))], body, pip, side, angle=0.0
    )
    readings = read_dice_photo(image)
    assert [d.pips for d in readings] == [left, right]  # sorted left to right


def test_small_dice_in_a_small_frame() -> None:
    body, pip = POLARITIES["black die, white pips"]
    image = plain_scene(
        [(5, (100.0, 80.0)), (2, (200.0, 100.0))], body, pip, side=22.0, size=(320, 180)
    )
    assert sorted(d.pips for d in read_dice_photo(image)) == [2, 5]


def test_a_plain_table_has_no_dice() -> None:
    assert read_dice_photo(np.full((360, 640, 3), 90, np.uint8)) == []
    noise = np.random.default_rng(3).integers(0, 255, (360, 640, 3)).astype(np.uint8)
    assert len(read_dice_photo(noise)) <= 1


def _view(points: list[tuple[float, float]], turn: float, squash: float, lean: float) -> np.ndarray:
    rotate = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    shape = np.array([[1.0, lean], [0.0, squash]])
    return np.asarray(np.array(points, np.float64) @ (shape @ rotate).T * 20.0, np.float64)


@pytest.mark.parametrize("pips", range(1, 7))
def test_canonical_layouts_fit_from_any_turn(pips: int) -> None:
    rng = np.random.default_rng(pips)
    for _ in range(20):
        points = _view(LAYOUTS[pips], float(rng.uniform(0, math.pi)), 1.0, 0.0)
        points += rng.normal(0, 0.6, points.shape)  # a pixel or so of error
        assert layout_misfit(points) <= LAYOUT_LIMIT


@pytest.mark.parametrize(
    "points",
    [
        [(0, 0), (1, 0), (3, 0)],  # three in a line, unevenly
        [(0, 0), (1, 0), (0, 1)],  # an L
        [(0, 0), (1, 0), (2, 0), (3, 0)],  # four in a line
        [(0, 0), (2, 0), (0, 2), (3, 3)],  # no parallelogram
        [(0, 0), (4, 0), (0, 1), (4, 1)],  # a sliver, not a square
        [(0, 0), (2, 0), (0, 2), (2, 2), (2, 1)],  # five with the odd one on an edge
        [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0)],  # six in a line
    ],
)
def test_shapes_that_are_no_face_are_refused(points: list[tuple[float, float]]) -> None:
    assert layout_misfit(np.array(points, np.float64) * 20.0) > LAYOUT_LIMIT


def test_reading_inside_a_region_or_mask_keeps_image_coordinates() -> None:
    body, pip = POLARITIES["white die, black pips"]
    image = plain_scene([(3, (120.0, 180.0)), (6, (360.0, 180.0))], body, pip)
    assert sorted(d.pips for d in read_dice(image)) == [3, 6]
    right = read_dice(image, region=(240, 60, 240, 240))
    assert [d.pips for d in right] == [6]
    x, y, w, h = right[0].box
    assert x <= 360 <= x + w and y <= 180 <= y + h
    mask = np.zeros(image.shape[:2], np.uint8)
    mask[100:260, 40:200] = 1
    assert [d.pips for d in read_dice(image, mask=mask)] == [3]
    # told a die's size, a crop is read at the scale that suits it
    sized = read_dice(image, region=(240, 60, 240, 240), die_side=56.0)
    assert [d.pips for d in sized] == [6]


def test_bad_regions_and_masks_are_refused() -> None:
    image = np.full((200, 300, 3), 120, np.uint8)
    with pytest.raises(ImageError, match="region"):
        read_dice(image, region=(400, 0, 50, 50))
    with pytest.raises(ImageError, match="mask"):
        read_dice(image, mask=np.zeros((10, 10), np.uint8))
    with pytest.raises(ImageError, match="shape"):
        read_dice(np.zeros((200, 300, 5), np.uint8))
