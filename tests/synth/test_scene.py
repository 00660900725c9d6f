"""The pure-Python half of the renderer: scenes and labels from a seed, without Blender."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from sheshbesh.locations import LOCATIONS
from synth import SynthInputError
from synth.labels import label_of, problems
from synth.projection import distort, focal_pixels, look_at, undistorted_from_distorted
from synth.scene import (
    DIE_FACES,
    FAMILIES,
    HELDOUT_FAMILIES,
    HELDOUT_LIGHTS,
    LIGHT_KINDS,
    TUNE_FAMILIES,
    TUNE_LIGHTS,
    choose,
    die_pose,
    image_points,
    make_scene,
    point_base,
)


def test_the_same_seed_gives_the_same_scene_and_label() -> None:
    for seed in (0, 7, 123456):
        family, light = choose(seed, "all")
        first = label_of(make_scene(seed, family, light), "a.jpg")
        second = label_of(make_scene(seed, family, light), "a.jpg")
        assert json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)


def test_different_seeds_give_different_scenes() -> None:
    labels = {
        json.dumps(label_of(make_scene(s, "travel", "lamp"), "a.jpg")["locations"])
        for s in range(40)
    }
    assert len(labels) > 20


@pytest.mark.parametrize("family", FAMILIES)
def test_every_label_is_consistent(family: str) -> None:
    for seed in range(60):
        _, light = choose(seed, family)
        label = label_of(make_scene(seed, family, light, 960, 540), "x.jpg")
        assert problems(label) == [], (seed, family, problems(label))
        assert set(label["locations"]) == set(LOCATIONS)


def test_positions_cover_starts_races_and_bar_and_off() -> None:
    kinds, tall, bar, off = set(), 0, 0, 0
    for seed in range(200):
        scene = make_scene(seed, "tournament-felt", "lamp")
        kinds.add(scene.position_kind)
        counts = scene.counts
        tall += any(max(counts[f"p{n}"].values()) >= 6 for n in range(1, 25))
        bar += any(
            counts[name][c] for name in ("bar-white", "bar-black") for c in ("white", "black")
        )
        off += any(
            counts[name][c] for name in ("off-white", "off-black") for c in ("white", "black")
        )
    assert kinds == {"start", "middle", "bearoff", "contact"}
    assert tall > 30 and bar > 30 and off > 30


def test_selections_keep_tuning_away_from_held_out_styles() -> None:
    for seed in range(300):
        family, light = choose(seed, "tune")
        assert family in TUNE_FAMILIES and light in TUNE_LIGHTS
        family, light = choose(seed, "heldout")
        assert family in HELDOUT_FAMILIES or light in HELDOUT_LIGHTS
    seen = {choose(seed, "all") for seed in range(400)}
    assert {f for f, _ in seen} == set(FAMILIES) and {k for _, k in seen} == set(LIGHT_KINDS)
    assert make_scene(1, "inlaid-tavla", "lamp").split == "heldout"
    assert make_scene(1, "tournament-felt", HELDOUT_LIGHTS[0]).split == "heldout"
    assert make_scene(1, "tournament-felt", "lamp").split == "tune"


def test_unknown_family_or_light_is_a_clear_error() -> None:
    with pytest.raises(SynthInputError, match="family 'casino'"):
        choose(1, "casino")
    with pytest.raises(SynthInputError, match="light kind 'disco'"):
        make_scene(1, "travel", "disco")


def test_point_numbering_follows_the_reader_contract() -> None:
    """p1 bottom-right, p12 bottom-left, p13 top-left, p24 top-right in the image."""
    scene = make_scene(3, "tournament-felt", "lamp")
    centre = np.array([scene.width / 2, scene.height / 2])
    where = {}
    for point in (1, 12, 13, 24):
        x, y0, direction = point_base(scene.board, point)
        world = np.array([[x, y0 + direction * 0.02, 0.0]])
        where[point] = (
            image_points(scene.camera, scene.post, scene.width, scene.height, world)[0] - centre
        )
    assert where[1][0] > 0 and where[1][1] > 0
    assert where[12][0] < 0 and where[12][1] > 0
    assert where[13][0] < 0 and where[13][1] < 0
    assert where[24][0] > 0 and where[24][1] < 0


def test_white_checkers_of_the_start_sit_where_the_labels_say() -> None:
    scene = next(
        make_scene(s, "tournament-felt", "lamp")
        for s in range(100)
        if make_scene(s, "tournament-felt", "lamp").position_kind == "start"
    )
    by_location: dict[str, set[str]] = {}
    for checker in scene.checkers:
        by_location.setdefault(checker.location, set()).add(checker.colour)
    assert by_location["p6"] == {"white"} and by_location["p19"] == {"black"}
    assert sum(1 for c in scene.checkers if c.location == "p13") == 5


@pytest.mark.parametrize("value", range(1, 7))
def test_a_die_pose_turns_the_chosen_face_up(value: int) -> None:
    matrix = np.asarray(die_pose(value, 0.7, 0.0, 0.0, (0.0, 0.0, 0.01)))
    assert np.allclose(matrix[:3, :3] @ np.asarray(DIE_FACES[value], dtype=float), [0, 0, 1])
    assert (
        value + next(v for v, n in DIE_FACES.items() if n == tuple(-c for c in DIE_FACES[value]))
        == 7
    )


def test_camera_rotation_is_orthonormal_and_keeps_black_at_the_top() -> None:
    rotation = look_at((0.1, -0.3, 0.8), (0.0, 0.0, 0.0), 2.0)
    assert np.allclose(rotation.T @ rotation, np.eye(3))
    assert rotation[1, 1] > 0.8  # the camera's up is the world's +y


@pytest.mark.parametrize("k1", [-0.12, -0.05, 0.03, 0.06])
def test_distortion_and_its_inverse_round_trip(k1: float) -> None:
    width, height = 1280, 720
    focal = focal_pixels(28.0, width)
    rng = np.random.default_rng(1)
    points = rng.uniform([0, 0], [width, height], size=(50, 2))
    back = undistorted_from_distorted(
        distort(points, k1, width, height, focal), k1, width, height, focal
    )
    assert np.max(np.abs(back - points)) < 1e-6
    assert math.isclose(
        float(distort(np.array([[640.0, 360.0]]), k1, width, height, focal)[0, 0]), 640.0
    )
