"""Dice and cube on a board: no phantom die, no die lost beside checkers, cocked by shape, the
half each die lies in, and cube faces that share strokes (2 and 8) told apart."""

from __future__ import annotations

import numpy as np
import pytest

from sheshbesh.locations import POINT_LOCATIONS
from vision.config import ReaderConfig
from vision.layout import BoardLayout
from vision.marker_dice import _pip_squash
from vision.reader import read_marker_board
from vision.synth.render import DieSpec, DrawnScene, random_scene, render

from .conftest import session


def _crowded_half(half: str, per_point: int) -> dict[str, tuple[int, int]]:
    """Every point of one half holding checkers (white and black points in turn)."""
    layout = BoardLayout()
    counts: dict[str, tuple[int, int]] = {}
    names = [
        name
        for name in POINT_LOCATIONS
        if layout.half_of((layout.rect(name)[0] + layout.rect(name)[2]) / 2) == half
    ]
    for index, name in enumerate(names):
        counts[name] = (per_point, 0) if index % 2 else (0, per_point)
    return counts


@pytest.mark.parametrize("seed", [1, 7, 51])
def test_no_phantom_die_on_a_busy_board_without_dice(seed: int) -> None:
    style, calibration, rng = session(seed, hard=False)
    for _ in range(3):
        scene = random_scene(rng, dice=False)
        observation = read_marker_board(render(scene, style, rng), calibration)
        assert observation.dice == (), scene.counts


@pytest.mark.parametrize("seed", [2, 3, 52, 53])
def test_dice_beside_checkers_are_not_lost(seed: int) -> None:
    # a half whose every point holds checkers leaves the dice only the space beside them
    style, calibration, rng = session(seed, hard=False)
    scene = DrawnScene(
        counts=_crowded_half("right", 4), dice=(DieSpec(2), DieSpec(5)), dice_half="right"
    )
    observation = read_marker_board(render(scene, style, rng), calibration)
    assert sorted((d.pips, d.cocked) for d in observation.dice) == [(2, False), (5, False)]


def test_each_die_reports_its_half() -> None:
    style, calibration, rng = session(7, hard=False)
    scene = DrawnScene.starting(dice=(DieSpec(3, half="left"), DieSpec(5, half="right")))
    observation = read_marker_board(render(scene, style, rng), calibration)
    assert sorted((d.pips, d.half) for d in observation.dice) == [(3, "left"), (5, "right")]
    both_right = DrawnScene.starting(dice=(DieSpec(1), DieSpec(6)), dice_half="right")
    observation = read_marker_board(render(both_right, style, rng), calibration)
    assert [d.half for d in observation.dice] == ["right", "right"]


def test_half_of_splits_at_the_bar() -> None:
    layout = BoardLayout()
    left, right = layout.halves()["left"], layout.halves()["right"]
    bar_centre = (left[2] + right[0]) / 2
    assert layout.half_of(bar_centre - 1e-6) == "left"
    assert layout.half_of(bar_centre + 1e-6) == "right"


@pytest.mark.parametrize("seed", [1, 7, 61, 62])
def test_cube_two_and_eight_are_told_apart(seed: int) -> None:
    style, calibration, rng = session(seed, hard=False)
    for value in (2, 8):
        for place in ("white", "black", "middle"):
            scene = DrawnScene.starting(cube_value=value, cube_place=place)
            cube = read_marker_board(render(scene, style, rng), calibration).cube
            assert cube is not None and (cube.value, cube.place) == (value, place)


@pytest.mark.parametrize("pips", [4, 5, 6])
def test_cocked_dice_with_many_pips_are_flagged_and_flat_ones_not(pips: int) -> None:
    right = 0
    for seed in (70, 71, 72):
        style, calibration, rng = session(seed, hard=False)
        scene = DrawnScene.starting(dice=(DieSpec(pips, cocked=True), DieSpec(pips)))
        observation = read_marker_board(render(scene, style, rng), calibration)
        right += sorted(d.cocked for d in observation.dice) == [False, True]
    assert right >= 2


def test_pip_spread_tells_a_square_from_an_oblong() -> None:
    square = [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)]
    turn = np.array([[np.cos(0.4), -np.sin(0.4)], [np.sin(0.4), np.cos(0.4)]])
    turned = [tuple(turn @ np.array(p)) for p in square]
    squashed = [(x, 0.72 * y) for x, y in turned]
    six = [(x, y) for x in (-1.0, 1.0) for y in (-1.0, 0.0, 1.0)]
    limit = ReaderConfig().cocked_squash_grid
    assert _pip_squash(turned) == pytest.approx(0.0, abs=1e-9)
    assert _pip_squash(six) == pytest.approx(0.0, abs=1e-9)
    assert (_pip_squash(squashed) or 0.0) > limit
    assert (_pip_squash([(x, 0.72 * y) for x, y in six]) or 0.0) > limit
    assert _pip_squash([(0.0, 0.0), (1.0, 1.0)]) is None
