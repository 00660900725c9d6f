"""Where things lie on a board, in board units, derived from :class:`sheshbesh.locations.BoardGeometry`.

Board units: x runs 0..1 across the board's width, y runs 0..``1 / aspect`` down its height (the same
unit on both axes, so circles stay circles). The rectified top-down image used by the reader maps a
board unit to ``scale`` pixels, with a ``margin`` around the board where the ArUco markers lie.
The renderer and the reader share this module, so what one draws is where the other looks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from sheshbesh.locations import (
    BAR_LOCATIONS,
    CUBE_PLACES,
    LOCATIONS,
    OFF_LOCATIONS,
    POINT_LOCATIONS,
    BoardGeometry,
)
from vision.errors import CalibrationError

FloatArray = npt.NDArray[np.float64]

#: checkers in the first row of a point (or a half of the bar), then in the second layer lying in
#: the gaps of the first, then in the third layer lying on the first row's checkers
FIRST_ROW = 5
SECOND_ROW = 5
THIRD_ROW = 5
#: the most checkers one location holds: all fifteen of a side
STACK_CAPACITY = FIRST_ROW + SECOND_ROW + THIRD_ROW


@dataclass(frozen=True, slots=True)
class BoardLayout:
    """A board's proportions and the marker layout around it (all lengths in board units).

    ``aspect`` is width / height of the board (rim included, trays included). Markers are squares of
    side ``marker_size`` whose inner corner sits ``marker_gap`` outside each board corner; ids run
    top-left, top-right, bottom-right, bottom-left.
    """

    geometry: BoardGeometry = field(default_factory=BoardGeometry)
    aspect: float = 1.25
    margin: float = 0.12
    marker_size: float = 0.07
    marker_gap: float = 0.02
    marker_ids: tuple[int, int, int, int] = (0, 1, 2, 3)
    checker_fill: float = 0.96
    die_size: float = 0.042
    cube_size: float = 0.05
    tray_pitch_count: float = 15.5

    def __post_init__(self) -> None:
        if not 0.5 <= self.aspect <= 3.0:
            raise CalibrationError(f"board aspect {self.aspect!r} is not between 0.5 and 3")
        if self.marker_gap + self.marker_size > self.margin:
            raise CalibrationError("markers do not fit in the margin around the board")

    # ---- basic measures -------------------------------------------------------------------
    @property
    def height(self) -> float:
        """The board's height in board units (its width is 1)."""
        return 1.0 / self.aspect

    @property
    def checker_diameter(self) -> float:
        return self.geometry.point_width() * self.checker_fill

    @property
    def bar_checker_diameter(self) -> float:
        return min(self.checker_diameter, 0.95 * self.geometry.bar)

    def rect(self, location: str) -> tuple[float, float, float, float]:
        """``location``'s region as (x0, y0, x1, y1) in board units; raises ValueError if unknown."""
        r = self.geometry.region(location)
        h = self.height
        return (r.x, r.y * h, r.x + r.w, (r.y + r.h) * h)

    def cube_rect(self, place: str) -> tuple[float, float, float, float]:
        r = self.geometry.cube_region(place)
        h = self.height
        return (r.x, r.y * h, r.x + r.w, (r.y + r.h) * h)

    def field_rect(self) -> tuple[float, float, float, float]:
        f = self.geometry.field
        h = self.height
        return (f.x, f.y * h, f.x + f.w, (f.y + f.h) * h)

    def halves(self) -> dict[str, tuple[float, float, float, float]]:
        """The left and right halves of the playing field (the bar between them excluded)."""
        x0, y0, x1, y1 = self.field_rect()
        width = self.geometry.point_width()
        bar_x = x0 + 6 * width
        return {"left": (x0, y0, bar_x, y1), "right": (bar_x + self.geometry.bar, y0, x1, y1)}

    def half_of(self, x: float) -> str:
        """The half of the board (``"left"`` or ``"right"``, from White's seat) holding ``x`` units.

        >>> BoardLayout().half_of(0.1), BoardLayout().half_of(0.8)
        ('left', 'right')
        """
        halves = self.halves()
        bar_centre = (halves["left"][2] + halves["right"][0]) / 2
        return "left" if x < bar_centre else "right"

    # ---- where checkers sit ---------------------------------------------------------------
    def stack_axis(self, location: str) -> tuple[tuple[float, float], float]:
        """Where a stack at ``location`` starts (its base, on the centre line) and its direction (±1 in y)."""
        x0, y0, x1, y1 = self.rect(location)
        cx = (x0 + x1) / 2
        if location in POINT_LOCATIONS:
            n = int(location[1:])
            return ((cx, y1), -1.0) if n <= 12 else ((cx, y0), 1.0)
        if location == "bar-white":
            return (cx, y1), -1.0
        if location == "bar-black":
            return (cx, y0), 1.0
        if location == "off-white":
            return (cx, y1), -1.0
        if location == "off-black":
            return (cx, y0), 1.0
        raise ValueError(f"unknown board location {location!r}; known: {', '.join(LOCATIONS)}")

    def slots(self, location: str) -> list[tuple[int, float, float]]:
        """Centres of the places a checker can take at ``location``, in stacking order.

        Each entry is (layer, x, y). On a point or a half of the bar, the way players pile up a tall
        stack: five in the first row from the base, five in the second layer lying over the gaps
        (the fifth half over the row's end), five in the third layer lying on the first row's
        checkers, from the base. Fifteen places in all, so any legal position fits. In a tray,
        fifteen checkers standing on edge.
        """
        (bx, by), direction = self.stack_axis(location)
        if location in POINT_LOCATIONS or location in BAR_LOCATIONS:
            d = self.checker_diameter if location in POINT_LOCATIONS else self.bar_checker_diameter
            first = [(1, bx, by + direction * (k + 0.5) * d) for k in range(FIRST_ROW)]
            second = [(2, bx, by + direction * (k + 1.0) * d) for k in range(SECOND_ROW)]
            third = [(3, bx, by + direction * (k + 0.5) * d) for k in range(THIRD_ROW)]
            return first + second + third
        pitch = self.tray_pitch
        return [(1, bx, by + direction * (k + 0.5) * pitch) for k in range(STACK_CAPACITY)]

    @property
    def tray_pitch(self) -> float:
        _x0, y0, _x1, y1 = self.rect(OFF_LOCATIONS[0])
        return (y1 - y0) / self.tray_pitch_count

    def capacity(self, location: str) -> int:
        return len(self.slots(location))

    # ---- markers --------------------------------------------------------------------------
    def marker_corners(self) -> dict[int, FloatArray]:
        """Each marker id -> its four corners (4x2, board units) in ArUco order: TL, TR, BR, BL."""
        s, g, h = self.marker_size, self.marker_gap, self.height
        origins = [(-g - s, -g - s), (1 + g, -g - s), (1 + g, h + g), (-g - s, h + g)]
        out: dict[int, FloatArray] = {}
        for marker_id, (ox, oy) in zip(self.marker_ids, origins, strict=True):
            out[marker_id] = np.array(
                [(ox, oy), (ox + s, oy), (ox + s, oy + s), (ox, oy + s)], dtype=np.float64
            )
        return out

    def board_corners(self) -> FloatArray:
        """The board's outer corners (4x2, board units): TL, TR, BR, BL."""
        h = self.height
        return np.array([(0, 0), (1, 0), (1, h), (0, h)], dtype=np.float64)

    # ---- rectified image ------------------------------------------------------------------
    def rectified_size(self, scale: float) -> tuple[int, int]:
        """(width, height) in pixels of the top-down image at ``scale`` pixels per board unit."""
        return (
            round((1 + 2 * self.margin) * scale),
            round((self.height + 2 * self.margin) * scale),
        )

    def to_pixels(self, x: float, y: float, scale: float) -> tuple[float, float]:
        return ((x + self.margin) * scale, (y + self.margin) * scale)

    # ---- serialisation --------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["marker_ids"] = list(self.marker_ids)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BoardLayout:
        """Parse :meth:`to_dict`'s form; raises :class:`CalibrationError` naming a bad field."""
        try:
            geometry = BoardGeometry(**dict(data.get("geometry", {})))
            values = {k: v for k, v in data.items() if k != "geometry"}
            if "marker_ids" in values:
                ids = [int(v) for v in values["marker_ids"]]
                if len(ids) != 4:
                    raise CalibrationError(f"marker_ids {ids!r} must name four markers")
                values["marker_ids"] = (ids[0], ids[1], ids[2], ids[3])
            return cls(geometry=geometry, **values)
        except TypeError as error:
            raise CalibrationError(f"malformed board layout: {error}") from error


CUBE_FACES: tuple[int, ...] = (2, 4, 8, 16, 32, 64)
__all__ = ["CUBE_FACES", "CUBE_PLACES", "LOCATIONS", "STACK_CAPACITY", "BoardLayout"]
