"""Calibrating on, and reading, any real board from the four corners of its playing field.

``calibrate_field(image, corners)`` measures the field (:mod:`vision.field`) and learns the two
checker sets from whatever position is on the board (:mod:`vision.field_reader`);
``read_field(image, calibration)`` turns a frame into an :class:`~sheshbesh.observation.Observation`
with the same locations as every other reading: the bottom row of the image is p12..p1 from left to
right, the top row p13..p24, White's checkers on the bar count under ``bar-white`` and Black's
under ``bar-black``. The trays lie outside the field, so the borne-off counts are what the field
does not show of each side's fifteen (with a confidence that says they were not seen).

>>> import numpy as np
>>> from vision.synth.render import DrawnScene, random_style, render_frame
>>> rng = np.random.default_rng(5)
>>> frame = render_frame(DrawnScene.starting(), random_style(rng, hard=False), rng)
>>> corners = synthetic_field_corners(frame.homography)
>>> calibration = calibrate_field(frame.image, corners)
>>> observation = read_field(frame.image, calibration)
>>> observation.count("p6", "white"), observation.count("p19", "black")
(5, 5)
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple, Protocol

import cv2
import numpy as np
import numpy.typing as npt

from sheshbesh.locations import LOCATIONS, POINT_LOCATIONS
from sheshbesh.observation import DieReading, FrameState, LocationCount, Observation
from vision.calibration import Calibration, decode_reference, encode_reference
from vision.cube import FieldCube, locate_field_cube
from vision.dice import read_dice
from vision.errors import BoardNotFoundError, CalibrationError
from vision.field import BAR_CENTRING, FRAME_FAR, FRAME_NEAR, Field, locate_field, resize_matrix
from vision.field_reader import (
    BAR_APART,
    CHECKER_RIM,
    LEAST_SEPARATION,
    Checker,
    CheckerColours,
    FieldEvidence,
    Gradients,
    RingSettings,
    Stand,
    classify,
    find_checkers,
    lay_bare_stacks,
    learn_colours,
    recount_stacks,
    ring_confidence,
)
from vision.images import Image, check_image, lab_distance
from vision.layout import BoardLayout

FloatArray = npt.NDArray[np.float64]
CHECKERS_PER_SIDE = 15
#: the least confidence of a cube's face (other than a centred 64) that a reading reports
CUBE_SURE = 0.6
#: the most four-fold wobble of a checker's rim, as a share of its radius (a square's is 0.17)
CHECKER_ROUND = 0.01
#: a checker set within this Lab distance (lightness counted half) of the bare board's colour at a
#: place cannot be told from the board there by colour (the noise a vouched colour must exceed)
BOARD_LIKE = 10.0
#: where the bare board lies within this many times :data:`BOARD_LIKE` of a checker set's colour,
#: colour cannot tell that set's checkers from the board there (a disc nearer the board than the
#: set by less than the noise twice over says nothing)
COLOURLESS = 2.0
METHOD = "field-corners"


@dataclass(frozen=True, slots=True)
class FieldCalibration:
    """A board known by its playing field: geometry, checker colours, and the field as first seen."""

    field: Field
    colours: CheckerColours
    reference: Image | None = None  # the rectified calibration frame, for a person to look at
    method: str = METHOD
    empty: EmptyBoard | None = None  # the field without checkers, for telling hands apart
    #: the points where a stack may stand at the base, each with the side whose point it is and
    #: whose checkers alone stand and lie there (Shesh Besh: :data:`SHESH_BESH_STACKS`)
    standing: Mapping[str, str] = dataclasses.field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "version": 2,
            "method": self.method,
            "image_size": list(self.field.image_size),
            "field": self.field.to_dict(),
            "checker_colours": self.colours.to_dict(),
            "empty": None
            if self.empty is None
            else {
                "level": round(self.empty.level, 2),
                "shape": list(self.empty.columns.shape),
                "columns": np.round(self.empty.columns, 1).ravel().tolist(),
                **(
                    {"unseen": np.flatnonzero(self.empty.unseen).tolist()}
                    if self.empty.unseen is not None and self.empty.unseen.any()
                    else {}
                ),
            },
            "reference": None if self.reference is None else encode_reference(self.reference),
        }
        if self.standing:
            data["standing"] = {p: self.standing[p] for p in POINT_LOCATIONS if p in self.standing}
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FieldCalibration:
        """Parse :meth:`to_dict`'s form; raises :class:`CalibrationError` naming the bad field."""
        for key in ("field", "checker_colours"):
            if key not in data:
                raise CalibrationError(f"field calibration lacks {key!r}")
        if not isinstance(data["field"], Mapping) or not isinstance(
            data["checker_colours"], Mapping
        ):
            raise CalibrationError("field calibration's 'field' and 'checker_colours' are objects")
        reference = decode_reference(data["reference"]) if data.get("reference") else None
        empty = None
        if data.get("empty"):
            try:
                shape = tuple(int(v) for v in data["empty"]["shape"])
                columns = np.array(data["empty"]["columns"], np.float64).reshape(shape)
                if len(shape) != 4 or shape[0] != 13 or shape[3] != 3:
                    raise ValueError(f"shape {shape}")
                unseen = None
                if data["empty"].get("unseen"):
                    unseen = np.zeros(shape[:3], bool)
                    unseen.ravel()[np.array(data["empty"]["unseen"], np.intp)] = True
                empty = EmptyBoard(columns, float(data["empty"]["level"]), unseen)
            except (KeyError, TypeError, ValueError, IndexError) as error:
                raise CalibrationError(
                    f"malformed empty board in calibration: {error!r}"
                ) from error
        standing = data.get("standing", {})
        if not isinstance(standing, Mapping) or not all(
            point in POINT_LOCATIONS and side in ("white", "black")
            for point, side in standing.items()
        ):
            raise CalibrationError(
                "field calibration's 'standing' gives points p1..p24 each a side, white or "
                f"black, not {standing!r}"
            )
        return cls(
            Field.from_dict(data["field"]),
            CheckerColours.from_dict(data["checker_colours"]),
            reference,
            str(data.get("method", METHOD)),
            empty,
            dict(standing),
        )


def load_calibration(path: str | Path) -> Calibration | FieldCalibration:
    """Read a calibration file of either kind (the field's corners, or the marker board).

    Raises :class:`CalibrationError` naming the file when it is missing or malformed.
    """
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CalibrationError(f"calibration file {str(file)!r} cannot be read: {error}") from error
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise CalibrationError(f"{file}: calibration is not JSON ({error})") from error
    if not isinstance(data, Mapping):
        raise CalibrationError(f"{file}: calibration is a {type(data).__name__}, not an object")
    try:
        if data.get("method") == METHOD:
            return FieldCalibration.from_dict(data)
        return Calibration.from_dict(data)
    except CalibrationError as error:
        raise CalibrationError(f"{file}: {error}") from error


def for_variant(
    calibration: Calibration | FieldCalibration, variant: str
) -> Calibration | FieldCalibration:
    """``calibration`` as a match of ``variant`` reads it: a field calibration reads Shesh Besh's
    standing stacks in a Shesh Besh match only, whatever game it was made for (the marker
    board's calibration is unchanged)."""
    if not isinstance(calibration, FieldCalibration):
        return calibration
    return replace(calibration, standing=standing_for(variant))


def standing_for(variant: str) -> Mapping[str, str]:
    """The points where a stack may stand in a game of ``variant``, with their sides."""
    return SHESH_BESH_STACKS if variant == "sheshbesh" else {}


def calibrate_field(
    image: Image,
    corners: Sequence[tuple[float, float]],
    *,
    swap: bool = False,
    settings: RingSettings | None = None,
    standing: Mapping[str, str] | None = None,
) -> FieldCalibration:
    """Measure the field from its corners and learn both checker sets from any position on it.

    ``swap`` makes the darker set White. ``standing``: the points where a stack may stand, with
    their sides (:attr:`FieldCalibration.standing`); their bases are left out of the bare board's
    picture. Raises :class:`CalibrationError` naming what is wrong
    (corners that make no sense, fewer than two checker sets on the field).
    """
    image = check_image(image)
    standing = dict(standing or {})
    field = locate_field(image, corners)
    if settings is not None:
        return _calibrate(image, field, swap, settings, standing)
    # a frame whose checkers all stand in tall stacks, or lie in a lamp's glare, shows few clear
    # rims: the sets are looked for again among fainter ones before the frame is refused; and
    # where a band beside the bar (a raised bar's shadow) was taken for it, every point lies a
    # little off and no checker is found: the bar is looked for again, held to the middle
    first: CalibrationError | None = None
    for centring in (None, BAR_CENTRING):
        if centring is not None:
            field = locate_field(image, corners, bar_centring=centring)
        for present, clear in RELAXED:
            # the sets and the bare board are learned from what rings truest: a checker lying
            # over a gap only when it rings all round; a faint lone ring is kept (where every
            # row is a tall stack, the first checker of each may be all that rings)
            learning = RingSettings(
                present=present, clear=clear, layered=RingSettings().overhang, lone_ring=0.0
            )
            try:
                return _calibrate(image, field, swap, learning, standing)
            except CalibrationError as error:
                first = first or error
    assert first is not None
    raise first


#: the ring scores (present, clear) under which calibration looks for the two checker sets, in
#: turn: the reader's own, then fainter
RELAXED = ((RingSettings().present, RingSettings().clear), (0.6, 0.75), (0.5, 0.65))


def _calibrate(
    image: Image,
    field: Field,
    swap: bool,
    settings: RingSettings,
    standing: Mapping[str, str],
) -> FieldCalibration:
    geometry = _fit_shape(image, field, settings)
    top = geometry.rectify(image)
    pitch = _measure_pitch(top, geometry, find_checkers(top, geometry, settings), settings.present)
    geometry = replace(geometry, pitch=pitch)
    evidence = find_checkers(top, geometry, settings)
    found = _all_checkers(evidence)
    # where a stack may stand, the bare board is the same colour's base on the other points
    empty = learn_empty_board(top, geometry, [*found, *_stack_bases(geometry, standing)])
    # a set piled in tall stacks may ring nowhere: the stack counter's rows on the points where
    # the rings found nothing stand for it, where their places are unlike the bare board
    laid = _counted_stacks(top, geometry, evidence, settings, empty) if not standing else []
    if laid:
        empty = learn_empty_board(top, geometry, [*found, *laid])
    # two sets must ring on the field whatever the game (else the frame is refused: no board, the
    # corners not a field's); where stacks may stand, each side's own points then tell its colour
    colours = _learn_sets(evidence, geometry, empty, settings.present, laid)
    if standing:
        colours = _standing_colours(field_lab(top), geometry, evidence, empty, standing) or colours
    if swap:
        colours = colours.swapped()
    return FieldCalibration(geometry, colours, top, empty=empty, standing=standing)


#: a lone ring of the bare board's colour is taken for a bare point's base in calibration when at
#: least this many other such rings share its colour (:func:`_learn_sets`)
BASES_ALIKE = 1


def _counted_stacks(
    top: Image, geometry: Field, evidence: FieldEvidence, settings: RingSettings, empty: EmptyBoard
) -> list[Checker]:
    """The checkers the stack counter lays on the points where the rings found none
    (:func:`lay_bare_stacks`; ``evidence`` is left as it was), each row only where no more than
    one of its places has the bare board's colour (:data:`BOARD_LIKE`; the reader's own rule): a
    bare point counted as a stack is no sample of a set. One per place of the row: a place's
    colour is the sample."""
    lab = field_lab(top)

    def unlike_board(x: float, y: float, radius: float) -> bool | None:
        disc = _disc_middle(lab, x, y, radius)
        board = empty.colour_at(geometry, x, y)
        if disc is None or board is None:
            return False
        return None if lab_distance(disc, board) > BOARD_LIKE else False

    counted = FieldEvidence(dict(evidence.checkers), pitch=evidence.pitch)
    lay_bare_stacks(top, geometry, counted, settings, unlike_board)
    return [c for location in counted.laid for c in counted.checkers[location] if c.layer <= 1]


def _learn_sets(
    evidence: FieldEvidence,
    geometry: Field,
    empty: EmptyBoard,
    present: float,
    laid: Sequence[Checker] = (),
) -> CheckerColours:
    """The two checker sets among the rings calibration found (``evidence``). The base of an
    empty point, between its triangle's sides and the frame, rings nearly as true as a weak
    checker, and on a board with few checkers such bases outnumber a set: a lone ring the colour
    of the bare board where it lies, whose colour at least :data:`BASES_ALIKE` other such rings
    share (the bases of the points of one colour look alike), is taken for one and left out. The sets are
    learned without them, or with them where the others do not make two sets. Rings in a row of
    two or more are kept whatever their colour: a set the colour of its points rings there too;
    and so is a lone checker on a point of its own colour, unless others lie so (nothing else
    may show that set)."""
    found = _all_checkers(evidence)
    lone = [
        c
        for row in evidence.checkers.values()
        if len(row) == 1
        for c in row
        if _board_coloured(c, geometry, empty)
    ]
    colours = np.array([c.lab for c in lone], np.float64).reshape(-1, 3)
    bases = {
        id(c)
        for c, colour in zip(lone, colours, strict=True)
        if int(np.sum(lab_distance(colours, colour) <= BOARD_LIKE)) > BASES_ALIKE
    }
    kept = [c for c in found if id(c) not in bases]
    try:
        return _learn_from(kept, present, laid)
    except CalibrationError:
        return _learn_from(found, present, laid)


def _board_coloured(checker: Checker, geometry: Field, empty: EmptyBoard) -> bool:
    """Whether ``checker``'s colour is the bare board's where it lies (:data:`BOARD_LIKE`)."""
    board = empty.colour_at(geometry, checker.x, checker.y)
    return board is not None and float(lab_distance(np.array(checker.lab), board)) <= BOARD_LIKE


def _learn_from(
    rings: Sequence[Checker], present: float, laid: Sequence[Checker] = ()
) -> CheckerColours:
    """:func:`learn_colours` of the ``rings`` that ring true (score ``present`` or more), not
    only the clearest: dark checkers on a dark board ring less clearly, and would be left out;
    of all the ``rings`` where fewer than six ring true; with the stack counter's ``laid``
    checkers (no ring found them) either way, though the rings alone must be four or more."""
    clear = [c for c in rings if c.score >= present]
    return learn_colours(clear if len(clear) >= 6 else rings, laid)


def _standing_colours(
    lab: FloatArray,
    geometry: Field,
    evidence: FieldEvidence,
    empty: EmptyBoard,
    standing: Mapping[str, str],
) -> CheckerColours | None:
    """Each side's colour where the game keeps every checker of a side on its own points (Shesh
    Besh: :data:`SHESH_BESH_STACKS`), from what lies there unlike the bare board: the checkers
    ringing on the side's points, and the stacks standing at their bases (at the start every
    checker stands in one, and a stack stood on edge rings not at all), a point's median colour
    where at least :data:`STACK_SHARE` of its base is unlike the bare board. The bare board is
    known first (its picture leaves those bases out), so a point's own base ringing like a
    checker (a dark point's, under near-black checkers) is no sample. Each side's colour is the
    median of its samples. None where a side shows nothing, or the two colours are too alike to
    be two sets: the sets learned as in any game (:func:`learn_colours`) stand. White is the
    lighter set."""
    samples: dict[str, list[FloatArray]] = {"white": [], "black": []}
    for location, side in standing.items():
        for c in evidence.checkers.get(location, []):
            ring = np.array(c.lab, np.float64)
            board = empty.colour_at(geometry, c.x, c.y)
            if board is not None and float(lab_distance(ring, board)) > BOARD_LIKE:
                samples[side].append(ring)
        left, right, base, direction = geometry.column(location)
        patch, board = _stack_base(lab, geometry, empty, (left + right) / 2, base, direction)
        if not len(patch) or board is None:
            continue
        unlike = lab_distance(patch, board) > BOARD_LIKE
        if float(np.mean(unlike)) >= STACK_SHARE:
            samples[side].append(np.median(patch[unlike], axis=0))
    if not samples["white"] or not samples["black"]:
        return None
    one, other = (np.median(np.array(samples[side]), axis=0) for side in ("white", "black"))
    colours = CheckerColours(
        (float(one[0]), float(one[1]), float(one[2])),
        (float(other[0]), float(other[1]), float(other[2])),
    )
    if colours.separation < LEAST_SEPARATION:
        return None
    return colours if one[0] >= other[0] else colours.swapped()


def _stack_bases(geometry: Field, standing: Iterable[str]) -> list[_Disc]:
    """The bases of the points in ``standing``, where a stack may stand, as discs."""
    radius = geometry.radius
    return [
        _Disc((left + right) / 2, base + direction * radius, radius)
        for left, right, base, direction in map(geometry.column, sorted(standing))
    ]


def _all_checkers(evidence: FieldEvidence) -> list[Checker]:
    return [c for row in evidence.checkers.values() for c in row]


def _measure_pitch(top: Image, geometry: Field, evidence: FieldEvidence, present: float) -> float:
    """The distance between neighbours of a row on this board (checkers need not quite touch):
    the spacing of the ring-score peaks down every point holding two or more checkers."""
    gradients = Gradients(top)
    spacings: list[float] = []
    for location in POINT_LOCATIONS:
        row = evidence.checkers.get(location, [])
        if len(row) < 2:
            continue
        _left, _right, _base, direction = geometry.column(location)
        far = row[0].y + direction * 2.6 * geometry.radius * len(row)
        far = min(max(far, 0.0), float(geometry.height - 1))
        ys, scores = gradients.along(row[0].x, row[0].y, far, geometry.radius, 0.5)
        peaks = [
            float(ys[i])
            for i in range(1, len(scores) - 1)
            if scores[i] >= present and scores[i] >= scores[i - 1] and scores[i] > scores[i + 1]
        ]
        merged: list[float] = []
        for y in [row[0].y, *peaks]:
            if not merged or abs(y - merged[-1]) > 0.8 * geometry.radius:
                merged.append(y)
        spacings += [
            abs(b - a)
            for a, b in itertools.pairwise(merged)
            if 1.6 * geometry.radius < abs(b - a) < 2.6 * geometry.radius
        ]
    return float(np.median(spacings)) if len(spacings) >= 3 else 2 * geometry.radius


def _fit_shape(image: Image, geometry: Field, settings: RingSettings) -> Field:
    """The field's height and the checkers' radius under which the checkers look round and fit.

    The corners' perspective gives the field's proportions only as well as the camera fits a
    pinhole model of the assumed focal length; the checkers settle the rest: the rectified field
    is stretched until the clearest checkers are as tall as they are wide, and the radius is
    where their rims are found.
    """
    for _ in range(4):
        top = geometry.rectify(image)
        evidence = find_checkers(top, geometry, settings)
        gradients = Gradients(top)
        clear = [c for c in _all_checkers(evidence) if c.score >= 0.9 and c.layer == 1]
        if len(clear) < 4:
            return geometry
        shapes = np.array([gradients.rim_shape(c.x, c.y, c.radius) for c in clear])
        radius = float(np.median(shapes[:, 0]))
        radius = min(max(radius, 0.3 * geometry.point_width), 0.55 * geometry.point_width)
        widening = min(max(float(np.median(shapes[:, 1])), 0.7), 1.4)
        settled = abs(widening - 1) < 0.03 and abs(radius / geometry.radius - 1) < 0.03
        geometry = replace(geometry, height=round(geometry.height * widening), radius=radius)
        if settled:
            break
    return geometry


#: a point's column is looked at in this many cells across when telling hands apart
COLUMN_CELLS = 10
#: and in cells of this many field pixels down
CELL = 4
#: the light on the board is allowed to change this many times down each column
LIGHT_BANDS = 3
#: a cell of the field is strange (neither the bare board nor a checker) this many times as far
#: from the empty board as the frame's typical bare cell (within the bounds RingSettings sets)
STRANGE_TIMES = 2.5
#: Where the bare board has a pattern across a column (a point's edges, a printed mark), the
#: pattern tells light from things: another light (a lamp's spot, a window's streak, a shadow)
#: makes the pattern lighter or darker and keeps it; a hand or a sleeve hides it, whatever its
#: colour. The pattern is looked at in this many rows of cells at once
PATTERN_ROWS = 3
#: the bare board has a pattern where its lightness across those cells varies this much
#: (standard deviation; Lab lightness on OpenCV's 8-bit scale)
PATTERN_CONTRAST = 8.0
#: a frame whose lightness there follows the pattern this well (correlation) shows the bare
#: board in its own light: only a cell's hue may make it strange there, if its lightness lies
#: within PATTERN_FIT of the light's (the frame's lightness as a line of the bare board's)
PATTERN_KEPT = 0.8
#: how near the light's line a kept cell's lightness lies (Lab lightness, OpenCV's 8-bit scale)
PATTERN_FIT = 10.0
#: one whose lightness follows it less than this has something over it
PATTERN_LOST = 0.4
#: and a cell there is strange this far from the bare board, as a share of what elsewhere
PATTERN_LOST_LEVEL = 0.35
#: the least share of the cells that no checker hides for the pattern to say either
PATTERN_SEEN = 0.7
#: a frame lit to white there (this lightness, on average) shows no pattern and says nothing
PATTERN_BURNT = 245.0


@dataclass(frozen=True, slots=True)
class EmptyBoard:
    """What the field looks like without checkers, column by column (Lab, cells).

    ``columns`` holds the twelve point columns (left to right, each the top point above the
    bottom point) and the bar, resampled to :data:`COLUMN_CELLS` cells across: the columns of
    one colour of point share one picture, made from the calibration frame wherever no checker
    hid it. ``level`` is how far a cell of that frame strayed from it (the picture's own noise).
    ``unseen`` marks the cells a checker hid in every column of their colour of point (or what
    calibration took for one: the base of every empty point, in a soft focus): their picture is
    only the columns' typical colour, so colour says nothing there (None: every cell was seen).
    """

    columns: FloatArray  # 13 x rows x COLUMN_CELLS x 3
    level: float
    unseen: npt.NDArray[np.bool_] | None = None  # 13 x rows x COLUMN_CELLS

    def seen_at(self, geometry: Field, x: float, y: float) -> bool:
        """Whether calibration saw the bare board at field pixel (x, y) (see ``unseen``)."""
        place = self._cell(geometry, x, y)
        return self.unseen is None or place is None or not bool(self.unseen[place])

    def _cell(self, geometry: Field, x: float, y: float) -> tuple[int, int, int] | None:
        """The cell (column, row, cell across) holding field pixel (x, y), or None off the
        columns."""
        rows = self.columns.shape[1]
        row = min(max(int(y / geometry.height * rows), 0), rows - 1)
        for index, (left, right) in enumerate(_column_edges(geometry)):
            if left <= x < right:
                cell = min(int((x - left) / (right - left) * COLUMN_CELLS), COLUMN_CELLS - 1)
                return index, row, cell
        return None

    def colour_at(self, geometry: Field, x: float, y: float) -> FloatArray | None:
        """The empty board's colour (Lab) at field pixel (x, y), or None off the columns."""
        place = self._cell(geometry, x, y)
        return None if place is None else np.asarray(self.columns[place], np.float64)


def _column_edges(geometry: Field) -> list[tuple[float, float]]:
    """The left and right edges of the twelve point columns (left to right, each the top point
    above the bottom point) and then of the bar: the thirteen columns of :class:`EmptyBoard`."""
    return [geometry.column(f"p{13 + i}")[:2] for i in range(12)] + [geometry.bar]


def _cell_middles(left: float, right: float) -> FloatArray:
    """The middles, across, of the COLUMN_CELLS cells of a column from ``left`` to ``right``."""
    return np.asarray(left + (np.arange(COLUMN_CELLS) + 0.5) * (right - left) / COLUMN_CELLS)


def _column_strips(top: Image, geometry: Field) -> FloatArray:
    """The twelve point columns and the bar of a rectified field, each COLUMN_CELLS cells wide."""
    rows = max(8, geometry.height // CELL)
    edges = _column_edges(geometry)
    strips = []
    for left, right in edges:
        x0, x1 = max(0, round(left)), min(geometry.width, max(round(right), round(left) + 1))
        strip = cv2.resize(top[:, x0:x1], (COLUMN_CELLS, rows), interpolation=cv2.INTER_AREA)
        strips.append(cv2.cvtColor(strip, cv2.COLOR_BGR2LAB).astype(np.float64))
    return np.stack(strips)


class _Round(Protocol):
    """A disc on the field (field pixels): a checker, or a die with its shadow."""

    @property
    def x(self) -> float: ...
    @property
    def y(self) -> float: ...
    @property
    def radius(self) -> float: ...


class _Disc(NamedTuple):
    x: float
    y: float
    radius: float


def _checker_cells(
    geometry: Field, checkers: Sequence[_Round], grow: float
) -> npt.NDArray[np.bool_]:
    """Which cells of :func:`_column_strips` lie under a checker (or another disc)."""
    rows = max(8, geometry.height // CELL)
    edges = _column_edges(geometry)
    mask = np.zeros((13, rows, COLUMN_CELLS), bool)
    ys = (np.arange(rows) + 0.5) * geometry.height / rows
    for index, (left, right) in enumerate(edges):
        xs = _cell_middles(left, right)
        for c in checkers:
            if c.x + c.radius * grow < left or c.x - c.radius * grow > right:
                continue
            inside = (xs[None, :] - c.x) ** 2 + (ys[:, None] - c.y) ** 2 <= (c.radius * grow) ** 2
            mask[index] |= inside
    return mask


def _middles(values: FloatArray) -> tuple[FloatArray, npt.NDArray[np.intp]]:
    """The median along the second axis of ``values`` (N x M x channels; an entry whose first
    channel is NaN is left out), as :func:`numpy.median` gives it (NaN where every entry is left
    out), and how many entries each median took."""
    ordered = np.sort(values, axis=1)  # NaN last
    seen = (~np.isnan(values[..., 0])).sum(axis=1)
    rows = np.arange(len(values))
    low = ordered[rows, np.maximum(seen - 1, 0) // 2]
    high = ordered[rows, np.minimum(seen // 2, values.shape[1] - 1)]
    return (low + high) / 2, seen


def _relit(strips: FloatArray, columns: FloatArray, hidden: npt.NDArray[np.bool_]) -> FloatArray:
    """``columns`` shifted, piece by piece, to the light each part of ``strips`` is in (a lamp
    near one corner, a warmer light on one side): in each of :data:`LIGHT_BANDS` bands down each
    column, the typical difference where nothing hides the board, taken as the middle of it and
    its neighbours' (light changes smoothly across the board; a hand or a sleeve over a column
    or two is not a change of light)."""
    count, rows = columns.shape[:2]
    bounds = np.linspace(0, rows, LIGHT_BANDS + 1).astype(int)
    shifts = np.full((count + 1, LIGHT_BANDS, 3), np.nan)  # the last: no column
    difference = strips - columns
    for band, (top, bottom) in enumerate(itertools.pairwise(bounds)):
        free = ~hidden[:, top:bottom].reshape(count, -1)
        values = difference[:, top:bottom].reshape(count, -1, 3)
        typical, seen = _middles(np.where(free[..., None], values, np.nan))
        enough = seen >= 0.2 * free.shape[1]
        shifts[:count][enough, band] = typical[enough]
    # each point column's neighbours within three (the twelve point columns; the bar is its own)
    points = count - 1
    near = np.full((count, 7), count)
    for index in range(points):
        around = range(max(0, index - 3), min(points, index + 4))
        near[index, : len(around)] = around
    near[points, 0] = points
    out = columns.copy()
    for band, (top, bottom) in enumerate(itertools.pairwise(bounds)):
        typical, seen = _middles(shifts[near, band])
        lit = seen > 0
        out[lit, top:bottom] += typical[lit][:, None, None, :]
    return out


def learn_empty_board(top: Image, geometry: Field, checkers: Sequence[_Round]) -> EmptyBoard:
    """The empty field's picture from a frame with checkers on it (see :class:`EmptyBoard`)."""
    strips = _column_strips(top, geometry)
    hidden = _checker_cells(geometry, checkers, 1.15)
    columns = np.empty_like(strips)
    unseen = np.zeros(strips.shape[:3], bool)
    for parity in (0, 1):
        same = list(range(parity, 12, 2))
        unseen[same] = hidden[same].all(axis=0)
        values = np.where(hidden[same][..., None], np.nan, strips[same])
        with warnings.catch_warnings():  # cells hidden in every column: filled in below
            warnings.simplefilter("ignore", RuntimeWarning)
            picture = np.nanmedian(values, axis=0)
            fallback = np.nanmedian(values.reshape(-1, 3), axis=0)
        picture = np.where(np.isnan(picture), fallback, picture)
        columns[same] = picture
    bar = np.where(hidden[12][..., None], np.nan, strips[12])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        bar_colour = np.nanmedian(bar.reshape(-1, 3), axis=0)
    columns[12] = np.where(np.isnan(bar_colour), 0.0, bar_colour)
    columns = _relit(strips, np.nan_to_num(columns), hidden)
    seen = ~hidden
    strays = lab_distance(strips, columns)[seen]
    level = float(np.percentile(strays, 80)) if strays.size else 10.0
    return EmptyBoard(np.nan_to_num(columns), level, unseen if unseen.any() else None)


#: the least likeness (:func:`board_likeness`) of a frame's bare board to the calibrated one's.
#: On the photoreal sets a frame of the board calibrated on it, whatever its light, hands and
#: checkers, shows 0.47 or more (all but three 0.66 or more); a black or white frame, noise or a
#: photo of dice about 0; a frame of one board read with another's calibration up to 0.3; the
#: same frame moved 10 pixels 0.4, 20 pixels 0.1. Set low: a board refused is a reading lost
BOARD_SEEN = 0.2
#: a frame whose bare cells vary less than this share of the calibrated board's variation is
#: nearly even: a black or white frame, a covered lens
EVEN_FRAME = 0.1


def board_likeness(
    strips: FloatArray, empty: EmptyBoard, hidden: npt.NDArray[np.bool_]
) -> tuple[float, float]:
    """How much the bare cells of ``strips`` (:func:`_column_strips`; those of the point columns
    that ``hidden`` does not mark) look like the empty board of the calibration: the correlation of
    their Lab colours (lightness counted half, each channel less its mean, so a change of light
    scarcely moves it), -1 to 1; and how much those cells vary, as a share of how much the
    calibrated board's vary there (near 0: an even frame)."""
    free = ~hidden[:12]
    if free.sum() < 0.2 * free.size:  # checkers nearly everywhere: judge the whole field
        free = np.ones_like(free)
    weights = np.array([0.5, 1.0, 1.0])
    seen = strips[:12][free] * weights
    board = empty.columns[:12][free] * weights
    seen = seen - seen.mean(axis=0)
    board = board - board.mean(axis=0)
    seen_spread, board_spread = float(np.sum(seen * seen)), float(np.sum(board * board))
    spread = math.sqrt(seen_spread / board_spread) if board_spread > 0 else 0.0
    if seen_spread <= 0 or board_spread <= 0:
        return 0.0, spread
    return float(np.sum(seen * board) / math.sqrt(seen_spread * board_spread)), spread


def _check_board_seen(
    strips: FloatArray, geometry: Field, empty: EmptyBoard, checkers: Sequence[_Round]
) -> None:
    """Raise :class:`~vision.errors.BoardNotFoundError` when the frame does not show the
    calibrated board (:data:`BOARD_SEEN`): its reading would be a board's that is not there."""
    likeness, spread = board_likeness(strips, empty, _checker_cells(geometry, checkers, 1.1))
    if likeness >= BOARD_SEEN:
        return
    if spread < EVEN_FRAME:
        why = "the frame is nearly even (black or white: a covered lens, the light out?)"
    else:
        why = (
            f"the bare board in it looks unlike the calibrated one (likeness {likeness:.2f}, "
            f"{BOARD_SEEN} needed): has the camera moved, or is this another board?"
        )
    raise BoardNotFoundError(f"board could not be located: {why}")


def strange_cells(
    strips: FloatArray,
    geometry: Field,
    empty: EmptyBoard,
    checkers: Sequence[_Round],
    settings: RingSettings,
    dice: Sequence[DieReading] = (),
) -> npt.NDArray[np.bool_]:
    """The cells of ``strips`` (:func:`_column_strips`) that are neither the empty board (in this
    frame's light) nor under one of ``checkers`` or ``dice`` (read, with camera boxes): a hand, a
    sleeve, a checker not made out. Where the bare board shows a pattern (:func:`board_pattern`),
    the pattern tells light from things: where the frame keeps it, only a cell's hue may make it
    strange (its lightness is the light's); where the frame has lost it, a smaller difference
    from the bare board does (:data:`PATTERN_LOST_LEVEL`)."""
    if strips.shape != empty.columns.shape:
        return np.zeros(strips.shape[:3], bool)
    hidden = _checker_cells(geometry, checkers, 1.1)
    for die in dice:  # a die and its shadow: a disc around its box's corners
        x, y, w, h = die.box
        corners = np.array([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], np.float64)
        on_field = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), geometry.homography())
        middle = on_field.reshape(-1, 2).mean(axis=0)
        reach = float(np.linalg.norm(on_field.reshape(-1, 2) - middle, axis=1).max())
        hidden |= _checker_cells(geometry, [_Disc(float(middle[0]), float(middle[1]), reach)], 1.2)
    model = _relit(strips, empty.columns, hidden)
    distance = lab_distance(strips, model)
    # the frame's own noise sets the level, within bounds (a frame with a hand on it must not
    # teach that anything goes): a multiple of the typical bare cell's distance, the median,
    # which a window's glare or a lamp's spot over a fifth of the board does not move
    bare = distance[:12][~hidden[:12]]
    typical = float(np.median(bare)) if bare.size else settings.foreign_colour
    level = min(max(settings.foreign_colour, STRANGE_TIMES * typical), 2 * settings.foreign_colour)
    kept, lost = board_pattern(strips, model, hidden)
    # where the pattern is kept, the light tells the lightness: only the hue may make a cell
    # strange; where it is lost, less of a difference than elsewhere does
    hue = np.linalg.norm(strips[..., 1:] - model[..., 1:], axis=-1)  # Lab's a and b alone
    needed = np.where(lost[..., None], PATTERN_LOST_LEVEL * level, level)
    strange = (np.where(kept, hue, distance) > needed) & ~hidden
    strange[12] = False  # the bar (its edges, the cube on it) says nothing of hands
    return np.asarray(strange, np.bool_)


def board_pattern(
    strips: FloatArray, model: FloatArray, hidden: npt.NDArray[np.bool_]
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Where the bare board (``model``, in this frame's light) has a pattern across a column
    (:data:`PATTERN_CONTRAST`), what the frame (``strips``, :func:`_column_strips`) made of it:
    the cells where it keeps it, their lightness the light's (:data:`PATTERN_KEPT`,
    :data:`PATTERN_FIT`; columns x rows x cells), and the rows of each column where it has lost
    it (:data:`PATTERN_LOST`; columns x rows). Each row is judged from :data:`PATTERN_ROWS` rows
    of the column about it, the cells not ``hidden`` by checkers, by the correlation of the
    frame's lightness with the bare board's there."""
    seen = (~hidden).astype(np.float64)
    frame, board = strips[..., 0].astype(np.float64), model[..., 0].astype(np.float64)
    half, cells = PATTERN_ROWS // 2, strips.shape[2]

    def summed(values: FloatArray) -> FloatArray:
        """The sum over each row's cells, and over PATTERN_ROWS rows about each row."""
        rows = np.pad((values * seen).sum(axis=-1), ((0, 0), (half + 1, half)))
        running = np.cumsum(rows, axis=1)
        return np.asarray(running[:, PATTERN_ROWS:] - running[:, :-PATTERN_ROWS], np.float64)

    count = summed(np.ones_like(frame))
    share = np.maximum(count, 1.0)
    frame_mean, board_mean = summed(frame) / share, summed(board) / share
    frame_var = summed(frame * frame) / share - frame_mean**2
    board_var = summed(board * board) / share - board_mean**2
    together = summed(frame * board) / share - frame_mean * board_mean
    follows = together / np.sqrt(np.maximum(frame_var * board_var, 1e-9))
    patterned = (
        (count >= PATTERN_SEEN * PATTERN_ROWS * cells)
        & (board_var > PATTERN_CONTRAST**2)
        & (frame_mean < PATTERN_BURNT)
    )
    # the light's own change there: the frame's lightness as a line of the bare board's
    slope = together / np.maximum(board_var, 1e-9)
    offset = frame_mean - slope * board_mean
    off_line = np.abs(frame - (slope[..., None] * board + offset[..., None]))
    kept = (patterned & (follows >= PATTERN_KEPT))[..., None] & (off_line <= PATTERN_FIT)
    lost = patterned & (follows < PATTERN_LOST)
    return np.asarray(kept, np.bool_), np.asarray(lost, np.bool_)


def foreign_area(strange: npt.NDArray[np.bool_], geometry: Field, settings: RingSettings) -> float:
    """The largest patch of :func:`strange_cells` that reaches across more than
    ``settings.hand_columns`` point columns, in checker areas. A hand or an arm over the field
    is such a patch, larger than the dice and the cube."""
    strange = strange.copy()
    # a column's sides (where the points' edges and the bar's lie, a pixel off from one frame or
    # board to the next) say nothing of hands
    strange[:, :, 0] = strange[:, :, -1] = False
    # nor does a point's edge drawn a little off the column's (a board's points are not all
    # alike): a line of strange cells one or two wide down the column; a hand is wider
    for index in range(len(strange)):
        column = strange[index].astype(np.uint8)
        strange[index] = cv2.morphologyEx(column, cv2.MORPH_OPEN, np.ones((1, 3), np.uint8)) > 0
    # lay the thirteen columns side by side (the bar in the middle) so a patch spans them
    order = [*range(6), 12, *range(6, 12)]
    side_by_side = np.concatenate([strange[i] for i in order], axis=1).astype(np.uint8)
    wide = np.asarray(
        cv2.dilate(side_by_side, np.ones((1, 5), np.uint8)), np.uint8
    )  # bridge the sides left out
    count, _labels, stats, _ = cv2.connectedComponentsWithStats(wide, connectivity=8)
    cell_area = (geometry.point_width / COLUMN_CELLS) * (geometry.height / strange.shape[1])
    largest = 0.0
    for label in range(1, count):
        # a checker that was not made out, or a stack of them (leaning in the view, with its
        # shadow), lies within about one point's column; a hand reaches across several
        if stats[label, cv2.CC_STAT_WIDTH] > settings.hand_columns * COLUMN_CELLS:
            largest = max(largest, float(stats[label, cv2.CC_STAT_AREA]) * cell_area)
    return float(largest / (math.pi * geometry.radius**2))


#: a cube read lying on the frame beside the field crosses it this many checker radii either side
#: of its middle (its side is 1.1 to 1.5 radii; its shadow, and its sides seen from a tilted camera)
CUBE_REACH = 1.2
#: the frame is looked at in cells this share of a point's width along it
FRAME_CELL = 0.25
#: a cell of the frame this unlike the frame's own colour (Lab distance, lightness counted half)
#: holds something: an arm, a cup, a hand resting there
FRAME_STRANGE = 30.0
#: but not a cell whose colour is the frame's own paled towards white (a window's or a lamp's
#: glare on the frame adds light and takes the frame's colour away in proportion): one within this
#: (Lab, a and b) of the frame's colour faded towards neutral as far as the cell is lighter
FRAME_GLARE = 8.0
#: or edges across the frame this many times stronger than the frame's usual (an arm's sides; a
#: frame's grain and its joints run along it): an arm of the frame's own colour shows so
FRAME_EDGES = 3.0
#: cells between two such cells up to this many apart are held too (an arm's even middle between
#: its sides: one and a half points)
ARM_WIDTH = 6
#: the least run of such cells that can be an arm (a finger's width is about one)
ARM_CELLS = 2
#: how far into the field, as a share of its height, the arm's patch is looked for
ARM_REACH = 0.25
#: an arm over the field crosses the field's edge beside where it crosses the frame: each of the
#: ARM_EDGE_ROWS rows of cells along the edge holds at least ARM_EDGE_CELLS strange cells there
#: (a finger is about four cells wide); a hand resting on the frame, a cup, a hinge leaves the
#: edge as it was
ARM_EDGE_ROWS = 2
ARM_EDGE_CELLS = 3
#: a cell this near a checker set's colour (a share of the two sets' difference; Lab distance,
#: lightness counted half) may be a checker not made out: an arm's patch must hold at least
#: ARM_UNLIKE checker areas of other cells (a sleeve, a hand), or it is checkers, not an arm
CHECKER_LIKE = 0.25
ARM_UNLIKE = 0.5


def frame_rows(geometry: Field) -> list[tuple[int, int]]:
    """The rows of field pixels (first, last + 1) of the frame along the field's top and bottom
    sides (see :data:`FRAME_NEAR`, :data:`FRAME_FAR`), for :meth:`Field.rectify_rows`."""
    height = geometry.height
    near = max(1, round(FRAME_NEAR * height))
    far = max(near + 2, round(FRAME_FAR * height))
    return [(-far, -near), (height + near, height + far)]


def _frame_cells(geometry: Field) -> int:
    """How many cells of about :data:`FRAME_CELL` points the frame along the field is cut into."""
    return max(1, int(geometry.width / (FRAME_CELL * geometry.point_width)))


def _frame_beside(
    bands: Sequence[Image], geometry: Field
) -> list[tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]]:
    """The frame along the field's top and bottom sides (``bands``, rectified at
    :func:`frame_rows`), in cells of :data:`FRAME_CELL` points: for each side, which cells hold
    something that crosses the frame (see :data:`FRAME_STRANGE`, :data:`FRAME_EDGES`,
    :data:`ARM_WIDTH`), never a cell the camera does not see; and which cells it sees."""
    cells = _frame_cells(geometry)
    bounds = (np.arange(cells + 1) * geometry.width / cells).round().astype(int)
    spans = list(itertools.pairwise(bounds))
    sides = []
    for band, (first, last) in zip(bands, frame_rows(geometry), strict=True):
        lab = cv2.cvtColor(band, cv2.COLOR_BGR2LAB).astype(np.float64)
        colours = np.array([lab[:, a:b].reshape(-1, 3).mean(0) for a, b in spans])
        grey = cv2.cvtColor(band, cv2.COLOR_BGR2GRAY).astype(np.float32)
        across = np.abs(cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3))
        edges = np.array([float(across[:, a:b].mean()) for a, b in spans])
        # a cell is seen when its four corners lie inside the camera's view
        corners = np.array(
            [(x, y) for a, b in spans for x in (a, b - 1) for y in (first, last - 1)], np.float64
        )
        camera = geometry.to_camera(corners).reshape(cells, 4, 2)
        seen = np.asarray(
            (camera >= 0).all(axis=(1, 2))
            & (camera < np.asarray(geometry.image_size, np.float64)).all(axis=(1, 2)),
            np.bool_,
        )
        if not seen.any():
            sides.append((np.zeros(cells, bool), seen))
            continue
        frame = np.median(colours[seen], axis=0)
        unlike = (lab_distance(colours, frame) > FRAME_STRANGE) & ~_glare_on(colours, frame)
        edged = edges > FRAME_EDGES * (float(np.median(edges[seen])) + 1.0)
        crossed = (unlike | edged) & seen
        marked = np.flatnonzero(crossed)
        for before, after in itertools.pairwise(marked):
            if after - before <= ARM_WIDTH + 1:
                crossed[before:after] = True
        sides.append((np.asarray(crossed, np.bool_), seen))
    return sides


def _glare_on(colours: FloatArray, surface: FloatArray) -> npt.NDArray[np.bool_]:
    """Which of ``colours`` (Lab, OpenCV's 0..255 scale) are ``surface``'s own colour under a
    glare (:data:`FRAME_GLARE`): lighter, with its chroma faded towards neutral in proportion to
    the lightness added (all the way at white)."""
    added = (colours[:, 0] - surface[0]) / max(255.0 - surface[0], 1.0)
    faded = (surface[1:] - 128.0) * (1.0 - np.clip(added, 0.0, 1.0))[:, None]
    off = np.linalg.norm(colours[:, 1:] - 128.0 - faded, axis=1)
    return np.asarray((added > 0) & (off < FRAME_GLARE), np.bool_)


def unlike_checkers(strips: FloatArray, colours: CheckerColours) -> npt.NDArray[np.bool_]:
    """The cells of ``strips`` (:func:`_column_strips`) whose colour is neither checker set's
    (:data:`CHECKER_LIKE`)."""
    sets = np.array([colours.white, colours.black], np.float64)
    nearest = np.minimum(lab_distance(strips, sets[0]), lab_distance(strips, sets[1]))
    return np.asarray(nearest > CHECKER_LIKE * float(lab_distance(sets[0], sets[1])), np.bool_)


def arm_area(
    bands: Sequence[Image],
    strange: npt.NDArray[np.bool_],
    geometry: Field,
    unlike: npt.NDArray[np.bool_] | None = None,
    cube: tuple[float, float] | None = None,
) -> float:
    """The most of :func:`strange_cells` (checker areas) lying at the field's long side where
    something crosses the frame beside it (``bands``: the frame rectified at :func:`frame_rows`):
    an arm reaching over the field.

    A hand cannot float over the field: its arm crosses the frame on the player's side. A cup, a
    clock or a hand resting on the frame crosses it too, but leaves the field's edge beside it as
    it was; a checker not made out, or a die, is strange inside the field with nothing on the
    frame. Where the camera does not see the frame beside the field (a camera framed tightly on
    the field), what crosses the field's edge there (:func:`_edge_crossed`) stands for what
    crosses the frame. Where ``unlike`` (:func:`unlike_checkers`) is given, a patch counts only when
    :data:`ARM_UNLIKE` checker areas of it have no checker's colour: a stack not made out at a
    point's base beside a cup on the frame, or a light's glare over both, is no arm. One thing
    lies in one place: the frame where ``cube`` (field pixels, beyond the field's top or bottom
    edge) was read lying on it, within :data:`CUBE_REACH` radii either side, is crossed by the
    cube, not by an arm."""
    rows = strange.shape[1]
    reach = max(1, round(ARM_REACH * rows))
    cell = geometry.width / _frame_cells(geometry)
    edges = _column_edges(geometry)[:12]  # the points' columns (the bar's cells are never strange)
    cell_area = (geometry.point_width / COLUMN_CELLS) * (geometry.height / rows)
    best = 0.0
    along_edges = (slice(0, ARM_EDGE_ROWS), slice(rows - ARM_EDGE_ROWS, rows))
    # where the camera does not see the frame (framed tightly on the field), nothing can be seen
    # crossing it: there an arm is known by where it crosses the field's edge instead
    sides = []
    for (crossed, seen), edge in zip(_frame_beside(bands, geometry), along_edges, strict=True):
        if not seen.all():
            crossed = crossed | (~seen & _edge_crossed(strange, geometry, edge))
        sides.append(crossed)
    if cube is not None and not 0 <= cube[1] <= geometry.height:
        middles = (np.arange(len(sides[0])) + 0.5) * cell
        on_cube = np.abs(middles - cube[0]) <= CUBE_REACH * geometry.radius
        side = 0 if cube[1] < 0 else 1
        sides[side] = sides[side] & ~on_cube
    sided = zip(sides, (slice(0, reach), slice(rows - reach, rows)), along_edges, strict=True)
    for crossed, inside, edge in sided:
        runs = np.flatnonzero(np.diff(np.concatenate([[0], crossed.astype(int), [0]])))
        for start, stop in runs.reshape(-1, 2):
            if stop - start < ARM_CELLS:
                continue
            left, right = (start - 1) * cell, (stop + 1) * cell  # and the cell either side
            count = other = 0
            across = np.zeros(ARM_EDGE_ROWS, int)  # strange cells in each row at the edge
            for index, (column_left, column_right) in enumerate(edges):
                xs = _cell_middles(column_left, column_right)
                beside = (xs >= left) & (xs <= right)
                patch = strange[index, inside][:, beside]
                count += int(patch.sum())
                across += strange[index, edge][:, beside].sum(axis=1)
                if unlike is not None:
                    other += int((patch & unlike[index, inside][:, beside]).sum())
            if across.min() < ARM_EDGE_CELLS:
                continue  # nothing crosses the field's edge there: a hand resting on the frame
            if unlike is None or other * cell_area >= ARM_UNLIKE * math.pi * geometry.radius**2:
                best = max(best, count * cell_area)
    return float(best / (math.pi * geometry.radius**2))


def _edge_crossed(
    strange: npt.NDArray[np.bool_], geometry: Field, edge: slice
) -> npt.NDArray[np.bool_]:
    """For each cell of the frame along one of the field's long sides (:func:`_frame_cells`),
    whether every row of ``edge`` (the rows of :func:`strange_cells` along that side) holds a
    strange cell beside it: something lies across the field's edge there."""
    cells = _frame_cells(geometry)
    cell = geometry.width / cells
    along = strange[:, edge]
    hit = np.zeros((along.shape[1], cells), bool)
    for index, (left, right) in enumerate(_column_edges(geometry)[:12]):
        beside = np.clip((_cell_middles(left, right) // cell).astype(int), 0, cells - 1)
        row, column = np.nonzero(along[index])
        hit[row, beside[column]] = True
    return np.asarray(hit.all(axis=0), np.bool_)


def read_field(
    image: Image,
    calibration: FieldCalibration,
    settings: RingSettings | None = None,
    *,
    frame: int = 0,
    time: float = 0.0,
) -> Observation:
    """One frame's checkers, dice and cube (:mod:`vision.cube`) as an Observation. Where the
    calibration says stacks may stand (``standing``, Shesh Besh), a stack standing at a point's
    base counts as one checker, as the camera sees it (:func:`vision.field_reader.find_checkers`).

    Raises :class:`~vision.errors.BoardNotFoundError` when the frame does not show the calibrated
    board (:func:`board_likeness`): a black frame, a covered lens, a camera that has moved."""
    standing = calibration.standing
    settings = settings or RingSettings()
    # the field, and the frame beside it where the hand test will look (it needs the empty
    # board), from one shrink of a large frame
    field = calibration.field
    beside = frame_rows(field) if calibration.empty is not None else []
    top, *bands = field.rectify_rows(image, [(0, field.height), *beside])
    lab = field_lab(top)
    vouch = _voucher(lab, calibration)
    evidence = find_checkers(
        top,
        calibration.field,
        settings,
        vouch,
        standing,
        _stacker(lab, calibration) if standing else None,
    )
    if not standing:
        recount_stacks(top, field, evidence, settings, vouch)
    strips = None if calibration.empty is None else _column_strips(top, field)
    if strips is not None and calibration.empty is not None:
        _check_board_seen(strips, field, calibration.empty, _all_checkers(evidence))
    checkers = [(c.x, c.y, c.radius) for c in _all_checkers(evidence)]
    # a checker on the bar with a checker's rim is no blank cube (an emblem) in the bar's middle
    rounded = [c for c in evidence.checkers.get("bar", []) if _rim_is_round(top, c)]
    found = locate_field_cube(
        image, calibration.field, checkers, [(c.x, c.y, c.radius) for c in rounded]
    )
    cube = None if found is None else found.reading
    # the referee acts on a cube it sees turned or moved (an offer, a take, a pass): a face read
    # doubtfully is reported as no cube seen; a centred 64 (the emblem) starts nothing
    if (
        cube is not None
        and cube.confidence < CUBE_SURE
        and (cube.value, cube.place) != (64, "middle")
    ):
        cube = None
    if found is not None and cube is not None:
        evidence.checkers["bar"] = _not_the_cube(evidence.checkers.get("bar", []), found, rounded)
    if evidence.faint_bar:
        evidence.checkers["bar"] = _with_faint_bar(evidence, found)
    # a row's last checker (a point's only one) ringing less than clearly may be a die lying
    # at the row's end (not a stack standing at a point's base, told by its colour, not its ring)
    ends = [_row_end(field, location, row) for location, row in evidence.checkers.items()]
    doubtful = [
        end
        for location, end in zip(evidence.checkers, ends, strict=True)
        if end is not None and location not in standing and end.score < settings.clear
    ]
    dice = field_dice(top, field, evidence, calibration.empty, strips=strips, doubtful=doubtful)
    displaced = {id(c) for c in dice.displaced}
    for location, row in evidence.checkers.items():
        evidence.checkers[location] = [c for c in row if id(c) not in displaced]
    light = None
    if strips is not None and calibration.empty is not None:
        light = _local_light(_all_checkers(evidence), strips, calibration.empty, field)
    observation = _observation(evidence, calibration, settings, frame=frame, time=time, light=light)
    observation = replace(observation, dice=dice.roll, cube=cube)
    if calibration.empty is not None and strips is not None:
        # every checker counted hides the board (a stack leaning in the view whose rims do not
        # ring true is still a stack), and so does a stack standing at a point's base, whether or
        # not its colour told it; and so do the dice, those of the roll and the faces set aside
        # (die-sized), and a bare point's base that rang like a lone checker; a hand is told by
        # its size, or by the arm it reaches with
        hiding: list[_Round] = [
            *_all_checkers(evidence),
            *evidence.bases,
            *_stack_bases(field, standing),
        ]
        seen_dice = (*dice.roll, *dice.aside)
        strange = strange_cells(strips, field, calibration.empty, hiding, settings, seen_dice)
        unlike = unlike_checkers(strips, calibration.colours)
        laid = {id(c) for location in evidence.laid for c in evidence.checkers.get(location, [])}
        if laid:
            # a stack only the counter saw hides the board only where the board there has a
            # checker's colour: a hand or a sleeve over a point may pass for a stack
            rings = [c for c in hiding if id(c) not in laid]
            open_ = strange_cells(strips, field, calibration.empty, rings, settings, seen_dice)
            under = _checker_cells(field, [c for c in hiding if id(c) in laid], 1.1)
            strange |= open_ & under & unlike
        foreign = foreign_area(strange, calibration.field, settings)
        arm = arm_area(
            bands,
            strange,
            field,
            unlike,
            None if found is None or not found.numbered else (found.x, found.y),
        )
        extra = {**observation.extra, "foreign": foreign, "arm": arm}
        observation = replace(observation, extra=extra)
        if foreign >= settings.hand_area or arm >= settings.arm_area:
            observation = replace(observation, state="occluded")
    return observation


def watch_field(
    image: Image, calibration: FieldCalibration, *, frame: int = 0, time: float = 0.0
) -> Observation:
    """:func:`read_field` for a table that keeps watching: a frame that does not show the
    calibrated board (the light out, the lens covered, the camera knocked) is an ``occluded``
    observation, with no locations and the reason as ``extra["unseen"]``, not an error; the
    referee waits for the board as it waits for a hand to leave it."""
    try:
        return read_field(image, calibration, frame=frame, time=time)
    except BoardNotFoundError as error:
        return Observation(
            locations={}, state="occluded", frame=frame, time=time, extra={"unseen": str(error)}
        )


def _not_the_cube(
    bar: Sequence[Checker], cube: FieldCube, rounded: Sequence[Checker]
) -> list[Checker]:
    """The bar's checkers less the one the cube was read at: one thing lies in one place.

    The checker finder may take the cube for a checker (its rounded corners ring a little, a
    cube seen from above at an angle nearly all round); the cube reader may take a checker for a
    cube with an emblem (something in the bar's middle with no number on it). Where both saw one
    thing and a number was read on its face, it is the cube (no checker bears one); where none
    was, it is a checker if it is one of ``rounded``, the bar's checkers whose rim is a
    checker's (:func:`_rim_is_round`), else the cube.
    """
    return [
        checker
        for checker in bar
        if math.hypot(checker.x - cube.x, checker.y - cube.y) > checker.radius
        or (not cube.numbered and any(checker is round_one for round_one in rounded))
    ]


def _with_faint_bar(evidence: FieldEvidence, cube: FieldCube | None) -> list[Checker]:
    """The bar's checkers with its faint ones (:func:`vision.field_reader._bar_checkers`) that
    lie neither on the cube, wherever it was seen (read or not), nor on a checker kept."""
    kept = list(evidence.checkers.get("bar", []))
    for checker in evidence.faint_bar:
        # within a radius and a half of the cube's middle, a checker would lie under or over it
        # (a cube beside one lies a radius and half its side, 0.65 radii, away)
        if cube is not None and math.hypot(checker.x - cube.x, checker.y - cube.y) <= (
            1.5 * checker.radius
        ):
            continue
        if all(abs(checker.y - other.y) >= BAR_APART * checker.radius for other in kept):
            kept.append(checker)
    return sorted(kept, key=lambda c: c.y)


def _rim_is_round(top: Image, checker: Checker) -> bool:
    """Whether a checker found in ``top`` has a checker's rim, not a cube's: at one radius all
    round (:data:`CHECKER_RIM`) or with no square's corners in it (:data:`CHECKER_ROUND`)."""
    radius = checker.radius
    reach = round(1.6 * radius)
    x0, y0 = max(0, round(checker.x) - reach), max(0, round(checker.y) - reach)
    x1, y1 = round(checker.x) + reach + 1, round(checker.y) + reach + 1
    around = Gradients(top[y0:y1, x0:x1])
    x, y = checker.x - x0, checker.y - y0
    return (
        around.rim_share(x, y, radius) >= CHECKER_RIM
        or around.roundness(x, y, radius) <= CHECKER_ROUND
    )


#: how sure the die-face model must be (its softmax share, each crop read in its eight turns and
#: mirror images) to add a die no pips were read for; chosen on the photoreal tuning split (see
#: scripts/train_dice_model.py). Its word on faces read from pips: :func:`vision.dice_model.judge_faces`
MODEL_ADD = 0.8
#: how sure of a face the model must be, a crop read once, for its place to be read every way
SHORTLIST = 0.7
#: a die's side, in checker radii (16 mm beside a checker of 36-40 mm)
DIE_SIDE = 0.9
#: the least distance between two dice's middles, in die sides (a little under touching)
DIE_GAP = 0.8
#: a face's side as the pip reader judges it, in die sides, at least and at most: a one's is
#: judged from its pip; seen from a camera tilted up to 25 degrees a die shows a side face too,
#: and the box of the pips read reaches over its pips as well
FACE_SIZES = (0.68, 1.8)


class FieldDice(NamedTuple):
    """What :func:`field_dice` found: the ``roll`` (the dice lying flat) and the faces read
    from pips that the die-face model set ``aside`` (a die leaning on a checker, a mark of the
    board: something die-sized, never a hand), boxes in camera pixels."""

    roll: tuple[DieReading, ...]
    aside: tuple[DieReading, ...]
    #: the doubtful checkers (see :func:`field_dice`) a die of the roll lies on: dice, not checkers
    displaced: tuple[Checker, ...] = ()


def field_dice(
    top: Image,
    geometry: Field,
    evidence: FieldEvidence,
    empty: EmptyBoard | None = None,
    *,
    learned: bool = True,
    strips: FloatArray | None = None,
    doubtful: Sequence[Checker] = (),
) -> FieldDice:
    """The dice lying flat on the field (the roll), boxes in camera pixels, each with the half of
    the board (``left`` or ``right`` of the bar, from White's seat) it lies in; and the faces set
    aside (see :class:`FieldDice`).

    Pips are looked for away from the checkers and off the bar (a die there is no roll: it is
    thrown again; the cube rests there, its digits pip-like), over the field (with the empty
    board known, ``empty`` from calibration: only where something compact lies on the bare
    board) and, with the empty board known and fewer than two dice read, once more around
    each die-sized patch that differs from the bare board (a die's body) where no die was read
    yet, in a region of its own (so its pips are measured against that die's face alone). Of the
    faces so found only these are dice:

    - of a die's size: a die is a little under half a checker across (16 mm beside 36-40 mm);
      a speck taken for a one's pip is far smaller than a one's pip;
    - not over a checker's rim: a flat die's middle lies half its side from any checker it
      touches (closer, the "face" is a checker's edge or a die leaning on one);
    - on something that is not the bare board: pips read in the grain of wood, the weave of felt
      or a printed word have the board itself around them.

    A roll is two dice: when more faces remain, the two that stand out most from the board are
    kept (the others are the board's own marks that came closest to passing for dice), unless the
    die-face model has read them (below).

    With ``learned`` (the default) the die-face model of :mod:`vision.dice_model` has its say
    too. Of each face read from pips it keeps only one it takes for a flat die's face (not for a
    board's mark, nor for a die leaning on a checker), and takes its own count
    where it is sure of another. Where fewer than two places then hold a die, it reads every
    place where something compact lies on the bare board (the pips of small, blurred dice are
    often too faint to make out one by one, the face as a whole is not); the places it is fairly
    sure of are read again in their eight turns and mirror images, and kept when the mean of
    those readings is sure of a face. Its own readings are the mean of the eight views as well.
    Where more than two places hold a face, the roll is the two the model is surest hold a flat
    die's face (the sum of its shares for the six counts), then those standing out most.

    ``doubtful`` checkers (a row's last checker, ringing less than clearly) may be a die
    taken for a checker: one thing lies in one place, and a die's face there, read as any other,
    tells it. Dice are looked for over them too, and a die whose middle lies within
    :data:`ON_PLACE` radii of one's middle is not held to lie off its rim; those a die of the
    roll lies on are the ``displaced`` of the result.

    ``strips`` is :func:`_column_strips` of ``top`` when the caller has it already.
    """
    # imported here: the model's weights load only when a board's dice are first read
    from vision.dice_model import (
        CROP_PER_SIDE,
        FaceGuess,
        classify_crops,
        cut_square,
        judged_faces,
    )

    radius = geometry.radius
    side = DIE_SIDE * radius  # a die's side, field pixels
    least_rim = 0.2 * radius
    # Lab distance (lightness counted half) from the bare board: the least a die's body may
    # have, in median; and what marks a pixel as part of something on the board
    least_contrast = 8.0
    height, width = top.shape[:2]
    checkers = _all_checkers(evidence)
    unsure = {id(c) for c in doubtful}
    mask = np.full((height, width), 255, np.uint8)
    for c in checkers:
        if id(c) not in unsure:
            cv2.circle(mask, (round(c.x), round(c.y)), round(c.radius * 1.08), 0, -1)
    mask[:, max(0, math.floor(geometry.bar[0])) : math.ceil(geometry.bar[1]) + 1] = 0
    contrast: npt.NDArray[np.float32] | None = None
    if strips is None and empty is not None:
        strips = _column_strips(top, geometry)
    if empty is not None and strips is not None and strips.shape == empty.columns.shape:
        model = _relit(strips, empty.columns, _checker_cells(geometry, checkers, 1.1))
        board = np.zeros((height, width, 3), np.float32)
        for index, (left, right) in enumerate(_column_edges(geometry)):
            x0 = max(0, round(left))
            x1 = min(width, max(round(right), round(left) + 1))
            board[:, x0:x1] = cv2.resize(
                model[index].astype(np.float32), (x1 - x0, height), interpolation=cv2.INTER_LINEAR
            )
        lab = cv2.cvtColor(top, cv2.COLOR_BGR2LAB).astype(np.float32)
        # _distance's measure, in OpenCV's calls (three times as fast on a whole field)
        difference = cv2.subtract(lab, board)
        squares = cv2.transform(
            cv2.multiply(difference, difference), np.array([[0.25, 1.0, 1.0]], np.float32)
        )
        contrast = np.asarray(cv2.blur(cv2.sqrt(squares), (3, 3)), np.float32)

    def judged(die: DieReading) -> float | None:
        """How far the die's body stands out from the bare board (inf when the board is not
        known), or None when the face is no die's."""
        x, y, w, h = die.box
        cx, cy = x + w / 2, y + h / 2
        if not FACE_SIZES[0] <= w / side <= FACE_SIZES[1]:
            return None
        rim = min(
            (
                math.hypot(c.x - cx, c.y - cy) - c.radius
                for c in checkers
                if id(c) not in unsure or not _lies_on(cx, cy, c)
            ),
            default=math.inf,
        )
        if rim < least_rim:
            return None
        if contrast is None:
            return math.inf
        x0, y0 = max(0, round(cx - side / 2)), max(0, round(cy - side / 2))
        patch = contrast[y0 : round(cy + side / 2), x0 : round(cx + side / 2)]
        standing = float(np.median(patch)) if patch.size else 0.0
        return standing if standing >= least_contrast else None

    def centre(die: DieReading) -> tuple[float, float]:
        x, y, w, h = die.box
        return x + w / 2, y + h / 2

    def middle(die: DieReading) -> tuple[int, int]:
        x, y = centre(die)
        return min(height - 1, round(y)), min(width - 1, round(x))

    def one_per_place(
        found: list[tuple[bool, float, DieReading]],
    ) -> list[tuple[float, DieReading]]:
        """One reading per place (two dice's middles lie at least DIE_GAP sides apart): a
        body's own first, then the one standing out most."""
        ordered = sorted(found, key=lambda item: (not item[0], -item[1], -item[2].confidence))
        placed: list[tuple[float, DieReading]] = []
        for _from_body, standing, die in ordered:
            y, x = middle(die)
            if all(
                math.hypot(x - o[1], y - o[0]) >= DIE_GAP * side
                for o in map(middle, (d for _s, d in placed))
            ):
                placed.append((standing, die))
        return placed

    # (read in a body's own region, standing out, reading)
    found: list[tuple[bool, float, DieReading]] = []
    somewhere = mask
    if contrast is not None:  # pips only where something lies on the board (or its rim)
        reach = max(3, round(0.3 * radius) | 1)
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach))
        # opened first: a point's edge a pixel off, a speck of grain is not a die's body
        near = cv2.morphologyEx((contrast >= least_contrast).astype(np.uint8), cv2.MORPH_OPEN, disc)
        near = cv2.dilate(near, disc)
        somewhere = np.where(near > 0, mask, 0).astype(np.uint8)
    for die in read_dice(top, mask=somewhere, die_side=side):
        standing = judged(die)
        if standing is not None:
            found.append((False, standing, die))
    # a roll is two dice: with two read already there is nothing more to look for
    if contrast is not None and empty is not None and len(one_per_place(found)) < 2:
        body_contrast = max(14.0, 1.2 * empty.level)
        reach = max(3, round(0.3 * radius) | 1)  # thinner than this: a point's edge, a letter
        bodies = np.asarray(
            cv2.morphologyEx(
                ((contrast > body_contrast) & (mask > 0)).astype(np.uint8),
                cv2.MORPH_OPEN,
                cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach)),
            ),
            np.uint8,
        )
        count, labels, stats, centres = cv2.connectedComponentsWithStats(bodies)
        read = {int(labels[middle(die)]) for _b, _s, die in found}
        for label in range(1, count):
            _x, _y, w, h, area = (int(v) for v in stats[label])
            # a die with its shadow, or two touching, and no more; a compact patch (a checker's
            # shadow is a thin crescent, the light along a point's edge a streak)
            if not 0.3 * radius**2 <= area <= 5 * radius**2 or max(w, h) > 3 * radius:
                continue
            if area < 0.45 * w * h or max(w, h) > 2.5 * min(w, h):
                continue
            if label in read:
                continue
            cx, cy = centres[label]
            x0, y0 = max(0, round(cx - radius)), max(0, round(cy - radius))
            x1, y1 = min(width, round(cx + radius)), min(height, round(cy + radius))
            if x1 - x0 < 8 or y1 - y0 < 8:
                continue
            for die in read_dice(top, region=(x0, y0, x1 - x0, y1 - y0), mask=mask, die_side=side):
                standing = judged(die)
                if standing is not None and labels[middle(die)] == label:
                    found.append((True, standing, die))
    grey = np.asarray(cv2.cvtColor(top, cv2.COLOR_BGR2GRAY), np.uint8)  # cut once, read often

    def guesses_at(spots: list[tuple[float, float]], *, every_way: bool = False) -> list[FaceGuess]:
        return classify_crops(
            np.stack([cut_square(grey, spot, CROP_PER_SIDE * side) for spot in spots]),
            every_way=every_way,
        )

    aside: list[DieReading] = []
    sure_of: dict[int, float] = {}  # how sure the model is that a reading's place holds a face
    if learned and found:  # the model's word on each face
        # a face is kept where the model takes it for a flat die's: a board's mark or a die
        # leaning on a checker, read from "pips", is not
        verdicts = judged_faces(grey, [d for _b, _s, d in found], [(side,)] * len(found))
        kept: list[tuple[bool, float, DieReading]] = []
        for (body, standing, die), (verdict, guess) in zip(found, verdicts, strict=True):
            if verdict is None:
                aside.append(die)
            else:
                kept.append((body, standing, verdict))
                sure_of[id(verdict)] = guess.face_probability
        found = kept
    if learned and contrast is not None and len(one_per_place(found)) < 2:
        # fewer than two dice made out from their pips: the model reads every place where
        # something compact lies on the board, half a die apart, and again a quarter of a die
        # about each place it thinks may hold a flat die's face (a leaning die is not added, so
        # a place it takes for one is not looked at again); best guesses first
        step = max(2.0, 0.5 * side)
        grid_y, grid_x = np.mgrid[step / 2 : height : step, step / 2 : width : step]
        keep = somewhere[grid_y.astype(int), grid_x.astype(int)] > 0
        taken = [centre(d) for _b, _s, d in found]
        spots = [
            (float(x), float(y))
            for x, y in zip(grid_x[keep], grid_y[keep], strict=True)
            if all(math.hypot(x - t[0], y - t[1]) > 0.9 * side for t in taken)
        ]
        guesses = guesses_at(spots) if spots else []
        near_dice = [spots[k] for k, g in enumerate(guesses) if g.face_probability >= 0.5]
        finer = [
            (x + dx * side, y + dy * side)
            for x, y in near_dice
            for dx in (-0.25, 0.0, 0.25)
            for dy in (-0.25, 0.0, 0.25)
            if (dx, dy) != (0.0, 0.0) and 0 <= x + dx * side < width and 0 <= y + dy * side < height
        ]
        if finer:
            spots += finer
            guesses += guesses_at(finer)
        # a leaning die is not added: the model's "cocked" was not sure enough on the tuning split;
        # a face it is fairly sure of is read again every way, and kept when still sure
        shortlist = [
            k for k, g in enumerate(guesses) if 1 <= g.label <= 6 and g.probability >= SHORTLIST
        ]
        if shortlist:
            again = guesses_at([spots[k] for k in shortlist], every_way=True)
            for k, guess in zip(shortlist, again, strict=True):
                guesses[k] = guess
        sure = [
            k
            for k in shortlist
            if 1 <= guesses[k].label <= 6 and guesses[k].probability >= MODEL_ADD
        ]
        for k in sorted(sure, key=lambda k: -guesses[k].probability):
            x, y = spots[k]
            if any(math.hypot(x - t[0], y - t[1]) < 0.9 * side for t in taken):
                continue
            box = (round(x - side / 2), round(y - side / 2), round(side), round(side))
            die = DieReading(guesses[k].label, round(guesses[k].probability, 4), box)
            standing = judged(die)
            if standing is not None:
                found.append((True, standing, die))
                sure_of[id(die)] = guesses[k].face_probability
                taken.append((x, y))
    placed = one_per_place(found)
    # the two the model is surest of (where it has read them), then those standing out most
    placed.sort(key=lambda item: (-sure_of.get(id(item[1]), 0.0), -item[0], -item[1].confidence))
    bar_middle = (geometry.bar[0] + geometry.bar[1]) / 2

    def in_camera(die: DieReading) -> DieReading:
        x, y, w, h = die.box
        corners = np.array([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], np.float64)
        seen = geometry.to_camera(corners)
        (x0, y0), (x1, y1) = seen.min(axis=0), seen.max(axis=0)
        box = (int(x0), int(y0), math.ceil(x1 - x0), math.ceil(y1 - y0))
        half = "left" if x + w / 2 < bar_middle else "right"
        return replace(die, box=box, half=half)

    readings = sorted(
        (in_camera(die) for _s, die in placed[:2]), key=lambda d: (d.box[0], d.box[1])
    )
    displaced = tuple(
        d for d in doubtful if any(_lies_on(*centre(die), d) for _s, die in placed[:2])
    )
    return FieldDice(tuple(readings), tuple(in_camera(die) for die in aside), displaced)


def _row_end(geometry: Field, location: str, row: Sequence[Checker]) -> Checker | None:
    """The checker of a point's ``row`` farthest from the point's base (None on the bar, or
    where the row is empty)."""
    if location == "bar" or not row:
        return None
    _left, _right, base, direction = geometry.column(location)
    return max(row, key=lambda c: direction * (c.y - base))


#: a die's middle this near a checker's middle (in its radii) lies on its place: the two are one
ON_PLACE = 0.5


def _lies_on(x: float, y: float, checker: Checker) -> bool:
    """Whether (x, y) lies on ``checker``'s place (:data:`ON_PLACE`)."""
    return math.hypot(x - checker.x, y - checker.y) <= ON_PLACE * checker.radius


def field_lab(top: Image) -> FloatArray:
    """A rectified field in Lab (8-bit scale, as floats): what colour is judged on."""
    return np.asarray(cv2.cvtColor(top, cv2.COLOR_BGR2LAB), np.float64)


def _voucher(
    lab: FloatArray, calibration: FieldCalibration
) -> Callable[[float, float, float], bool | None]:
    """Whether a disc's colour is nearer a checker set's than the empty board's at that place:
    True or False, or None where colour cannot tell: the bare board there has a checker set's
    own colour, or the disc is unlike the bare board yet nearer it than any set by less than
    :data:`BOARD_LIKE`. ``lab``: the rectified field (:func:`field_lab`)."""
    sets = np.array([calibration.colours.white, calibration.colours.black])
    empty = calibration.empty

    def vouch(x: float, y: float, radius: float) -> bool | None:
        disc = _disc_middle(lab, x, y, radius)
        if disc is None:
            return False
        to_set = float(lab_distance(disc, sets).min())
        board = None if empty is None else empty.colour_at(calibration.field, x, y)
        if empty is not None and not empty.seen_at(calibration.field, x, y):
            return None  # the bare board there was never seen: colour cannot tell
        if board is None or empty is None:
            return to_set < 0.35 * calibration.colours.separation
        to_board = float(lab_distance(disc, board))
        # something other than the bare board lies there, and it is nearer a checker than it
        if to_board > BOARD_LIKE and to_set < to_board:
            return True
        # a checker set of the board's own colour there (white checkers on cream points, black
        # on black): a checker's colour is the bare board's, so colour says nothing either way
        if float(lab_distance(board, sets).min()) < COLOURLESS * BOARD_LIKE:
            return None
        # unlike the bare board, yet nearer it than any set by less than the noise: a checker
        # of a colour near the board's (red on a red point) in a shade the board does not have
        if to_board > BOARD_LIKE and to_set < to_board + BOARD_LIKE:
            return None
        return False

    return vouch


def _disc_middle(lab: FloatArray, x: float, y: float, radius: float) -> FloatArray | None:
    """The median colour of the middle of a disc at (x, y) (a square of half a radius either
    side) in the rectified field's ``lab``; None where that lies off the field."""
    r = max(2, round(radius * 0.5))
    xi, yi = round(x), round(y)
    patch = lab[max(yi - r, 0) : yi + r + 1, max(xi - r, 0) : xi + r + 1].reshape(-1, 3)
    return np.median(patch, axis=0) if patch.size else None


#: Arabic Shesh Besh's stacks stand on each side's points 1 to 6 (White's p1..p6, Black's
#: p24..p19), and its checkers never leave them: a point there holds its side's checkers only
SHESH_BESH_STACKS: Mapping[str, str] = MappingProxyType(
    {f"p{n}": "white" for n in range(1, 7)} | {f"p{n}": "black" for n in range(19, 25)}
)
#: a side's stack stands at a point's base where this share of the base shows the side's colour
STACK_SHARE = 0.35


def _stack_base(
    lab: FloatArray,
    geometry: Field,
    empty: EmptyBoard | None,
    centre_x: float,
    base: float,
    direction: int,
    radius: float | None = None,
) -> tuple[FloatArray, FloatArray | None]:
    """Where a stack standing at a point's base shows (from a tenth of a radius to one and a
    half radii from the base, 0.7 radii either side of the point's middle): its pixels (Lab, N x
    3, ``lab`` being the rectified field) and the bare board's colour there (None where the bare
    board is not known). ``radius``: a checker's, the field's unless given."""
    radius = geometry.radius if radius is None else radius
    near, far = sorted((base + direction * 0.1 * radius, base + direction * 1.5 * radius))
    rows = slice(max(0, round(near)), max(0, round(far)))
    columns = slice(max(0, round(centre_x - 0.7 * radius)), round(centre_x + 0.7 * radius))
    board = None if empty is None else empty.colour_at(geometry, centre_x, (near + far) / 2)
    return lab[rows, columns].reshape(-1, 3), board


def _stacker(lab: FloatArray, calibration: FieldCalibration) -> Stand:
    """Whether a side's stack stands at a point's base (see :data:`STACK_SHARE`): the base's
    pixels nearer that side's colour than the other side's and the bare board's there, and unlike
    the bare board (on a point of the side's own colour, only a stack's edges and shading are).
    ``lab``: the rectified field (:func:`field_lab`)."""
    sets = {
        "white": np.array(calibration.colours.white),
        "black": np.array(calibration.colours.black),
    }
    field, empty = calibration.field, calibration.empty

    def stand(
        centre_x: float, base: float, direction: int, radius: float, side: str
    ) -> tuple[float, float, float] | None:
        patch, board = _stack_base(lab, field, empty, centre_x, base, direction, radius)
        own, other = sets[side], sets["black" if side == "white" else "white"]
        if not len(patch) or board is None:
            return None
        to_own, to_board = lab_distance(patch, own), lab_distance(patch, board)
        like = (to_own < to_board) & (to_own < lab_distance(patch, other)) & (to_board > BOARD_LIKE)
        if float(np.mean(like)) < STACK_SHARE:
            return None
        lightness, a, b = np.median(patch[like], axis=0)
        return float(lightness), float(a), float(b)

    return stand


#: the bare board around a checker, from and to these many radii from its middle, tells the light
#: it lies in (nearer, its own shadow and rim; further, another part of the board's light)
LIGHT_AROUND = (1.2, 2.2)


def _local_light(
    checkers: Sequence[Checker], strips: FloatArray, empty: EmptyBoard, geometry: Field
) -> list[float]:
    """For each checker, how much light it lies in against the empty board's picture: the bare
    board's lightness around it (:data:`LIGHT_AROUND`, where no checker hides it) as a share of
    the picture's there; 1 where too little bare board shows."""
    inner, outer = LIGHT_AROUND
    rows = strips.shape[1]
    hidden = _checker_cells(geometry, checkers, 1.1)[:12]
    ys = (np.arange(rows) + 0.5) * geometry.height / rows
    xs = np.stack([_cell_middles(left, right) for left, right in _column_edges(geometry)[:12]])
    seen, model = strips[:12, ..., 0], empty.columns[:12, ..., 0]
    gains = []
    for c in checkers:
        apart = (xs[:, None, :] - c.x) ** 2 + (ys[None, :, None] - c.y) ** 2
        ring = (apart >= (inner * c.radius) ** 2) & (apart <= (outer * c.radius) ** 2) & ~hidden
        if ring.sum() < 8:
            gains.append(1.0)
            continue
        gain = float(np.median(seen[ring]) / max(1.0, float(np.median(model[ring]))))
        gains.append(min(max(gain, 0.5), 2.0))
    return gains


def _observation(
    evidence: FieldEvidence,
    calibration: FieldCalibration,
    settings: RingSettings,
    *,
    frame: int,
    time: float,
    light: Sequence[float] | None = None,
) -> Observation:
    every = _all_checkers(evidence)
    judged = every
    if light is not None:
        # each checker's lightness as if it lay in the board's even light (a lamp's pool
        # lightens a dark checker towards the light set; a shadow darkens a light one)
        judged = [
            replace(c, lab=(c.lab[0] / gain, c.lab[1], c.lab[2]))
            for c, gain in zip(every, light, strict=True)
        ]
    whites, sures = classify(judged, calibration.colours)
    colour_of = {id(c): (w, s) for c, w, s in zip(every, whites, sures, strict=True)}

    def say(c: Checker) -> float:
        """A checker's word for White (> 0) or Black (< 0): as sure as its colour is and as
        clearly as its rim rings."""
        white, sure = colour_of[id(c)]
        return (1 if white else -1) * (sure - 0.5) * max(c.score, 0.1)

    # a point holds one side's checkers only: the row's colour is voted by all of them; each
    # checker on the bar has its own
    rows = {location: evidence.checkers.get(location, []) for location in POINT_LOCATIONS}
    bar = evidence.checkers.get("bar", [])
    units = [(location, row, sum(map(say, row))) for location, row in rows.items() if row]
    units += [("bar", [c], say(c)) for c in bar]
    unlike = _unlike_their_set(every, [colour_of[id(c)][0] for c in every])
    # a point that only its own side's checkers ever reach (Shesh Besh's home points) is that
    # side's, whatever its checkers' colour looks like (a glossy top, a stack's dark edges)
    owners = calibration.standing
    units = [
        (
            location,
            row,
            math.copysign(max(abs(vote), 1.0), 1 if owners[location] == "white" else -1),
        )
        if location in owners
        else (location, row, vote)
        for location, row, vote in units
    ]
    flipped = _fifteen_a_side(
        [
            (
                len(row),
                vote,
                0.0 if location in owners else float(np.median([unlike[id(c)] for c in row])),
            )
            for location, row, vote in units
        ]
    )
    white_of: dict[int, bool] = {}  # id of each checker -> counted as White
    for index, (_location, row, vote) in enumerate(units):
        for c in row:
            white_of[id(c)] = (vote > 0) != (index in flipped)
    # a side still seen with more than fifteen has checkers seen that are not there: the least
    # sure go, and where they went the count is as unsure as can be
    seen_rows, seen_bar = rows, bar
    for side in (True, False):
        mine = {key for key, white in white_of.items() if white == side}
        rows, bar = _beyond_fifteen(rows, bar, mine, {*evidence.counted, *evidence.agreed})
    trimmed = {location for location, row in rows.items() if len(row) < len(seen_rows[location])}
    kept = {id(c) for c in (*bar, *(c for row in rows.values() for c in row))}
    every = [c for c in every if id(c) in kept]

    def sure_of(c: Checker) -> float:
        # a checker counted against its colour (the colour of the row, or fifteen a side) is
        # as unsure as can be
        white, sure = colour_of[id(c)]
        return sure if white == white_of[id(c)] else 0.5

    counts: dict[str, LocationCount] = {}
    seen = {"white": 0, "black": 0}
    for location, row in rows.items():
        white = sum(1 for c in row if white_of[id(c)])
        black = len(row) - white
        seen["white"] += white
        seen["black"] += black
        ring = min([c.score for c in row] or [1.0])
        presence = evidence.counted.get(location) or min(
            ring_confidence(ring, settings.present),
            1 - ring_confidence(evidence.rejected.get(location, 0.0), settings.present),
        )
        colour_sure = 1.0 if location in owners else min([sure_of(c) for c in row] or [1.0])
        confidence = min(presence, colour_sure, 0.5 if location in trimmed else 1.0)
        counts[location] = LocationCount(white, black, confidence, confidence)
    bar_white = sum(1 for c in bar if white_of[id(c)])
    bar_black = len(bar) - bar_white
    seen["white"] += bar_white
    seen["black"] += bar_black
    bar_sure = min([sure_of(c) for c in bar] + [0.5] * (len(bar) < len(seen_bar)) or [1.0])
    counts["bar-white"] = LocationCount(bar_white, 0, bar_sure, bar_sure)
    counts["bar-black"] = LocationCount(0, bar_black, bar_sure, bar_sure)
    # the trays lie outside the field: what is not on it has been borne off, if the count is sane
    off_white = max(0, CHECKERS_PER_SIDE - seen["white"])
    off_black = max(0, CHECKERS_PER_SIDE - seen["black"])
    counts["off-white"] = LocationCount(off_white, 0, 0.5, 0.5)
    counts["off-black"] = LocationCount(0, off_black, 0.5, 0.5)
    ordered = {name: counts[name] for name in LOCATIONS}
    return Observation(
        ordered,
        frame=frame,
        time=time,
        extra={
            "calibration": METHOD,
            "off_inferred": True,
            "checkers": [(c.x, c.y, c.radius, white_of[id(c)]) for c in every],
        },
    )


#: at most this many checkers of a side are taken away to keep it within fifteen (see
#: :func:`_beyond_fifteen`); a side seen with more still has the other side's checkers
MOST_TRIMMED = 3


def _beyond_fifteen(
    rows: Mapping[str, list[Checker]],
    bar: list[Checker],
    mine: AbstractSet[int],
    counted: AbstractSet[str] = frozenset(),
) -> tuple[dict[str, list[Checker]], list[Checker]]:
    """``rows`` and ``bar`` with the checkers of one side (the ids in ``mine``) beyond its
    fifteen taken away: checkers seen that are not there. Each time the least sure that can go
    without leaving a hole: on a row, one of its topmost layer (the last laid of a single layer),
    on the bar any; first from the stack seen tallest of those with checkers lying on others
    (how high a stack is shows least from above), then the faintest ring; a point whose count
    of a full row or more the stack counter is sure of (``counted``: it stood for it, or named
    what the rings found) last of all. Nothing goes where more than :data:`MOST_TRIMMED` would."""
    rows = {location: list(row) for location, row in rows.items()}
    bar = list(bar)
    seen = {location: sum(1 for c in row if id(c) in mine) for location, row in rows.items()}
    count = sum(seen.values()) + sum(1 for c in bar if id(c) in mine)
    if count > CHECKERS_PER_SIDE + MOST_TRIMMED:
        return rows, bar
    while count > CHECKERS_PER_SIDE:
        offers: list[tuple[tuple[int, int, float], str, Checker]] = [
            ((0, 0, c.score), "bar", c) for c in bar if id(c) in mine
        ]
        for location, row in rows.items():
            own = [c for c in row if id(c) in mine]
            if not own:
                continue
            top = max(c.layer for c in own)
            last = 1 if location in counted else 0
            if top == 1:
                offers.append(((last, 0, own[-1].score), location, own[-1]))
            else:
                c = min((c for c in own if c.layer == top), key=lambda c: c.score)
                offers.append(((last, -seen[location], c.score), location, c))
        _key, location, gone = min(offers, key=lambda offer: offer[0])
        if location == "bar":
            bar = [c for c in bar if c is not gone]
        else:
            rows[location] = [c for c in rows[location] if c is not gone]
        count -= 1
    return rows, bar


#: at most this many rows (or checkers on the bar) change side to keep fifteen a side
MOST_FLIPPED = 3
#: what changing one more row's side costs, beside its votes: a misread row is rare, so of two
#: mends the one that changes fewer rows is likelier
FLIP_PRIOR = 0.5


#: a row may change side only if its checkers lie this many times their set's typical spread
#: from the set's middle (a glare-lit dark checker does; a light one in plain light does not)
OUTLIER = 1.5


def _unlike_their_set(checkers: Sequence[Checker], whites: Sequence[bool]) -> dict[int, float]:
    """How far each checker's colour lies from its set's middle in this frame, in the set's
    typical spread (:func:`vision.images.lab_distance`)."""
    out: dict[int, float] = {}
    for side in (True, False):
        members = [c for c, white in zip(checkers, whites, strict=True) if white == side]
        if not members:
            continue
        labs = np.array([c.lab for c in members], np.float64)
        distances = lab_distance(labs, np.median(labs, axis=0))
        spread = max(float(np.median(distances)), 3.0)
        for c, d in zip(members, distances, strict=True):
            out[id(c)] = float(d) / spread
    return out


def _fifteen_a_side(units: Sequence[tuple[int, float, float]]) -> frozenset[int]:
    """Which of ``units`` to count for the other side, so that neither side has more than its
    fifteen checkers. A unit is a row (or a checker on the bar): its size, its colour vote (> 0
    White) and how unlike its set its checkers look (:func:`_unlike_their_set`).

    A side seen with more than fifteen has had checkers of the other side taken for its own (in
    a lamp's glare a dark checker looks light, though not quite like the light set). Of that
    side's units, those whose checkers look unlike their set (:data:`OUTLIER`) may change side:
    the mend that leaves the fewest checkers beyond fifteen on either side (none, where the other
    side stays within fifteen; fewer than before, where a checker miscounted elsewhere leaves no
    mend exact), and of those the cheapest. A unit's cost is its vote, shrunk by how far beyond
    :data:`OUTLIER` its checkers lie from their set (a row ten spreads from White's middle is
    likelier Black's than one twice as far as White's own), and :data:`FLIP_PRIOR` more for each
    unit changed. Nothing changes when both sides are within fifteen, or both beyond (checkers
    seen that are not there: colour cannot mend that), or no few units would leave fewer beyond.

    >>> rows = [(5, 2.0, 0.5), (5, 1.5, 0.8), (5, 1.8, 0.6), (2, 0.4, 2.1), (3, -2.0, 0.5)]
    >>> sorted(_fifteen_a_side(rows + [(5, -2.0, 0.7)]))  # 17 White: the odd pair is Black's
    [3]
    >>> rows = [(4, 1.84, 1.9), (4, 1.88, 10.5), (5, 2.0, 0.5), (5, 1.9, 0.6), (3, -1.3, 0.9)]
    >>> sorted(_fifteen_a_side(rows))  # 18 White: of two rows voted alike, the one unlike White
    [1]
    >>> _fifteen_a_side([(5, 2.0, 0.5), (5, 1.5, 0.8), (2, 0.1, 0.4), (5, 1.8, 0.6)])
    frozenset()
    >>> _fifteen_a_side([(5, 2.0, 0.5), (5, 1.5, 2.5), (6, 1.8, 2.2), (9, -0.1, 3.0), (8, -2.0, 0.5)])
    frozenset()
    >>> rows = [(4, 2.0, 0.5), (6, 2.0, 0.5), (5, 2.0, 0.5), (3, 1.2, 3.0), (6, 1.5, 2.5)]
    >>> sorted(_fifteen_a_side(rows + [(7, -2.0, 0.5), (1, -1.0, 0.5)]))  # 24 and 8: 15 and 17
    [3, 4]
    """
    white = sum(size for size, vote, _u in units if vote > 0)
    black = sum(size for size, vote, _u in units if vote <= 0)
    if white > CHECKERS_PER_SIDE >= black:
        side, excess, room = True, white - CHECKERS_PER_SIDE, CHECKERS_PER_SIDE - black
    elif black > CHECKERS_PER_SIDE >= white:
        side, excess, room = False, black - CHECKERS_PER_SIDE, CHECKERS_PER_SIDE - white
    else:
        return frozenset()
    mine = [
        index
        for index, (_size, vote, unlike) in enumerate(units)
        if (vote > 0) == side and unlike >= OUTLIER
    ]
    best: tuple[int, float, tuple[int, ...]] | None = None
    for many in range(1, MOST_FLIPPED + 1):
        for chosen in itertools.combinations(mine, many):
            moved = sum(units[index][0] for index in chosen)
            # checkers still beyond fifteen, on either side, with these units changed
            beyond = max(excess - moved, 0) + max(moved - room, 0)
            if beyond >= excess:
                continue
            cost = sum(
                abs(units[index][1]) * OUTLIER / units[index][2] + FLIP_PRIOR for index in chosen
            )
            if best is None or (beyond, cost) < best[:2]:
                best = (beyond, cost, chosen)
    return frozenset(best[2]) if best else frozenset()


def synthetic_field_corners(
    homography: FloatArray, layout: BoardLayout | None = None
) -> list[tuple[float, float]]:
    """The playing field's corners in a frame of the project's 2D renderer (for tests and demos)."""
    layout = layout or BoardLayout()
    x0, y0, x1, y1 = layout.field_rect()
    units = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], np.float64).reshape(-1, 1, 2)
    camera = cv2.perspectiveTransform(units, np.asarray(homography, np.float64)).reshape(-1, 2)
    return [(float(x), float(y)) for x, y in camera]


#: width in pixels of the small rectified view settle detection works on
SETTLE_WIDTH = 160
#: share of the field's size looked at around it, where hands come in from
SETTLE_MARGIN = 0.08


@dataclass
class FieldSettleDetector:
    """Feed it frames with their times; it says ``settled`` or ``moving`` (see
    :class:`vision.settle.SettleDetector`), on the field and a margin around it. Whether a hand
    lies over a settled field is :func:`read_field`'s to say.
    """

    calibration: FieldCalibration
    still_seconds: float = 0.6
    motion_level: float = 30.0
    motion_fraction: float = 0.002

    def __post_init__(self) -> None:
        field = self.calibration.field
        scale = SETTLE_WIDTH / field.width
        margin = SETTLE_MARGIN * SETTLE_WIDTH
        to_small = np.array([[scale, 0, margin], [0, scale, margin], [0, 0, 1.0]])
        self._matrix = to_small @ field.homography()
        self._size = (
            round(SETTLE_WIDTH + 2 * margin),
            round(field.height * scale + 2 * margin),
        )
        self._previous: npt.NDArray[np.float32] | None = None
        self._still_since: float | None = None
        self.state: FrameState = "moving"

    def update(self, image: Image, time: float) -> FrameState:
        """The state after the frame ``image`` taken at ``time`` (seconds, any origin)."""
        image = check_image(image)
        field = self.calibration.field
        matrix = self._matrix
        size = (image.shape[1], image.shape[0])
        if size != tuple(field.image_size):
            matrix = matrix @ resize_matrix(size, field.image_size)
        small = cv2.warpPerspective(image, matrix, self._size, flags=cv2.INTER_AREA)
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
        moved = self._previous is None or (
            float((np.abs(grey - self._previous) > self.motion_level).mean()) > self.motion_fraction
        )
        self._previous = grey
        if moved or self._still_since is None:
            self._still_since = time
        still = self._still_since is not None and time - self._still_since >= self.still_seconds
        self.state = "settled" if still else "moving"
        return self.state

    def reset(self) -> None:
        self._previous = None
        self._still_since = None
        self.state = "moving"
