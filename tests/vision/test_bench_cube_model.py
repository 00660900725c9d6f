"""``benchmarks/bench_cube_model.py``: the cube-face model read at a labelled cube's middle, right
where the label's value is the cube's and wrong where it is not; a folder with no numbered cube
says so and fails, and a folder that is not there is refused by name."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.scripts import run_script

ROOT = Path(__file__).resolve().parents[2]
FRAME = ROOT / "tests" / "data" / "photoreal-tune10" / "tournament-felt-034037.json"


def _folder(tmp_path: Path, **changes: object) -> Path:
    """A folder holding FRAME, its cube's label changed by ``changes``."""
    labels = json.loads(FRAME.read_text())
    labels["cube"] = {**labels["cube"], **changes}
    (tmp_path / FRAME.name).write_text(json.dumps(labels))
    shutil.copy(FRAME.with_name(labels["image"]), tmp_path / labels["image"])
    return tmp_path


def test_a_cube_read_at_its_labelled_middle(tmp_path: Path) -> None:
    labels = json.loads(FRAME.read_text())
    assert labels["cube"]["value"] == 64 and not labels["cube"]["logo"]
    done = run_script("benchmarks/bench_cube_model.py", "--split", "all", str(_folder(tmp_path)))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "all (all): 1/1 right (100.0%)" in done.stdout, done.stdout


def test_a_cube_labelled_with_another_value_is_counted_wrong(tmp_path: Path) -> None:
    folder = _folder(tmp_path, value=8)
    done = run_script("benchmarks/bench_cube_model.py", "--split", "all", str(folder))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "all (all): 0/1 right (0.0%)" in done.stdout, done.stdout


def test_a_folder_without_numbered_cubes_fails(tmp_path: Path) -> None:
    folder = _folder(tmp_path, logo=True)  # an emblem is no number to read
    done = run_script("benchmarks/bench_cube_model.py", "--split", "all", str(folder))
    assert done.returncode == 1
    assert "no labelled numbered cubes in the all split" in done.stdout


def test_a_folder_that_is_not_there_is_refused_by_name(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder"
    done = run_script("benchmarks/bench_cube_model.py", str(missing))
    assert done.returncode == 2
    assert f"'{missing}' is not a folder of labelled frames" in done.stderr
    assert "Traceback" not in done.stderr
