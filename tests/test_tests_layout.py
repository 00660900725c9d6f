"""The tests mirror the packages they test: each folder directly under ``tests/`` is named after a
room of ``controller`` (``controller/record`` → ``tests/record``) or a top-level package, or is one
of the few folders listed below with the reason it names no package.

A catch-all folder (the old ``tests/app``, which held the table's and the simulation's tests side by
side) fails here, so a reader looking for the tests of ``controller/table`` finds them in
``tests/table`` and nowhere else.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"

#: Folders of ``tests/`` that name no Python package, each for a reason.
NOT_PACKAGES = {
    "data": "test data shared by the folders (matches, photos), no tests of its own",
    "deploy": "the Pi's install script, units and rules in deploy/: files, not a Python package",
    "robustness": "bad input and crashes across every command, no one package's",
}


def product_packages(root: Path) -> set[str]:
    """The names a test folder may take: the rooms of ``controller`` and the top-level packages."""
    rooms = {p.parent.name for p in (root / "controller").glob("*/__init__.py")}
    tops = {p.parent.name for p in root.glob("*/__init__.py")} - {"tests"}
    return rooms | tops


def holds_files(folder: Path) -> bool:
    """Whether ``folder`` holds anything besides Python's caches (a folder emptied by ``git mv``
    keeps its untracked ``__pycache__`` on a working tree, and holds no tests)."""
    for _, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        if files:
            return True
    return False


def misplaced(tests: Path, allowed: set[str]) -> list[str]:
    """The folders directly under ``tests`` named after nothing in ``allowed``."""
    return sorted(
        d.name
        for d in tests.iterdir()
        if d.is_dir()
        and not d.name.startswith((".", "__"))
        and d.name not in allowed
        and holds_files(d)
    )


def test_every_test_folder_names_a_package_or_a_listed_area() -> None:
    allowed = product_packages(ROOT) | set(NOT_PACKAGES)
    assert misplaced(TESTS, allowed) == []


def test_the_listed_areas_exist_and_name_no_package() -> None:
    for name in NOT_PACKAGES:
        assert (TESTS / name).is_dir(), f"tests/{name} is listed but is gone"
        assert name not in product_packages(ROOT), f"tests/{name} names a package: unlist it"
    assert (ROOT / "deploy").is_dir()


def test_a_catch_all_folder_is_caught(tmp_path: Path) -> None:
    for name in ("table", "app", "data"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "test_it.py").write_text("")
    (tmp_path / "emptied" / "__pycache__").mkdir(parents=True)
    (tmp_path / "emptied" / "__pycache__" / "test_it.cpython-311.pyc").write_bytes(b"")
    allowed = product_packages(ROOT) | set(NOT_PACKAGES)
    assert misplaced(tmp_path, allowed) == ["app"]
    assert {"record", "table", "sim", "commands", "vision", "web"} <= allowed
