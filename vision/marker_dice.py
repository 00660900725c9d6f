"""The dice on a board known by its markers: where they lie, and the pips each one shows.

The marker calibration keeps a picture of the empty board (``Calibration.reference``), so a die is
found as what changed against it: a small solid square on the playing field that is neither board
nor checker (:func:`find_dice`). Each candidate is then read in a top-down close-up
(:func:`vision.close_up.board_patch`) knowing the die's size in pixels (:func:`read_die`): its
pips, how sure the reading is and whether the die lies cocked. :mod:`vision.reader` composes the
two into the board's reading.

This is not :mod:`vision.dice`, which reads dice in any photo without a calibration (pips first,
any size, any table): here the board and the die's size are known, and the reading leans on them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.calibration import RECTIFIED_SCALE, Calibration
from vision.checkers import SlotEvidence
from vision.config import ReaderConfig
from vision.images import Image
from vision.layout import BoardLayout


@lru_cache(maxsize=8)
def _field_mask(layout: BoardLayout, scale: float) -> npt.NDArray[np.uint8]:
    width, height = layout.rectified_size(scale)
    mask = np.zeros((height, width), np.uint8)
    for x0, y0, x1, y1 in layout.halves().values():
        a = layout.to_pixels(x0, y0, scale)
        b = layout.to_pixels(x1, y1, scale)
        cv2.rectangle(
            mask, (round(a[0]) + 2, round(a[1]) + 2), (round(b[0]) - 2, round(b[1]) - 2), 255, -1
        )
    return mask


@lru_cache(maxsize=8)
def _field_box(layout: BoardLayout, scale: float) -> tuple[int, int, int, int]:
    """The playing field's bounding box in the rectified image: x0, y0, x1, y1 pixels."""
    x0, y0, x1, y1 = layout.field_rect()
    a = layout.to_pixels(x0, y0, scale)
    b = layout.to_pixels(x1, y1, scale)
    return (int(a[0]), int(a[1]), int(b[0]) + 1, int(b[1]) + 1)


_reference_lab: dict[int, tuple[Image, npt.NDArray[np.float32]]] = {}


def _change_map(
    top: Image,
    calibration: Calibration,
    gain: npt.NDArray[np.float32],
    box: tuple[int, int, int, int],
) -> npt.NDArray[np.float32]:
    """How far each pixel of ``box`` (light evened out) is from the calibration's empty board.

    At half resolution (every second pixel each way): a die is still a dozen pixels wide.
    """
    reference = calibration.reference
    assert reference is not None
    x0, y0, x1, y1 = box
    cached = _reference_lab.get(id(reference))
    if cached is None or cached[0] is not reference:
        if len(_reference_lab) > 8:
            _reference_lab.clear()
        lab = cv2.cvtColor(reference[y0:y1:2, x0:x1:2], cv2.COLOR_BGR2LAB).astype(np.float32)
        cached = (reference, lab * np.array([0.6, 1.0, 1.0], np.float32))
        _reference_lab[id(reference)] = cached
    crop = top[y0:y1:2, x0:x1:2].astype(np.float32) / gain[y0:y1:2, x0:x1:2, None]
    even = np.clip(crop, 0, 255).astype(np.uint8)
    now = cv2.cvtColor(even, cv2.COLOR_BGR2LAB).astype(np.float32) * np.array(
        [0.6, 1.0, 1.0], np.float32
    )
    difference = now - cached[1]
    return np.asarray(np.sqrt(np.einsum("ijk,ijk->ij", difference, difference)), np.float32)


def find_dice(
    top: Image,
    calibration: Calibration,
    slots: SlotEvidence,
    gain: npt.NDArray[np.float32],
    config: ReaderConfig,
    scale: float = RECTIFIED_SCALE,
) -> list[tuple[float, float]]:
    """Centres (board units) of die-sized things on the playing field that are neither board nor checker.

    At most ``config.die_candidates``, deepest first; :func:`read_die` tells dice from the rest.
    """
    layout = calibration.layout
    box = _field_box(layout, scale)
    x0, y0, x1, y1 = box
    change = _change_map(top, calibration, gain, box)
    field = _field_mask(layout, scale)[y0:y1:2, x0:x1:2] > 0
    side = layout.die_size * scale / 2  # pixels of the half-resolution mask
    # only what stands out from its surroundings: a passing shadow or a sleeve changes a broad
    # area, a die a small one (the change less its opening by a square wider than a die)
    broad = max(3, round(config.die_widest * side) | 1)
    ground = cv2.morphologyEx(change, cv2.MORPH_OPEN, np.ones((broad, broad), np.uint8))
    mask = (((change - ground) > config.die_change) & field).astype(np.uint8)
    for (x, y), radius, present in zip(slots.centres, slots.radius, slots.present, strict=True):
        if present:
            centre = (round((x - x0) / 2), round((y - y0) / 2))
            cv2.circle(mask, centre, round(radius / 2 * config.checker_clearance), 0, -1)
    # a die of the board's own colour shows only its pips, outline and shadow: closing the gaps
    # between them (half a side at most) fills its face in
    gap = max(3, round(config.die_fill * side) | 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (gap, gap))
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, disc), np.uint8)
    # a die is a solid square: deep inside the changed area there is room for a disc nearly as wide
    # as the die; what is left of a checker's rim, or the gap between touching checkers, is thinner.
    # Each such deep point, a die's width from the next, is a candidate, even where a die touches
    # the checkers and its changed area runs into theirs.
    depth = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    least = config.die_core * side / 2
    window = max(3, round(side) | 1)
    most = config.die_widest * side / 2  # wider is a shadow, a hand, a sleeve: not one die
    peaks = (
        (depth >= least)
        & (depth <= most)
        & (depth >= cv2.dilate(depth, np.ones((window, window), np.uint8)))
    )
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-depth[ys, xs], kind="stable")
    found: list[tuple[float, float, float]] = []
    taken: list[tuple[float, float]] = []
    for index in order:
        x, y = float(xs[index]), float(ys[index])
        if any(math.hypot(x - tx, y - ty) < 0.9 * side for tx, ty in taken):
            continue
        taken.append((x, y))
        u = (2 * x + x0) / scale - layout.margin
        v = (2 * y + y0) / scale - layout.margin
        found.append((float(depth[ys[index], xs[index]]), u, v))
        if len(found) >= config.die_candidates:
            break
    return [(u, v) for _, u, v in found]


#: A blob that may be pips: its centre (x, y pixels), its area (pixels) and its outline.
_Blob = tuple[float, float, float, cv2.typing.MatLike]


def read_die(patch: Image, die_size_pixels: float, config: ReaderConfig) -> tuple[int, float, bool]:
    """Pips, confidence and cockedness of the die in the middle of a top-down close-up ``patch``.

    The die's colour is the commoner one near the centre; a light die has dark pips, a dark die
    light ones. Pips are blobs of pip size inside the face, ringed by the die's colour (a row of
    pips that blur ran together counts by its length); every face's pips lie symmetrically about
    its middle. A cocked die shows its face foreshortened: the pips of a 4, 5 or 6 spread as an
    oblong, a cleanly seen face is an oblong, or lone pips are ellipses, not circles.
    """
    side = patch.shape[0]
    lab = cv2.cvtColor(cv2.GaussianBlur(patch, (3, 3), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    lightness = lab[:, :, 0]
    ys, xs = np.mgrid[0:side, 0:side]
    radial = np.hypot(xs - side / 2, ys - side / 2)
    near = radial < 0.3 * die_size_pixels
    body_l = float(np.median(lightness[near]))
    light_body = body_l >= config.light_die
    # centre on the die's own colour (its shadow and a tilted side moved the first guess)
    body = np.median(lab[near], axis=0)
    distance = np.sqrt((((lab - body) * np.array([0.7, 1.0, 1.0], np.float32)) ** 2).sum(axis=2))
    face = _face(distance, radial, near, side, die_size_pixels, config)
    contrast = (body_l - lightness) if light_body else (lightness - body_l)
    pip_mask = _pip_mask(contrast, radial, face.inside, die_size_pixels, config)
    contours, _ = cv2.findContours(pip_mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    # what looks like the die: its own colour, or its pips (a pip is ringed by it, a die's middle
    # is all of it)
    die_like = (distance < config.die_body_distance) | (pip_mask > 0)
    expected = math.pi * (0.085 * die_size_pixels) ** 2  # one pip's area
    blobs = _pip_blobs(
        contours, die_like.astype(np.uint8), face.centre, die_size_pixels, expected, config
    )
    blobs = _one_or_a_two(blobs, face.centre, die_size_pixels, expected)
    blobs, (centre_x, centre_y) = _about_middle(blobs, face.centre, die_size_pixels)
    counted = _count_pips(blobs, die_size_pixels, expected)
    pips, sizes, spots = counted.count, counted.sizes, counted.spots
    cocked = _is_cocked(counted, face.aspect, config)
    if not 1 <= pips <= 6:
        return max(0, min(pips, 6)), 0.2, cocked
    confidence = float(np.clip(1.0 - np.abs(np.array(sizes) - 1.0).mean() * 0.5, 0.3, 1.0))
    if pips == 1:  # a lone pip is often cut larger; its size says little
        confidence = max(confidence, 0.9)
    # a die's middle is all die: its own colour or its pips
    middle = np.hypot(xs - centre_x, ys - centre_y) < 0.3 * die_size_pixels
    confidence *= float(die_like[middle].mean())
    if not _symmetric(spots, 0.13 * die_size_pixels):
        # every flat face is symmetric about its middle; a tilted one may have run pips together
        if not cocked:
            return 0, 0.0, cocked
        confidence *= 0.5
    return pips, round(confidence, 4), cocked


@dataclass(frozen=True, slots=True)
class _Face:
    """The die's face in a close-up: its middle (x, y pixels), its shape, the area pips lie in.

    ``aspect`` is the face's short side over its long side, 0 where the face is not seen apart;
    ``inside`` is 1 on the face (its pips filled in) and 0 elsewhere.
    """

    centre: tuple[float, float]
    aspect: float
    inside: npt.NDArray[np.uint8]


def _face(
    distance: npt.NDArray[np.float32],
    radial: npt.NDArray[np.float64],
    near: npt.NDArray[np.bool_],
    side: int,
    die_size_pixels: float,
    config: ReaderConfig,
) -> _Face:
    """The die-coloured area about the middle with its pips filled in (its convex hull), or,
    where it runs into a background of its own colour, a disc of the die's size."""
    face = ((distance < config.die_body_distance) & (radial < 0.75 * die_size_pixels)).astype(
        np.uint8
    )
    closed = cv2.morphologyEx(face, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(closed)
    overlap = np.bincount(labels[near].ravel(), minlength=count)
    overlap[0] = 0
    inside = (radial < 0.55 * die_size_pixels).astype(np.uint8)
    if count > 1 and overlap.max() > 0:
        best = int(overlap.argmax())
        if 0.6 < stats[best][4] / die_size_pixels**2 < 1.6:  # not run into a background
            return _face_apart(labels == best, centroids[best], inside, die_size_pixels)
    return _Face((side / 2, side / 2), 0.0, inside)


def _face_apart(
    area: npt.NDArray[np.bool_],
    centroid: npt.NDArray[np.float64],
    disc: npt.NDArray[np.uint8],
    die_size_pixels: float,
) -> _Face:
    """The face seen apart from its background (``area``); the ``disc`` where its hull is small."""
    outline, _ = cv2.findContours(area.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = np.zeros_like(disc)
    largest = max(outline, key=cv2.contourArea)
    cv2.fillPoly(hull, [cv2.convexHull(largest)], 1)
    (_, _), (face_w, face_h), _ = cv2.minAreaRect(largest)
    long_side = max(face_w, face_h, 1.0)
    filled = cv2.contourArea(largest) / max(face_w * face_h, 1.0)
    aspect = 0.0
    # only a face seen clean (a full rectangle a die long) tells its shape
    if 0.85 <= long_side / die_size_pixels <= 1.15 and filled >= 0.88:
        aspect = min(face_w, face_h) / long_side
    inside = hull if hull.sum() >= 0.5 * die_size_pixels**2 else disc
    return _Face((float(centroid[0]), float(centroid[1])), aspect, inside)


def _pip_mask(
    contrast: npt.NDArray[np.float32],
    radial: npt.NDArray[np.float64],
    inside: npt.NDArray[np.uint8],
    die_size_pixels: float,
    config: ReaderConfig,
) -> npt.NDArray[np.uint8]:
    """Where the face is far enough from the die's own tone to be a pip (1), else 0.

    The threshold lies half way between the die and its pips' deepest tone, so blurred
    neighbours stay apart.
    """
    on_face = radial < 0.5 * die_size_pixels
    deepest = float(np.percentile(contrast[on_face], 98))
    return (contrast > max(config.pip_contrast, 0.5 * deepest)).astype(np.uint8) & inside


def _pip_blobs(
    contours: Sequence[cv2.typing.MatLike],
    die_like: npt.NDArray[np.uint8],
    centre: tuple[float, float],
    die_size_pixels: float,
    expected: float,
    config: ReaderConfig,
) -> list[_Blob]:
    """The blobs of pip size (one pip, or a few blur ran together) near the face's middle.

    A pip lies on the face: ``die_like`` (the die's colour, or its neighbour pips) all round it.
    """
    blobs: list[_Blob] = []
    for contour in contours:
        area = float(cv2.contourArea(contour)) + 0.5 * len(contour)
        if area < 0.4 * expected or area > 5 * expected:
            continue
        moments = cv2.moments(contour)
        if moments["m00"] <= 0:
            continue
        cx, cy = moments["m10"] / moments["m00"], moments["m01"] / moments["m00"]
        if math.hypot(cx - centre[0], cy - centre[1]) > 0.62 * die_size_pixels:
            continue
        if _on_face(contour, die_like, die_size_pixels) < config.pip_on_face:
            continue
        blobs.append((cx, cy, area, contour))
    return blobs


def _one_or_a_two(
    blobs: list[_Blob], centre: tuple[float, float], die_size_pixels: float, expected: float
) -> list[_Blob]:
    """Two lone pips are a 2 only at opposite corners; otherwise the one nearer the middle.

    A 2's pips lie 0.76 of a side apart (less if cocked); two blots closer or further are a 1
    beside a piece of the board.
    """
    if len(blobs) == 2 and max(b[2] for b in blobs) < 2.2 * expected:
        apart = math.hypot(blobs[0][0] - blobs[1][0], blobs[0][1] - blobs[1][1])
        if not 0.62 <= apart / die_size_pixels <= 0.95:
            return [min(blobs, key=lambda b: math.hypot(b[0] - centre[0], b[1] - centre[1]))]
    return blobs


def _about_middle(
    blobs: list[_Blob], centre: tuple[float, float], die_size_pixels: float
) -> tuple[list[_Blob], tuple[float, float]]:
    """The blobs that are pips of one face, and the face's middle (``centre`` if there are none).

    Every face's pips lie symmetrically about the face's middle, at most 0.38 of the die's side
    from it: their mean is the middle, and whatever lies further out is not a pip of this face.
    """
    centre_x, centre_y = centre
    for _ in range(2):
        if blobs:
            centre_x = float(np.mean([b[0] for b in blobs]))
            centre_y = float(np.mean([b[1] for b in blobs]))
            blobs = [
                b
                for b in blobs
                if math.hypot(b[0] - centre_x, b[1] - centre_y) <= 0.46 * die_size_pixels
            ]
    return blobs, (centre_x, centre_y)


@dataclass(frozen=True, slots=True)
class _Counted:
    """The pips of a die's face, and what their blobs say of how the face is seen.

    ``sizes`` holds each blob's area over that of the pips it counts for; ``spots`` each pip's
    centre. ``shapes`` (short over long axis), ``slants`` (the long axis, radians) and ``shaped``
    (centres) describe the lone pips whose outline an ellipse fits.
    """

    count: int
    sizes: list[float]
    spots: list[tuple[float, float]]
    shapes: list[float]
    slants: list[float]
    shaped: list[tuple[float, float]]


def _count_pips(blobs: list[_Blob], die_size_pixels: float, expected: float) -> _Counted:
    """Count the pips of ``blobs``: a lone pip is one, a row blur ran together counts by its length."""
    pips, shapes, sizes = 0, [], []
    slants: list[float] = []
    shaped: list[tuple[float, float]] = []
    spots: list[tuple[float, float]] = []
    for cx, cy, area, contour in blobs:
        if len(contour) >= 5 and area < 1.8 * expected:  # not pips that blur ran together
            (_, _), (d1, d2), slant = cv2.fitEllipse(contour)
            shapes.append(min(d1, d2) / max(d1, d2, 1e-6))
            slants.append(math.radians(slant if d1 >= d2 else slant + 90))  # the long axis
            shaped.append((cx, cy))
        row = _row_of_pips(cx, cy, area, contour, die_size_pixels, expected)
        if row is None:
            continue
        spots.extend(row)
        n = len(row)
        pips += n
        sizes.append(area / (n * expected))
    return _Counted(pips, sizes, spots, shapes, slants, shaped)


def _row_of_pips(
    cx: float,
    cy: float,
    area: float,
    contour: cv2.typing.MatLike,
    die_size_pixels: float,
    expected: float,
) -> list[tuple[float, float]] | None:
    """The centres of the pips in one blob: one pip, or a row of them that blur ran together.

    A row is one pip wide with its pips 0.27 of a side apart, at most three. None for a blot (a
    shadow, an edge, a corner of the board), not a row of pips.
    """
    if area <= 2.2 * expected:
        return [(cx, cy)]
    if len(contour) < 5:
        return None
    (_, _), (d1, d2), _ = cv2.minAreaRect(contour)
    wide, long = min(d1, d2), max(d1, d2)
    n = max(1, round((long - wide) / (0.27 * die_size_pixels)) + 1)
    if n > 3 or wide > 0.3 * die_size_pixels or area > 2.4 * n * expected:
        return None
    if n == 1:
        return [(cx, cy)]
    points = contour.reshape(-1, 2).astype(np.float64)
    _, vectors = np.linalg.eigh(np.cov(points.T))
    dx, dy = vectors[:, 1]  # along the row
    step = (long - wide) / (n - 1)
    spots: list[tuple[float, float]] = []
    for k in range(n):
        offset = (k - (n - 1) / 2) * step
        spots.append((cx + offset * dx, cy + offset * dy))
    return spots


def _is_cocked(counted: _Counted, aspect: float, config: ReaderConfig) -> bool:
    """Whether the die lies cocked, its top face foreshortened.

    The square of pips of a 4 or a 5 becomes an oblong, a 6's columns come closer or further
    apart. Where the pips are seen one by one their spread says so; otherwise (1, 2, 3, blurred
    pips) a face seen clean shows its shape, else the pips' foreshortened shapes do.
    """
    squash = _pip_squash(counted.spots) if len(counted.sizes) == counted.count else None
    if squash is not None:
        return squash > config.cocked_squash_grid
    if aspect > 0:
        return aspect < config.cocked_aspect
    return _tilted(counted.shapes, counted.slants, counted.shaped, config)


def _tilted(
    shapes: list[float],
    slants: list[float],
    centres: list[tuple[float, float]],
    config: ReaderConfig,
) -> bool:
    """Whether pips look foreshortened one way, as on a die leaning against something.

    One pip: it must be clearly oval. Several: their mean elongation, weighted by how well their
    long axes agree, counting only pips stretched across the line to their nearest neighbour (on
    a tilted face pips crowd along the tilt and stretch across it; blur between close pips
    stretches them towards each other instead).
    """
    if not shapes:
        return False
    if len(shapes) == 1:
        return bool(shapes[0] < config.cocked_squash)
    points = np.array(centres, np.float64)
    gaps = np.linalg.norm(points[:, None, :] - points[None, :, :], axis=2)
    np.fill_diagonal(gaps, np.inf)
    nearest = points[gaps.argmin(axis=1)] - points
    towards = np.arctan2(nearest[:, 1], nearest[:, 0])
    across = np.abs(np.sin(np.array(slants) - towards))
    elongation = (1.0 - np.array(shapes)) * across
    doubled = np.exp(2j * np.array(slants))
    agreement = abs(np.sum(elongation * doubled)) / max(float(elongation.sum()), 1e-6)
    return bool(float(elongation.mean()) * agreement > config.cocked_elongation)


def _on_face(
    contour: cv2.typing.MatLike, body_like: npt.NDArray[np.uint8], die_size_pixels: float
) -> float:
    """Share of a thin ring just around a pip's blob that has the die's own colour."""
    gap = max(1, round(0.03 * die_size_pixels))
    width = max(2, round(0.05 * die_size_pixels))
    x, y, w, h = cv2.boundingRect(contour)
    pad = gap + width + 1
    height, breadth = body_like.shape
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(breadth, x + w + pad), min(height, y + h + pad)
    blob = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(blob, [contour], -1, 1, -1, offset=(-x0, -y0))
    near = cv2.dilate(blob, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * gap + 1,) * 2))
    far = cv2.dilate(
        blob, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * (gap + width) + 1,) * 2)
    )
    ring = (far > 0) & (near == 0)
    if not ring.any():
        return 0.0
    return float(body_like[y0:y1, x0:x1][ring].mean())


#: how the pips of each face with four or more spread, short axis over long, on a flat die
_FLAT_SPREAD = {4: 1.0, 5: 1.0, 6: math.sqrt(2 / 3)}


def _pip_squash(spots: list[tuple[float, float]]) -> float | None:
    """How far the spread of 4 to 6 pips is from a flat face's (0 for a flat die); else None.

    The short-over-long ratio of the pips' spread (square root of the ratio of the covariance's
    eigenvalues) is 1 for a 4 or a 5 and sqrt(2/3) for a 6, whichever way the die is turned;
    a die tilted by a third shows 0.72 of that, or for a 6 tilted along its rows, more.
    """
    if len(spots) not in _FLAT_SPREAD:
        return None
    points = np.array(spots, np.float64)
    low, high = np.linalg.eigvalsh(np.cov(points.T))
    ratio = math.sqrt(max(low, 0.0) / max(high, 1e-9))
    return abs(math.log(ratio / _FLAT_SPREAD[len(spots)]))


def _symmetric(spots: list[tuple[float, float]], tolerance: float) -> bool:
    """Whether the pips sit symmetrically about their middle, as on every face from 1 to 6."""
    if len(spots) < 2:
        return True
    points = np.array(spots, np.float64)
    mirrored = 2 * points.mean(axis=0) - points
    distances = np.linalg.norm(points[:, None, :] - mirrored[None, :, :], axis=2)
    return bool(distances.min(axis=0).max() <= tolerance)
