"""With Blender present: a tiny render is repeatable and Blender's camera is the labels' camera."""

from __future__ import annotations

import json

import numpy as np
import pytest

from synth.labels import label_of
from synth.scene import field_corners_world, make_scene
from tests.synth.conftest import needs_bpy

pytestmark = [needs_bpy, pytest.mark.slow]


def test_blender_camera_projects_like_the_labels() -> None:
    from synth.blender import build, load_bpy

    bpy = load_bpy()
    from bpy_extras.object_utils import world_to_camera_view
    from mathutils import Vector

    # A seed without lens distortion: Blender's camera is the undistorted one.
    scene = next(
        s
        for s in (make_scene(n, "wooden-folding", "lamp", 320, 180) for n in range(50))
        if s.post.k1 == 0
    )
    build(bpy, scene)
    blender_scene = bpy.context.scene
    blender_scene.render.resolution_x, blender_scene.render.resolution_y = 320, 180
    label = label_of(scene, "x.jpg")
    for corner, expected in zip(
        field_corners_world(scene.board), label["field_corners"], strict=True
    ):
        view = world_to_camera_view(blender_scene, blender_scene.camera, Vector(corner))
        pixel = (view.x * 320, (1 - view.y) * 180)
        assert abs(pixel[0] - expected[0]) < 0.3 and abs(pixel[1] - expected[1]) < 0.3


def test_the_same_seed_renders_the_same_image_and_label() -> None:
    from synth.blender import render_linear

    scene = make_scene(5, "tournament-felt", "lamp", 96, 54)
    first = render_linear(scene, 2)
    second = render_linear(make_scene(5, "tournament-felt", "lamp", 96, 54), 2)
    assert first.shape == (54, 96, 3) and float(first.mean()) > 0.0
    assert float(np.abs(first - second).mean()) < 0.02 * float(first.mean()) + 1e-6
    a = json.dumps(label_of(scene, "x.jpg"), sort_keys=True)
    assert a == json.dumps(
        label_of(make_scene(5, "tournament-felt", "lamp", 96, 54), "x.jpg"), sort_keys=True
    )


def test_standing_checkers_stand_on_the_board_and_lean_towards_the_frame() -> None:
    from synth.blender import build, load_bpy

    bpy = load_bpy()
    from mathutils import Vector

    scene = next(
        s
        for s in (
            make_scene(n, "tournament-felt", "lamp", 320, 180, generation=2, variant="sheshbesh")
            for n in range(60)
        )
        if s.stack_form == "on-edge" and s.standing
    )
    build(bpy, scene)
    standing = [
        (i, c) for i, c in enumerate(scene.checkers) if c.on_edge and c.location.startswith("p")
    ]
    assert standing
    for index, checker in standing:
        obj = bpy.data.objects[f"checker-{index}"]
        points = [obj.matrix_world @ Vector(v.co) for v in obj.data.vertices]
        low = min(p.z for p in points)
        # On the board's surface (within the bevel's facets), not sunk into it nor floating.
        assert abs(low - checker.z) < 0.0008, (index, low)
        height = max(p.z for p in points) - low
        assert height > scene.board.checker_d * 0.95
        top = [p.y for p in points if p.z > low + 0.9 * height]
        bottom = [p.y for p in points if p.z < low + 0.1 * height]
        shift = sum(top) / len(top) - sum(bottom) / len(bottom)
        towards = -1.0 if int(checker.location[1:]) <= 12 else 1.0
        assert shift * towards > 0  # its top leans towards the frame at the point's base


def test_a_die_leaning_on_the_wall_renders_standing_on_the_field_against_the_wall() -> None:
    from synth.blender import load_bpy, render_linear
    from synth.scene import walls

    # The first generation-3 scene with a die leaning on the wall, rendered tiny.
    scene = next(
        s
        for s in (
            make_scene(n, "tournament-felt", "lamp", 96, 54, generation=3) for n in range(200)
        )
        if any(d.rests_on == "wall" for d in s.dice)
    )
    image = render_linear(scene, 1)
    assert image.shape == (54, 96, 3) and np.isfinite(image).all() and float(image.mean()) > 0
    bpy = load_bpy()
    from mathutils import Vector

    bpy.context.view_layer.update()
    index, die = next((i, d) for i, d in enumerate(scene.dice) if d.rests_on == "wall")
    body = bpy.data.objects[f"die-body-{index}"]
    points = np.array([tuple(body.matrix_world @ Vector(v.co)) for v in body.data.vertices])
    side = 1.0 if die.matrix[0][3] > 0 else -1.0
    wall = next(w for w in walls(scene.board, side) if w.name == die.wall)
    # The rounded body Blender renders sits on the field (within its bevel's facets) ...
    assert abs(points[:, 2].min()) < 0.0002
    # ... and reaches the wall's inner side without passing through it.
    reach = points[:, :2] @ np.asarray(wall.normal)
    assert wall.offset - 0.0002 < reach.max() <= wall.offset + 1e-6
