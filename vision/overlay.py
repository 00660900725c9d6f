"""Overlay images that show a person at a glance what vision found: regions, counts, dice, cube."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from sheshbesh.locations import CUBE_PLACES, LOCATIONS, POINT_LOCATIONS
from sheshbesh.observation import Observation
from vision.calibration import Calibration, find_markers
from vision.field import Field
from vision.field_board import FieldCalibration
from vision.images import Image, check_image


def _polygon(calibration: Calibration, rect: tuple[float, float, float, float]) -> np.ndarray:
    x0, y0, x1, y1 = rect
    corners = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], np.float64)
    return np.rint(calibration.to_camera(corners)).astype(np.int32)


def _label(
    image: Image, text: str, at: tuple[int, int], colour: tuple[int, int, int], scale: float = 0.45
) -> None:
    cv2.putText(image, text, at, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 3, cv2.LINE_AA)
    cv2.putText(image, text, at, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 1, cv2.LINE_AA)


def draw_calibration(image: Image, calibration: Calibration) -> Image:
    """``image`` with the markers found, the board outline, every location and cube place drawn."""
    out = check_image(image).copy()
    layout = calibration.layout
    for marker_id, corners in find_markers(out, layout).items():
        cv2.polylines(out, [np.rint(corners).astype(np.int32)], True, (0, 255, 255), 2)
        _label(out, f"id {marker_id}", tuple(np.rint(corners[0]).astype(int)), (0, 255, 255))
    board = np.rint(calibration.to_camera(layout.board_corners())).astype(np.int32)
    cv2.polylines(out, [board], True, (0, 0, 255), 2, cv2.LINE_AA)
    for location in LOCATIONS:
        polygon = _polygon(calibration, layout.rect(location))
        cv2.polylines(out, [polygon], True, (0, 255, 0), 1, cv2.LINE_AA)
        centre = polygon.mean(axis=0).astype(int)
        _label(
            out,
            location.replace("bar-", "b").replace("off-", "o"),
            (int(centre[0]) - 12, int(centre[1])),
            (0, 255, 0),
            0.35,
        )
    for place in CUBE_PLACES:
        polygon = _polygon(calibration, layout.cube_rect(place))
        cv2.polylines(out, [polygon], True, (255, 0, 255), 1, cv2.LINE_AA)
    for name, colour in calibration.colours.items():
        index = list(calibration.colours).index(name)
        y = 20 + 18 * index
        cv2.rectangle(out, (10, y - 12), (30, y + 2), tuple(int(c) for c in colour), -1)
        _label(out, name, (36, y), (255, 255, 255))
    _label(out, f"calibration: {calibration.method}", (10, out.shape[0] - 12), (0, 0, 255), 0.6)
    return out


def draw_reading(image: Image, calibration: Calibration, observation: Observation) -> Image:
    """``image`` with each location's counts, the dice (pips, cocked) and the cube written on it."""
    out = check_image(image).copy()
    layout = calibration.layout
    for location in LOCATIONS:
        count = observation.locations.get(location)
        polygon = _polygon(calibration, layout.rect(location))
        if count is None or count.white + count.black == 0:
            continue
        centre = polygon.mean(axis=0).astype(int)
        cv2.polylines(out, [polygon], True, (0, 200, 0), 1, cv2.LINE_AA)
        text = (f"W{count.white}" if count.white else "") + (
            f"B{count.black}" if count.black else ""
        )
        sure = min(count.white_confidence, count.black_confidence)
        colour = (0, 255, 0) if sure >= 0.75 else (0, 165, 255)
        _label(out, text, (int(centre[0]) - 14, int(centre[1])), colour, 0.5)
    for die in observation.dice:
        x, y, w, h = die.box
        colour = (0, 0, 255) if die.cocked else (255, 255, 0)
        cv2.rectangle(out, (x, y), (x + w, y + h), colour, 2)
        _label(
            out,
            f"{die.pips}{' cocked' if die.cocked else ''} {die.confidence:.2f}",
            (x, y - 4),
            colour,
            0.5,
        )
    if observation.cube is not None:
        polygon = _polygon(calibration, layout.cube_rect(observation.cube.place))
        cv2.polylines(out, [polygon], True, (255, 0, 255), 2)
        corner = polygon.min(axis=0)
        _label(
            out,
            f"cube {observation.cube.value}",
            (int(corner[0]), int(corner[1]) - 4),
            (255, 0, 255),
            0.5,
        )
    _label(out, f"{observation.state}  frame {observation.frame}", (10, 24), (255, 255, 255), 0.7)
    return out


def _field_outline(out: Image, field: Field, colour: tuple[int, int, int]) -> None:
    corners = np.rint(np.asarray(field.corners)).astype(np.int32)
    cv2.polylines(out, [corners], True, colour, 2, cv2.LINE_AA)


def draw_field(image: Image, calibration: FieldCalibration) -> Image:
    """``image`` with the playing field, the bar, every point and the two learned checker colours."""
    out = check_image(image).copy()
    field = calibration.field
    _field_outline(out, field, (0, 0, 255))
    bar = np.array(
        [
            (field.bar[0], 0),
            (field.bar[1], 0),
            (field.bar[1], field.height),
            (field.bar[0], field.height),
        ],
        np.float64,
    )
    cv2.polylines(
        out, [np.rint(field.to_camera(bar)).astype(np.int32)], True, (255, 0, 255), 2, cv2.LINE_AA
    )
    for location in POINT_LOCATIONS:
        triangle = np.rint(field.to_camera(field.point_polygon(location))).astype(np.int32)
        cv2.polylines(out, [triangle], True, (0, 255, 0), 1, cv2.LINE_AA)
        left, right, base, direction = field.column(location)
        at = field.to_camera(np.array([[(left + right) / 2, base + direction * field.radius]]))[0]
        _label(out, location, (int(at[0]) - 10, int(at[1]) + 4), (0, 255, 0), 0.35)
    for index, (name, lab) in enumerate(
        (("white", calibration.colours.white), ("black", calibration.colours.black))
    ):
        pixel = np.clip(np.array(lab), 0, 255).astype(np.uint8).reshape(1, 1, 3)
        bgr = cv2.cvtColor(pixel, cv2.COLOR_LAB2BGR).reshape(3)
        y = 20 + 22 * index
        cv2.rectangle(out, (10, y - 14), (30, y + 4), tuple(int(c) for c in bgr), -1)
        cv2.rectangle(out, (10, y - 14), (30, y + 4), (0, 0, 255), 1)
        _label(out, name, (36, y), (255, 255, 255))
    _label(out, f"calibration: {calibration.method}", (10, out.shape[0] - 12), (0, 0, 255), 0.6)
    return out


def draw_field_refusal(image: Image, corners: Sequence[tuple[float, float]], reason: str) -> Image:
    """``image`` with the corners as given (numbered in the order given) and why calibration failed."""
    out = check_image(image).copy()
    points = np.rint(np.asarray(corners, np.float64)).astype(np.int32)
    cv2.polylines(out, [points], True, (0, 0, 255), 2, cv2.LINE_AA)
    for index, (name, point) in enumerate(zip(("TL", "TR", "BR", "BL"), points, strict=False)):
        cv2.circle(out, (int(point[0]), int(point[1])), 6, (0, 0, 255), -1)
        _label(out, f"{index + 1} {name}", (int(point[0]) + 8, int(point[1]) - 8), (0, 0, 255), 0.6)
    words, line, y = reason.split(), "", 28
    for word in words:  # wrap the reason over the top of the picture
        if len(line) + len(word) > 70:
            _label(out, line, (10, y), (0, 0, 255), 0.6)
            line, y = "", y + 24
        line = f"{line} {word}".strip()
    _label(out, line, (10, y), (0, 0, 255), 0.6)
    return out


def draw_field_reading(
    image: Image, calibration: FieldCalibration, observation: Observation
) -> Image:
    """``image`` with each checker found circled in its set's colour and each location's count."""
    out = check_image(image).copy()
    field = calibration.field
    _field_outline(out, field, (0, 0, 255))
    for x, y, radius, is_white in observation.extra.get("checkers", ()):
        ring = field.to_camera(
            np.array(
                [(x + radius * np.cos(t), y + radius * np.sin(t)) for t in np.linspace(0, 6.3, 24)]
            )
        )
        colour = (255, 255, 255) if is_white else (40, 40, 40)
        cv2.polylines(out, [np.rint(ring).astype(np.int32)], True, colour, 2, cv2.LINE_AA)
    for location in POINT_LOCATIONS:
        white, black = observation.count(location, "white"), observation.count(location, "black")
        if not white and not black:
            continue
        left, right, base, direction = field.column(location)
        at = field.to_camera(
            np.array([[(left + right) / 2, base - direction * 0.02 * field.height]])
        )[0]
        text = f"{white}W" if white else f"{black}B"
        _label(out, text, (int(at[0]) - 10, int(at[1]) + 4), (0, 255, 255), 0.45)
    bar = (
        f"bar W{observation.count('bar-white', 'white')} B{observation.count('bar-black', 'black')}"
    )
    _label(out, f"{observation.state}  {bar}", (10, out.shape[0] - 12), (0, 255, 255), 0.6)
    return out
