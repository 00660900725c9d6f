"""The examples in the docstrings of the lights package and the firmware run and hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "controller.lights",
    "controller.lights.base",
    "controller.lights.factory",
    "controller.lights.fake",
    "controller.lights.hints",
    "controller.lights.palette",
    "controller.lights.pinmap",
    "controller.lights.scene",
    "firmware.buttons",
    "firmware.ledcontroller",
    "firmware.protocol",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0, f"{name} has no examples"
