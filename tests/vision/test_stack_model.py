"""The learned stack counter (vision.stack_model) and how the board reader takes its counts:
shipped weights, a strip's orientation on both halves, a render's tall stacks, the pile it lays,
a file that is no model. No training here but the slow smoke test of the script."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

import vision.field_board as field_board
import vision.field_reader as field_reader
from sheshbesh.locations import POINT_LOCATIONS
from tests.scripts import run_script
from vision.dice_model import load_model
from vision.field import Field
from vision.field_board import FieldCalibration, calibrate_field, read_field
from vision.field_reader import Checker, FieldEvidence, RingSettings, _piled, pyramid_slots
from vision.images import Image, load_image
from vision.stack_model import (
    ACROSS,
    ALONG,
    PER_RADIUS,
    SHAPE,
    STACK_LABELS,
    StackGuess,
    count_points,
    point_strip,
    shipped_stack_model,
)

ROOT = Path(__file__).resolve().parents[2]
#: a tuning render (the model learned from it): White's 12 on p2 and Black's 13 on p22, piled
#: three layers high, read by the rings as 6 and 4
TALL = ROOT / "tests" / "data" / "photoreal" / "tournament-leather-000036"


def _calibrated(stem: Path) -> tuple[dict[str, Any], Image, FieldCalibration]:
    """A labelled render's labels, its image, and its calibration on itself from its corners."""
    labels = json.loads(stem.with_suffix(".json").read_text())
    image = load_image(stem.with_suffix(".jpg"))
    return labels, image, calibrate_field(image, [tuple(c) for c in labels["field_corners"]])


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
    labels, image, calibration = _calibrated(TALL)
    field = calibration.field
    guesses = count_points(field.rectify(image), field, ["p2", "p22", "p3"])
    truth = [sum(labels["locations"][p].values()) for p in ("p2", "p22", "p3")]
    assert truth == [12, 13, 3]
    assert [g.count for g in guesses] == truth
    assert all(0.0 < g.probability <= 1.0 for g in guesses)


def test_the_board_reader_takes_the_counter_s_sure_count(monkeypatch: pytest.MonkeyPatch) -> None:
    _labels, image, calibration = _calibrated(TALL)
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


def _bare_field_with_a_light_point(location: str) -> tuple[Field, np.ndarray]:
    """A drawn field, dark all over but for the column of ``location``, painted light."""
    field = _field()
    top = np.full((field.height, field.width, 3), 60, np.uint8)
    left, right, _base, _direction = field.column(location)
    top[:, round(left) : round(right)] = 200
    return field, top


@pytest.mark.parametrize(
    ("guess", "laid"),
    [
        (StackGuess(3, 0.99), 3),  # sure of a row of three: laid
        (StackGuess(8, 0.99), 8),  # sure of eight: a pyramid on a row of five
        (StackGuess(1, 1.0), 0),  # one checker: a bare point's base passes for one
        (StackGuess(3, 0.9), 0),  # not sure enough
    ],
)
def test_a_sure_count_on_a_point_the_rings_left_bare_is_laid_there(
    monkeypatch: pytest.MonkeyPatch, guess: StackGuess, laid: int
) -> None:
    field, top = _bare_field_with_a_light_point("p5")
    asked: list[list[str]] = []

    def counter(_top: object, _field: Field, locations: list[str]) -> list[StackGuess]:
        asked.append(list(locations))
        return [guess if location == "p5" else StackGuess(0, 1.0) for location in locations]

    monkeypatch.setattr(field_reader, "count_points", counter)
    evidence = FieldEvidence(pitch=50.0)
    field_reader.recount_stacks(top, field, evidence, RingSettings())
    assert asked == [list(POINT_LOCATIONS)]  # every point is asked, bare or not
    row = evidence.checkers.get("p5", [])
    assert len(row) == laid
    assert all(location == "p5" or not evidence.checkers.get(location) for location in asked[0])
    if laid:
        left, right, base, direction = field.column("p5")
        first = row[0]
        assert first.x == pytest.approx((left + right) / 2)
        assert first.y == pytest.approx(base + direction * field.radius)
        assert [c.layer for c in row] == [layer + 1 for layer, _along in pyramid_slots(5, laid)]
        # each checker takes the colour of its own place (the light column), and no ring found it
        assert all(c.lab[0] > 190 and c.score == 0.0 for c in row)
        assert evidence.counted["p5"] == guess.probability


def test_a_count_on_a_point_colour_says_is_bare_is_not_laid(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    field, top = _bare_field_with_a_light_point("p5")
    monkeypatch.setattr(
        field_reader,
        "count_points",
        lambda _t, _f, locations: [StackGuess(4, 0.99)] * len(locations),
    )
    _left, _right, base, direction = field.column("p5")
    first, second = (round(base + direction * (field.radius + k * 50.0)) for k in (0, 1))

    def bare_at(*places: int) -> Callable[[float, float, float], bool | None]:
        return lambda _x, y, _radius: False if round(y) in places else None

    # plainly bare at the point's base and the place after it: not laid
    evidence = FieldEvidence(pitch=50.0)
    field_reader.recount_stacks(top, field, evidence, RingSettings(), bare_at(first, second))
    assert not evidence.checkers.get("p5")
    # at one place only (a stack's place lit or piled so its colour passes for the board's),
    # or at none: laid
    for vouch in (bare_at(first), bare_at()):
        laid = FieldEvidence(pitch=50.0)
        field_reader.recount_stacks(top, field, laid, RingSettings(), vouch)
        assert len(laid.checkers["p5"]) == 4


def _laid_on_p5(
    monkeypatch: pytest.MonkeyPatch, guess: StackGuess, said: bool | None
) -> tuple[int, int]:
    """The checkers laid on a bare p5 that the counter answers ``guess`` for and whose every
    place colour answers ``said`` for: by the reader (:func:`field_reader.recount_stacks`) and
    by calibration's call (:func:`field_reader.lay_bare_stacks` on its own)."""
    field, top = _bare_field_with_a_light_point("p5")
    monkeypatch.setattr(
        field_reader,
        "count_points",
        lambda _t, _f, locations: [
            guess if location == "p5" else StackGuess(0, 1.0) for location in locations
        ],
    )
    read, learning = FieldEvidence(pitch=50.0), FieldEvidence(pitch=50.0)
    field_reader.recount_stacks(top, field, read, RingSettings(), lambda _x, _y, _r: said)
    field_reader.lay_bare_stacks(top, field, learning, RingSettings(), lambda _x, _y, _r: said)
    return len(read.checkers.get("p5", [])), len(learning.checkers.get("p5", []))


@pytest.mark.parametrize(
    ("guess", "laid"),
    [(StackGuess(6, 0.9999), 6), (StackGuess(6, 0.99), 0), (StackGuess(4, 1.0), 0)],
)
def test_a_full_row_the_counter_is_certain_of_is_read_though_colour_calls_it_bare(
    monkeypatch: pytest.MonkeyPatch, guess: StackGuess, laid: int
) -> None:
    # a stack of its point's own colour, its set's colour learned in other light: colour calls
    # every place of it bare; a full row or more the counter is certain of (CERTAIN_STACK) is
    # laid anyway by the reader; calibration, learning the sets and the bare board, lays only
    # rows colour does not deny
    assert _laid_on_p5(monkeypatch, guess, False) == (laid, 0)


def test_a_stack_the_rings_miss_is_laid_by_the_counter(monkeypatch: pytest.MonkeyPatch) -> None:
    # a tuning render (the counter learned from it): White's 13 piled on p3, a cream point, in
    # light from one side; no rim there rings true enough for the rings to start a row
    stem = ROOT / "tests" / "data" / "photoreal-tune13" / "tournament-felt-050157"
    labels, image, calibration = _calibrated(stem)
    assert labels["locations"]["p3"] == {"white": 13, "black": 0}
    counted = read_field(image, calibration).locations["p3"]
    assert (counted.white, counted.black) == (13, 0)
    monkeypatch.setattr(field_reader, "BARE_SURE", 2.0)  # the counter not asked of bare points
    rims = read_field(image, calibration).locations["p3"]
    assert (rims.white, rims.black) == (0, 0)


def test_a_hand_the_counter_takes_for_stacks_is_still_a_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a tuning render with a hand over the field; were the counter to take every point the
    # rings left bare for a sure stack of six, the points under the hand would be laid too
    # (colour does not call a hand the bare board), and the stacks laid there would hide it from
    # the hand test: a laid stack hides only the cells of a checker's colour, and the hand's are
    # not (without that, this frame reads as settled)
    stem = ROOT / "tests" / "data" / "photoreal-tune10" / "wooden-folding-034023"
    labels, image, calibration = _calibrated(stem)
    assert labels["occluded"] is True
    monkeypatch.setattr(
        field_reader,
        "count_points",
        lambda _top, _field, locations: [StackGuess(6, 1.0)] * len(locations),
    )
    observation = read_field(image, calibration)
    bare = [p for p in POINT_LOCATIONS if not any(labels["locations"][p].values())]
    laid = [p for p in bare if observation.count(p, "white") + observation.count(p, "black") == 6]
    assert len(laid) >= 4
    assert observation.state == "occluded"


def test_a_set_piled_where_no_rim_rings_is_learned_from_the_counter_s_row(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a tuning render of a bear-off: all of Black's checkers left are six navy ones piled on
    # p24, far from the tilted camera, and no rim of them rings; the rings find White's and a
    # die's and a point's, and the two sets learned from those alone are wrong (the darker one
    # a point's colour)
    stem = ROOT / "tests" / "data" / "photoreal-tune13" / "tournament-leather-050031"
    labels, image, calibration = _calibrated(stem)
    assert labels["locations"]["p24"] == {"white": 0, "black": 6}
    navy = np.array(calibration.colours.black)
    assert navy[0] < 100 and navy[2] < 128  # dark and blue (Lab): the navy set
    stack = read_field(image, calibration).locations["p24"]
    assert (stack.white, stack.black) == (0, 6)
    monkeypatch.setattr(field_board, "_counted_stacks", lambda *_args: [])
    rings_only = calibrate_field(image, [tuple(c) for c in labels["field_corners"]])
    assert np.array(rings_only.colours.black)[0] > 100  # learned from the rings alone: no navy


def test_a_stack_is_laid_where_colour_calls_one_place_of_its_row_bare() -> None:
    # a tuning render of a bear-off: Black's fifteen green checkers piled on p23 of a green
    # field, none ringing; calibration's colour calls the fifth place of the counter's row there
    # the bare field and the other four not, and learns the green set from that row
    stem = ROOT / "tests" / "data" / "photoreal-tune13" / "tournament-leather-050204"
    labels, image, calibration = _calibrated(stem)
    assert labels["locations"]["p23"] == {"white": 0, "black": 15}
    green = np.array(calibration.colours.black)
    assert green[1] < 115  # Lab a well under 128: the green set, not a grey or a point's colour
    stack = read_field(image, calibration).locations["p23"]
    assert (stack.white, stack.black) == (0, 15)


def test_a_lone_checker_the_rings_miss_is_laid_where_its_colour_vouches() -> None:
    # a tuning render: White's one beige checker on p5 rings under the reader's threshold; the
    # counter names one, and colour says the place holds a checker's colour, not the point's
    stem = ROOT / "tests" / "data" / "photoreal-tune12" / "wooden-folding-049004"
    labels, image, calibration = _calibrated(stem)
    assert labels["locations"]["p5"] == {"white": 1, "black": 0}
    lone = read_field(image, calibration).locations["p5"]
    assert (lone.white, lone.black) == (1, 0)


@pytest.mark.parametrize(
    ("said", "sure", "laid"),
    [(True, 0.96, 1), (None, 0.995, 1), (None, 0.98, 0), (False, 1.0, 0)],
)
def test_a_lone_checker_is_laid_only_where_colour_vouches_for_it_or_cannot_tell(
    monkeypatch: pytest.MonkeyPatch, said: bool | None, sure: float, laid: int
) -> None:
    # the counter sure of one checker on a bare point: a bare point's base passes for one to
    # it now and then, so colour must say a checker's colour lies there; where colour cannot
    # tell (None: the board has a checker set's own colour there) the counter must be all but
    # sure (LONE_SURE); calibration, learning the sets, lays no lone checker colour cannot tell
    assert _laid_on_p5(monkeypatch, StackGuess(1, sure), said) == (laid, laid if said else 0)
