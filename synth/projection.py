"""The camera model shared by the labels and the post effects: a Blender pinhole camera plus radial
lens distortion applied afterwards in image space.

World coordinates are metres: x to the right of the board (as White sees it), y towards Black
(the top of the image), z up; the playing field's surface is z = 0. The camera follows Blender's
convention: it looks along its local -z, its local +y is the image's up.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

Vec3 = tuple[float, float, float]

#: Blender's default sensor width in millimetres, fitted to the image width (landscape images).
SENSOR_WIDTH_MM = 36.0


def look_at(location: Vec3, target: Vec3, roll_deg: float) -> NDArray[np.float64]:
    """Rotation matrix (columns: camera right, up, back) of a camera at ``location`` aimed at ``target``.

    The world's +y is the "up" hint, so the board's top (Black's side) stays at the image's top;
    ``roll_deg`` turns the camera about its viewing axis.
    """
    eye = np.asarray(location, dtype=np.float64)
    forward = np.asarray(target, dtype=np.float64) - eye
    forward /= np.linalg.norm(forward)
    right = np.cross(forward, np.array([0.0, 1.0, 0.0]))
    right /= np.linalg.norm(right)
    up = np.cross(right, forward)
    roll = math.radians(roll_deg)
    right, up = (
        math.cos(roll) * right + math.sin(roll) * up,
        -math.sin(roll) * right + math.cos(roll) * up,
    )
    return np.stack([right, up, -forward], axis=1)


def focal_pixels(lens_mm: float, width: int) -> float:
    """Focal length in pixels for Blender's automatic sensor fit on a landscape image."""
    return lens_mm / SENSOR_WIDTH_MM * width


def project(
    points: NDArray[np.float64] | Sequence[Vec3],
    location: Vec3,
    rotation: NDArray[np.float64],
    lens_mm: float,
    width: int,
    height: int,
) -> NDArray[np.float64]:
    """Pixel coordinates (N x 2, float64; origin at the top-left corner) of world points (N x 3),
    before lens distortion. Points behind the camera come back as NaN."""
    world = np.asarray(points, dtype=np.float64).reshape(-1, 3)
    local = (world - np.asarray(location, dtype=np.float64)) @ rotation
    depth = -local[:, 2]
    f = focal_pixels(lens_mm, width)
    with np.errstate(divide="ignore", invalid="ignore"):
        x = width / 2 + f * local[:, 0] / depth
        y = height / 2 - f * local[:, 1] / depth
    out = np.stack([x, y], axis=1)
    out[depth <= 0] = np.nan
    return out


def distortion_scale(k1: float, width: int, height: int, focal: float) -> float:
    """Zoom that keeps the distorted image's corners inside the rendered one (no black borders)."""
    corner = math.hypot(width / 2, height / 2) / focal
    return min(1.0, 1.0 / (1.0 + k1 * corner * corner)) if k1 > 0 else 1.0


def undistorted_from_distorted(
    points: NDArray[np.float64], k1: float, width: int, height: int, focal: float
) -> NDArray[np.float64]:
    """Where the distorted image's pixel ``points`` (N x 2) sample the rendered (ideal) image.

    The model is defined in this direction, ``p_u = c + s (p_d - c)(1 + k1 r_d^2)`` with ``r_d`` in
    focal units, so the post effect is one ``cv2.remap`` and only labels need the inverse.
    """
    centre = np.array([width / 2, height / 2])
    scale = distortion_scale(k1, width, height, focal)
    offset = points - centre
    r2 = np.sum((offset / focal) ** 2, axis=1, keepdims=True)
    return np.asarray(centre + scale * offset * (1.0 + k1 * r2), dtype=np.float64)


def distort(
    points: NDArray[np.float64], k1: float, width: int, height: int, focal: float
) -> NDArray[np.float64]:
    """Inverse of :func:`undistorted_from_distorted`: where ideal pixels land in the distorted image."""
    if k1 == 0.0:
        return np.asarray(points, dtype=np.float64)
    centre = np.array([width / 2, height / 2])
    scale = distortion_scale(k1, width, height, focal)
    target = (points - centre) / scale
    guess = target.copy()
    for _ in range(50):  # fixed point; converges fast for |k1| r^2 well below 1
        r2 = np.sum((guess / focal) ** 2, axis=1, keepdims=True)
        guess = target / (1.0 + k1 * r2)
    return np.asarray(centre + guess, dtype=np.float64)
