"""Loading and checking images: every public vision function takes BGR uint8 arrays."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import ImageError

Image = npt.NDArray[np.uint8]


def load_image(path: str | Path) -> Image:
    """Read an image file as BGR uint8; raises :class:`ImageError` if missing or undecodable."""
    file = Path(path)
    if not file.is_file():
        raise ImageError(f"image {str(file)!r} does not exist or is not a file")
    data = np.fromfile(file, dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise ImageError(f"image {str(file)!r} could not be decoded (corrupt or not an image)")
    return np.ascontiguousarray(image, dtype=np.uint8)


def check_image(image: object, name: str = "image") -> Image:
    """Return ``image`` as a BGR uint8 array of shape (H, W, 3); raises :class:`ImageError` if not."""
    if not isinstance(image, np.ndarray):
        raise ImageError(f"{name} is a {type(image).__name__}, not a numpy array")
    if image.dtype != np.uint8:
        raise ImageError(f"{name} has dtype {image.dtype}, expected uint8")
    if image.ndim == 2:
        return np.ascontiguousarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    if image.ndim != 3 or image.shape[2] not in (3, 4):
        raise ImageError(f"{name} has shape {image.shape}, expected (H, W, 3)")
    if image.shape[0] < 16 or image.shape[1] < 16:
        raise ImageError(f"{name} of shape {image.shape} is too small to read")
    if image.shape[2] == 4:
        return np.ascontiguousarray(cv2.cvtColor(image, cv2.COLOR_BGRA2BGR), dtype=np.uint8)
    return image


def lab_distance(a: npt.ArrayLike, b: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Lab distance (OpenCV's 8-bit scale, last axis L, a, b) with lightness counted half: light
    and shade move it more than hue."""
    difference = (np.asarray(a, np.float64) - np.asarray(b, np.float64)) * np.array([0.5, 1.0, 1.0])
    return np.asarray(np.sqrt((difference**2).sum(axis=-1)), np.float64)
