"""A synthetic camera: draws a board from a position, with dice, cube, markers and a camera's flaws.

Used by the tests, the benchmark and ``sheshbesh demo`` (which turns a recorded match into frames).
Everything random comes from the ``numpy.random.Generator`` passed in, so a seed fixes a frame.

>>> import numpy as np
>>> rng = np.random.default_rng(1)
>>> image = render(DrawnScene.starting(), random_style(rng), rng)
>>> image.shape, image.dtype.name
((720, 1280, 3), 'uint8')
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

import cv2
import numpy as np
import numpy.typing as npt

from sheshbesh.locations import BAR_LOCATIONS, CUBE_PLACES, LOCATIONS, OFF_LOCATIONS
from vision.cube_face import BGR, cube_face_image
from vision.cube_face import shade as _shade
from vision.errors import VisionError
from vision.layout import CUBE_FACES, BoardLayout

Image = npt.NDArray[np.uint8]
FRAME_SIZE: tuple[int, int] = (1280, 720)
_CANVAS_SCALE = 800.0  # canvas pixels per board unit before the camera warp
_SHIFT = 4
_ONE = 1 << _SHIFT

#: pip layouts in face coordinates (-1..1)
PIP_LAYOUT: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


class DrawnSceneError(VisionError, ValueError):
    """A scene cannot be drawn (bad counts, dice or cube); the message names the field."""


@dataclass(frozen=True, slots=True)
class DieSpec:
    """One die to draw: its pips and whether it lies cocked (tilted against something)."""

    pips: int
    cocked: bool = False
    #: the half of the board it lies in; None follows the scene's ``dice_half`` (a roll-off
    #: puts one die in each player's half)
    half: Literal["left", "right"] | None = None


@dataclass(frozen=True, slots=True)
class DrawnScene:
    """What lies on the board: ``counts`` maps a location to (white, black) checkers there."""

    counts: Mapping[str, tuple[int, int]]
    dice: tuple[DieSpec, ...] = ()
    dice_half: Literal["left", "right"] = "right"
    cube_value: int = 64
    cube_place: str | None = "middle"
    hand: bool = False

    def __post_init__(self) -> None:
        for name, (white, black) in self.counts.items():
            if name not in LOCATIONS:
                raise DrawnSceneError(f"scene names unknown location {name!r}")
            if white < 0 or black < 0:
                raise DrawnSceneError(f"negative checker count at {name!r}: {(white, black)!r}")
        for die in self.dice:
            if not 1 <= die.pips <= 6:
                raise DrawnSceneError(f"die with {die.pips!r} pips")
            if die.half not in (None, "left", "right"):
                raise DrawnSceneError(f"die half {die.half!r} is not 'left' or 'right'")
        if self.cube_value not in CUBE_FACES:
            raise DrawnSceneError(f"cube face {self.cube_value!r} is not one of {CUBE_FACES}")
        if self.cube_place is not None and self.cube_place not in CUBE_PLACES:
            raise DrawnSceneError(f"cube place {self.cube_place!r} is not one of {CUBE_PLACES}")
        if self.dice_half not in ("left", "right"):
            raise DrawnSceneError(f"dice half {self.dice_half!r} is not 'left' or 'right'")

    def count(self, location: str) -> tuple[int, int]:
        return self.counts.get(location, (0, 0))

    @classmethod
    def from_sides(
        cls,
        white: Sequence[int],
        black: Sequence[int],
        **options: object,
    ) -> DrawnScene:
        """A scene from GNU Backgammon-style sides: 25 ints each, own 1-point first, bar last.

        Checkers missing from a side's 15 are borne off.

        >>> start = [0] * 5 + [5, 0, 3] + [0] * 4 + [5] + [0] * 10 + [2, 0]
        >>> DrawnScene.from_sides(start, start).count("p1")
        (0, 2)
        """
        if len(white) != 25 or len(black) != 25:
            raise DrawnSceneError(f"sides need 25 counts each, got {len(white)} and {len(black)}")
        counts: dict[str, tuple[int, int]] = {}
        for index in range(24):
            w_name, b_name = f"p{index + 1}", f"p{24 - index}"
            counts[w_name] = (white[index], counts.get(w_name, (0, 0))[1])
            counts[b_name] = (counts.get(b_name, (0, 0))[0], black[index])
        counts["bar-white"] = (white[24], 0)
        counts["bar-black"] = (0, black[24])
        counts["off-white"] = (15 - sum(white), 0)
        counts["off-black"] = (0, 15 - sum(black))
        if counts["off-white"][0] < 0 or counts["off-black"][1] < 0:
            raise DrawnSceneError("a side has more than 15 checkers")
        return cls(counts=counts, **options)  # type: ignore[arg-type]

    @classmethod
    def starting(cls, **options: object) -> DrawnScene:
        """The starting position of backgammon, no dice, the cube in the middle."""
        start = [0] * 5 + [5, 0, 3] + [0] * 4 + [5] + [0] * 10 + [2, 0]
        return cls.from_sides(start, start, **options)


@dataclass(frozen=True, slots=True)
class Style:
    """How a board looks and how the camera sees it; fixed for a session of frames.

    ``corners`` are the board's outer corners (TL, TR, BR, BL) in camera pixels: the camera's pose.
    """

    layout: BoardLayout = field(default_factory=BoardLayout)
    board: BGR = (120, 170, 205)
    rim: BGR = (40, 70, 110)
    points: tuple[BGR, BGR] = ((40, 40, 150), (200, 225, 235))
    white: BGR = (225, 235, 240)
    black: BGR = (35, 35, 40)
    table: BGR = (90, 100, 110)
    die_body: BGR = (235, 240, 240)
    die_pips: BGR = (20, 20, 20)
    cube_body: BGR = (225, 235, 240)
    corners: tuple[tuple[float, float], ...] = ((270, 90), (1010, 90), (1010, 682), (270, 682))
    gradient: float = 0.0
    gradient_angle: float = 0.0
    shadow: float = 0.0
    glare: float = 0.0
    glare_at: tuple[float, float] = (0.5, 0.5)
    blur: float = 0.0
    noise: float = 2.0
    size: tuple[int, int] = FRAME_SIZE

    def homography(self) -> npt.NDArray[np.float64]:
        """3x3 map from board units to camera pixels."""
        src = self.layout.board_corners().astype(np.float32)
        dst = np.array(self.corners, dtype=np.float32)
        return cv2.getPerspectiveTransform(src, dst).astype(np.float64)


_BOARDS: tuple[tuple[BGR, BGR], ...] = (  # field, rim
    ((120, 170, 205), (40, 70, 110)),  # light wood, dark wood rim
    ((60, 110, 60), (30, 50, 80)),  # green felt
    ((165, 200, 220), (70, 100, 140)),  # beige
    ((50, 75, 110), (25, 40, 60)),  # dark walnut
    ((140, 140, 135), (60, 60, 60)),  # grey
)
_POINTS: tuple[tuple[BGR, BGR], ...] = (
    ((40, 40, 150), (200, 225, 235)),  # red / cream
    ((30, 30, 30), (230, 230, 230)),  # black / white
    ((40, 70, 120), (150, 190, 215)),  # brown / tan
    ((120, 60, 20), (60, 140, 200)),  # blue / orange
    ((50, 100, 40), (210, 210, 200)),  # green / ivory
)
_WHITES: tuple[BGR, ...] = ((225, 235, 240), (200, 225, 240), (215, 215, 215), (180, 215, 235))
_BLACKS: tuple[BGR, ...] = ((35, 35, 40), (25, 45, 80), (40, 30, 120), (70, 40, 20), (40, 60, 30))
_SKINS: tuple[BGR, ...] = ((150, 180, 225), (110, 140, 190), (70, 100, 150), (170, 195, 235))


def _jitter(colour: BGR, rng: np.random.Generator, amount: int) -> BGR:
    values = np.clip(np.array(colour) + rng.integers(-amount, amount + 1, 3), 0, 255)
    return (int(values[0]), int(values[1]), int(values[2]))


def random_style(
    rng: np.random.Generator, *, hard: bool = True, layout: BoardLayout | None = None
) -> Style:
    """A plausible board, checker set, dice and camera pose; ``hard`` adds flaws of light and lens."""
    layout = layout or BoardLayout()
    for _ in range(200):  # checkers that do not vanish into the board (see _distinct)
        board, rim = _BOARDS[int(rng.integers(len(_BOARDS)))]
        points = _POINTS[int(rng.integers(len(_POINTS)))]
        white = _jitter(_WHITES[int(rng.integers(len(_WHITES)))], rng, 10)
        black = _jitter(_BLACKS[int(rng.integers(len(_BLACKS)))], rng, 10)
        tray = _shade(rim, 0.75)
        if _distinct((white, black), (board, *points)) and _distinct(
            (white, black), (rim, tray), 25.0
        ):
            break
    light_dice = bool(rng.random() < 0.6)
    if light_dice:
        die_body: BGR = _jitter((230, 235, 240), rng, 15)
        die_pips: BGR = _jitter((25, 25, 25), rng, 15)
    else:
        die_body = ((40, 40, 170), (30, 30, 30), (140, 60, 20), (40, 110, 40))[int(rng.integers(4))]
        die_pips = _jitter((235, 235, 235), rng, 15)
    return Style(
        layout=layout,
        board=_jitter(board, rng, 12),
        rim=_jitter(rim, rng, 10),
        points=(_jitter(points[0], rng, 12), _jitter(points[1], rng, 12)),
        white=white,
        black=black,
        table=_jitter((90, 100, 110), rng, 40),
        die_body=die_body,
        die_pips=die_pips,
        cube_body=_jitter((225, 232, 238), rng, 10),
        corners=_random_corners(rng, layout),
        gradient=float(rng.uniform(0.1, 0.35) if hard else rng.uniform(0, 0.1)),
        gradient_angle=float(rng.uniform(0, 2 * math.pi)),
        shadow=float(rng.uniform(0.15, 0.35) if hard and rng.random() < 0.7 else 0.0),
        glare=float(rng.uniform(20, 50) if hard and rng.random() < 0.6 else 0.0),
        glare_at=(float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.2, 0.8))),
        blur=float(rng.uniform(0.4, 1.3) if hard else rng.uniform(0, 0.5)),
        noise=float(rng.uniform(3, 8) if hard else rng.uniform(1, 3)),
    )


def _lab_of(colour: BGR) -> npt.NDArray[np.float64]:
    pixel = np.array([[colour]], np.uint8)
    return cv2.cvtColor(pixel, cv2.COLOR_BGR2LAB).reshape(3).astype(np.float64)


def _distinct(checkers: Sequence[BGR], surfaces: Sequence[BGR], least: float = 30.0) -> bool:
    """Each checker colour differs from each surface colour by ``least`` in Lab.

    The reader tells a checker from the board by colour first; sets that match their board's
    points are out of its reach (and of this renderer's), see the README's limits.
    """
    return all(
        float(np.linalg.norm(_lab_of(c) - _lab_of(s))) >= least for c in checkers for s in surfaces
    )


def _random_corners(
    rng: np.random.Generator, layout: BoardLayout
) -> tuple[tuple[float, float], ...]:
    width, height = FRAME_SIZE
    for _ in range(100):
        scale = rng.uniform(500, 620)
        keystone = rng.uniform(0.86, 1.0)  # the far edge looks shorter
        w, h = scale, scale * layout.height
        cx = width / 2 + rng.uniform(-40, 40)
        cy = height / 2 + rng.uniform(-15, 15)
        base = np.array(
            [
                (-w / 2 * keystone, -h / 2),
                (w / 2 * keystone, -h / 2),
                (w / 2, h / 2),
                (-w / 2, h / 2),
            ]
        )
        base += rng.normal(0, 0.02 * scale, (4, 2))
        angle = rng.uniform(-0.12, 0.12)
        if rng.random() < 0.5:  # the camera sits on Black's side
            angle += math.pi
        rotation = np.array(
            [[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]]
        )
        corners = base @ rotation.T + (cx, cy)
        homography = cv2.getPerspectiveTransform(
            layout.board_corners().astype(np.float32), corners.astype(np.float32)
        )
        # each marker with its white border must be in view
        markers = np.concatenate(
            [c.mean(axis=0) + 1.5 * (c - c.mean(axis=0)) for c in layout.marker_corners().values()]
        )
        seen = cv2.perspectiveTransform(markers.reshape(-1, 1, 2), homography).reshape(-1, 2)
        if seen.min() > 8 and (seen[:, 0].max() < width - 8) and (seen[:, 1].max() < height - 8):
            return tuple((float(x), float(y)) for x, y in corners)
    raise VisionError("could not place the board in the frame")  # pragma: no cover


@dataclass(frozen=True, slots=True)
class RenderedFrame:
    """A rendered camera frame with the truth behind it (for tests and the benchmark)."""

    image: Image
    homography: npt.NDArray[np.float64]
    dice_boxes: tuple[tuple[int, int, int, int], ...]
    dice_centres: tuple[tuple[float, float], ...]


def render(scene: DrawnScene, style: Style, rng: np.random.Generator) -> Image:
    """Draw ``scene`` as ``style``'s camera sees it: a BGR uint8 image of ``style.size``."""
    return render_frame(scene, style, rng).image


def render_frame(scene: DrawnScene, style: Style, rng: np.random.Generator) -> RenderedFrame:
    """Like :func:`render`, also returning the homography and where the dice landed."""
    layout = style.layout
    s = _CANVAS_SCALE
    size = layout.rectified_size(s)
    canvas = np.empty((size[1], size[0], 3), np.uint8)
    canvas[:] = style.table
    _draw_markers(canvas, layout)
    _draw_board(canvas, style)
    centres = _draw_checkers(canvas, scene, style, rng)
    die_centres, die_corners = _draw_dice(canvas, scene, style, rng, centres)
    if scene.cube_place is not None:
        _draw_cube(canvas, scene, style, rng)
    board_to_camera = style.homography()
    units_to_canvas = np.array([[s, 0, layout.margin * s], [0, s, layout.margin * s], [0, 0, 1.0]])
    canvas_to_camera = board_to_camera @ np.linalg.inv(units_to_canvas)
    image: Image = cv2.warpPerspective(  # type: ignore[assignment]
        canvas,
        canvas_to_camera,
        style.size,
        flags=cv2.INTER_AREA,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=style.table,
    )
    if scene.hand:
        _draw_hand(image, style, rng)
    image = _camera_flaws(image, style, rng)
    boxes: list[tuple[int, int, int, int]] = []
    camera_centres: list[tuple[float, float]] = []
    for centre, corners in zip(die_centres, die_corners, strict=True):
        seen = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), board_to_camera).reshape(-1, 2)
        x0, y0 = seen.min(axis=0)
        x1, y1 = seen.max(axis=0)
        boxes.append((int(x0), int(y0), math.ceil(x1 - x0), math.ceil(y1 - y0)))
        c = cv2.perspectiveTransform(np.array([[centre]], np.float64), board_to_camera)[0, 0]
        camera_centres.append((float(c[0]), float(c[1])))
    return RenderedFrame(image, board_to_camera, tuple(boxes), tuple(camera_centres))


# ---- drawing on the top-down canvas ---------------------------------------------------------
def _px(layout: BoardLayout, x: float, y: float) -> tuple[int, int]:
    u, v = layout.to_pixels(x, y, _CANVAS_SCALE)
    return (round(u * _ONE), round(v * _ONE))


def _poly(layout: BoardLayout, points: Sequence[tuple[float, float]]) -> npt.NDArray[np.int32]:
    return np.array([_px(layout, x, y) for x, y in points], np.int32)


def _draw_markers(canvas: Image, layout: BoardLayout) -> None:
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    side = round(layout.marker_size * _CANVAS_SCALE)
    for marker_id, corners in layout.marker_corners().items():
        marker = cv2.aruco.generateImageMarker(dictionary, marker_id, side)
        x, y = layout.to_pixels(float(corners[0, 0]), float(corners[0, 1]), _CANVAS_SCALE)
        x0, y0 = round(x), round(y)
        pad = side // 5  # the white paper around the marker
        canvas[y0 - pad : y0 + side + pad, x0 - pad : x0 + side + pad] = 245
        canvas[y0 : y0 + side, x0 : x0 + side] = marker[:, :, None]


def _draw_board(canvas: Image, style: Style) -> None:
    layout = style.layout
    h = layout.height
    cv2.fillPoly(
        canvas, [_poly(layout, [(0, 0), (1, 0), (1, h), (0, h)])], style.rim, cv2.LINE_AA, _SHIFT
    )
    for half in layout.halves().values():
        x0, y0, x1, y1 = half
        cv2.fillPoly(
            canvas,
            [_poly(layout, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)])],
            style.board,
            cv2.LINE_AA,
            _SHIFT,
        )
    for location in OFF_LOCATIONS:
        x0, y0, x1, y1 = layout.rect(location)
        tray = tuple(int(c * 0.75) for c in style.rim)
        cv2.fillPoly(
            canvas,
            [_poly(layout, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)])],
            tray,
            cv2.LINE_AA,
            _SHIFT,
        )
    for n in range(1, 25):
        x0, y0, x1, y1 = layout.rect(f"p{n}")
        colour = style.points[n % 2]
        if n <= 12:
            triangle = [(x0, y1), (x1, y1), ((x0 + x1) / 2, y0)]
        else:
            triangle = [(x0, y0), (x1, y0), ((x0 + x1) / 2, y1)]
        cv2.fillPoly(canvas, [_poly(layout, triangle)], colour, cv2.LINE_AA, _SHIFT)


def _rim_colour(colour: BGR) -> BGR:
    if sum(colour) > 300:
        return _shade(colour, 0.62)
    return (min(255, colour[0] + 60), min(255, colour[1] + 60), min(255, colour[2] + 60))


def _draw_checker(
    canvas: Image,
    layout: BoardLayout,
    x: float,
    y: float,
    diameter: float,
    colour: BGR,
    lift: float,
) -> None:
    r = diameter / 2 * _CANVAS_SCALE * _ONE
    centre = _px(layout, x, y)
    offset = round((0.05 + lift) * diameter * _CANVAS_SCALE * _ONE)
    shadow_centre = (centre[0] + offset, centre[1] + offset)
    cx, cy = centre[0] >> _SHIFT, centre[1] >> _SHIFT
    radius = int(r) >> _SHIFT
    patch = canvas[max(cy - radius, 0) : cy + radius, max(cx - radius, 0) : cx + radius]
    mean = patch.reshape(-1, 3).mean(axis=0) if patch.size else np.zeros(3)
    underneath: BGR = (int(mean[0]), int(mean[1]), int(mean[2]))
    cv2.circle(canvas, shadow_centre, int(r), _shade(underneath, 0.55), -1, cv2.LINE_AA, _SHIFT)
    cv2.circle(canvas, centre, int(r), colour, -1, cv2.LINE_AA, _SHIFT)
    rim = _rim_colour(colour)
    r_pixels = r / _ONE
    cv2.circle(
        canvas, centre, int(r * 0.94), rim, max(1, round(r_pixels * 0.1)), cv2.LINE_AA, _SHIFT
    )
    groove = _shade(colour, 0.85) if sum(colour) > 300 else _shade(rim, 0.8)
    cv2.circle(
        canvas, centre, int(r * 0.66), groove, max(1, round(r_pixels * 0.05)), cv2.LINE_AA, _SHIFT
    )


def _draw_checkers(
    canvas: Image, scene: DrawnScene, style: Style, rng: np.random.Generator
) -> list[tuple[float, float, float]]:
    """Every checker of ``scene``: first rows, then each higher layer over all of them.

    A checker of a higher layer lies on those under it, so its shadow falls further out (``lift``).
    """
    layout = style.layout
    placed: list[tuple[float, float, float]] = []
    later: list[tuple[int, float, float, float, BGR]] = []
    for location in LOCATIONS:
        white, black = scene.count(location)
        colours = [style.white] * white + [style.black] * black
        if not colours:
            continue
        slots = layout.slots(location)
        if len(colours) > len(slots):
            raise DrawnSceneError(
                f"{len(colours)} checkers do not fit at {location!r} (at most {len(slots)})"
            )
        if location in OFF_LOCATIONS:
            _draw_tray(canvas, layout, location, colours)
            continue
        diameter = (
            layout.bar_checker_diameter if location in BAR_LOCATIONS else layout.checker_diameter
        )
        jitter = 0.025 * diameter
        for (layer, x, y), colour in zip(slots, colours, strict=False):
            x += float(rng.normal(0, jitter))
            y += float(rng.normal(0, jitter * 0.5))
            if layer == 1:
                _draw_checker(canvas, layout, x, y, diameter, colour, 0.0)
            else:
                later.append((layer, x, y, diameter, colour))
            placed.append((x, y, diameter))
    for layer, x, y, diameter, colour in sorted(later, key=lambda item: item[0]):
        _draw_checker(canvas, layout, x, y, diameter, colour, 0.06 * (layer - 1))
    return placed


def _draw_tray(canvas: Image, layout: BoardLayout, location: str, colours: Sequence[BGR]) -> None:
    x0, _, x1, _ = layout.rect(location)
    pitch = layout.tray_pitch
    width = (x1 - x0) * 0.84
    for (_, x, y), colour in zip(layout.slots(location), colours, strict=False):
        corners = [
            (x - width / 2, y - pitch * 0.44),
            (x + width / 2, y - pitch * 0.44),
            (x + width / 2, y + pitch * 0.44),
            (x - width / 2, y + pitch * 0.44),
        ]
        cv2.fillPoly(canvas, [_poly(layout, corners)], colour, cv2.LINE_AA, _SHIFT)
        cv2.polylines(
            canvas, [_poly(layout, corners)], True, _rim_colour(colour), 1, cv2.LINE_AA, _SHIFT
        )


def _square(
    cx: float, cy: float, size: float, angle: float, squash: float = 1.0
) -> npt.NDArray[np.float64]:
    c, s = math.cos(angle), math.sin(angle)
    half = size / 2
    local = np.array(
        [
            (-half, -half * squash),
            (half, -half * squash),
            (half, half * squash),
            (-half, half * squash),
        ]
    )
    return np.asarray(local @ np.array([[c, s], [-s, c]]) + (cx, cy), np.float64)


def _draw_dice(
    canvas: Image,
    scene: DrawnScene,
    style: Style,
    rng: np.random.Generator,
    checkers: list[tuple[float, float, float]],
) -> tuple[list[tuple[float, float]], list[npt.NDArray[np.float64]]]:
    layout = style.layout
    size = layout.die_size
    centres: list[tuple[float, float]] = []
    corners_out: list[npt.NDArray[np.float64]] = []
    for die in scene.dice:
        x0, y0, x1, y1 = layout.halves()[die.half or scene.dice_half]
        best, best_room = (0.0, 0.0), -1.0
        for _ in range(300):
            cx = float(rng.uniform(x0 + size, x1 - size))
            cy = float(rng.uniform(y0 + size, y1 - size))
            room = min(
                [math.hypot(cx - x, cy - y) - d / 2 - size * 0.75 for x, y, d in checkers]
                + [math.hypot(cx - x, cy - y) - size * 1.6 for x, y in centres]
                + [1.0]
            )
            if room > best_room:
                best, best_room = (cx, cy), room
            if room > 0.004:
                break
        cx, cy = best
        angle = float(rng.uniform(0, math.pi / 2))
        squash = 0.72 if die.cocked else 1.0
        face = _square(cx, cy, size, angle, squash)
        shadow = face + size * 0.08
        cv2.fillPoly(
            canvas,
            [_poly(layout, [tuple(p) for p in shadow])],
            _shade(style.board, 0.5),
            cv2.LINE_AA,
            _SHIFT,
        )
        if die.cocked:  # the side face shows below the tilted top face
            side = np.array(
                [
                    face[3],
                    face[2],
                    face[2] + _rotate((0, size * 0.5), angle),
                    face[3] + _rotate((0, size * 0.5), angle),
                ]
            )
            cv2.fillPoly(
                canvas,
                [_poly(layout, [tuple(p) for p in side])],
                _shade(style.die_body, 0.7),
                cv2.LINE_AA,
                _SHIFT,
            )
        cv2.fillPoly(
            canvas, [_poly(layout, [tuple(p) for p in face])], style.die_body, cv2.LINE_AA, _SHIFT
        )
        cv2.polylines(
            canvas,
            [_poly(layout, [tuple(p) for p in face])],
            True,
            _shade(style.die_body, 0.8),
            1,
            cv2.LINE_AA,
            _SHIFT,
        )
        pip_radius = size * 0.085 * _CANVAS_SCALE * _ONE
        for px, py in PIP_LAYOUT[die.pips]:
            offset = _rotate((px * size * 0.27, py * size * 0.27 * squash), angle)
            cv2.ellipse(
                canvas,
                _px(layout, cx + offset[0], cy + offset[1]),
                (int(pip_radius), int(pip_radius * squash)),
                math.degrees(angle),
                0,
                360,
                style.die_pips,
                -1,
                cv2.LINE_AA,
                _SHIFT,
            )
        centres.append((cx, cy))
        corners_out.append(face)
    return centres, corners_out


def _rotate(vector: tuple[float, float], angle: float) -> npt.NDArray[np.float64]:
    c, s = math.cos(angle), math.sin(angle)
    x, y = vector
    return np.array((x * c - y * s, x * s + y * c))


def _draw_cube(canvas: Image, scene: DrawnScene, style: Style, rng: np.random.Generator) -> None:
    layout = style.layout
    assert scene.cube_place is not None
    x0, y0, x1, y1 = layout.cube_rect(scene.cube_place)
    cx = (x0 + x1) / 2 + float(rng.normal(0, 0.002))
    cy = (y0 + y1) / 2 + float(rng.normal(0, 0.003))
    side = round(layout.cube_size * _CANVAS_SCALE)
    face = cube_face_image(scene.cube_value, side, style.cube_body)
    angle = 90.0 * int(rng.integers(4)) + float(rng.uniform(-6, 6))
    u, v = layout.to_pixels(cx, cy, _CANVAS_SCALE)
    turn = cv2.getRotationMatrix2D((side / 2, side / 2), angle, 1.0)
    turn[:, 2] += np.array((u - side / 2, v - side / 2))
    height, width = canvas.shape[:2]
    mask = np.full((side, side), 255, np.uint8)
    shadow_turn = turn.copy()
    shadow_turn[:, 2] += np.array((side * 0.07, side * 0.07))
    shadow = cv2.warpAffine(mask, shadow_turn, (width, height), flags=cv2.INTER_LINEAR)
    canvas[shadow > 128] = (canvas[shadow > 128] * 0.55).astype(np.uint8)
    warped = cv2.warpAffine(face, turn, (width, height), flags=cv2.INTER_LINEAR)
    alpha = cv2.warpAffine(mask, turn, (width, height), flags=cv2.INTER_LINEAR)
    inside = alpha > 128
    canvas[inside] = warped[inside]


# ---- in camera space ------------------------------------------------------------------------
def _draw_hand(image: Image, style: Style, rng: np.random.Generator) -> None:
    skin = _jitter(_SKINS[int(rng.integers(len(_SKINS)))], rng, 10)
    corners = np.array(style.corners)
    centre = corners.mean(axis=0) + rng.uniform(-0.3, 0.3, 2) * (
        corners.max(axis=0) - corners.min(axis=0)
    )
    height = image.shape[0]
    from_below = bool(rng.random() < 0.5)
    edge = (centre[0] + rng.uniform(-150, 150), height + 50 if from_below else -50)
    arm_width = int(rng.uniform(70, 100))
    cv2.line(
        image,
        (int(edge[0]), int(edge[1])),
        (int(centre[0]), int(centre[1])),
        _shade(skin, 0.9),
        arm_width,
        cv2.LINE_AA,
    )
    axes = (int(rng.uniform(55, 75)), int(rng.uniform(65, 85)))
    direction = math.atan2(centre[1] - edge[1], centre[0] - edge[0])
    cv2.ellipse(
        image,
        (int(centre[0]), int(centre[1])),
        axes,
        math.degrees(direction) + 90,
        0,
        360,
        skin,
        -1,
        cv2.LINE_AA,
    )
    for k in range(4):
        spread = direction + (k - 1.5) * 0.25
        tip = centre + 130 * np.array((math.cos(spread), math.sin(spread)))
        cv2.line(
            image,
            (int(centre[0]), int(centre[1])),
            (int(tip[0]), int(tip[1])),
            _shade(skin, 0.95),
            22,
            cv2.LINE_AA,
        )


def _camera_flaws(image: Image, style: Style, rng: np.random.Generator) -> Image:
    height, width = image.shape[:2]
    out = image.astype(np.float32)
    if style.gradient > 0:
        ys, xs = np.mgrid[0:height:8, 0:width:8].astype(np.float32)
        ramp = np.cos(style.gradient_angle) * (xs / width - 0.5) + np.sin(style.gradient_angle) * (
            ys / height - 0.5
        )
        light = cv2.resize(
            1.0 + style.gradient * 2 * ramp, (width, height), interpolation=cv2.INTER_LINEAR
        )
        out *= light[:, :, None]
    if style.shadow > 0:
        mask = np.zeros((height, width), np.float32)
        centre = np.array(style.corners).mean(axis=0) + rng.uniform(-250, 250, 2)
        points = centre + rng.uniform(-220, 220, (5, 2))
        cv2.fillConvexPoly(mask, cv2.convexHull(points.astype(np.int32)), 1.0)
        mask = np.asarray(cv2.GaussianBlur(mask, (0, 0), 25), np.float32)
        out *= (1.0 - style.shadow * mask)[:, :, None]
    if style.glare > 0:
        # the lamp's reflection stays put while the camera and the lamp do
        gx, gy = style.glare_at[0] * width, style.glare_at[1] * height
        radius = 100.0
        ys, xs = np.ogrid[0:height, 0:width]
        blob = np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * radius**2)).astype(np.float32)
        out += style.glare * blob[:, :, None]
    if style.blur > 0:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), style.blur), np.float32)
    if style.noise > 0:
        out += rng.normal(0, style.noise, out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def random_scene(rng: np.random.Generator, *, dice: bool = True, cocked: float = 0.1) -> DrawnScene:
    """A random position (15 checkers a side, stacks up to ten, bar and trays), dice and cube.

    Points never hold both colours; at most four checkers a side wait on the bar.
    """
    counts: dict[str, list[int]] = {name: [0, 0] for name in LOCATIONS}
    for side, (bar, off) in enumerate((("bar-white", "off-white"), ("bar-black", "off-black"))):
        left = 15
        on_bar = int(rng.choice([0, 0, 0, 1, 2, 3]))
        counts[bar][side] = on_bar
        left -= on_bar
        borne_off = min(left, int(rng.choice([0, 0, 0, 2, 6, 11])))
        counts[off][side] = borne_off
        left -= borne_off
        while left > 0:
            point = f"p{int(rng.integers(1, 25))}"
            if counts[point][1 - side] > 0 or counts[point][side] >= 10:
                continue
            add = min(left, int(rng.integers(1, 8)), 10 - counts[point][side])
            counts[point][side] += add
            left -= add
    specs: tuple[DieSpec, ...] = ()
    if dice:
        specs = tuple(
            DieSpec(int(rng.integers(1, 7)), bool(rng.random() < cocked)) for _ in range(2)
        )
    return DrawnScene(
        counts={name: (white, black) for name, (white, black) in counts.items()},
        dice=specs,
        dice_half="left" if rng.random() < 0.5 else "right",
        cube_value=int(rng.choice(CUBE_FACES)),
        cube_place=str(rng.choice(CUBE_PLACES)),
    )
