"""The board drawn as SVG from a state snapshot, with the same location table as vision and LEDs.

Every checker is one element carrying ``data-location`` (so a page, or a test, can count them per
point); lit LEDs, the last play and the locations the referee complains about are marked too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from html import escape
from typing import Any, Final

from markupsafe import Markup

from sheshbesh.locations import (
    BAR_LOCATIONS,
    LOCATIONS,
    OFF_LOCATIONS,
    POINT_LOCATIONS,
    BoardGeometry,
    Rect,
)
from web.state import State

WIDTH: Final[float] = 1000.0
HEIGHT: Final[float] = 800.0
COLOURS: Final[tuple[str, str]] = ("white", "black")
#: Checkers drawn at full spacing on a point before the stack is squeezed and labelled.
STACK_SHOWN: Final[int] = 5

# Die pip positions on a 0..1 square.
_PIPS: Final[dict[int, tuple[tuple[float, float], ...]]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _px(rect: Rect) -> tuple[float, float, float, float]:
    return rect.x * WIDTH, rect.y * HEIGHT, rect.w * WIDTH, rect.h * HEIGHT


def _is_lower(location: str) -> bool:
    """Whether ``location`` lies in the board's lower half (White's side)."""
    if location in POINT_LOCATIONS:
        return int(location[1:]) <= 12
    return location in ("bar-white", "off-white")


def _centre(geometry: BoardGeometry, location: str) -> tuple[float, float]:
    x, y = geometry.region(location).centre
    return x * WIDTH, y * HEIGHT


class _Drawing:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, tag: str, attributes: Mapping[str, Any], text: str | None = None) -> None:
        rendered = " ".join(
            f'{name.rstrip("_").replace("_", "-")}="{escape(str(value))}"'
            for name, value in attributes.items()
            if value is not None
        )
        if text is None:
            self.parts.append(f"<{tag} {rendered}/>")
        else:
            self.parts.append(f"<{tag} {rendered}>{escape(text)}</{tag}>")

    def raw(self, markup: str) -> None:
        self.parts.append(markup)


def _points(drawing: _Drawing, geometry: BoardGeometry, lights: Mapping[str, str]) -> None:
    for location in POINT_LOCATIONS:
        x, y, w, h = _px(geometry.region(location))
        n = int(location[1:])
        if _is_lower(location):
            corners = [(x, y + h), (x + w, y + h), (x + w / 2, y)]
        else:
            corners = [(x, y), (x + w, y), (x + w / 2, y + h)]
        shade = "dark" if n % 2 else "light"
        classes = f"point point-{shade}"
        if location in lights:
            classes += f" lit lit-{lights[location]}"
        drawing.add(
            "polygon",
            {
                "class_": classes,
                "data_location": location,
                "points": " ".join(f"{_num(px)},{_num(py)}" for px, py in corners),
            },
        )


def _point_numbers(drawing: _Drawing, geometry: BoardGeometry, lights: Mapping[str, str]) -> None:
    """White's point numbers in the rim, on top of the LED drawn there when it is lit."""
    frame = geometry.frame * HEIGHT
    for location in POINT_LOCATIONS:
        x, y, w, h = _px(geometry.region(location))
        label_y = y + h + frame * 0.72 if _is_lower(location) else y - frame * 0.28
        classes = "point-number on-led" if location in lights else "point-number"
        drawing.add(
            "text", {"class_": classes, "x": _num(x + w / 2), "y": _num(label_y)}, location[1:]
        )


def _checker_stack(
    drawing: _Drawing,
    location: str,
    rect: Rect,
    counts: Sequence[int],
    radius: float,
    *,
    from_middle: bool = False,
) -> None:
    """Circles along ``rect`` from its outer end (or from the board's middle, for the bar)."""
    x, y, w, h = _px(rect)
    total = sum(counts)
    if total == 0:
        return
    spacing = 2 * radius if total <= STACK_SHOWN else (h - 2 * radius) / (total - 1)
    spacing = min(spacing, 2 * radius)
    downward = not _is_lower(location)
    if from_middle:
        downward = not downward
    start = y + radius if downward else y + h - radius
    step = spacing if downward else -spacing
    cx = x + w / 2
    index = 0
    last_cy = start
    for colour, count in zip(COLOURS, counts, strict=True):
        for _ in range(count):
            last_cy = start + index * step
            drawing.add(
                "circle",
                {
                    "class_": f"checker {colour}",
                    "data_location": location,
                    "cx": _num(cx),
                    "cy": _num(last_cy),
                    "r": _num(radius),
                },
            )
            index += 1
    if total > STACK_SHOWN:
        colour = COLOURS[0] if counts[0] >= counts[1] else COLOURS[1]
        drawing.add(
            "text",
            {
                "class_": f"stack-count on-{colour}",
                "data_location": location,
                "x": _num(cx),
                "y": _num(last_cy + radius * 0.36),
            },
            str(total),
        )


def _off_tray(drawing: _Drawing, location: str, rect: Rect, counts: Sequence[int]) -> None:
    x, y, w, h = _px(rect)
    drawing.add(
        "rect",
        {
            "class_": "tray",
            "data_location": location,
            "x": _num(x),
            "y": _num(y),
            "width": _num(w),
            "height": _num(h),
        },
    )
    slot = h / 15
    index = 0
    for colour, count in zip(COLOURS, counts, strict=True):
        for _ in range(count):
            top = y + h - (index + 1) * slot if _is_lower(location) else y + index * slot
            drawing.add(
                "rect",
                {
                    "class_": f"checker off {colour}",
                    "data_location": location,
                    "x": _num(x + w * 0.1),
                    "y": _num(top + slot * 0.1),
                    "width": _num(w * 0.8),
                    "height": _num(slot * 0.8),
                },
            )
            index += 1


def _leds(drawing: _Drawing, geometry: BoardGeometry, lights: Mapping[str, str]) -> None:
    frame = geometry.frame * HEIGHT
    for location in LOCATIONS:
        state = lights.get(location)
        if state is None:
            continue
        x, y, w, h = _px(geometry.region(location))
        top = y + h + frame * 0.2 if _is_lower(location) else y - frame * 0.8
        if location in OFF_LOCATIONS:
            top = HEIGHT - frame * 0.8 if _is_lower(location) else frame * 0.2
        drawing.add(
            "rect",
            {
                "class_": f"led led-{state}",
                "data_location": location,
                "data_light": state,
                "x": _num(x + w * 0.1),
                "y": _num(top),
                "width": _num(w * 0.8),
                "height": _num(frame * 0.6),
                "rx": _num(frame * 0.3),
            },
        )


def _outline(
    drawing: _Drawing, geometry: BoardGeometry, locations: Iterable[str], kind: str
) -> None:
    for location in locations:
        if location not in LOCATIONS:
            continue
        x, y, w, h = _px(geometry.region(location))
        drawing.add(
            "rect",
            {
                "class_": f"mark {kind}",
                "data_location": location,
                "x": _num(x + 1.5),
                "y": _num(y + 1.5),
                "width": _num(w - 3),
                "height": _num(h - 3),
            },
        )


def _last_play(drawing: _Drawing, geometry: BoardGeometry, last_play: Mapping[str, Any]) -> None:
    sources = [s for s in last_play.get("from", []) if s in LOCATIONS]
    targets = [t for t in last_play.get("to", []) if t in LOCATIONS]
    _outline(drawing, geometry, sources, "last-from")
    _outline(drawing, geometry, targets, "last-to")
    for source, target in zip(sources, targets, strict=False):
        (x1, y1), (x2, y2) = _centre(geometry, source), _centre(geometry, target)
        drawing.add(
            "line",
            {
                "class_": "last-play",
                "data_from": source,
                "data_to": target,
                "x1": _num(x1),
                "y1": _num(y1),
                "x2": _num(x2),
                "y2": _num(y2),
                "marker_end": "url(#arrow)",
            },
        )


def _cube(drawing: _Drawing, geometry: BoardGeometry, cube: Mapping[str, Any]) -> None:
    owner = cube.get("owner")
    value = int(cube.get("value", 1))
    place = "middle" if owner is None else COLOURS[owner]
    classes = "cube"
    if cube.get("offered_by") is not None:
        place, value, classes = "middle", value * 2, "cube offered"
    if cube.get("dead"):
        classes += " dead"
    x, y, w, h = _px(geometry.cube_region(place))
    size = min(w, h) * 0.9 if place == "middle" else min(w, 0.06 * WIDTH)
    cx, cy = x + w / 2, y + h / 2
    drawing.raw(f'<g class="{classes}" data-place="{place}">')
    drawing.add(
        "rect",
        {
            "x": _num(cx - size / 2),
            "y": _num(cy - size / 2),
            "width": _num(size),
            "height": _num(size),
            "rx": _num(size * 0.12),
        },
    )
    drawing.add(
        "text", {"x": _num(cx), "y": _num(cy + size * 0.17)}, str(64 if value == 1 else value)
    )
    drawing.raw("</g>")


def die_svg(
    pips: int, *, size: float = 60.0, colour: str = "white", x: float = 0, y: float = 0
) -> str:
    """One die as SVG markup (a ``<g class="die">`` with ``pips`` circles).

    Raises ``ValueError`` for pips outside 1..6.

    >>> die_svg(3).count("<circle")
    3
    """
    if pips not in _PIPS:
        raise ValueError(f"a die shows 1 to 6 pips, not {pips!r}")
    drawing = _Drawing()
    drawing.raw(f'<g class="die die-{colour}" data-pips="{pips}">')
    drawing.add(
        "rect",
        {
            "x": _num(x),
            "y": _num(y),
            "width": _num(size),
            "height": _num(size),
            "rx": _num(size * 0.15),
        },
    )
    for px, py in _PIPS[pips]:
        drawing.add(
            "circle",
            {"cx": _num(x + px * size), "cy": _num(y + py * size), "r": _num(size * 0.09)},
        )
    drawing.raw("</g>")
    return "".join(drawing.parts)


def dice_svg(dice: Sequence[int], colour: str = "white", size: float = 60.0) -> Markup:
    """A standalone SVG of two dice side by side (for the scoreboard)."""
    gap = size * 0.25
    width = len(dice) * size + (len(dice) - 1) * gap
    body = "".join(
        die_svg(int(pips), size=size, colour=colour, x=index * (size + gap))
        for index, pips in enumerate(dice)
    )
    return Markup(
        f'<svg class="dice" xmlns="http://www.w3.org/2000/svg" viewBox="-2 -2 {_num(width + 4)} '
        f'{_num(size + 4)}" role="img" aria-label="dice {" ".join(str(d) for d in dice)}">'
        f"{body}</svg>"
    )


def board_svg(state: State, geometry: BoardGeometry | None = None) -> Markup:
    """The whole board of ``state`` as an ``<svg>`` element (viewBox 1000 x 800).

    >>> svg = board_svg(__import__("web.state").state.starting_state())
    >>> svg.count('class="checker white"')
    15
    """
    geometry = geometry or BoardGeometry()
    position: Mapping[str, Sequence[int]] = state.get("position", {})
    lights: Mapping[str, str] = state.get("lights") or {}
    drawing = _Drawing()
    drawing.raw(
        f'<svg class="board" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_num(WIDTH)} '
        f'{_num(HEIGHT)}" role="img" aria-label="backgammon board">'
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" '
        'markerHeight="5" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker>'
        "</defs>"
    )
    drawing.add("rect", {"class_": "frame", "x": 0, "y": 0, "width": WIDTH, "height": HEIGHT})
    fx, fy, fw, fh = _px(geometry.field)
    drawing.add(
        "rect",
        {"class_": "field", "x": _num(fx), "y": _num(fy), "width": _num(fw), "height": _num(fh)},
    )
    bar_x = fx + 6 * geometry.point_width() * WIDTH
    drawing.add(
        "rect",
        {
            "class_": "bar",
            "x": _num(bar_x),
            "y": _num(fy),
            "width": _num(geometry.bar * WIDTH),
            "height": _num(fh),
        },
    )
    _points(drawing, geometry, lights)
    radius = geometry.point_width() * WIDTH * 0.46
    for location in POINT_LOCATIONS:
        counts = position.get(location, (0, 0))
        _checker_stack(drawing, location, geometry.region(location), counts, radius)
    for location in BAR_LOCATIONS:
        counts = position.get(location, (0, 0))
        _checker_stack(
            drawing, location, geometry.region(location), counts, radius * 0.9, from_middle=True
        )
    for location in OFF_LOCATIONS:
        _off_tray(drawing, location, geometry.region(location), position.get(location, (0, 0)))
    _leds(drawing, geometry, lights)
    _point_numbers(drawing, geometry, lights)
    last_play = state.get("last_play")
    if last_play:
        _last_play(drawing, geometry, last_play)
    message = state.get("message")
    if message and message.get("kind") in ("illegal", "mismatch"):
        _outline(
            drawing, geometry, message.get("locations", []), f"flagged flagged-{message['kind']}"
        )
    _cube(drawing, geometry, state.get("cube") or {})
    dice = state.get("dice")
    turn = state.get("turn")
    if dice:
        size = geometry.point_width() * WIDTH * 0.8
        # The roller's dice lie in the right half of the field.
        centre_x = bar_x + geometry.bar * WIDTH + (fx + fw - bar_x - geometry.bar * WIDTH) / 2
        colour = COLOURS[turn] if turn in (0, 1) else "white"
        left = centre_x - size - size * 0.15
        for index, pips in enumerate(dice):
            drawing.raw(
                die_svg(
                    int(pips),
                    size=size,
                    colour=colour,
                    x=left + index * size * 1.3,
                    y=HEIGHT / 2 - size / 2,
                )
            )
    drawing.raw("</svg>")
    return Markup("".join(drawing.parts))
