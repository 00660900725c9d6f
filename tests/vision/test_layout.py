"""Board geometry: slots inside their regions, markers outside the board, serialisation."""

from __future__ import annotations

import numpy as np
import pytest

from sheshbesh.locations import LOCATIONS, OFF_LOCATIONS, POINT_LOCATIONS, BoardGeometry
from vision.errors import CalibrationError
from vision.layout import BoardLayout


@pytest.mark.parametrize("aspect", [1.1, 1.25, 1.45])
def test_every_slot_lies_inside_its_location(aspect: float) -> None:
    layout = BoardLayout(aspect=aspect)
    _, field_top, _, field_bottom = layout.field_rect()
    middle = (field_top + field_bottom) / 2
    for location in LOCATIONS:
        x0, y0, x1, y1 = layout.rect(location)
        if (
            location in POINT_LOCATIONS
        ):  # a tall stack runs past the point's tip, not past the middle
            y0, y1 = (middle, field_bottom) if int(location[1:]) <= 12 else (field_top, middle)
        for _, x, y in layout.slots(location):
            assert x0 - 1e-9 <= x <= x1 + 1e-9, location
            assert y0 - 1e-9 <= y <= y1 + 1e-9, (location, y, y0, y1)


def test_point_slots_run_from_the_base_and_second_layer_sits_in_the_gaps() -> None:
    layout = BoardLayout()
    d = layout.checker_diameter
    slots = layout.slots("p1")
    first = [y for layer, _, y in slots if layer == 1]
    second = [y for layer, _, y in slots if layer == 2]
    assert len(first) == 5 and len(second) == 5
    assert np.allclose(np.diff(first), -d)  # bottom row: upwards, touching
    assert np.allclose(np.array(second[:4]), (np.array(first[:4]) + np.array(first[1:])) / 2)
    top = layout.slots("p13")
    assert top[1][2] - top[0][2] == pytest.approx(d)  # top row: downwards


def test_points_are_ordered_as_white_sees_them() -> None:
    layout = BoardLayout()
    xs = [layout.rect(f"p{n}")[0] for n in range(1, 13)]
    assert xs == sorted(xs, reverse=True)  # p1 at the right, p12 at the left
    assert layout.rect("p1")[1] > layout.rect("p24")[1]  # White's home at the bottom


def test_markers_lie_outside_the_board_in_the_margin() -> None:
    layout = BoardLayout()
    for corners in layout.marker_corners().values():
        inside_x = (corners[:, 0] > 0) & (corners[:, 0] < 1)
        inside_y = (corners[:, 1] > 0) & (corners[:, 1] < layout.height)
        assert not np.any(inside_x & inside_y)
        assert corners.min() >= -layout.margin - 1e-9


def test_locations_do_not_overlap_each_other() -> None:
    layout = BoardLayout()
    rects = {name: layout.rect(name) for name in POINT_LOCATIONS + OFF_LOCATIONS}
    names = list(rects)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            ax0, ay0, ax1, ay1 = rects[a]
            bx0, by0, bx1, by1 = rects[b]
            overlap_x = min(ax1, bx1) - max(ax0, bx0)
            overlap_y = min(ay1, by1) - max(ay0, by0)
            assert overlap_x <= 1e-9 or overlap_y <= 1e-9, (a, b)


def test_cube_places_do_not_overlap_the_trays() -> None:
    geometry = BoardGeometry()
    for place in ("white", "black"):
        cube = geometry.cube_region(place)
        for tray in OFF_LOCATIONS:
            region = geometry.region(tray)
            assert cube.y + cube.h <= region.y + 1e-9 or region.y + region.h <= cube.y + 1e-9


def test_layout_round_trips_and_rejects_bad_fields() -> None:
    layout = BoardLayout(aspect=1.3, marker_ids=(4, 5, 6, 7))
    assert BoardLayout.from_dict(layout.to_dict()) == layout
    with pytest.raises(CalibrationError, match="aspect"):
        BoardLayout(aspect=9.0)
    with pytest.raises(CalibrationError, match="marker_ids"):
        BoardLayout.from_dict({"marker_ids": [1, 2]})
    with pytest.raises(CalibrationError, match="malformed"):
        BoardLayout.from_dict({"colour": "red"})
