"""The printable marker sheet: every marker on it is found again by the detector, with its id."""

from __future__ import annotations

from pathlib import Path

import cv2

from vision.calibration import find_markers
from vision.layout import BoardLayout
from vision.markers import marker_sheet, write_markers


def test_the_sheet_holds_the_four_markers_of_the_layout() -> None:
    layout = BoardLayout(marker_ids=(4, 5, 6, 7))
    sheet = marker_sheet(layout)
    small = cv2.resize(sheet, None, fx=0.4, fy=0.4, interpolation=cv2.INTER_AREA)
    assert sorted(find_markers(small, layout)) == [4, 5, 6, 7]


def test_write_markers_writes_each_marker_and_the_sheet(tmp_path: Path) -> None:
    written = write_markers(tmp_path)
    assert [p.name for p in written] == [f"marker-{i}.png" for i in range(4)] + ["sheet.png"]
    for path in written[:4]:
        marker = cv2.imread(str(path))
        assert len(find_markers(marker)) == 1
