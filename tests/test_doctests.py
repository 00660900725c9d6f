"""Every module's docstring examples run and give what they show: one mechanism for the whole house.

The modules are found by walking the project's packages on disk, so a new module's examples run
without anyone adding it to a list. A module that cannot be imported here because it needs
something this machine may lack (MicroPython's ``machine`` on the board itself, an optional extra)
is skipped with the name of what is missing; any other import error fails.
"""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("sheshbesh", "controller", "vision", "web", "firmware", "synth")

#: Importable only where an optional part is installed; a module needing one of these is skipped.
OPTIONAL = {
    "machine": "MicroPython on the board (the firmware's hardware entry point)",
    "neopixel": "MicroPython on the board (the firmware's hardware entry point)",
    "bpy": "Blender as a Python module (the synth extra)",
    "bgsage": "the analysis extra",
    "gnubg": "the gnubg reference package (x86-64 wheels only)",
    "lgpio": "the pi extra",
    "picamera2": "Raspberry Pi OS's picamera2",
}

#: The six hand-kept lists this test replaced ran 144 examples in 35 modules; the walk found 263 in
#: 65 when it was written. Far fewer means the walk has stopped finding them.
EXAMPLES_AT_LEAST = 200

#: The rules engine is the public API: each of its modules shows how it is used (errors aside).
MUST_SHOW_EXAMPLES = ("controller.rules",)
NO_EXAMPLES_NEEDED = {"controller.rules.errors"}


def module_names() -> list[str]:
    """Every module of the packages except ``__main__`` files, which run a program on import."""
    names = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__main__":
                continue
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def _import(name: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        missing = (error.name or "").split(".")[0]
        if missing in OPTIONAL:
            pytest.skip(f"{name} needs {missing}: {OPTIONAL[missing]}")
        raise


@pytest.mark.parametrize("name", module_names())
def test_docstring_examples(name: str) -> None:
    module = _import(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed"
    if name.startswith(MUST_SHOW_EXAMPLES) and name not in NO_EXAMPLES_NEEDED:
        assert result.attempted > 0, f"{name} has no examples"


def test_the_walk_finds_the_examples() -> None:
    # A walk that found no modules, or imported none, would pass every test above.
    finder = doctest.DocTestFinder()
    examples = 0
    for name in module_names():
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if (error.name or "").split(".")[0] in OPTIONAL:
                continue
            raise
        examples += sum(len(test.examples) for test in finder.find(module))
    assert examples >= EXAMPLES_AT_LEAST
