"""Frame sources: folders, videos, the renderer, and cameras that are missing or drop out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision.errors import FrameSourceError, ImageError
from vision.sources import (
    CameraSource,
    FolderSource,
    RenderedSource,
    VideoSource,
    first_frame,
    open_source,
)
from vision.synth.render import DrawnScene, random_style


class FakeCapture:
    """A camera that delivers ``good`` frames and then fails."""

    def __init__(self, good: int, opened: bool = True) -> None:
        self.good = good
        self.opened = opened
        self.released = False

    def isOpened(self) -> bool:
        return self.opened

    def set(self, prop: int, value: float) -> bool:
        return True

    def read(self) -> tuple[bool, Any]:
        if self.good > 0:
            self.good -= 1
            return True, np.zeros((4, 4, 3), np.uint8)
        return False, None

    def release(self) -> None:
        self.released = True


def test_a_missing_camera_is_a_clear_error() -> None:
    with pytest.raises(FrameSourceError, match="camera 3 could not be opened"):
        CameraSource(3, opener=lambda device: FakeCapture(0, opened=False))


def test_an_unplugged_camera_is_reopened_then_reported() -> None:
    captures = [
        FakeCapture(2),
        FakeCapture(1),
        FakeCapture(0, opened=False),
        FakeCapture(0, opened=False),
    ]
    waits: list[float] = []
    camera = CameraSource(
        0, opener=lambda device: captures.pop(0), reconnect_attempts=2, sleep=waits.append
    )
    frames = iter(camera)
    assert [next(frames).index for _ in range(3)] == [0, 1, 2]  # the third after one reconnect
    with pytest.raises(FrameSourceError, match="stopped delivering frames"):
        next(frames)
    assert len(waits) == 3


def test_folder_source_reads_images_in_order(tmp_path: Path) -> None:
    for name, value in (("b.png", 20), ("a.png", 10)):
        cv2.imwrite(str(tmp_path / name), np.full((20, 30, 3), value, np.uint8))
    (tmp_path / "notes.txt").write_text("not an image")
    with FolderSource(tmp_path, interval=0.5) as source:
        frames = list(source)
    assert [int(f.image[0, 0, 0]) for f in frames] == [10, 20]
    assert [f.time for f in frames] == [0.0, 0.5]


def test_empty_or_missing_folders_are_errors(tmp_path: Path) -> None:
    with pytest.raises(FrameSourceError, match="holds no images"):
        FolderSource(tmp_path)
    with pytest.raises(FrameSourceError, match="does not exist"):
        FolderSource(tmp_path / "gone")


def test_a_corrupt_image_in_a_folder_is_named(tmp_path: Path) -> None:
    (tmp_path / "broken.png").write_bytes(b"\x89PNG not really")
    with pytest.raises(ImageError, match=r"broken\.png"):
        list(FolderSource(tmp_path))


def test_video_source_plays_an_image_sequence(tmp_path: Path) -> None:
    for index in range(3):
        cv2.imwrite(
            str(tmp_path / f"frame_{index:03d}.png"), np.full((16, 16, 3), 40 * index, np.uint8)
        )
    with VideoSource(tmp_path / "frame_%03d.png") as video:
        frames = list(video)
    assert len(frames) == 3
    with pytest.raises(FrameSourceError, match="does not exist"):
        VideoSource(tmp_path / "missing.mp4")


def test_rendered_source_and_open_source() -> None:
    rng = np.random.default_rng(0)
    with RenderedSource(
        [DrawnScene.starting(), DrawnScene.starting()], random_style(rng), seed=3
    ) as source:
        frames = list(source)
    assert len(frames) == 2 and frames[1].time == pytest.approx(0.1)
    with pytest.raises(FrameSourceError, match=r"no camera, folder or video"):
        open_source("/nowhere/at/all.xyz")


def test_first_frame_of_an_image_file(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "one.png"), np.full((20, 20, 3), 7, np.uint8))
    assert int(first_frame(str(tmp_path / "one.png"))[0, 0, 0]) == 7
