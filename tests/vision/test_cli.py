"""The command-line contracts: ``sheshbesh read`` and ``sheshbesh calibrate``."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.cli import main
from tests.shared_data import REAL_DICE
from vision.synth.render import DieSpec, DrawnScene, random_style, render


@pytest.fixture(scope="module")
def frames(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("frames")
    rng = np.random.default_rng(8)
    style = random_style(rng, hard=False)
    start, play = folder / "start.png", folder / "play.png"
    cv2.imwrite(
        str(start), render(DrawnScene.starting(), dataclasses.replace(style, shadow=0.0), rng)
    )
    scene = DrawnScene.starting(dice=(DieSpec(5), DieSpec(2)), cube_value=4, cube_place="black")
    cv2.imwrite(str(play), render(scene, style, rng))
    return start, play


def test_calibrate_then_read(
    frames: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    start, play = frames
    calibration, overlay = tmp_path / "cal.json", tmp_path / "cal.png"
    assert (
        main(["calibrate", str(start), "--out", str(calibration), "--overlay", str(overlay)]) == 0
    )
    assert json.loads(calibration.read_text())["method"] == "markers"
    assert cv2.imread(str(overlay)).shape == (720, 1280, 3)
    capsys.readouterr()
    assert (
        main(
            [
                "read",
                str(play),
                "--calibration",
                str(calibration),
                "--overlay",
                str(tmp_path / "r.png"),
            ]
        )
        == 0
    )
    reading = json.loads(capsys.readouterr().out)
    assert reading["state"] == "settled"
    assert reading["locations"]["p6"]["white"] == 5 and reading["locations"]["p1"]["black"] == 2
    assert sorted(d["pips"] for d in reading["dice"]) == [2, 5]
    assert reading["cube"]["value"] == 4 and reading["cube"]["place"] == "black"


def test_calibrate_with_corners_by_hand(frames: tuple[Path, Path], tmp_path: Path) -> None:
    start, _ = frames
    out = tmp_path / "cal.json"
    corners = "300,100,980,100,1000,650,280,650"
    assert (
        main(["calibrate", str(start), "--corners", corners, "--out", str(out), "--no-colours"])
        == 0
    )
    assert json.loads(out.read_text())["method"] == "corners"


def test_errors_are_reported_not_raised(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((720, 1280, 3), 90, np.uint8))
    assert main(["calibrate", str(blank), "--out", str(tmp_path / "c.json")]) == 1
    assert "board could not be located" in capsys.readouterr().err
    assert main(["read", str(tmp_path / "missing.png")]) == 1
    assert "does not exist" in capsys.readouterr().err
    (tmp_path / "bad.json").write_text("{")
    assert main(["read", str(blank), "--calibration", str(tmp_path / "bad.json")]) == 1
    assert "not JSON" in capsys.readouterr().err


@pytest.mark.skipif(not (REAL_DICE / "images").is_dir(), reason="the real dice photos are not here")
def test_read_dice_only_prints_the_contract(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["read", "--dice-only", str(REAL_DICE / "images" / "four_19.jpg")]) == 0
    result = json.loads(capsys.readouterr().out)
    assert list(result) == ["dice"]
    assert sorted(d["pips"] for d in result["dice"]) == [4, 4]
    for die in result["dice"]:
        assert set(die) == {"pips", "confidence", "box"} and len(die["box"]) == 4
