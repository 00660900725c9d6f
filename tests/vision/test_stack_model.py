"""The learned stack counter (vision.stack_model) and how the board reader takes its counts:
shipped weights, a strip's orientation on both halves, a render's tall stacks, the pile it lays,
a file that is no model. No training here but the slow smoke test of the script."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.field_reader as field_reader
from tests.scripts import run_script
from vision.dice_model import load_model
from vision.field import Field
from vision.field_board import calibrate_field, read_field
from vision.field_reader import Checker, _piled, pyramid_slots
from vision.images import load_image
from vision.stack_model import (
    ACROSS,
    ALONG,
    PER_RADIUS,
    SHAPE,
    STACK_LABELS,
    count_points,
    point_strip,
    shipped_stack_model,
)

ROOT = Path(__file__).resolve().parents[2]
#: a tuning render (the model learned from it): White's 12 on p2 and Black's 13 on p22, piled
#: three layers high, read by the rings as 6 and 4
TALL = ROOT / "tests" / "data" / "photoreal" / "tournament-leather-000036"


def _field() -> Field:
    return Field(
        corners=((0, 0), (720, 0), (720, 600), (0, 600)),
        image_size=(720, 600),
        width=720,
        height=600,
        bar=(330.0, 390.0),
        radius=25.0,
    )


def test_the_model_ships_in_the_package_and_loads_once() -> None:
    model = shipped_stack_model()
    assert model is shipped_stack_model()
    assert model.probabilities(np.zeros((3, *SHAPE), np.uint8)).shape == (3, STACK_LABELS)


@pytest.mark.parametrize("location", ["p1", "p7", "p13", "p24"])
def test_a_strip_starts_at_its_point_s_base_on_either_half(location: str) -> None:
    # a bright disc at the base of one point: the strip's first rows show it, its last rows the
    # bare board, whichever half the point lies on
    field = _field()
    top = np.full((field.height, field.width, 3), 60, np.uint8)
    left, right, base, direction = field.column(location)
    middle = (round((left + right) / 2), round(base + direction * field.radius))
    cv2.circle(top, middle, round(field.radius), (230, 230, 230), -1)
    strip = point_strip(top, field, location)
    assert strip.shape == (ALONG, ACROSS)
    rows = round(2 * PER_RADIUS)
    assert strip[2 : rows - 4, ACROSS // 2].min() > 200
    assert strip[rows + 4 :, ACROSS // 2].max() < 80


def test_a_render_s_tall_stacks_are_counted() -> None:
    labels = json.loads(TALL.with_suffix(".json").read_text())
    image = load_image(TALL.with_suffix(".jpg"))
    field = calibrate_field(image, [tuple(c) for c in labels["field_corners"]]).field
    guesses = count_points(field.rectify(image), field, ["p2", "p22", "p3"])
    truth = [sum(labels["locations"][p].values()) for p in ("p2", "p22", "p3")]
    assert truth == [12, 13, 3]
    assert [g.count for g in guesses] == truth
    assert all(0.0 < g.probability <= 1.0 for g in guesses)


def test_the_board_reader_takes_the_counter_s_sure_count(monkeypatch: pytest.MonkeyPatch) -> None:
    labels = json.loads(TALL.with_suffix(".json").read_text())
    image = load_image(TALL.with_suffix(".jpg"))
    calibration = calibrate_field(image, [tuple(c) for c in labels["field_corners"]])
    counted = read_field(image, calibration).locations
    assert (counted["p2"].white, counted["p2"].black) == (12, 0)
    assert counted["p2"].white_confidence >= field_reader.STACK_SURE
    assert (counted["p22"].white, counted["p22"].black) == (0, 13)
    monkeypatch.setattr(field_reader, "USE_STACK_MODEL", False)
    rims = read_field(image, calibration).locations
    # the rims alone see the rows and little of the layers over them
    assert rims["p2"].white < 12 and rims["p22"].black < 13


def test_a_pile_keeps_the_row_s_checkers_and_lays_the_rest_over_its_gaps() -> None:
    row = [
        Checker(100.0, 580.0 - 50.0 * k, 25.0, 0.9 - 0.1 * k, (200.0, 128.0, 128.0))
        for k in range(4)
    ]
    piled = _piled(row, 9, pitch=50.0, direction=-1, full_row=5)
    assert len(piled) == 9
    assert [(c.x, c.y, c.score) for c in piled[:4]] == [(c.x, c.y, c.score) for c in row]
    slots = pyramid_slots(5, 9)
    for checker, (layer, along) in zip(piled, slots, strict=True):
        assert checker.layer == layer + 1
        assert checker.y == pytest.approx(580.0 - 25.0 * along)
    # the fifth of the row and the four over its gaps take the row's colour and faintest score
    assert all(c.lab == (200.0, 128.0, 128.0) and c.score == pytest.approx(0.6) for c in piled[4:])


def test_a_file_that_is_no_stack_model_is_refused(tmp_path: Path) -> None:
    dice = ROOT / "vision" / "models" / "dice_face.onnx"  # takes 32x32 crops, not strips
    with pytest.raises(ValueError, match="not a stack-count model"):
        load_model(str(dice), labels=STACK_LABELS, what="stack-count", shape=SHAPE)
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"twelve on the two point")
    with pytest.raises(ValueError, match="not a stack-count model"):
        load_model(str(junk), labels=STACK_LABELS, what="stack-count", shape=SHAPE)


@pytest.mark.slow
def test_the_training_script_runs_and_writes_a_loadable_model(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="training needs the train extra (PyTorch)")
    out = tmp_path / "stack.onnx"
    done = run_script("scripts/train_stack_model.py", "--quick", "--out", str(out))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "kept apart" in done.stdout
    model = load_model(str(out), labels=STACK_LABELS, what="stack-count", shape=SHAPE)
    assert model.probabilities(np.zeros((2, *SHAPE), np.uint8)).shape == (2, STACK_LABELS)
