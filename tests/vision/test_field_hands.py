"""A hand over the field is told by its size, or by the arm it reaches over the frame with."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision import field_board
from vision.field_board import (
    FRAME_FAR,
    FieldCalibration,
    arm_area,
    calibrate_field,
    frame_rows,
    read_field,
    synthetic_field_corners,
)
from vision.field_reader import RingSettings
from vision.images import Image
from vision.synth.render import DrawnScene, random_style, render_frame

SKIN = (120, 160, 215)  # BGR: a light skin tone, unlike the drawn boards' frames and points


def _starting_frame(seed: int) -> tuple[Image, FieldCalibration]:
    """A drawn starting position seen from White's side (bottom row p12..p1), calibrated."""
    rng = np.random.default_rng(seed)
    for _ in range(20):
        style = dataclasses.replace(random_style(rng, hard=False), shadow=0.0)
        frame = render_frame(DrawnScene.starting(), style, rng)
        corners = synthetic_field_corners(frame.homography, style.layout)
        if corners[0][0] < corners[1][0]:
            return frame.image, calibrate_field(frame.image, corners)
    raise AssertionError("no frame from White's side")


def _painted(
    image: Image,
    calibration: FieldCalibration,
    top: float,
    bottom: float,
    colour: tuple[int, int, int] = SKIN,
) -> Image:
    """``image`` with a band of ``colour`` (skin) over the bottom row's p10 and p9 (empty at the
    start), from ``top`` to ``bottom`` in shares of the field's height (beyond 1: the frame)."""
    field = calibration.field
    left = field.column("p10")[0] + 0.15 * field.point_width
    right = field.column("p9")[1] - 0.55 * field.point_width
    box = np.array(
        [(left, top), (right, top), (right, bottom), (left, bottom)], np.float64
    ) * np.array([1.0, field.height])
    painted = image.copy()
    cv2.fillPoly(painted, [field.to_camera(box).round().astype(np.int32)], colour)
    return painted


@pytest.mark.parametrize("seed", [3, 8])
def test_an_arm_crossing_the_frame_is_a_hand_though_the_patch_is_small(seed: int) -> None:
    image, calibration = _starting_frame(seed)
    reaching = read_field(_painted(image, calibration, 0.8, 1.0 + FRAME_FAR + 0.05), calibration)
    settings = RingSettings()
    assert reaching.extra["foreign"] < settings.hand_area  # too small to be a hand by itself
    assert reaching.extra["arm"] >= settings.arm_area
    assert reaching.state == "occluded"


@pytest.mark.parametrize("seed", [3, 8])
def test_an_arm_of_the_frames_own_colour_shows_by_its_sides(seed: int) -> None:
    image, calibration = _starting_frame(seed)
    field = calibration.field
    painted = _painted(image, calibration, 0.8, 1.0)  # the hand, inside the field
    # the arm over the frame: the frame's own colour, told only by the shadows along its sides
    frame_at = field.to_camera(np.array([[field.width * 0.1, field.height * 1.04]]))[0]
    frame_colour = painted[round(frame_at[1]), round(frame_at[0])].tolist()
    left = field.column("p10")[0] + 0.15 * field.point_width
    right = field.column("p9")[1] - 0.55 * field.point_width
    below = 1.0 + FRAME_FAR + 0.05
    sleeve = np.array([(left, 1.0), (right, 1.0), (right, below), (left, below)]) * np.array(
        [1.0, field.height]
    )
    cv2.fillPoly(painted, [field.to_camera(sleeve).round().astype(np.int32)], frame_colour)
    for x in (left, right):
        side = field.to_camera(np.array([(x, field.height), (x, below * field.height)]))
        ends = side.round().astype(int)
        cv2.line(painted, tuple(ends[0]), tuple(ends[1]), (20, 20, 20), 3)
    reaching = read_field(painted, calibration)
    assert reaching.extra["arm"] >= RingSettings().arm_area
    assert reaching.state == "occluded"


#: a white sleeve (BGR), of the light checker set's colour on the drawn boards
WHITE_SLEEVE = (228, 232, 242)


@pytest.mark.xfail(
    strict=True,
    reason="an arm's patch must show some colour unlike both checker sets (ARM_UNLIKE), which a "
    "sleeve of the light set's colour does not; so small a patch is no hand by its size alone",
)
@pytest.mark.parametrize("seed", [3, 8])
def test_an_arm_in_a_sleeve_of_a_checker_set_s_colour_is_a_hand(seed: int) -> None:
    image, calibration = _starting_frame(seed)
    sleeve = _painted(image, calibration, 0.8, 1.0 + FRAME_FAR + 0.05, WHITE_SLEEVE)
    assert read_field(sleeve, calibration).state == "occluded"


def test_a_white_sleeve_is_refused_once_its_colour_is_not_asked_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # what the expected failure above lacks is the colour alone: the same sleeve is an arm
    image, calibration = _starting_frame(3)
    sleeve = _painted(image, calibration, 0.8, 1.0 + FRAME_FAR + 0.05, WHITE_SLEEVE)
    monkeypatch.setattr(field_board, "ARM_UNLIKE", 0.0)
    reading = read_field(sleeve, calibration)
    assert reading.extra["arm"] >= RingSettings().arm_area
    assert reading.state == "occluded"


@pytest.mark.parametrize("seed", [3, 8])
def test_the_same_patch_inside_the_field_alone_is_no_hand(seed: int) -> None:
    image, calibration = _starting_frame(seed)
    floating = read_field(_painted(image, calibration, 0.6, 0.8), calibration)
    assert floating.extra["arm"] == 0.0
    assert floating.state != "occluded"


@pytest.mark.parametrize("seed", [3, 8])
def test_something_on_the_frame_alone_is_no_hand(seed: int) -> None:
    # a cup or a hand resting on the frame beside the field
    image, calibration = _starting_frame(seed)
    beside = read_field(_painted(image, calibration, 1.01, 1.0 + FRAME_FAR + 0.05), calibration)
    assert beside.extra["arm"] == 0.0
    assert beside.state != "occluded"
    assert read_field(image, calibration).state != "occluded"


def _glared(image: Image, calibration: FieldCalibration, top: float, bottom: float) -> Image:
    """``image`` under a soft glare over :func:`_painted`'s band: every colour there paled
    halfway towards white at the middle, less towards the glare's blurred edge, as a window's or
    a lamp's light off a glossy surface does."""
    band = _painted(np.zeros_like(image), calibration, top, bottom, (255, 255, 255))
    blur = 0.25 * calibration.field.point_width
    weight = cv2.GaussianBlur(band[..., 0].astype(np.float32) / 255.0, (0, 0), blur)[..., None]
    return np.asarray((image * (1 - 0.5 * weight) + 255 * 0.5 * weight).round(), np.uint8)


@pytest.mark.parametrize("seed", [3, 8])
def test_a_glare_over_the_frame_and_the_field_beside_it_is_no_arm(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the shape of an arm reaching in, but the colour under it only paled: the frame's own
    image, calibration = _starting_frame(seed)
    glared = _glared(image, calibration, 0.8, 1.0 + FRAME_FAR + 0.05)
    reading = read_field(glared, calibration)
    assert reading.extra["arm"] == 0.0
    assert reading.state != "occluded"
    # taken for something crossing the frame when a glare is not told from it
    monkeypatch.setattr(field_board, "FRAME_GLARE", 0.0)
    assert read_field(glared, calibration).extra["arm"] >= RingSettings().arm_area


@pytest.mark.parametrize("seed", [3, 8])
def test_checkers_not_made_out_beside_something_on_the_frame_are_no_arm(seed: int) -> None:
    # a stack at a point's base that the rings missed (the white set's colour), and a hand
    # resting on the frame beside it: the same shapes as an arm reaching in, but no arm's colour
    image, calibration = _starting_frame(seed)
    lab = np.array([[calibration.colours.white]], np.float32).round().astype(np.uint8)
    white = tuple(int(v) for v in cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)[0, 0])
    resting = _painted(image, calibration, 1.01, 1.0 + FRAME_FAR + 0.05)
    both = _painted(resting, calibration, 0.8, 1.0, white)
    reading = read_field(both, calibration)
    assert reading.extra["foreign"] < RingSettings().hand_area
    assert reading.extra["arm"] == 0.0
    assert reading.state != "occluded"
    # the same band in skin's colour is an arm
    assert read_field(_painted(resting, calibration, 0.8, 1.0), calibration).state == "occluded"


@pytest.mark.parametrize("seed", [3, 8])
def test_a_noisy_calibration_does_not_hide_a_hand_unlike_the_board(seed: int) -> None:
    # a calibration frame with a window's glare over part of the board strays far from its own
    # empty board there; a hand whose colour is a little off the board's must still be strange
    image, calibration = _starting_frame(seed)
    noisy = dataclasses.replace(
        calibration, empty=dataclasses.replace(calibration.empty, level=40.0)
    )
    # the hand: the board under it with its colour moved 32 (Lab) off, under the 2 x 40 the
    # noisy calibration's own level would ask for
    reaching = _painted(image, calibration, 1.0, 1.0 + FRAME_FAR + 0.05)
    where = _painted(np.zeros_like(image), calibration, 0.8, 1.0, (255, 255, 255))[..., 0] > 0
    lab = cv2.cvtColor(reaching, cv2.COLOR_BGR2LAB).astype(np.int16)
    lab[..., 1] += 32
    tinted = cv2.cvtColor(np.clip(lab, 0, 255).astype(np.uint8), cv2.COLOR_LAB2BGR)
    reaching[where] = tinted[where]
    assert read_field(reaching, noisy).state == "occluded"
    assert read_field(image, noisy).state != "occluded"


def test_arm_area_is_nothing_without_strange_cells() -> None:
    image, calibration = _starting_frame(3)
    painted = _painted(image, calibration, 0.8, 1.0 + FRAME_FAR + 0.05)
    rows = max(8, calibration.field.height // 4)
    nothing = np.zeros((13, rows, 10), bool)
    bands = calibration.field.rectify_rows(painted, frame_rows(calibration.field))
    assert arm_area(bands, nothing, calibration.field) == 0.0


def test_rows_outside_the_field_are_the_frame_seen_from_above() -> None:
    image, calibration = _starting_frame(3)
    field = calibration.field
    whole = field.rectify(image)
    assert np.array_equal(field.rectify(image, (0, field.height)), whole)
    below = field.rectify(image, (field.height - 10, field.height + 20))
    assert below.shape == (30, field.width, 3)
    # the same pixels, within the warp's fixed-point rounding
    assert np.abs(below[:10].astype(int) - whole[-10:]).max() <= 2
    # far beyond the camera's view: black
    assert not field.rectify(image, (-20 * field.height, -19 * field.height)).any()
    # several spans at once are each what rectify gives alone
    spans = [(0, field.height), *frame_rows(field)]
    for view, span in zip(field.rectify_rows(image, spans), spans, strict=True):
        assert np.array_equal(view, field.rectify(image, span))


def test_a_cube_lying_on_the_frame_crosses_it_and_is_no_arm() -> None:
    # one thing lies in one place: where the cube was read on the frame, what crosses the frame
    # there is the cube, whatever lies strange in the field beside it
    image, calibration = _starting_frame(3)
    field = calibration.field
    left, right, _base, _direction = field.column("p10")
    x, side = (left + right) / 2, 1.3 * field.radius
    box = np.array(
        [(x - side / 2, 1.0), (x + side / 2, 1.0), (x + side / 2, 1.1), (x - side / 2, 1.1)]
    ) * np.array([1.0, field.height])
    painted = image.copy()
    cv2.fillPoly(painted, [field.to_camera(box).round().astype(np.int32)], SKIN)
    bands = field.rectify_rows(painted, frame_rows(field))
    rows = max(8, field.height // 4)
    strange = np.zeros((13, rows, 10), bool)
    strange[1:4, rows - rows // 5 :] = True  # the bottom row's p11 to p9, by the frame
    assert arm_area(bands, strange, field) >= RingSettings().arm_area
    on_frame = (x, 1.05 * field.height)
    assert arm_area(bands, strange, field, cube=on_frame) == 0.0
    # a cube beyond the other side, or on the field, explains nothing here
    assert (
        arm_area(bands, strange, field, cube=(x, -0.05 * field.height)) >= RingSettings().arm_area
    )
    assert arm_area(bands, strange, field, cube=(x, 0.95 * field.height)) >= RingSettings().arm_area


def test_an_arm_crosses_the_field_s_edge_beside_where_it_crosses_the_frame() -> None:
    # something on the frame (a hand resting there) beside strange cells that stop short of the
    # field's edge is no arm reaching in: an arm over the field crosses the edge itself
    image, calibration = _starting_frame(3)
    field = calibration.field
    painted = _painted(image, calibration, 1.0 + 0.5 * FRAME_FAR, 1.0 + FRAME_FAR + 0.05)
    bands = field.rectify_rows(painted, frame_rows(field))
    rows = max(8, field.height // 4)
    reaching = np.zeros((13, rows, 10), bool)
    reaching[1:4, rows - rows // 5 :] = True  # the bottom row's p11 to p9, up to the edge
    assert arm_area(bands, reaching, field) >= RingSettings().arm_area
    short = reaching.copy()
    short[:, rows - field_board.ARM_EDGE_ROWS :] = False  # the same, stopping a row short
    assert arm_area(bands, short, field) == 0.0
    # the edge crossed by less than a finger's width is not crossed either
    thin = short.copy()
    thin[2, rows - field_board.ARM_EDGE_ROWS :, :2] = True
    assert arm_area(bands, thin, field) == 0.0


@pytest.mark.parametrize("seed", [3, 8])
def test_where_the_frame_is_out_of_view_an_arm_is_seen_crossing_the_field_s_edge(
    seed: int,
) -> None:
    # a camera framed tightly on the field sees no frame for an arm to cross: the arm is known
    # by where it crosses the field's edge instead
    image, calibration = _starting_frame(seed)
    corners = np.asarray(calibration.field.corners, np.float64)
    x0, y0 = np.floor(corners.min(axis=0)).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 1

    def tight(frame: Image) -> Image:
        return np.ascontiguousarray(frame[y0:y1, x0:x1])

    field_only = calibrate_field(tight(image), [(x - x0, y - y0) for x, y in corners.tolist()])
    bands = field_only.field.rectify_rows(tight(image), frame_rows(field_only.field))
    _top, (_crossed, seen) = field_board._frame_beside(bands, field_only.field)
    assert not seen.any()  # the frame below the field lies outside the picture
    settings = RingSettings()
    assert read_field(tight(image), field_only).state != "occluded"
    reaching = read_field(tight(_painted(image, calibration, 0.8, 1.2)), field_only)
    assert reaching.extra["foreign"] < settings.hand_area  # too small to be a hand by itself
    assert reaching.extra["arm"] >= settings.arm_area
    assert reaching.state == "occluded"
    # the same patch stopping short of the field's edge reaches in from nowhere: no arm
    inside = read_field(tight(_painted(image, calibration, 0.7, 0.9)), field_only)
    assert inside.extra["arm"] == 0.0
