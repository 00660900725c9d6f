"""Dice on the field path (``vision.field_board.field_dice``): what is and is not a die on a board.

A committed photoreal render (its dice labelled) is calibrated on itself and read; copies of one of
its dice are then pasted elsewhere on the rectified field to check the rules the reader follows (a
die on the bar is no roll; a roll is two dice). The slow test holds the reader to floors on the whole
photoreal set, its tuning styles and its held-out styles apart.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest

from sheshbesh.observation import DieReading
from vision.dice import read_dice
from vision.errors import VisionError
from vision.field import Field
from vision.field_board import (
    FieldCalibration,
    _all_checkers,
    _voucher,
    calibrate_field,
    field_dice,
    field_lab,
    read_field,
)
from vision.field_reader import FieldEvidence, RingSettings, find_checkers
from vision.images import Image, load_image

PHOTOREAL = Path(__file__).resolve().parents[1] / "data" / "photoreal"
#: a tuning set of the photoreal renderer's third generation (dice leaning on walls as well)
TUNE15 = PHOTOREAL.parent / "photoreal-tune15"
#: a set of the second generation, its frames of the tuning styles tuned on
HELDOUT6 = PHOTOREAL.parent / "photoreal-heldout6"
#: a tuning-style render whose two dice (a 1 and a 4) the reader reads
SAMPLE = "tournament-felt-000013"


@dataclass
class Board:
    calibration: FieldCalibration
    top: Image
    evidence: FieldEvidence
    labels: dict[str, object]

    @property
    def field(self) -> Field:
        return self.calibration.field

    def dice(self, top: Image | None = None, *, empty: bool = True) -> tuple[DieReading, ...]:
        return field_dice(
            self.top if top is None else top,
            self.field,
            self.evidence,
            self.calibration.empty if empty else None,
        ).roll

    def centre(self, die: DieReading) -> tuple[float, float]:
        """A die's middle in field pixels (its box is in camera pixels)."""
        x, y, w, h = die.box
        point = np.array([[[x + w / 2, y + h / 2]]], np.float32)
        fx, fy = cv2.perspectiveTransform(point, self.field.homography())[0, 0]
        return float(fx), float(fy)


def _read_board(name: str, folder: Path = PHOTOREAL) -> tuple[Image, Board]:
    """A photoreal render calibrated on itself, its field rectified and its checkers found."""
    labels = json.loads((folder / f"{name}.json").read_text())
    image = load_image(folder / labels["image"])
    calibration = calibrate_field(image, [tuple(c) for c in labels["field_corners"]])
    top = calibration.field.rectify(image)
    evidence = find_checkers(
        top, calibration.field, RingSettings(), _voucher(field_lab(top), calibration)
    )
    return image, Board(calibration, top, evidence, labels)


@pytest.fixture(scope="module")
def board() -> Board:
    return _read_board(SAMPLE)[1]


def _paste(top: Image, patch: Image, x: float, y: float) -> Image:
    out = top.copy()
    half = patch.shape[0] // 2
    out[round(y) - half : round(y) + half, round(x) - half : round(x) + half] = patch
    return out


def _die_patch(board: Board, pips: int) -> Image:
    """The square of the field around the read die with ``pips``, the die and a rim of board."""
    (die,) = [d for d in board.dice() if d.pips == pips]
    x, y = board.centre(die)
    half = round(0.9 * board.field.radius)
    return board.top[round(y) - half : round(y) + half, round(x) - half : round(x) + half].copy()


def _free_places(board: Board, count: int) -> list[tuple[float, float]]:
    """Places on the bare board, off the bar, away from every checker and die."""
    field, r = board.field, board.field.radius
    checkers = _all_checkers(board.evidence)
    dice = [board.centre(d) for d in board.dice()]
    places: list[tuple[float, float]] = []
    for y in np.arange(2 * r, field.height - 2 * r, r):
        for x in np.arange(2 * r, field.width - 2 * r, r):
            if field.bar[0] - 2 * r < x < field.bar[1] + 2 * r:
                continue
            taken = [*((c.x, c.y, c.radius + 2 * r) for c in checkers)]
            taken += [(px, py, 3 * r) for px, py in [*dice, *places]]
            if all(np.hypot(x - px, y - py) >= reach for px, py, reach in taken):
                places.append((float(x), float(y)))
            if len(places) == count:
                return places
    raise AssertionError("the sample has too little bare board")


def test_the_sample_dice_are_read_in_their_places(board: Board) -> None:
    dice = board.dice()
    assert sorted(d.pips for d in dice) == [1, 4]
    bar_middle = sum(board.field.bar) / 2
    for die in dice:
        # the labelled box (camera pixels) of the same die holds the reading's middle
        x, y, w, h = die.box
        assert any(
            bx <= x + w / 2 <= bx + bw and by <= y + h / 2 <= by + bh and d["pips"] == die.pips
            for d in board.labels["dice"]  # type: ignore[attr-defined]
            for bx, by, bw, bh in [d["box"]]
        )
        assert die.half == ("left" if board.centre(die)[0] < bar_middle else "right")
        assert not die.cocked


def test_without_an_empty_board_the_dice_are_still_read(board: Board) -> None:
    assert sorted(d.pips for d in board.dice(empty=False)) == [1, 4]


def test_a_die_on_the_bar_is_no_roll(board: Board) -> None:
    field = board.field
    patch = _die_patch(board, 4)
    # the 4 moved from its place (bare board pasted over it) onto the bar
    (four,) = [d for d in board.dice() if d.pips == 4]
    ((bare_x, bare_y),) = _free_places(board, 1)
    half = patch.shape[0] // 2
    bare = board.top[
        round(bare_y) - half : round(bare_y) + half, round(bare_x) - half : round(bare_x) + half
    ]
    top = _paste(board.top, bare, *board.centre(four))
    x, y = sum(field.bar) / 2, field.height / 2
    top = _paste(top, patch, x, y)
    r = round(field.radius)
    region = (round(x) - 2 * r, round(y) - 2 * r, 4 * r, 4 * r)
    # the die is plain to read there ...
    assert [d.pips for d in read_dice(top, region=region, die_side=0.9 * field.radius)] == [4]
    # ... and not a die of the roll
    assert [d.pips for d in board.dice(top)] == [1]


def test_a_roll_is_two_dice(board: Board) -> None:
    patch = _die_patch(board, 4)
    top = board.top
    r = round(board.field.radius)
    for x, y in _free_places(board, 2):
        top = _paste(top, patch, x, y)
        region = (round(x) - 2 * r, round(y) - 2 * r, 4 * r, 4 * r)
        assert [d.pips for d in read_dice(top, region=region, die_side=0.9 * r)] == [4]
    assert len(board.dice(top)) == 2


@pytest.mark.parametrize(
    ("folder", "name"),
    [
        ("photoreal", "travel-000044"),  # no dice: two marks of the board read as twos
        ("photoreal-heldout6", "tournament-felt-030010"),  # two leaning dice, one read as a 3
        ("photoreal-heldout4", "wooden-folding-014033"),  # two leaning dice read as ones
    ],
)
def test_faces_read_from_pips_that_the_model_takes_for_no_flat_die_are_dropped(
    folder: str, name: str
) -> None:
    data = PHOTOREAL.parent / folder
    labels = json.loads((data / f"{name}.json").read_text())
    assert not [d for d in labels["dice"] if not d["cocked"]], "the render has no flat die"
    image = load_image(data / labels["image"])
    calibration = calibrate_field(image, [tuple(c) for c in labels["field_corners"]])
    assert [d.pips for d in read_field(image, calibration).dice if not d.cocked] == []


def test_a_face_set_aside_by_the_model_still_hides_the_board_from_the_hand_test() -> None:
    # a 1 the model does not take for a flat die's face: dropped from the roll, it is still a die
    # lying on the board, not something foreign there
    image, board = _read_board("tournament-leather-000011")
    assert not board.labels["occluded"], "the render has no hand over the field"
    found = field_dice(board.top, board.field, board.evidence, board.calibration.empty)
    assert found.aside, "no face was set aside"
    assert read_field(image, board.calibration).state != "occluded"


# --- the photoreal set ----------------------------------------------------------------------


def _score(split: str) -> tuple[int, int, int, int, int]:
    """(frames, frames read exactly, flat dice, flat dice read, extra flat dice) of a split."""
    frames = exact = wanted_total = right = extra = 0
    for path in sorted(PHOTOREAL.glob("*.json")):
        labels = json.loads(path.read_text())
        if (
            "field_corners" not in labels
            or labels.get("split") != split
            or labels.get("occluded")
            or "dice" not in labels
        ):
            continue
        image = load_image(PHOTOREAL / labels["image"])
        try:
            calibration = calibrate_field(image, [tuple(c) for c in labels["field_corners"]])
        except VisionError:
            continue  # calibration's own figure, not the dice reader's
        observation = read_field(image, calibration)
        wanted = Counter(d["pips"] for d in labels["dice"] if not d["cocked"])
        read = Counter(d.pips for d in observation.dice if not d.cocked)
        frames += 1
        exact += read == wanted
        wanted_total += sum(wanted.values())
        right += sum((read & wanted).values())
        extra += sum((read - wanted).values())
    return frames, exact, wanted_total, right, extra


@pytest.mark.slow
@pytest.mark.parametrize(
    ("split", "frames_floor", "dice_floor", "most_extra"),
    [
        # measured with the convolutional face model keeping only faces it takes for a flat
        # die's: 16/21 frames exact, 33/37 flat dice, 3 extra (6 before)
        ("tune", 0.6, 0.8, 6),
        # styles never tuned on; measured: 19/25 frames exact, 30/35 flat dice, 3 extra (16/25,
        # 29/35 and 10 before)
        ("heldout", 0.6, 0.75, 6),
    ],
)
def test_photoreal_dice_floors(
    split: str, frames_floor: float, dice_floor: float, most_extra: int
) -> None:
    frames, exact, wanted, right, extra = _score(split)
    assert frames >= 15 and wanted >= 25, "the photoreal set lost its labelled dice frames"
    assert exact / frames >= frames_floor, f"{exact}/{frames} frames' dice read exactly"
    assert right / wanted >= dice_floor, f"{right}/{wanted} flat dice read"
    assert extra <= most_extra, f"{extra} dice read that are not there"


def test_a_die_showing_a_side_face_to_a_tilted_camera_is_read() -> None:
    # a plain white 3 near the far edge of the field: the camera sees its side face too, and the
    # pips read there make the face's box 1.7 dice across; the 1 beside it reads as well
    image, board = _read_board("travel-000027")
    wanted = sorted(d["pips"] for d in board.labels["dice"] if not d["cocked"])
    assert wanted == [1, 3]
    assert sorted(d.pips for d in read_field(image, board.calibration).dice) == wanted


def test_a_die_taken_for_a_lone_checker_is_read_as_the_die_it_is() -> None:
    # a 3 lying at the base of bare p13 rings like a faint checker: the finder takes it for one,
    # and a die is not looked for over a checker; offered as a doubtful checker, the place is
    # read as any other, the 3 is found there and the point is bare
    image, board = _read_board("travel-000002")
    assert board.labels["locations"]["p13"] == {"white": 0, "black": 0}
    assert 3 in [die["pips"] for die in board.labels["dice"] if not die["cocked"]]
    (lone,) = board.evidence.checkers["p13"]
    empty = board.calibration.empty
    masked = field_dice(board.top, board.field, board.evidence, empty)
    assert 3 not in [d.pips for d in masked.roll] and masked.displaced == ()
    # every lone checker offered (the bar's too): only the one the 3 lies on is displaced
    doubtful = [row[0] for row in board.evidence.checkers.values() if len(row) == 1]
    assert len(doubtful) > 1
    found = field_dice(board.top, board.field, board.evidence, empty, doubtful=doubtful)
    assert 3 in [d.pips for d in found.roll]
    assert found.displaced == (lone,)
    observation = read_field(image, board.calibration)
    assert observation.count("p13", "white") + observation.count("p13", "black") == 0
    assert sorted(d.pips for d in observation.dice) == sorted(
        die["pips"] for die in board.labels["dice"] if not die["cocked"]
    )


def test_a_die_at_a_rows_end_taken_for_its_last_checker_is_read_as_the_die_it_is() -> None:
    # a 2 lying just beyond the two Black checkers on p21 rings faintly as a third: the row's
    # last checker, ringing less than clearly, is offered as a doubtful one, its place is read as
    # any other, the 2 is found there and the row is two again
    image, board = _read_board("wooden-folding-070050", TUNE15)
    assert board.labels["locations"]["p21"] == {"white": 0, "black": 2}
    assert len(board.evidence.checkers["p21"]) == 3
    observation = read_field(image, board.calibration)
    assert (observation.count("p21", "white"), observation.count("p21", "black")) == (0, 2)
    assert sorted(d.pips for d in observation.dice) == [1, 2]


def test_of_more_faces_than_two_the_roll_is_the_two_the_model_is_surest_of() -> None:
    # the side face of the 4, seen by the tilted camera, passes for a 2 a die's side away and
    # stands out from the board more than the 5 does; the model is surer of the 4 and the 5
    image, board = _read_board("tournament-felt-070069", TUNE15)
    assert sorted(die["pips"] for die in board.labels["dice"] if not die["cocked"]) == [4, 5]
    assert sorted(d.pips for d in read_field(image, board.calibration).dice) == [4, 5]


def test_the_model_counts_a_face_whose_pips_count_it_all_but_rules_out() -> None:
    # a 2 and a 5 lying side by side, small and blurred: the pips of each run together and both
    # read as a 1; the die-face model gives a 1 next to no share at either (under RULED_OUT),
    # though it is not sure enough of its own counts to overrule a count it found likely
    image, board = _read_board("tournament-felt-030036", HELDOUT6)
    assert sorted(die["pips"] for die in board.labels["dice"] if not die["cocked"]) == [2, 5]
    assert sorted(d.pips for d in read_field(image, board.calibration).dice) == [2, 5]
