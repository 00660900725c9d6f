"""A camera's faults applied to a linear render: auto exposure with an error, white balance that only
partly corrects the light's colour, a film-like tone curve, sensor noise, motion blur, lens distortion
and JPEG compression, and (generation 2) a video stream's compression. Pure numpy/OpenCV, so it is
tested without Blender.
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from synth import SynthError
from synth.projection import focal_pixels, undistorted_from_distorted
from synth.scene import PostEffects, Stream

#: OpenCV's writer tag and file suffix of each video codec a stream may use. This machine's OpenCV
#: (the opencv-python-headless wheel, FFmpeg inside) writes MPEG-4 part 2 and VP8 but has no H.264
#: encoder; both are block-transform codecs with 4:2:0 chroma like the H.264 of a webcam stream.
VIDEO_CODECS: dict[str, tuple[str, str]] = {"mp4v": ("mp4v", ".mp4"), "vp8": ("VP80", ".mkv")}


def _tone(x: NDArray[np.float32]) -> NDArray[np.float32]:
    """A filmic curve (Narkowicz's ACES fit): soft highlights instead of hard clipping."""
    y = (x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14)
    return np.asarray(np.clip(y, 0.0, 1.0), dtype=np.float32)


def _srgb(x: NDArray[np.float32]) -> NDArray[np.float32]:
    return np.asarray(
        np.where(
            x <= 0.0031308, 12.92 * x, 1.055 * np.power(np.maximum(x, 0.0031308), 1 / 2.4) - 0.055
        ),
        dtype=np.float32,
    )


def develop(linear: NDArray[np.float32], post: PostEffects, lens_mm: float) -> NDArray[np.uint8]:
    """Linear RGB (H x W x 3, float32) -> the camera's BGR uint8 image (before JPEG)."""
    width = linear.shape[1]
    rgb = np.maximum(linear.astype(np.float32), 0.0)
    # Auto white balance: a partial grey-world correction, then the camera's own error.
    means = rgb.reshape(-1, 3).mean(axis=0) + 1e-6
    grey = means.mean()
    correction = np.clip((grey / means) ** post.grey_world, 0.8, 1.25)
    gains = correction * np.asarray(post.white_balance, dtype=np.float32)
    rgb = rgb * gains.astype(np.float32)
    # Auto exposure on the log-average luminance, then the camera's error in stops.
    luminance = rgb @ np.array([0.2126, 0.7152, 0.0722], dtype=np.float32)
    log_mean = float(np.exp(np.mean(np.log(luminance + 1e-4))))
    rgb = rgb * (0.15 / max(log_mean, 1e-5) * 2.0**post.exposure_ev)
    out = _srgb(_tone(rgb))
    rng = np.random.default_rng(post.seed)
    # Sensor noise: shot noise grows with brightness, read noise does not.
    sigma = post.noise / 255.0 * (0.5 + np.sqrt(out))
    out = (out + rng.normal(0.0, 1.0, out.shape) * sigma).astype(np.float32)
    image = np.clip(out * 255.0 + 0.5, 0, 255).astype(np.uint8)[:, :, ::-1]
    if post.blur_px >= 1.0:
        image = _motion_blur(image, post.blur_px, post.blur_angle)
    if post.k1 != 0.0:
        image = _distort(image, post.k1, focal_pixels(lens_mm, width))
    return np.ascontiguousarray(image)


def _motion_blur(image: NDArray[np.uint8], length: float, angle_deg: float) -> NDArray[np.uint8]:
    size = math.ceil(length) * 2 + 1
    kernel = np.zeros((size, size), dtype=np.float32)
    c = size // 2
    dx, dy = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))
    for t in np.linspace(-length / 2, length / 2, size * 3):
        kernel[round(c + t * dy), round(c + t * dx)] = 1.0
    kernel /= kernel.sum()
    return np.asarray(cv2.filter2D(image, -1, kernel), dtype=np.uint8)


def _distort(image: NDArray[np.uint8], k1: float, focal: float) -> NDArray[np.uint8]:
    height, width = image.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float64)
    grid = np.stack([xs.ravel() + 0.5, ys.ravel() + 0.5], axis=1)
    source = undistorted_from_distorted(grid, k1, width, height, focal) - 0.5
    map_x = source[:, 0].reshape(height, width).astype(np.float32)
    map_y = source[:, 1].reshape(height, width).astype(np.float32)
    return np.asarray(
        cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT101),
        dtype=np.uint8,
    )


def encode_jpeg(image: NDArray[np.uint8], quality: int) -> bytes:
    """JPEG bytes of a BGR image at ``quality`` (the camera's or a stream's compression)."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise ValueError(f"JPEG encoding failed for an image of shape {image.shape}")
    return bytes(data.tobytes())


def stream(image: NDArray[np.uint8], setup: Stream) -> NDArray[np.uint8]:
    """``image`` (BGR) as a frame of a compressed video stream: scaled to the stream's size,
    compressed, scaled back. Raises :class:`synth.SynthError` when OpenCV here cannot write the
    codec."""
    height, width = image.shape[:2]
    small = image
    size = (
        max(16, round(width * setup.scale) // 2 * 2),
        max(16, round(height * setup.scale) // 2 * 2),
    )
    if size != (width, height):
        small = np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), dtype=np.uint8)
    if setup.codec == "jpeg":
        coded = _jpeg_420(small, setup.jpeg_quality)
    elif setup.codec in VIDEO_CODECS:
        coded = _video_frame(small, setup.codec)
    else:
        raise SynthError(
            f"stream codec {setup.codec!r} is not one of jpeg, {', '.join(VIDEO_CODECS)}"
        )
    if coded.shape[:2] != (height, width):
        coded = np.asarray(
            cv2.resize(coded, (width, height), interpolation=cv2.INTER_LINEAR), dtype=np.uint8
        )
    return np.ascontiguousarray(coded)


def _jpeg_420(image: NDArray[np.uint8], quality: int) -> NDArray[np.uint8]:
    """Hard JPEG with 4:2:0 chroma: 8x8 blocks and smeared colour edges, as a stream shows."""
    ok, data = cv2.imencode(
        ".jpg",
        image,
        [
            cv2.IMWRITE_JPEG_QUALITY,
            int(quality),
            cv2.IMWRITE_JPEG_SAMPLING_FACTOR,
            cv2.IMWRITE_JPEG_SAMPLING_FACTOR_420,
        ],
    )
    if not ok:
        raise SynthError(f"JPEG encoding failed for an image of shape {image.shape}")
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), dtype=np.uint8)


def video_codec_available(codec: str) -> bool:
    """Whether OpenCV here can write ``codec`` (a key of :data:`VIDEO_CODECS`)."""
    try:
        _video_frame(np.zeros((64, 64, 3), dtype=np.uint8), codec)
    except SynthError:
        return False
    return True


def _video_frame(image: NDArray[np.uint8], codec: str) -> NDArray[np.uint8]:
    """The frame after a round trip through a one-frame video file at the writer's own bit rate."""
    tag, suffix = VIDEO_CODECS[codec]
    height, width = image.shape[:2]
    with tempfile.TemporaryDirectory(prefix="synth-stream-") as folder:
        path = str(Path(folder) / f"frame{suffix}")
        writer = cv2.VideoWriter(
            path, cv2.CAP_FFMPEG, cv2.VideoWriter.fourcc(*tag), 25.0, (width, height)
        )
        if not writer.isOpened():
            raise SynthError(f"OpenCV here cannot write {codec} video (stream compression)")
        writer.write(image)
        writer.release()
        reader = cv2.VideoCapture(path)
        ok, frame = reader.read()
        reader.release()
    if not ok or frame is None or frame.shape != image.shape:
        raise SynthError(f"OpenCV here cannot read back its own {codec} video (stream compression)")
    return np.asarray(frame, dtype=np.uint8)
