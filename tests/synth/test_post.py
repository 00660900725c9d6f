"""The camera's faults (numpy/OpenCV only): they must keep labelled points where the labels say;
the video-stream compression of generation 2."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from synth import SynthError
from synth.post import VIDEO_CODECS, develop, encode_jpeg, stream, video_codec_available
from synth.projection import distort, focal_pixels
from synth.scene import PostEffects, Stream

PLAIN = PostEffects(
    exposure_ev=0.0,
    white_balance=(1.0, 1.0, 1.0),
    grey_world=0.0,
    noise=0.0,
    blur_px=0.0,
    blur_angle=0.0,
    k1=0.0,
    jpeg_quality=90,
    seed=1,
)


def _spot_scene(width: int, height: int, spot: tuple[int, int]) -> np.ndarray:
    linear = np.full((height, width, 3), 0.05, dtype=np.float32)
    x, y = spot
    linear[y - 2 : y + 3, x - 2 : x + 3] = 5.0
    return linear


def _brightest(image: np.ndarray) -> np.ndarray:
    grey = image.astype(np.float64).sum(axis=2)
    ys, xs = np.nonzero(grey >= grey.max() - 1)
    return np.array([xs.mean() + 0.5, ys.mean() + 0.5])


def test_develop_gives_a_bgr_image_of_the_render_size_and_is_repeatable() -> None:
    linear = np.random.default_rng(3).uniform(0, 2, size=(90, 160, 3)).astype(np.float32)
    post = dataclasses.replace(PLAIN, noise=3.0, blur_px=2.0, k1=-0.08)
    first = develop(linear, post, 28.0)
    assert first.shape == (90, 160, 3) and first.dtype == np.uint8
    assert np.array_equal(first, develop(linear, post, 28.0))
    assert encode_jpeg(first, 90)[:2] == b"\xff\xd8"


def test_red_light_stays_red_and_a_warm_cast_is_only_partly_corrected() -> None:
    linear = np.zeros((40, 40, 3), dtype=np.float32)
    linear[:, :20] = (0.4, 0.05, 0.03)
    linear[:, 20:] = (0.3, 0.3, 0.3)
    image = develop(linear, dataclasses.replace(PLAIN, grey_world=0.5), 28.0)
    blue, green, red = image[20, 5].astype(int)
    assert red > green + 60 and red > blue + 60


def test_lens_distortion_moves_points_as_the_labels_do() -> None:
    width, height, lens = 320, 180, 24.0
    spot = (290, 30)
    for k1 in (-0.12, 0.06):
        image = develop(_spot_scene(width, height, spot), dataclasses.replace(PLAIN, k1=k1), lens)
        expected = distort(
            np.array([[spot[0] + 0.5, spot[1] + 0.5]]), k1, width, height, focal_pixels(lens, width)
        )[0]
        assert np.linalg.norm(_brightest(image) - expected) < 1.5, k1
        assert np.linalg.norm(expected - (spot[0] + 0.5, spot[1] + 0.5)) > 2.0


def _chart() -> np.ndarray:
    """A BGR test card: grey, with a one-pixel red line and a fine black-and-white grid."""
    image = np.full((96, 160, 3), 128, dtype=np.uint8)
    image[:, 40] = (0, 0, 255)
    image[20:60, 80:140:2] = 0
    image[20:60, 81:140:2] = 255
    return image


def test_a_jpeg_stream_frame_smears_colour_and_fine_detail_repeatably() -> None:
    image = _chart()
    setup = Stream(codec="jpeg", scale=1.0, jpeg_quality=25)
    first = stream(image, setup)
    assert first.shape == image.shape and first.dtype == np.uint8
    assert np.array_equal(first, stream(image, setup))
    # 4:2:0 chroma: the red line's colour spreads onto its neighbours.
    neighbour = first[48, 42].astype(int)
    assert neighbour[2] - neighbour[1] > 8
    # A half-size stream loses the one-pixel grid that a full-size one keeps more of.
    half = stream(image, dataclasses.replace(setup, scale=0.5, jpeg_quality=90))
    assert float(half[20:60, 80:140].std()) < 0.5 * float(image[20:60, 80:140].std())


@pytest.mark.parametrize("codec", sorted(VIDEO_CODECS))
def test_a_video_stream_frame_is_a_compressed_copy(codec: str) -> None:
    if not video_codec_available(codec):
        pytest.skip(f"OpenCV here cannot write {codec} video")
    rng = np.random.default_rng(5)
    image = cv2.GaussianBlur(rng.integers(0, 256, (180, 320, 3), dtype=np.uint8), (0, 0), 3)
    setup = Stream(codec=codec, scale=1.0, jpeg_quality=30)
    frame = stream(image, setup)
    assert frame.shape == image.shape
    error = float(np.abs(frame.astype(int) - image.astype(int)).mean())
    assert 0.2 < error < 20.0
    assert np.array_equal(frame, stream(image, setup))


def test_an_unknown_stream_codec_is_a_clear_error() -> None:
    with pytest.raises(SynthError, match="stream codec 'h265'"):
        stream(_chart(), Stream(codec="h265", scale=1.0, jpeg_quality=30))
