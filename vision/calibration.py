"""Calibration: where the board lies in the camera image, and what its colours look like.

Four ArUco markers outside the board's corners (or four corners given by hand) give a homography
from board units to camera pixels. The colours of the board, its points, the bar, the trays and both
checker sets are learned from a frame of the starting position. A calibration saves to JSON.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import BoardNotFoundError, CalibrationError
from vision.images import Image, check_image
from vision.layout import BoardLayout

FloatArray = npt.NDArray[np.float64]
#: pixels per board unit of the rectified (top-down) image the reader works on
RECTIFIED_SCALE = 640.0
STARTING_WHITE = {"p24": 2, "p13": 5, "p8": 3, "p6": 5}
STARTING_BLACK = {"p1": 2, "p12": 5, "p17": 3, "p19": 5}
COLOUR_NAMES = ("white", "black", "board", "point-odd", "point-even", "bar", "tray", "cube")


def encode_reference(image: Image) -> str:
    # JPEG keeps the file small; its faint artefacts are far below the reader's thresholds
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    if not ok:  # pragma: no cover - encoding a uint8 image does not fail
        raise CalibrationError("reference image could not be encoded")
    return base64.b64encode(data.tobytes()).decode("ascii")


def decode_reference(text: object) -> Image:
    try:
        raw = np.frombuffer(base64.b64decode(str(text), validate=True), np.uint8)
    except (ValueError, binascii.Error) as error:
        raise CalibrationError(f"calibration reference image is not base64: {error}") from error
    image = cv2.imdecode(raw, cv2.IMREAD_COLOR) if raw.size else None
    if image is None:
        raise CalibrationError("calibration reference image could not be decoded")
    return np.asarray(image, np.uint8)


def _aruco_detector() -> Any:
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(dictionary, parameters)


def find_markers(image: Image, layout: BoardLayout | None = None) -> dict[int, FloatArray]:
    """The board's ArUco markers found in ``image``: id -> 4x2 corners (camera pixels, ArUco order)."""
    image = check_image(image)
    layout = layout or BoardLayout()
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    corners, ids, _ = _aruco_detector().detectMarkers(grey)
    found: dict[int, FloatArray] = {}
    if ids is None:
        return found
    for marker_corners, marker_id in zip(corners, ids.ravel(), strict=True):
        if int(marker_id) in layout.marker_ids:
            found[int(marker_id)] = np.asarray(marker_corners, np.float64).reshape(4, 2)
    return found


@dataclass(frozen=True, slots=True)
class Calibration:
    """Where the board is (``homography``: board units -> camera pixels) and its learned colours.

    ``colours`` maps each of :data:`COLOUR_NAMES` to a BGR mean (floats); empty until learned.
    """

    homography: FloatArray
    image_size: tuple[int, int]
    layout: BoardLayout = field(default_factory=BoardLayout)
    colours: Mapping[str, tuple[float, float, float]] = field(default_factory=dict)
    method: str = "markers"
    profiles: Mapping[str, Sequence[float]] = field(default_factory=dict)
    reference: Image | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        matrix = np.asarray(self.homography, np.float64)
        if matrix.shape != (3, 3) or not np.all(np.isfinite(matrix)):
            raise CalibrationError(
                f"homography must be a finite 3x3 matrix, got {matrix.tolist()!r}"
            )
        if abs(np.linalg.det(matrix)) < 1e-12:
            raise CalibrationError("homography is singular")
        object.__setattr__(self, "homography", matrix)

    # ---- geometry -------------------------------------------------------------------------
    def to_camera(self, points: FloatArray) -> FloatArray:
        """Board-unit points (N x 2) -> camera pixels (N x 2)."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return np.asarray(cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2), np.float64)

    def rectifying_matrix(self, scale: float = RECTIFIED_SCALE) -> FloatArray:
        """3x3 map from camera pixels to the rectified top-down image at ``scale`` px per unit."""
        m = self.layout.margin * scale
        units_to_pixels = np.array([[scale, 0, m], [0, scale, m], [0, 0, 1.0]])
        return np.asarray(units_to_pixels @ np.linalg.inv(self.homography), np.float64)

    def rectify(self, image: Image, scale: float = RECTIFIED_SCALE) -> Image:
        """The top-down board (margin included) as a BGR uint8 image at ``scale`` px per unit."""
        image = check_image(image)
        if (image.shape[1], image.shape[0]) != tuple(self.image_size):
            raise CalibrationError(
                f"frame size {image.shape[1]}x{image.shape[0]} differs from the calibration's "
                f"{self.image_size[0]}x{self.image_size[1]}"
            )
        size = self.layout.rectified_size(scale)
        out = cv2.warpPerspective(
            image, self.rectifying_matrix(scale), size, flags=cv2.INTER_LINEAR
        )
        return np.asarray(out, np.uint8)

    # ---- serialisation --------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "version": 1,
            "method": self.method,
            "image_size": list(self.image_size),
            "homography": [list(map(float, row)) for row in self.homography],
            "layout": self.layout.to_dict(),
            "colours": {name: [round(c, 2) for c in value] for name, value in self.colours.items()},
            "profiles": {
                name: [round(v, 2) for v in values] for name, values in self.profiles.items()
            },
            "reference": None if self.reference is None else encode_reference(self.reference),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Calibration:
        """Parse :meth:`to_dict`'s form; raises :class:`CalibrationError` naming the bad field."""
        if not isinstance(data, Mapping):
            raise CalibrationError(f"calibration is a {type(data).__name__}, not an object")
        for key in ("homography", "image_size"):
            if key not in data:
                raise CalibrationError(f"calibration lacks the field {key!r}")
        try:
            size = [int(v) for v in data["image_size"]]
            if len(size) != 2 or min(size) <= 0:
                raise CalibrationError(f"calibration image_size {size!r} is not [width, height]")
            colours: dict[str, tuple[float, float, float]] = {}
            for name, value in dict(data.get("colours", {})).items():
                triple = [float(v) for v in value]
                if len(triple) != 3:
                    raise CalibrationError(f"calibration colour {name!r} is not three numbers")
                colours[str(name)] = (triple[0], triple[1], triple[2])
            profiles = {
                str(name): [float(v) for v in values]
                for name, values in dict(data.get("profiles", {})).items()
            }
            return cls(
                homography=np.array(data["homography"], dtype=np.float64),
                image_size=(size[0], size[1]),
                layout=BoardLayout.from_dict(data.get("layout", {})),
                colours=colours,
                method=str(data.get("method", "markers")),
                profiles=profiles,
                reference=None
                if data.get("reference") is None
                else decode_reference(data["reference"]),
            )
        except (TypeError, ValueError) as error:
            if isinstance(error, CalibrationError):
                raise
            raise CalibrationError(f"malformed calibration: {error}") from error

    @classmethod
    def from_json(cls, text: str) -> Calibration:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise CalibrationError(f"calibration is not JSON ({error})") from error
        return cls.from_dict(data)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        """Read a calibration file; raises :class:`CalibrationError` if missing or malformed."""
        file = Path(path)
        try:
            text = file.read_text(encoding="utf-8")
        except OSError as error:
            raise CalibrationError(
                f"calibration file {str(file)!r} cannot be read: {error}"
            ) from error
        try:
            return cls.from_json(text)
        except CalibrationError as error:
            raise CalibrationError(f"{file}: {error}") from error


def locate_board(
    image: Image,
    layout: BoardLayout | None = None,
    corners: Sequence[tuple[float, float]] | None = None,
) -> Calibration:
    """Find the board: from its ArUco markers, or from ``corners`` (TL, TR, BR, BL camera pixels).

    TL is the outer corner beside Black's 13-point (White's p13), as White sits at the bottom.
    Raises :class:`BoardNotFoundError` when fewer than three markers are seen and no corners given.
    """
    image = check_image(image)
    layout = layout or BoardLayout()
    size = (image.shape[1], image.shape[0])
    if corners is not None:
        given = np.asarray(corners, np.float64)
        if given.shape != (4, 2) or not np.all(np.isfinite(given)):
            raise CalibrationError(
                f"corners must be four (x, y) pairs, got {np.asarray(corners).tolist()!r}"
            )
        if cv2.contourArea(given.astype(np.float32)) < 100:
            raise CalibrationError(
                "the four corners enclose no area (or are not in TL, TR, BR, BL order)"
            )
        homography = cv2.getPerspectiveTransform(
            layout.board_corners().astype(np.float32), given.astype(np.float32)
        )
        return Calibration(np.asarray(homography, np.float64), size, layout, method="corners")
    markers = find_markers(image, layout)
    if len(markers) < 3:
        seen = sorted(markers) or "none"
        raise BoardNotFoundError(
            f"board could not be located: {len(markers)} of the 4 markers {list(layout.marker_ids)} "
            f"seen (ids {seen}); give the corners by hand"
        )
    expected = layout.marker_corners()
    src = np.concatenate([expected[i] for i in sorted(markers)])
    dst = np.concatenate([markers[i] for i in sorted(markers)])
    homography, inliers = cv2.findHomography(src, dst, cv2.RANSAC, 4.0)
    if homography is None or int(inliers.sum()) < 10:
        raise BoardNotFoundError("board could not be located: the markers do not fit one plane")
    return Calibration(np.asarray(homography, np.float64), size, layout, method="markers")


def _disk_median(top: Image, centres: Sequence[tuple[float, float]], radius: float) -> FloatArray:
    samples = []
    r = max(1, int(radius))
    for x, y in centres:
        xi, yi = round(x), round(y)
        patch = top[max(yi - r, 0) : yi + r + 1, max(xi - r, 0) : xi + r + 1].reshape(-1, 3)
        if patch.size:
            samples.append(patch)
    if not samples:
        raise CalibrationError("no pixels to learn a colour from")
    return np.asarray(np.median(np.concatenate(samples), axis=0), np.float64)


def learn_colours(image: Image, calibration: Calibration) -> Calibration:
    """``calibration`` with the colours learned from ``image``, a frame of the starting position.

    Raises :class:`CalibrationError` if the two checker sets cannot be told apart.
    """
    layout = calibration.layout
    scale = RECTIFIED_SCALE
    top = calibration.rectify(image, scale)
    radius = layout.checker_diameter / 2 * scale

    def px(x: float, y: float) -> tuple[float, float]:
        return layout.to_pixels(x, y, scale)

    def checker_points(start: Mapping[str, int]) -> list[tuple[float, float]]:
        points = []
        for location, count in start.items():
            for _, x, y in layout.slots(location)[:count]:
                u, v = px(x, y)
                points += [(u - 0.5 * radius, v), (u + 0.5 * radius, v)]
        return points

    colours: dict[str, FloatArray] = {
        "white": _disk_median(top, checker_points(STARTING_WHITE), radius * 0.2),
        "black": _disk_median(top, checker_points(STARTING_BLACK), radius * 0.2),
    }
    occupied = set(STARTING_WHITE) | set(STARTING_BLACK)
    for parity, name in ((1, "point-odd"), (0, "point-even")):
        bases = [
            px(*layout.slots(f"p{n}")[0][1:])
            for n in range(1, 25)
            if n % 2 == parity and f"p{n}" not in occupied
        ]
        colours[name] = _disk_median(top, bases, radius * 0.35)
    _x0, y0, _x1, y1 = layout.field_rect()
    middle = (y0 + y1) / 2
    board_points = []
    for hx0, _, hx1, _ in layout.halves().values():
        board_points += [px(hx0 + (hx1 - hx0) * f, middle) for f in (0.15, 0.5, 0.85)]
    colours["board"] = _disk_median(top, board_points, radius * 0.5)
    bar_points = []
    for location in ("bar-white", "bar-black"):
        bx0, by0, bx1, by1 = layout.rect(location)
        bar_points += [px((bx0 + bx1) / 2, by0 + (by1 - by0) * f) for f in (0.3, 0.6)]
    colours["bar"] = _disk_median(top, bar_points, radius * 0.4)
    tray_points = []
    for location in ("off-white", "off-black"):
        tx0, ty0, tx1, ty1 = layout.rect(location)
        tray_points += [px((tx0 + tx1) / 2, ty0 + (ty1 - ty0) * f) for f in (0.2, 0.5, 0.8)]
    colours["tray"] = _disk_median(top, tray_points, radius * 0.3)
    # the cube waits in the middle at the start; its colour is the commoner, lighter part there
    cx0, cy0, cx1, cy1 = layout.cube_rect("middle")
    cube_centre = px((cx0 + cx1) / 2, (cy0 + cy1) / 2)
    cube_pixels = _disk_median(top, [cube_centre], layout.cube_size * scale * 0.35)
    colours["cube"] = cube_pixels
    gap = float(np.linalg.norm(_lab(colours["white"]) - _lab(colours["black"])))
    if gap < 12:
        raise CalibrationError(
            f"the two checker sets look alike (Lab distance {gap:.1f}); is this the starting position?"
        )
    learned = {name: (float(v[0]), float(v[1]), float(v[2])) for name, v in colours.items()}
    from vision.checkers import learn_profiles, slot_indices  # the reader builds on this module

    profiles = learn_profiles(
        top,
        layout,
        {
            "white": slot_indices(layout, STARTING_WHITE),
            "black": slot_indices(layout, STARTING_BLACK),
        },
    )
    reference = _empty_board(top, layout, learned)
    return replace(calibration, colours=learned, profiles=profiles, reference=reference)


#: for each point holding checkers at the start, an empty point of the same colour and row
_DONORS = {
    "p1": "p3",
    "p6": "p4",
    "p8": "p10",
    "p12": "p10",
    "p13": "p15",
    "p17": "p15",
    "p19": "p21",
    "p24": "p22",
}


def _empty_board(
    top: Image, layout: BoardLayout, colours: Mapping[str, tuple[float, float, float]]
) -> Image:
    """The rectified calibration frame with its starting checkers replaced by what lies under them.

    Each occupied point borrows the picture of an empty point of the same colour two or four points
    along the same row: the same triangle, in nearly the same light.
    """
    scale = RECTIFIED_SCALE
    reference = top.copy()
    width = layout.geometry.point_width()
    _x0, y0, _x1, y1 = layout.field_rect()
    half = (y1 - y0) / 2
    for location, donor in _DONORS.items():
        px0, _py0, px1, _py1 = layout.rect(location)
        dx0, _, dx1, _ = layout.rect(donor)
        centre, donor_centre = (px0 + px1) / 2, (dx0 + dx1) / 2
        top_y = y0 if int(location[1:]) > 12 else y1 - half
        half_x0, _, half_x1, _ = next(h for h in layout.halves().values() if h[0] <= centre <= h[2])
        left = round(layout.to_pixels(max(centre - 0.62 * width, half_x0), 0, scale)[0])
        right = round(layout.to_pixels(min(centre + 0.62 * width, half_x1), 0, scale)[0])
        upper = round(layout.to_pixels(0, top_y, scale)[1])
        lower = round(layout.to_pixels(0, top_y + half, scale)[1])
        shift = round((donor_centre - centre) * scale)
        reference[upper:lower, left:right] = top[upper:lower, left + shift : right + shift]
    return reference


def _lab(bgr: FloatArray) -> FloatArray:
    pixel = np.clip(np.asarray(bgr, np.float64), 0, 255).astype(np.uint8).reshape(1, 1, 3)
    return cv2.cvtColor(pixel, cv2.COLOR_BGR2LAB).reshape(3).astype(np.float64)


def calibrate(
    image: Image,
    layout: BoardLayout | None = None,
    corners: Sequence[tuple[float, float]] | None = None,
    *,
    learn: bool = True,
) -> Calibration:
    """Locate the board in ``image`` and, when ``learn``, learn its looks (starting position).

    Raises :class:`BoardNotFoundError` or :class:`CalibrationError` with the reason.

    >>> import numpy as np
    >>> from vision.synth.render import DrawnScene, random_style, render
    >>> rng = np.random.default_rng(3)
    >>> calibration = calibrate(render(DrawnScene.starting(), random_style(rng), rng))
    >>> calibration.method, sorted(calibration.colours)[:2]
    ('markers', ['bar', 'black'])
    """
    calibration = locate_board(image, layout, corners)
    return learn_colours(image, calibration) if learn else calibration
