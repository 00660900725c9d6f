"""Checker counting on hard rendered boards that once went wrong: each case is a seeded board of
``benchmarks/bench_vision.py`` (random style, pose, light and position), read whole."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from vision.calibration import Calibration, calibrate
from vision.images import Image
from vision.reader import read_marker_board
from vision.synth.render import DrawnScene, random_scene, random_style, render_frame


def bench_board(seed: int) -> tuple[DrawnScene, Image, Calibration]:
    """The scene, frame and calibration of board ``seed`` of the vision benchmark (seed 0)."""
    rng = np.random.default_rng(seed)
    style = random_style(rng, hard=True)
    start = render_frame(DrawnScene.starting(), dataclasses.replace(style, shadow=0.0), rng).image
    scene = random_scene(rng)
    frame = render_frame(scene, style, rng).image
    return scene, frame, calibrate(start)


@pytest.mark.parametrize(
    ("seed", "location"),
    [
        (286, "p3"),  # a die where a fourth black checker would lie
        (356, "p15"),  # a die just past a row of two
        (434, "p5"),  # a die at the base of an empty point
    ],
)
def test_a_die_at_a_rows_next_place_is_not_a_checker(seed: int, location: str) -> None:
    scene, frame, calibration = bench_board(seed)
    observation = read_marker_board(frame, calibration)
    seen = (observation.count(location, "white"), observation.count(location, "black"))
    assert seen == scene.count(location)


def test_a_die_at_a_rows_next_place_is_still_read_as_a_die() -> None:
    scene, frame, calibration = bench_board(286)
    observation = read_marker_board(frame, calibration)
    assert sorted(d.pips for d in observation.dice if not d.cocked) == sorted(
        d.pips for d in scene.dice if not d.cocked
    )


def test_checkers_the_colour_of_the_board_are_counted_by_their_shape() -> None:
    # cream checkers on a cream board: the colour cue cannot tell them apart, the rims can
    scene, frame, calibration = bench_board(76)
    observation = read_marker_board(frame, calibration)
    assert (observation.count("p15", "white"), observation.count("p15", "black")) == scene.count(
        "p15"
    )
    assert scene.count("p15") == (7, 0)
