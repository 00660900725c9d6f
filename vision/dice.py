"""Reading dice: the pips of each die's top face, in any photo or inside a region of one.

Dice come in both polarities (a light die with dark pips, a dark or coloured die with light pips,
a see-through die with painted pips), at any size in the frame and on any table, so nothing here
knows a die's colour or the table's. What every die face shares is its pips: 1..6 round blobs of one
size and one polarity, on an even face that contrasts with them, laid out in one of six patterns.

The reader therefore works pip-first:

1. blobs that stand out from their local background, darker or lighter (morphological black-hat
   and top-hat at one working scale), round enough, ringed by an even face;
2. blobs that look alike (size, foreshortening, polarity, the level of the face around them) and
   lie near one another with no edge between them are linked into groups;
3. each group is cut into faces whose pips make a canonical layout (one; a diagonal pair; three in
   a line; a parallelogram, with or without its centre; two parallel rows of three), which rejects
   false faces and splits dice that touch;
4. faces of one die (a camera at a slant sees its top and a side) are reduced to the top face: the
   roundest pips, seen highest.

:func:`read_dice` reads inside an optional region or mask of an image (for a board reader that
knows where the dice may lie); :func:`read_dice_photo` reads a whole photo with no board. Both take
BGR uint8 images and return :class:`sheshbesh.observation.DieReading` in the image's pixels.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from sheshbesh.observation import DieReading
from vision.errors import ImageError
from vision.images import Image, check_image

Mask = npt.NDArray[np.uint8]
Levels = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class DiceConfig:
    """The reader's few settings; sizes are in working pixels (the photo scaled to ``working_width``).

    None of them is a colour: levels are measured per image and per blob.
    """

    working_width: int = 640
    #: the side of a die seen at working scale, aimed for when the caller gives a die's size
    working_die_side: float = 44.0
    #: background estimates' reaches (at half the working scale): small pips on small dice are
    #: found with the first (a small die as a whole would pass for a pip with the second), big
    #: pips with the second
    hat_kernels: tuple[int, int] = (9, 17)
    #: a pip must differ from its ring by at least this (L, 0..255), and by this many noise levels
    min_contrast: float = 14.0
    noise_factor: float = 4.0
    pip_area: tuple[float, float] = (5.0, 1100.0)
    #: two pips of one face lie at most this many pip lengths apart
    link_reach: float = 5.5
    #: a die spans at most this share of the working width
    largest_die: float = 0.25


@dataclass(frozen=True, slots=True)
class Blob:
    """A pip candidate: centre, area, ellipse axes and slant, polarity and the levels about it."""

    x: float
    y: float
    area: float
    major: float
    minor: float
    angle: float
    dark: bool
    level: float  # the blob's own lightness (median of its middle)
    ring: float  # the face's lightness around it (median of a ring)
    spread: float  # how uneven that ring is (inter-quartile range)
    fill: float  # the share of its ellipse it fills (a pip: nearly all; a glyph: less)

    @property
    def roundness(self) -> float:
        return self.minor / self.major if self.major > 0 else 0.0

    @property
    def contrast(self) -> float:
        return abs(self.ring - self.level)


@dataclass(frozen=True, slots=True)
class Face:
    """A die face found: its pips, how well they fit the canonical layout (0 best), its looks."""

    pips: tuple[Blob, ...]
    misfit: float

    @property
    def x(self) -> float:
        return float(np.mean([p.x for p in self.pips]))

    @property
    def y(self) -> float:
        return float(np.mean([p.y for p in self.pips]))

    @property
    def roundness(self) -> float:
        return float(np.mean([p.roundness for p in self.pips]))

    @property
    def pip_length(self) -> float:
        return float(np.median([p.major for p in self.pips]))

    @property
    def level(self) -> float:
        return float(np.median([p.ring for p in self.pips]))

    def side(self) -> float:
        """The die's side (working pixels) judged from its pips' spread, or a lone pip's size."""
        if len(self.pips) == 1:
            return 3.6 * self.pips[0].major
        points = np.array([(p.x, p.y) for p in self.pips])
        span = float(np.max(np.ptp(points, axis=0)))
        return max(span / 0.55, 3.0 * self.pip_length)


# --- blobs -----------------------------------------------------------------------------------


def _rings(lightness: Levels, geometry: npt.NDArray[np.float64], reach: float) -> Levels:
    """Lightness on ellipses ``reach`` times each blob's own (rows of x, y, area, major, minor, angle)."""
    t = np.linspace(0, 2 * math.pi, 16, endpoint=False)[None, :]
    x, y = geometry[:, 0:1], geometry[:, 1:2]
    a, b = reach * geometry[:, 3:4] / 2, reach * geometry[:, 4:5] / 2
    turn = np.radians(geometry[:, 5:6])
    c, s = np.cos(turn), np.sin(turn)
    xs = x + a * np.cos(t) * c - b * np.sin(t) * s
    ys = y + a * np.cos(t) * s + b * np.sin(t) * c
    height, width = lightness.shape
    xi = np.clip(np.rint(xs), 0, width - 1).astype(int)
    yi = np.clip(np.rint(ys), 0, height - 1).astype(int)
    return np.asarray(lightness[yi, xi], np.float32)


def _ellipse(
    contour: cv2.typing.MatLike, area: float
) -> tuple[float, float, float, float, float, float, float] | None:
    """A filled, not too long ellipse fitted to ``contour`` (x, y, area, major, minor, slant, fill)."""
    if len(contour) >= 5:
        (x, y), (d1, d2), angle = cv2.fitEllipse(contour)
    else:
        x, y = contour.reshape(-1, 2).mean(axis=0)
        d1 = d2 = 2 * math.sqrt(area / math.pi)
        angle = 0.0
    major, minor = max(d1, d2), min(d1, d2)
    fill = area / (math.pi * major * minor / 4) if minor > 0 else 0.0
    if minor <= 0 or major > 3.2 * minor or fill < 0.6:
        return None  # a crack, an arc, a letter, pips run together: not one filled ellipse
    if d2 > d1:  # keep ``angle`` the slant of the major axis
        angle += 90.0
    return (float(x), float(y), area, float(major), float(minor), float(angle) % 180, fill)


def _recut(hat: Mask, contour: cv2.typing.MatLike) -> list[cv2.typing.MatLike]:
    """The parts of one blob that stay above half its peak (their outlines, in image pixels)."""
    x, y, w, h = cv2.boundingRect(contour)
    inside = np.zeros((h, w), np.uint8)
    cv2.drawContours(inside, [contour], -1, 1, cv2.FILLED, offset=(-x, -y))
    patch = hat[y : y + h, x : x + w] * inside
    peak = int(patch.max())
    parts, _ = cv2.findContours(
        (patch > peak // 2).astype(np.uint8),
        cv2.RETR_EXTERNAL,
        cv2.CHAIN_APPROX_NONE,
        offset=(x, y),
    )
    return list(parts) if len(parts) > 1 else []


def _blobs(
    hat: Mask, lightness: Levels, dark: bool, config: DiceConfig, allowed: Mask | None
) -> list[Blob]:
    """Round blobs of one polarity that stand out from an even ring around them."""
    sample = hat[::4, ::4]
    noise = float(np.percentile(sample, 75)) if sample.size else 0.0
    threshold = max(config.min_contrast, config.noise_factor * noise)
    binary = (hat > threshold).astype(np.uint8)
    if allowed is not None:
        binary &= allowed
    # every component's outline, those inside another's hole too (pips within a die's rim)
    contours, hierarchy = cv2.findContours(binary, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if hierarchy is not None:
        contours = [c for c, h in zip(contours, hierarchy[0], strict=True) if h[3] < 0]
    low, high = config.pip_area
    shapes: list[tuple[float, float, float, float, float, float, float]] = []
    queue = [(contour, 0) for contour in contours]
    while queue:
        contour, depth = queue.pop()
        if len(contour) < 3:
            continue
        area = float(cv2.contourArea(contour)) + 0.5 * len(contour)
        if not low <= area <= (high if depth == 0 else 4 * high):
            continue
        shape = _ellipse(contour, area)
        long = shape is None or shape[4] < 0.6 * shape[3]
        # pips run together by blur or a soft focus: cut higher, at half the blob's peak
        parts = _recut(hat, contour) if long and depth < 2 and area >= 3 * low else []
        if parts:
            queue += [(part, depth + 1) for part in parts]
        elif shape is not None and area <= high:
            shapes.append(shape)
    if not shapes:
        return []
    geometry = np.array(shapes, np.float64)
    ring = _rings(lightness, geometry, 1.75)
    core = np.concatenate(
        [_rings(lightness, geometry, 0.35), _rings(lightness, geometry, 0.0)[:, :1]], axis=1
    )
    levels = np.median(core, axis=1)
    ring_levels = np.median(ring, axis=1)
    contrasts = (ring_levels - levels) if dark else (levels - ring_levels)
    q1, q3 = np.percentile(ring, [25, 75], axis=1)
    spreads = q3 - q1
    blobs: list[Blob] = []
    for k, (x, y, area, major, minor, angle, fill) in enumerate(shapes):
        if contrasts[k] < 0.75 * threshold or spreads[k] > 0.6 * contrasts[k]:
            continue  # too faint, or no even face around it
        blobs.append(
            Blob(
                x,
                y,
                area,
                major,
                minor,
                angle,
                dark,
                float(levels[k]),
                float(ring_levels[k]),
                float(spreads[k]),
                fill,
            )
        )
    return blobs


# --- linking pips of one face ------------------------------------------------------------------

ROUNDNESS_TOLERANCE = 0.15
SLANT_CHECK_BELOW = 0.75
SLANT_TOLERANCE = 25.0


def _alike(a: Blob, b: Blob) -> bool:
    """Two pips of one polarity, size and foreshortening, on faces of one lightness."""
    if a.dark != b.dark or min(a.area, b.area) < 0.45 * max(a.area, b.area):
        return False
    if abs(a.roundness - b.roundness) > ROUNDNESS_TOLERANCE:
        return False
    if min(a.roundness, b.roundness) < SLANT_CHECK_BELOW:
        turn = abs(a.angle - b.angle) % 180
        if min(turn, 180 - turn) > SLANT_TOLERANCE:
            return False
    contrast = min(a.contrast, b.contrast)
    return abs(a.ring - b.ring) <= 8.0 + 2 * max(a.spread, b.spread) + 0.05 * contrast


def _edge_between(a: Blob, b: Blob, lightness: Levels, others: list[Blob]) -> bool:
    """Whether the way from one pip to the other leaves their face: an edge, a seam, the table."""
    distance = math.hypot(a.x - b.x, a.y - b.y)
    steps = np.linspace(0.0, 1.0, max(3, int(distance)))
    xs = a.x + steps * (b.x - a.x)
    ys = a.y + steps * (b.y - a.y)
    keep = np.ones(len(steps), bool)
    for pip in (a, b, *others):
        keep &= np.hypot(xs - pip.x, ys - pip.y) > 0.75 * pip.major
    if keep.sum() < 2:
        return False
    height, width = lightness.shape
    xi = np.clip(np.rint(xs[keep]), 0, width - 1).astype(int)
    yi = np.clip(np.rint(ys[keep]), 0, height - 1).astype(int)
    values = lightness[yi, xi]
    face = 0.5 * (a.ring + b.ring)
    contrast = min(a.contrast, b.contrast)
    tolerance = 8.0 + 2 * max(a.spread, b.spread) + 0.1 * contrast
    off = np.abs(values - face)
    # a seam may be a pixel wide: one sample far off counts, as do two a little off
    return bool((off > tolerance).sum() >= 2 or (off > 2 * tolerance).any())


def _groups(blobs: list[Blob], lightness: Levels, config: DiceConfig) -> list[list[Blob]]:
    """Connected groups of pips that could share a face."""
    count = len(blobs)
    parent = list(range(count))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    points = np.array([(b.x, b.y) for b in blobs]) if blobs else np.zeros((0, 2))
    for i in range(count):
        a = blobs[i]
        for j in range(i + 1, count):
            b = blobs[j]
            distance = math.hypot(a.x - b.x, a.y - b.y)
            if distance > config.link_reach * max(a.major, b.major) or not _alike(a, b):
                continue
            near = np.hypot(points[:, 0] - 0.5 * (a.x + b.x), points[:, 1] - 0.5 * (a.y + b.y))
            others = [blobs[k] for k in np.nonzero(near < distance)[0] if k not in (i, j)]
            if not _edge_between(a, b, lightness, others):
                parent[root(i)] = root(j)
    groups: dict[int, list[Blob]] = {}
    for i in range(count):
        groups.setdefault(root(i), []).append(blobs[i])
    return list(groups.values())


#: more look-alike pips linked together than three touching sixes show are a pattern (wood grain,
#: the weave of felt, a print), not dice; cutting them into faces would cost more than all else
LARGEST_GROUP = 18


# --- canonical layouts -------------------------------------------------------------------------


def _norm(vector: npt.NDArray[np.float64]) -> float:
    """The length of a 2-vector (``np.linalg.norm``'s cost dominates the layout search otherwise)."""
    return math.hypot(float(vector[0]), float(vector[1]))


def _line_misfit(
    a: npt.NDArray[np.float64], m: npt.NDArray[np.float64], c: npt.NDArray[np.float64]
) -> float:
    """How far ``m`` lies from the middle of ``a`` and ``c`` (share of their distance)."""
    length = _norm(c - a)
    return _norm(m - (a + c) / 2) / length if length > 0 else 9.0


def _parallelogram(points: npt.NDArray[np.float64]) -> tuple[float, npt.NDArray[np.float64]]:
    """Misfit of four points as a parallelogram (diagonals halve each other) and its corners in order."""
    best, order = 9.0, points
    for first, second in ((0, 1), (0, 2), (0, 3)):
        rest = [k for k in range(4) if k not in (first, second)]
        # the diagonals: (first, second) and the other two
        a, c = points[first], points[second]
        b, d = points[rest[0]], points[rest[1]]
        length = max(_norm(c - a), _norm(d - b))
        if length <= 0:
            continue
        misfit = _norm((a + c) - (b + d)) / (2 * length)
        if misfit < best:
            best, order = misfit, np.array([a, b, c, d])
    return best, order


def _squareness(corners: npt.NDArray[np.float64]) -> float:
    """How far a parallelogram (in a face's own frame) is from a square: 0 for a square."""
    u, v = corners[1] - corners[0], corners[3] - corners[0]
    lu, lv = _norm(u), _norm(v)
    if lu <= 0 or lv <= 0:
        return 9.0
    sine = abs(float(u[0] * v[1] - u[1] * v[0])) / (lu * lv)
    ratio = min(lu, lv) / max(lu, lv)
    return max(0.0, 0.8 - sine) + max(0.0, 0.6 - ratio)


def layout_misfit(points: npt.NDArray[np.float64]) -> float:
    """How far pip centres (in the face's own frame) lie from a canonical die layout.

    0 is exact; above :data:`LAYOUT_LIMIT` is not a face. Two pips are a diagonal; three lie in a
    line, evenly; four make a square; five the same with its centre; six two parallel, even rows
    of three, twice as far apart as their pips are along a row.
    """
    n = len(points)
    if n <= 2:
        return 0.0 if n else 9.0
    if n == 3:
        return 2 * min(
            _line_misfit(points[i], points[m], points[k])
            for i, m, k in ((0, 1, 2), (1, 0, 2), (0, 2, 1))
        )
    if n == 4:
        misfit, corners = _parallelogram(points)
        return 2 * misfit + _squareness(corners)
    if n == 5:
        best = 9.0
        for centre in range(5):
            rest = np.delete(points, centre, axis=0)
            misfit, corners = _parallelogram(rest)
            middle = corners.mean(axis=0)
            size = _norm(corners[2] - corners[0])
            off = _norm(points[centre] - middle) / size if size > 0 else 9.0
            best = min(best, misfit + off + _squareness(corners))
        return best
    if n == 6:
        best = 9.0
        for row in itertools.combinations(range(1, 6), 2):
            first = [0, *row]
            second = [k for k in range(6) if k not in first]
            fits = []
            for triple in (first, second):
                p = points[triple]
                # the middle one of each row: the one nearest the row's centroid
                mid = int(np.argmin(np.linalg.norm(p - p.mean(axis=0), axis=1)))
                ends = [k for k in range(3) if k != mid]
                fit = _line_misfit(p[ends[0]], p[mid], p[ends[1]])
                fits.append((fit, p[ends[0]], p[mid], p[ends[1]]))
            (f1, a1, m1, c1), (f2, a2, m2, c2) = fits
            # the rows run side by side: their ends pair up into a parallelogram
            straight = _norm(a1 - a2) + _norm(c1 - c2)
            if straight > _norm(a1 - c2) + _norm(c1 - a2):
                a2, c2 = c2, a2
            quad, corners = _parallelogram(np.array([a1, c1, c2, a2]))
            across = _norm((m2 - m1) - 0.5 * ((a2 - a1) + (c2 - c1)))
            along = _norm(c1 - a1)
            apart = _norm(m2 - m1)
            if along <= 0:
                continue
            # a row's length and the rows' distance: equal on a die (pips at thirds both ways)
            ratio = apart / along
            shape = 2 * (max(0.0, 0.7 - ratio) + max(0.0, ratio - 1.45))
            square = _squareness(corners)
            best = min(best, f1 + f2 + 2 * quad + across / along + shape + square)
        return best
    return 9.0


#: the largest layout misfit a face may have
LAYOUT_LIMIT = 0.3
#: for each count, how far apart (in pip lengths, in the face's frame) its nearest pips lie
SPACING = {2: (2.4, 8.0), 3: (1.2, 4.5), 4: (1.5, 5.0), 5: (1.0, 3.6), 6: (1.1, 3.6)}


def _face_frame(pips: list[Blob]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Pip centres in the face's own frame (the view's squash undone: pips round again), and the
    matrix from image to that frame. Pips of one face share their squash and slant."""
    doubled = np.radians([2 * p.angle for p in pips])
    slant = 0.5 * math.atan2(float(np.sin(doubled).mean()), float(np.cos(doubled).mean()))
    roundness = max(0.3, float(np.median([p.roundness for p in pips])))
    c, s = math.cos(slant), math.sin(slant)
    to_frame = np.array([[c, s], [-s / roundness, c / roundness]])
    points = np.array([(p.x, p.y) for p in pips], np.float64)
    return (points - points.mean(axis=0)) @ to_frame.T, to_frame


def _empty_corners_on_face(
    pips: list[Blob],
    frame: npt.NDArray[np.float64],
    to_frame: npt.NDArray[np.float64],
    lightness: Levels,
) -> bool:
    """For a two or three: where the other diagonal's pips would be, the face is bare and even."""
    ends = frame[np.argmax(np.linalg.norm(frame, axis=1))]
    corners = np.array(
        [[-ends[1], ends[0]], [ends[1], -ends[0]]]
    )  # the diagonal turned a right angle
    centre = np.array([np.mean([p.x for p in pips]), np.mean([p.y for p in pips])])
    image_points = corners @ np.linalg.inv(to_frame).T + centre
    height, width = lightness.shape
    face = float(np.median([p.ring for p in pips]))
    contrast = float(np.median([p.contrast for p in pips]))
    for x, y in image_points:
        xi, yi = round(x), round(y)
        if not (0 <= xi < width and 0 <= yi < height):
            return False
        if abs(float(lightness[yi, xi]) - face) > max(12.0, 0.3 * contrast):
            return False
    return True


def _face_misfit(pips: list[Blob], lightness: Levels) -> float:
    n = len(pips)
    if not 1 <= n <= 6:
        return 9.0
    if n == 1:
        return 0.0
    frame, to_frame = _face_frame(pips)
    length = float(np.median([p.major for p in pips]))
    gaps = np.linalg.norm(frame[:, None, :] - frame[None, :, :], axis=2)
    np.fill_diagonal(gaps, np.inf)
    nearest = float(gaps.min()) / length
    low, high = SPACING[n]
    if not low <= nearest <= high:
        return 9.0
    if n <= 3 and not _empty_corners_on_face(pips, frame, to_frame, lightness):
        return 9.0
    return layout_misfit(frame)


def _faces(group: list[Blob], lightness: Levels) -> list[Face]:
    """Cut a group of linked pips into canonical faces, largest first (touching dice part here).

    A pip left over from a group is dropped rather than read as a one: a pip that looks like its
    neighbours but fits no face with them is a side face's or a mistake.
    """
    faces: list[Face] = []
    left = list(group)
    while left:
        if len(left) <= 6:
            misfit = _face_misfit(left, lightness)
            if misfit <= LAYOUT_LIMIT:
                faces.append(Face(tuple(left), misfit))
                break
        points = np.array([(p.x, p.y) for p in left])
        best: tuple[int, float, list[int]] | None = None
        for size in range(min(6, len(left)), 1, -1):
            for seed in range(len(left)):
                order = np.argsort(
                    np.hypot(points[:, 0] - points[seed, 0], points[:, 1] - points[seed, 1])
                )
                chosen = sorted(int(k) for k in order[:size])
                misfit = _face_misfit([left[k] for k in chosen], lightness)
                if misfit <= LAYOUT_LIMIT and (best is None or misfit < best[1]):
                    best = (size, misfit, chosen)
            if best is not None:
                break
        if best is None:  # what is left may still be ones (judged as such by the caller)
            faces += [Face((pip,), 0.0) for pip in left]
            break
        faces.append(Face(tuple(left[k] for k in best[2]), best[1]))
        left = [p for k, p in enumerate(left) if k not in best[2]]
    return faces


# --- from faces to dice ------------------------------------------------------------------------


def _lone_pip_is_a_face(pip: Blob, lightness: Levels, colour: Image) -> bool:
    """A one: a round pip alone in the middle of an even face that ends (a die, not a table).

    Walking out from the pip in 16 directions (in the pip's own squash), the face must stay even
    for a while on every side and then end on most: a spot on a cable (the "face" ends soon across
    it, never along it), a pip beside a face's edge or a pip among others fail. (On a slanted view
    the top face runs on into a side face of the same colour, so not every side need end.)
    """
    if pip.roundness < 0.55 or pip.fill < 0.85:
        return False
    reaches = np.arange(1.5, 10.01, 0.25)
    angles = np.linspace(0, 2 * math.pi, 16, endpoint=False)
    c, s = math.cos(math.radians(pip.angle)), math.sin(math.radians(pip.angle))
    a, b = pip.major / 2, pip.minor / 2
    u = np.cos(angles)[:, None] * reaches[None, :]
    v = np.sin(angles)[:, None] * reaches[None, :]
    xs = pip.x + a * u * c - b * v * s
    ys = pip.y + a * u * s + b * v * c
    height, width = lightness.shape
    if xs.min() < 0 or ys.min() < 0 or xs.max() > width - 1 or ys.max() > height - 1:
        return False  # its face may run out of the picture: not judged
    yi, xi = np.rint(ys).astype(int), np.rint(xs).astype(int)
    values = lightness[yi, xi]
    off = np.abs(values - pip.ring) > max(12.0, 3 * pip.spread)
    # a face and a table of one lightness may still differ in colour
    hues = colour[yi, xi].astype(np.float32)  # only the samples: the image stays 8-bit
    face = np.median(hues[:, :3].reshape(-1, 3), axis=0)
    off |= np.linalg.norm(hues - face, axis=2) > max(15.0, 3 * pip.spread)
    # the first place where the face ends on each ray: two samples off in a row
    ends = off[:, :-1] & off[:, 1:]
    found = ends.any(axis=1)
    if found.sum() < 8:
        return False  # the "face" ends on few sides: a table, a wall, a cable
    edge = reaches[np.argmax(ends, axis=1)][found]
    if edge.min() < 2.0:
        return False  # an edge or another pip right beside it
    # the face must stand out from what lies beyond it (or the "face" is a table around a spot)
    beyond = np.median(hues[:, -4:].reshape(-1, 3), axis=0)
    return float(np.linalg.norm(beyond - face)) >= 12.0


def _slant(face: Face) -> float:
    """The mean slant (degrees, 0..180) of a face's pips' long axes."""
    doubled = np.radians([2 * p.angle for p in face.pips])
    return (
        math.degrees(0.5 * math.atan2(float(np.sin(doubled).mean()), float(np.cos(doubled).mean())))
        % 180
    )


#: faces whose pips are all squashed below this are seen steeply enough that a top face and a
#: side face may look alike
STEEP_ROUNDNESS = 0.8
#: how near one the squares of two faces' squash must add up for them to be a die's top and side
SQUASH_TOLERANCE = 0.3


def _coplanar(a: Face, b: Face) -> bool:
    """Two faces lying in one plane, as the tops of two dice side by side do: pips of one size,
    squash and slant (their faces' colours may differ: two dice need not match)."""
    if a.pips[0].dark != b.pips[0].dark:
        return False
    # a top face and a side face seen about 45 degrees off square are squashed alike (by the
    # cosine and the sine of that angle: their squares add up to one); two flat dice side by side
    # seen so steeply are rarer than a die's side face, so such a pair is not taken as one plane
    squash = a.roundness**2 + b.roundness**2
    if max(a.roundness, b.roundness) < STEEP_ROUNDNESS and abs(squash - 1) < SQUASH_TOLERANCE:
        return False
    if abs(a.roundness - b.roundness) > 0.12:
        return False
    if min(a.pip_length, b.pip_length) < 0.7 * max(a.pip_length, b.pip_length):
        return False
    if min(a.roundness, b.roundness) < 0.8:
        turn = abs(_slant(a) - _slant(b)) % 180
        if min(turn, 180 - turn) > 20:
            return False
    return True


#: a top face and a side face of one die: their middles lie at most about a side apart (half
#: the top's side plus half the side face's, foreshortened); two flat dice lie a side or more
#: apart, so nearer than SAME_DIE_NEAR sides they are one die whatever their squash
SAME_DIE_REACH = 1.2
SAME_DIE_NEAR = 0.9


def _same_die(a: Face, b: Face) -> bool:
    """A top face and a side face of one die: nearer than two dice lying flat can be, or side by
    side and not in one plane. A one's pip is its face's middle, so a one is measured by its middle
    as well as by its nearest pips."""
    side = max(a.side(), b.side())
    apart = math.hypot(a.x - b.x, a.y - b.y)
    if apart < SAME_DIE_NEAR * side:
        return True
    gap = min(math.hypot(p.x - q.x, p.y - q.y) for p in a.pips for q in b.pips)
    if gap > 0.9 * side and apart > SAME_DIE_REACH * side:
        return False
    return not _coplanar(a, b)


def _like_the_others(faces: list[Face]) -> list[Face]:
    """The faces that may be dice of one roll, judged by the faces of several pips among them.

    Dice in one photo are of one size (give or take the view's depth): a face far smaller than the
    others (a speck on a cable, a glint on a face) is not a die's. They are of one set, too: where
    every face of several pips is of one polarity, a lone pip of the other (a key's glyph, a glint
    of light on a die's face) has nothing to vouch for it.
    """
    sure = [f for f in faces if len(f.pips) > 1]
    if not sure:
        return faces
    typical = float(np.median([f.side() for f in sure]))
    polarities = {f.pips[0].dark for f in sure}
    return [
        f
        for f in faces
        if f.side() >= 0.5 * typical
        and (len(f.pips) > 1 or len(polarities) > 1 or f.pips[0].dark in polarities)
    ]


def _top_faces(faces: list[Face]) -> list[Face]:
    """One face per die: of a die's faces, the roundest, seen highest (the top, for a slanted camera).

    Faces unlike the others (:func:`_like_the_others`) are dropped first, so that a glint on a
    die's face cannot stand for that die, and again among the top faces kept.
    """
    ranked = sorted(
        _like_the_others(faces), key=lambda f: (-round(f.roundness, 1), f.y - f.side() / 2)
    )
    kept: list[Face] = []
    for face in ranked:
        if any(_same_die(face, top) for top in kept):
            continue
        kept.append(face)
    return _like_the_others(kept)


def _confidence(face: Face) -> float:
    areas = np.array([p.area for p in face.pips])
    spread = float(areas.std() / areas.mean()) if len(face.pips) > 1 else 0.2
    return round(max(0.3, min(1.0, 1.0 - spread - face.misfit)), 4)


def _inside(point: Blob, blob: Blob) -> bool:
    """Whether ``point``'s centre lies within ``blob``'s ellipse."""
    dx, dy = point.x - blob.x, point.y - blob.y
    c, s = math.cos(math.radians(blob.angle)), math.sin(math.radians(blob.angle))
    u, v = dx * c + dy * s, -dx * s + dy * c
    return (u / (blob.major / 2)) ** 2 + (v / (blob.minor / 2)) ** 2 <= 1.0


def _merge_scales(small: list[Blob], large: list[Blob]) -> list[Blob]:
    """Blobs found at two reaches, each pip once.

    A blob of the wide reach that holds a blob of the narrow one is either the same pip (keep the
    narrow reach's, it was measured against its own face) or a small die or a cluster of pips seen as
    one (drop it); one that holds none is a pip too big for the narrow reach.
    """
    kept = list(small)
    for blob in large:
        if not any(_inside(pip, blob) or _inside(blob, pip) for pip in small):
            kept.append(blob)
    return kept


def _read_work(
    work: Image, allowed: Mask | None, config: DiceConfig, sides: tuple[float, float]
) -> list[Face]:
    """The top faces in a working-scale image (only pips inside ``allowed``, when given), of dice
    whose side lies within ``sides`` (working pixels)."""
    lightness8 = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
    lightness = lightness8.astype(np.float32)
    height, width = lightness8.shape
    half = cv2.resize(
        lightness8, (max(1, width // 2), max(1, height // 2)), interpolation=cv2.INTER_AREA
    )
    blobs: list[Blob] = []
    for dark in (True, False):
        found: list[list[Blob]] = []
        for size in config.hat_kernels:
            kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
            if dark:
                closed = cv2.resize(
                    cv2.morphologyEx(half, cv2.MORPH_CLOSE, kernel), (width, height)
                )
                hat = cv2.subtract(closed, lightness8)
            else:
                opened = cv2.resize(cv2.morphologyEx(half, cv2.MORPH_OPEN, kernel), (width, height))
                hat = cv2.subtract(lightness8, opened)
            found.append(_blobs(np.asarray(hat, np.uint8), lightness, dark, config, allowed))
        blobs += _merge_scales(found[0], found[1])
    found_faces = [
        face
        for group in _groups(blobs, lightness, config)
        if len(group) <= LARGEST_GROUP
        for face in _faces(group, lightness)
        if sides[0] <= face.side() <= sides[1]
    ]
    # pips that belong to faces of several pips cannot speak against a one beside them
    spoken_for = {id(pip) for face in found_faces if len(face.pips) > 1 for pip in face.pips}
    faces: list[Face] = []
    for face in found_faces:
        if len(face.pips) == 1:
            pip = face.pips[0]
            if any(
                other is not pip
                and id(other) not in spoken_for
                and _alike(pip, other)
                and math.hypot(pip.x - other.x, pip.y - other.y) < 4 * pip.major
                for other in blobs
            ):
                continue  # a pip among its like: a face not made out, not a one
            if not _lone_pip_is_a_face(pip, lightness, work):
                continue
        faces.append(face)
    return _top_faces(faces)


def read_dice(
    image: Image,
    region: tuple[int, int, int, int] | None = None,
    mask: Mask | None = None,
    die_side: float | None = None,
    config: DiceConfig | None = None,
) -> list[DieReading]:
    """The dice whose top face lies inside ``region`` (x, y, w, h) and ``mask`` (non-zero where dice may lie).

    ``die_side``: a die's side in the image's pixels, when the caller knows it (a calibrated board);
    without it, the image is read scaled to ``config.working_width`` (a region as part of it). Each
    reading gives the pips, a confidence (0..1) and the die's box (x, y, w, h) in the image's pixels.

    Raises :class:`vision.errors.ImageError` for an image that is not BGR uint8, or for a region or
    mask that does not fit the image.
    """
    config = config or DiceConfig()
    image = check_image(image)
    height, width = image.shape[:2]
    if mask is not None and (not isinstance(mask, np.ndarray) or mask.shape[:2] != (height, width)):
        raise ImageError(f"dice mask must be an array of shape {(height, width)}")
    x0, y0, x1, y1 = 0, 0, width, height
    if region is not None:
        rx, ry, rw, rh = (int(v) for v in region)
        x0, y0, x1, y1 = max(0, rx), max(0, ry), min(width, rx + rw), min(height, ry + rh)
        if x1 - x0 < 8 or y1 - y0 < 8:
            raise ImageError(
                f"dice region {region} lies outside the {width}x{height} image or is too small"
            )
    crop = image[y0:y1, x0:x1]
    if die_side is not None and die_side > 0:
        scale = config.working_die_side / die_side
    else:
        scale = config.working_width / width  # a region is read as the whole image would be
    interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    work = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=interpolation)
    allowed: Mask | None = None
    if mask is not None:
        allowed = np.asarray(
            cv2.resize(
                (mask[y0:y1, x0:x1] > 0).astype(np.uint8),
                (work.shape[1], work.shape[0]),
                interpolation=cv2.INTER_NEAREST,
            ),
            np.uint8,
        )
    readings = []
    if die_side is not None and die_side > 0:  # a known size: dice half to twice as big
        sides = (0.5 * config.working_die_side, 2.0 * config.working_die_side)
    else:
        sides = (0.0, config.largest_die * width * scale)
    for face in _read_work(np.ascontiguousarray(work, np.uint8), allowed, config, sides):
        side = face.side()
        box = (
            max(0, int((face.x - side / 2) / scale) + x0),
            max(0, int((face.y - side / 2) / scale) + y0),
            math.ceil(side / scale),
            math.ceil(side / scale),
        )
        readings.append(DieReading(len(face.pips), _confidence(face), box))
    return sorted(readings, key=lambda d: (d.box[0], d.box[1]))


#: a face read from pips in a photo is judged by the die-face model with the die's side taken as
#: each of these shares of its box's longer side (the box the pips give is not quite the die's)
PHOTO_SIDES = (0.7, 0.85, 1.0)


def read_dice_photo(
    image: Image, config: DiceConfig | None = None, *, learned: bool = True
) -> list[DieReading]:
    """Every die in a photo with no board: pips of the top face, confidence, box (x, y, w, h).

    With ``learned`` (the default) the die-face model (:func:`vision.dice_model.judge_faces`)
    has its say on each face read from pips, as on a board: a face it does not take for a flat
    die's (a die's side, a glyph, a speck) is dropped, and where it is sure of another count,
    its count is taken.

    Raises :class:`vision.errors.ImageError` for an image that is not BGR uint8.
    """
    readings = read_dice(image, config=config)
    if not learned or not readings:
        return readings
    # imported here: the model's weights load only when dice are first judged
    from vision.dice_model import judge_faces

    grey = np.asarray(cv2.cvtColor(check_image(image), cv2.COLOR_BGR2GRAY), np.uint8)
    sides = [
        tuple(share * max(w, h) for share in PHOTO_SIDES)
        for _x, _y, w, h in (die.box for die in readings)
    ]
    return [die for die in judge_faces(grey, readings, sides) if die is not None]
