"""The doubling cube on a board known by its markers: where it rests and the face it shows.

The marker calibration learns the cube's colour on the starting position
(``Calibration.colours["cube"]``), so :func:`read_cube` looks at each of the cube's resting places
(:data:`sheshbesh.locations.CUBE_PLACES`) in a top-down close-up
(:func:`vision.close_up.board_patch`), takes the one most covered by that colour, and reads its
face by matching the ink against each face drawn by :func:`vision.cube_face.cube_face_image`, in
the four ways the cube can lie. :mod:`vision.reader` calls it for the board's reading.

This is not :mod:`vision.cube`, the reader for a board known by its field corners, which knows no
colour of the cube and reads its digits in several fonts: here the cube's colour and face are
known, and the reading leans on them.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from sheshbesh.locations import CUBE_PLACES
from sheshbesh.observation import CubeReading
from vision.calibration import RECTIFIED_SCALE, Calibration
from vision.close_up import PATCH_SCALE, board_patch
from vision.config import ReaderConfig
from vision.cube_face import cube_face_image
from vision.images import Image
from vision.layout import CUBE_FACES

#: pixels the cube's face may sit off the centre found for it, searched when matching faces
CUBE_SLACK = 3
#: degrees tried about the angle of the cube's outline
CUBE_TILTS = (0.0, -5.0, 5.0)


@lru_cache(maxsize=16)
def _cube_templates(side: int) -> tuple[tuple[int, npt.NDArray[np.float32]], ...]:
    """Ink of each cube face (float 0..1, inner part), in the four ways the cube can lie.

    Softened as a camera softens the face, so that thin strokes compare fairly.
    """
    out = []
    for value in CUBE_FACES:
        face = cube_face_image(value, side)
        grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY).astype(np.float32)
        grey = np.asarray(cv2.GaussianBlur(grey, (0, 0), max(0.6, side / 45)), np.float32)
        ink = (255.0 - grey) / 255.0
        inner = ink[side // 8 : side - side // 8, side // 8 : side - side // 8]
        for turn in range(4):
            out.append((value, np.ascontiguousarray(np.rot90(inner, turn))))
    return tuple(out)


def read_cube(
    image: Image,
    calibration: Calibration,
    config: ReaderConfig,
    gain: npt.NDArray[np.float32] | None = None,
) -> CubeReading | None:
    """Where the cube rests and its face: the resting place whose close-up holds a cube-coloured
    square, read by matching its ink against each face in each of four turns."""
    layout = calibration.layout
    if "cube" not in calibration.colours:
        return None
    body = np.array(calibration.colours["cube"], np.float32)
    body_lab = (
        cv2.cvtColor(body.clip(0, 255).astype(np.uint8).reshape(1, 1, 3), cv2.COLOR_BGR2LAB)
        .reshape(3)
        .astype(np.float32)
    )
    best: tuple[float, str, Image] | None = None
    scale = PATCH_SCALE / 2
    for place in CUBE_PLACES:
        x0, y0, x1, y1 = layout.cube_rect(place)
        centre = ((x0 + x1) / 2, (y0 + y1) / 2)
        patch = board_patch(image, calibration, centre, layout.cube_size * 1.8, scale)
        even = patch
        if gain is not None:  # even out a passing shadow before comparing colours
            u, v = layout.to_pixels(centre[0], centre[1], RECTIFIED_SCALE)
            light = float(gain[min(round(v), gain.shape[0] - 1), min(round(u), gain.shape[1] - 1)])
            even = np.clip(patch.astype(np.float32) / light, 0, 255).astype(np.uint8)
        lab = cv2.cvtColor(even, cv2.COLOR_BGR2LAB).astype(np.float32)
        distance = np.sqrt(
            (((lab - body_lab) * np.array([0.5, 1.0, 1.0], np.float32)) ** 2).sum(axis=2)
        )
        # only the cube's own footprint: beside the bar lies the field, perhaps of the cube's colour
        side = patch.shape[0]
        inner = round(side * 0.7 / 1.8 / 2)
        core = distance[
            side // 2 - inner : side // 2 + inner, side // 2 - inner : side // 2 + inner
        ]
        share = float((core < config.cube_body_distance).mean())
        if best is None or share > best[0]:
            best = (share, place, patch)
    assert best is not None
    share, place, patch = best
    if share < config.cube_presence:
        return None
    value, score = _cube_face(patch, layout.cube_size * scale, body_lab)
    confidence = float(np.clip(share * score, 0.0, 1.0))
    return CubeReading(value, place, round(confidence, 4))


def _cube_face(
    patch: Image, side_pixels: float, body_lab: npt.NDArray[np.float32]
) -> tuple[int, float]:
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float32)
    distance = np.sqrt(
        (((lab - body_lab) * np.array([0.5, 1.0, 1.0], np.float32)) ** 2).sum(axis=2)
    )
    region = (distance < 30).astype(np.uint8)
    side = patch.shape[0]
    reach = round(side * 0.75 / 1.8)  # the cube, turned, and no further
    window = np.zeros_like(region)
    window[side // 2 - reach : side // 2 + reach, side // 2 - reach : side // 2 + reach] = 1
    region &= window
    region = cv2.morphologyEx(region, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return 64, 0.0
    outline = max(contours, key=cv2.contourArea)
    (cx, cy), (w, h), angle = cv2.minAreaRect(outline)
    if not 0.8 <= max(w, h) / side_pixels <= 1.25:
        # run into a field of the cube's colour: the cube lies about the middle of its place
        cx, cy, angle = side / 2, side / 2, 0.0
    side = round(side_pixels)
    slack = CUBE_SLACK
    scores: dict[int, float] = {}
    for tilt in CUBE_TILTS:  # the outline's angle may be a few degrees off
        turn = cv2.getRotationMatrix2D((cx, cy), angle + tilt, 1.0)
        turn[:, 2] += np.array((side / 2 + slack - cx, side / 2 + slack - cy))
        upright = cv2.warpAffine(
            patch,
            turn,
            (side + 2 * slack, side + 2 * slack),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )
        grey = cv2.cvtColor(upright, cv2.COLOR_BGR2GRAY).astype(np.float32)
        inner = grey[
            side // 8 : side - side // 8 + 2 * slack, side // 8 : side - side // 8 + 2 * slack
        ]
        low, high = float(np.percentile(inner, 5)), float(np.percentile(inner, 95))
        ink = np.clip((high - inner) / max(high - low, 1.0), 0, 1).astype(np.float32)
        # each face at its best shift within the slack; the face must beat every other face
        # clearly (2 and 8, 4 and 64 share strokes), else its confidence drops with the margin
        for value, template in _cube_templates(side):
            result = cv2.matchTemplate(ink, template, cv2.TM_CCOEFF_NORMED)
            scores[value] = max(scores.get(value, -1.0), float(result.max()))
        leading = sorted(scores.values(), reverse=True)
        if leading[0] - leading[1] >= 0.1:
            break  # clear enough as it stands
    ranked = sorted(scores.items(), key=lambda item: -item[1])
    best_value, best_score = ranked[0]
    margin = best_score - ranked[1][1]
    best_score *= min(1.0, 0.5 + margin / 0.1)
    return best_value, max(0.0, best_score)
