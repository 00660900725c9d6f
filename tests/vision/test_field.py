"""Any board from its playing field's corners: geometry, calibration on any position, reading."""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from controller.cli import main
from controller.table.reader import VisionReader
from sheshbesh.locations import POINT_LOCATIONS
from vision.errors import BoardNotFoundError, CalibrationError
from vision.field import check_corners, field_aspect, find_bar
from vision.field_board import (
    BOARD_SEEN,
    MOST_TRIMMED,
    FieldCalibration,
    _beyond_fifteen,
    board_likeness,
    calibrate_field,
    load_calibration,
    read_field,
    synthetic_field_corners,
    watch_field,
)
from vision.field_reader import (
    LEAST_SEPARATION,
    Checker,
    Gradients,
    RingSettings,
    learn_colours,
    pyramid_count,
    pyramid_rims,
    pyramid_slots,
)
from vision.synth.render import DrawnScene, Style, random_scene, random_style, render_frame

SIZE = (1280, 720)


def _pinhole_corners(aspect: float, tilt_degrees: float, roll_degrees: float = 0.0) -> np.ndarray:
    """A ``aspect`` x 1 rectangle on a table seen by a pinhole camera tilted ``tilt_degrees``."""
    half_w, half_h = aspect / 2, 0.5
    world = np.array(
        [(-half_w, -half_h, 0), (half_w, -half_h, 0), (half_w, half_h, 0), (-half_w, half_h, 0)]
    )
    tilt, roll = math.radians(tilt_degrees), math.radians(roll_degrees)
    rx = np.array(
        [[1, 0, 0], [0, math.cos(tilt), -math.sin(tilt)], [0, math.sin(tilt), math.cos(tilt)]]
    )
    rz = np.array(
        [[math.cos(roll), -math.sin(roll), 0], [math.sin(roll), math.cos(roll), 0], [0, 0, 1]]
    )
    camera = (rz @ rx @ world.T).T + np.array([0.0, 0.0, 2.2])
    focal = 1000.0
    x = focal * camera[:, 0] / camera[:, 2] + SIZE[0] / 2
    y = focal * camera[:, 1] / camera[:, 2] + SIZE[1] / 2
    return np.stack([x, y], axis=1)


@pytest.mark.parametrize(
    ("aspect", "tilt", "roll"), [(1.3, 0, 0), (1.3, 25, 3), (1.1, 18, -4), (1.6, 22, 0)]
)
def test_field_aspect_is_recovered_from_perspective(
    aspect: float, tilt: float, roll: float
) -> None:
    corners = _pinhole_corners(aspect, tilt, roll)
    assert field_aspect(corners, SIZE) == pytest.approx(aspect, rel=0.02)


def test_side_ratio_alone_would_be_wrong_at_a_tilt() -> None:
    # what the perspective recovery is for: plain side lengths are off by the foreshortening
    corners = _pinhole_corners(1.3, 25)
    across = (np.linalg.norm(corners[1] - corners[0]) + np.linalg.norm(corners[2] - corners[3])) / 2
    down = (np.linalg.norm(corners[3] - corners[0]) + np.linalg.norm(corners[2] - corners[1])) / 2
    assert abs(across / down - 1.3) > 0.06


@pytest.mark.parametrize(
    ("corners", "words"),
    [
        ([(100, 100), (600, 100), (100, 500), (600, 500)], "convex"),
        ([(600, 100), (100, 100), (100, 500), (600, 500)], "order"),
        ([(100, 100), (600, 100), (600, 500), (100, 500), (1, 1)], "four"),
        ([(100, 100), (1900, 100), (1900, 500), (100, 500)], "outside"),
        ([(100, 100), (110, 100), (110, 108), (100, 108)], "too small"),
        ([(100, 100), (float("nan"), 100), (600, 500), (100, 500)], "four"),
    ],
)
def test_nonsense_corners_are_refused_naming_why(
    corners: list[tuple[float, float]], words: str
) -> None:
    with pytest.raises(CalibrationError, match=words):
        check_corners(corners, SIZE)


def test_bar_is_found_from_its_long_edges() -> None:
    top = np.full((500, 720, 3), 90, np.uint8)
    for index in range(12):  # points either side of a bar 60 pixels wide at 330..390
        left = index * 55 if index < 6 else 390 + (index - 6) * 55
        colour = (40, 40, 160) if index % 2 else (200, 210, 220)
        cv2.fillPoly(
            top, [np.array([(left, 0), (left + 55, 0), (left + 27, 200)], np.int32)], colour
        )
        cv2.fillPoly(
            top, [np.array([(left, 499), (left + 55, 499), (left + 27, 300)], np.int32)], colour
        )
    top[:, 330:390] = (30, 60, 90)
    left, right = find_bar(top)
    assert left == pytest.approx(330, abs=3)
    assert right == pytest.approx(390, abs=3)


def _white_side_style(seed: int) -> tuple[Style, FieldCalibration, np.random.Generator]:
    rng = np.random.default_rng(seed)
    for _ in range(20):
        style = random_style(rng, hard=False)
        frame = render_frame(DrawnScene.starting(), dataclasses.replace(style, shadow=0.0), rng)
        corners = synthetic_field_corners(frame.homography, style.layout)
        if corners[0][0] < corners[1][0]:
            return style, calibrate_field(frame.image, corners), rng
    raise AssertionError("no frame from White's side")


def test_calibration_learns_two_sets_white_the_lighter() -> None:
    _style, calibration, _rng = _white_side_style(3)
    assert calibration.colours.white[0] > calibration.colours.black[0]
    assert calibration.colours.separation > 20
    bar_centre = sum(calibration.field.bar) / 2
    assert bar_centre == pytest.approx(calibration.field.width / 2, rel=0.05)


def _checkers_of(lightnesses: list[float]) -> list[Checker]:
    return [Checker(0.0, 0.0, 10.0, 1.0, (lightness, 128.0, 128.0)) for lightness in lightnesses]


def test_one_set_split_by_its_light_is_not_two_sets() -> None:
    # white checkers, some in a lamp's light and some in shade, fall into two tight groups that
    # differ by less than two checker sets ever do: calibration must look on (fainter rims,
    # where the dark set's are), not take them for White and Black
    lit, shaded = 218.0, 218.0 - 0.8 * LEAST_SEPARATION
    with pytest.raises(CalibrationError, match="two sets"):
        learn_colours(_checkers_of([lit] * 8 + [shaded] * 7))
    colours = learn_colours(_checkers_of([lit] * 8 + [40.0] * 7))
    assert colours.white[0] == pytest.approx(lit)
    assert colours.black[0] == pytest.approx(40.0)


def test_a_pyramid_fills_each_layer_over_the_gaps_of_the_one_under_it() -> None:
    # five in a row, four over their gaps, then three, two, one: fifteen
    slots = pyramid_slots(5, 15)
    assert len(slots) == 15
    assert [along for layer, along in slots if layer == 0] == [0, 2, 4, 6, 8]
    assert [along for layer, along in slots if layer == 1] == [1, 3, 5, 7]
    assert [along for layer, along in slots if layer == 4] == [4]
    assert pyramid_slots(5, 7) == [(0, 0), (0, 2), (0, 4), (0, 6), (0, 8), (1, 1), (1, 3)]


def test_a_pyramid_shows_the_whole_rims_of_its_top_checkers_and_parts_of_those_under_them() -> None:
    # a row alone: whole rims at the places, none between
    assert pyramid_rims(5, 5).tolist() == [1, 0, 1, 0, 1, 0, 1, 0, 1]
    # a full second layer: its rims whole; the row's ends keep two thirds of theirs (one
    # checker lies over each), its middle places a third (one either side)
    assert pyramid_rims(5, 9) == pytest.approx([2 / 3, 1, 1 / 3, 1, 1 / 3, 1, 1 / 3, 1, 2 / 3])
    # twelve: the third layer's three whole, the second layer's ends two thirds, its middle a
    # third, the row's ends two thirds
    assert pyramid_rims(5, 12) == pytest.approx([2 / 3, 2 / 3, 1, 1 / 3, 1, 1 / 3, 1, 2 / 3, 2 / 3])


def test_a_pyramid_is_counted_from_its_rims_only_where_it_needs_a_third_layer() -> None:
    whole, bare = 0.85, 0.15

    def ringing(many: int) -> tuple[list[float], list[float]]:
        rims = bare + (whole - bare) * pyramid_rims(5, many)
        return rims[0::2].tolist(), rims[1::2].tolist()

    for many in (10, 12, 14, 15):
        assert pyramid_count(*ringing(many)) == many
    # a row with a second layer or none is the row's own reading to make
    for many in (5, 6, 9):
        assert pyramid_count(*ringing(many)) is None
    # a twelve's pattern in rims that hardly stand out from the bare places is noise
    faint = 0.4 + 0.2 * pyramid_rims(5, 12)
    assert pyramid_count(faint[0::2].tolist(), faint[1::2].tolist()) is None


def test_a_lone_checker_shows_its_rim_facing_the_middle_and_a_bare_point_s_base_does_not() -> None:
    radius, grey, light = 20, (60, 60, 60), (200, 200, 200)
    field = np.full((300, 200, 3), grey, np.uint8)
    cv2.rectangle(field, (0, 0), (199, 29), (30, 30, 30), -1)  # the frame above the field
    # a light point from the frame's edge, its base a checker wide, and a lone light checker
    tip = 22 + radius
    cv2.fillPoly(field, [np.array([[20, 30], [24 + 2 * radius, 30], [tip, 230]])], light)
    cv2.circle(field, (150, 130), radius, light, -1)
    gradients = Gradients(field)
    edge = RingSettings().edge
    assert gradients.far_share(150, 130, radius, edge, 1) > 0.9
    # a ring at the point's base crosses its sides and the frame, nothing facing the middle
    for y in (30 + 0.7 * radius, 30 + radius, 30 + 1.3 * radius):
        assert gradients.far_share(tip, y, radius, edge, 1) < RingSettings().lone_far, y


def test_starting_position_is_read_exactly() -> None:
    style, calibration, rng = _white_side_style(5)
    frame = render_frame(DrawnScene.starting(), style, rng)
    observation = read_field(frame.image, calibration)
    expected = {"p6": (5, 0), "p8": (3, 0), "p13": (5, 0), "p24": (2, 0)}
    expected |= {"p1": (0, 2), "p12": (0, 5), "p17": (0, 3), "p19": (0, 5)}
    for location in POINT_LOCATIONS:
        seen = (observation.count(location, "white"), observation.count(location, "black"))
        assert seen == expected.get(location, (0, 0)), location
    assert observation.count("off-white", "white") == 0


def _side(points: dict[int, int]) -> list[int]:
    """25 counts from a side's own 1-point (bar last), as :meth:`DrawnScene.from_sides` takes them."""
    return [points.get(n, 0) for n in range(1, 26)]


def test_calibration_on_any_position_reads_the_start() -> None:
    # calibrated on a frame of play (not the start), then the starting position is read
    style, _calibration, rng = _white_side_style(11)
    scene = DrawnScene.from_sides(
        _side({6: 4, 8: 2, 13: 4, 24: 2, 4: 2, 10: 1}), _side({1: 2, 12: 4, 17: 3, 19: 4, 20: 2})
    )
    frame = render_frame(scene, style, rng)
    corners = synthetic_field_corners(frame.homography, style.layout)
    anywhere = calibrate_field(frame.image, corners)
    start = render_frame(DrawnScene.starting(), style, rng)
    observation = read_field(start.image, anywhere)
    assert observation.count("p6", "white") == 5
    assert observation.count("p19", "black") == 5
    assert observation.count("p13", "white") == 5


def test_random_positions_mostly_exact() -> None:
    exact = total = 0
    for seed in (21, 22, 23, 24):
        style, calibration, rng = _white_side_style(seed)
        for _ in range(3):
            scene = random_scene(rng)
            frame = render_frame(scene, style, rng)
            observation = read_field(frame.image, calibration)
            for location in POINT_LOCATIONS:
                if max(scene.count(location)) > 5:
                    continue  # tall stacks: measured by the benchmark, not asserted here
                total += 1
                seen = (observation.count(location, "white"), observation.count(location, "black"))
                exact += seen == scene.count(location)
    assert exact / total >= 0.97


def test_swap_makes_the_darker_set_white() -> None:
    style, _calibration, rng = _white_side_style(5)
    frame = render_frame(DrawnScene.starting(), style, rng)
    corners = synthetic_field_corners(frame.homography, style.layout)
    swapped = calibrate_field(frame.image, corners, swap=True)
    observation = read_field(frame.image, swapped)
    assert observation.count("p6", "black") == 5
    assert observation.count("p19", "white") == 5


def test_no_board_and_black_frames_are_refused() -> None:
    corners = [(200.0, 100.0), (1080.0, 100.0), (1080.0, 620.0), (200.0, 620.0)]
    with pytest.raises(CalibrationError, match="checker"):
        calibrate_field(np.zeros((720, 1280, 3), np.uint8), corners)
    noise = np.random.default_rng(1).integers(0, 255, (720, 1280, 3), dtype=np.uint8)
    with pytest.raises(CalibrationError, match="checker"):
        calibrate_field(noise, corners)


def test_calibration_round_trips_and_rescales(tmp_path: Path) -> None:
    style, calibration, rng = _white_side_style(5)
    path = tmp_path / "cal.json"
    calibration.save(path)
    loaded = load_calibration(path)
    assert isinstance(loaded, FieldCalibration)
    assert loaded.field.to_dict() == calibration.field.to_dict()
    frame = render_frame(DrawnScene.starting(), style, rng).image
    half = cv2.resize(frame, (640, 360), interpolation=cv2.INTER_AREA)
    observation = read_field(half, loaded)
    assert observation.count("p13", "white") == 5
    with pytest.raises(CalibrationError, match="proportions"):
        read_field(cv2.resize(frame, (640, 640)), loaded)


@pytest.mark.parametrize(
    "text",
    ["[1, 2]", "{}", '{"method": "field-corners", "field": 3, "checker_colours": {}}', "nonsense"],
)
def test_malformed_calibration_files_are_named(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(CalibrationError, match=r"bad\.json"):
        load_calibration(path)


def test_command_line_contract(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    style, _calibration, rng = _white_side_style(5)
    frame = render_frame(DrawnScene.starting(), style, rng)
    image, calibration, overlay = tmp_path / "start.png", tmp_path / "cal.json", tmp_path / "o.png"
    cv2.imwrite(str(image), frame.image)
    field = synthetic_field_corners(frame.homography, style.layout)
    text = ",".join(f"{v:.1f}" for point in field for v in point)
    argv = ["calibrate", str(image), "--field-corners", text, "--out", str(calibration)]
    assert main([*argv, "--overlay", str(overlay)]) == 0
    assert json.loads(calibration.read_text())["method"] == "field-corners"
    assert cv2.imread(str(overlay)).shape == frame.image.shape
    capsys.readouterr()
    assert (
        main(["read", str(image), "--calibration", str(calibration), "--overlay", str(overlay)])
        == 0
    )
    reading = json.loads(capsys.readouterr().out)
    assert reading["state"] == "settled"
    assert reading["locations"]["p6"]["white"] == 5
    assert reading["locations"]["p1"]["black"] == 2
    assert reading["locations"]["p24"]["white"] == 2
    # an all-black frame read with that calibration: one line saying why, no reading
    black = tmp_path / "black.png"
    cv2.imwrite(str(black), np.zeros_like(frame.image))
    assert main(["read", str(black), "--calibration", str(calibration)]) == 1
    said = capsys.readouterr()
    assert said.out == ""
    assert said.err.startswith("error: board could not be located: the frame is nearly even")
    assert said.err.count("\n") == 1


@pytest.mark.parametrize(
    ("corners", "words"),
    [
        ("1,2,3", "8 numbers"),
        ("100,100,600,100,100,500,600,500", "convex"),
        ("10,10,20,10,20,20,10,20", "too small"),
    ],
)
def test_command_line_refusals_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], corners: str, words: str
) -> None:
    image = tmp_path / "frame.png"
    cv2.imwrite(str(image), np.zeros((720, 1280, 3), np.uint8))
    overlay = tmp_path / "why.png"
    argv = ["calibrate", str(image), "--field-corners", corners, "--out", str(tmp_path / "c.json")]
    try:
        code = main([*argv, "--overlay", str(overlay)])
    except SystemExit as error:  # argparse's own refusal of a malformed value
        code = int(error.code or 0)
    assert code != 0
    err = capsys.readouterr().err.strip()
    assert words in err
    assert "Traceback" not in err
    assert not (tmp_path / "c.json").exists()


def test_refusal_overlay_shows_the_corners(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image = tmp_path / "frame.png"
    cv2.imwrite(str(image), np.zeros((720, 1280, 3), np.uint8))
    overlay = tmp_path / "why.png"
    argv = ["calibrate", str(image), "--field-corners", "200,100,1080,100,1080,620,200,620"]
    assert main([*argv, "--out", str(tmp_path / "c.json"), "--overlay", str(overlay)]) == 1
    drawn = cv2.imread(str(overlay))
    assert drawn is not None and int(drawn[:, :, 2].max()) == 255  # the red outline and reason
    assert "error:" in capsys.readouterr().err


def test_out_as_a_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    image = tmp_path / "frame.png"
    cv2.imwrite(str(image), np.zeros((720, 1280, 3), np.uint8))
    argv = ["calibrate", str(image), "--field-corners", "200,100,1080,100,1080,620,200,620"]
    assert main([*argv, "--out", str(tmp_path)]) == 1
    assert "folder" in capsys.readouterr().err


def test_hands_over_the_field_are_mostly_occluded_and_rarely_otherwise() -> None:
    # a development floor on the 2D renderer (skin on tan boards is the hard case; 15 of 20
    # hands were refused when it was set): at least 3 in 5 hands refused, at most 1 board in 10
    # without a hand taken for one
    hands = refused = boards = mistaken = 0
    for seed in (30, 31, 32, 33, 34):
        style, calibration, rng = _white_side_style(seed)
        for hand in (False, True, False, True):
            scene = dataclasses.replace(random_scene(rng), hand=hand)
            observation = read_field(render_frame(scene, style, rng).image, calibration)
            occluded = observation.state == "occluded"
            hands += hand
            refused += hand and occluded
            boards += not hand
            mistaken += occluded and not hand
    assert refused >= 0.6 * hands
    assert mistaken <= 0.1 * boards


def test_overlay_that_cannot_be_written_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    style, calibration, rng = _white_side_style(5)
    image, cal = tmp_path / "start.png", tmp_path / "cal.json"
    cv2.imwrite(str(image), render_frame(DrawnScene.starting(), style, rng).image)
    calibration.save(cal)
    for overlay in (tmp_path, tmp_path / "no-type"):
        argv = ["read", str(image), "--calibration", str(cal), "--overlay", str(overlay)]
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert "overlay" in err and "Traceback" not in err


def test_a_large_view_of_the_field_is_shrunk_by_area_before_it_is_warped() -> None:
    """A 4K frame shows the field several times larger than the rectified field: a stripe
    pattern finer than one field pixel must average out to its grey, not alias into bands."""
    from vision.field import SAMPLING, locate_field

    height, width = 2160, 3840
    image = np.zeros((height, width, 3), np.uint8)
    image[:, ::2] = 255  # stripes one camera pixel wide: grey at any coarser scale
    corners = [(400.0, 300.0), (3440.0, 300.0), (3440.0, 1860.0), (400.0, 1860.0)]
    field = locate_field(image, corners)
    assert field.camera_scale((width, height)) > 2 * SAMPLING
    top = field.rectify(image).astype(np.float64)
    inner = top[10:-10, 10:-10]
    assert abs(inner.mean() - 127.5) < 8
    # warped straight from the 4K frame the stripes alias into bands (a spread of about 75)
    assert inner.std() < 30, "the stripes aliased into bands"
    # the same view from a smaller frame (no shrinking needed) gives the same grey
    small = cv2.resize(image, (1280, 720), interpolation=cv2.INTER_AREA)
    assert field.camera_scale((1280, 720)) < SAMPLING
    assert abs(field.rectify(small)[10:-10, 10:-10].mean() - inner.mean()) < 8


def test_colour_cannot_vouch_where_the_board_has_a_checker_sets_own_colour() -> None:
    """White checkers on cream points: a disc of the checkers' colour there is no evidence either
    way (None), so the ring alone decides; elsewhere the colour vouches (True) or refuses (False)."""
    from vision.field_board import EmptyBoard, _voucher, field_lab

    _style, calibration, _rng = _white_side_style(3)
    field = calibration.field
    white = np.array(calibration.colours.white)
    felt = white + np.array([-90.0, 20.0, -25.0])  # a board far from both sets
    columns = np.empty_like(calibration.empty.columns)
    columns[...] = felt
    columns[0::2] = white  # every other column's picture (p13, p15, ...) has White's colour
    board = dataclasses.replace(calibration, empty=EmptyBoard(columns, 5.0))
    top = np.zeros((field.height, field.width, 3), np.uint8)
    top[...] = cv2.cvtColor(np.uint8([[white.round()]]), cv2.COLOR_LAB2BGR)[0, 0]
    vouch = _voucher(field_lab(top), board)
    on_white = (sum(field.column("p13")[:2]) / 2, 3 * field.radius)
    on_felt = (sum(field.column("p14")[:2]) / 2, 3 * field.radius)
    assert vouch(*on_white, field.radius) is None
    assert vouch(*on_felt, field.radius) is True
    top[...] = cv2.cvtColor(np.uint8([[felt.clip(0, 255).round()]]), cv2.COLOR_LAB2BGR)[0, 0]
    assert _voucher(field_lab(top), board)(*on_felt, field.radius) is False


def test_colour_cannot_vouch_for_a_disc_between_the_board_and_a_set() -> None:
    """A dark red checker on a red point: its colour is unlike the bare board's, yet nearer it
    than the set's by less than the noise (BOARD_LIKE). Colour says nothing there (None), not
    "bare board" (False); a disc plainly nearer the board than any set is still refused."""
    from vision.field_board import BOARD_LIKE, EmptyBoard, _voucher, field_lab
    from vision.images import lab_distance

    _style, calibration, _rng = _white_side_style(3)
    field = calibration.field
    black = np.array(calibration.colours.black, np.float64)
    point = black + np.array([40.0, 0.0, 14.0])  # the bare point: a lighter shade of Black's
    columns = np.empty_like(calibration.empty.columns)
    columns[...] = point
    board = dataclasses.replace(calibration, empty=EmptyBoard(columns, 5.0))
    sets = np.array([calibration.colours.white, black])
    assert float(lab_distance(point, sets).min()) > 2 * BOARD_LIKE  # colour could tell there
    place = (sum(field.column("p14")[:2]) / 2, 3 * field.radius)

    def said(disc: npt.NDArray[np.float64]) -> tuple[bool, bool | None]:
        top = np.zeros((field.height, field.width, 3), np.uint8)
        top[...] = cv2.cvtColor(np.uint8([[disc.clip(0, 255).round()]]), cv2.COLOR_LAB2BGR)[0, 0]
        lab = field_lab(top)
        seen = lab[round(place[1]), round(place[0])]
        to_board, to_set = float(lab_distance(seen, point)), float(lab_distance(seen, sets).min())
        between = to_board > BOARD_LIKE and to_board - BOARD_LIKE <= to_set
        return between, _voucher(lab, board)(*place, field.radius)

    # (whether the disc lies in that band, what colour says of it)
    assert said(black + 0.55 * (point - black)) == (True, None)
    assert said(black + 0.9 * (point - black)) == (False, False)
    assert said(black) == (False, True)


def test_colour_says_nothing_where_calibration_never_saw_the_bare_board() -> None:
    """A cell hidden at calibration in every column of its colour of point has only the columns'
    typical colour for a picture: a disc there is no evidence either way (None), while the same
    disc where the bare board was seen is vouched for; and the cells left unseen survive saving
    and loading the calibration."""
    from vision.field_board import EmptyBoard, _voucher, field_lab

    _style, calibration, _rng = _white_side_style(3)
    field = calibration.field
    white = np.array(calibration.colours.white)
    felt = white + np.array([-90.0, 20.0, -25.0])
    columns = np.empty_like(calibration.empty.columns)
    columns[...] = felt
    unseen = np.zeros(columns.shape[:3], bool)
    unseen[0::2, :4] = True  # the bases of p13, p15, ... were hidden in every such column
    board = dataclasses.replace(calibration, empty=EmptyBoard(columns, 5.0, unseen))
    top = np.zeros((field.height, field.width, 3), np.uint8)
    top[...] = cv2.cvtColor(np.uint8([[white.round()]]), cv2.COLOR_LAB2BGR)[0, 0]
    vouch = _voucher(field_lab(top), board)
    base_p13 = (sum(field.column("p13")[:2]) / 2, 2)
    base_p14 = (sum(field.column("p14")[:2]) / 2, 2)
    assert not board.empty.seen_at(field, *base_p13)
    assert board.empty.seen_at(field, *base_p14)
    assert vouch(*base_p13, field.radius) is None
    assert vouch(*base_p14, field.radius) is True
    loaded = FieldCalibration.from_dict(json.loads(board.to_json()))
    assert loaded.empty is not None and loaded.empty.unseen is not None
    assert np.array_equal(loaded.empty.unseen, unseen)
    # a calibration with every cell seen writes no list, and older files without one load
    assert "unseen" not in calibration.to_dict()["empty"]
    reloaded = FieldCalibration.from_dict(calibration.to_dict())
    assert reloaded.empty is not None and reloaded.empty.unseen is None


def test_an_unseen_cell_out_of_the_board_is_a_malformed_calibration() -> None:
    _style, calibration, _rng = _white_side_style(3)
    data = calibration.to_dict()
    data["empty"]["unseen"] = [10**9]
    with pytest.raises(CalibrationError, match="malformed empty board"):
        FieldCalibration.from_dict(data)


def _start_seen(seed: int) -> tuple[FieldCalibration, np.ndarray]:
    """A calibration on a board of White's style and a frame of the starting position on it."""
    style, calibration, rng = _white_side_style(seed)
    return calibration, render_frame(DrawnScene.starting(), style, rng).image


@pytest.mark.parametrize("seed", [3, 7])
def test_a_glare_lit_row_is_counted_for_its_side_to_keep_fifteen_a_side(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a lamp's glare over Black's two back checkers (p1) makes them look light, though not
    # quite like White's: seventeen White are seen, so the row that looks least like White's
    # set is Black's, and is counted so, as unsure
    calibration, start = _start_seen(seed)
    field = calibration.field
    left, right, base, _direction = field.column("p1")
    top = base - 4.4 * field.radius
    corners = field.to_camera(np.array([(left, base), (right, base), (right, top), (left, top)]))
    lit = np.zeros(start.shape[:2], np.uint8)
    cv2.fillConvexPoly(lit, corners.astype(np.int32), 255)
    image = start.astype(np.float32)
    image[lit > 0] = 0.5 * image[lit > 0] + 0.5 * np.array([235.0, 240.0, 245.0], np.float32)
    glare = image.astype(np.uint8)
    observation = read_field(glare, calibration)
    assert (observation.count("p1", "white"), observation.count("p1", "black")) == (0, 2)
    assert observation.locations["p1"].black_confidence <= 0.5
    assert observation.count("p6", "white") == 5
    monkeypatch.setattr("vision.field_board.MOST_FLIPPED", 0)
    # unmended, the two are White's seventeen, and then the least sure of White's go (two are
    # not there), so p1 reads bare
    trimmed = read_field(glare, calibration)
    assert (trimmed.count("p1", "white"), trimmed.count("p1", "black")) == (0, 0)
    monkeypatch.setattr("vision.field_board.MOST_TRIMMED", 0)
    unmended = read_field(glare, calibration)
    assert (unmended.count("p1", "white"), unmended.count("p1", "black")) == (2, 0)


@pytest.mark.parametrize("seed", [3, 7])
def test_a_lamps_pool_over_a_dark_row_is_read_against_the_board_it_lights(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a lamp lights a pool on the board round Black's two back checkers (p1): checkers and
    # board alike are lighter there. Measured against the board around them, lit as much, they
    # are still Black's, without the fifteen-a-side mend's help (turned off here); measured
    # against the whole board's light they would be White's
    calibration, start = _start_seen(seed)
    field = calibration.field
    left, right, base, direction = field.column("p1")
    middle = field.to_camera(
        np.array([((left + right) / 2, base + direction * 1.5 * field.radius)])
    )
    reach = field.to_camera(
        np.array([((left + right) / 2 + 4.5 * field.radius, base + direction * 1.5 * field.radius)])
    )
    radius = float(np.hypot(*(reach - middle)[0]))
    pool = np.zeros(start.shape[:2], np.float32)
    cv2.circle(pool, tuple(int(v) for v in middle[0]), int(radius), 1.0, -1)
    pool = cv2.GaussianBlur(pool, (0, 0), radius / 4)
    gain = 1.0 + 4.0 * pool[..., None]  # five times as bright in its middle
    lit = np.clip(start.astype(np.float32) * gain, 0, 255).astype(np.uint8)
    monkeypatch.setattr("vision.field_board.MOST_FLIPPED", 0)
    observation = read_field(lit, calibration)
    assert (observation.count("p1", "white"), observation.count("p1", "black")) == (0, 2)
    assert observation.count("p6", "white") == 5
    monkeypatch.setattr(
        "vision.field_board._local_light", lambda checkers, *_args: [1.0] * len(checkers)
    )
    unmended = read_field(lit, calibration)
    assert (unmended.count("p1", "white"), unmended.count("p1", "black")) != (0, 2)


def test_a_frame_that_does_not_show_the_calibrated_board_is_refused() -> None:
    calibration, start = _start_seen(5)
    # the board itself, in half the light, is read
    dim = (start.astype(np.float32) * 0.5).astype(np.uint8)
    assert read_field(dim, calibration).count("p6", "white") == 5
    # a black frame (a covered lens, the light out), and the camera knocked aside
    with pytest.raises(BoardNotFoundError, match="nearly even"):
        read_field(np.zeros_like(start), calibration)
    knocked = np.roll(start, (45, 70), axis=(0, 1))
    with pytest.raises(BoardNotFoundError, match="unlike the calibrated one"):
        read_field(knocked, calibration)
    # a photo of something else: dice on a table
    photo = cv2.imread(
        str(Path(__file__).parents[1] / "data/real/dice-matteop65/images/five_6.jpg")
    )
    photo = cv2.resize(photo, (start.shape[1], start.shape[0]))
    with pytest.raises(BoardNotFoundError, match="board could not be located"):
        read_field(photo, calibration)


def test_board_likeness_is_one_for_the_bare_board_and_zero_for_an_even_frame() -> None:
    calibration, _start = _start_seen(3)
    empty = calibration.empty
    assert empty is not None
    hidden = np.zeros(empty.columns.shape[:3], bool)
    likeness, spread = board_likeness(empty.columns, empty, hidden)
    assert likeness == pytest.approx(1.0) and spread == pytest.approx(1.0)
    # lighter everywhere: each channel less its mean, nothing changes
    assert board_likeness(empty.columns + 20.0, empty, hidden)[0] == pytest.approx(1.0)
    assert board_likeness(np.full_like(empty.columns, 40.0), empty, hidden) == (0.0, 0.0)
    # the board's picture with its columns' light and dark swapped: unlike it
    swapped = np.concatenate([empty.columns[1:12], empty.columns[:1], empty.columns[12:]])
    assert board_likeness(swapped, empty, hidden)[0] < BOARD_SEEN


def test_a_table_waits_while_its_frames_do_not_show_the_board() -> None:
    calibration, start = _start_seen(7)
    reader = VisionReader(calibration, settle_seconds=0.2)
    black = np.zeros_like(start)
    states = [reader.observe(black, moment / 10) for moment in range(8)]
    assert states[-1].state == "occluded" and not states[-1].locations
    assert "nearly even" in states[-1].extra["unseen"]
    watched = watch_field(black, calibration, frame=3, time=1.5)
    assert (watched.state, watched.frame, watched.time) == ("occluded", 3, 1.5)
    # the board seen again: read as before
    seen = [reader.observe(start, 1.0 + moment / 10) for moment in range(8)]
    assert seen[-1].state == "settled" and seen[-1].count("p6", "white") == 5


def _rows_of(*rows: tuple[str, list[tuple[float, int]]]) -> dict[str, list[Checker]]:
    """Rows of White's checkers down one column, each given as (ring score, layer)."""
    return {
        location: [
            Checker(10.0, 20.0 * k, 10.0, score, (200.0, 128.0, 128.0), layer)
            for k, (score, layer) in enumerate(row)
        ]
        for location, row in rows
    }


def _ids(
    rows: dict[str, list[Checker]],
    bar: list[Checker],
    mine: Callable[[Checker], bool] = lambda _c: True,
) -> set[int]:
    """The ids of the checkers of ``rows`` and ``bar`` that ``mine`` takes for one side's."""
    return {id(c) for c in (*bar, *(c for row in rows.values() for c in row)) if mine(c)}


def test_a_side_seen_with_more_than_fifteen_loses_its_least_sure_checkers() -> None:
    # seventeen White: a stack's second layer (how high a stack is shows least from above)
    # gives up its two checkers, the fainter first, before the faint last checker of a row
    rows = _rows_of(
        ("p6", [(0.9, 1)] * 5),
        ("p8", [(0.9, 1), (0.9, 1), (0.6, 1)]),
        ("p13", [(0.9, 1)] * 5 + [(0.8, 2), (0.5, 2)]),
    )
    bar = [Checker(5.0, 5.0 + 20 * k, 10.0, 0.95, (200.0, 128.0, 128.0)) for k in range(2)]
    kept, kept_bar = _beyond_fifteen(rows, bar, _ids(rows, bar))
    assert [len(kept[location]) for location in ("p6", "p8", "p13")] == [5, 3, 5]
    assert len(kept_bar) == 2
    assert [len(row) for row in rows.values()] == [5, 3, 7]  # what was given is left as it was
    # one more over fifteen: of single rows, the faintest last checker goes
    rows["p9"] = _rows_of(("p9", [(0.7, 1)]))["p9"]
    kept, _bar = _beyond_fifteen(rows, bar, _ids(rows, bar))
    assert [len(kept[location]) for location in ("p6", "p8", "p9", "p13")] == [5, 2, 1, 5]


def test_a_stack_the_counter_is_sure_of_loses_checkers_last() -> None:
    # sixteen White: a pile of seven on p13 and a faint checker on the bar; the pile would give
    # up its second layer first, but where the stack counter is sure of its count the bar's
    # checker, seen where none is, goes instead
    rows = _rows_of(
        ("p6", [(0.9, 1)] * 5), ("p8", [(0.9, 1)] * 3), ("p13", [(0.9, 1)] * 5 + [(0.8, 2)] * 2)
    )
    bar = [Checker(5.0, 5.0, 10.0, 0.75, (200.0, 128.0, 128.0))]
    kept, kept_bar = _beyond_fifteen(rows, bar, _ids(rows, bar))
    assert (len(kept["p13"]), len(kept_bar)) == (6, 1)
    kept, kept_bar = _beyond_fifteen(rows, bar, _ids(rows, bar), frozenset({"p13"}))
    assert (len(kept["p13"]), len(kept_bar)) == (7, 0)


def test_a_side_seen_with_many_more_than_fifteen_is_left_as_seen() -> None:
    # beyond fifteen by more than MOST_TRIMMED, a side has the other side's checkers (a
    # colour misread): taking its own away would not mend that
    rows = _rows_of(("p6", [(0.9, 1)] * 5), ("p7", [(0.9, 1)] * 5), ("p8", [(0.9, 1)] * 5))
    rows["p9"] = _rows_of(("p9", [(0.5, 1)] * (MOST_TRIMMED + 1)))["p9"]
    kept, _bar = _beyond_fifteen(rows, [], _ids(rows, []))
    assert sum(len(row) for row in kept.values()) == 15 + MOST_TRIMMED + 1
    # and the other side's checkers are never counted or taken
    kept, _bar = _beyond_fifteen(rows, [], _ids(rows, [], lambda c: c.score > 0.6))
    assert sum(len(row) for row in kept.values()) == 15 + MOST_TRIMMED + 1


def _sharpness(row: npt.NDArray[np.uint8]) -> float:
    """How sharply ``row`` draws a step edge: the sum of the squared rises from one pixel to
    the next over the squared whole step from its dark end to its light one (1 for a step, 1/w
    for a straight ramp w pixels wide)."""
    values = row.astype(np.float64)
    step = values[-20:].mean() - values[:20].mean()
    return float((np.diff(values) ** 2).sum() / step**2)


def test_a_small_view_of_the_field_is_enlarged_so_that_an_edge_stays_a_step() -> None:
    """A field shown at under half a frame pixel per field pixel (a 640x360 frame) is enlarged
    by cubic interpolation: a step edge between two greys stays narrower than bilinear draws it,
    where a rim's edge would spread over the new pixels. Short of that (the larger frame), the
    field is warped bilinearly as before."""
    from vision.field import ENLARGED, locate_field

    image = np.full((360, 640, 3), 40, np.uint8)
    image[:, 321:] = 200  # a step edge down the frame
    corners = [(170.0, 60.0), (470.0, 60.0), (470.0, 300.0), (170.0, 300.0)]
    field = locate_field(image, corners)
    assert field.camera_scale((640, 360)) < 1 / ENLARGED
    middle = field.height // 2
    cubic = field.rectify(image)[middle, :, 0]
    matrix = field.homography()
    size = (field.width, field.height)
    bilinear = cv2.warpPerspective(image, matrix, size, flags=cv2.INTER_LINEAR)[middle, :, 0]
    assert _sharpness(cubic) > 1.1 * _sharpness(bilinear)
    # twice the size: half a frame pixel per field pixel or more, warped bilinearly as before
    large = cv2.resize(image, (1280, 720), interpolation=cv2.INTER_NEAREST)
    assert field.camera_scale((1280, 720)) >= 1 / ENLARGED
    doubled = matrix @ np.diag([0.5, 0.5, 1.0])
    expected = cv2.warpPerspective(large, doubled, size, flags=cv2.INTER_LINEAR)
    assert np.array_equal(field.rectify(large), expected)
