"""Where frames come from: a camera, a video file, a folder of images, or the renderer.

Cameras: a V4L2 device (a USB webcam, ``0`` or ``/dev/video0``) through OpenCV, or a Raspberry Pi
Camera Module (``picamera`` or ``picamera:N``) through picamera2, which Raspberry Pi OS ships as the
``python3-picamera2`` package on top of libcamera. picamera2 is imported only when such a camera is
opened: it exists nowhere else, and ``pip install picamera2`` alone does not bring libcamera.

Every source is an iterator of :class:`Frame` and a context manager; only sources open devices.
A camera that cannot be opened raises :class:`vision.errors.FrameSourceError` naming it; one that
stops delivering frames is reopened (``reconnect_attempts`` times) before that error is raised.

>>> import numpy as np
>>> from vision.synth.render import DrawnScene, random_style
>>> rng = np.random.default_rng(0)
>>> with RenderedSource([DrawnScene.starting()], random_style(rng), seed=1) as source:
...     frame = next(iter(source))
>>> frame.index, frame.image.shape
(0, (720, 1280, 3))
"""

from __future__ import annotations

import importlib
import time as clock
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import cv2
import numpy as np

from sheshbesh.closing import Closing
from vision.errors import FrameSourceError, ImageError
from vision.images import Image, load_image

if TYPE_CHECKING:  # the renderer is the simulation's: a live camera never loads it
    from vision.synth.render import DrawnScene, Style

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

    ``resolution`` asks for a frame size; ``exposure`` for a fixed exposure (driver units);
    ``fps`` for a frame rate (the driver may pick the nearest it has).
    """

    def __init__(
        self,
        device: int | str,
        resolution: tuple[int, int] | None = (1280, 720),
        exposure: float | None = None,
        *,
        fps: float | None = None,
        reconnect_attempts: int = 3,
        reconnect_wait: float = 1.0,
        opener: Callable[[int | str], Any] | None = None,
        now: Callable[[], float] = clock.monotonic,
        sleep: Callable[[float], None] = clock.sleep,
    ) -> None:
        self.device = device
        self.resolution = resolution
        self.exposure = exposure
        self.fps = fps
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
        if self.fps is not None:
            capture.set(cv2.CAP_PROP_FPS, self.fps)
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


#: the word that names a Raspberry Pi Camera Module in a source spec (``picamera`` or ``picamera:N``)
PICAMERA = "picamera"

_NO_PICAMERA2 = (
    "the Pi camera needs picamera2, which is not importable here: on Raspberry Pi OS run "
    "`sudo apt install python3-picamera2` and use a virtualenv made with --system-site-packages "
    "(deploy/install.sh does both); `pip install picamera2` alone lacks libcamera"
)


def _import_picamera2() -> Any:
    """The ``picamera2`` module, imported on first use (see the module's docstring for why)."""
    try:
        return importlib.import_module("picamera2")
    except ImportError as error:
        raise FrameSourceError(f"{_NO_PICAMERA2} ({error})") from error


class PiCameraSource(Closing):
    """A Raspberry Pi Camera Module (libcamera) through picamera2, camera ``camera`` (0 = first).

    Frames are asked for in libcamera's ``RGB888`` format, whose bytes are in B, G, R order: what
    OpenCV and the rest of :mod:`vision` take, with no conversion. ``fps`` caps the sensor's frame
    rate, which also bounds the exposure time. A camera that stops delivering is closed and
    reopened (``reconnect_attempts`` times) before :class:`FrameSourceError` is raised.
    ``module`` stands in for the ``picamera2`` module (tests pass a fake); by default the real one
    is imported here, lazily.
    """

    def __init__(
        self,
        camera: int = 0,
        resolution: tuple[int, int] = (1280, 720),
        fps: float | None = None,
        *,
        reconnect_attempts: int = 3,
        reconnect_wait: float = 1.0,
        module: Any = None,
        now: Callable[[], float] = clock.monotonic,
        sleep: Callable[[float], None] = clock.sleep,
    ) -> None:
        self.camera = camera
        self.resolution = resolution
        self.fps = fps
        self.reconnect_attempts = reconnect_attempts
        self.reconnect_wait = reconnect_wait
        self._module = module if module is not None else _import_picamera2()
        self._now = now
        self._sleep = sleep
        self._device: Any = None
        self._open()

    def _name(self) -> str:
        return f"{PICAMERA}:{self.camera}"

    def _open(self) -> None:
        try:
            device = self._module.Picamera2(camera_num=self.camera)
        except Exception as error:
            # picamera2 raises IndexError when there is no camera, RuntimeError when it is busy.
            raise FrameSourceError(
                f"Pi camera {self._name()!r} could not be opened (not connected, busy with another "
                f"program, or not enabled? `rpicam-hello --list-cameras` lists them): {error}"
            ) from error
        try:
            controls = {"FrameRate": float(self.fps)} if self.fps else {}
            config = device.create_video_configuration(
                main={"size": tuple(self.resolution), "format": "RGB888"}, controls=controls
            )
            device.configure(config)
            device.start()
        except Exception as error:
            device.close()
            raise FrameSourceError(
                f"Pi camera {self._name()!r} refused {self.resolution[0]}x{self.resolution[1]} "
                f"frames: {error}"
            ) from error
        self._device = device

    def read(self) -> Image:
        """One BGR frame; reopens the camera if it failed, raising FrameSourceError if it stays so."""
        for attempt in range(self.reconnect_attempts + 1):
            if self._device is not None:
                try:
                    return _bgr(self._device.capture_array("main"))
                except Exception:  # libcamera reports a lost camera as assorted errors
                    pass
            if attempt == self.reconnect_attempts:
                break
            self.close()
            self._sleep(self.reconnect_wait)
            try:
                self._open()
            except FrameSourceError:
                self._device = None
        raise FrameSourceError(
            f"Pi camera {self._name()!r} stopped delivering frames "
            f"({self.reconnect_attempts} attempts to reconnect failed)"
        )

    def __iter__(self) -> Iterator[Frame]:
        index = 0
        while True:
            image = self.read()
            yield Frame(image, index, self._now())
            index += 1

    def close(self) -> None:
        device, self._device = self._device, None
        if device is not None:
            try:
                device.stop()
            finally:
                device.close()


def _bgr(array: Any) -> Image:
    """A picamera2 array as a BGR image: 3 channels as they come, the padding byte of 4 dropped."""
    image = np.asarray(array)
    if image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] not in (3, 4):
        raise ValueError(f"unexpected frame {image.dtype} {image.shape} from picamera2")
    return np.ascontiguousarray(image[:, :, :3])


def parse_picamera(spec: str) -> int | None:
    """The camera number of a ``picamera``/``picamera:N`` spec, or None for any other spec.

    Raises :class:`FrameSourceError` for ``picamera:`` followed by something not a number.
    """
    if spec == PICAMERA:
        return 0
    if not spec.startswith(f"{PICAMERA}:"):
        return None
    number = spec[len(PICAMERA) + 1 :]
    if not number.isdigit():
        raise FrameSourceError(f"{spec!r}: the Pi camera's number must be 0, 1, ... (picamera:0)")
    return int(number)


def is_live(spec: str | int) -> bool:
    """Whether ``spec`` names a live camera (V4L2 or Pi camera) rather than a recording."""
    text = str(spec)
    return text.isdigit() or text.startswith("/dev/") or text.split(":")[0] == PICAMERA


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
    """Frames drawn by :func:`vision.synth.render.render`, one per scene, ``interval`` seconds apart."""

    def __init__(
        self, scenes: Sequence[DrawnScene], style: Style, seed: int = 0, interval: float = 0.1
    ) -> None:
        self.scenes = list(scenes)
        self.style = style
        self.seed = seed
        self.interval = interval

    def __iter__(self) -> Iterator[Frame]:
        from vision.synth.render import render

        rng = np.random.default_rng(self.seed)
        for index, scene in enumerate(self.scenes):
            yield Frame(render(scene, self.style, rng), index, index * self.interval)


def open_source(
    spec: str | int,
    *,
    resolution: tuple[int, int] = (1280, 720),
    fps: float | None = None,
    exposure: float | None = None,
) -> FrameSource:
    """A source from a command-line word: a camera index or ``/dev/video*``, ``picamera`` or
    ``picamera:N`` (a Raspberry Pi Camera Module), a folder, or a video.

    ``resolution``, ``fps`` and ``exposure`` (V4L2 units; None leaves it automatic) are asked of a
    camera (the ``[camera]`` settings); recordings ignore them. Raises
    :class:`vision.errors.FrameSourceError` if nothing can be opened from ``spec``.
    """
    if isinstance(spec, int) or str(spec).isdigit():
        return CameraSource(int(spec), resolution, exposure, fps=fps)
    text = str(spec)
    pi_camera = parse_picamera(text)
    if pi_camera is not None:
        return PiCameraSource(pi_camera, resolution, fps)
    if text.startswith("/dev/"):
        return CameraSource(text, resolution, exposure, fps=fps)
    path = Path(text)
    if path.is_dir():
        return FolderSource(path)
    if path.is_file() or "%" in text:
        return VideoSource(path)
    raise FrameSourceError(f"no camera, folder or video at {text!r} (or picamera for a Pi camera)")


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
