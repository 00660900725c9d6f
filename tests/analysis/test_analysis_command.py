"""``sheshbesh analyse``, and everything working when the analysis extra is not installed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from analysis_fakes import MATCHES, events_for

from controller.analysis import (
    AnalysisNotInstalledError,
    availability,
    is_installed,
    make_analyser,
)
from controller.analysis.source import turns_from_mat_text
from controller.cli import main
from controller.record.store import Record

ONE = MATCHES / "gnubg-selfplay-1pt-seed11.mat"
THREE = MATCHES / "gnubg-selfplay-3pt-seed12345.mat"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def without_bgsage(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``import bgsage`` fail as it does where the extra is not installed."""
    monkeypatch.setitem(sys.modules, "bgsage", None)
    monkeypatch.setitem(sys.modules, "bgsage.text_export", None)


def test_without_the_extra_the_analyser_says_it_is_not_installed(without_bgsage: None) -> None:
    assert not is_installed()
    assert availability() == "not installed"
    with pytest.raises(AnalysisNotInstalledError, match="analysis is not installed"):
        make_analyser()
    with pytest.raises(ImportError):  # also an ImportError, for callers that test for that
        make_analyser("1ply")


def test_without_the_extra_the_command_says_so(
    without_bgsage: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyse", str(ONE)]) == 3
    assert "analysis is not installed" in capsys.readouterr().err


def test_a_fresh_process_without_the_extra_still_imports_everything() -> None:
    code = (
        "import sys; sys.modules['bgsage'] = None\n"
        "import controller.analysis, controller.analysis.report, controller.commands.analyse\n"
        "from controller.cli import main\n"
        f"sys.exit(main(['analyse', {str(ONE)!r}]))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 3, result.stderr
    assert "analysis is not installed" in result.stderr


def test_importing_the_service_does_not_load_the_engine() -> None:
    code = "import sys, controller.analysis; print('bgsage' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.stdout.strip() == "False", result.stderr


def test_a_missing_file_or_match_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("bgsage", reason="the analysis extra (bgsage) is not installed")
    assert main(["analyse", str(tmp_path / "nothing.mat"), "-q"]) == 1
    assert "cannot read" in capsys.readouterr().err
    assert main(["analyse", "m9", "--record", str(tmp_path / "none.sqlite"), "-q"]) == 1
    assert "neither a .mat file nor a match" in capsys.readouterr().err


def test_analyse_a_match_file_as_json_with_a_progress_bar(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("bgsage", reason="the analysis extra (bgsage) is not installed")
    assert main(["analyse", str(THREE), "--format", "json"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    turns = turns_from_mat_text(THREE.read_text()).turns
    assert len(data["plays"]) == sum(turn.dice is not None for turn in turns)
    assert data["engine"] == "bgsage 0ply" and data["source"] == THREE.name
    total = len(turns)
    assert f"{total}/{total} turns" in captured.err and "analysing [" in captured.err


def test_analyse_a_recorded_match_to_an_html_file(tmp_path: Path) -> None:
    pytest.importorskip("bgsage", reason="the analysis extra (bgsage) is not installed")
    database = tmp_path / "record.sqlite"
    with Record(database) as record:
        for event in events_for(turns_from_mat_text(THREE.read_text(), "x")):
            record.append(event, "m1")
    out = tmp_path / "report.html"
    args = ["analyse", "m1", "--record", str(database), "--format", "html", "-o", str(out), "-q"]
    assert main(args) == 0
    page = out.read_text()
    assert page.startswith("<!doctype html>") and "Alice vs Bob, 3-point match" in page
    assert main(["analyse", "m2", "--record", str(database), "-q"]) == 1
    unwritable = ["analyse", str(ONE), "-q", "-o", str(tmp_path / "no" / "such" / "dir.txt")]
    assert main(unwritable) == 1
