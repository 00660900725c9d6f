"""The examples in the analysis modules' docstrings run and say what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "controller.analysis.board",
    "controller.analysis.context",
    "controller.analysis.drawing",
    "controller.analysis.source",
    "controller.analysis.verdicts",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
