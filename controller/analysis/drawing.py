"""Positions drawn for reports: a text diagram and an SVG picture.

Both show the board from the side of the player who decided (``X``, dark checkers, at the bottom,
home board bottom right), the opponent as ``O`` (light checkers), as GNU Backgammon prints boards.
"""

from __future__ import annotations

from html import escape

from controller.analysis.board import Sides

_ROWS = 5


def _counts(sides: Sides, point: int) -> tuple[int, int]:
    """(mover, opponent) checkers on the mover's ``point``."""
    opponent, mover = sides
    return mover[point - 1], opponent[24 - point]


def _cell(sides: Sides, point: int, row: int) -> str:
    mine, theirs = _counts(sides, point)
    count, mark = (mine, "X") if mine else (theirs, "O")
    if count == 0 or row >= min(count, _ROWS):
        return "  "
    if row == _ROWS - 1 and count > _ROWS:
        return f"{count:>2}"[-2:]
    return f" {mark}"


def to_text(sides: Sides) -> str:
    """A fixed-width diagram of the position (15 lines).

    >>> from controller.analysis.board import START
    >>> print(to_text(START).splitlines()[0])
     +13-14-15-16-17-18------19-20-21-22-23-24-+
    """
    opponent, mover = sides
    top = list(range(13, 25))
    bottom = list(range(12, 0, -1))
    lines = [" +13-14-15-16-17-18------19-20-21-22-23-24-+"]
    for row in range(_ROWS):
        left = "".join(_cell(sides, p, row) + " " for p in top[:6])
        right = "".join(_cell(sides, p, row) + " " for p in top[6:])
        bar = f" {'O' if opponent[24] > row else ' '} "
        lines.append(f" |{left[:-1]} |{bar}|{right[:-1]} |")
    lines.append(" |                  |BAR|                  |")
    for row in reversed(range(_ROWS)):
        left = "".join(_cell(sides, p, row) + " " for p in bottom[:6])
        right = "".join(_cell(sides, p, row) + " " for p in bottom[6:])
        bar = f" {'X' if mover[24] > row else ' '} "
        lines.append(f" |{left[:-1]} |{bar}|{right[:-1]} |")
    lines.append(" +12-11-10--9--8--7-------6--5--4--3--2--1-+")
    off_mover = 15 - sum(mover)
    off_opponent = 15 - sum(opponent)
    extra = []
    if opponent[24] > _ROWS or mover[24] > _ROWS:
        extra.append(f"bar: O {opponent[24]}, X {mover[24]}")
    extra.append(f"off: O {off_opponent}, X {off_mover}")
    lines.append("  " + "; ".join(extra))
    return "\n".join(lines)


def to_svg(sides: Sides, title: str = "") -> str:
    """An SVG picture of the position, 260 × 200 user units, for the HTML report."""
    opponent, mover = sides
    width, height = 260, 200
    margin, bar_width, tray = 8, 16, 20
    field = width - tray - 2 * margin
    point_width = (field - bar_width) / 12
    radius = point_width / 2 - 0.5
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}"'
        f' width="{width * 1.5:.0f}" height="{height * 1.5:.0f}" role="img"'
        f' aria-label="{escape(title or "backgammon position")}">',
        f'<rect width="{width}" height="{height}" fill="#6b4423"/>',
        f'<rect x="{margin}" y="{margin}" width="{field}" height="{height - 2 * margin}" fill="#e8d3a3"/>',
        f'<rect x="{margin + 6 * point_width}" y="{margin}" width="{bar_width}"'
        f' height="{height - 2 * margin}" fill="#6b4423"/>',
    ]

    def x_of(column: int) -> float:
        # column 0..11 from the left; the bar sits between columns 5 and 6
        return margin + column * point_width + (bar_width if column >= 6 else 0)

    def checker(cx: float, cy: float, dark: bool, label: str = "") -> None:
        fill, ink = ("#222", "#eee") if dark else ("#f7f3ea", "#222")
        parts.append(
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{radius:.1f}" fill="{fill}" stroke="#555"/>'
        )
        if label:
            parts.append(
                f'<text x="{cx:.1f}" y="{cy + 3:.1f}" font-size="8" text-anchor="middle"'
                f' fill="{ink}">{label}</text>'
            )

    for point in range(1, 25):
        at_top = point >= 13
        column = point - 13 if at_top else 12 - point
        left = x_of(column)
        tip = margin + 80 if at_top else height - margin - 80
        base = margin if at_top else height - margin
        colour = "#a0522d" if point % 2 else "#d2b48c"
        parts.append(
            f'<polygon points="{left:.1f},{base} {left + point_width:.1f},{base}'
            f' {left + point_width / 2:.1f},{tip}" fill="{colour}"/>'
        )
        parts.append(
            f'<text x="{left + point_width / 2:.1f}" y="{6.5 if at_top else height - 1.5:.1f}"'
            f' font-size="5" text-anchor="middle" fill="#fff">{point}</text>'
        )
        mine, theirs = _counts(sides, point)
        count, dark = (mine, True) if mine else (theirs, False)
        for index in range(min(count, 5)):
            offset = radius + index * 2 * radius
            cy = base + offset if at_top else base - offset
            label = str(count) if index == 4 and count > 5 else ""
            checker(left + point_width / 2, cy, dark, label)
    bar_x = margin + 6 * point_width + bar_width / 2
    if opponent[24]:
        checker(bar_x, height / 2 - 2 * radius, False, str(opponent[24]))
    if mover[24]:
        checker(bar_x, height / 2 + 2 * radius, True, str(mover[24]))
    tray_x = width - margin - tray / 2
    for count, dark, y in (
        (15 - sum(opponent), False, margin + 12),
        (15 - sum(mover), True, height - margin - 12),
    ):
        if count:
            checker(tray_x, y, dark, str(count))
    parts.append("</svg>")
    return "".join(parts)
