"""Counting checkers on the rectified board: one public function over the top-down image.

Each possible checker place (a *slot*, see :meth:`vision.layout.BoardLayout.slots`) is tested for a
round rim: rays from the slot's centre must cross a strong edge near the checker's radius. That works
whatever the colours, even a white checker on a cream point. A checker's colour is the nearer of the
two learned checker colours, sampled beside its centre where a checker of the layer above never lies.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from sheshbesh.locations import LOCATIONS, OFF_LOCATIONS, POINT_LOCATIONS
from sheshbesh.observation import LocationCount
from vision.calibration import RECTIFIED_SCALE, Calibration
from vision.config import ReaderConfig
from vision.errors import CalibrationError
from vision.images import Image
from vision.layout import BoardLayout

IntArray = npt.NDArray[np.intp]
FloatArray = npt.NDArray[np.float64]
_ANGLES = 24
#: where along each ray from a slot's centre the profile is sampled, in checker radii
RAY_SPANS = np.linspace(0.15, 1.2, 11)
#: a third-layer checker is seen by its whole rim: the share of rim-like rays above which it
#: counts (``THIRD_RIM``) and how much each ray over or under that weighs (``THIRD_WEIGHT``)
THIRD_RIM = 0.4
THIRD_WEIGHT = 1.0
#: what a reading with a third layer must beat the best reading without one by
THIRD_LAYER_COST = 0.75
#: the highest confidence of a count that rests on checkers hidden under others
HIDDEN_CONFIDENCE = 0.85


@dataclass(frozen=True)
class _Sampling:
    """Precomputed pixel positions for every slot (rectified image coordinates)."""

    locations: tuple[str, ...]
    owner: IntArray  # slot -> index into locations
    layer: IntArray  # slot -> 1 or 2
    centres: FloatArray  # slot -> (x, y) pixels
    radius: FloatArray  # slot -> radius in pixels
    ray_x: IntArray  # slot x angle x radius
    ray_y: IntArray
    side_x: IntArray  # slot x samples: beside the centre (colour)
    side_y: IntArray
    core_x: IntArray  # slot x samples: the centre (colour of a top checker)
    core_y: IntArray
    face_x: IntArray  # slot x samples: the face, inside the rim (pips, if a die lies there)
    face_y: IntArray
    lens_x: IntArray  # slot x samples: on the face near the rim, across the stack (see lens)
    lens_y: IntArray


def _grid(radius: float) -> FloatArray:
    steps = np.linspace(-radius, radius, 4)
    xs, ys = np.meshgrid(steps, steps)
    return np.stack([xs.ravel(), ys.ravel()], axis=1)


@lru_cache(maxsize=8)
def _sampling(layout: BoardLayout, scale: float) -> _Sampling:
    width, height = layout.rectified_size(scale)
    owner, layer, centres, radii = [], [], [], []
    rays_x, rays_y, side_x, side_y, core_x, core_y = [], [], [], [], [], []
    face_x, face_y, lens_x, lens_y = [], [], [], []
    angles = np.linspace(0, 2 * math.pi, _ANGLES, endpoint=False)
    spans = RAY_SPANS
    for index, location in enumerate(LOCATIONS):
        if location in OFF_LOCATIONS:
            continue
        diameter = (
            layout.checker_diameter if location in POINT_LOCATIONS else layout.bar_checker_diameter
        )
        r = diameter / 2 * scale
        for slot_layer, x, y in layout.slots(location):
            cx, cy = layout.to_pixels(x, y, scale)
            owner.append(index)
            layer.append(slot_layer)
            centres.append((cx, cy))
            radii.append(r)
            rx = cx + np.cos(angles)[:, None] * spans[None, :] * r
            ry = cy + np.sin(angles)[:, None] * spans[None, :] * r
            rays_x.append(rx)
            rays_y.append(ry)
            offset = np.array([0.6 * r, 0.0])
            side = np.concatenate([_grid(0.08 * r) - offset, _grid(0.08 * r) + offset])
            side_x.append(cx + side[:, 0])
            side_y.append(cy + side[:, 1])
            core = _grid(0.3 * r)
            core_x.append(cx + core[:, 0])
            core_y.append(cy + core[:, 1])
            face = _grid(0.5 * r)
            face_x.append(cx + face[:, 0])
            face_y.append(cy + face[:, 1])
            # the side away from the shadows (they fall towards +x, +y)
            lens = _grid(0.08 * r) - np.array([0.75 * r, 0.0])
            lens_x.append(cx + lens[:, 0])
            lens_y.append(cy + lens[:, 1])

    def clip(values: list[FloatArray], limit: int) -> IntArray:
        return np.clip(np.rint(np.array(values)), 0, limit - 1).astype(np.intp)

    return _Sampling(
        locations=LOCATIONS,
        owner=np.array(owner, np.intp),
        layer=np.array(layer, np.intp),
        centres=np.array(centres, np.float64),
        radius=np.array(radii, np.float64),
        ray_x=clip(rays_x, width),
        ray_y=clip(rays_y, height),
        side_x=clip(side_x, width),
        side_y=clip(side_y, height),
        core_x=clip(core_x, width),
        core_y=clip(core_y, height),
        face_x=clip(face_x, width),
        face_y=clip(face_y, height),
        lens_x=clip(lens_x, width),
        lens_y=clip(lens_y, height),
    )


def _to_lab(colours: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    pixels = np.clip(colours, 0, 255).astype(np.uint8).reshape(-1, 1, 3)
    return cv2.cvtColor(pixels, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float64)


@dataclass(frozen=True)
class SlotEvidence:
    """What the reader measured at every slot (kept for overlays and tuning)."""

    rim: FloatArray  # evidence of a checker: > 0 seen, < 0 not
    white: npt.NDArray[np.bool_]  # nearer to the white checker colour
    whiteness: FloatArray  # > 0 nearer white, < 0 nearer black, in -1..1
    present: npt.NDArray[np.bool_]
    centres: FloatArray
    radius: FloatArray
    owner: IntArray
    layer: IntArray
    busy: npt.NDArray[np.bool_]  # the centre is not plain: pips, or a checker's rim over it
    colour: FloatArray  # the colour cue alone: > 0 a checker's colour beside the centre
    shape: FloatArray  # the shape cue alone: share of rays that look like a checker's rim
    #: the share of rays whose profile inside the rim (nothing beyond it) looks like a checker's:
    #: a checker lying on others shows its whole rim, though not the board around it
    inner_shape: FloatArray
    #: the colour cue near the rim across the stack, where a second-layer checker stays in view
    #: between the two third-layer checkers lying over its ends
    lens: FloatArray


BACKGROUND_NAMES: tuple[str, ...] = ("tray", "bar", "board", "point-odd", "point-even", "tray")


@lru_cache(maxsize=8)
def background_labels(layout: BoardLayout, scale: float = RECTIFIED_SCALE) -> npt.NDArray[np.uint8]:
    """What an empty board shows at each pixel of the rectified image: an index into
    :data:`BACKGROUND_NAMES` (the rim and the margin count as tray-coloured surroundings)."""
    width, height = layout.rectified_size(scale)
    labels = np.zeros((height, width), np.uint8)

    def poly(points: list[tuple[float, float]]) -> npt.NDArray[np.int32]:
        return (
            np.array([layout.to_pixels(x, y, scale) for x, y in points], np.float64)
            .round()
            .astype(np.int32)
        )

    x0, y0, x1, y1 = layout.field_rect()
    cv2.fillPoly(labels, [poly([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])], 1)
    for hx0, hy0, hx1, hy1 in layout.halves().values():
        cv2.fillPoly(labels, [poly([(hx0, hy0), (hx1, hy0), (hx1, hy1), (hx0, hy1)])], 2)
    for n in range(1, 25):
        px0, py0, px1, py1 = layout.rect(f"p{n}")
        if n <= 12:
            triangle = [(px0, py1), (px1, py1), ((px0 + px1) / 2, py0)]
        else:
            triangle = [(px0, py0), (px1, py0), ((px0 + px1) / 2, py1)]
        cv2.fillPoly(labels, [poly(triangle)], 3 if n % 2 else 4)
    for location in OFF_LOCATIONS:
        tx0, ty0, tx1, ty1 = layout.rect(location)
        cv2.fillPoly(labels, [poly([(tx0, ty0), (tx1, ty0), (tx1, ty1), (tx0, ty1)])], 5)
    return labels


def _lab_pixels(pixels: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    shape = pixels.shape
    lab = (
        cv2.cvtColor(pixels.reshape(-1, 1, 3), cv2.COLOR_BGR2LAB).reshape(shape).astype(np.float32)
    )
    return np.asarray(lab, np.float32)


_WEIGHTS = np.array([0.6, 1.0, 1.0], np.float32)  # lightness varies most with the light
_GREY = np.array([0.114, 0.587, 0.299], np.float32)  # BGR -> grey


def _references(
    calibration: Calibration,
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    try:
        checkers = np.array([calibration.colours[n] for n in ("white", "black")], np.float64)
        background = np.array([calibration.colours[n] for n in BACKGROUND_NAMES], np.float64)
    except KeyError as error:
        raise CalibrationError(
            f"calibration has no learned colour {error}; calibrate on the starting position"
        ) from error
    return _to_lab(checkers).astype(np.float32), _to_lab(background).astype(np.float32)


def _ray_profiles(top: Image, sampling: _Sampling) -> npt.NDArray[np.float32]:
    """slot x angle x (3 * len(RAY_SPANS)): BGR values along each ray, channel by channel."""
    values = top[sampling.ray_y, sampling.ray_x].astype(np.float32)  # slot x angle x span x 3
    return np.ascontiguousarray(
        values.transpose(0, 1, 3, 2).reshape(values.shape[0], values.shape[1], -1)
    )


def _normalise(profiles: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    centred = profiles - profiles.mean(axis=-1, keepdims=True)
    norm = np.sqrt((centred**2).sum(axis=-1, keepdims=True))
    return np.asarray(centred / np.maximum(norm, 8.0), np.float32)


_BLOCK = 16
_reference_blocks: dict[int, tuple[Image, npt.NDArray[np.float32]]] = {}


def _block_grey(image: Image, cols: int, rows: int) -> npt.NDArray[np.float32]:
    small = cv2.resize(image, (cols, rows), interpolation=cv2.INTER_AREA)
    return np.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), np.float32)


def light_change(top: Image, reference: Image) -> npt.NDArray[np.float32]:
    """How much brighter each pixel's light is now than in ``reference`` (H x W float32, 1 = same).

    The ratio of block means, then a median over 5 x 5 blocks twice over, so that checkers and dice
    (which change the picture, not the light) do not count.
    """
    height, width = top.shape[:2]
    rows, cols = height // _BLOCK, width // _BLOCK
    small = _block_grey(top, cols, rows)
    cached = _reference_blocks.get(id(reference))
    if cached is None or cached[0] is not reference:
        _reference_blocks.clear()
        cached = (reference, _block_grey(reference, cols, rows))
        _reference_blocks[id(reference)] = cached
    ratio = (small + 10.0) / (cached[1] + 10.0)
    ratio = cv2.medianBlur(cv2.medianBlur(ratio, 5), 5)
    gain = cv2.resize(ratio, (width, height), interpolation=cv2.INTER_LINEAR)
    return np.asarray(np.clip(gain, 0.4, 2.5), np.float32)


def learn_profiles(
    top: Image, layout: BoardLayout, slots: dict[str, list[int]]
) -> dict[str, list[float]]:
    """The median ray profile of each colour's checkers at known ``slots`` (colour -> slot indices)."""
    sampling = _sampling(layout, RECTIFIED_SCALE)
    profiles = _ray_profiles(top, sampling)
    out: dict[str, list[float]] = {}
    for colour, wanted in slots.items():
        index = np.array(wanted, np.intp)
        out[colour] = [
            float(v) for v in np.median(profiles[index].reshape(-1, profiles.shape[2]), axis=0)
        ]
    return out


def slot_indices(layout: BoardLayout, placed: dict[str, int]) -> list[int]:
    """Indices of the first ``count`` slots at each location of ``placed`` (into the slot table)."""
    sampling = _sampling(layout, RECTIFIED_SCALE)
    out: list[int] = []
    for location, count in placed.items():
        out += [int(i) for i in np.flatnonzero(sampling.owner == LOCATIONS.index(location))[:count]]
    return out


def read_slots(
    top: Image,
    calibration: Calibration,
    config: ReaderConfig | None = None,
    scale: float = RECTIFIED_SCALE,
    gain: npt.NDArray[np.float32] | None = None,
) -> SlotEvidence:
    """Measure every point and bar slot of the rectified image ``top`` (H x W x 3 uint8).

    Two cues, summed into one score per slot (> 0: a checker): the colour beside the slot's centre,
    nearer a checker colour than what the empty board shows there; and the shape, the share of rays
    from the centre whose profile correlates with a checker's (learned at calibration).
    """
    config = config or ReaderConfig()
    sampling = _sampling(calibration.layout, scale)
    try:
        templates = np.array(
            [calibration.profiles["white"], calibration.profiles["black"]], np.float32
        )
    except KeyError as error:
        raise CalibrationError(
            f"calibration has no learned checker profile {error}; calibrate on the starting position"
        ) from error
    profiles = _ray_profiles(top, sampling)
    normalised = _normalise(profiles)
    reference = _normalise(templates)
    scores = np.einsum("sak,ck->sac", normalised, reference).max(axis=2)  # slot x angle
    rim = (scores >= config.ray_match).mean(axis=1)
    # the same inside the rim only (the first spans up to one radius)
    inner = int(np.searchsorted(RAY_SPANS, 1.0))
    spans = RAY_SPANS.size
    short = profiles.reshape(*profiles.shape[:2], 3, spans)[:, :, :, :inner]
    short_reference = _normalise(templates.reshape(2, 3, spans)[:, :, :inner].reshape(2, -1))
    short_scores = np.einsum(
        "sak,ck->sac", _normalise(short.reshape(*profiles.shape[:2], -1)), short_reference
    ).max(axis=2)
    inner_rim = (short_scores >= config.ray_match).mean(axis=1)
    if calibration.reference is not None and gain is None:
        gain = light_change(top, calibration.reference)
    colour_score, whiteness = _colour_cue(
        top, calibration, config, scale, gain, sampling.side_x, sampling.side_y
    )
    lens_score, _ = _colour_cue(
        top, calibration, config, scale, gain, sampling.lens_x, sampling.lens_y
    )
    score = colour_score + config.shape_weight * (rim - config.rim_fraction)
    # the face's spread of grey levels, ignoring the two most extreme samples at each end
    core = top[sampling.face_y, sampling.face_x].astype(np.float32) @ _GREY
    core.sort(axis=1)
    spread = core[:, -3] - core[:, 2]
    return SlotEvidence(
        rim=score.astype(np.float64),
        white=whiteness > 0,
        whiteness=whiteness.astype(np.float64),
        present=score > 0,
        centres=sampling.centres,
        radius=sampling.radius,
        owner=sampling.owner,
        layer=sampling.layer,
        busy=spread > config.plain_face,
        colour=colour_score.astype(np.float64),
        shape=rim.astype(np.float64),
        inner_shape=inner_rim.astype(np.float64),
        lens=lens_score.astype(np.float64),
    )


def _colour_cue(
    top: Image,
    calibration: Calibration,
    config: ReaderConfig,
    scale: float,
    gain: npt.NDArray[np.float32] | None,
    xs: IntArray,
    ys: IntArray,
) -> tuple[FloatArray, FloatArray]:
    """Per slot, from its samples at (``xs``, ``ys``): how much nearer a checker colour than the
    empty board they are (-1..1, weighed by how distinct the board is there), and how much nearer
    white than black (-1..1)."""
    checkers, background = _references(calibration)
    seen = top[ys, xs]
    if calibration.reference is not None and gain is not None:
        light = gain[ys, xs]
        seen = np.clip(seen.astype(np.float32) / light[:, :, None], 0, 255).astype(np.uint8)
    lab = _lab_pixels(seen)  # slot x sample x 3
    if calibration.reference is not None:
        expected = _lab_pixels(calibration.reference[ys, xs])
    else:
        labels = background_labels(calibration.layout, scale)[ys, xs]
        expected = background[labels]
    d_background = np.sqrt((((lab - expected) * _WEIGHTS) ** 2).sum(axis=2)).mean(axis=1)
    mean = lab.mean(axis=1)
    d_white = np.sqrt((((mean - checkers[0]) * _WEIGHTS) ** 2).sum(axis=1))
    d_black = np.sqrt((((mean - checkers[1]) * _WEIGHTS) ** 2).sum(axis=1))
    d_checker = np.minimum(d_white, d_black)
    colour_score = (d_background - d_checker) / (d_background + d_checker + 1e-6)
    # where the empty board looks like a checker, colour cannot tell them apart: trust the shape
    board_mean = expected.mean(axis=1)
    separation = np.minimum(
        np.sqrt((((board_mean - checkers[0]) * _WEIGHTS) ** 2).sum(axis=1)),
        np.sqrt((((board_mean - checkers[1]) * _WEIGHTS) ** 2).sum(axis=1)),
    )
    colour_score = colour_score * np.clip(separation / config.colour_separation, 0.0, 1.0)
    whiteness = (d_black - d_white) / (d_black + d_white + 1e-6)
    return np.asarray(colour_score, np.float64), np.asarray(whiteness, np.float64)


def _confidence(scores: FloatArray) -> float:
    if scores.size == 0:
        return 1.0
    return round(min(1.0, 0.5 + float(np.min(np.abs(scores)))), 4)


def count_checkers(
    top: Image,
    calibration: Calibration,
    config: ReaderConfig | None = None,
    gain: npt.NDArray[np.float32] | None = None,
) -> tuple[dict[str, LocationCount], SlotEvidence]:
    """Checkers of each colour at each location of the rectified image ``top``.

    Points: the first row counts from the base; a second-layer checker over a gap also proves the
    two checkers under it. Bars: from the outer edge. Trays: see :func:`count_tray`.
    ``gain`` is :func:`light_change` of ``top`` if already known. Returns the counts (every name
    in LOCATIONS) and the per-slot evidence.
    """
    config = config or ReaderConfig()
    if gain is None and calibration.reference is not None:
        gain = light_change(top, calibration.reference)
    evidence = read_slots(top, calibration, config, gain=gain)
    present = np.zeros_like(evidence.present)
    counts: dict[str, LocationCount] = {}
    for index, location in enumerate(LOCATIONS):
        if location in OFF_LOCATIONS:
            counts[location] = count_tray(top, calibration, location, gain)
            continue
        slots = np.flatnonzero(evidence.owner == index)
        layers = evidence.layer[slots]
        first, second, third = slots[layers == 1], slots[layers == 2], slots[layers == 3]
        first_scores, second_scores = evidence.rim[first], evidence.rim[second]
        if second.size:
            # one point holds one colour: a second-layer checker unlike the row under it is doubtful
            seen_above = second_scores > 0
            row_colour = np.sign(
                evidence.whiteness[first].sum() + evidence.whiteness[second][seen_above].sum()
            )
            unlike = np.sign(evidence.whiteness[second]) != row_colour
            # a checker's face is plain unless a second-layer checker lies on it; a die's is not
            second_scores = (
                second_scores
                - config.mixed_penalty * unlike
                - config.die_face_penalty * evidence.busy[second]
            )
            if not (second_scores > 0).any():
                # no second layer seen: nothing lies over the first row to break its faces
                first_scores = first_scores - config.die_face_penalty * evidence.busy[first]
        n_first, n_second = _best_stack(first_scores, second_scores)
        n_third, margin = 0, math.inf
        if third.size:
            n_first, n_second, n_third, margin = _third_layer(
                evidence, first_scores, second_scores, (n_first, n_second), second, third
            )
        chosen = list(first[:n_first]) + list(second[:n_second]) + list(third[:n_third])
        present[chosen] = True
        seen = np.array(chosen, np.intp)
        white = _white_count(evidence.whiteness[seen])
        black = int(seen.size - white)
        decided = (
            np.concatenate([first, second[: max(1, n_second + 1)]])
            if n_first == first.size
            else first
        )
        confidence = _confidence(evidence.rim[decided])
        if second.size and n_second == second.size:
            # a full second layer hides most of the first row, a third layer most of the second:
            # the count rests on a few rims seen whole or not, so it is never sure (the referee
            # settles it from the fifteen checkers a side when it must)
            confidence = min(confidence, HIDDEN_CONFIDENCE)
        confidence = min(confidence, _confidence_of(margin))
        counts[location] = LocationCount(white, black, confidence, confidence)
    evidence = replace(evidence, present=present)
    return counts, evidence


def _third_layer(
    evidence: SlotEvidence,
    first_scores: FloatArray,
    second_scores: FloatArray,
    choice: tuple[int, int],
    second: IntArray,
    third: IntArray,
) -> tuple[int, int, int, float]:
    """The stack's checkers per layer, third layer included: (first, second, third, margin).

    ``choice`` is the best reading without a third layer (:func:`_best_stack`); it competes with
    full rows under one to five third-layer checkers, each reading scored on the same evidence.
    A third-layer checker lies on a first-row checker, covering half of each second-layer checker
    beside it. From above it shows a whole rim where, under a second layer, a first-row checker
    shows only its sides (``inner_shape``); a second-layer checker it covers loses its rim but
    stays in view across the stack (``lens``), where without a second layer the board shows.
    ``margin`` is how much the best reading beats the next one, in score units.
    """
    third_scores = THIRD_WEIGHT * (evidence.inner_shape[third] - THIRD_RIM)
    lens = evidence.lens[second]

    def value(n_first: int, n_second: int, n_third: int) -> float:
        total = float(_prefix_gains(first_scores)[n_first])
        for j, (score, across) in enumerate(zip(second_scores, lens, strict=True)):
            if j >= n_second:
                total -= float(score + across)
            elif j < n_third:  # covered by a third-layer checker: its rim is hidden
                total += float(across - score)
            else:
                total += float(score + across)
        for k, score in enumerate(third_scores):
            if k >= n_first:
                continue  # an empty place says nothing of rims (the bar's edges look like one)
            # a whole rim: a third-layer checker, or a first-row one with nothing over its ends
            under_second = n_second >= max(k, 1)
            whole = k < n_third or not under_second
            total += float(score if whole else -score)
        return total

    n_first, n_second = choice
    if n_first < first_scores.size:
        n_second = 0
    readings = [(n_first, n_second, 0)] + [
        (first_scores.size, second_scores.size, n) for n in range(1, third.size + 1)
    ]
    # tall stacks are rare: a third layer must beat the reading without one clearly
    values = [value(*reading) - (THIRD_LAYER_COST if reading[2] else 0.0) for reading in readings]
    best = int(np.argmax(values))
    ranked = sorted(values, reverse=True)
    return (*readings[best], ranked[0] - ranked[1])


def _confidence_of(margin: float) -> float:
    """A confidence from how much the chosen stack beats the next best (``inf``: no rival)."""
    return 1.0 if not math.isfinite(margin) else round(min(1.0, 0.5 + margin / 2), 4)


#: a checker whose colour is this unsure follows the rest of its stack
_COLOUR_DOUBT = 0.7


def _white_count(whiteness: FloatArray) -> int:
    """White checkers in a stack; a doubtful one takes the colour the stack as a whole shows."""
    if whiteness.size == 0:
        return 0
    stack_is_white = float(whiteness.sum()) > 0
    sure = np.abs(whiteness) >= _COLOUR_DOUBT
    white = np.where(sure, whiteness > 0, stack_is_white)
    return int(white.sum())


def _prefix_gains(scores: FloatArray) -> FloatArray:
    """For each n: sum(s[:n]) - sum(s[n:]), how well "n checkers from the base" fits."""
    totals = np.concatenate([[0.0], np.cumsum(scores)])
    return np.asarray(2 * totals - totals[-1], np.float64)


def _best_stack(first: FloatArray, second: FloatArray) -> tuple[int, int]:
    """Checkers in the first row and in the second layer that best fit the slot scores.

    The second layer exists only over a full first row, so it weighs in on the first row's count.
    """
    gains = _prefix_gains(first)
    if second.size == 0:
        return int(np.argmax(gains)), 0
    second_gains = _prefix_gains(second)
    options = gains.copy()
    options[:-1] += second_gains[0]  # an incomplete row carries nothing
    options[-1] += second_gains.max()
    n_first = int(np.argmax(options))
    n_second = int(np.argmax(second_gains)) if n_first == first.size else 0
    return n_first, n_second


def _best_prefix(scores: FloatArray) -> int:
    """How many slots from the base hold checkers: the n maximising sum(s[:n]) - sum(s[n:])."""
    if scores.size == 0:
        return 0
    totals = np.concatenate([[0.0], np.cumsum(scores)])
    gains = 2 * totals - totals[-1]
    return int(np.argmax(gains))


_TRAY_LEAN = 0.3


def _pitch_texture(image: Image, layout: BoardLayout, location: str, scale: float) -> FloatArray:
    """Per tray pitch, the spread of grey levels along the tray's length across that pitch."""
    x0, _, x1, _ = layout.rect(location)
    pitch = layout.tray_pitch
    offsets = np.linspace(-0.5, 0.5, 9) * pitch
    columns = np.array([-0.2, 0.0, 0.2]) * (x1 - x0)
    height, width = image.shape[:2]
    out = []
    for _, x, y in layout.slots(location):
        xs = np.array([layout.to_pixels(x + c, y, scale)[0] for c in columns])
        ys = np.array([layout.to_pixels(x, y + o, scale)[1] for o in offsets])
        ix = np.clip(np.rint(xs), 0, width - 1).astype(np.intp)
        iy = np.clip(np.rint(ys), 0, height - 1).astype(np.intp)
        grey = image[iy[:, None], ix[None, :]].astype(np.float64).mean(axis=2)
        out.append(float(grey.std(axis=0).mean()))
    return np.array(out)


def count_tray(
    top: Image,
    calibration: Calibration,
    location: str,
    gain: npt.NDArray[np.float32] | None = None,
    scale: float = RECTIFIED_SCALE,
) -> LocationCount:
    """Checkers standing on edge in a bear-off tray: each pitch is empty tray, white or black.

    A pitch is compared with the empty tray of the calibration (``gain``: the light's change, see
    :func:`light_change`) and with both checker colours; the count is the best prefix from the
    tray's outer end.
    """
    layout = calibration.layout
    x0, _, x1, _ = layout.rect(location)
    half_width = (x1 - x0) * 0.3 * scale
    half_height = layout.tray_pitch * 0.25 * scale
    xs, ys = [], []
    for _, x, y in layout.slots(location):
        u, v = layout.to_pixels(x, y, scale)
        grid_x, grid_y = np.meshgrid(
            np.linspace(u - half_width, u + half_width, 7),
            np.linspace(v - half_height, v + half_height, 3),
        )
        xs.append(grid_x.ravel())
        ys.append(grid_y.ravel())
    height, width = top.shape[:2]
    ix = np.clip(np.rint(np.array(xs)), 0, width - 1).astype(np.intp)
    iy = np.clip(np.rint(np.array(ys)), 0, height - 1).astype(np.intp)
    checkers, background = _references(calibration)
    raw = top[iy, ix]
    raw_mean = _lab_pixels(raw).mean(axis=1)
    if calibration.reference is not None:
        light = gain[iy, ix] if gain is not None else np.ones(ix.shape, np.float32)
        corrected = np.clip(raw.astype(np.float32) / light[:, :, None], 0, 255).astype(np.uint8)
        lab = _lab_pixels(corrected).mean(axis=1)
        empty = _lab_pixels(calibration.reference[iy, ix]).mean(axis=1)
    else:
        lab = raw_mean
        empty = np.repeat(background[BACKGROUND_NAMES.index("tray")][None, :], len(xs), axis=0)
    d_empty = np.sqrt((((lab - empty) * _WEIGHTS) ** 2).sum(axis=1))
    d_white = np.sqrt((((raw_mean - checkers[0]) * _WEIGHTS) ** 2).sum(axis=1))
    d_black = np.sqrt((((raw_mean - checkers[1]) * _WEIGHTS) ** 2).sum(axis=1))
    d_checker = np.minimum(
        np.sqrt((((lab - checkers[0]) * _WEIGHTS) ** 2).sum(axis=1)),
        np.sqrt((((lab - checkers[1]) * _WEIGHTS) ** 2).sum(axis=1)),
    )
    score = (d_empty - d_checker) / (d_empty + d_checker + 1e-6)
    if calibration.reference is not None:
        # a checker on edge shows its rims across the pitch; an empty tray is plain
        score = score + np.clip(
            0.04
            * (
                _pitch_texture(top, layout, location, scale)
                - _pitch_texture(calibration.reference, layout, location, scale)
            ),
            -0.5,
            0.5,
        )
    count = _best_prefix(score)
    whiteness = (d_black - d_white) / (d_black + d_white + 1e-6)
    # a tray holds its owner's checkers: lean that way when the colour is in doubt
    whiteness = whiteness + (_TRAY_LEAN if location == "off-white" else -_TRAY_LEAN)
    white = _white_count(whiteness[:count])
    confidence = _confidence(score)
    return LocationCount(white, count - white, confidence, confidence)
