"""Generation 4 of the scene generator, without Blender: hands rest on the board's frame with their
fingertips short of the field (never over the field in the picture, so such a frame is not
occluded), as players' hands rest between turns; the rest of the scene is generation 3's."""

from __future__ import annotations

import json
from collections.abc import Iterator

from synth.labels import label_of, problems
from synth.scene import (
    FINGER_RADIUS,
    Scene,
    choose,
    covers_field,
    hand_points,
    make_scene,
)


def _scenes(count: int) -> Iterator[Scene]:
    for seed in range(count):
        family, light = choose(seed, "all")
        yield make_scene(seed, family, light, 1280, 720, generation=4)


def test_a_hand_resting_on_the_frame_keeps_its_fingers_off_the_field() -> None:
    seen = 0
    for scene in _scenes(150):
        board = scene.board
        for hand in scene.hands:
            if not hand.on_frame:
                continue
            seen += 1
            assert not hand.over_field
            # every part of the hand stays beyond the field's long side it rests at, and its
            # fingertips reach over the board's frame
            near = min(abs(c.b[1]) - c.radius for c in hand.capsules)
            assert near > board.field_h / 2, scene.seed
            tips = [abs(c.b[1]) for c in hand.capsules[2:6]]
            assert min(tips) <= board.field_h / 2 + board.frame_w + FINGER_RADIUS, scene.seed
            assert not covers_field(
                board, scene.camera, scene.post, scene.width, scene.height, hand_points(hand)
            )
        label = label_of(scene, "x.jpg")
        assert not label["occluded"] or any(h.over_field for h in scene.hands)
        assert problems(json.loads(json.dumps(label))) == []
    assert seen >= 30


def test_generation_four_is_generation_three_plus_hands_on_the_frame() -> None:
    added = 0
    for seed in range(60):
        family, light = choose(seed, "all")
        fourth = label_of(make_scene(seed, family, light, 640, 360, generation=4), "x.jpg")
        third = label_of(make_scene(seed, family, light, 640, 360, generation=3), "x.jpg")
        assert fourth.pop("generation") == 4 and third.pop("generation") == 3
        style = fourth["style"]
        hands = style["hands"]
        style["hands"] = [h for h in hands if not h["on_frame"]]
        added += len(hands) - len(style["hands"])
        for hand in style["hands"]:
            del hand["on_frame"]
        assert fourth == third, seed
    assert added > 10
