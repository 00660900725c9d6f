"""The committed photoreal evaluation set: every label consistent, every image its label's size,
all board makes present with the held-out ones marked, small enough for the repository, and every
label reproduced by the generator from its seed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import pytest

from synth.labels import label_of, problems, scene_of
from synth.scene import FAMILIES, HELDOUT_FAMILIES, HELDOUT_LIGHTS

SET = Path(__file__).resolve().parents[1] / "data" / "photoreal"


def _labels() -> list[dict[str, Any]]:
    labels: list[dict[str, Any]] = [
        json.loads(p.read_text()) for p in sorted(SET.glob("*.json")) if p.name != "card.json"
    ]
    return labels


def test_the_set_is_there_and_small() -> None:
    labels = _labels()
    assert 40 <= len(labels) <= 100
    size = sum(p.stat().st_size for p in SET.iterdir() if p.is_file())
    assert size < 25 * 1024 * 1024


def test_every_label_is_consistent_and_matches_its_image() -> None:
    for label in _labels():
        assert problems(label) == [], (label["image"], problems(label))
        image = cv2.imread(str(SET / label["image"]))
        assert image is not None, label["image"]
        assert image.shape[:2] == (label["height"], label["width"]), label["image"]


def test_every_board_make_is_there_and_the_held_out_ones_are_marked() -> None:
    labels = _labels()
    assert {label["family"] for label in labels} == set(FAMILIES)
    for label in labels:
        held_out = (
            label["family"] in HELDOUT_FAMILIES or label["style"]["light_kind"] in HELDOUT_LIGHTS
        )
        assert label["split"] == ("heldout" if held_out else "tune"), label["image"]
    assert {label["split"] for label in labels} == {"tune", "heldout"}


def _close(a: Any, b: Any, where: str) -> None:
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), where
        for key in a:
            _close(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _close(x, y, f"{where}[{i}]")
    elif isinstance(a, float) and not isinstance(b, bool):
        assert b == pytest.approx(a, abs=0.02), where
    else:
        assert a == b, where


def _reproduced(label: dict[str, Any]) -> None:
    """Assert that the generator makes ``label`` again from its seed, style and options."""
    again = json.loads(json.dumps(label_of(scene_of(label), label["image"])))
    _close(label, again, label["image"])


def test_the_generator_reproduces_every_committed_label() -> None:
    for label in _labels():
        _reproduced(label)
