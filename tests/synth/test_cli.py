"""The command line: label checks, drawings and contact sheets on a folder (no Blender needed)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from synth.cli import main
from synth.labels import label_of
from synth.scene import choose, make_scene


def _folder(tmp_path: Path, count: int = 3) -> Path:
    folder = tmp_path / "set"
    folder.mkdir()
    for seed in range(count):
        family, light = choose(seed, "all")
        scene = make_scene(seed, family, light, 320, 180)
        cv2.imwrite(str(folder / f"s{seed}.jpg"), np.full((180, 320, 3), 90, dtype=np.uint8))
        (folder / f"s{seed}.json").write_text(json.dumps(label_of(scene, f"s{seed}.jpg")))
    return folder


def test_check_labels_draws_every_label(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _folder(tmp_path)
    assert main(["check-labels", str(folder), "--out", str(tmp_path / "drawn")]) == 0
    drawn = sorted(p.name for p in (tmp_path / "drawn").iterdir())
    assert drawn == ["s0.jpg", "s1.jpg", "s2.jpg"]
    image = cv2.imread(str(tmp_path / "drawn" / "s0.jpg"))
    assert image is not None and int(np.abs(image.astype(int) - 90).sum()) > 1000
    assert "0 problems" in capsys.readouterr().out


def test_check_labels_reports_a_broken_label(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _folder(tmp_path, 1)
    label = json.loads((folder / "s0.json").read_text())
    label["locations"]["off-white"]["white"] += 1
    (folder / "s0.json").write_text(json.dumps(label))
    assert main(["check-labels", str(folder), "--out", str(tmp_path / "drawn")]) == 1
    assert "white has 16 checkers, not 15" in capsys.readouterr().out


def test_contact_sheet(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    out = tmp_path / "sheet.jpg"
    assert main(["contact-sheet", str(folder), "--out", str(out)]) == 0
    sheet = cv2.imread(str(out))
    assert sheet is not None and sheet.shape[1] > 3 * 320


def test_a_missing_folder_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check-labels", str(tmp_path / "nowhere"), "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: folder") and err.count("\n") == 1


def test_check_labels_reads_shesh_besh_labels_and_reports_a_bad_stack(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "set"
    folder.mkdir()
    for seed in range(2):
        family, light = choose(seed, "all")
        scene = make_scene(seed, family, light, 320, 180, generation=2, variant="sheshbesh")
        cv2.imwrite(str(folder / f"s{seed}.jpg"), np.full((180, 320, 3), 90, dtype=np.uint8))
        (folder / f"s{seed}.json").write_text(json.dumps(label_of(scene, f"s{seed}.jpg")))
    assert main(["check-labels", str(folder), "--out", str(tmp_path / "drawn")]) == 0
    assert "0 problems" in capsys.readouterr().out
    label = json.loads((folder / "s1.json").read_text())
    name = next(iter(label["standing"]))
    label["standing"][name] = 4
    (folder / "s1.json").write_text(json.dumps(label))
    assert main(["check-labels", str(folder), "--out", str(tmp_path / "drawn")]) == 1
    assert f"standing: 4 stand on {name}" in capsys.readouterr().out


def test_render_options_choose_the_generation() -> None:
    from synth.cli import generation_options, parser

    def options(*extra: str) -> tuple[int, str, str]:
        return generation_options(parser().parse_args(["render", "--out", "x", *extra]))

    assert options() == (1, "backgammon", "mixed")
    assert options("--variant", "sheshbesh") == (2, "sheshbesh", "mixed")
    assert options("--stream", "always") == (2, "backgammon", "always")
    assert options("--generation", "2") == (2, "backgammon", "mixed")
    args = parser().parse_args(["render", "--out", "x", "--seeds", "4,9,2"])
    assert args.seeds == [4, 9, 2]
