"""The package skeleton: the console command and the shared location table."""

import subprocess
import sys

from sheshbesh.locations import LED_INDEX, LOCATIONS, BoardGeometry, point_location


def test_locations_are_unique_and_indexed_in_order() -> None:
    assert len(LOCATIONS) == 28
    assert len(set(LOCATIONS)) == 28
    assert [LED_INDEX[name] for name in LOCATIONS] == list(range(28))


def test_point_numbering_is_mirrored_for_black() -> None:
    assert point_location(1, "white") == "p1"
    assert point_location(1, "black") == "p24"
    assert point_location(13, "black") == "p12"


def test_regions_lie_inside_the_board_and_do_not_overlap() -> None:
    geometry = BoardGeometry()
    rects = [geometry.region(name) for name in LOCATIONS]
    for rect in rects:
        assert rect.x >= 0 and rect.x + rect.w <= 1 and rect.y >= 0 and rect.y + rect.h <= 1
    for i, a in enumerate(rects):
        for b in rects[i + 1 :]:
            overlap_w = min(a.x + a.w, b.x + b.w) - max(a.x, b.x)
            overlap_h = min(a.y + a.h, b.y + b.h) - max(a.y, b.y)
            assert overlap_w <= 1e-9 or overlap_h <= 1e-9


def test_console_command_lists_subcommands() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "controller.cli"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 2
    assert "legal" in result.stdout


def test_closing_mixin_closes_on_exit_even_after_an_error() -> None:
    import pytest

    from sheshbesh.closing import Closing

    closed = []

    class Device(Closing):
        def close(self) -> None:
            closed.append(True)

    with pytest.raises(RuntimeError), Device() as device:
        assert isinstance(device, Device)
        raise RuntimeError("unplugged")
    assert closed == [True]
