"""The one table of board locations: names, LED indices and where each sits on the board.

The same table serves vision (image regions), the LEDs (strip index) and the panel (SVG drawing).

Physical layout, seen from above with White (player 0) sitting at the bottom edge:

* White's points are numbered 1..24 from White's side; Black's point ``n`` is White's ``25 - n``.
  White's home board (points 1..6) is the bottom-right quadrant, point 1 in the bottom-right corner;
  7..12 run leftwards along the bottom-left quadrant; 13..18 run rightwards along the top-left quadrant;
  19..24 along the top-right quadrant, point 24 in the top-right corner.
* The bar runs down the middle; White's checkers on the bar sit in its lower half, Black's in the
  upper half. The bear-off trays sit right of the board: White's at the bottom, Black's at the top.
* The cube rests in the middle of the bar, or beside the tray of its owner.

Coordinates are fractions of the whole board's width and height (0..1, origin at the top-left),
so boards of other proportions only change :class:`BoardGeometry`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

Colour = Literal["white", "black"]
COLOURS: Final[tuple[Colour, Colour]] = ("white", "black")

POINT_LOCATIONS: Final[tuple[str, ...]] = tuple(f"p{n}" for n in range(1, 25))
BAR_LOCATIONS: Final[tuple[str, str]] = ("bar-white", "bar-black")
OFF_LOCATIONS: Final[tuple[str, str]] = ("off-white", "off-black")
#: Every checker location, in LED strip order (index 0 is White's 1-point).
LOCATIONS: Final[tuple[str, ...]] = POINT_LOCATIONS + BAR_LOCATIONS + OFF_LOCATIONS
LED_INDEX: Final[dict[str, int]] = {name: index for index, name in enumerate(LOCATIONS)}
CUBE_PLACES: Final[tuple[str, ...]] = ("middle", "white", "black")


def point_location(point: int, colour: Colour) -> str:
    """Location name of ``point`` counted from ``colour``'s own 1-point.

    >>> point_location(1, "black")
    'p24'
    """
    if not 1 <= point <= 24:
        raise ValueError(f"point {point!r} is not between 1 and 24")
    return f"p{point if colour == 'white' else 25 - point}"


@dataclass(frozen=True, slots=True)
class Rect:
    """An axis-aligned rectangle in board fractions: left, top, width, height."""

    x: float
    y: float
    w: float
    h: float

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x + self.w / 2, self.y + self.h / 2)


@dataclass(frozen=True, slots=True)
class BoardGeometry:
    """Proportions of a board, as fractions of the whole surface seen by the camera.

    ``frame`` is the rim around the playing field, ``bar`` the bar's width, ``tray`` the width of the
    bear-off column at the right, ``point_length`` how far a point reaches towards the middle.
    """

    frame: float = 0.03
    bar: float = 0.06
    tray: float = 0.08
    point_length: float = 0.40

    @property
    def field(self) -> Rect:
        """The playing field inside the rim, without the trays."""
        return Rect(self.frame, self.frame, 1 - 2 * self.frame - self.tray, 1 - 2 * self.frame)

    def point_width(self) -> float:
        return (self.field.w - self.bar) / 12

    def region(self, location: str) -> Rect:
        """Where ``location`` lies on the board.

        >>> BoardGeometry().region("p1").x > BoardGeometry().region("p6").x
        True
        """
        field = self.field
        width = self.point_width()
        height = field.h * self.point_length
        if location in POINT_LOCATIONS:
            n = int(location[1:])
            if n <= 12:  # bottom row, right to left
                column = 12 - n
                top = field.y + field.h - height
            else:  # top row, left to right
                column = n - 13
                top = field.y
            x = field.x + column * width + (self.bar if column >= 6 else 0.0)
            return Rect(x, top, width, height)
        bar_x = field.x + 6 * width
        if location == "bar-white":
            return Rect(bar_x, field.y + field.h / 2, self.bar, field.h / 2)
        if location == "bar-black":
            return Rect(bar_x, field.y, self.bar, field.h / 2)
        tray_x = field.x + field.w + self.frame / 2
        tray_w = self.tray - self.frame / 2
        if location == "off-white":
            return Rect(tray_x, 0.6, tray_w, 0.4 - self.frame)
        if location == "off-black":
            return Rect(tray_x, self.frame, tray_w, 0.4 - self.frame)
        raise ValueError(f"unknown board location {location!r}; known: {', '.join(LOCATIONS)}")

    def cube_region(self, place: str) -> Rect:
        """Where the cube rests: ``middle`` (on the bar), or beside ``white``'s or ``black``'s tray."""
        tray_x = self.field.x + self.field.w + self.frame / 2
        size = self.tray - self.frame / 2
        if place == "middle":
            bar = self.field.x + 6 * self.point_width()
            return Rect(bar, 0.5 - self.bar / 2, self.bar, self.bar)
        if place == "white":  # between the trays, on White's (lower) side
            return Rect(tray_x, 0.5, size, 0.1)
        if place == "black":
            return Rect(tray_x, 0.4, size, 0.1)
        raise ValueError(f"unknown cube place {place!r}; known: {', '.join(CUBE_PLACES)}")
