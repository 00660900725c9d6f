"""The field reader on the committed photoreal set (tests/data/photoreal): real board makes,
light and cameras rendered in 3D, with labels from the scene.

These are development figures, floors under what the reader measured when they were set (see
``benchmarks/bench_field.py``), so a change that makes reading worse fails here. The held-out
families and light were never looked at while tuning; their floor is kept apart.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import pytest

from sheshbesh.locations import POINT_LOCATIONS
from sheshbesh.observation import Observation
from vision import field_board, field_reader
from vision.errors import VisionError
from vision.field_board import EmptyBoard, calibrate_field, read_field
from vision.field_reader import FieldEvidence, RingSettings
from vision.images import load_image

PHOTOREAL = Path(__file__).resolve().parents[1] / "data" / "photoreal"
#: rendered after the reader's last tuning, held-out styles only, never looked at one by one
HELDOUT2 = PHOTOREAL.with_name("photoreal-heldout2")
#: generation 3 (dice leaning on the wall too), rendered after the reader's thresholds were set
HELDOUT3 = PHOTOREAL.with_name("photoreal-heldout3")
#: rendered after the hand test's thresholds were chosen, read once to judge them
HELDOUT4 = PHOTOREAL.with_name("photoreal-heldout4")
#: 1280x720, every style, read once (95.8%) before one of its frames shaped a rule
HELDOUT6 = PHOTOREAL.with_name("photoreal-heldout6")
#: share of points and bar read exactly, at least (tuning families / held-out ones); measured
#: 96.0%, 95.5% and 96.0% when these were raised from 0.9; held-out set 3 read 94.5% when added,
#: held-out set 4 95.2%, set 6 96.1%
FLOORS = {
    "tune": 0.93,
    "heldout": 0.93,
    "heldout2": 0.93,
    "heldout3": 0.92,
    "heldout4": 0.93,
    "heldout6": 0.93,
}
#: share of the frames with a hand over the field that are refused, at least (every set; 30 of 36
#: when the arm over the frame was added, 24 of 36 before; 33 of 42 since an arm's patch must
#: show some colour unlike both checker sets, 34 of 42 before; 35 of 42 since a cell is strange
#: against the frame's typical bare cell, not the calibration frame's noise; 37 of 42 since the
#: bare board's pattern tells light from things; 36 of 42 since an arm must cross the field's
#: edge beside the frame it crosses)
HANDS_FLOOR = 0.8
#: share of the frames without a hand that are taken for one, at most (every set; 8 of 118 when
#: the arm over the frame was added, 19 of 118 before; 2 of 152 since an arm's patch must show
#: some colour unlike both checker sets, 5 of 152 before; 1 of 152 since an arm must cross the
#: field's edge, 3 before): such a frame gives the referee nothing
FALSE_HANDS_CEILING = 0.03


def _labelled() -> Iterator[tuple[Path, dict[str, object]]]:
    sets = {
        PHOTOREAL: None,
        HELDOUT2: "heldout2",
        HELDOUT3: "heldout3",
        HELDOUT4: "heldout4",
        HELDOUT6: "heldout6",
    }
    for folder, split in sets.items():
        for label_file in sorted(folder.glob("*.json")):
            labels = json.loads(label_file.read_text())
            if "field_corners" in labels:
                if split is not None:
                    labels["split"] = split
                yield label_file, labels


@pytest.fixture(scope="module")
def readings() -> dict[str, list[tuple[int, int, bool]]]:
    """Per split, per frame: (points and bar exact, scored, read as occluded); a frame with a
    hand over the field scores nothing."""
    if not any(True for _ in _labelled()):
        pytest.skip("no photoreal set in tests/data/photoreal")
    out: dict[str, list[tuple[int, int, bool]]] = {split: [] for split in FLOORS}
    for label_file, labels in _labelled():
        image = load_image(label_file.with_name(str(labels["image"])))
        corners = [(float(x), float(y)) for x, y in labels["field_corners"]]  # type: ignore[attr-defined]
        try:
            calibration = calibrate_field(image, corners)
        except VisionError:
            out[str(labels["split"])].append((0, 25, False))  # nothing read at all
            continue
        observation = read_field(image, calibration)
        truth = labels["locations"]
        assert isinstance(truth, dict)
        if labels["occluded"]:
            out[str(labels["split"])].append((0, 0, observation.state == "occluded"))
            continue
        exact = sum(
            (observation.count(p, "white"), observation.count(p, "black"))
            == (truth[p]["white"], truth[p]["black"])
            for p in POINT_LOCATIONS
        )
        exact += (
            observation.count("bar-white", "white") == truth["bar-white"]["white"]
            and observation.count("bar-black", "black") == truth["bar-black"]["black"]
        )
        out[str(labels["split"])].append((exact, 25, observation.state == "occluded"))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("split", list(FLOORS))
def test_points_read_on_photoreal_boards(
    readings: dict[str, list[tuple[int, int, bool]]], split: str
) -> None:
    exact = sum(e for e, _, _ in readings[split])
    scored = sum(n for _, n, _ in readings[split])
    if not scored:
        pytest.skip(f"no {split} frames without a hand")
    assert exact / scored >= FLOORS[split]


@pytest.mark.slow
def test_hands_over_the_field_are_refused(readings: dict[str, list[tuple[int, int, bool]]]) -> None:
    hands = [refused for split in readings.values() for _e, n, refused in split if n == 0]
    if not hands:
        pytest.skip("no frames with a hand over the field")
    assert sum(hands) / len(hands) >= HANDS_FLOOR


@pytest.mark.slow
def test_boards_without_a_hand_are_rarely_taken_for_one(
    readings: dict[str, list[tuple[int, int, bool]]],
) -> None:
    boards = [occluded for split in readings.values() for _e, n, occluded in split if n]
    assert sum(boards) / len(boards) <= FALSE_HANDS_CEILING


def test_every_labelled_image_is_there() -> None:
    for label_file, labels in _labelled():
        assert label_file.with_name(str(labels["image"])).is_file(), label_file.name
        assert len(labels["field_corners"]) == 4  # type: ignore[arg-type]


def _read_on_itself(
    stem: Path, settings: RingSettings | None = None
) -> tuple[dict[str, Any], Observation]:
    """One labelled frame's labels, and its reading calibrated on itself with its corners."""
    labels = json.loads(stem.with_suffix(".json").read_text())
    image = load_image(stem.with_suffix(".jpg"))
    calibration = calibrate_field(image, [tuple(c) for c in labels["field_corners"]])
    return labels, read_field(image, calibration, settings)


def test_a_light_checker_on_a_point_of_its_own_colour_is_counted_by_its_rim() -> None:
    # two white checkers on p12, a cream point of white felt: the second one's ring is faint
    # (white against white) and colour cannot vouch for it; its rim, at one radius nearly all
    # round, does
    labels, observation = _read_on_itself(HELDOUT4 / "tournament-felt-014031")
    assert labels["locations"]["p12"] == {"white": 2, "black": 0}
    assert (observation.count("p12", "white"), observation.count("p12", "black")) == (2, 0)


def test_a_cup_resting_on_the_frame_is_no_arm_reaching_in() -> None:
    # a cup stands on the frame's far edge at the top left, beside the field; something crosses
    # the frame there, but too little of the field beside it is strange for an arm
    labels, observation = _read_on_itself(PHOTOREAL / "tournament-leather-000011")
    assert labels["occluded"] is False
    assert observation.state != "occluded", observation.extra["arm"]


def test_a_stack_seen_higher_than_fifteen_a_side_allows_is_counted_lower(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # seven Black checkers on p24, five in a row and two lying on them: its rims fit a pyramid
    # of ten (five, four and one), which with Black's other eight makes eighteen; the three
    # least sure of its top layers go
    labels, counted = _read_on_itself(HELDOUT4 / "wooden-folding-014034")
    assert labels["locations"]["p24"] == {"white": 0, "black": 7}
    # the stack counter counts the stack itself, and is sure of it
    assert _counts(counted, "p24") == labels["locations"]["p24"]
    assert counted.locations["p24"].black_confidence >= field_reader.STACK_SURE
    # the rims alone: the trimming mends the count, and says it is unsure
    monkeypatch.setattr(field_reader, "USE_STACK_MODEL", False)
    _labels, observation = _read_on_itself(HELDOUT4 / "wooden-folding-014034")
    assert _counts(observation, "p24") == labels["locations"]["p24"]
    assert observation.locations["p24"].black_confidence <= 0.5
    monkeypatch.setattr(field_board, "MOST_TRIMMED", 0)
    _labels, unmended = _read_on_itself(HELDOUT4 / "wooden-folding-014034")
    assert unmended.count("p24", "black") > 7


def _counts(observation: Observation, location: str) -> dict[str, int]:
    return {side: observation.count(location, side) for side in ("white", "black")}


TUNE11 = PHOTOREAL.with_name("photoreal-tune11")
TUNE13 = PHOTOREAL.with_name("photoreal-tune13")
TUNE14 = PHOTOREAL.with_name("photoreal-tune14")
TUNE15 = PHOTOREAL.with_name("photoreal-tune15")


def test_colour_does_not_deny_a_stack_a_shade_off_its_point_s_colour() -> None:
    # six dark red checkers on p16, a red point, in a blurred frame: the rings find none, the
    # stack counter counts six, and their colour lies between the bare point's and Black's,
    # nearer the point's by less than the noise: colour cannot say "bare board" there
    labels, observation = _read_on_itself(TUNE14 / "wooden-folding-060001")
    assert labels["locations"]["p16"] == {"white": 0, "black": 6}
    assert _counts(observation, "p16") == labels["locations"]["p16"]


@pytest.mark.parametrize(
    ("stem", "location"),
    [(TUNE13 / "tournament-felt-050003", "p21"), (TUNE15 / "wooden-folding-070345", "p23")],
)
def test_bare_points_bases_ringing_alike_are_not_learned_as_a_checker_set(
    stem: Path, location: str
) -> None:
    # few checkers on the board, and the bases of several bare points ring as faintly as they
    # do, all of one colour (red points on felt; dark points on wood): taken for a checker set,
    # they made Black the points' colour and a row of Black's read as White's
    labels, observation = _read_on_itself(stem)
    assert labels["locations"][location]["black"] >= 6
    assert _counts(observation, location) == labels["locations"][location]


def test_colour_does_not_deny_a_checker_on_a_board_near_its_own_colour() -> None:
    # four cream checkers on p17 of light veneer: the bare board there is within twice the
    # colour noise of the cream set, so colour cannot say "bare board"; their rings, clear
    # enough for a checker, count
    labels, observation = _read_on_itself(PHOTOREAL / "inlaid-tavla-000039")
    assert labels["locations"]["p17"] == {"white": 4, "black": 0}
    assert _counts(observation, "p17") == labels["locations"]["p17"]


@pytest.mark.parametrize(
    ("stem", "location"),
    [(HELDOUT4 / "tournament-felt-014000", "p2"), (PHOTOREAL / "tournament-leather-000052", "p16")],
)
def test_a_row_on_a_point_of_its_own_colour_goes_on_by_its_faint_rims(
    stem: Path, location: str
) -> None:
    # white checkers in a row on a white point: past the first, each rim shows only as a soft
    # shading against its neighbour and the point, fainter than the field's edges
    labels, observation = _read_on_itself(stem)
    assert sum(labels["locations"][location].values()) >= 3
    assert _counts(observation, location) == labels["locations"][location]


def test_white_checkers_in_light_and_shade_are_not_taken_for_both_sets() -> None:
    # at the reader's own ring threshold only White's rims ring true (Black's lie on dark blue
    # felt and black points), lit and shaded: calibration looks on among fainter rims and finds
    # Black's rows
    labels, observation = _read_on_itself(HELDOUT4 / "tournament-leather-014039")
    for location in ("p12", "p13", "p19"):
        assert _counts(observation, location) == labels["locations"][location], location


@pytest.mark.parametrize(
    ("stem", "location"),
    [(HELDOUT2 / "tournament-leather-007014", "p4"), (HELDOUT3 / "wooden-folding-009022", "p9")],
)
def test_a_second_layer_ringing_over_the_gaps_counts_the_row_under_it(
    stem: Path, location: str
) -> None:
    # five in a row and three or four lying over the gaps between them: the top layer rings
    # true over the gaps, the row under it shows little of its own rims
    labels, observation = _read_on_itself(stem)
    assert sum(labels["locations"][location].values()) >= 8
    assert _counts(observation, location) == labels["locations"][location]


@pytest.mark.parametrize(
    ("stem", "location"),
    [(HELDOUT6 / "wooden-folding-030021", "p6"), (PHOTOREAL / "tournament-felt-000016", "p4")],
)
def test_a_pyramid_of_three_layers_is_counted_from_the_rims_it_shows(
    stem: Path, location: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # five in a row, four over their gaps and two or three more on top: the top layer's rims
    # ring whole, the layers under it show only the parts left uncovered (the rims alone: the
    # stack counter, which may recount such a point, has its own tests)
    monkeypatch.setattr(field_reader, "USE_STACK_MODEL", False)
    labels, observation = _read_on_itself(stem)
    assert sum(labels["locations"][location].values()) >= 10
    assert _counts(observation, location) == labels["locations"][location]


def test_a_die_ringing_over_a_gap_of_a_bare_point_is_no_second_layer() -> None:
    # a red die lies on the bare pink p2: it rings as clearly as a checker lying over the gap
    # between two places, but colour says the board is bare under it
    labels, observation = _read_on_itself(PHOTOREAL / "travel-000035")
    assert labels["locations"]["p2"] == {"white": 0, "black": 0}
    assert any(die["pips"] for die in labels["dice"])
    assert _counts(observation, "p2") == {"white": 0, "black": 0}


def test_of_two_rows_that_could_change_side_the_one_unlike_its_set_does() -> None:
    # 23 checkers look White. Black's p9 looks White to the vote (as White as White's own p7),
    # but its colour lies ten times its set's spread from White's middle, p7's twice: p9 and
    # Black's faint p10 are counted for Black, not p7 and p10
    labels, observation = _read_on_itself(HELDOUT6 / "inlaid-tavla-030030")
    for location in ("p7", "p9", "p10"):
        assert _counts(observation, location) == labels["locations"][location], location
    assert labels["locations"]["p7"] == {"white": 4, "black": 0}


@pytest.mark.parametrize(
    ("stem", "location"),
    [(HELDOUT6 / "inlaid-tavla-030026", "p20"), (HELDOUT3 / "tournament-felt-009018", "p15")],
)
def test_a_checker_on_a_full_row_rings_clearer_than_the_one_it_covers(
    stem: Path, location: str
) -> None:
    # five in a row and one or two more lying over the first gaps: each rings only faintly
    # (its rim lies on checkers of its own colour), but more clearly than the place beyond it,
    # whose own ring crosses the checker covering half of it
    labels, observation = _read_on_itself(stem)
    assert sum(labels["locations"][location].values()) in (6, 7)
    assert _counts(observation, location) == labels["locations"][location]


@pytest.mark.parametrize(
    ("stem", "location"),
    [(HELDOUT4 / "travel-014011", "p22"), (HELDOUT3 / "travel-009013", "p13")],
)
def test_a_checker_over_a_gap_is_told_by_the_rims_it_hides(stem: Path, location: str) -> None:
    # five in a row and a sixth lying over the first gap: its own rim barely rings (it lies on
    # checkers of its colour, and the gap's ring is no clearer than the place beyond it), but
    # the two it lies on ring far fainter than the rest of their row
    labels, observation = _read_on_itself(stem)
    assert sum(labels["locations"][location].values()) == 6
    assert _counts(observation, location) == labels["locations"][location]


@pytest.mark.parametrize(
    ("stem", "location"),
    [(PHOTOREAL / "tournament-felt-000034", "p19"), (PHOTOREAL / "wooden-folding-000037", "p13")],
)
def test_a_row_whose_first_rims_ring_fainter_is_no_second_layer(stem: Path, location: str) -> None:
    # five in a row whose first two ring fainter than the rest (in the frame's shadow), one of
    # them still clearly: nothing lies on them
    labels, observation = _read_on_itself(stem)
    assert sum(labels["locations"][location].values()) == 5
    assert _counts(observation, location) == labels["locations"][location]


@pytest.mark.parametrize(
    ("stem", "location"),
    [
        (HELDOUT6 / "tournament-felt-030016", "p6"),
        (HELDOUT4 / "tournament-felt-014031", "p4"),
        (PHOTOREAL / "tournament-leather-000052", "p20"),
    ],
)
def test_a_row_on_a_point_of_its_own_colour_runs_to_the_bare_point(
    stem: Path, location: str
) -> None:
    # light checkers on a light point: past the first sure ones, colour cannot tell and their
    # rims are soft shadings, but each still shows against faint edges, and the place after the
    # row shows hardly any rim at all
    labels, observation = _read_on_itself(stem)
    assert labels["locations"][location]["black"] == 0
    assert labels["locations"][location]["white"] >= 2
    assert _counts(observation, location) == labels["locations"][location]


def test_a_lone_checker_before_a_faint_shading_stays_alone() -> None:
    # one checker on a light point, and past it a place whose rim shows only a little against
    # faint edges (a shading, no checker): the row is the one checker
    labels, observation = _read_on_itself(HELDOUT4 / "tournament-felt-014036")
    assert sum(labels["locations"]["p20"].values()) == 1
    assert _counts(observation, "p20") == labels["locations"]["p20"]


def test_a_row_whose_last_checkers_ring_faintly_runs_to_the_bare_point(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # six dark checkers: the last two ring too faintly to be sure alone, though their colour is
    # a checker's and their rims show against faint edges; the place after them shows hardly
    # any rim: the row is six (the rims alone: the stack counter, trained on the renderer's
    # piles, counts this held-out row five)
    monkeypatch.setattr(field_reader, "USE_STACK_MODEL", False)
    labels, observation = _read_on_itself(HELDOUT2 / "inlaid-tavla-007013")
    assert labels["locations"]["p1"] == {"white": 0, "black": 6}
    assert _counts(observation, "p1") == labels["locations"]["p1"]


def _blurred_phantoms(settings: RingSettings | None = None) -> list[str]:
    """The empty points that read as holding checkers in `wooden-folding-030022` blurred by 1.5
    pixels, calibrated on itself: at its faintest level calibration finds a "checker" at the base
    of 17 empty points (white checkers on white points and dark ones on red ring little more).
    ``settings``: the reader's thresholds (its own by default)."""
    stem = HELDOUT6 / "wooden-folding-030022"
    labels = json.loads(stem.with_suffix(".json").read_text())
    image = cv2.GaussianBlur(load_image(stem.with_suffix(".jpg")), (0, 0), 1.5)
    calibration = calibrate_field(image, labels["field_corners"])
    observation = read_field(image, calibration, settings)
    assert observation.state == "settled"
    return [
        point
        for point in POINT_LOCATIONS
        if sum(labels["locations"][point].values()) == 0
        and observation.count(point, "white") + observation.count(point, "black") > 0
    ]


def test_a_base_calibration_never_saw_bare_is_not_vouched_for_by_colour(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the bare board's picture of those bases is only the columns' typical colour; a base is
    # not taken for a checker by its colour against that picture (nor, since, by a faint lone
    # ring with no rim facing the middle: that test is left out here, to try this one alone)
    assert _blurred_phantoms() == []
    alone = RingSettings(lone_ring=0.0)
    assert _blurred_phantoms(alone) == []
    monkeypatch.setattr(EmptyBoard, "seen_at", lambda *_args: True)
    assert len(_blurred_phantoms(alone)) >= 3


def test_glare_lit_rows_are_counted_for_their_side_though_a_row_elsewhere_is_overcounted() -> None:
    # a lamp's glare over Black's red checkers on p21 and p22 makes them look like White's:
    # 24 White are seen and 8 Black, one Black row counted two too many (p14, 7 for 5), so no
    # change of side leaves both within fifteen; changing the two lit rows leaves the fewest
    # beyond (17 Black), and so they are counted
    labels, observation = _read_on_itself(PHOTOREAL / "wooden-folding-000031")
    for location in ("p21", "p22"):
        assert labels["locations"][location]["black"] >= 3
        assert _counts(observation, location) == labels["locations"][location], location


@pytest.mark.parametrize(
    ("stem", "location"),
    [
        (PHOTOREAL / "tournament-leather-000011", "p23"),
        (PHOTOREAL / "travel-000045", "p1"),
        (HELDOUT3 / "tournament-leather-009016", "p16"),
        (HELDOUT4 / "travel-014032", "p18"),
    ],
)
def test_the_base_of_a_bare_point_ringing_faintly_is_no_lone_checker(
    stem: Path, location: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the base of a bare point rings at the triangle's sides and the frame's edge; nothing of
    # it faces the middle, where a lone checker's rim shows against the bare board
    labels = json.loads(stem.with_suffix(".json").read_text())
    assert sum(labels["locations"][location].values()) == 0
    image = load_image(stem.with_suffix(".jpg"))
    calibration = calibrate_field(image, [tuple(c) for c in labels["field_corners"]])
    assert _counts(read_field(image, calibration), location) == {"white": 0, "black": 0}
    # without the test for a rim facing the middle, the base is read as a checker (where that
    # makes sixteen of a side, fifteen a side would take it away again: turned off here)
    monkeypatch.setattr(field_board, "MOST_TRIMMED", 0)
    anyway = read_field(image, calibration, RingSettings(lone_ring=0.0))
    assert sum(_counts(anyway, location).values()) == 1


@pytest.mark.xfail(
    strict=True,
    reason="a lamp's streak down a glossy field and over the frame crosses the frame, and the "
    "field's cells beside it are strange, enough of them of no checker set's colour: the arm test "
    "takes it for an arm (a pale hand or sleeve is lighter than the board and nearly colourless too)",
)
@pytest.mark.parametrize(
    "stem", [TUNE13 / "tournament-leather-050035", TUNE15 / "tournament-leather-070290"]
)
def test_a_glare_running_down_a_glossy_field_and_over_its_frame_is_no_arm(stem: Path) -> None:
    labels, observation = _read_on_itself(stem)
    assert labels["occluded"] is False
    assert observation.state != "occluded", observation.extra["arm"]


def test_a_bare_point_s_base_that_rang_like_a_checker_is_no_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # p23's base rings faintly, like a lone checker, and is taken for none; its cells, a little
    # unlike the bare board's picture at the field's edge, are not a hand's or an arm's either
    stem = PHOTOREAL / "tournament-leather-000011"
    labels, observation = _read_on_itself(stem)
    assert labels["occluded"] is False
    assert _counts(observation, "p23") == {"white": 0, "black": 0}
    assert observation.state == "settled"
    found = field_board.find_checkers

    def without_bases(*args: Any, **kwargs: Any) -> FieldEvidence:
        evidence = found(*args, **kwargs)
        evidence.bases.clear()
        return evidence

    monkeypatch.setattr(field_board, "find_checkers", without_bases)
    # the bare point's pattern shows through its base's cells too, and tells them alone
    assert _read_on_itself(stem)[1].state == "settled"
    monkeypatch.setattr(field_board, "PATTERN_KEPT", 2.0)
    # the frame crossed beside it is crossed by no arm reaching in: the field's edge there is as
    # it was (ARM_EDGE_CELLS), which says so too
    assert _read_on_itself(stem)[1].state == "settled"
    monkeypatch.setattr(field_board, "ARM_EDGE_CELLS", 0)
    assert _read_on_itself(stem)[1].state == "occluded"


@pytest.mark.parametrize(
    ("stem", "hand", "without"),
    [
        # a pale hand reaches in over the top row's first points: much of it is near the white
        # checkers' colour or the board's, but the points' edges it hides are gone from the
        # pattern; without the pattern's word on what it lost, too little is strange for a hand
        (PHOTOREAL / "tournament-leather-000043", True, (("PATTERN_LOST", -2.0),)),
        # a lamp's light falls on the top of the field and the frame beside it: brighter cells at
        # the field's edge beside cells of the frame unlike the rest, the shape of an arm reaching
        # in, but the points' edges show through it as on the bare board; with the lightness
        # judged as any colour there (and an arm not asked to cross the field's edge beside the
        # frame: ARM_EDGE_CELLS 0, a second reason it is no arm), the light is taken for a hand
        (
            PHOTOREAL.with_name("photoreal-tune12") / "wooden-folding-049030",
            False,
            (("PATTERN_KEPT", 2.0), ("ARM_EDGE_CELLS", 0)),
        ),
    ],
    ids=["a hand hides the points' pattern", "a light keeps it"],
)
def test_the_bare_board_s_pattern_tells_a_hand_from_a_light(
    stem: Path,
    hand: bool,
    without: tuple[tuple[str, float], ...],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    labels, observation = _read_on_itself(stem)
    assert labels["occluded"] is hand
    assert (observation.state == "occluded") is hand
    for name, value in without:
        monkeypatch.setattr(field_board, name, value)
    assert (_read_on_itself(stem)[1].state == "occluded") is not hand


#: generation 4: hands resting on the board's frame, fingertips short of the field
HANDS1 = PHOTOREAL.with_name("photoreal-hands1")


def test_a_hand_resting_on_the_frame_is_no_arm_reaching_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a hand rests on the frame beside the bar's top end; faint lines of strange cells run down
    # the points' sides there, but nothing crosses the field's edge beside the hand
    stem = HANDS1 / "tournament-leather-081059"
    labels, observation = _read_on_itself(stem)
    assert labels["occluded"] is False
    assert any(hand["on_frame"] for hand in labels["style"]["hands"])
    assert observation.state == "settled"
    monkeypatch.setattr(field_board, "ARM_EDGE_CELLS", 0)
    assert _read_on_itself(stem)[1].state == "occluded"


@pytest.mark.parametrize(
    ("stem", "location"),
    [
        (TUNE14 / "wooden-folding-060036", "p11"),  # a cream checker on a cream point
        (TUNE14 / "tournament-felt-060033", "p11"),  # a black checker on a black point
    ],
)
def test_a_lone_checker_of_its_point_s_colour_is_laid_where_the_counter_is_all_but_sure(
    stem: Path, location: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the checker's rim rings too faintly to count, and colour cannot tell it from the bare
    # point under it; the stack counter, all but sure of one checker there, lays it
    labels, observation = _read_on_itself(stem)
    assert sum(labels["locations"][location].values()) == 1
    assert _counts(observation, location) == labels["locations"][location]
    monkeypatch.setattr(field_reader, "LONE_SURE", 1.01)
    assert _counts(_read_on_itself(stem)[1], location) == {"white": 0, "black": 0}


def test_a_bare_point_the_counter_takes_for_one_checker_less_surely_stays_bare() -> None:
    # a die lies at p22's base, on a point whose colour is a checker set's: the counter gives
    # one checker there 0.987, short of LONE_SURE, and colour cannot tell
    labels, observation = _read_on_itself(TUNE13 / "tournament-leather-050204")
    assert sum(labels["locations"]["p22"].values()) == 0
    assert _counts(observation, "p22") == {"white": 0, "black": 0}


@pytest.mark.parametrize(
    ("stem", "locations"),
    [
        (TUNE13 / "tournament-leather-050063", ("p20", "p24")),  # red stacks on red points
        (TUNE15 / "tournament-felt-070119", ("p24",)),  # a red stack on a red point
    ],
)
def test_a_stack_the_counter_is_certain_of_is_laid_though_colour_calls_it_the_board(
    stem: Path, locations: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    # stacks of six of their point's own colour whose rims ring nowhere; the set's colour,
    # learned from its other checkers in other light, lies far enough from the point's that
    # colour calls their places the bare board; the stack counter, certain of six, lays them
    labels, observation = _read_on_itself(stem)
    for location in locations:
        assert labels["locations"][location] == {"white": 0, "black": 6}
        assert _counts(observation, location) == labels["locations"][location], location
    monkeypatch.setattr(field_reader, "CERTAIN_STACK", 1.01)
    unsure = _read_on_itself(stem)[1]
    assert [_counts(unsure, location) for location in locations] == [
        {"white": 0, "black": 0} for _ in locations
    ]


def _bar(observation: Observation) -> dict[str, int]:
    """The checkers on the bar, each side's."""
    return {
        side: observation.count("bar-white", side) + observation.count("bar-black", side)
        for side in ("white", "black")
    }


def test_a_checker_of_the_bar_s_shade_is_counted_by_its_colour_and_its_rim() -> None:
    # a pale checker on a pale leather bar: its ring is faint (0.62), its colour White's and
    # not the bar's, and its rim lies at one radius round more than half of it
    stem = TUNE13 / "tournament-leather-050194"
    labels, observation = _read_on_itself(stem)
    assert labels["locations"]["bar-white"] == {"white": 1, "black": 0}
    assert _bar(observation) == {"white": 1, "black": 2}
    assert _bar(_read_on_itself(stem, RingSettings(bar_rim=1.01))[1]) == {"white": 0, "black": 2}


def test_a_faint_ring_on_the_bar_without_a_checker_s_rim_is_no_checker() -> None:
    # the cube, a White-coloured block in the bar's middle read elsewhere (a 4 on White's
    # side), rings faintly beside the bar's one Black checker; its edges lie at one radius
    # round only about a third of it
    stem = TUNE11 / "wooden-folding-048017"
    labels, observation = _read_on_itself(stem)
    assert labels["cube"]["place"] == "middle"
    assert _bar(observation) == {"white": 0, "black": 1}
    assert _bar(_read_on_itself(stem, RingSettings(bar_rim=0.3))[1]) == {"white": 1, "black": 1}


def test_checkers_on_the_bar_whose_rims_wobble_yet_lie_at_one_radius_are_no_cube(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # three brown checkers in a row on a grey bar ring clearly; two of them wobble four-fold
    # more than a checker's rim is let (as a square's would), yet their edges lie at one radius
    # round most of them: no square's do
    stem = TUNE14 / "tournament-felt-060032"
    labels, observation = _read_on_itself(stem)
    assert labels["locations"]["bar-black"] == {"white": 0, "black": 3}
    assert _bar(observation) == {"white": 3, "black": 3}
    monkeypatch.setattr(field_reader, "CHECKER_RIM", 1.01)
    assert _bar(_read_on_itself(stem)[1]) == {"white": 3, "black": 1}
