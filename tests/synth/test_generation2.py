"""Generation 2 of the scene generator, without Blender: Arabic Shesh Besh standing stacks, logo
faces on the cube, cocked dice that lean on a checker, stream compression, and the label keys
they add, while generation 1 (the committed evaluation set's) stays as it was."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from synth.cli import main
from synth.labels import label_of, problems
from synth.scene import (
    DIE_FACES,
    SHESHBESH_STACKS,
    Scene,
    choose,
    make_scene,
)


def _sheshbesh(seed: int, width: int = 960, height: int = 540) -> Scene:
    family, light = choose(seed, "all")
    return make_scene(seed, family, light, width, height, generation=2, variant="sheshbesh")


def _home(colour: str, point: int) -> str:
    return f"p{point if colour == 'white' else 25 - point}"


def test_the_shesh_besh_start_stands_three_and_two_on_each_home_point() -> None:
    scene = next(s for s in map(_sheshbesh, range(200)) if s.position_kind.endswith("start-start"))
    label = label_of(scene, "x.jpg")
    assert problems(label) == []
    expected = {
        _home(colour, point): n
        for colour in ("white", "black")
        for point, n in SHESHBESH_STACKS.items()
    }
    assert label["standing"] == expected
    for name, n in expected.items():
        colour = "white" if int(name[1:]) <= 6 else "black"
        assert label["locations"][name][colour] == n


def test_every_shesh_besh_scene_follows_the_laying_down_rules() -> None:
    forms, stages = set(), set()
    for seed in range(120):
        scene = _sheshbesh(seed)
        label = label_of(scene, "x.jpg")
        assert problems(label) == [], (seed, problems(label))
        forms.add(scene.stack_form)
        white_stage, black_stage = scene.position_kind.split("-")[1:]
        stages |= {white_stage, black_stage}
        for colour, stage in (("white", white_stage), ("black", black_stage)):
            on_board = 0
            for point, size in SHESHBESH_STACKS.items():
                name = _home(colour, point)
                here = label["locations"][name][colour]
                up = label["standing"].get(name, 0)
                on_board += here
                if stage == "eating":
                    assert up == 0 and here <= size
                else:
                    # Nothing borne off before laying down ends; a stack stands while it holds two.
                    assert here == size and (up == 0 or 2 <= up <= size)
                    if stage == "start":
                        assert up == size
            assert on_board + label["locations"][f"off-{colour}"][colour] == 15
        # Every checker is placed, and the standing ones stand (on edge) or pile up (tower).
        for name, up in label["standing"].items():
            here = [c for c in scene.checkers if c.location == name]
            assert len(here) == sum(label["locations"][name].values())
            if scene.stack_form == "on-edge":
                assert sum(c.on_edge for c in here) == up
                # Leaning a little towards the frame at the point's base.
                towards = 1.0 if int(name[1:]) <= 12 else -1.0
                assert all(0 < c.lean * towards < math.radians(11) for c in here if c.on_edge)
            else:
                assert sum(c.z > 0 for c in here) == up - 1
    assert forms == {"tower", "on-edge"}
    assert stages == {"start", "laying", "eating"}


def test_generation_one_is_unchanged_and_generation_two_keeps_its_scene() -> None:
    for seed in range(30):
        family, light = choose(seed, "all")
        old = label_of(make_scene(seed, family, light, 640, 360), "x.jpg")
        assert not {"generation", "variant", "standing"} & old.keys()
        assert "stream" not in old["style"] and (old["cube"] is None or "logo" not in old["cube"])
        new = label_of(make_scene(seed, family, light, 640, 360, generation=2), "x.jpg")
        assert new["generation"] == 2 and new["variant"] == "backgammon"
        assert new["standing"] == {}
        for key in ("locations", "field_corners", "occluded", "split"):
            assert new[key] == old[key], (seed, key)
        assert new["style"]["board"] == old["style"]["board"]
        assert new["style"]["camera"] == old["style"]["camera"]


def test_a_logo_shows_only_on_a_centred_cube_reading_64() -> None:
    logos = 0
    for seed in range(150):
        family, light = choose(seed, "all")
        label = label_of(make_scene(seed, family, light, 640, 360, generation=2), "x.jpg")
        cube = label["cube"]
        if cube is not None and cube["logo"]:
            logos += 1
            assert cube["value"] == 64 and cube["place"] == "middle"
            assert label["style"]["cube"]["logo_kind"] in ("ring-star", "monogram")
    assert 20 < logos < 100


def test_a_cocked_die_of_generation_two_leans_on_a_checker() -> None:
    leaning = 0
    for seed in range(300):
        family, light = choose(seed, "all")
        scene = make_scene(seed, family, light, 640, 360, generation=2)
        thickness = scene.checkers_style.thickness
        radius = scene.board.checker_d / 2
        for die in scene.dice:
            if not die.cocked:
                assert die.rests_on == ""
                continue
            assert die.rests_on == "checker"
            leaning += 1
            m = np.asarray(die.matrix)
            half = die.size / 2
            corners = np.array(
                [(x, y, z) for x in (-half, half) for y in (-half, half) for z in (-half, half)]
            )
            world = corners @ m[:3, :3].T + m[:3, 3]
            low = np.sort(world[:, 2])
            # Its low edge (two corners) stands on the surface, nothing dips below it.
            assert abs(low[0]) < 1e-9 and abs(low[1]) < 1e-9
            # Its bottom face passes through the top edge of a checker, within the face.
            up = np.asarray(DIE_FACES[die.value], dtype=float)  # the value face, in the die
            normal = m[:3, :3] @ up
            bottom = m[:3, 3] - normal * half
            touching = []
            for c in scene.checkers:
                toward = np.array([c.x - m[0, 3], c.y - m[1, 3]])
                toward /= np.linalg.norm(toward)
                edge = np.array(
                    [c.x - toward[0] * radius, c.y - toward[1] * radius, c.z + thickness]
                )
                off_plane = abs(float(np.dot(edge - bottom, normal)))
                local = m[:3, :3].T @ (edge - m[:3, 3])
                inside = np.abs(local[up == 0]).max() <= half + 1e-9
                touching.append(off_plane < 1e-6 and inside)
            assert any(touching), seed
    assert leaning > 10


def test_stream_mode_sets_how_often_a_frame_is_compressed() -> None:
    def streamed(mode: str) -> int:
        return sum(
            make_scene(s, "travel", "lamp", 320, 180, generation=2, stream=mode).stream is not None
            for s in range(80)
        )

    assert streamed("never") == 0 and streamed("always") == 80
    assert 8 < streamed("mixed") < 35


def test_problems_catch_bad_standing_and_logo_labels() -> None:
    label = label_of(_sheshbesh(3), "x.jpg")
    name = next(iter(label["standing"]))
    broken = json.loads(json.dumps(label))
    broken["standing"][name] = 9
    assert any("stand on" in p for p in problems(broken))
    broken = json.loads(json.dumps(label))
    broken["variant"] = "backgammon"
    assert any("stand in a backgammon position" in p for p in problems(broken))
    broken = json.loads(json.dumps(label))
    broken["standing"]["bar-white"] = 1
    assert any("not a point" in p for p in problems(broken))
    if broken["cube"] is not None:
        broken["cube"].update(value=32, logo=True)
        assert any("logo must have the value 64" in p for p in problems(broken))


def test_shesh_besh_needs_generation_two(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match="needs generation 2"):
        make_scene(1, "travel", "lamp", variant="sheshbesh")
    args = ["render", "--count", "1", "--out", "/nonexistent/x", "--generation", "1"]
    assert main([*args, "--variant", "sheshbesh"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --variant sheshbesh") and err.count("\n") == 1
