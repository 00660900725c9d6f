"""The examples in the rules engine's docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "controller.rules",
    "controller.rules.position",
    "controller.rules.movegen",
    "controller.rules.notation",
    "controller.rules.explain",
    "controller.rules.ids",
    "controller.rules.match",
    "controller.rules.game",
    "controller.rules.sheshbesh",
    "controller.commands.legal",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0, f"{name} has no examples"
