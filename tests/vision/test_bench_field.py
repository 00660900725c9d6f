"""``benchmarks/bench_field.py``: the misread frames ``--show N`` lists say what was wrong, a
folder that is not there is refused by name rather than read as an empty set, and the camera's
faults it can add (``--light``, ``--blur``) do what they say, ``--overlay`` draws a stream's
graphics round the field, never over it, and ``--crop`` cuts the frame to the field and a margin
round it, as a camera framed tightly on the field sees it.

The dice line names the dice labelled and the dice read, each with its pips and where its box
starts, so a misread face, a missed die and a board mark taken for a die can be told apart from
the bench's output alone; a hand line gives what the hand test measured on that frame.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import cv2
import numpy as np

from tests.scripts import load_script
from vision.field_board import calibrate_field, read_field
from vision.field_reader import RingSettings
from vision.images import load_image

ROOT = Path(__file__).resolve().parents[2]
FRAME = ROOT / "tests" / "data" / "photoreal" / "wooden-folding-000004.json"


def _bench(*args: str, timeout: int = 300) -> subprocess.CompletedProcess[str]:
    """``bench_field.py`` run with ``args``, its output captured."""
    return subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_field.py"), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        check=False,
    )


def _shown(
    tmp_path: Path, changes: dict[str, Any], *args: str
) -> tuple[dict[str, Any], Path, list[str]]:
    """:data:`FRAME` copied into ``tmp_path`` with ``changes`` made to its labels, and the
    bench's ``--show`` output over it, read with ``args``: the labels, the image's copy and the
    lines printed."""
    labels = {**json.loads(FRAME.read_text()), **changes}
    (tmp_path / FRAME.name).write_text(json.dumps(labels))
    shutil.copy(FRAME.with_name(labels["image"]), tmp_path / labels["image"])
    done = _bench(str(tmp_path), "--show", "9", *args)
    assert done.returncode == 0, done.stderr[-2000:]
    return labels, tmp_path / labels["image"], done.stdout.splitlines()


def _dice_line(
    tmp_path: Path, dice: list[dict[str, Any]], *args: str
) -> tuple[dict[str, Any], Path, str]:
    """The one dice line ``--show`` prints for :data:`FRAME` labelled with ``dice`` (three: a
    roll is two, so no reading can match and the frame is always listed), with the labels and
    the image's copy (:func:`_shown`)."""
    labels, image_file, printed = _shown(tmp_path, {"dice": dice}, *args)
    assert not labels["occluded"]
    lines = [line for line in printed if ": dice: " in line]
    assert len(lines) == 1, printed
    return labels, image_file, lines[0]


def test_show_names_the_dice_labelled_and_the_dice_read(tmp_path: Path) -> None:
    dice = [
        {"pips": 6, "box": [10.4, 20.6, 30, 30], "cocked": False},
        {"pips": 2, "box": [50, 60, 30, 30], "cocked": True},
        {"pips": 4, "box": [90, 100, 30, 30], "cocked": False},
    ]
    labels, image_file, line = _dice_line(tmp_path, dice)
    there, read = line.split("; read ")
    assert there == f"{FRAME.name}: dice: there 6 at (10, 21), 2 cocked at (50, 60), 4 at (90, 100)"
    # the dice read are the reader's own, written as the labelled ones are
    image = load_image(image_file)
    observation = read_field(image, calibrate_field(image, labels["field_corners"]))
    expected = [
        f"{d.pips}{' cocked' if d.cocked else ''} at ({d.box[0]}, {d.box[1]})"
        for d in observation.dice
    ]
    assert read == (", ".join(expected) or "none")


def test_show_gives_the_labelled_dice_where_they_lie_in_a_rescaled_frame(tmp_path: Path) -> None:
    # with --width the frame is read rescaled, and so are the dice read: the labelled dice are
    # named where they lie in that frame too, not in the label's own pixels
    assert load_image(FRAME.with_suffix(".jpg")).shape[1] == 1280
    dice = [
        {"pips": 6, "box": [100.4, 200.6, 30, 30], "cocked": False},
        {"pips": 2, "box": [500, 600, 30, 30], "cocked": True},
        {"pips": 4, "box": [900, 10, 30, 30], "cocked": False},
    ]
    _labels, _image_file, line = _dice_line(tmp_path, dice, "--width", "640")
    there = line.split("; read ")[0]
    assert there == (
        f"{FRAME.name}: dice: there 6 at (50, 100), 2 cocked at (250, 300), 4 at (450, 5)"
    )


def test_show_gives_what_the_hand_test_measured_on_a_hand_it_missed(tmp_path: Path) -> None:
    # a hand said to be there, over a board without one
    labels, image_file, printed = _shown(tmp_path, {"occluded": True})
    image = load_image(image_file)
    extra = read_field(image, calibrate_field(image, labels["field_corners"])).extra
    settings = RingSettings()
    assert (
        f"{FRAME.name}: a hand over the field was not seen (patch {extra['foreign']:.2f} checker "
        f"areas, a hand from {settings.hand_area:g}; arm {extra['arm']:.2f}, from "
        f"{settings.arm_area:g})"
    ) in printed


def test_a_folder_that_is_not_there_is_refused_by_name(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-set"
    done = _bench(str(missing), timeout=120)
    assert done.returncode == 2
    assert f"{str(missing)!r} is not a folder of labelled frames" in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


def test_shesh_besh_frames_are_scored_as_the_camera_sees_them(tmp_path: Path) -> None:
    # a Shesh Besh frame read exactly for its game (every standing stack one checker); read for
    # backgammon (--game), its stacks on edge are missed or taken for a hand
    frame = ROOT / "tests" / "data" / "photoreal-sheshbesh" / "sheshbesh-travel-000182.json"
    shutil.copy(frame, tmp_path / frame.name)
    shutil.copy(frame.with_suffix(".jpg"), tmp_path / frame.with_suffix(".jpg").name)

    def scored(*more: str) -> str:
        done = _bench(str(tmp_path), *more)
        assert done.returncode == 0, done.stderr[-2000:]
        return next(line for line in done.stdout.splitlines() if line.startswith("all"))

    assert " 100.0%  25/25 " in scored()
    assert " 100.0%  25/25 " not in scored("--game", "backgammon")


def _bench_module() -> ModuleType:
    """``benchmarks/bench_field.py`` loaded as a module, for its camera faults."""
    return load_script("benchmarks/bench_field.py")


def test_light_multiplies_each_colours_linear_light_and_clips_where_the_sensor_fills() -> None:
    bench = _bench_module()
    frame = np.full((4, 4, 3), 128, np.uint8)
    assert bench._lit(frame, (1.0, 1.0, 1.0)) is frame
    lit = bench._lit(frame, (2.0, 1.0, 0.5))  # red doubled, green kept, blue halved
    blue, green, red = (int(v) for v in lit[0, 0])
    assert green == 128
    # twice the light is not twice the sRGB code: (2 * (128/255)^2.2)^(1/2.2) of full
    assert red == round(255 * (2 * (128 / 255) ** 2.2) ** (1 / 2.2)) == 175
    assert blue == round(255 * (0.5 * (128 / 255) ** 2.2) ** (1 / 2.2)) == 93
    assert int(bench._lit(frame, (20.0, 20.0, 20.0)).min()) == 255  # the sensor is full


def test_blur_spreads_a_spot_and_keeps_its_light() -> None:
    bench = _bench_module()
    frame = np.zeros((41, 41, 3), np.uint8)
    frame[20, 20] = 255
    assert bench._blurred(frame, 0.0) is frame
    blurred = bench._blurred(frame, 2.0).astype(np.float64)
    assert blurred[20, 20, 0] < 255 / 10 and blurred[20, 23, 0] > 0
    assert abs(blurred[..., 0].sum() - 255) < 25  # rounding to whole levels loses a little


def test_light_and_blur_that_cannot_be_used_are_refused_in_one_line() -> None:
    for option, value, said in (
        ("--light", "1,2", "give one gain (1.4) or three, red,green,blue (1.1,1,0.7)"),
        ("--light", "bright", "the gains must be numbers"),
        ("--light", "0", "give gains of 0.05 to 20"),
        ("--blur", "-1", "blur of -1 pixels: give 0 to 50"),
    ):
        done = _bench(str(ROOT / "tests" / "data" / "photoreal"), option, value, timeout=120)
        assert done.returncode == 2, (option, value)
        assert said in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


def test_overlay_draws_a_streams_graphics_round_the_field_and_never_over_it() -> None:
    bench = _bench_module()
    frames = sorted((ROOT / "tests" / "data" / "photoreal").glob("*.json"))[:8]
    for path in frames:
        labels = json.loads(path.read_text())
        if "field_corners" not in labels:
            continue
        image = load_image(path.with_name(labels["image"]))
        corners = [tuple(c) for c in labels["field_corners"]]
        box = labels["cube"]["box"] if labels.get("cube") else None
        drawn = bench._overlaid(image, corners, box, np.random.default_rng(2))
        again = bench._overlaid(image, corners, box, np.random.default_rng(2))
        assert np.array_equal(drawn, again)  # placed from the seed alone
        changed = (drawn != image).any(axis=2)
        field = np.zeros(changed.shape, np.uint8)
        cv2.fillPoly(field, [np.round(np.array(corners)).astype(np.int32)], 1)
        assert not changed[field > 0].any(), path.name
        if labels.get("cube"):
            x, y, w, h = (round(v) for v in labels["cube"]["box"])
            assert not changed[y : y + h, x : x + w].any(), path.name
        assert changed.mean() > 0.02, path.name  # a banner, a box or two: something is drawn


def test_overlay_is_an_option_of_the_bench() -> None:
    done = _bench("--help", timeout=120)
    assert done.returncode == 0
    assert "--overlay" in done.stdout


def test_crop_cuts_the_frame_to_the_field_and_a_margin_round_it() -> None:
    bench = _bench_module()
    labels = json.loads(FRAME.read_text())
    image = load_image(FRAME.with_name(labels["image"]))
    corners = [tuple(c) for c in labels["field_corners"]]
    low, high = np.min(corners, axis=0), np.max(corners, axis=0)
    for margin in (0.0, 0.05):
        cut, moved, (x0, y0) = bench._cropped(image, corners, margin)
        reach = margin * (high - low)
        assert (x0, y0) == tuple(int(np.floor(v)) for v in low - reach)
        assert cut.shape[1] == min(image.shape[1], int(np.ceil(high[0] + reach[0])) + 1) - x0
        assert cut.shape[0] == min(image.shape[0], int(np.ceil(high[1] + reach[1])) + 1) - y0
        # the same pixels, the corners where the field now lies
        assert np.array_equal(cut, image[y0 : y0 + cut.shape[0], x0 : x0 + cut.shape[1]])
        assert np.allclose(np.array(moved) + np.array([x0, y0]), corners)
    # a margin past the picture's edge keeps the picture: nothing is made up
    cut, _moved, (x0, y0) = bench._cropped(image, corners, 1.0)
    assert (x0, y0) == (0, 0) and cut.shape == image.shape


def test_show_gives_the_labelled_dice_where_they_lie_in_a_cropped_frame(tmp_path: Path) -> None:
    labels = json.loads(FRAME.read_text())
    x0, y0 = (int(np.floor(v)) for v in np.min(labels["field_corners"], axis=0))
    dice = [
        {"pips": 6, "box": [x0 + 100.4, y0 + 200.6, 30, 30], "cocked": False},
        {"pips": 2, "box": [x0 + 50, y0 + 60, 30, 30], "cocked": True},
        {"pips": 4, "box": [x0 + 90, y0 + 10, 30, 30], "cocked": False},
    ]
    _labels, _image_file, line = _dice_line(tmp_path, dice, "--crop", "0")
    there = line.split("; read ")[0]
    assert (
        there == f"{FRAME.name}: dice: there 6 at (100, 201), 2 cocked at (50, 60), 4 at (90, 10)"
    )


def test_a_crop_margin_that_cannot_be_used_is_refused_in_one_line() -> None:
    done = _bench(str(ROOT / "tests" / "data" / "photoreal"), "--crop", "2", timeout=120)
    assert done.returncode == 2
    assert "crop margin 2: give 0 (the field alone) to 1" in done.stderr
    assert "Traceback" not in done.stderr
