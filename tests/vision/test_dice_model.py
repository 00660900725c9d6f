"""The learned die-face classifier (vision.dice_model): shipped weights, faces of both polarities,
things that are not dice, bad input. No training here but the slow smoke test of the script."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.scripts import load_script, run_script
from vision.dice_model import (
    BATCH,
    COCKED,
    CROP,
    LABELS,
    NOT_A_DIE,
    classify_crops,
    classify_face,
    crop_die,
    load_model,
    shipped_model,
    standardised,
)
from vision.errors import ImageError
from vision.field_board import calibrate_field
from vision.images import load_image
from vision.synth.dice_devset import plain_scene
from vision.synth.photoreal import camera_faults, labelled_field

ROOT = Path(__file__).resolve().parents[2]
#: a die's side on a board camera's rectified field (a little under half a checker's width)
SIDE = 24.0
LIGHT = ((235.0, 238.0, 240.0), (25.0, 25.0, 25.0))  # body, pips
DARK = ((40.0, 35.0, 30.0), (240.0, 240.0, 240.0))
RED = ((40.0, 40.0, 190.0), (235.0, 235.0, 235.0))


def _die(
    pips: int, colours: tuple[tuple[float, ...], tuple[float, ...]], angle: float
) -> np.ndarray:
    body, pip = colours
    return plain_scene(
        [(pips, (60.0, 60.0))],
        body=body,  # type: ignore[arg-type]
        pip=pip,  # type: ignore[arg-type]
        side=SIDE,
        size=(120, 120),
        table=(60.0, 110.0, 150.0),
        angle=angle,
        seed=pips,
    )


def test_the_model_ships_in_the_package_and_loads_once() -> None:
    model = shipped_model()
    assert model is shipped_model()  # loaded once, lazily
    odds = model.probabilities(np.zeros((3, CROP, CROP), np.uint8))
    assert odds.shape == (3, LABELS)
    assert np.allclose(odds.sum(axis=1), 1.0, atol=1e-5)
    size = (ROOT / "vision" / "models" / "dice_face.onnx").stat().st_size
    assert size < 4_000_000  # a few MB at most


@pytest.mark.parametrize("colours", [LIGHT, DARK, RED], ids=["light", "dark", "red"])
@pytest.mark.parametrize("pips", [1, 2, 3, 4, 5, 6])
def test_drawn_faces_of_every_value_are_read(
    pips: int, colours: tuple[tuple[float, ...], tuple[float, ...]]
) -> None:
    guess = classify_face(_die(pips, colours, angle=0.35), (60.0, 60.0), SIDE)
    assert guess.label == pips, guess


def test_scores_do_not_depend_on_polarity() -> None:
    crops = np.stack(
        [
            crop_die(_die(pips, colours, 0.2), (60.0, 60.0), SIDE)
            for pips, colours in ((5, LIGHT), (2, RED))
        ]
    )
    model = shipped_model()
    assert np.allclose(model.scores(crops), model.scores(255 - crops), atol=1e-3)


def test_many_crops_are_scored_in_batches_each_as_it_is_alone() -> None:
    # more crops than one forward pass takes: each keeps its own scores, in order, the last
    # short batch too
    rng = np.random.default_rng(8)
    crops = rng.integers(0, 256, (2 * BATCH + 5, CROP, CROP), dtype=np.uint8)
    crops[7] = crop_die(_die(6, LIGHT, 0.1), (60.0, 60.0), SIDE)
    crops[-1] = crop_die(_die(2, DARK, 0.4), (60.0, 60.0), SIDE)
    model = shipped_model()
    together = model.scores(crops)
    assert together.shape == (len(crops), LABELS)
    for index in (0, 7, BATCH - 1, BATCH, 2 * BATCH, len(crops) - 1):
        assert np.allclose(together[index], model.scores(crops[index : index + 1])[0], atol=1e-4)
    assert int(np.argmax(together[7])) == 6 and int(np.argmax(together[-1])) == 2


def test_read_every_way_a_crop_and_its_turns_and_mirror_read_alike() -> None:
    crop = crop_die(_die(3, RED, 0.3), (60.0, 60.0), SIDE)
    views = np.stack([crop, np.rot90(crop), crop[:, ::-1], np.rot90(crop, 3)[::-1]])
    guesses = classify_crops(views, every_way=True)
    first = np.array(guesses[0].probabilities)
    for guess in guesses[1:]:
        assert np.allclose(guess.probabilities, first, atol=1e-5)
    # the mean of the eight single readings of the crop's views
    turns = [np.rot90(crop, k) for k in range(4)]
    singles = classify_crops(np.stack(turns + [t[:, ::-1] for t in turns]))
    assert np.allclose(np.mean([g.probabilities for g in singles], axis=0), first, atol=1e-5)
    assert guesses[0].label == 3


def test_the_input_is_each_crop_less_its_mean_over_its_spread() -> None:
    rng = np.random.default_rng(5)
    crops = np.stack(
        [
            crop_die(_die(4, DARK, 0.5), (60.0, 60.0), SIDE),
            rng.integers(0, 256, (CROP, CROP), dtype=np.uint8),
            np.full((CROP, CROP), 90, np.uint8),
        ]
    )
    made = standardised(crops)
    assert made.shape == (3, 1, CROP, CROP) and made.dtype == np.float32
    for crop, plane in zip(crops, made[:, 0], strict=True):
        values = crop.astype(np.float64)
        expected = (values - values.mean()) / (values.std() + 8.0)
        assert np.allclose(plane, expected, atol=1e-4)
    assert np.allclose(made[2], 0.0)  # an even patch stays even, not blown up


def test_things_that_are_not_dice_are_refused() -> None:
    rng = np.random.default_rng(3)
    table = np.empty((120, 120, 3), np.uint8)
    table[:] = (60, 110, 150)
    noisy = np.clip(table + rng.normal(0, 6, table.shape), 0, 255).astype(np.uint8)
    rim = noisy.copy()
    import cv2

    cv2.circle(rim, (60 + 22, 60), 24, (230, 230, 225), -1, cv2.LINE_AA)  # a checker's edge
    empty_die = _die(1, LIGHT, 0.0)
    crops = np.stack(
        [
            crop_die(noisy, (60.0, 60.0), SIDE),
            crop_die(rim, (60.0, 60.0), SIDE),
            crop_die(empty_die, (60.0 - 1.1 * SIDE, 60.0 - 1.1 * SIDE), SIDE),  # beside a die
        ]
    )
    assert [g.label for g in classify_crops(crops)] == [NOT_A_DIE] * 3


def test_a_bad_crop_is_a_clear_error() -> None:
    image = _die(3, LIGHT, 0.0)
    with pytest.raises(ImageError, match="outside"):
        classify_face(image, (500.0, 10.0), SIDE)
    with pytest.raises(ImageError, match="side"):
        classify_face(image, (60.0, 60.0), 2.0)
    with pytest.raises(ImageError, match="numpy array"):
        classify_face("a die", (60.0, 60.0), SIDE)  # type: ignore[arg-type]
    with pytest.raises(ImageError, match="crops must be N x 32 x 32"):
        standardised(np.zeros((2, 16, 16), np.uint8))


def test_a_file_that_is_no_model_is_refused(tmp_path: Path) -> None:
    weights = tmp_path / "other.npz"
    np.savez(weights, weights=np.zeros(3))
    text = tmp_path / "notes.onnx"
    text.write_text("a die has six faces")
    for path in (weights, text, tmp_path / "missing.onnx"):
        with pytest.raises(ValueError, match="not a die-face model"):
            load_model(str(path))


@pytest.mark.slow
def test_the_training_script_runs_and_writes_a_loadable_model(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="training needs the train extra (PyTorch)")
    out = tmp_path / "model.onnx"
    done = run_script("scripts/train_dice_model.py", "--quick", "--out", str(out))
    assert done.returncode == 0, done.stderr[-2000:]
    model = load_model(str(out))
    assert model.probabilities(np.zeros((2, CROP, CROP), np.uint8)).shape == (2, LABELS)


def test_the_training_script_prints_a_board_word_through_the_crops_middle() -> None:
    # "no die" examples include a board's printed name: a word running through the middle, its
    # capitals no taller than a die (no PyTorch needed to draw it)
    script = load_script("scripts/train_dice_model.py")
    side = script.DRAWN_SIDE
    for seed in range(20):
        canvas = np.full((128, 128, 3), 200.0, np.float32)
        script._lettering(canvas, np.random.default_rng(seed), (64.0, 64.0))
        inked = np.abs(canvas - 200.0).max(axis=2) > 40
        rows, columns = np.flatnonzero(inked.any(axis=1)), np.flatnonzero(inked.any(axis=0))
        assert len(rows), seed
        assert rows.max() - rows.min() <= 1.2 * side, seed
        assert rows.min() <= 64 + side / 2 and rows.max() >= 64 - side / 2, seed
        assert columns.min() < 64 < columns.max(), seed


def test_a_renders_labelled_dice_land_on_its_rectified_field_as_the_reader_crops_them() -> None:
    label_file = ROOT / "tests" / "data" / "photoreal" / "tournament-felt-000034.json"
    label = json.loads(label_file.read_text())
    labelled = labelled_field(label_file, label)
    field = calibrate_field(
        load_image(label_file.with_name(label["image"])),
        [tuple(c) for c in label["field_corners"]],
    ).field
    assert labelled.side == pytest.approx(0.9 * field.radius)
    assert [value for _m, value in labelled.dice] == [COCKED, 2]  # the 5 leans on something
    height, width = labelled.top.shape[:2]
    for (middle, _value), die in zip(labelled.dice, label["dice"], strict=True):
        assert 0 <= middle[0] < width and 0 <= middle[1] < height
        # back on the camera's picture, each middle is its box's middle
        x, y, w, h = die["box"]
        seen = field.to_camera(np.array([middle], np.float64))[0]
        assert seen == pytest.approx((x + w / 2, y + h / 2), abs=0.5)


def test_camera_faults_add_the_noise_asked_and_leave_a_frame_alone_when_none_is() -> None:
    frame = np.full((60, 80, 3), 128, np.uint8)
    frame[20:40, 30:50] = 30  # a dark die-sized square
    rng = np.random.default_rng(0)
    assert np.array_equal(camera_faults(frame, 0, 0.0, rng), frame)
    noisy = camera_faults(frame, 0, 4.0, rng).astype(np.float64)
    assert np.std(noisy - frame) == pytest.approx(4.0, rel=0.1)
    stored = camera_faults(frame, 30, 0.0, rng)
    assert stored.shape == frame.shape and stored.dtype == np.uint8
    assert not np.array_equal(stored, frame)  # a JPEG of low quality rings at the square's edges
    assert np.abs(stored.astype(int) - frame).mean() < 10


def test_a_faulted_render_keeps_its_dice_where_they_were_and_only_its_picture_changes() -> None:
    label_file = ROOT / "tests" / "data" / "photoreal" / "tournament-felt-000034.json"
    label = json.loads(label_file.read_text())
    clean = labelled_field(label_file, label)
    streamed = labelled_field(
        label_file, label, lambda image: camera_faults(image, 40, 3.0, np.random.default_rng(1))
    )
    assert streamed.side == clean.side and streamed.dice == clean.dice
    assert streamed.top.shape == clean.top.shape
    difference = np.abs(streamed.top.astype(int) - clean.top)
    assert 0.5 < difference.mean() < 10
