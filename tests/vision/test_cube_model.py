"""The learned cube-face reader (vision.cube_model): shipped weights, drawn faces it never saw,
a render's cube, close-ups beyond the image, a file that is no model. No training here but the
slow smoke test of the script."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.scripts import load_script, run_script
from vision.cube_model import (
    CROP,
    CUBE_LABELS,
    NO_NUMBER,
    VALUES,
    classify_cube_crops,
    cube_crop,
    read_cube_faces,
    shipped_cube_model,
)
from vision.dice_model import load_model
from vision.field import locate_field
from vision.images import load_image

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"


def _labelled_cube(stem: Path) -> tuple[np.ndarray, object, tuple[float, float], int]:
    labels = json.loads(stem.with_suffix(".json").read_text())
    image = load_image(stem.with_suffix(".jpg"))
    field = locate_field(image, [tuple(c) for c in labels["field_corners"]])
    x, y, w, h = labels["cube"]["box"]
    middle = cv2.perspectiveTransform(
        np.array([[[x + w / 2, y + h / 2]]], np.float64), field.homography()
    )[0, 0]
    return image, field, (float(middle[0]), float(middle[1])), int(labels["cube"]["value"])


def test_the_model_ships_in_the_package_and_loads_once() -> None:
    model = shipped_cube_model()
    assert model is shipped_cube_model()
    assert model.probabilities(np.zeros((3, CROP, CROP), np.uint8)).shape == (3, CUBE_LABELS)


def test_drawn_faces_it_never_saw_are_read() -> None:
    # the training script's own drawings, from a seed it never trains on: most faces named right,
    # and hardly a bare board, a die or an emblem taken for a number
    script = load_script("scripts/train_cube_model.py")
    crops, labels = script.drawn_examples(987_654, 300)
    guesses = classify_cube_crops(np.stack(crops))
    named = [NO_NUMBER if g.value is None else VALUES.index(g.value) + 1 for g in guesses]
    numbered = [k for k, label in enumerate(labels) if label != NO_NUMBER]
    bare = [k for k, label in enumerate(labels) if label == NO_NUMBER]
    assert sum(named[k] == labels[k] for k in numbered) >= 0.85 * len(numbered)
    assert sum(named[k] != NO_NUMBER for k in bare) <= 0.1 * len(bare)


def test_a_close_up_reads_alike_turned_a_quarter() -> None:
    # each close-up is read in its four quarter turns: a crop and its turns give one answer
    script = load_script("scripts/train_cube_model.py")
    crops, _labels = script.drawn_examples(13, 20)
    stack = np.stack(crops)
    straight = classify_cube_crops(stack)
    turned = classify_cube_crops(np.ascontiguousarray(np.rot90(stack, 1, axes=(1, 2))))
    for one, other in zip(straight, turned, strict=True):
        assert one.value == other.value
        assert one.probability == pytest.approx(other.probability, abs=1e-5)


def test_a_held_out_render_s_cube_is_read_where_it_lies() -> None:
    # renders of the held-out split (never trained on): White's cube, on White's half (the
    # lower), its face read at its box's middle; four radii up the field, no number
    for name, value in (("wooden-folding-007002", 4), ("wooden-folding-007007", 8)):
        image, field, (x, y), labelled = _labelled_cube(DATA / "photoreal-heldout2" / name)
        assert labelled == value and y > field.height / 2
        (guess,) = read_cube_faces(image, field, [(x, y)])
        assert guess.value == value and guess.probability > 0.9, name
        (bare,) = read_cube_faces(image, field, [(x, y - 4 * field.radius)])
        assert bare.value is None, name


def test_a_close_up_beyond_the_picture_is_cut_all_the_same() -> None:
    stem = DATA / "photoreal-heldout2" / "wooden-folding-007002"
    image, field, _middle, _value = _labelled_cube(stem)
    crop = cube_crop(image, field, -50.0 * field.radius, 0.0)
    assert crop.shape == (CROP, CROP) and crop.dtype == np.uint8


def test_a_file_that_is_no_cube_model_is_refused(tmp_path: Path) -> None:
    # the die-face model has eight answers, not seven
    dice = ROOT / "vision" / "models" / "dice_face.onnx"
    with pytest.raises(ValueError, match="not a cube-face model"):
        load_model(str(dice), labels=CUBE_LABELS, what="cube-face")
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not a network")
    with pytest.raises(ValueError, match="not a cube-face model"):
        load_model(str(junk), labels=CUBE_LABELS, what="cube-face")


@pytest.mark.slow
def test_the_training_script_runs_and_writes_a_loadable_model(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="training needs the train extra (PyTorch)")
    out = tmp_path / "cube.onnx"
    done = run_script("scripts/train_cube_model.py", "--quick", "--out", str(out))
    assert done.returncode == 0, done.stderr[-2000:]
    model = load_model(str(out), labels=CUBE_LABELS, what="cube-face")
    assert model.probabilities(np.zeros((2, CROP, CROP), np.uint8)).shape == (2, CUBE_LABELS)


def test_the_board_reader_takes_the_model_s_reading_where_the_shapes_fail(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a dark cube showing 32 on White's side, a glare down its face joined to the 3: the shape
    # matcher cuts out no digit there, the model reads the close-up whole
    import vision.cube as cube_reader
    from vision.field_board import calibrate_field, read_field

    stem = DATA / "photoreal-tune10" / "tournament-leather-034006"
    labels = json.loads(stem.with_suffix(".json").read_text())
    image = load_image(stem.with_suffix(".jpg"))
    calibration = calibrate_field(image, [tuple(c) for c in labels["field_corners"]])
    assert (labels["cube"]["value"], labels["cube"]["place"]) == (32, "white")
    cube = read_field(image, calibration).cube
    assert cube is not None and (cube.value, cube.place) == (32, "white")
    monkeypatch.setattr(cube_reader, "USE_MODEL", False)
    assert read_field(image, calibration).cube is None
