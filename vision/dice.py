"""Reading dice: counting the pips of a die's top face, on the board or in any photo.

:func:`read_dice_photo` finds dice anywhere in a photo with no board (light dice on a plainer
surface, seen from above or at a slant, side faces showing); :func:`count_pips` counts the pips of
one die face already cut out (the board reader's path). Both work on BGR uint8 images.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from sheshbesh.observation import DieReading
from vision.images import Image, check_image


@dataclass(frozen=True, slots=True)
class Pip:
    """A dark (or light) blob that may be a pip: centre, area, axes of its ellipse."""

    x: float
    y: float
    area: float
    major: float
    minor: float
    angle: float

    @property
    def roundness(self) -> float:
        return self.minor / self.major if self.major > 0 else 0.0


@dataclass(frozen=True, slots=True)
class PhotoDiceConfig:
    """Thresholds for dice in photos (pixels refer to a 640 x 480 frame; larger frames are scaled)."""

    body_contrast: float = 12.0  # a die is this much lighter (L, 0..255) than the table
    pip_contrast: float = 40.0  # a pip is this much darker than its surroundings
    pip_area: tuple[float, float] = (6.0, 500.0)
    roundness_weight: float = 3.0  # how much rounder pips count towards being the top face
    working_width: int = 640
    ring_contrast: float = 8.0  # a pip's surroundings are this much lighter than the table
    tint_weight: int = 0  # > 0: a die's lower b* (less yellow than wood) also counts, times this
    largest_die: float = 0.22  # a die spans at most this share of the frame's width


def _blobs(mask: npt.NDArray[np.uint8], area: tuple[float, float]) -> list[Pip]:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    out: list[Pip] = []
    for contour in contours:
        a = float(cv2.contourArea(contour)) + 0.5 * len(contour)
        if not area[0] <= a <= area[1]:
            continue
        if len(contour) >= 5:
            (x, y), (d1, d2), angle = cv2.fitEllipse(contour)
        else:
            x, y = contour.reshape(-1, 2).mean(axis=0)
            d1 = d2 = 2 * math.sqrt(a / math.pi)
            angle = 0.0
        major, minor = max(d1, d2), min(d1, d2)
        if minor <= 0 or major > 4 * minor:
            continue
        # a pip fills its ellipse; an arc or a crack does not
        if a < 0.55 * math.pi * major * minor / 4:
            continue
        out.append(Pip(float(x), float(y), a, float(major), float(minor), float(angle)))
    return out


ROUNDNESS_TOLERANCE = 0.15
SLANT_CHECK_BELOW = 0.75
SLANT_TOLERANCE = 20.0


def _same_face(a: Pip, b: Pip) -> bool:
    """Two pips look alike as pips of one flat face do: size, shape and slant."""
    if min(a.area, b.area) < 0.55 * max(a.area, b.area):
        return False
    if abs(a.roundness - b.roundness) > ROUNDNESS_TOLERANCE:
        return False
    if min(a.roundness, b.roundness) < SLANT_CHECK_BELOW:  # a round pip's slant means nothing
        turn = abs(a.angle - b.angle) % 180
        if min(turn, 180 - turn) > SLANT_TOLERANCE:
            return False
    return math.hypot(a.x - b.x, a.y - b.y) < 5.0 * max(a.major, b.major)


def _linked_groups(pips: list[Pip], linked: Callable[[Pip, Pip], bool]) -> list[list[Pip]]:
    """The connected groups of ``pips``, two pips being neighbours when ``linked(a, b)``."""
    groups: list[list[Pip]] = []
    seen: set[int] = set()
    for start in range(len(pips)):
        if start in seen:
            continue
        stack, group = [start], []
        seen.add(start)
        while stack:
            i = stack.pop()
            group.append(pips[i])
            for j in range(len(pips)):
                if j not in seen and linked(pips[i], pips[j]):
                    seen.add(j)
                    stack.append(j)
        groups.append(group)
    return groups


def _faces(pips: list[Pip]) -> list[list[Pip]]:
    """Group one die's pips into faces (connected by :func:`_same_face`)."""
    return _linked_groups(pips, _same_face)


def _split(face: list[Pip]) -> list[list[Pip]]:
    """Two faces whose pips looked alike: cut them apart across their longest spread."""
    points = np.array([(p.x, p.y) for p in face], np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    _, labels, _ = cv2.kmeans(points, 2, None, criteria, 3, cv2.KMEANS_PP_CENTERS)  # type: ignore[call-overload]
    parts = [[p for p, k in zip(face, labels.ravel(), strict=True) if k == side] for side in (0, 1)]
    return [part for part in parts if part]


def _top_face(pips: list[Pip], config: PhotoDiceConfig) -> list[Pip]:
    """The pips of the die's top face: of its faces, the one seen highest in the picture.

    A camera looking down at a slant sees the top face above the side faces, and its pips roundest.
    """
    if not pips:
        return []
    faces: list[list[Pip]] = []
    for face in _faces(pips):
        faces += _split(face) if len(face) > 6 else [face]
    faces = [f for f in faces if len(f) <= 6]
    if not faces:
        return []

    def rank(face: list[Pip]) -> float:
        top = min(p.y - p.major / 2 for p in face)
        size = max(p.major for p in pips)
        roundness = float(np.mean([p.roundness for p in face]))
        return top / size - config.roundness_weight * roundness

    return min(faces, key=rank)


def read_dice_photo(image: Image, config: PhotoDiceConfig | None = None) -> list[DieReading]:
    """Every die in a photo with no board: pips of the top face, confidence, box (x, y, w, h).

    Dice must be lighter than the surface they lie on, with dark pips. Dice that touch one another
    (one light body) are told apart by their top faces; a lone faint pip centred on a die nearly as
    light as the desk still reads as a one.

    Raises :class:`vision.errors.ImageError` for an image that is not BGR uint8.
    """
    config = config or PhotoDiceConfig()
    image = check_image(image)
    scale = config.working_width / image.shape[1]
    work = (
        cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        if scale < 1
        else image
    )
    scale = min(scale, 1.0)
    lab = cv2.cvtColor(work, cv2.COLOR_BGR2LAB)
    lightness = np.asarray(lab[:, :, 0], np.uint8)
    yellowness = np.asarray(lab[:, :, 2], np.uint8)
    # how much a pixel stands out from the table as a die does: lighter, and less tinted
    lift = (lightness.astype(np.int16) - _table_lightness(lightness)) + config.tint_weight * (
        _table_lightness(yellowness) - yellowness.astype(np.int16)
    )
    lift = np.asarray(lift, np.int16)
    light = (lift > config.body_contrast).astype(np.uint8)
    surround = cv2.medianBlur(lightness, 15)
    dark = ((surround.astype(np.int16) - lightness) > config.pip_contrast).astype(np.uint8)
    blobs = _blobs(dark, config.pip_area)
    pips = [p for p in blobs if _ring_lift(p, lift) > config.ring_contrast]
    faint = [p for p in blobs if p not in pips]
    # a die: a light body, its pips filled in, that holds at least one pip
    solid = cv2.morphologyEx(light | dark, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    contours, _ = cv2.findContours(solid, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    readings: list[DieReading] = []
    for contour in contours:
        area = cv2.contourArea(contour)
        x, y, w, h = cv2.boundingRect(contour)
        height, width = work.shape[:2]
        if area < 150 or max(w, h) > config.largest_die * width:
            continue
        if x <= 1 or y <= 1 or x + w >= width - 1 or y + h >= height - 1:
            continue  # cut by the frame's edge: not a whole die
        (_, _), (rw, rh), _ = cv2.minAreaRect(contour)
        if max(rw, rh) > 2.0 * max(1.0, min(rw, rh)):
            continue  # a label or a cable, not a die
        side = math.sqrt(area)
        members = [
            p
            for p in pips
            if cv2.pointPolygonTest(contour, (p.x, p.y), False) >= 0
            and 0.06 * side <= p.major <= 0.45 * side
        ]
        face = _top_face(members, config)
        tops = _touching_tops(face, members, lightness, lift)
        if len(tops) > 1:  # dice touching one another: one body, several top faces
            for top in tops:
                readings.append(
                    DieReading(
                        len(top), _pip_confidence(top), _face_box(top, side, len(tops), scale)
                    )
                )
            continue
        if not members:
            face = _faint_lone_pip(contour, faint, lightness)
        elif len(face) == 1 and not _lone_pip_on_die(face[0], lift):
            continue
        if not 1 <= len(face) <= 6:
            continue
        confidence = _pip_confidence(face)
        box = (int(x / scale), int(y / scale), math.ceil(w / scale), math.ceil(h / scale))
        readings.append(DieReading(len(face), confidence, box))
    return readings


SEAM_CONTRAST = 20.0  # lightness (0..255) a seam between two touching dice drops below their faces


def _alike(a: Pip, b: Pip) -> bool:
    """Two pips foreshortened alike, as pips of faces lying in one plane (tops of dice) are."""
    if min(a.area, b.area) < 0.55 * max(a.area, b.area):
        return False
    if abs(a.roundness - b.roundness) > ROUNDNESS_TOLERANCE:
        return False
    if min(a.roundness, b.roundness) < SLANT_CHECK_BELOW:
        turn = abs(a.angle - b.angle) % 180
        return min(turn, 180 - turn) <= SLANT_TOLERANCE
    return True


def _seam_between(a: Pip, b: Pip, lightness: npt.NDArray[np.uint8]) -> bool:
    """Whether the way from one pip to the other crosses a dark seam: the edge of one die and the next."""
    distance = math.hypot(a.x - b.x, a.y - b.y)
    steps = np.linspace(0.0, 1.0, max(2, int(distance)))
    keep = (steps * distance > 0.8 * a.major) & ((1 - steps) * distance > 0.8 * b.major)
    if keep.sum() < 2:
        return False
    xs = np.rint(a.x + steps[keep] * (b.x - a.x)).astype(int)
    ys = np.rint(a.y + steps[keep] * (b.y - a.y)).astype(int)
    values = lightness[ys, xs].astype(float)
    return float(np.percentile(values, 90) - values.min()) > SEAM_CONTRAST


def _touching_tops(
    face: list[Pip],
    members: list[Pip],
    lightness: npt.NDArray[np.uint8],
    lift: npt.NDArray[np.int16],
) -> list[list[Pip]]:
    """The top faces of dice that touch and so make one body; one face or none for a lone die.

    Top faces lie in one plane, so their pips are foreshortened alike; pips of one face see each
    other across an even face, pips of two dice across the seam where one die meets the next.
    """
    if not face:
        return []
    alike = [p for p in members if all(_alike(p, q) for q in face)]
    if len(alike) <= len(face):
        return [face]
    groups = _linked_groups(
        alike, lambda a, b: _same_face(a, b) and not _seam_between(a, b, lightness)
    )
    if len(groups) < 2 or any(not 1 <= len(g) <= 6 for g in groups):
        return [face]
    if any(len(g) == 1 and not _lone_pip_on_die(g[0], lift, 0.3) for g in groups):
        return [face]
    return groups


def _face_box(face: list[Pip], side: float, dice: int, scale: float) -> tuple[int, int, int, int]:
    """A die's box (x, y, w, h in the photo) around its top face's pips, one die's share of the body."""
    cx = float(np.mean([p.x for p in face]))
    cy = float(np.mean([p.y for p in face]))
    half = 0.5 * side / math.sqrt(dice)
    return (
        max(0, int((cx - half) / scale)),
        max(0, int((cy - half) / scale)),
        math.ceil(2 * half / scale),
        math.ceil(2 * half / scale),
    )


def _table_lightness(lightness: npt.NDArray[np.uint8]) -> npt.NDArray[np.int16]:
    """The surface's value (of one channel) under everything small: a wide median at a quarter size."""
    height, width = lightness.shape
    small = cv2.resize(
        lightness, (max(1, width // 4), max(1, height // 4)), interpolation=cv2.INTER_AREA
    )
    small = cv2.medianBlur(small, 31)
    table = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
    return np.asarray(table, np.int16)


def _lone_pip_on_die(pip: Pip, lift: npt.NDArray[np.int16], roundest: float = 0.55) -> bool:
    """A face with one pip: a round pip in the middle of a light face (not a letter, a port, a hole).

    ``roundest``: how round the pip must be (lower where other dice's tops vouch for the slant).
    """
    if pip.roundness < roundest:
        return False
    for reach in (1.1, 1.6):
        radius = reach * pip.major
        angles = np.linspace(0, 2 * math.pi, 24, endpoint=False)
        xs = np.rint(pip.x + radius * np.cos(angles)).astype(int)
        ys = np.rint(pip.y + radius * np.sin(angles)).astype(int)
        if xs.min() < 0 or ys.min() < 0 or xs.max() >= lift.shape[1] or ys.max() >= lift.shape[0]:
            return False
        if np.percentile(lift[ys, xs], 10) < 4:
            return False
    return True


def _faint_lone_pip(
    contour: cv2.typing.MatLike,
    faint: list[Pip],
    lightness: npt.NDArray[np.uint8],
) -> list[Pip]:
    """A die body with no clear pip: its one pip, if a faint round pip sits at the body's centre.

    On a desk nearly as light as the die, the table estimate under a large die is the die itself, so
    its pip's ring hardly lifts from the "table"; a lone round pip centred on an even, light body
    that surrounds it on all sides is still a one.
    """
    moments = cv2.moments(contour)
    if moments["m00"] <= 0:
        return []
    cx, cy = moments["m10"] / moments["m00"], moments["m01"] / moments["m00"]
    side = math.sqrt(moments["m00"])
    inside = [p for p in faint if cv2.pointPolygonTest(contour, (p.x, p.y), False) >= 0]
    if len(inside) != 1:
        return []
    pip = inside[0]
    if pip.roundness < 0.75 or not 0.06 * side <= pip.major <= 0.3 * side:
        return []
    if math.hypot(pip.x - cx, pip.y - cy) > 0.2 * side:
        return []
    height, width = lightness.shape[:2]
    body = np.zeros((height, width), np.uint8)
    cv2.drawContours(body, [contour], -1, 1, cv2.FILLED)
    angles = np.linspace(0, 2 * math.pi, 24, endpoint=False)
    rings = []
    for reach in (1.2, 2.0):
        radius = reach * pip.major
        xs = np.rint(pip.x + radius * np.cos(angles)).astype(int)
        ys = np.rint(pip.y + radius * np.sin(angles)).astype(int)
        if xs.min() < 0 or ys.min() < 0 or xs.max() >= width or ys.max() >= height:
            return []
        if not body[ys, xs].all():
            return []
        rings.append(lightness[ys, xs].astype(np.int16))
    ring = np.concatenate(rings)
    centre = int(lightness[round(pip.y), round(pip.x)])
    if int(ring.max()) - int(ring.min()) > 40 or float(np.percentile(ring, 10)) - centre < 60:
        return []
    return [pip]


def _ring_lift(pip: Pip, lift: npt.NDArray[np.int16]) -> float:
    """How much a ring around the pip stands out from the table as a die (median over the ring)."""
    radius = 0.5 * pip.major + max(2.0, 0.5 * pip.major)
    angles = np.linspace(0, 2 * math.pi, 16, endpoint=False)
    xs = np.clip(np.rint(pip.x + radius * np.cos(angles)), 0, lift.shape[1] - 1).astype(int)
    ys = np.clip(np.rint(pip.y + radius * np.sin(angles)), 0, lift.shape[0] - 1).astype(int)
    return float(np.median(lift[ys, xs]))


def _pip_confidence(face: list[Pip]) -> float:
    areas = np.array([p.area for p in face])
    spread = float(areas.std() / areas.mean()) if len(face) > 1 else 0.0
    return round(max(0.3, min(1.0, 1.0 - spread)), 4)
