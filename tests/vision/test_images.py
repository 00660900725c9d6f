"""Image loading and checking: missing, corrupt and misshapen inputs get clear errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.errors import ImageError, VisionError
from vision.images import check_image, load_image


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ImageError, match="does not exist"):
        load_image(tmp_path / "absent.png")


@pytest.mark.parametrize("content", [b"", b"garbage bytes", b"\xff\xd8\xff\xe0 truncated jpeg"])
def test_corrupt_file(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.jpg"
    path.write_bytes(content)
    with pytest.raises(ImageError, match="could not be decoded"):
        load_image(path)


def test_errors_belong_to_the_family() -> None:
    assert issubclass(ImageError, VisionError) and issubclass(ImageError, ValueError)


@pytest.mark.parametrize(
    ("image", "message"),
    [
        ("a string", "not a numpy array"),
        (np.zeros((10, 10, 3), np.float64), "dtype"),
        (np.zeros((10, 10, 3), np.uint8), "too small"),
        (np.zeros((30, 30, 2), np.uint8), "shape"),
    ],
)
def test_check_image_refuses(image: object, message: str) -> None:
    with pytest.raises(ImageError, match=message):
        check_image(image)


def test_check_image_converts_grey_and_bgra() -> None:
    assert check_image(np.zeros((20, 20), np.uint8)).shape == (20, 20, 3)
    assert check_image(np.zeros((20, 20, 4), np.uint8)).shape == (20, 20, 3)
