"""The printable ArUco marker sheet: four markers to stick beside the board's corners.

``python -m vision.markers hardware/markers`` writes ``marker-<id>.png`` (one per marker) and
``sheet.png`` (all four on one A4 page at 300 dpi, each ``--size-mm`` wide, with its id and corner).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from vision.images import Image
from vision.layout import BoardLayout

CORNERS = ("top-left", "top-right", "bottom-right", "bottom-left")
DPI = 300


def marker_image(marker_id: int, side: int) -> Image:
    """One marker with a white border a fifth of its side wide: a BGR uint8 square image."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    core = cv2.aruco.generateImageMarker(dictionary, marker_id, side)
    pad = side // 5
    framed = np.full((side + 2 * pad, side + 2 * pad), 255, np.uint8)
    framed[pad : pad + side, pad : pad + side] = core
    return np.asarray(cv2.cvtColor(framed, cv2.COLOR_GRAY2BGR), np.uint8)


def marker_sheet(layout: BoardLayout | None = None, size_mm: float = 35.0) -> Image:
    """An A4 page (300 dpi) with the layout's four markers, each ``size_mm`` wide, labelled."""
    layout = layout or BoardLayout()
    width, height = round(210 / 25.4 * DPI), round(297 / 25.4 * DPI)
    page = np.full((height, width, 3), 255, np.uint8)
    side = round(size_mm / 25.4 * DPI)
    cells = [(0.25, 0.22), (0.75, 0.22), (0.75, 0.62), (0.25, 0.62)]
    for (fx, fy), marker_id, corner in zip(cells, layout.marker_ids, CORNERS, strict=True):
        image = marker_image(marker_id, side)
        y0, x0 = round(fy * height - image.shape[0] / 2), round(fx * width - image.shape[1] / 2)
        page[y0 : y0 + image.shape[0], x0 : x0 + image.shape[1]] = image
        cv2.rectangle(
            page, (x0, y0), (x0 + image.shape[1], y0 + image.shape[0]), (180, 180, 180), 1
        )
        text = f"id {marker_id}: {corner} of the board"
        cv2.putText(
            page, text, (x0, y0 + image.shape[0] + 60), cv2.FONT_HERSHEY_SIMPLEX, 1.3, (0, 0, 0), 3
        )
    board_mm = size_mm / layout.marker_size
    notes = (
        f"Print at 100%. Each marker {size_mm:g} mm, for a board {board_mm:.0f} mm wide "
        f"(markers are {layout.marker_size:.0%} of the board's width).",
        f"Stick each with its inner corner {layout.marker_gap / layout.marker_size * size_mm:.0f} mm "
        "outside the board's corner, in both directions.",
    )
    for row, note in enumerate(notes):
        y = height - 260 + 60 * row
        cv2.putText(page, note, (120, y), cv2.FONT_HERSHEY_SIMPLEX, 1.1, (0, 0, 0), 2)
    return page


def write_markers(
    folder: str | Path, layout: BoardLayout | None = None, size_mm: float = 35.0
) -> list[Path]:
    """Write each marker and the sheet into ``folder``; returns the files written."""
    layout = layout or BoardLayout()
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for marker_id in layout.marker_ids:
        path = target / f"marker-{marker_id}.png"
        cv2.imwrite(str(path), marker_image(marker_id, 400))
        written.append(path)
    sheet = target / "sheet.png"
    cv2.imwrite(str(sheet), marker_sheet(layout, size_mm))
    written.append(sheet)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="write the printable ArUco marker sheet")
    parser.add_argument("folder", nargs="?", default="hardware/markers")
    parser.add_argument("--size-mm", type=float, default=35.0)
    args = parser.parse_args(argv)
    for path in write_markers(args.folder, size_mm=args.size_mm):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
