"""The doubling cube on any board known by its playing field: where it rests and the face it shows.

The field's four corners say nothing of the cube, and a real cube is not the renderer's: its size,
colour and font are the cube maker's. What every cube shares is that it is a small square block,
about two thirds of a checker across, lying where no point is: on the bar (in its middle while it
is centred, near an end when a player owns it), or just beyond the field on the owner's side (the
frame, a tray). So the reader

* looks only there (the bar and a margin of the image round the field), in a small top-down view
  where the board around each place is nearly one colour along its length (the bar down its
  length, the frame along it, a tray down it), and takes the square window that differs most from
  that board and is not a checker the field reader found;
* reads the face without assuming a font: the face's ink, cut out and scaled to a standard size,
  is matched against the digits 2, 4, 8, 16, 32 and 64 drawn in each of OpenCV's Hershey fonts
  (sans, serif, script, thin and bold), in the four ways a cube can lie. A face that matches no
  number well (a maker's emblem, as a centred cube often shows in place of 64) reads as 64 when
  the cube is centred.

Nothing is learned from the evaluation renders; the thresholds were set on their tuning split.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from sheshbesh.observation import CubeReading
from vision.field import Field, resize_matrix
from vision.images import Image

FloatArray = npt.NDArray[np.float64]
Floats = npt.NDArray[np.float32]

CUBE_VALUES = (2, 4, 8, 16, 32, 64)
#: pixels per checker radius in the view the cube is looked for in
SEARCH_RADIUS = 8.0
#: pixels per checker radius in the close-up its face is read from
FACE_RADIUS = 20.0
#: how far beyond the field the cube is looked for: shares of the field's width and height
MARGIN = (0.2, 0.2)
#: the cube's side, in checker radii (a cube is 0.55 to 0.75 of a checker across)
SIDE = 1.3
#: a window must differ from the board around it this many times the board's own variation
PRESENCE = 1.5
#: a place in the bar's middle standing out this much, showing no number, is a cube's emblem
EMBLEM = 3.0
#: the places that stand out most are each read: this many on the bar, as many round the field
CANDIDATES = 4
#: ink matching a number this well (normalised correlation) is read as that number
MATCH = 0.6
#: a centred cube is within this share of the field's height of its middle
CENTRED = 0.2
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


def read_field_cube(
    image: Image, field: Field, checkers: Sequence[tuple[float, float, float]] = ()
) -> CubeReading | None:
    """The cube's face and place (``middle``, ``white``, ``black``), or None when none is seen.

    ``checkers``: the checkers the field reader found, (x, y, radius) in field pixels; they are
    not taken for the cube. The reading's confidence is how well the face matched its number.
    """
    best: tuple[float, int | None, float, float, float] | None = None
    candidates = find_cube(image, field, checkers)
    for x, y, presence in candidates:
        value, match, fx, fy = read_face_near(image, field, x, y)
        if best is None or match > best[0]:
            best = (match, value, fx, fy, presence)
    if best is None:
        return None
    match, value, x, y, presence = best
    place = cube_place(field, x, y)
    if value is None:
        # no number anywhere: an emblem on a centred cube reads 64, if something clearly not
        # the bare bar lies in the bar's middle
        middle = [
            c for c in candidates if c[2] >= EMBLEM and cube_place(field, c[0], c[1]) == "middle"
        ]
        if not middle:
            return None
        place, value, match = "middle", 64, 0.5
    confidence = float(np.clip(match, 0.0, 1.0))
    return CubeReading(value, place, round(confidence, 4))


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
    shift = np.array([[scale, 0, -origin[0] * scale], [0, scale, -origin[1] * scale], [0, 0, 1.0]])
    matrix = shift @ field.homography()
    frame_size = (image.shape[1], image.shape[0])
    if frame_size != tuple(field.image_size):
        matrix = matrix @ resize_matrix(frame_size, field.image_size)
    return np.asarray(matrix, np.float64)


def _strip_distance(lab: Floats, valid: npt.NDArray[np.bool_], axis: int) -> Floats:
    """Each pixel's Lab distance from the median of its column (axis 0) or row (axis 1): the
    board along a strip is nearly one colour, whatever lies on it stands out."""
    masked = np.where(valid[..., None], lab, np.nan)
    with warnings.catch_warnings():  # a column wholly outside the image: no board to compare
        warnings.simplefilter("ignore", RuntimeWarning)
        median = np.nanmedian(masked, axis=axis, keepdims=True)
    difference = (lab - median) * np.array([0.7, 1.0, 1.0], np.float32)
    distance = np.sqrt((difference**2).sum(axis=2))
    return np.asarray(np.where(valid, np.nan_to_num(distance), 0.0), np.float32)


def find_cube(
    image: Image, field: Field, checkers: Sequence[tuple[float, float, float]] = ()
) -> list[tuple[float, float, float]]:
    """Where the cube may lie (field pixels) and how strongly each place stands out, strongest
    first (none when nothing stands out).

    Looked for on the bar and round the field (not on the points, where it does not rest).
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
    lightness = lab[:, :, 0]
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
            0.25 * np.where(valid[rows, columns], edges[rows, columns], 0.0),
        )
        if not part.size:
            continue
        distance[rows, columns] = part
        seen = part[valid[rows, columns]]
        noise[rows, columns] = float(np.median(seen)) + 6.0 if seen.size else 1e6
    bar_left, bar_right = field.bar
    for x, y, radius in checkers:
        if bar_left - radius < x < bar_right + radius:
            continue  # what the checker finder took for a checker on the bar may be the cube
        centre = (round((x + mx) * scale), round((y + my) * scale))
        cv2.circle(distance, centre, round(radius * scale * 1.15), 0.0, -1)
    side = max(3, round(SIDE * SEARCH_RADIUS))
    score = cv2.boxFilter(distance / noise, -1, (side, side))
    peaks = (score >= cv2.dilate(score, np.ones((side, side), np.uint8))) & (score >= PRESENCE)
    found: list[tuple[float, float, float]] = []
    on_bar = np.zeros_like(peaks)
    on_bar[:, b0:b1] = True
    # the bar (where a cube mostly rests) and round the field, each with its own few
    for zone in (peaks & on_bar, peaks & ~on_bar):
        ys, xs = np.nonzero(zone)
        chosen: list[tuple[int, int]] = []
        for k in np.argsort(-score[ys, xs]):
            row, column = int(ys[k]), int(xs[k])
            if any(abs(row - r) < side and abs(column - c) < side for r, c in chosen):
                continue  # the same thing again, a pixel or two on
            chosen.append((row, column))
            found.append((column / scale - mx, row / scale - my, float(score[row, column])))
            if len(chosen) == CANDIDATES:
                break
    return found


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
    ys, xs = np.nonzero(ink > 0.35)
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


def _digit_match(glyph: Floats, digit: str) -> float:
    """How well one glyph picture matches ``digit`` in its best-matching font (correlation)."""
    picture = _normalise(glyph)
    if picture is None:
        return -1.0
    return float((_digit_templates()[digit] @ picture.ravel()).max())


def face_glyphs(patch: Image) -> list[Floats] | None:
    """The digits on a close-up of the cube's face: one or two ink shapes (0..1 pictures, in the
    order they are read, upright), or None when the close-up shows no such ink.

    The ink is what Otsu's threshold sets apart from the face's body, whichever is darker; each
    glyph is a piece of it of a digit's size that does not reach the close-up's edge."""
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
    _level, binary = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    light = binary > 0
    ink_mask = light if light.mean() < 0.5 else ~light
    body = grey[~ink_mask].astype(np.float32)
    ink_level = grey[ink_mask].astype(np.float32)
    if not body.size or not ink_level.size or abs(float(body.mean() - ink_level.mean())) < 25:
        return None
    side = patch.shape[0]
    count, labels, stats, centres = cv2.connectedComponentsWithStats(
        ink_mask.astype(np.uint8), connectivity=8
    )
    pieces = []
    for label in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[label])
        if x == 0 or y == 0 or x + w >= side or y + h >= side:
            continue
        if max(w, h) < 0.22 * side or area < 0.01 * side * side:
            continue
        pieces.append(label)
    if not 1 <= len(pieces) <= 2:
        return None
    ink = np.where(ink_mask, np.abs(grey.astype(np.float32) - float(np.median(body))), 0.0)
    ink = ink / max(float(ink.max()), 1.0)
    glyphs = [np.asarray(np.where(labels == label, ink, 0.0), np.float32) for label in pieces]
    if len(pieces) == 1:
        return glyphs
    if len(pieces) == 2:
        (ax, ay), (bx, by) = centres[pieces[0]], centres[pieces[1]]
        heights = [max(stats[p][2], stats[p][3]) for p in pieces]
        if max(heights) > 1.6 * min(heights):
            return None
        if abs(ax - bx) >= abs(ay - by):
            glyphs = [glyphs[0], glyphs[1]] if ax < bx else [glyphs[1], glyphs[0]]
        else:
            glyphs = [glyphs[0], glyphs[1]] if ay < by else [glyphs[1], glyphs[0]]
    return glyphs


def _read_glyphs(glyphs: Sequence[Floats], pair_vertical: bool) -> tuple[int | None, float]:
    """The number the glyphs spell, trying each way the cube can lie, and the mean match."""
    best: tuple[int | None, float] = (None, -1.0)
    for value, text in _NUMBERS.items():
        if len(text) != len(glyphs):
            continue
        for turn in range(4):
            if len(glyphs) == 2 and (turn % 2 == 1) != pair_vertical:
                continue  # a pair lying across reads across; one lying along, along
            order = list(glyphs)
            if len(glyphs) == 2 and turn in (2, 3):
                order.reverse()  # turned over, the glyph read first lies last
            matches = [
                _digit_match(np.ascontiguousarray(np.rot90(glyph, turn)), digit)
                for glyph, digit in zip(order, text, strict=True)
            ]
            score = float(np.mean(matches))
            if score > best[1]:
                best = (value, score)
    return best


def _split(glyph: Floats) -> tuple[list[Floats], bool] | None:
    """One ink shape cut in two across its longer side where the least ink crosses it (the
    middle third), as two digits touching would be; with whether they lie one above the other."""
    ys, xs = np.nonzero(glyph > 0)
    if not len(xs):
        return None
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    vertical = (y1 - y0) > (x1 - x0)
    axis = 1 if vertical else 0
    profile = glyph[y0:y1, x0:x1].sum(axis=axis)
    length = len(profile)
    if length < 6:
        return None
    third = length // 3
    cut = third + int(np.argmin(profile[third : length - third]))
    first, second = np.zeros_like(glyph), np.zeros_like(glyph)
    if vertical:
        first[y0 : y0 + cut, x0:x1] = glyph[y0 : y0 + cut, x0:x1]
        second[y0 + cut : y1, x0:x1] = glyph[y0 + cut : y1, x0:x1]
    else:
        first[y0:y1, x0 : x0 + cut] = glyph[y0:y1, x0 : x0 + cut]
        second[y0:y1, x0 + cut : x1] = glyph[y0:y1, x0 + cut : x1]
    return [first, second], bool(vertical)


def read_face(image: Image, field: Field, x: float, y: float) -> tuple[int | None, float]:
    """The number on the face of a cube lying at field pixel (x, y), and how well it matched
    (mean correlation of its digits); None when no number is seen there."""
    scale = FACE_RADIUS / field.radius
    half = 0.6 * FACE_RADIUS  # the top face, less its edges
    side = round(2 * half)
    matrix = _matrix(image, field, scale, (x - half / scale, y - half / scale))
    patch = np.asarray(
        cv2.warpPerspective(image, matrix, (side, side), flags=cv2.INTER_LINEAR), np.uint8
    )
    glyphs = face_glyphs(patch)
    if glyphs is None:
        return None, 0.0
    readings = []
    if len(glyphs) == 2:
        (ay, ax), (by, bx) = (np.argwhere(g > 0).mean(axis=0) for g in glyphs)
        readings.append(_read_glyphs(glyphs, abs(ay - by) > abs(ax - bx)))
    else:
        readings.append(_read_glyphs(glyphs, False))
        # two digits run together by a soft focus: split where the ink is thinnest
        halves = _split(glyphs[0])
        if halves is not None:
            readings.append(_read_glyphs(halves[0], halves[1]))
    value, match = max(readings, key=lambda reading: reading[1])
    if value is None or match < MATCH:
        return None, match
    return value, match


def read_face_near(
    image: Image, field: Field, x: float, y: float
) -> tuple[int | None, float, float, float]:
    """:func:`read_face` around field pixel (x, y), a quarter of a checker's radius either way
    (the place found is the cube with its shadow): the number, its match and where it matched."""
    best: tuple[int | None, float, float, float] = (None, -1.0, x, y)
    step = 0.25 * field.radius
    for dy in (-step, 0.0, step):
        for dx in (-step, 0.0, step):
            value, match = read_face(image, field, x + dx, y + dy)
            if match > best[1]:
                best = (value, match, x + dx, y + dy)
    return best
