"""The synthetic camera: deterministic, well-formed, and strict about what it is asked to draw."""

from __future__ import annotations

import numpy as np
import pytest

from vision.synth.render import (
    DieSpec,
    DrawnScene,
    DrawnSceneError,
    random_scene,
    random_style,
    render,
    render_frame,
)


def test_same_seed_same_frame_other_seed_other_frame() -> None:
    def frame(seed: int) -> np.ndarray:
        rng = np.random.default_rng(seed)
        return render(random_scene(rng), random_style(rng), rng)

    first, again, other = frame(5), frame(5), frame(6)
    assert first.shape == (720, 1280, 3) and first.dtype == np.uint8
    assert np.array_equal(first, again)
    assert not np.array_equal(first, other)


def test_random_scenes_hold_fifteen_checkers_a_side_and_never_mix_a_point() -> None:
    rng = np.random.default_rng(0)
    for _ in range(50):
        scene = random_scene(rng)
        assert sum(w for w, _ in scene.counts.values()) == 15
        assert sum(b for _, b in scene.counts.values()) == 15
        assert all(not (w and b) for w, b in scene.counts.values())
        assert max(max(w, b) for w, b in scene.counts.values() if True) <= 15


def test_from_sides_maps_each_side_from_its_own_one_point() -> None:
    white = [0] * 25
    black = [0] * 25
    white[0], white[24] = 2, 1  # two on White's 1-point, one on the bar
    black[5] = 3  # three on Black's 6-point = White's 19
    scene = DrawnScene.from_sides(white, black)
    assert scene.count("p1") == (2, 0)
    assert scene.count("p19") == (0, 3)
    assert scene.count("bar-white") == (1, 0)
    assert scene.count("off-white") == (12, 0)
    assert scene.count("off-black") == (0, 12)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"counts": {"p25": (1, 0)}}, "unknown location"),
        ({"counts": {"p3": (-1, 0)}}, "negative"),
        ({"counts": {}, "dice": (DieSpec(7),)}, "pips"),
        ({"counts": {}, "cube_value": 3}, "cube face"),
        ({"counts": {}, "cube_place": "floor"}, "cube place"),
    ],
)
def test_bad_scenes_are_refused_with_the_reason(arguments: dict[str, object], message: str) -> None:
    with pytest.raises(DrawnSceneError, match=message):
        DrawnScene(**arguments)  # type: ignore[arg-type]


def test_more_than_fifteen_at_one_place_is_refused() -> None:
    rng = np.random.default_rng(1)
    with pytest.raises(DrawnSceneError, match="16 checkers do not fit at 'p6' \\(at most 15\\)"):
        render(DrawnScene(counts={"p6": (16, 0)}), random_style(rng), rng)


@pytest.mark.parametrize(
    "counts",
    [
        {"p6": (15, 0), "p19": (0, 15)},  # the two tallest stacks, facing each other
        {"p1": (15, 0), "p24": (0, 15)},  # in the corners, facing each other
        {"bar-white": (15, 0), "bar-black": (0, 15)},
        {"off-white": (15, 0), "off-black": (0, 15)},
        {"p12": (11, 0), "p13": (0, 12), "bar-white": (4, 0), "off-black": (0, 3)},
    ],
)
def test_any_legal_pile_is_drawn_and_each_checker_shows(counts: dict[str, tuple[int, int]]) -> None:
    rng = np.random.default_rng(3)
    style = random_style(rng, hard=False)
    empty = render(DrawnScene(counts={}), style, np.random.default_rng(4))
    image = render(DrawnScene(counts=counts), style, np.random.default_rng(4))
    assert image.shape == (720, 1280, 3)
    changed = (np.abs(image.astype(int) - empty.astype(int)).max(axis=2) > 40).mean()
    assert changed > 0.01  # the checkers are there to see


def test_a_higher_layer_lies_over_the_one_under_it() -> None:
    layout = random_style(np.random.default_rng(0)).layout
    slots = layout.slots("p3")
    assert [layer for layer, _, _ in slots] == [1] * 5 + [2] * 5 + [3] * 5
    # the third layer lies on the first row's checkers, from the base
    assert [(x, y) for _, x, y in slots[10:]] == [(x, y) for _, x, y in slots[:5]]
    assert len(layout.slots("bar-black")) == 15 and len(layout.slots("off-white")) == 15


def test_dice_land_in_the_half_asked_for() -> None:
    rng = np.random.default_rng(2)
    style = random_style(rng)
    for half in ("left", "right"):
        scene = DrawnScene.starting(dice=(DieSpec(3), DieSpec(4)), dice_half=half)
        frame = render_frame(scene, style, rng)
        inverse = np.linalg.inv(frame.homography)
        for x, y in frame.dice_centres:
            u, _, w = inverse @ (x, y, 1.0)
            board_x = u / w
            assert (board_x < 0.46) == (half == "left"), (half, board_x)
