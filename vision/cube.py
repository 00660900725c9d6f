"""The doubling cube on any board known by its playing field: where it rests and the face it shows.

The field's four corners say nothing of the cube, and a real cube is not the renderer's: its size,
colour and font are the cube maker's. What every cube shares is that it is a small square block,
about two thirds of a checker across, lying where no point is: on the bar (in its middle while it
is centred, near an end when a player owns it), or just beyond the field on the owner's side (the
frame, a tray). So the reader

* looks only there (the bar and a margin of the image round the field), in a small top-down view
  where the board around each place is nearly one colour along its length (the bar down its
  length, the frame along it, a tray down it), and takes the few windows of a cube's size that
  differ most from that board (colour, or edges for a cube of the board's own colour): the bar's
  first, then those round the field. Checkers found on the points are left out; those found on
  the bar are not, since the checker finder can take a centred cube for one;
* reads each window's face without assuming a font, in a close-up turned square with the block in
  it (a cube lies at any angle; its edges, taken four-fold, say how far it is turned), and where
  no window reads a number plainly, again a little to each side of each window (seen from a tilted
  camera a cube's face lies off the middle of its side and shadow): the ink is what a local
  threshold sets apart (dark digits on a light cube, light on a dark one); shapes of a digit's
  size near the window's middle are matched alone against the whole numbers (one digit, or two run
  together by a soft focus, when the shape is nearly as wide as long or has a loop) and in
  neighbouring pairs digit by digit, against 2, 4, 8, 16, 32 and 64 drawn in six of OpenCV's
  Hershey fonts (sans, serif, script; thin and bold), in the four ways a cube can lie. A match
  counts only as much as the ink stands plainly on an even face, and the best reading wins. When
  no window shows a number but one in the bar's middle stands out strongly, the cube is taken as
  centred showing an emblem (as many cubes do in place of 64): 64, middle. (A checker resting in
  the bar's middle, with the cube elsewhere and unread, reads so too.) So is it when the only
  number read is a doubtful 64 away from the middle: a cube is turned to 64 once in a long
  while, and the frame's grain or a logo's strokes pass for one.

Each place is also read by a small learned model (:mod:`vision.cube_model`), at the place and
at the face the matcher found there: where it names a number :data:`MODEL_SURE` or more sure, its
reading stands for that place (a glare joined to the digits, or the cube's edge touching them,
leaves the shape matcher no digit-shaped ink). The shape matcher's digits are drawn at run time;
its thresholds, and the model's, were set on the photoreal renders' tuning split (the renderer's
own font never enters the matcher). Called by :func:`vision.field_board.read_field`; figures per
style in ``benchmarks/bench_field.py``.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from sheshbesh.observation import CubeReading
from vision.cube_model import read_cube_faces
from vision.field import FRAME_FAR, FRAME_NEAR, Field
from vision.images import Image, lab_distance

FloatArray = npt.NDArray[np.float64]
Floats = npt.NDArray[np.float32]
#: places in field pixels, each with how strongly it stands out: (x, y, presence)
Places = list[tuple[float, float, float]]

CUBE_VALUES = (2, 4, 8, 16, 32, 64)
#: pixels per checker radius in the view the cube is looked for in
SEARCH_RADIUS = 6.0
#: pixels per checker radius in the close-up its face is read from
FACE_RADIUS = 34.0
#: a close-up is turned square with the cube in it, judged by the edges within this many checker
#: radii of its middle
TURN_REACH = 0.9
#: how far beyond the field the cube is looked for: shares of the field's width and height
MARGIN = (0.2, 0.2)
#: the cube's side, in checker radii (a cube is 0.55 to 0.75 of a checker across)
SIDE = 1.3
#: a cube of the board's own colour shows by its edges: their strength (grey levels per pixel,
#: after softening by this many pixels) counts this much as colour difference
EDGE_WEIGHT = 0.25
EDGE_BLUR = 0.0
#: the board's own variation along a strip: this percentile of its differences, plus this much
NOISE = (50.0, 6.0)
#: a window must differ from the board around it this many times the board's own variation
PRESENCE = 1.5
#: a face matching its number this well is taken without reading the other places
SURE = 0.7
#: a place in the bar's middle standing out this much, showing no number, is a cube's emblem
EMBLEM = 2.0
#: the places that stand out most are each read: this many on the bar, as many round the field
#: (where a tray's checkers, hinges, the frame's joints and what lies on the table beside the
#: board can each stand out more than a cube resting on the frame)
CANDIDATES = 12
#: ink matching a number this well (normalised correlation) is read as that number
MATCH = 0.6
#: the centred cube is looked for this many checker radii up and down from the bar's middle
CENTRED_REACH = 1.0
#: and read again this many checker radii up and down the bar from where it stands out most
MIDDLE_STEP = 0.7
#: each place that stands out is read also this many checker radii to each side
ASIDE = 0.8
#: a centred cube is within this share of the field's height of its middle
CENTRED = 0.2
#: the close-up the digits are looked for in reaches this many checker radii from its middle
REACH = 1.3
#: the neighbourhood the ink is told apart in (checker radii) and by how much (grey levels)
INK_BLOCK = 0.45
INK_CONTRAST = 6
INK_JOIN = 1
#: a shape is two digits run together only when its short side is this share of its long side
RUN_TOGETHER = 0.6
#: a glyph picture's pixels this inked or more are the shape (its extent, its loops)
INKED = 0.35
#: the shapes nearest the close-up's middle read, at most
SHAPES = 6
#: ink standing out from the face round it this many times the face's own variation is fully
#: trusted as digits; less, its match counts for less
SETTING = 3.0
#: size of the normalised glyph picture the face is compared on
GLYPH = 24

_HERSHEY = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_PLAIN,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
)


@dataclass(frozen=True, slots=True)
class FieldCube:
    """A cube read on the field: the reading, where its face was read (field pixels), and
    whether a number was read there (an emblem is only something clearly on the bar's middle)."""

    reading: CubeReading
    x: float
    y: float
    numbered: bool


def read_field_cube(
    image: Image, field: Field, checkers: Sequence[tuple[float, float, float]] = ()
) -> CubeReading | None:
    """The cube's face and place (``middle``, ``white``, ``black``), or None when none is seen.

    ``checkers``: the checkers the field reader found, (x, y, radius) in field pixels; those on
    the points are not taken for the cube. The confidence is how well the face matched its
    number (0.5 for an emblem).
    """
    found = locate_field_cube(image, field, checkers)
    return None if found is None else found.reading


def locate_field_cube(
    image: Image,
    field: Field,
    checkers: Sequence[tuple[float, float, float]] = (),
    on_bar: Sequence[tuple[float, float, float]] = (),
) -> FieldCube | None:
    """:func:`read_field_cube`, with where the face was read. ``on_bar``: the checkers on the
    bar that are surely checkers (x, y, radius; a round rim): a blank thing there is no cube's
    emblem (its face is read there all the same: a cube taken for one still shows its number)."""
    best: tuple[float, int | None, float, float, float] | None = None
    middle, bar, around = find_cube_zones(image, field, checkers, around=SCREENED)
    candidates = [*middle, *bar, *_likeliest(image, field, around)]
    blank = find_cube(image, field, checkers, on_bar) if on_bar else candidates
    places = list(candidates)
    if places:  # the bar's middle, read also a little up and down the bar
        x, y, presence = places[0]
        step = MIDDLE_STEP * field.radius
        places[1:1] = [(x, y - step, presence), (x, y + step, presence)]
    numbers: dict[tuple[float, float], int | None] = {}  # what each place read
    resting = _resting_places(image, field)
    for x, y, presence in places:
        value, match, fx, fy = _read_place(image, field, x, y)
        if value is not None and not resting(fx, fy):
            value = None  # digits on something that is not the board: a caption, a screen
        numbers[x, y] = value
        if best is None or match > best[0]:
            best = (match, value, fx, fy, presence)
        if value is not None and match >= SURE:
            break  # the bar's places come first: a plain reading there settles it
    if best is not None and (best[1] is None or best[0] < SURE):
        # no place read plainly: a cube stands up from the board, and seen from a tilted camera
        # its face lies off the middle of what stands out (its sides, its shadow); each place
        # is read again to each side, where only a plain reading counts (the grain is near)
        off = ASIDE * field.radius
        aside = [
            (x, y, presence, dx, dy)
            for x, y, presence in places
            for dx, dy in ((0.0, -off), (0.0, off), (-off, 0.0), (off, 0.0))
        ]
        for x, y, presence, dx, dy in aside:
            value, match, fx, fy = _read_place(image, field, x + dx, y + dy)
            if value is not None and match >= SURE and resting(fx, fy):
                numbers[x, y] = value
                best = (match, value, fx, fy, presence)
                break  # in the same order: the first plain reading settles it
    if best is None:
        return None
    match, value, x, y, presence = best
    place = cube_place(field, x, y)
    # something clearly not the bare bar in the bar's middle, that showed no number there
    middle = [
        c
        for c in blank
        if c[2] >= EMBLEM
        and cube_place(field, c[0], c[1]) == "middle"
        and numbers.get((c[0], c[1])) is None
    ]
    if value == 64 and match < SURE and place != "middle" and middle:
        # a 64 read doubtfully away from the middle (a cube is turned to 64 once in a long
        # while; the frame's grain and a logo's strokes pass for one) beside a blank centred
        # cube: the cube is centred, its 64 an emblem
        value = None
    if value is None:
        # no number anywhere: an emblem on a centred cube reads 64, if something clearly not
        # the bare bar lies in the bar's middle
        if not middle:
            return None
        place, value, match = "middle", 64, 0.5
        x, y = middle[0][0], middle[0][1]
        numbered = False
    else:
        numbered = True
    confidence = float(np.clip(match, 0.0, 1.0))
    return FieldCube(CubeReading(value, place, round(confidence, 4)), x, y, numbered)


#: round the field this many places that stand out are looked at, and the :data:`CANDIDATES`
#: the cube-face model most takes for a numbered face (read once, unturned) are read: a light
#: cube on a light frame stands out less than a hinge, a joint or the trays' checkers
SCREENED = 36


def _likeliest(image: Image, field: Field, places: Places) -> Places:
    """Of ``places`` (round the field), the :data:`CANDIDATES` the cube-face model most takes for
    a cube's numbered face, likeliest first; all of them, as they are, where there are no more."""
    if len(places) <= CANDIDATES or not USE_MODEL:
        return list(places)[:CANDIDATES]
    guesses = read_cube_faces(image, field, [(x, y) for x, y, _p in places], 1)
    numbered = [g.probability if g.value is not None else 1.0 - g.probability for g in guesses]
    order = sorted(range(len(places)), key=lambda k: -numbered[k])
    return [places[k] for k in order[:CANDIDATES]]


#: the cube-face model (:mod:`vision.cube_model`) reads each place and the face the shape
#: matcher found there, each close-up in this many quarter turns; where it names a number this
#: sure, its reading stands. Chosen on the photoreal renders' tuning split: 0.95 of 0.8, 0.9 and
#: 0.95; two turns at two spots (139 frames of 168 right) rather than four turns at six (141), at
#: about half the time
MODEL_TURNS = 2
MODEL_SURE = 0.95
#: whether the model reads the places at all (the shape matcher alone where not: ``bench_field.py
#: --cube-shapes-only`` measures the difference)
USE_MODEL = True


def _read_place(
    image: Image, field: Field, x: float, y: float
) -> tuple[int | None, float, float, float]:
    """:func:`read_face` at field pixel (x, y), overruled by the cube-face model where it names a
    number :data:`MODEL_SURE` or more sure at the place or where the shape matcher found the
    face: the value, its match (the model's probability where the model's reading stands) and
    where the face lies."""
    value, match, fx, fy = read_face(image, field, x, y)
    if not USE_MODEL:
        return value, match, fx, fy
    spots = [(x, y)]
    if math.hypot(fx - x, fy - y) > 1e-6:
        spots.append((fx, fy))
    guesses = read_cube_faces(image, field, spots, MODEL_TURNS)
    named = [
        (guess.probability, guess.value, spot)
        for guess, spot in zip(guesses, spots, strict=True)
        if guess.value is not None
    ]
    if named:
        probability, number, (mx, my) = max(named, key=lambda item: item[0])
        if probability >= MODEL_SURE:
            return number, probability, mx, my
    return value, match, fx, fy


#: a cube read beyond the field rests on the board: this share of the ring round it (from
#: :data:`AROUND` checker radii of its middle, past its corners) has one of the board's colours
#: (:func:`_resting_places`), within :data:`BOARD_NEAR` of it (:func:`vision.images.lab_distance`);
#: chosen once, not tuned
BOARD_SHARE = 0.4
AROUND = (1.1, 1.5)
BOARD_NEAR = 25.0


def _board_colours(image: Image, field: Field) -> Floats:
    """The board's colours (Lab): the field's in a grid of 24 x 4 cells (its points, its cloth or
    wood, the checkers on it) and the frame's along each long side (the median of the band)."""
    scale = SEARCH_RADIUS / field.radius
    near, far = FRAME_NEAR * field.height, FRAME_FAR * field.height
    colours = []
    for top, bottom, cells in (
        (0.0, field.height, (4, 24)),
        (-far, -near, (1, 1)),
        (field.height + near, field.height + far, (1, 1)),
    ):
        size = (round(field.width * scale), max(cells[0], round((bottom - top) * scale)))
        matrix = _matrix(image, field, scale, (0.0, top))
        view = cv2.warpPerspective(image, matrix, size, flags=cv2.INTER_AREA)
        lab = cv2.cvtColor(view, cv2.COLOR_BGR2LAB).astype(np.float32)
        for band in np.array_split(lab, cells[0], axis=0):
            for cell in np.array_split(band, cells[1], axis=1):
                colours.append(np.median(cell.reshape(-1, 3), axis=0))
    return np.asarray(colours, np.float32)


def _resting_places(image: Image, field: Field) -> Callable[[float, float], bool]:
    """Whether a cube read at field pixel (x, y) may rest there: anywhere over the field and the
    bar; beyond the field, only where what lies round it has the board's colours
    (:data:`BOARD_SHARE`): a cube rests on the board, its frame or a tray, while a caption or a
    clock drawn over the picture, or a screen beside the board, shows its digits on a colour of
    its own. The board's colours are measured when first needed."""
    board: list[Floats] = []
    turns = np.linspace(0, 2 * math.pi, 24, endpoint=False)
    ring = np.array([(r * math.cos(t), r * math.sin(t)) for r in AROUND for t in turns])
    height, width = image.shape[:2]

    def resting(x: float, y: float) -> bool:
        if 0 <= x <= field.width and 0 <= y <= field.height:
            return True
        seen = field.to_camera(np.array([x, y]) + field.radius * ring)
        inside = (seen >= 0).all(axis=1) & (seen[:, 0] < width) & (seen[:, 1] < height)
        if not inside.any():
            return True  # nothing of the picture to judge by
        if not board:
            board.append(_board_colours(image, field))
        at = seen[inside].astype(int)
        pixels = image[at[:, 1], at[:, 0]][None]
        lab = cv2.cvtColor(pixels, cv2.COLOR_BGR2LAB)[0].astype(np.float32)
        nearest = lab_distance(lab[:, None, :], board[0][None]).min(axis=1)
        return float(np.mean(nearest <= BOARD_NEAR)) >= BOARD_SHARE

    return resting


def cube_place(field: Field, x: float, y: float) -> str:
    """``middle`` on the bar near the middle of the field's height, else the owner by the half:
    White's side is the bottom of the image, Black's the top."""
    bar_left, bar_right = field.bar
    on_bar = bar_left - field.radius <= x <= bar_right + field.radius
    if on_bar and abs(y - field.height / 2) <= CENTRED * field.height:
        return "middle"
    return "white" if y > field.height / 2 else "black"


def _matrix(image: Image, field: Field, scale: float, origin: tuple[float, float]) -> FloatArray:
    """Camera pixels of ``image`` -> a view where field pixel (x, y) lies at ((x, y) - origin) * scale."""
    shift = (-origin[0] * scale, -origin[1] * scale)
    return field.view_matrix((image.shape[1], image.shape[0]), scale, shift)


def _strip_distance(lab: Floats, valid: npt.NDArray[np.bool_], axis: int) -> Floats:
    """Each pixel's Lab distance from the median of its column (axis 0) or row (axis 1): the
    board along a strip is nearly one colour, whatever lies on it stands out."""
    if valid.all():  # the usual case, and much the quicker
        median = np.median(lab, axis=axis, keepdims=True)
    else:
        masked = np.where(valid[..., None], lab, np.nan)
        with warnings.catch_warnings():  # a column wholly outside the image: nothing to compare
            warnings.simplefilter("ignore", RuntimeWarning)
            median = np.nanmedian(masked, axis=axis, keepdims=True)
    difference = (lab - median) * np.array([0.7, 1.0, 1.0], np.float32)
    distance = np.sqrt((difference**2).sum(axis=2))
    return np.asarray(np.where(valid, np.nan_to_num(distance), 0.0), np.float32)


def find_cube(
    image: Image,
    field: Field,
    checkers: Sequence[tuple[float, float, float]] = (),
    on_bar: Sequence[tuple[float, float, float]] = (),
) -> list[tuple[float, float, float]]:
    """Where the cube may lie (field pixels) and how strongly each place stands out: the bar's
    middle, then the bar's places and those round the field (:func:`find_cube_zones`), each
    strongest first."""
    middle, bar, around = find_cube_zones(image, field, checkers, on_bar)
    return [*middle, *bar, *around]


def find_cube_zones(
    image: Image,
    field: Field,
    checkers: Sequence[tuple[float, float, float]] = (),
    on_bar: Sequence[tuple[float, float, float]] = (),
    around: int = CANDIDATES,
) -> tuple[Places, Places, Places]:
    """Where the cube may lie (field pixels) and how strongly each place stands out: the bar's
    middle (always looked at; none when the bar is not in the picture), up to
    :data:`CANDIDATES` places on the bar and up to ``around`` round the field, each strongest
    first.

    Looked for on the bar and round the field (not on the points, where it does not rest, nor
    where ``checkers`` lie off the bar or ``on_bar`` checkers, known by their round rims, lie on
    it; x, y and radius in field pixels).
    """
    scale = SEARCH_RADIUS / field.radius
    mx, my = MARGIN[0] * field.width, MARGIN[1] * field.height
    origin = (-mx, -my)
    size = (round((field.width + 2 * mx) * scale), round((field.height + 2 * my) * scale))
    matrix = _matrix(image, field, scale, origin)
    view = cv2.warpPerspective(image, matrix, size, flags=cv2.INTER_AREA)
    inside = cv2.warpPerspective(
        np.full(image.shape[:2], 255, np.uint8), matrix, size, flags=cv2.INTER_NEAREST
    )
    valid = cv2.erode(inside, np.ones((3, 3), np.uint8)) > 0
    lab = cv2.cvtColor(view, cv2.COLOR_BGR2LAB).astype(np.float32)
    height, width = valid.shape
    y0 = round(my * scale)
    y1 = round((my + field.height) * scale)
    inset = max(1, round(0.12 * (field.bar[1] - field.bar[0]) * scale))
    b0 = round((mx + field.bar[0]) * scale) + inset
    b1 = max(b0 + 1, round((mx + field.bar[1]) * scale) - inset)
    distance = np.zeros((height, width), np.float32)
    noise = np.ones((height, width), np.float32)
    x0, x1 = round(mx * scale), round((mx + field.width) * scale)
    regions = (
        ((slice(y0, y1), slice(b0, b1)), 0),  # the bar, down its length
        ((slice(0, y0), slice(b0, b1)), 0),  # beyond its top end
        ((slice(y1, height), slice(b0, b1)), 0),  # beyond its bottom end
        ((slice(0, y0), slice(0, b0)), 1),  # the frame beyond the top edge, along it
        ((slice(0, y0), slice(b1, width)), 1),
        ((slice(y1, height), slice(0, b0)), 1),  # beyond the bottom edge
        ((slice(y1, height), slice(b1, width)), 1),
        ((slice(y0, y1), slice(0, x0)), 0),  # left of the field: a tray or the frame, down it
        ((slice(y0, y1), slice(x1, width)), 0),  # right of the field
    )
    valid[y0:y1, x0:b0] = False  # the points: the cube does not rest there
    valid[y0:y1, b1:x1] = False
    lightness = np.ascontiguousarray(lab[:, :, 0])
    if EDGE_BLUR > 0:  # edges, not grain
        lightness = np.asarray(cv2.GaussianBlur(lightness, (0, 0), EDGE_BLUR), np.float32)
    edges = cv2.magnitude(
        cv2.Sobel(lightness, cv2.CV_32F, 1, 0, ksize=3),
        cv2.Sobel(lightness, cv2.CV_32F, 0, 1, ksize=3),
    )
    for edge in (y0, y1):  # the field's own ends (bar against frame) are not the cube's edges
        edges[max(edge - 2, 0) : edge + 3, :] = 0.0
    for edge in (x0, x1):
        edges[:, max(edge - 2, 0) : edge + 3] = 0.0
    for (rows, columns), axis in regions:
        # a cube of the bar's own colour still shows its edges and its digits
        part = np.maximum(
            _strip_distance(lab[rows, columns], valid[rows, columns], axis),
            EDGE_WEIGHT * np.where(valid[rows, columns], edges[rows, columns], 0.0),
        )
        if not part.size:
            continue
        distance[rows, columns] = part
        seen = part[valid[rows, columns]]
        level = float(np.percentile(seen, NOISE[0])) + NOISE[1] if seen.size else 1e6
        noise[rows, columns] = level
    bar_left, bar_right = field.bar
    off_bar = [c for c in checkers if not bar_left - c[2] < c[0] < bar_right + c[2]]
    # what the checker finder took for a checker on the bar may be the cube, unless its rim is round
    for x, y, radius in [*off_bar, *on_bar]:
        centre = (round((x + mx) * scale), round((y + my) * scale))
        cv2.circle(distance, centre, round(radius * scale * 1.15), 0.0, -1)
    side = max(3, round(SIDE * SEARCH_RADIUS))
    score = cv2.boxFilter(distance / noise, -1, (side, side))
    peaks = (score >= cv2.dilate(score, np.ones((side, side), np.uint8))) & (score >= PRESENCE)
    # the centred cube's own place, the bar's middle, is always looked at (first): there the
    # cube may not stand out (a light cube on a light bar) yet its face can still be read
    middle_row = round((my + field.height / 2) * scale)
    reach = round(CENTRED_REACH * SEARCH_RADIUS)
    window = score[max(middle_row - reach, 0) : middle_row + reach + 1, b0:b1]
    middle: Places = []
    if window.size:
        peak_row, peak_column = np.unravel_index(int(np.argmax(window)), window.shape)
        top_row, left_column = int(peak_row) + max(middle_row - reach, 0), int(peak_column) + b0
        middle.append(
            (left_column / scale - mx, top_row / scale - my, float(score[top_row, left_column]))
        )
    bar_zone = np.zeros_like(peaks)
    bar_zone[:, b0:b1] = True
    # the bar (where a cube mostly rests) and round the field, each with its own few
    zones: list[Places] = []
    for zone, most in ((peaks & bar_zone, CANDIDATES), (peaks & ~bar_zone, around)):
        ys, xs = np.nonzero(zone)
        chosen: list[tuple[int, int]] = []
        found: Places = []
        for k in np.argsort(-score[ys, xs]):
            row, column = int(ys[k]), int(xs[k])
            if any(abs(row - r) < side and abs(column - c) < side for r, c in chosen):
                continue  # the same thing again, a pixel or two on
            chosen.append((row, column))
            found.append((column / scale - mx, row / scale - my, float(score[row, column])))
            if len(chosen) == most:
                break
        zones.append(found)
    return middle, zones[0], zones[1]


#: the numbers a cube shows, as the glyphs read along them
_NUMBERS = {2: "2", 4: "4", 8: "8", 16: "16", 32: "32", 64: "64"}


@lru_cache(maxsize=1)
def _digit_templates() -> dict[str, Floats]:
    """Each digit a cube shows, drawn in each Hershey font at two stroke weights: a matrix of
    normalised glyph pictures (one row per drawing) per digit."""
    out: dict[str, Floats] = {}
    for digit in "123468":
        rows = []
        for font in _HERSHEY:
            for thickness in (2, 5):
                canvas = np.zeros((90, 90), np.uint8)
                cv2.putText(canvas, digit, (15, 70), font, 1.8, 255, thickness, cv2.LINE_AA)
                glyph = _normalise(canvas.astype(np.float32) / 255.0)
                if glyph is not None:
                    rows.append(glyph.ravel())
        out[digit] = np.asarray(np.stack(rows), np.float32)
    return out


def _normalise(ink: Floats) -> Floats | None:
    """The ink's bounding box scaled (keeping its proportions) into a GLYPH x GLYPH picture,
    softened and brought to zero mean and unit norm, so fonts of other weights compare fairly."""
    ys, xs = np.nonzero(ink > INKED)
    if len(xs) < 4:
        return None
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    crop = ink[y0:y1, x0:x1]
    side = max(crop.shape)
    square = np.zeros((side, side), np.float32)
    oy, ox = (side - crop.shape[0]) // 2, (side - crop.shape[1]) // 2
    square[oy : oy + crop.shape[0], ox : ox + crop.shape[1]] = crop
    small = cv2.resize(square, (GLYPH, GLYPH), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), 1.0)
    small = small - small.mean()
    norm = float(np.linalg.norm(small))
    return None if norm < 1e-6 else np.asarray(small / norm, np.float32)


def _read_glyphs(glyphs: Sequence[Floats], pair_vertical: bool) -> tuple[int | None, float]:
    """The number the glyphs spell, trying each way the cube can lie, and the mean match of its
    digits (each in its best-matching font)."""
    pictures = [_normalise(glyph) for glyph in glyphs]
    if any(picture is None for picture in pictures):
        return None, -1.0
    templates = _digit_templates()
    best: tuple[int | None, float] = (None, -1.0)
    for value, text in _NUMBERS.items():
        if len(text) != len(glyphs):
            continue
        for turn in range(4):
            if len(glyphs) == 2 and (turn % 2 == 1) != pair_vertical:
                continue  # a pair lying across reads across; one lying along, along
            order = list(pictures)
            if len(glyphs) == 2 and turn in (2, 3):
                order.reverse()  # turned over, the glyph read first lies last
            matches = [
                float((templates[digit] @ np.rot90(picture, turn).ravel()).max())
                for picture, digit in zip(order, text, strict=True)
                if picture is not None
            ]
            score = float(np.mean(matches))
            if score > best[1]:
                best = (value, score)
    return best


@lru_cache(maxsize=1)
def _number_templates() -> dict[int, Floats]:
    """Each number drawn whole in each Hershey font, at stroke weights up to those of digits run
    together by a soft focus, in the four ways a cube can lie: one matrix of pictures per number."""
    out: dict[int, Floats] = {}
    for value in CUBE_VALUES:
        rows = []
        for font in _HERSHEY:
            for thickness in (2, 5, 8):
                canvas = np.zeros((100, 160), np.uint8)
                cv2.putText(canvas, str(value), (15, 75), font, 1.8, 255, thickness, cv2.LINE_AA)
                glyph = _normalise(canvas.astype(np.float32) / 255.0)
                if glyph is not None:
                    rows += [np.rot90(glyph, turn).ravel() for turn in range(4)]
        out[value] = np.asarray(np.stack(rows), np.float32)
    return out


def _looped(shape: npt.NDArray[np.uint8]) -> bool:
    """Whether a shape (a 0/1 picture) closes round a hole: a 6's loop, a closed 4's."""
    _outlines, nesting = cv2.findContours(shape, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    return nesting is not None and bool((nesting[0][:, 3] >= 0).any())


def _read_whole(ink: Floats) -> tuple[int | None, float]:
    """The number one ink shape shows (a digit, or two run together), and how well it matched.
    Two digits run together make a shape nearly as wide as it is long (:data:`RUN_TOGETHER`),
    whichever way the cube lies, or one with a loop (a 6's, a 4's, a 1 joined to a 6); a narrower
    one with no loop is read as one digit only (a narrow font's 2 matched a 64 on its side)."""
    picture = _normalise(ink)
    if picture is None:
        return None, -1.0
    shape = (ink > INKED).astype(np.uint8)
    ys, xs = np.nonzero(shape)
    short, long = sorted((int(xs.max() - xs.min()) + 1, int(ys.max() - ys.min()) + 1))
    one_digit = short < RUN_TOGETHER * long and not _looped(shape)
    best: tuple[int | None, float] = (None, -1.0)
    for value, templates in _number_templates().items():
        if one_digit and value >= 10:
            continue
        match = float((templates @ picture.ravel()).max())
        if match > best[1]:
            best = (value, match)
    return best


def _shape(labels: npt.NDArray[np.int32], label: int, ink: Floats) -> Floats:
    """One ink shape of a close-up as a 0..1 picture."""
    glyph = np.where(labels == label, ink, 0.0)
    return np.asarray(glyph / max(float(glyph.max()), 1.0), np.float32)


def _setting(grey: Image, labels: npt.NDArray[np.int32], pieces: tuple[int, ...]) -> float:
    """How plainly ink shapes sit on one even colour: the difference between the shapes and a
    band round them, over the band's own variation (digits on a cube's face stand out plainly;
    a board's grain, a checker's rim or a shadow's edge do not)."""
    shape = np.isin(labels, pieces).astype(np.uint8)
    reach = max(2, round(0.25 * FACE_RADIUS))
    near = cv2.dilate(shape, np.ones((3, 3), np.uint8))
    band = (cv2.dilate(shape, np.ones((2 * reach + 1, 2 * reach + 1), np.uint8)) > 0) & (near == 0)
    if not band.any():
        return 0.0
    around = grey[band].astype(np.float32)
    inside = grey[shape > 0].astype(np.float32)
    return abs(float(inside.mean()) - float(around.mean())) / (float(around.std()) + 2.0)


def _square_turn(grey: Image) -> float:
    """How far (degrees, -45 to 45) a square block in the middle of ``grey`` is turned from the
    image's axes: the mean direction of its edges taken four-fold (a square's four sides agree),
    weighted by their strength, within a cube's reach of the middle."""
    values = grey.astype(np.float32)
    gx = cv2.Sobel(values, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(values, cv2.CV_32F, 0, 1, ksize=3)
    size = grey.shape[0]
    along = np.arange(size, dtype=np.float32) - (size - 1) / 2
    near = along[None, :] ** 2 + along[:, None] ** 2 <= (TURN_REACH * FACE_RADIUS) ** 2
    xx, yy = gx * gx, gy * gy
    power = xx + yy  # an edge's strength, squared: its weight
    total = float((power * near).sum())
    if total <= 0:
        return 0.0
    # each edge's direction taken four-fold, weighted by its strength: power * exp(4i angle),
    # from the double-angle formulas (no angles computed: a tenth of the time)
    cos2, sin2 = xx - yy, 2 * gx * gy  # power * cos(2 angle), power * sin(2 angle)
    unit = np.where(near & (power > 0), 1.0 / np.maximum(power, 1e-12), 0.0)
    pooled_cos = float(((cos2 * cos2 - sin2 * sin2) * unit).sum())  # sum of power * cos(4 angle)
    pooled_sin = float((2 * cos2 * sin2 * unit).sum())  # sum of power * sin(4 angle)
    return math.degrees(math.atan2(pooled_sin, pooled_cos) / 4)


def read_face(
    image: Image, field: Field, x: float, y: float
) -> tuple[int | None, float, float, float]:
    """The number on a cube lying about field pixel (x, y): its value (None when no number is
    seen), how well it matched (correlation), and where its digits lie (field pixels).

    In a close-up round (x, y), the ink is what stands apart from its neighbourhood (a local
    threshold, dark digits on a light cube and light digits on a dark one); the shapes of a
    digit's size near the middle are read alone (one digit, or two run together) and in
    neighbouring pairs (two digits), and the best reading wins.
    """
    scale = FACE_RADIUS / field.radius
    half = REACH * FACE_RADIUS
    side = round(2 * half)
    matrix = _matrix(image, field, scale, (x - half / scale, y - half / scale))
    patch = cv2.warpPerspective(image, matrix, (side, side), flags=cv2.INTER_LINEAR)
    grey = np.asarray(cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY), np.uint8)
    # a cube lies at any angle on the board: turned square with the close-up, its digits lie
    # in one of the four ways the numbers are matched in
    rotation = cv2.getRotationMatrix2D((half, half), _square_turn(grey), 1.0)
    grey = np.asarray(
        cv2.warpAffine(
            grey, rotation, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        ),
        np.uint8,
    )
    back = cv2.invertAffineTransform(rotation)  # the turned close-up -> the close-up as cut
    block = 2 * round(INK_BLOCK * FACE_RADIUS) + 1
    ink = np.abs(grey.astype(np.float32) - cv2.blur(grey.astype(np.float32), (block, block)))
    best: tuple[int | None, float, float, float] = (None, -1.0, x, y)
    for polarity, offset in (
        (cv2.THRESH_BINARY_INV, INK_CONTRAST),
        (cv2.THRESH_BINARY, -INK_CONTRAST),
    ):
        mask = cv2.adaptiveThreshold(grey, 255, cv2.ADAPTIVE_THRESH_MEAN_C, polarity, block, offset)
        if INK_JOIN:  # a thin stroke broken by the soft focus is one stroke
            mask = cv2.dilate(mask, np.ones((2, 2), np.uint8), iterations=INK_JOIN)
        count, found, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
        labels = np.asarray(found, np.int32)
        shapes = []
        for label in range(1, count):
            left, top, width, height, _area = (int(v) for v in stats[label])
            size = max(width, height)
            if not (0.3 * FACE_RADIUS <= size <= 1.05 * FACE_RADIUS):
                continue
            if min(width, height) < 0.1 * FACE_RADIUS:
                continue
            if left == 0 or top == 0 or left + width >= side or top + height >= side:
                continue  # runs out of the close-up: an edge, not a digit
            shapes.append((label, float(centres[label][0]), float(centres[label][1]), size))
        # the digits lie in the middle: a grainy board offers many more shapes further out
        shapes.sort(key=lambda shape: math.hypot(shape[1] - half, shape[2] - half))
        shapes = shapes[:SHAPES]

        readings: list[tuple[int | None, float, float, float, float]] = []
        for index, (label, cx, cy, size) in enumerate(shapes):
            if math.hypot(cx - half, cy - half) <= 0.9 * FACE_RADIUS:
                setting = _setting(grey, labels, (label,))
                readings.append((*_read_whole(_shape(labels, label, ink)), cx, cy, setting))
            for other, ox, oy, other_size in shapes[index + 1 :]:
                if max(size, other_size) > 1.5 * min(size, other_size):
                    continue
                if math.hypot(cx - ox, cy - oy) > 1.1 * max(size, other_size):
                    continue
                mx, my = (cx + ox) / 2, (cy + oy) / 2
                if math.hypot(mx - half, my - half) > 0.9 * FACE_RADIUS:
                    continue
                vertical = abs(cy - oy) > abs(cx - ox)
                first_is_label = (cy < oy) if vertical else (cx < ox)
                pair = [_shape(labels, label, ink), _shape(labels, other, ink)]
                if not first_is_label:
                    pair.reverse()
                setting = _setting(grey, labels, (label, other))
                readings.append((*_read_glyphs(pair, vertical), mx, my, setting))
        for value, shape_match, cx, cy, setting in readings:
            # a digit is ink on a plain face: how well it stands out from what is round it
            match = shape_match * min(1.0, setting / SETTING)
            if match > best[1]:
                cx, cy = (float(v) for v in back @ np.array([cx, cy, 1.0]))
                best = (value, match, x + (cx - half) / scale, y + (cy - half) / scale)
    if best[0] is None or best[1] < MATCH:
        return (None, *best[1:])
    return best
