"""The committed renders to learn dice from (``tests/data/dice-renders*``, several pairs of dice a
frame): every label consistent and reproduced by the generator from its seed and its pairs,
every image its label's size, tuning styles only (no held-out style may be learned from), small
enough for the repository."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2

from synth.labels import problems
from synth.scene import HELDOUT_FAMILIES, HELDOUT_LIGHTS
from tests.synth.test_dataset import _reproduced

DATA = Path(__file__).resolve().parents[1] / "data"
SETS = sorted(DATA.glob("dice-renders*"))


def _labels(folder: Path) -> list[dict[str, Any]]:
    return [
        json.loads(p.read_text()) for p in sorted(folder.glob("*.json")) if p.name != "card.json"
    ]


def test_the_sets_are_there_small_and_of_tuning_styles_only() -> None:
    assert SETS, "no tests/data/dice-renders* set"
    for folder in SETS:
        labels = _labels(folder)
        assert 20 <= len(labels) <= 200, folder.name
        assert sum(p.stat().st_size for p in folder.iterdir()) < 25 * 1024 * 1024, folder.name
        for label in labels:
            assert label["family"] not in HELDOUT_FAMILIES, label["image"]
            assert label["style"]["light_kind"] not in HELDOUT_LIGHTS, label["image"]
            assert label["split"] == "tune", label["image"]
        assert sum(len(label["dice"]) for label in labels) >= 4 * len(labels), folder.name


def test_every_label_is_consistent_reproduced_and_matches_its_image() -> None:
    for folder in SETS:
        for label in _labels(folder):
            assert problems(label) == [], (label["image"], problems(label))
            _reproduced(label)
            image = cv2.imread(str(folder / label["image"]))
            assert image is not None, label["image"]
            assert image.shape[:2] == (label["height"], label["width"]), label["image"]
