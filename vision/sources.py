"""Where frames come from: a camera, a video file, a folder of images, or the renderer.

Every source is an iterator of :class:`Frame` and a context manager; only sources open devices.
A camera that cannot be opened raises :class:`vision.errors.FrameSourceError` naming it; one that
stops delivering frames is reopened (``reconnect_attempts`` times) before that error is raised.

>>> import numpy as np
>>> from vision.render import Scene, random_style
>>> rng = np.random.default_rng(0)
>>> with RenderedSource([Scene.starting()], random_style(rng), seed=1) as source:
...     frame = next(iter(source))
>>> frame.index, frame.image.shape
(0, (720, 1280, 3))
"""

from __future__ import annotations

import time as clock
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from sheshbesh.closing import Closing
from vision.errors import FrameSourceError, ImageError
from vision.images import Image, load_image
from vision.render import Scene, Style, render

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame: BGR uint8 pixels, its running index and when it was taken (seconds)."""

    image: Image
    index: int
    time: float


class FrameSource(Protocol):
    """Anything that yields frames and can be closed."""

    def __iter__(self) -> Iterator[Frame]: ...

    def close(self) -> None: ...


class CameraSource(Closing):
    """A V4L2 camera by index (``0``) or device path (``/dev/video0``).

    ``resolution`` asks for a frame size; ``exposure`` for a fixed exposure (driver units).
    """

    def __init__(
        self,
        device: int | str,
        resolution: tuple[int, int] | None = (1280, 720),
        exposure: float | None = None,
        *,
        reconnect_attempts: int = 3,
        reconnect_wait: float = 1.0,
        opener: Callable[[int | str], Any] | None = None,
        now: Callable[[], float] = clock.monotonic,
        sleep: Callable[[float], None] = clock.sleep,
    ) -> None:
        self.device = device
        self.resolution = resolution
        self.exposure = exposure
        self.reconnect_attempts = reconnect_attempts
        self.reconnect_wait = reconnect_wait
        self._opener = opener or (lambda d: cv2.VideoCapture(d, cv2.CAP_V4L2))
        self._now = now
        self._sleep = sleep
        self._capture: Any = None
        self._open()

    def _open(self) -> None:
        capture = self._opener(self.device)
        if capture is None or not capture.isOpened():
            raise FrameSourceError(
                f"camera {self.device!r} could not be opened (unplugged, busy, or no permission?)"
            )
        if self.resolution is not None:
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.resolution[0])
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.resolution[1])
        if self.exposure is not None:
            capture.set(cv2.CAP_PROP_AUTO_EXPOSURE, 1)
            capture.set(cv2.CAP_PROP_EXPOSURE, self.exposure)
        self._capture = capture

    def read(self) -> Image:
        """One frame; reopens the camera if it stopped, raising FrameSourceError if it stays gone."""
        for attempt in range(self.reconnect_attempts + 1):
            if self._capture is not None:
                ok, image = self._capture.read()
                if ok and image is not None:
                    return np.asarray(image, np.uint8)
            if attempt == self.reconnect_attempts:
                break
            self.close()
            self._sleep(self.reconnect_wait)
            try:
                self._open()
            except FrameSourceError:
                self._capture = None
        raise FrameSourceError(
            f"camera {self.device!r} stopped delivering frames "
            f"({self.reconnect_attempts} attempts to reconnect failed)"
        )

    def __iter__(self) -> Iterator[Frame]:
        index = 0
        while True:
            image = self.read()
            yield Frame(image, index, self._now())
            index += 1

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class VideoSource(Closing):
    """A video file (or an image sequence pattern like ``frames_%03d.png``)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if "%" not in self.path and not Path(self.path).is_file():
            raise FrameSourceError(f"video {self.path!r} does not exist")
        self._capture: Any = cv2.VideoCapture(self.path)
        if not self._capture.isOpened():
            raise FrameSourceError(f"video {self.path!r} could not be opened")
        fps = float(self._capture.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = fps if fps > 0 else 25.0

    def __iter__(self) -> Iterator[Frame]:
        index = 0
        while self._capture is not None:
            ok, image = self._capture.read()
            if not ok or image is None:
                return
            yield Frame(np.asarray(image, np.uint8), index, index / self.fps)
            index += 1

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class FolderSource(Closing):
    """Every image in a folder, in name order, ``interval`` seconds apart.

    An unreadable file raises :class:`vision.errors.ImageError` naming it.
    """

    def __init__(self, folder: str | Path, interval: float = 0.1) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise FrameSourceError(f"folder {str(self.folder)!r} does not exist")
        self.files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.files:
            raise FrameSourceError(
                f"folder {str(self.folder)!r} holds no images ({', '.join(IMAGE_SUFFIXES)})"
            )
        self.interval = interval

    def __iter__(self) -> Iterator[Frame]:
        for index, file in enumerate(self.files):
            yield Frame(load_image(file), index, index * self.interval)


class RenderedSource(Closing):
    """Frames drawn by :func:`vision.render.render`, one per scene, ``interval`` seconds apart."""

    def __init__(
        self, scenes: Sequence[Scene], style: Style, seed: int = 0, interval: float = 0.1
    ) -> None:
        self.scenes = list(scenes)
        self.style = style
        self.seed = seed
        self.interval = interval

    def __iter__(self) -> Iterator[Frame]:
        rng = np.random.default_rng(self.seed)
        for index, scene in enumerate(self.scenes):
            yield Frame(render(scene, self.style, rng), index, index * self.interval)


def open_source(spec: str | int) -> FrameSource:
    """A source from a command-line word: a camera index or ``/dev/video*``, a folder, or a video.

    Raises :class:`vision.errors.FrameSourceError` if nothing can be opened from ``spec``.
    """
    if isinstance(spec, int) or str(spec).isdigit():
        return CameraSource(int(spec))
    text = str(spec)
    if text.startswith("/dev/"):
        return CameraSource(text)
    path = Path(text)
    if path.is_dir():
        return FolderSource(path)
    if path.is_file() or "%" in text:
        return VideoSource(path)
    raise FrameSourceError(f"no camera, folder or video at {text!r}")


def first_frame(spec: str | int) -> Image:
    """The first frame of a source, or the image itself when ``spec`` names an image file."""
    path = Path(str(spec))
    if path.suffix.lower() in IMAGE_SUFFIXES and path.exists():
        return load_image(path)
    source = open_source(spec)
    try:
        for frame in source:
            return frame.image
    finally:
        source.close()
    raise ImageError(f"{spec!r} delivered no frame")
