"""The playing field of any board, from its four corners in the camera image.

A real board is not the renderer's board: its bar may be wide or narrow, its trays may lie right,
left, both or nowhere, and its proportions vary by make. What every backgammon board shares is the
PLAYING FIELD: twelve points either side of a bar, in two rows. Given the field's four corners
(top-left, top-right, bottom-right, bottom-left as the image shows it), this module

* recovers the field's true proportions from the perspective of the four corners (a pinhole camera
  with its principal point at the image centre; the rectangle's aspect follows from the two
  vanishing points), so a camera 25° off vertical still gives round checkers,
* rectifies the field to a top-down image of fixed width (:data:`FIELD_WIDTH` pixels), and
* measures where the bar lies and how wide it is, from the two long straight edges that run the
  whole height of the field.

Field pixels: x runs 0..width left to right, y runs 0..height top to bottom of the rectified field.
The top row of points is p13..p24 from left to right, the bottom row p12..p1.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from sheshbesh.locations import POINT_LOCATIONS
from vision.errors import CalibrationError
from vision.images import Image, check_image

FloatArray = npt.NDArray[np.float64]
#: width in pixels of the rectified playing field the reader works on
FIELD_WIDTH = 720
#: the aspects (width / height) a backgammon playing field may have
ASPECT_RANGE = (0.8, 2.2)
#: the bar's width as a share of the field's, at least and at most
BAR_RANGE = (0.025, 0.16)
#: the frame along the field's long sides (where an arm reaching over the field crosses it, and
#: whose colour is the board's): from this share of the field's height outside the field (past
#: its wall and the wall's shadow)...
FRAME_NEAR = 0.015
#: ...to this share
FRAME_FAR = 0.07
#: where the bar is looked for again, held to the middle: how far off the field's middle (a
#: share of its width) a band's claim to be the bar falls by a factor e (corners clicked a little
#: off true move the middle about that much)
BAR_CENTRING = 0.02
#: a bar's middle lies at most this share of the field's width from the field's middle: the two
#: halves of a board are alike, and corners clicked a few pixels off move it little
BAR_OFF_MIDDLE = 0.025


#: at most this many frame pixels per field pixel are warped; a larger view is shrunk first
SAMPLING = 1.5
#: a field shown at less than 1 / ENLARGED frame pixels per field pixel (a small frame, a far
#: camera) is enlarged with cubic interpolation, which keeps a rim's edge a step where bilinear
#: spreads it over the new pixels; short of that, bilinear (what the reader's rules were chosen on)
ENLARGED = 2.0


def check_corners(corners: object, image_size: tuple[int, int]) -> FloatArray:
    """``corners`` as a 4x2 float array, checked: finite, inside the image, convex, in TL TR BR BL order.

    Raises :class:`CalibrationError` naming what is wrong.
    """
    try:
        array = np.asarray(corners, np.float64)
    except (TypeError, ValueError) as error:
        raise CalibrationError(f"field corners {corners!r} are not numbers") from error
    if array.shape != (4, 2) or not np.all(np.isfinite(array)):
        raise CalibrationError(
            f"field corners must be four (x, y) pairs, got {np.asarray(corners).tolist()!r}"
        )
    width, height = image_size
    slack = 0.02 * max(width, height)
    outside = [
        f"({x:g}, {y:g})"
        for x, y in array
        if not (-slack <= x <= width + slack and -slack <= y <= height + slack)
    ]
    if outside:
        raise CalibrationError(
            f"field corners {', '.join(outside)} lie outside the {width}x{height} image"
        )
    # every turn of TL -> TR -> BR -> BL must go the same (clockwise, in image coordinates) way
    turns = []
    for i in range(4):
        a, b, c = array[i], array[(i + 1) % 4], array[(i + 2) % 4]
        (ux, uy), (vx, vy) = b - a, c - b
        turns.append(float(ux * vy - uy * vx))
    if not all(t > 0 for t in turns):
        raise CalibrationError(
            "field corners are not a convex quadrilateral in the order top-left, top-right, "
            "bottom-right, bottom-left"
        )
    area = cv2.contourArea(array.astype(np.float32))
    if area < 0.01 * width * height or area < 400:
        raise CalibrationError(
            f"field corners enclose {area:.0f} square pixels: too small a field to read"
        )
    top, bottom = array[1] - array[0], array[2] - array[3]
    left, right = array[3] - array[0], array[2] - array[1]
    if top[0] <= 0 or bottom[0] <= 0 or left[1] <= 0 or right[1] <= 0:
        raise CalibrationError(
            "field corners are not in the order top-left, top-right, bottom-right, bottom-left"
        )
    return array


def field_aspect(corners: FloatArray, image_size: tuple[int, int]) -> float:
    """The playing field's true width / height, recovered from its perspective image.

    A rectangle seen by a pinhole camera (square pixels, principal point at the image centre) is
    the unit square mapped by ``K [r1 r2 t] diag(w, h, 1)``: with the camera matrix ``K`` known,
    the two first columns of the square's homography have lengths in the ratio w : h. The focal
    length comes from the corners themselves where both pairs of sides converge; where one pair
    is parallel in the image (a camera tilted straight towards the board) it cannot, and a
    typical camera's (a field of view of about 65 degrees across) is taken; the checkers' own
    roundness corrects what remains (:func:`vision.field_board.calibrate_field`).
    """
    u0, v0 = image_size[0] / 2.0, image_size[1] / 2.0
    focal = _focal_length(corners, (u0, v0))
    diagonal = math.hypot(*image_size)
    if focal is None or not 0.3 * diagonal < focal < 6 * diagonal:
        focal = 0.78 * max(image_size)
    square = np.array([(0, 0), (1, 0), (1, 1), (0, 1)], np.float32)
    homography = cv2.getPerspectiveTransform(square, np.asarray(corners, np.float32))
    inverse = np.linalg.inv(np.array([[focal, 0, u0], [0, focal, v0], [0, 0, 1.0]]))
    across, down = inverse @ homography[:, 0], inverse @ homography[:, 1]
    aspect = float(np.linalg.norm(across) / np.linalg.norm(down))
    if not ASPECT_RANGE[0] <= aspect <= ASPECT_RANGE[1]:
        return min(max(_side_ratio(corners), ASPECT_RANGE[0]), ASPECT_RANGE[1])
    return aspect


def _focal_length(corners: FloatArray, centre: tuple[float, float]) -> float | None:
    """The focal length (pixels) that makes the quadrilateral a rectangle, if its perspective
    fixes one (both pairs of sides converge), else None."""
    u0, v0 = centre
    tl, tr, br, bl = (np.array([x, y, 1.0]) for x, y in corners)
    m1, m2, m3, m4 = tl, tr, bl, br
    k2 = float(np.dot(np.cross(m1, m4), m3) / np.dot(np.cross(m2, m4), m3))
    k3 = float(np.dot(np.cross(m1, m4), m2) / np.dot(np.cross(m3, m4), m2))
    n2 = k2 * m2 - m1
    n3 = k3 * m3 - m1
    if abs(n2[2]) < 1e-3 or abs(n3[2]) < 1e-3:
        return None
    f2 = -(
        (n2[0] * n3[0] - (n2[0] * n3[2] + n2[2] * n3[0]) * u0 + n2[2] * n3[2] * u0 * u0)
        + (n2[1] * n3[1] - (n2[1] * n3[2] + n2[2] * n3[1]) * v0 + n2[2] * n3[2] * v0 * v0)
    ) / (n2[2] * n3[2])
    return math.sqrt(f2) if f2 > 0 else None


def _side_ratio(corners: FloatArray) -> float:
    tl, tr, br, bl = corners
    across = (np.linalg.norm(tr - tl) + np.linalg.norm(br - bl)) / 2
    down = (np.linalg.norm(bl - tl) + np.linalg.norm(br - tr)) / 2
    return float(across) / max(float(down), 1e-9)


@dataclass(frozen=True, slots=True)
class Field:
    """Where the playing field lies in the camera image and how it is laid out (field pixels).

    ``corners``: TL, TR, BR, BL in camera pixels; ``width``/``height``: the rectified field;
    ``bar``: the bar's left and right edge; ``radius``: a checker's radius; ``pitch``: the distance
    between neighbours in a row (0 until measured: checkers touching, twice the radius).
    """

    corners: tuple[tuple[float, float], ...]
    image_size: tuple[int, int]
    width: int
    height: int
    bar: tuple[float, float]
    radius: float
    pitch: float = 0.0

    # ---- geometry -------------------------------------------------------------------------
    @property
    def point_width(self) -> float:
        return (self.width - (self.bar[1] - self.bar[0])) / 12.0

    def homography(self) -> FloatArray:
        """3x3 map from camera pixels to field pixels."""
        src = np.asarray(self.corners, np.float32)
        dst = np.array(
            [(0, 0), (self.width, 0), (self.width, self.height), (0, self.height)], np.float32
        )
        return np.asarray(cv2.getPerspectiveTransform(src, dst), np.float64)

    def view_matrix(
        self, size: tuple[int, int], scale: float = 1.0, shift: tuple[float, float] = (0.0, 0.0)
    ) -> FloatArray:
        """Camera pixels of a frame of ``size`` (width, height; the calibration frame's or the
        same view rescaled) -> a view where field pixel (x, y) lies at (x, y) * ``scale`` +
        ``shift``: a close-up of any place on or beside the field, for ``cv2.warpPerspective``."""
        to_view = np.array([[scale, 0, shift[0]], [0, scale, shift[1]], [0, 0, 1.0]])
        matrix = to_view @ self.homography()
        if size != tuple(self.image_size):
            matrix = matrix @ resize_matrix(size, self.image_size)
        return np.asarray(matrix, np.float64)

    def to_camera(self, points: FloatArray) -> FloatArray:
        """Field pixels (N x 2) -> camera pixels (N x 2)."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        inverse = np.linalg.inv(self.homography())
        return np.asarray(cv2.perspectiveTransform(pts, inverse).reshape(-1, 2), np.float64)

    def rectify(self, image: Image, rows: tuple[int, int] | None = None) -> Image:
        """The field seen from straight above, ``width`` x ``height`` pixels, BGR uint8.

        ``rows`` (first, last + 1) asks for other rows of field pixels instead, which may lie
        outside the field (negative, or beyond ``height``): the frame beside it, seen the same way.
        What lies outside the camera's view is black.

        A perspective warp samples each field pixel at one place (OpenCV's warp has no area
        averaging), so a frame that shows the field much larger than that (a 4K camera) is first
        shrunk by area averaging, or its grain and stripes would alias into false edges; one
        that shows it at under 1 / :data:`ENLARGED` frame pixels per field pixel is enlarged
        with cubic interpolation.
        """
        return self.rectify_rows(image, [(0, self.height) if rows is None else rows])[0]

    def rectify_rows(self, image: Image, spans: Sequence[tuple[int, int]]) -> list[Image]:
        """:meth:`rectify` for several spans of rows at once: a large frame is shrunk once."""
        image = check_image(image)
        size = (image.shape[1], image.shape[0])
        scale = self.camera_scale(size)  # frame pixels per field pixel, at most
        shrink = scale / SAMPLING
        if shrink > 1.0:
            size = (max(1, round(size[0] / shrink)), max(1, round(size[1] / shrink)))
            image = np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), np.uint8)
        matrix = self.homography()
        if size != tuple(self.image_size):
            matrix = matrix @ resize_matrix(size, self.image_size)
        flags = cv2.INTER_CUBIC if scale < 1.0 / ENLARGED else cv2.INTER_LINEAR
        views = []
        for first, last in spans:
            moved = matrix
            if first:
                moved = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, -first], [0.0, 0.0, 1.0]]) @ matrix
            out = cv2.warpPerspective(image, moved, (self.width, max(1, last - first)), flags=flags)
            views.append(np.asarray(out, np.uint8))
        return views

    def camera_scale(self, size: tuple[int, int]) -> float:
        """How many pixels of a frame of ``size`` span one field pixel, at most (the field's
        nearest side, where it shows largest)."""
        corners = np.asarray(self.corners, np.float64)
        corners = corners * (np.asarray(size, np.float64) / np.asarray(self.image_size, np.float64))
        sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
        across = max(sides[0], sides[2]) / self.width
        down = max(sides[1], sides[3]) / self.height
        return float(max(across, down))

    def column(self, location: str) -> tuple[float, float, float, int]:
        """A point's (left, right, base y, direction): its stack grows from ``base`` along ``direction``."""
        n = int(location[1:])
        index = 12 - n if n <= 12 else n - 13
        width = self.point_width
        left = index * width if index < 6 else self.bar[1] + (index - 6) * width
        if n <= 12:
            return left, left + width, float(self.height), -1
        return left, left + width, 0.0, 1

    def point_polygon(self, location: str) -> FloatArray:
        """The triangle of a point (3 x 2 field pixels), its tip 40% of the field's height in."""
        left, right, base, direction = self.column(location)
        tip = base + direction * 0.4 * self.height
        return np.array([(left, base), (right, base), ((left + right) / 2, tip)], np.float64)

    # ---- serialisation --------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "corners": [[round(x, 2), round(y, 2)] for x, y in self.corners],
            "image_size": list(self.image_size),
            "width": self.width,
            "height": self.height,
            "bar": [round(self.bar[0], 2), round(self.bar[1], 2)],
            "radius": round(self.radius, 3),
            "pitch": round(self.pitch, 3),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Field:
        """Parse :meth:`to_dict`'s form; raises :class:`CalibrationError` naming the bad field."""
        try:
            size = (int(data["image_size"][0]), int(data["image_size"][1]))
            corners = check_corners(data["corners"], size)
            field = cls(
                corners=tuple((float(x), float(y)) for x, y in corners),
                image_size=size,
                width=int(data["width"]),
                height=int(data["height"]),
                bar=(float(data["bar"][0]), float(data["bar"][1])),
                radius=float(data["radius"]),
                pitch=float(data.get("pitch", 0.0)),
            )
        except (KeyError, IndexError, TypeError, ValueError) as error:
            if isinstance(error, CalibrationError):
                raise
            raise CalibrationError(f"malformed field in calibration: {error!r}") from error
        if not (0 < field.bar[0] < field.bar[1] < field.width) or field.radius <= 0:
            raise CalibrationError(f"field in calibration is inconsistent: {field.to_dict()}")
        return field


def resize_matrix(size: tuple[int, int], calibrated: tuple[int, int]) -> FloatArray:
    """Map pixels of a frame of ``size`` onto the calibration frame's pixels (same view, rescaled)."""
    sx, sy = calibrated[0] / size[0], calibrated[1] / size[1]
    if abs(sx - sy) > 0.02 * max(sx, sy):
        raise CalibrationError(
            f"frame size {size[0]}x{size[1]} does not have the calibration frame's proportions "
            f"({calibrated[0]}x{calibrated[1]})"
        )
    return np.array([[sx, 0, 0], [0, sy, 0], [0, 0, 1.0]])


def locate_field(
    image: Image, corners: Sequence[tuple[float, float]], *, bar_centring: float | None = None
) -> Field:
    """The field of ``image`` from its corners: proportions, rectification, bar and checker size
    (``bar_centring``: see :func:`find_bar`).

    Raises :class:`CalibrationError` when the corners make no sense.
    """
    image = check_image(image)
    size = (image.shape[1], image.shape[0])
    checked = check_corners(corners, size)
    aspect = field_aspect(checked, size)
    height = round(FIELD_WIDTH / aspect)
    provisional = Field(
        tuple((float(x), float(y)) for x, y in checked),
        size,
        FIELD_WIDTH,
        height,
        (FIELD_WIDTH * 0.46, FIELD_WIDTH * 0.54),
        FIELD_WIDTH / 30,
    )
    top = provisional.rectify(image)
    bar = find_bar(top, bar_centring)
    point_width = (FIELD_WIDTH - (bar[1] - bar[0])) / 12
    return Field(provisional.corners, size, FIELD_WIDTH, height, bar, 0.45 * point_width)


def _vertical_edge_profile(top: Image) -> FloatArray:
    """Per column, how strongly a vertical edge runs down the whole field (a high percentile of
    rows would let checkers' edges through; the 30th keeps only edges most rows share)."""
    lab = cv2.cvtColor(top, cv2.COLOR_BGR2LAB).astype(np.float32)
    strength = np.zeros(top.shape[:2], np.float32)
    for channel in range(3):
        gx = cv2.Sobel(lab[:, :, channel], cv2.CV_32F, 1, 0, ksize=3)
        strength = np.maximum(strength, np.abs(gx))
    profile = np.percentile(strength, 30, axis=0)
    return np.asarray(cv2.GaussianBlur(profile.reshape(1, -1), (5, 1), 0).ravel(), np.float64)


def find_bar(top: Image, centring: float | None = None) -> tuple[float, float]:
    """The bar's left and right edge (field pixels) in a rectified field.

    The bar is the one band near the middle whose two edges run straight down the whole field;
    where no such pair stands out, a bar one point wide in the middle is assumed. With
    ``centring`` (a share of the field's width, :data:`BAR_CENTRING`) a band's claim weakens the
    further its middle lies from the field's.
    """
    width = top.shape[1]
    profile = _vertical_edge_profile(top)
    best, best_score = None, 0.0
    lowest, highest = BAR_RANGE[0] * width, BAR_RANGE[1] * width
    candidates = range(round(0.3 * width), round(0.7 * width))
    floor = float(np.median(profile)) + 1e-6
    for left in candidates:
        for right in range(left + round(lowest), min(left + round(highest), width - 1)):
            centre = (left + right) / 2
            if abs(centre - width / 2) > BAR_OFF_MIDDLE * width:
                continue
            score = min(profile[left], profile[right]) / floor
            if centring is not None:
                # the two halves of a board are alike, so its bar lies in the middle of the
                # field: a band off the middle (a raised bar's shadow beside it) must stand
                # out far more to be taken for the bar
                score *= math.exp(-(((centre - width / 2) / (centring * width)) ** 2))
            if score > best_score:
                best, best_score = (float(left), float(right)), score
    if best is None or best_score < 3.0:
        point = width / 13
        return (width / 2 - point / 2, width / 2 + point / 2)
    return best


POINTS = POINT_LOCATIONS
