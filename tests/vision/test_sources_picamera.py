"""The Raspberry Pi camera source (picamera2), driven through a fake ``picamera2`` module.

The real picamera2 needs libcamera from Raspberry Pi OS, so no test machine here has it. The fake
keeps to the part of picamera2's interface the source uses (``Picamera2(camera_num=)``,
``create_video_configuration``, ``configure``, ``start``, ``capture_array``, ``stop``,
``close``) and records what it was asked, so the tests check both the frames and the requests.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from controller.cli import main
from vision.errors import FrameSourceError
from vision.sources import (
    CameraSource,
    PiCameraSource,
    first_frame,
    is_live,
    open_source,
    parse_picamera,
)
from vision.synth.render import DrawnScene, random_style, render


class FakeCamera:
    """One ``Picamera2`` object: frames come from ``frames`` until it runs out, then it fails."""

    def __init__(self, frames: list[np.ndarray[Any, Any]], log: list[str]) -> None:
        self.frames = frames
        self.log = log
        self.config: dict[str, Any] = {}

    def create_video_configuration(
        self, main: dict[str, Any], controls: dict[str, Any]
    ) -> dict[str, Any]:
        return {"main": dict(main), "controls": dict(controls)}

    def configure(self, config: dict[str, Any]) -> None:
        self.config = config
        if config["main"]["size"][0] > 4608:
            raise RuntimeError("no sensor mode that wide")

    def start(self) -> None:
        self.log.append("start")

    def capture_array(self, stream: str) -> np.ndarray[Any, Any]:
        assert stream == "main"
        if not self.frames:
            raise RuntimeError("Camera frontend has timed out!")
        return self.frames.pop(0)

    def stop(self) -> None:
        self.log.append("stop")

    def close(self) -> None:
        self.log.append("close")


def fake_picamera2(cameras: list[Callable[[], FakeCamera]]) -> types.SimpleNamespace:
    """A stand-in for the ``picamera2`` module whose ``Picamera2(camera_num=N)`` builds the next
    camera from ``cameras`` (and raises IndexError, as picamera2 does, for a camera not there)."""
    opened: list[FakeCamera] = []

    def picamera2(camera_num: int = 0) -> FakeCamera:
        if camera_num != 0 or not cameras:
            raise IndexError("list index out of range")
        camera = cameras.pop(0)()
        opened.append(camera)
        return camera

    return types.SimpleNamespace(Picamera2=picamera2, opened=opened)


def bgrx(height: int, width: int, blue: int) -> np.ndarray[Any, Any]:
    image = np.zeros((height, width, 4), np.uint8)
    image[:, :, 0] = blue
    image[:, :, 3] = 255
    return image


def test_frames_arrive_in_bgr_with_the_requested_size_and_rate() -> None:
    log: list[str] = []
    frame = np.zeros((720, 1280, 3), np.uint8)
    frame[:, :, 2] = 200  # red, in the third byte as libcamera's RGB888 lays it out
    module = fake_picamera2([lambda: FakeCamera([frame, bgrx(720, 1280, 9)], log)])
    with PiCameraSource(0, (1280, 720), fps=10.0, module=module) as camera:
        frames = iter(camera)
        first, second = next(frames), next(frames)
        config = module.opened[0].config
    assert config["main"] == {"size": (1280, 720), "format": "RGB888"}
    assert config["controls"] == {"FrameRate": 10.0}
    assert (first.index, second.index) == (0, 1)
    assert first.image.shape == (720, 1280, 3) and first.image[0, 0].tolist() == [0, 0, 200]
    assert second.image.shape == (720, 1280, 3) and second.image[0, 0].tolist() == [9, 0, 0]
    assert log == ["start", "stop", "close"]


def test_a_missing_pi_camera_is_a_clear_error() -> None:
    with pytest.raises(FrameSourceError, match=r"'picamera:1' could not be opened.*rpicam-hello"):
        PiCameraSource(1, module=fake_picamera2([]))


def test_a_size_the_sensor_refuses_is_named_and_the_camera_released() -> None:
    log: list[str] = []
    module = fake_picamera2([lambda: FakeCamera([], log)])
    with pytest.raises(FrameSourceError, match="refused 9999x720 frames: no sensor mode"):
        PiCameraSource(0, (9999, 720), module=module)
    assert log == ["close"]


def test_a_camera_that_stops_is_reopened_then_reported() -> None:
    log: list[str] = []
    one = np.zeros((4, 6, 3), np.uint8)
    module = fake_picamera2([lambda: FakeCamera([one, one], log), lambda: FakeCamera([one], log)])
    waits: list[float] = []
    camera = PiCameraSource(0, (6, 4), module=module, reconnect_attempts=2, sleep=waits.append)
    frames = iter(camera)
    assert [next(frames).index for _ in range(3)] == [0, 1, 2]  # the third after one reopening
    with pytest.raises(FrameSourceError, match="stopped delivering frames"):
        next(frames)
    assert waits == [1.0, 1.0, 1.0]
    assert log.count("start") == 2 and camera._device is None


def test_an_odd_frame_from_the_camera_is_refused() -> None:
    log: list[str] = []
    grey = np.zeros((4, 6), np.uint8)
    module = fake_picamera2([lambda: FakeCamera([grey], log)])
    with pytest.raises(FrameSourceError, match="stopped delivering"):
        PiCameraSource(0, (6, 4), module=module, reconnect_attempts=0).read()


def test_without_picamera2_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # makes `import picamera2` fail
    with pytest.raises(FrameSourceError, match=r"apt install python3-picamera2.*system-site"):
        open_source("picamera")


def test_open_source_passes_the_camera_settings_on(monkeypatch: pytest.MonkeyPatch) -> None:
    log: list[str] = []
    module = fake_picamera2([lambda: FakeCamera([np.zeros((480, 640, 3), np.uint8)], log)])
    monkeypatch.setitem(sys.modules, "picamera2", module)
    with open_source("picamera", resolution=(640, 480), fps=15.0) as camera:
        assert next(iter(camera)).image.shape == (480, 640, 3)
    assert module.opened[0].config["main"]["size"] == (640, 480)
    assert module.opened[0].config["controls"] == {"FrameRate": 15.0}


def test_specs_name_the_pi_camera() -> None:
    assert parse_picamera("picamera") == 0
    assert parse_picamera("picamera:2") == 2
    assert parse_picamera("0") is None and parse_picamera("/dev/video0") is None
    with pytest.raises(FrameSourceError, match="number must be"):
        parse_picamera("picamera:front")
    assert is_live("picamera") and is_live("picamera:1") and is_live("0") and is_live(2)
    assert is_live("/dev/video0")
    assert not is_live("frames/") and not is_live("match.mp4")


def test_open_source_and_calibrate_take_frames_from_the_pi_camera(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    rng = np.random.default_rng(8)
    style = dataclasses.replace(random_style(rng, hard=False), shadow=0.0)
    board = render(DrawnScene.starting(), style, rng)
    log: list[str] = []
    module = fake_picamera2([lambda: FakeCamera([board.copy()], log) for _ in range(2)])
    monkeypatch.setitem(sys.modules, "picamera2", module)

    assert np.array_equal(first_frame("picamera"), board)
    assert log == ["start", "stop", "close"]
    calibration = tmp_path / "cal.json"
    assert main(["calibrate", "--camera", "picamera:0", "--out", str(calibration)]) == 0
    assert json.loads(calibration.read_text())["method"] == "markers"


def test_run_takes_live_frames_from_the_pi_camera(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``sheshbesh run --camera picamera``: wall-clock times on the record's events (a live
    camera, not a recording replayed from time 0), and a camera that stops is reopened."""
    from controller.record.matfile import read_mat
    from controller.record.store import Record
    from controller.sim.demo import write_frames
    from vision.images import load_image

    match = read_mat((Path(__file__).parents[2] / "controller/data/demo-3pt.mat").read_text())
    calibration = write_frames(match, tmp_path / "frames", shots=slice(0, 6))
    images = [load_image(path) for path in sorted((tmp_path / "frames").glob("*.jpg"))]
    log: list[str] = []
    # The first camera delivers half the frames and then fails; the second delivers the rest.
    half = len(images) // 2
    module = fake_picamera2(
        [lambda: FakeCamera(images[:half], log), lambda: FakeCamera(images[half:], log)]
    )
    monkeypatch.setitem(sys.modules, "picamera2", module)
    config = tmp_path / "sheshbesh.toml"
    config.write_text(
        f'[camera]\nfps = 5.0\n[record]\nlog = "{tmp_path / "run.log"}"\n'
        "[analysis]\nenabled = false\n"
    )
    db = tmp_path / "record.sqlite"
    started = time.time()
    code = main(
        ["run", "--config", str(config), "--camera", "picamera", "--calibration", str(calibration),
         "--db", str(db), "--no-panel", "--frames", str(len(images)), "--reconnect-seconds", "0.001"]
    )  # fmt: skip
    assert code == 0, capsys.readouterr().err
    assert f"stopped after {len(images)} frames" in capsys.readouterr().out
    assert log.count("start") == 2  # the camera was reopened after it failed
    # the [camera] settings reach the camera
    assert module.opened[0].config["main"]["size"] == (1280, 720)
    assert module.opened[0].config["controls"] == {"FrameRate": 5.0}
    with Record(db) as record:
        assert record.current_match is not None
        times = [event.time for event in record.events(record.current_match)]
    assert times and all(started - 1 <= moment <= time.time() + 1 for moment in times)


def test_a_usb_camera_is_asked_for_the_configured_rate_too() -> None:
    """The V4L2 source beside it takes the same ``[camera]`` settings (size, rate, exposure)."""
    asked: dict[int, float] = {}

    class Capture:
        def isOpened(self) -> bool:
            return True

        def set(self, prop: int, value: float) -> bool:
            asked[prop] = value
            return True

        def release(self) -> None:
            pass

    CameraSource(0, (640, 480), 120.0, fps=7.5, opener=lambda device: Capture()).close()
    assert asked[cv2.CAP_PROP_FRAME_WIDTH] == 640 and asked[cv2.CAP_PROP_FRAME_HEIGHT] == 480
    assert asked[cv2.CAP_PROP_FPS] == 7.5 and asked[cv2.CAP_PROP_EXPOSURE] == 120.0
