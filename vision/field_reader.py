"""Reading checkers on any board from its playing field: circles along each point, two colour sets.

The reader knows only what every board shares (see :mod:`vision.field`): twelve points a side of
the bar, checkers round and about as wide as a point, stacked from each point's base towards the
middle, a second layer lying over the gaps of the first. It looks for checkers as circles: along a
circle of the checker's radius, nearly every direction crosses an edge running across it (the
checker's rim against the board or against its neighbour), while an empty point offers only the
two straight sides of its triangle. Colours are not assumed either: the two checker sets are
learned at calibration from whatever position is on the board (the lighter set is White), and
re-fitted on every frame so a change of light does not swap them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
import numpy.typing as npt

from sheshbesh.locations import POINT_LOCATIONS
from vision.errors import CalibrationError
from vision.field import Field
from vision.images import Image
from vision.stack_model import StackGuess, count_points

FloatArray = npt.NDArray[np.float64]
#: a field's colours, Lab as floats (:func:`field_colours`)
LabArray = npt.NDArray[np.float32]

#: directions sampled round a circle
ANGLES = 40
_THETA = np.linspace(0, 2 * np.pi, ANGLES, endpoint=False)
_COS, _SIN = np.cos(_THETA), np.sin(_THETA)
#: an edge crosses the circle when its gradient points within atan(1 / ALIGNMENT) of the radius
#: (a rim does; a textured surface's grain points every way)
ALIGNMENT = 2.0
#: radii sampled, as shares of a checker's radius
_RADII = np.array([0.85, 0.95, 1.05, 1.15])
#: two checker sets differ by at least this much (Lab, 8-bit): players must tell them apart at a
#: glance; two groups closer than this are one set split by its light (lit and shaded)
LEAST_SEPARATION = 30.0
#: the directions round a checker that face away from a point's base: their sine along the
#: point's direction above this (two fifths of the ring, centred on the middle's direction)
FACING = 0.3
#: a checker's rim, not the cube's or a die's: the least share of directions whose strongest
#: edge lies at one radius (a square's lie between its sides' middles and its corners)
CHECKER_RIM = 0.6
#: rings on the bar nearer than this many radii along it are one thing's (two checkers touching
#: lie two radii apart)
BAR_APART = 1.7
#: a pyramid's whole rims ring at least this much more than its bare places (see
#: :func:`pyramid_count`); below it, the fit is to noise
PYRAMID_CONTRAST = 0.45


@dataclass(frozen=True, slots=True)
class RingSettings:
    """Thresholds of the circle finder (the share of directions that must cross an edge, etc.).

    ``present``: ring score for a checker in the first row; ``edge``: the least gradient an
    edge has, as a share of the field's 90th-percentile gradient; ``most_row``: the most checkers
    looked for in one row before the second layer. A frame is a hand over the field when a patch
    that is neither board nor checker reaches across more than ``hand_columns`` point columns and
    covers ``hand_area`` checkers, or when ``arm_area`` checkers of such cells lie at the field's
    edge beside something crossing the frame (:func:`vision.field_board.arm_area`). A weak ring
    that stands out where the board has a checker set's own colour counts when the rim lies at
    one radius in ``colourless_rim`` of its directions; there, a place next in a row whose
    neighbour holds a checker has its ring measured against edges of ``faint_edge`` as well (a
    light checker's rim against a light point is a soft shading). A checker lying over the gap
    between two rings ``layered`` (the row under it shows little of its own rims), and over the
    row's end ``overhang`` (all round); on a full row (``full_row``), one whose ring is at least
    ``covering`` and clearer than the place beyond it, which it covers, counts too; and so does
    one over the gap between two places of a full row that both ring under ``hidden_rims`` and
    ``rims_drop`` fainter (in mean) than the rest of the row (it hides part of both their rims),
    where its own ring against ``faint_edge`` edges is at least ``covered``. A row goes on past
    its last sure checker over places that colour does not call bare and that ring at least
    ``weak``, and ``faint_row`` against ``faint_edge`` edges, up to a plainly bare place that
    rings under ``bare_faint`` even so. A row of one that rings under ``lone_ring`` is no
    checker where under ``lone_far`` of its ring's side facing the middle crosses an edge: a
    lone checker's rim shows against the bare board beyond it, and the base of a bare point
    rings only at its sides and the frame. On the bar an edge is one of at least ``bar_edge``
    (or twice the bar's grain); a ring of at least ``weak`` there counts when colour says it
    is a checker's and the rim lies at one radius in ``bar_rim`` of its directions, away from
    where the cube was seen.
    """

    present: float = 0.7
    covered: float = 0.25
    weak: float = 0.45
    clear: float = 0.85
    prominence: float = 0.2
    square: float = 0.05
    foreign_colour: float = 22.0
    hand_area: float = 15.0
    hand_columns: float = 2.0
    arm_area: float = 1.8
    layered: float = 0.7
    covering: float = 0.5
    hidden_rims: float = 0.6
    rims_drop: float = 0.18
    overhang: float = 0.95
    edge: float = 0.5
    faint_edge: float = 0.25
    most_row: int = 7
    full_row: int = 5
    layer_ring: float = 0.35
    layer_rim: float = 0.3
    layer_below: float = 0.7
    bar_edge: float = 0.2
    bar_rim: float = 0.5
    colourless_rim: float = 0.7
    faint_row: float = 0.6
    bare_faint: float = 0.35
    lone_ring: float = 0.56
    lone_far: float = 0.42


@dataclass(frozen=True, slots=True)
class Checker:
    """One checker found: centre (field pixels), radius, ring score, colour (Lab), layer 1 or 2."""

    x: float
    y: float
    radius: float
    score: float
    lab: tuple[float, float, float]
    layer: int = 1


@dataclass(slots=True)
class FieldEvidence:
    """What the circle finder saw in one rectified field: the checkers per location."""

    checkers: dict[str, list[Checker]] = field(default_factory=dict)
    rejected: dict[str, float] = field(default_factory=dict)  # best score below the threshold
    #: rings taken for the base of a bare point (a lone faint ring showing nothing towards the
    #: middle, see :func:`_row`): no checker, yet something that rings, not a hand
    bases: list[Checker] = field(default_factory=list)
    pitch: float = 0.0  # distance between neighbours of a row, field pixels
    #: the points the stack counter recounted (:func:`recount_stacks`), each with how sure it is
    counted: dict[str, float] = field(default_factory=dict)
    #: of those, the points where the rings found nothing and the counter laid its count
    laid: list[str] = field(default_factory=list)
    #: the points of a full row or more whose count the counter, as sure, named as the rings did
    agreed: list[str] = field(default_factory=list)
    #: rings on the bar too faint to count alone whose colour is a checker's, not the bar's:
    #: checkers once the cube is placed (a cube's face is often of a checker set's colour, and
    #: rings a little), see :func:`_bar_checkers`
    faint_bar: list[Checker] = field(default_factory=list)


class Gradients:
    """The field's colour gradient (the strongest of the L, a, b channels at each pixel)."""

    def __init__(self, top: Image) -> None:
        lab = _blurred_lab(top)
        self.gx = self.gy = np.zeros(lab.shape[:2], np.float32)
        strongest = np.full(lab.shape[:2], -1.0, np.float32)
        for channel, weight in ((0, 1.0), (1, 1.6), (2, 1.6)):
            gx = cv2.Sobel(lab[:, :, channel], cv2.CV_32F, 1, 0, ksize=3, scale=weight)
            gy = cv2.Sobel(lab[:, :, channel], cv2.CV_32F, 0, 1, ksize=3, scale=weight)
            power = cv2.magnitude(gx, gy)
            stronger = power > strongest
            self.gx = np.where(stronger, gx, self.gx)
            self.gy = np.where(stronger, gy, self.gy)
            strongest = np.maximum(power, strongest)
        # the 90th percentile of a sample of the field's edge strength sets what an edge is
        self.level = float(np.percentile(strongest[::3, ::3], 90)) + 1e-3
        self.lab = lab.astype(np.float32)
        self.height, self.width = int(lab.shape[0]), int(lab.shape[1])

    def _crossings(
        self, centres: FloatArray, radius: float, edge: float
    ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
        """For each centre (N x 2), each pair of neighbouring radii and each direction: whether
        the ring crosses an edge radially there, and whether the place lies inside the field."""
        radii = radius * _RADII
        xs = centres[:, 0, None, None] + radii[None, :, None] * _COS[None, None, :]
        ys = centres[:, 1, None, None] + radii[None, :, None] * _SIN[None, None, :]
        inside = (xs >= 0) & (xs <= self.width - 1) & (ys >= 0) & (ys <= self.height - 1)
        xi = np.clip(np.rint(xs).astype(np.intp), 0, self.width - 1)
        yi = np.clip(np.rint(ys).astype(np.intp), 0, self.height - 1)
        flat = yi * self.width + xi  # looked up in the raveled gradients: four times as fast
        gx, gy = self.gx.ravel().take(flat), self.gy.ravel().take(flat)
        radial = np.abs(gx * _COS + gy * _SIN)
        tangential = np.abs(-gx * _SIN + gy * _COS)
        crossing = (radial > edge * self.level) & (radial > ALIGNMENT * tangential) & inside
        return crossing[:, :-1, :] | crossing[:, 1:, :], inside[:, :-1, :]

    def ring_scores(self, centres: FloatArray, radius: float, edge: float) -> FloatArray:
        """For each centre (N x 2), the share of directions whose ring crosses an edge radially.

        A circle's rim lies at one radius in every direction; a square's (a die, the cube) lies
        nearer at its sides than at its corners, so only two neighbouring radii are pooled.
        Directions that leave the field are not counted either way.
        """
        pooled, inside = self._crossings(centres, radius, edge)
        counted = np.maximum(np.count_nonzero(inside, axis=2), 1)
        shares = np.count_nonzero(pooled, axis=2) / counted
        shares = np.where(counted >= ANGLES // 2, shares, 0.0)
        return np.asarray(shares.max(axis=1), np.float64)

    def far_share(self, x: float, y: float, radius: float, edge: float, direction: int) -> float:
        """Of the ring round (x, y) at the radii where it crosses most edges, the share of the
        directions facing along ``direction`` (away from a point's base, towards the middle)
        that cross an edge: a lone checker's rim against the bare board beyond it."""
        pooled, inside = self._crossings(np.array([[x, y]]), radius, edge)
        best = int(np.argmax(np.count_nonzero(pooled[0], axis=1)))
        facing = (_SIN * direction > FACING) & inside[0, best]
        return float(np.mean(pooled[0, best][facing])) if facing.any() else 0.0

    def edge_radii(self, x: float, y: float, radius: float) -> FloatArray:
        """In each direction round (x, y), the radius (0.6 to 1.4 of ``radius``) at which the
        strongest radial edge lies: a circle's rim gives one radius all round."""
        radii = radius * np.linspace(0.6, 1.4, 17)
        xs = x + radii[:, None] * _COS[None, :]
        ys = y + radii[:, None] * _SIN[None, :]
        xi = np.clip(np.rint(xs).astype(np.intp), 0, self.width - 1)
        yi = np.clip(np.rint(ys).astype(np.intp), 0, self.height - 1)
        radial = np.abs(self.gx[yi, xi] * _COS + self.gy[yi, xi] * _SIN)
        return np.asarray(radii[np.argmax(radial, axis=0)], np.float64)

    def roundness(self, x: float, y: float, radius: float) -> float:
        """How far the rim round (x, y) is from a circle: the four-fold wobble of the radius at
        which each direction's edge lies, as a share of that radius (a square's is about 0.17)."""
        edge_at = self.edge_radii(x, y, radius)
        wobble = abs(np.mean(edge_at * np.exp(4j * _THETA)))
        return float(wobble / np.mean(edge_at))

    def rim_share(self, x: float, y: float, radius: float) -> float:
        """The share of directions round (x, y) whose strongest edge lies within 12% of
        ``radius``: a circle's rim is at one radius all round."""
        edge_at = self.edge_radii(x, y, radius)
        return float(np.mean(np.abs(edge_at / radius - 1) < 0.12))

    def rim_shape(self, x: float, y: float, radius: float) -> tuple[float, float]:
        """A checker's rim round (x, y): its mean radius, and its width over its height (1 for a
        circle)."""
        edge_at = self.edge_radii(x, y, radius)
        mean = float(np.mean(edge_at))
        swing = 2 * float(np.mean(edge_at * np.cos(2 * _THETA)))
        return mean, (mean + swing) / max(mean - swing, 1e-6)

    def along(
        self, x: float, start: float, stop: float, radius: float, edge: float
    ) -> tuple[FloatArray, FloatArray]:
        """Ring scores every pixel from ``start`` to ``stop`` down the column at ``x``."""
        step = 1.0 if stop >= start else -1.0
        ys = np.arange(start, stop, step)
        centres = np.stack([np.full_like(ys, x), ys], axis=1)
        return ys, self.ring_scores(centres, radius, edge)

    def disc_colour(self, x: float, y: float, radius: float) -> tuple[float, float, float]:
        return disc_colour(self.lab, x, y, radius)


def _blurred_lab(top: Image) -> npt.NDArray[np.uint8]:
    return np.asarray(cv2.cvtColor(cv2.GaussianBlur(top, (3, 3), 0), cv2.COLOR_BGR2LAB), np.uint8)


def field_colours(top: Image) -> LabArray:
    """A rectified field in Lab (8-bit scale, as floats), a little blurred: what a checker's
    colour is taken from (:func:`disc_colour`)."""
    return _blurred_lab(top).astype(np.float32)


def disc_colour(lab: LabArray, x: float, y: float, radius: float) -> tuple[float, float, float]:
    """The median colour of the middle of the disc at (x, y) of ``radius`` in ``lab``
    (:func:`field_colours`): a square a little over half the radius each way."""
    height, width = lab.shape[:2]
    r = max(2, round(radius * 0.55))
    xi, yi = round(x), round(y)
    patch = lab[max(yi - r, 0) : min(yi + r + 1, height), max(xi - r, 0) : min(xi + r + 1, width)]
    patch = patch.reshape(-1, 3)
    if not patch.size:
        return (0.0, 0.0, 0.0)
    m = np.median(patch, axis=0)
    return (float(m[0]), float(m[1]), float(m[2]))


def _best(
    gradients: Gradients,
    xs: FloatArray,
    ys: FloatArray,
    radius: float,
    settings: RingSettings,
) -> tuple[float, float, float]:
    grid = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
    scores = gradients.ring_scores(grid, radius, settings.edge)
    best = int(np.argmax(scores))
    return float(grid[best, 0]), float(grid[best, 1]), float(scores[best])


#: says whether the disc at (x, y) of radius r looks like a checker rather than the board there;
#: None where the board there has a checker set's own colour (colour cannot tell)
Vouch = Callable[[float, float, float], bool | None]
#: the colour (Lab) of a side's stack standing at a point's base (centre x, base, direction,
#: radius, the side: "white" or "black"), or None where none is seen
Stand = Callable[[float, float, int, float, str], tuple[float, float, float] | None]


def _row(
    gradients: Gradients,
    centre_x: float,
    base: float,
    direction: int,
    radius: float,
    limit: float,
    settings: RingSettings,
    pitch: float | None = None,
    vouch: Vouch | None = None,
) -> tuple[list[Checker], float, Checker | None]:
    """The checkers on one point from ``base`` along ``direction``; also the best score refused,
    and the ring taken for the bare point's base where one was (see ``lone_ring``).

    The places a row can hold are walked one after another, each about a ``pitch`` past the
    last, and each is judged on its ring and its colour. A checker rings true where its rim
    stands out against the board, but where it touches a neighbour of its own colour, or lies
    on a point of its own colour, its rim may barely show; so a weaker ring is taken when it
    stands out from the places half a checker either side of it (between two checkers, a ring
    crosses their insides) and ``vouch`` says its colour is a checker's. A row is laid from the
    point's base without holes, so every place up to the farthest checker found counts, unless a
    place between is plainly the bare board. A checker lying over the gap between two (the
    second layer) shows its whole rim; one under it shows little of its own.
    """
    pitch = pitch or 2 * radius
    edge = settings.edge

    def score(x: float, y: float, least: float = edge) -> float:
        """The ring at (x, y), against edges of at least ``least``."""
        return float(gradients.ring_scores(np.array([[x, y]]), radius, least)[0])

    said: dict[tuple[float, float], bool | None] = {}

    def colour(x: float, y: float) -> bool | None:
        """What ``vouch`` says of the place (asked once per place)."""
        if (x, y) not in said:
            said[x, y] = False if vouch is None else vouch(x, y, radius)
        return said[x, y]

    def vouched(x: float, y: float) -> bool:
        return colour(x, y) is True

    def colourless(x: float, y: float) -> bool:
        """The board here has a checker set's own colour: colour cannot tell, the ring must."""
        return vouch is not None and colour(x, y) is None

    lateral = centre_x + radius * np.linspace(-0.35, 0.35, 5)
    # the place at the base first: one lying over it must not be taken for it
    near = base + direction * radius * np.arange(0.7, 1.45, 0.12)
    first = _best(gradients, lateral, near, radius, settings)
    # a faint ring there that has a checker's colour is the first checker, under one lying
    # over it; only a bare base lets the row start further along (checkers not pushed home)
    if first[2] < settings.present and not vouched(first[0], first[1]):
        later = base + direction * radius * np.arange(1.45, 2.2, 0.12)
        second = _best(gradients, lateral, later, radius, settings)
        if second[2] >= settings.present:
            first = second
    places = [first]
    gaps: list[tuple[float, float, float]] = []

    def lies_over(gap: int) -> bool:
        """A checker lies over the gap after place ``gap``: it rings clearly there, and colour
        does not say the board is bare under it (a die lying on the point rings as clearly)."""
        return gaps[gap][2] >= settings.layered and (
            vouch is None
            or all(
                colour(*places[index][:2]) is not False
                for index in (gap, gap + 1)
                if index < len(places)
            )
        )

    def verdict(index: int) -> bool | None:
        """Place ``index`` holds a checker (True), is plainly bare (False), or cannot tell alone."""
        x, y, ring = places[index]
        if index and verdicts[index - 1] and colourless(x, y):
            # a checker on a point of its own colour, next in a row: its rim is only the soft
            # shading against its neighbour and the point, fainter than the field's edges
            ring = max(ring, score(x, y, settings.faint_edge))
        # a checker lying over the gap either side lies on this place's checker too
        over = any(0 <= gap < len(gaps) and lies_over(gap) for gap in (index - 1, index))
        if (
            ring >= settings.clear
            or (over and ring >= settings.covered)
            or (ring >= settings.present and (vouch is None or vouched(x, y) or colourless(x, y)))
        ):
            return True
        if ring >= settings.weak and vouch is not None:
            behind = gaps[index - 1][2] if index else 0.0
            beyond = score(x, y + direction * pitch / 2)
            out = ring - max(behind, beyond) >= settings.prominence
            # a die lying on a point rings about as faintly, but its rim is a square
            round_ = gradients.roundness(x, y, radius) <= settings.square
            # where the board has the checker's own colour, colour cannot vouch: the rim must,
            # lying at one radius nearly all round
            rim = colourless(x, y) and gradients.rim_share(x, y, radius) >= settings.colourless_rim
            return True if out and round_ and (vouched(x, y) or rim) else None
        return None if vouched(x, y) else False

    verdicts: list[bool | None] = []
    steps = np.arange(0.84, 1.17, 0.064)
    while len(places) < 3 * settings.most_row:
        last_x, last_y, _ring = places[-1]
        ahead = last_y + direction * pitch * steps
        ahead = ahead[direction * (ahead - limit) <= 0]
        if not len(ahead):
            break
        xs = last_x + radius * np.linspace(-0.25, 0.25, 5)
        x, y, ring = _best(gradients, xs, ahead, radius, settings)
        gaps.append(
            _best(
                gradients,
                (last_x + x) / 2 + radius * np.array([-0.1, 0.0, 0.1]),
                (last_y + y) / 2 + pitch * np.linspace(-0.2, 0.2, 9),
                radius,
                settings,
            )
        )
        places.append((x, y, ring))
        # the place before this one can be judged now that the gap beyond it is known; the walk
        # ends at the first plainly bare place
        verdicts.append(verdict(len(places) - 2))
        if verdicts[-1] is False:
            break
    if not verdicts or verdicts[-1] is not False:  # the walk ran out of room: judge its last place
        verdicts.append(verdict(len(places) - 1))
    found = [index for index, held in enumerate(verdicts) if held]
    length = found[-1] + 1 if found else 0

    def faint(index: int) -> float:
        return score(*places[index][:2], settings.faint_edge)

    # a row goes on over the places past its last sure checker that each show a rim against
    # faint edges where colour says a checker lies or cannot tell (a point of the row's own
    # colour), when the place after them shows hardly any: the bare point
    run = length
    while (
        length
        and run < len(verdicts)
        and verdicts[run] is None
        and (colourless(*places[run][:2]) or vouched(*places[run][:2]))
        and places[run][2] >= settings.weak
        and faint(run) >= settings.faint_row
    ):
        run += 1
    if (
        run > length
        and run < len(verdicts)
        and verdicts[run] is False
        and faint(run) < settings.bare_faint
    ):
        length = run
    refused = max((ring for _x, _y, ring in places[length : length + 1]), default=0.0)
    row = [
        Checker(x, y, radius, ring, gradients.disc_colour(x, y, radius))
        for x, y, ring in places[:length]
    ]
    # a second-layer checker lies on two of the first layer, ringing clearly over the gap
    # between them, or (ringing all round) half over the row's end
    layered = {
        index
        for index, (_x, _y, gap) in enumerate(gaps[:length])
        if (lies_over(index) if index < length - 1 else gap >= settings.overhang)
    }
    if length >= settings.full_row:
        # a second layer is laid on a full row: there, a gap whose ring, if faint, is clearer
        # than the ring of the place beyond it holds a checker lying over it (the ring at that
        # place crosses the checker covering half of it), where both places have a checker's
        # colour
        layered |= {
            index
            for index, (_x, _y, gap) in enumerate(gaps[: length - 1])
            if gap >= settings.covering
            and gap > places[index + 1][2]
            and all(vouched(*places[k][:2]) for k in (index, index + 1))
        }
        # a full row's gaps: a checker on top of two shows its whole rim, if faintly (its rim
        # lies on checkers of its own colour), all at one radius round its centre, and it hides
        # part of the rims of the two it lies on
        for index, (x, y, gap) in enumerate(gaps[: length - 1]):
            below = min(places[index][2], places[index + 1][2])
            if index not in layered and (
                gap < settings.layer_ring
                or below >= settings.layer_below
                or gradients.rim_share(x, y, radius) < settings.layer_rim
            ):
                break
            layered.add(index)
        # a checker on top of two hides part of both their rims: the two ring clearly fainter
        # than the rest of the row (the row's own rims are the measure, not the board's
        # contrast), and its own rim, on checkers of its colour, shows at least faintly; the
        # faintest pair first, and a place beside a gap already covered is explained by it
        rings = [ring for _x, _y, ring in places[:length]]
        for index in sorted(range(length - 1), key=lambda k: rings[k] + rings[k + 1]):
            pair, rest = rings[index : index + 2], rings[:index] + rings[index + 2 :]
            if (
                not {index - 1, index, index + 1} & layered
                and max(pair) < settings.hidden_rims
                and sum(rest) / len(rest) - sum(pair) / 2 >= settings.rims_drop
                and all(vouched(*places[k][:2]) for k in (index, index + 1))
                and score(*gaps[index][:2], settings.faint_edge) >= settings.covered
            ):
                layered.add(index)
    over = [
        Checker(x, y, radius, gap, gradients.disc_colour(x, y, radius), 2)
        for index, (x, y, gap) in enumerate(gaps)
        if index in layered
    ]
    if (
        len(row) == 1
        and not over
        and row[0].score < settings.lone_ring
        and gradients.far_share(row[0].x, row[0].y, radius, edge, direction) < settings.lone_far
    ):
        # the base of a bare point: rims at its sides and the frame, none facing the middle
        return [], row[0].score, row[0]
    if length >= settings.full_row:
        # a third layer and more: the rims the row's places and gaps show fit a pyramid
        many = pyramid_count([ring for _x, _y, ring in places[:length]], [g for *_, g in gaps])
        if many is not None:
            return _pyramid_checkers(gradients, places[:length], gaps, many, radius), refused, None
    return row + over, refused, None


def pyramid_slots(length: int, many: int) -> list[tuple[int, int]]:
    """The slots ``many`` checkers fill in a pyramid laid on a row of ``length``: (layer from 0,
    index along the row in half checkers). Each layer lies over the gaps of the one under it and
    is laid from the point's base: ``length`` + (``length`` - 1) + ... + 1 checkers at most."""
    slots = [
        (layer, 2 * index + layer) for layer in range(length) for index in range(length - layer)
    ]
    return slots[:many]


def pyramid_rims(length: int, many: int) -> FloatArray:
    """How much of the topmost checker's rim shows at each of the row's places and gaps (index
    along the row in half checkers, 2 x ``length`` - 1 of them) in a pyramid of ``many``
    (:func:`pyramid_slots`): a checker of the layer above, lying over half of one, hides a third
    of its rim; nothing there shows no rim (0)."""
    slots = pyramid_slots(length, many)
    taken = set(slots)
    top: dict[int, int] = {}  # along -> the topmost layer there
    for layer, along in slots:
        top[along] = max(layer, top.get(along, 0))
    shown = np.zeros(2 * length - 1)
    for along, layer in top.items():
        covered = sum((layer + 1, along + side) in taken for side in (-1, 1))
        shown[along] = 1.0 - covered / 3.0
    return shown


def pyramid_count(places: Sequence[float], gaps: Sequence[float]) -> int | None:
    """How many checkers lie on a full row whose ``places`` and the ``gaps`` between them ring so,
    where that needs a third layer or more; None where a row and a second layer explain the
    rims as well (the row's own reading stands).

    The rims seen along a stack are those of the topmost checkers (:func:`pyramid_rims`): each
    pyramid from the row alone to the full one is fitted to the ring scores, with the scores of
    a bare place and of a whole rim (the board's contrast) fitted too; the one that fits best is
    taken when it has a third layer and its whole rims ring at least ``PYRAMID_CONTRAST`` more
    than bare places.
    """
    length = len(places)
    if length < 2 or len(gaps) < length - 1:
        return None
    seen = np.empty(2 * length - 1)
    seen[0::2], seen[1::2] = places, gaps[: length - 1]
    best: tuple[float, int, float] | None = None
    for many in range(length, length * (length + 1) // 2 + 1):
        shown = pyramid_rims(length, many)
        design = np.stack([np.ones_like(shown), shown], axis=1)
        # the ring of a bare place, and how much more a whole rim rings
        (bare, contrast), *_ = np.linalg.lstsq(design, seen, rcond=None)
        misfit = float(np.sum((design @ np.array([bare, contrast]) - seen) ** 2))
        if best is None or misfit < best[0]:
            best = (misfit, many, float(contrast))
    if best is None or best[1] < 2 * length or best[2] < PYRAMID_CONTRAST:
        return None
    return best[1]


def _pyramid_checkers(
    gradients: Gradients,
    places: Sequence[tuple[float, float, float]],
    gaps: Sequence[tuple[float, float, float]],
    many: int,
    radius: float,
) -> list[Checker]:
    """The ``many`` checkers of a pyramid on ``places``: each at its place or gap (a checker
    lying over a gap of the layer under it lies over a place of the row, or a gap)."""
    checkers = []
    for layer, along in pyramid_slots(len(places), many):
        x, y, ring = places[along // 2] if along % 2 == 0 else gaps[along // 2]
        checkers.append(Checker(x, y, radius, ring, gradients.disc_colour(x, y, radius), layer + 1))
    return checkers


#: the stack counter (:mod:`vision.stack_model`) is asked about every point where the rings
#: found at least this many checkers (a tall stack's row may ring as two or three); its count
#: stands where it names a full row or more (:attr:`RingSettings.full_row`) and is at least
#: ``STACK_SURE`` sure (1, 3 and 4 checkers, 0.6 and 0.8 tried on the tuning split).
#: ``USE_STACK_MODEL`` switches it off (``benchmarks/bench_field.py --rings-only``)
STACK_ROW = 1
STACK_SURE = 0.8
USE_STACK_MODEL = True
#: it is asked about the points where the rings found nothing too (a stack of a colour near the
#: point's own, or the field's, may show no rim that rings true): there its count stands where it
#: names at least ``BARE_LEAST`` checkers and is at least ``BARE_SURE`` sure (a bare point's
#: base and its edges pass for one checker now and then, seldom for two), and one checker, as
#: sure, where colour vouches for it (:func:`_lay`); and, in the reader, where colour cannot tell,
#: as where the bare board has a checker set's own colour (a light checker on a light point, a
#: dark one on a dark point), where the counter is ``LONE_SURE`` sure (0.99, chosen on the tuning
#: split of the backgammon sets and ``photoreal-hands1``: of the 43 points where the rings found
#: nothing and the counter named one checker, colour could not tell on 26: 12 lone checkers,
#: named 0.758 to 1.0 sure, 8 of them 0.99 or more, and 14 bare points, named at most 0.987 sure)
BARE_LEAST = 2
BARE_SURE = 0.95
LONE_SURE = 0.99
#: in the reader, a full row or more that the counter is ``CERTAIN_STACK`` sure of is laid
#: whatever colour says: a stack of its point's own colour (red checkers on a red point) whose
#: set's colour, learned from the set's other checkers in other light, lies far enough from the
#: point's for colour to take itself to tell them apart calls its places the bare board (0.999,
#: chosen on the tuning split of the backgammon sets and ``photoreal-hands1``: of the 35 points
#: where the rings found nothing and the counter named two or more checkers 0.95 sure or more,
#: it named every one right, 0.9999 sure or more, 5 of them stacks of six to nine that colour
#: denied; where it named a wrong count of two or more it was at most 0.83 sure)
CERTAIN_STACK = 0.999


def recount_stacks(
    top: Image,
    geometry: Field,
    evidence: FieldEvidence,
    settings: RingSettings,
    vouch: Vouch | None = None,
) -> None:
    """Let the stack counter recount the points where checkers were found (``evidence`` from
    :func:`find_checkers` on the rectified field ``top``): where it is sure of another count of a
    full row or more, the point's checkers become that many, piled as a pyramid on the row
    (:func:`pyramid_slots`) from the row's first checker at the row's pitch; the checkers the
    rings found keep their places and scores, the others take the row's colour and its faintest
    score. In the point's confidence the counter's probability (``evidence.counted``) stands for
    what the rings' scores would say.

    On a point where the rings found nothing, a count of at least :data:`BARE_LEAST` that is
    :data:`BARE_SURE` sure lays that many there: a row from the point's base at the row's
    pitch (a pyramid past a full row), each checker with the colour of its own place and the
    score 0 (no ring found it); but only where ``vouch`` (colour, as :func:`_row` asks it) says
    of no more than one place of that row that it is plainly the bare board (the counter, shown
    a bare point's pattern it never learned, may count it as a stack; colour is the second
    witness). A count of one, as sure, lays a lone checker at the base only where ``vouch``
    says its colour is a checker's."""
    if not USE_STACK_MODEL:
        return
    asked = [
        location
        for location in POINT_LOCATIONS
        if not evidence.checkers.get(location) or len(evidence.checkers[location]) >= STACK_ROW
    ]
    guesses = dict(zip(asked, count_points(top, geometry, asked), strict=True))
    pitch = evidence.pitch or 2 * geometry.radius
    for location, guess in guesses.items():
        row = evidence.checkers.get(location, [])
        if not row or guess.probability < STACK_SURE or guess.count < settings.full_row:
            continue
        if guess.count == len(row):
            evidence.agreed.append(location)
            continue
        direction = geometry.column(location)[3]
        evidence.checkers[location] = _piled(row, guess.count, pitch, direction, settings.full_row)
        evidence.counted[location] = guess.probability
    lay_bare_stacks(top, geometry, evidence, settings, vouch, guesses, reading=True)


def lay_bare_stacks(
    top: Image,
    geometry: Field,
    evidence: FieldEvidence,
    settings: RingSettings,
    vouch: Vouch | None = None,
    guesses: Mapping[str, StackGuess] | None = None,
    *,
    reading: bool = False,
) -> None:
    """The stack counter's counts on the points where the rings found nothing, laid as
    :func:`recount_stacks` describes (``guesses``: the counter's, where already asked): the
    reader's rule, and calibration's, which learns the checker sets with them, since a set piled
    in one tall stack (a bear-off) may show no rim that rings true, and the other set's rings
    alone would then be split into two (its ``vouch`` never says a place holds a checker's
    colour, so it lays no lone checker). With ``reading`` (the reader's own trust in the counter,
    which calibration does not share: it learns the sets and the bare board from rows colour
    does not deny) a lone checker is laid, too, where ``vouch`` cannot tell (None) and the
    counter is :data:`LONE_SURE` sure, and a full row or more it is :data:`CERTAIN_STACK` sure
    of whatever colour says."""
    if not USE_STACK_MODEL:
        return
    bare = [location for location in POINT_LOCATIONS if not evidence.checkers.get(location)]
    if guesses is None:
        guesses = dict(zip(bare, count_points(top, geometry, bare), strict=True))
    lab: LabArray | None = None  # the field's colours, taken when a bare point needs them
    for location in bare:
        guess = guesses[location]
        lone = guess.count == 1 and vouch is not None
        if (guess.count >= BARE_LEAST or lone) and guess.probability >= BARE_SURE:
            if lab is None:
                lab = field_colours(top)
            _lay(lab, geometry, evidence, location, guess, settings, vouch, reading)


def _lay(
    lab: LabArray,
    geometry: Field,
    evidence: FieldEvidence,
    location: str,
    guess: StackGuess,
    settings: RingSettings,
    vouch: Vouch | None,
    reading: bool = False,
) -> None:
    """Lay the counter's ``guess`` on the bare point ``location`` (see :func:`recount_stacks`)
    unless ``vouch`` calls more than one place of its row plainly the bare board (the counter
    is sure of the stack; one place of it may be lit or piled so that its colour passes for the
    board's, where every place of a bare point's does); a lone checker only where ``vouch``
    says its colour is a checker's (a bare point's base passes for one to the counter now and
    then, and is the board's colour); with ``reading``, see :func:`lay_bare_stacks`."""
    pitch = evidence.pitch or 2 * geometry.radius
    laid = _laid(lab, geometry, location, min(guess.count, settings.full_row), pitch)
    said = [None if vouch is None else vouch(c.x, c.y, c.radius) for c in laid]
    lone_seen = said == [True] or (reading and said == [None] and guess.probability >= LONE_SURE)
    certain = reading and guess.count >= settings.full_row and guess.probability >= CERTAIN_STACK
    if (said.count(False) > 1 and not certain) or (len(laid) == 1 and not lone_seen):
        return
    evidence.checkers[location] = _piled(
        laid, guess.count, pitch, geometry.column(location)[3], settings.full_row
    )
    evidence.counted[location] = guess.probability
    evidence.laid.append(location)


def _laid(
    lab: LabArray, geometry: Field, location: str, length: int, pitch: float
) -> list[Checker]:
    """A row of ``length`` checkers on point ``location`` from its base at ``pitch``, on its
    middle line, each with its place's colour in ``lab`` (:func:`field_colours`) and score 0."""
    left, right, base, direction = geometry.column(location)
    x, radius = (left + right) / 2, geometry.radius
    row = []
    for index in range(length):
        y = base + direction * (radius + index * pitch)
        row.append(Checker(x, y, radius, 0.0, disc_colour(lab, x, y, radius)))
    return row


def _piled(
    row: Sequence[Checker], many: int, pitch: float, direction: int, full_row: int
) -> list[Checker]:
    """``many`` checkers piled on ``row`` (see :func:`recount_stacks`): a pyramid on a row of
    ``full_row`` places, or of the row's own length where the rings found a longer one."""
    first = row[0]
    x = float(np.mean([c.x for c in row]))
    lab = tuple(float(v) for v in np.median([c.lab for c in row], axis=0))
    faintest = min(c.score for c in row)
    length = min(max(len(row), full_row), many)
    piled = []
    for layer, along in pyramid_slots(length, many):
        if layer == 0 and along // 2 < len(row):
            found = row[along // 2]
            piled.append(replace(found, layer=1))
            continue
        y = first.y + direction * along * pitch / 2
        piled.append(Checker(x, y, first.radius, faintest, (lab[0], lab[1], lab[2]), layer + 1))
    return piled


def stack_count(row: Sequence[Checker]) -> int:
    """How many checkers a row found by :func:`_row` stands for (each is seen once, as found)."""
    return len(row)


def find_checkers(
    top: Image,
    geometry: Field,
    settings: RingSettings | None = None,
    vouch: Vouch | None = None,
    standing: Mapping[str, str] | None = None,
    stand: Stand | None = None,
) -> FieldEvidence:
    """Every checker seen on the points and the bar of a rectified field (``geometry.rectify``).

    ``vouch`` (see :func:`_row`) lets a checker whose rim barely shows be taken by its colour.
    Where ``standing`` names points, each with its side (Shesh Besh), the game's checkers never
    leave them: only they are read, and on them ``stand`` tells the colour of the side's stack
    standing at the base (:func:`_stack`), which counts as one checker (as a stack seen from
    above).
    """
    standing = standing or {}
    settings = settings or RingSettings()
    gradients = Gradients(top)
    evidence = FieldEvidence()
    radius = geometry.radius
    pitch = geometry.pitch or 2 * radius
    middle = geometry.height / 2
    for location in POINT_LOCATIONS:
        if standing and location not in standing:
            evidence.checkers[location] = []  # no checker of this game ever lies there
            continue
        left, right, base, direction = geometry.column(location)
        limit = middle + direction * 0.6 * radius
        row, refused, bare = _row(
            gradients, (left + right) / 2, base, direction, radius, limit, settings, pitch, vouch
        )
        if bare is not None:
            evidence.bases.append(bare)
        if stand is not None and location in standing and not row:
            row = _stack(
                (left + right) / 2, base, direction, radius, stand, standing[location], settings
            )
        evidence.checkers[location] = row
        evidence.rejected[location] = refused
    evidence.pitch = pitch
    if not standing:
        evidence.checkers["bar"], evidence.faint_bar = _bar_checkers(
            gradients, geometry, settings, vouch
        )
    else:
        evidence.checkers["bar"] = []
    return evidence


def _stack(
    centre_x: float,
    base: float,
    direction: int,
    radius: float,
    stand: Stand,
    side: str,
    settings: RingSettings,
) -> list[Checker]:
    """The stack standing at a point's base where no checker rings on the point (a stack stood
    on edge shows no round rim; a tower, or a stack beside the checkers laid down from it, rings
    as the row's first checker), as one checker; none where no stack stands. Told by its colour,
    not by a ring, it is taken as if it rang at the ring threshold: as sure as unsure."""
    colour = stand(centre_x, base, direction, radius, side)
    if colour is None:
        return []
    return [Checker(centre_x, base + direction * 0.8 * radius, radius, settings.present, colour)]


def _bar_checkers(
    gradients: Gradients, geometry: Field, settings: RingSettings, vouch: Vouch | None = None
) -> tuple[list[Checker], list[Checker]]:
    """Checkers resting on the bar: circles anywhere along its middle, none overlapping; and the
    faint ones: rings of at least ``weak`` where ``vouch`` says their colour is a checker's, not
    the bar's (a checker of the bar's own shade shows only a thin shadow for a rim)."""
    radius = geometry.radius
    centre = (geometry.bar[0] + geometry.bar[1]) / 2
    ys = np.arange(radius * 0.9, geometry.height - radius * 0.9, radius * 0.2)
    xs = centre + radius * np.array([-0.15, 0.0, 0.15])
    grid = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
    # the bar is one surface, often of a checker's own colour: a checker's rim on it may be no
    # more than a thin shadow line, fainter than the points' edges that set the level; an edge
    # on the bar is one that stands well above the bar's own grain
    inner = slice(
        max(0, round(geometry.bar[0] + 0.2 * radius)), round(geometry.bar[1] - 0.2 * radius)
    )
    grain = float(np.percentile(np.hypot(gradients.gx[:, inner], gradients.gy[:, inner]), 75))
    edge = min(max(2 * grain / gradients.level, settings.bar_edge), settings.edge)
    scores = gradients.ring_scores(grid, radius, edge).reshape(len(ys), len(xs))
    along = scores.max(axis=1)
    chosen: list[Checker] = []
    faint: list[Checker] = []
    least = settings.present if vouch is None else settings.weak
    for index in np.argsort(-along):
        score = float(along[index])
        if score < least:
            break
        y = float(ys[index])
        if any(abs(y - c.y) < BAR_APART * radius for c in (*chosen, *faint)):
            continue
        x = float(xs[int(np.argmax(scores[index]))])
        rim = gradients.rim_share(x, y, radius)
        if score < settings.present and (
            rim < settings.bar_rim or vouch is None or vouch(x, y, radius) is not True
        ):
            continue
        if gradients.roundness(x, y, radius) > settings.square and rim < CHECKER_RIM:
            continue  # the cube, or a die: no square has a rim at one radius round most of it
        checker = Checker(x, y, radius, score, gradients.disc_colour(x, y, radius))
        (chosen if score >= settings.present else faint).append(checker)
    return sorted(chosen, key=lambda c: c.y), faint


# ---- the two checker sets ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CheckerColours:
    """The two checker sets' mean colours (Lab, OpenCV's 0..255 scale); White is the lighter."""

    white: tuple[float, float, float]
    black: tuple[float, float, float]

    @property
    def separation(self) -> float:
        return float(np.linalg.norm(np.subtract(self.white, self.black)))

    def swapped(self) -> CheckerColours:
        return CheckerColours(self.black, self.white)

    def to_dict(self) -> dict[str, list[float]]:
        return {
            "white": [round(v, 2) for v in self.white],
            "black": [round(v, 2) for v in self.black],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Sequence[float]]) -> CheckerColours:
        try:
            white = tuple(float(v) for v in data["white"])
            black = tuple(float(v) for v in data["black"])
        except (KeyError, TypeError, ValueError) as error:
            raise CalibrationError(f"malformed checker colours: {error!r}") from error
        if len(white) != 3 or len(black) != 3:
            raise CalibrationError("checker colours must be three numbers each")
        return cls((white[0], white[1], white[2]), (black[0], black[1], black[2]))


def _two_means(
    samples: FloatArray, start: tuple[FloatArray, FloatArray]
) -> tuple[FloatArray, FloatArray, npt.NDArray[np.bool_]]:
    a, b = start
    is_a = np.ones(len(samples), bool)
    for _ in range(12):
        is_a = np.linalg.norm(samples - a, axis=1) <= np.linalg.norm(samples - b, axis=1)
        if is_a.all() or not is_a.any():
            break
        a, b = samples[is_a].mean(axis=0), samples[~is_a].mean(axis=0)
    return a, b, is_a


def learn_colours(checkers: Sequence[Checker], also: Sequence[Checker] = ()) -> CheckerColours:
    """The two checker sets among ``checkers`` (any position), the lighter as White; ``also``:
    more samples of them, which do not count towards the four checkers that must be found.

    Raises :class:`CalibrationError` when there are too few checkers or only one set.
    """
    if len(checkers) < 4:
        raise CalibrationError(
            f"only {len(checkers)} checkers found on the field; two checker sets cannot be found "
            "(are the corners those of the playing field?)"
        )
    samples = np.array([c.lab for c in [*checkers, *also]], np.float64)
    order = np.argsort(samples[:, 0])
    light, dark, is_light = _two_means(samples, (samples[order[-1]], samples[order[0]]))
    if is_light.all() or not is_light.any():
        raise CalibrationError("all checkers on the field look alike: two sets cannot be found")
    colours = CheckerColours(
        (float(light[0]), float(light[1]), float(light[2])),
        (float(dark[0]), float(dark[1]), float(dark[2])),
    )
    spread = float(
        np.median(np.linalg.norm(samples - np.where(is_light[:, None], light, dark), axis=1))
    )
    if colours.separation < max(LEAST_SEPARATION, 2.5 * spread):
        raise CalibrationError(
            f"the checkers do not fall into two sets (their colours differ by "
            f"{colours.separation:.0f}, within a set by {spread:.0f})"
        )
    if light[0] < dark[0]:
        colours = colours.swapped()
    return colours


def classify(
    checkers: Sequence[Checker], colours: CheckerColours
) -> tuple[list[bool], list[float]]:
    """For each checker, whether it is White and how sure (0.5..1), refitting the sets to this frame."""
    if not checkers:
        return [], []
    # lightness counts half: a lamp or a glare lightens a dark checker more than it turns its hue
    weights = np.array([0.5, 1.0, 1.0])
    samples = np.array([c.lab for c in checkers], np.float64) * weights
    white, black = np.array(colours.white) * weights, np.array(colours.black) * weights
    separation = float(np.linalg.norm(white - black))
    refit_white, refit_black, is_white = _two_means(samples, (white, black))
    # keep the refit only when it stays near the learned sets (light changed, sets did not swap)
    if (
        is_white.any()
        and not is_white.all()
        and np.linalg.norm(refit_white - white) < 0.6 * separation
        and np.linalg.norm(refit_black - black) < 0.6 * separation
    ):
        white, black = refit_white, refit_black
    to_white = np.linalg.norm(samples - white, axis=1)
    to_black = np.linalg.norm(samples - black, axis=1)
    whites = (to_white < to_black).tolist()
    margin = np.abs(to_white - to_black) / (to_white + to_black + 1e-6)
    confidence = (0.5 + 0.5 * np.clip(margin * 2, 0, 1)).tolist()
    return [bool(w) for w in whites], [float(c) for c in confidence]


def ring_confidence(score: float, threshold: float) -> float:
    """How sure a ring score is, on either side of its threshold (0.5 at the threshold)."""
    return 1.0 / (1.0 + math.exp(-(score - threshold) * 12.0))
