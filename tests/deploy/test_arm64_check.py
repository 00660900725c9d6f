"""scripts/arm64-check.sh: the parts that need no emulator (syntax, lint, refusals by name).

The check itself builds a Debian arm64 root and runs for many minutes, so it is run by hand, not
here; these tests keep the script from rotting between runs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "arm64-check.sh"


def check(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPT), *arguments], capture_output=True, text=True, timeout=60, check=False
    )


def test_the_script_parses_and_explains_itself() -> None:
    syntax = subprocess.run(["bash", "-n", str(SCRIPT)], capture_output=True, text=True)
    assert syntax.returncode == 0, syntax.stderr
    shown = check("--help")
    assert shown.returncode == 0
    assert "--reuse" in shown.stdout and "--tests ARGS" in shown.stdout


def test_the_script_passes_shellcheck() -> None:
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (apt-get install shellcheck)")
    result = subprocess.run(
        ["shellcheck", "--severity=style", str(SCRIPT)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--frobnicate"], "unknown option '--frobnicate'"),
        (["--root"], "--root needs a folder"),
        (["--tests"], "--tests needs pytest arguments"),
        (["--rev"], "--rev needs a commit"),
    ],
)
def test_bad_arguments_are_refused_by_name(arguments: list[str], message: str) -> None:
    result = check(*arguments)
    assert result.returncode != 0
    assert message in result.stderr


def test_a_relative_root_is_refused_before_anything_is_built() -> None:
    if os.geteuid() != 0:
        result = check("--root", "relative/folder")
        assert "run as root" in result.stderr
    else:
        result = check("--root", "relative/folder")
        assert "--root must be an absolute folder" in result.stderr
    assert result.returncode != 0
    assert not Path("relative/folder").exists()
