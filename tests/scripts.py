"""Load one of the repository's scripts (``benchmarks/``, ``scripts/``) as a module, so a test can
call its functions without running it: the scripts are files, not an importable package; or run
one as a command."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def load_script(relative: str) -> ModuleType:
    """The script at ``relative`` (to the repository's root), loaded as a module named after it."""
    path = ROOT / relative
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_script(
    relative: str, *arguments: str, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """Run the script at ``relative`` (to the repository's root) with this interpreter and
    ``arguments``, its output captured; the caller checks its return code."""
    return subprocess.run(
        [sys.executable, str(ROOT / relative), *arguments],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
