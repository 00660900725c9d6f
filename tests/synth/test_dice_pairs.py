"""More than one pair of dice in a scene (``make_scene(..., dice_pairs=N)``, ``render
--dice-pairs N``): a set to learn dice from. The rest of the scene is the one pair's scene, the
dice lie apart from one another and from the checkers, and the labels carry every die."""

from __future__ import annotations

import math

import pytest

from synth import SynthInputError
from synth.cli import parser
from synth.labels import label_of, problems
from synth.scene import Die, choose, make_scene


def _middle(die: Die) -> tuple[float, float]:
    return die.matrix[0][3], die.matrix[1][3]


@pytest.mark.parametrize("generation", [1, 3])
def test_more_pairs_keep_the_scene_and_add_dice_apart(generation: int) -> None:
    thrown = 0
    for seed in range(40):
        family, light = choose(seed, "tune")
        one = make_scene(seed, family, light, 640, 360, generation=generation)
        four = make_scene(seed, family, light, 640, 360, generation=generation, dice_pairs=4)
        assert (four.checkers, four.cube, four.camera, four.hands) == (
            one.checkers,
            one.cube,
            one.camera,
            one.hands,
        )
        assert four.dice[:2] == one.dice  # the first pair is the scene's own
        assert len(four.dice) == (8 if one.dice else 0)
        thrown += bool(one.dice)
        for index, die in enumerate(four.dice):
            x, y = _middle(die)
            for other in four.dice[:index]:
                ox, oy = _middle(other)
                assert math.hypot(x - ox, y - oy) > die.size, (seed, index)
            if die.cocked:  # a leaning die touches what it leans on
                continue
            for checker in four.checkers:
                reach = math.hypot(x - checker.x, y - checker.y)
                assert reach > four.board.checker_d / 2 + 0.5 * die.size, (seed, index)
        label = label_of(four, "x.jpg")
        assert problems(label) == [], (seed, problems(label))
        assert len(label["dice"]) == len(four.dice)
    assert thrown >= 25


def test_pairs_are_asked_for_on_the_command_line_and_checked() -> None:
    args = parser().parse_args(["render", "--out", "x", "--dice-pairs", "5"])
    assert args.dice_pairs == 5
    assert parser().parse_args(["render", "--out", "x"]).dice_pairs == 1
    with pytest.raises(SynthInputError, match="dice pairs must be 1 or more, not 0"):
        make_scene(3, "travel", "lamp", dice_pairs=0)
