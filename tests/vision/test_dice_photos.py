"""Real photographs of dice (shared/data/real/dice-matteop65): pips judged per die and per image.

Labels: one line per die, class = pips - 1. One label file (five_1) names a die that is not in its
photo; it stays in the count, so the figures here are slightly below the reader's real rate.

These photos are no longer tuned on (the reader is polarity-agnostic and tuned on the families of
vision.synth.dice_devset); the floors below sit under the measured figures (94.0% of dice, 76.7% of
images with ``benchmarks/bench_dice.py``) so that a change that loses ground fails. The earlier
reader, fitted to these photos, read 99.5% of them but 0.2% of dark dice with light pips.
"""

from __future__ import annotations

import collections
from pathlib import Path

import numpy as np
import pytest

from tests.shared_data import REAL_DICE
from vision.dice import read_dice_photo
from vision.errors import ImageError
from vision.images import load_image

pytestmark = pytest.mark.skipif(
    not (REAL_DICE / "images").is_dir(),
    reason="the real dice photos (shared/data/real) are not here",
)


def labelled(path: Path) -> collections.Counter[int]:
    lines = (REAL_DICE / "labels" / f"{path.stem}.txt").read_text().splitlines()
    return collections.Counter(int(line.split()[0]) + 1 for line in lines if line.strip())


@pytest.mark.slow
def test_real_dice_photos_are_read_die_by_die_and_image_by_image() -> None:
    images = sorted((REAL_DICE / "images").glob("*.jpg"))
    assert len(images) == 120
    right = total = exact = 0
    for path in images:
        truth = labelled(path)
        seen = collections.Counter(d.pips for d in read_dice_photo(load_image(path)))
        right += sum((truth & seen).values())
        total += sum(truth.values())
        exact += truth == seen
    assert right / total >= 0.92, f"{right}/{total} dice"
    assert exact / len(images) >= 0.72, f"{exact}/{len(images)} images"


@pytest.mark.parametrize("name", ["six_19", "two_19", "four_1", "three_1", "five_19"])
def test_chosen_photos(name: str) -> None:
    path = REAL_DICE / "images" / f"{name}.jpg"
    readings = read_dice_photo(load_image(path))
    assert collections.Counter(d.pips for d in readings) == labelled(path)
    height, width = 480, 640
    for die in readings:
        x, y, w, h = die.box
        assert 0 <= x < width and 0 <= y < height and 10 < w < 200 and 10 < h < 200
        assert 0 < die.confidence <= 1


def test_a_photo_without_dice_has_none() -> None:
    assert read_dice_photo(np.full((480, 640, 3), 200, np.uint8)) == []


def test_bad_input_is_refused() -> None:
    with pytest.raises(ImageError, match="shape"):
        read_dice_photo(np.zeros((480, 640, 5), np.uint8))
