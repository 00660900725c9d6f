"""The committed generation-2 sample (Shesh Besh standing stacks, logo cubes): every label
consistent and reproduced by the generator from its seed, every image its label's size, both stack
forms and a logo cube present, and small."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2

from synth.labels import problems
from tests.synth.test_dataset import _reproduced

SET = Path(__file__).resolve().parents[1] / "data" / "photoreal-sheshbesh"


def _labels() -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted(SET.glob("*.json")) if p.name != "card.json"]


def test_the_sample_is_there_and_small() -> None:
    labels = _labels()
    assert 4 <= len(labels) <= 8
    size = sum(p.stat().st_size for p in SET.iterdir() if p.is_file())
    assert size < 2.5 * 1024 * 1024
    assert (SET / "DATASET.md").is_file()


def test_every_label_is_consistent_and_matches_its_image() -> None:
    for label in _labels():
        assert problems(label) == [], (label["image"], problems(label))
        image = cv2.imread(str(SET / label["image"]))
        assert image is not None, label["image"]
        assert image.shape[:2] == (label["height"], label["width"]) == (540, 960)


def test_it_shows_standing_stacks_of_both_forms_and_a_logo_cube() -> None:
    labels = _labels()
    assert all(label["generation"] == 2 and label["variant"] == "sheshbesh" for label in labels)
    assert all(label["standing"] for label in labels)
    assert {label["style"]["stack_form"] for label in labels} == {"tower", "on-edge"}
    assert any(label["cube"] is not None and label["cube"]["logo"] for label in labels)


def test_the_generator_reproduces_every_committed_label() -> None:
    for label in _labels():
        _reproduced(label)
