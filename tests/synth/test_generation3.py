"""Generation 3 of the scene generator, without Blender: a cocked die leans on the board's wall
(the frame's rim, a tray's divider or the raised bar's side) as well as on a checker. The die
stands on the field, touches the wall's inner side without going through it, stays inside its
half of the field clear of every checker, and its label says what it leans on; generation 2 is
unchanged."""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterator

import cv2
import numpy as np

from synth.labels import label_of, problems
from synth.scene import DIE_FACES, Die, Scene, choose, make_scene, walls


def _scenes(count: int, generation: int = 3) -> Iterator[Scene]:
    for variant in ("backgammon", "sheshbesh"):
        for seed in range(count):
            family, light = choose(seed, "all")
            yield make_scene(seed, family, light, 640, 360, generation=generation, variant=variant)


def _inner_corners(die: Die) -> np.ndarray:
    """World corners of the die's core: the rendered die is this cube of edge size - 2 rounding
    grown by a ball of radius ``rounding`` (Blender's bevel of that width)."""
    m = np.asarray(die.matrix)
    half = die.size / 2 - die.rounding
    local = np.array(
        [(x, y, z) for x in (-half, half) for y in (-half, half) for z in (-half, half)]
    )
    world: np.ndarray = local @ m[:3, :3].T + m[:3, 3]
    return world


def _extent(die: Die, direction: tuple[float, float]) -> float:
    """How far the rounded die reaches along a horizontal unit ``direction``."""
    return float((_inner_corners(die)[:, :2] @ np.asarray(direction)).max()) + die.rounding


def test_a_die_leaning_on_the_wall_stands_on_the_field_and_touches_the_wall() -> None:
    seen = 0
    for scene in _scenes(200):
        board = scene.board
        for die in scene.dice:
            if die.rests_on != "wall":
                continue
            seen += 1
            where = (scene.seed, scene.variant, die.wall)
            assert die.cocked
            m = np.asarray(die.matrix)
            side = math.copysign(1.0, m[0, 3])
            wall = next(w for w in walls(board, side) if w.name == die.wall)
            core = _inner_corners(die)
            # Its lowest point is on the field: an edge (two core corners) one rounding above it.
            low = np.sort(core[:, 2])
            assert abs(low[0] - die.rounding) < 1e-9 and abs(low[1] - die.rounding) < 1e-9, where
            # It reaches the wall's plane exactly and nowhere beyond it, along a whole edge ...
            assert abs(_extent(die, wall.normal) - wall.offset) < 1e-9, where
            reach = core[:, :2] @ np.asarray(wall.normal)
            touching = core[reach > reach.max() - 1e-9]
            assert len(touching) == 2, where
            # ... that is parallel to the wall and below the rounding of the wall's top edge.
            edge = touching[1] - touching[0]
            assert abs(float(edge[:2] @ np.asarray(wall.normal))) < 1e-9, where
            assert float(touching[:, 2].max()) <= wall.flat + 1e-9, where
            # The low edge on the field is parallel to the wall too, on the far side of the die.
            floor = core[core[:, 2] < die.rounding + 1e-9]
            assert abs(float((floor[1] - floor[0])[:2] @ np.asarray(wall.normal))) < 1e-9
            assert float((floor[:, :2] @ np.asarray(wall.normal)).max()) < reach.max() - 1e-4
            # Tilted by 12 to 28 degrees: the value face still faces up.
            up = m[:3, :3] @ np.asarray(DIE_FACES[die.value], dtype=float)
            assert 12 - 1e-6 <= math.degrees(math.acos(up[2])) <= 28 + 1e-6, where
            # Inside its half of the field, never over the bar.
            assert _extent(die, (side, 0.0)) <= board.field_w / 2 + 1e-9, where
            assert _extent(die, (-side, 0.0)) <= -board.bar_w / 2 + 1e-9, where
            assert _extent(die, (0.0, 1.0)) <= board.field_h / 2 + 1e-9, where
            assert _extent(die, (0.0, -1.0)) <= board.field_h / 2 + 1e-9, where
            # Clear of every checker (each a disc of the checker's diameter seen from above).
            footprint = cv2.convexHull(core[:, :2].astype(np.float32))
            for checker in scene.checkers:
                inside = cv2.pointPolygonTest(footprint, (checker.x, checker.y), True)
                assert -inside > board.checker_d / 2 + die.rounding - 1e-5, where
    assert seen > 20


def test_generation_three_chooses_the_wall_or_a_checker_and_uses_every_wall() -> None:
    leans: Counter[str] = Counter()
    named: Counter[str] = Counter()
    for scene in _scenes(200):
        for die in scene.dice:
            assert (die.rests_on != "") == die.cocked
            assert (die.wall != "") == (die.rests_on == "wall")
            if die.cocked:
                leans[die.rests_on] += 1
                named[die.wall] += 1
    assert leans["wall"] > 15 and leans["checker"] > 15, leans
    assert {"rim-top", "rim-bottom", "bar"} <= set(named) and {"rim-left", "rim-right"} & set(named)


def test_labels_say_what_a_die_leans_on_from_generation_three_only() -> None:
    found: Counter[str] = Counter()
    for scene in _scenes(60):
        label = json.loads(json.dumps(label_of(scene, "x.jpg")))
        assert problems(label) == [], (scene.seed, problems(label))
        for die, entry, style in zip(
            scene.dice, label["dice"], label["style"]["dice"], strict=True
        ):
            assert entry["leans_on"] == die.rests_on == style["rests_on"]
            assert style["wall"] == die.wall
            found[entry["leans_on"]] += 1
    assert found["wall"] and found["checker"] and found[""]
    for scene in _scenes(60, generation=2):
        label = label_of(scene, "x.jpg")
        assert all("leans_on" not in d for d in label["dice"])
        assert all("wall" not in d for d in label["style"]["dice"])
        assert all(d.rests_on in ("", "checker") for d in scene.dice)


def test_without_a_cocked_die_generation_three_is_generation_two_plus_the_new_keys() -> None:
    compared = 0
    for seed in range(40):
        family, light = choose(seed, "all")
        third = make_scene(seed, family, light, 640, 360, generation=3, variant="sheshbesh")
        if any(d.cocked for d in third.dice):
            continue
        second = make_scene(seed, family, light, 640, 360, generation=2, variant="sheshbesh")
        a, b = label_of(third, "x.jpg"), label_of(second, "x.jpg")
        assert a.pop("generation") == 3 and b.pop("generation") == 2
        for entry, style in zip(a["dice"], a["style"]["dice"], strict=True):
            assert entry.pop("leans_on") == "" and style.pop("wall") == ""
        assert a == b, seed
        compared += 1
    assert compared > 20


def test_problems_catch_a_die_leaning_wrongly() -> None:
    label = next(
        label_of(s, "x.jpg") for s in _scenes(200) if any(d.rests_on == "wall" for d in s.dice)
    )
    index = next(i for i, d in enumerate(label["dice"]) if d["leans_on"] == "wall")
    broken = json.loads(json.dumps(label))
    broken["dice"][index]["leans_on"] = "cup"
    assert any("not one of" in p for p in problems(broken))
    broken["dice"][index]["leans_on"] = ""
    assert "a cocked die leaning on nothing" in problems(broken)
    broken["dice"][index].update(leans_on="wall", cocked=False)
    assert "a die lying flat yet leaning on a wall" in problems(broken)
