"""Development data for the dice reader: families of labelled dice images, made reproducibly.

The public real photos show one kind of die only (white, black pips, one wood desk, one camera), so
a reader tuned on them alone learns that desk and that camera. This module makes the other kinds from
a seed, with no files written:

* ``real`` — the public photos as they are (report only: they were tuned on before);
* ``real-tinted`` — the same photos with each die's body recoloured (ivory, yellow, pink, green,
  red, blue...), its pips kept dark;
* ``real-degraded`` — the same photos smaller (down to a quarter of the pixels, a 16:9 crop), blurred,
  noisy, JPEG-compressed or turned;
* ``drawn`` — dice drawn here with OpenCV: rounded faces of either polarity (light with dark pips,
  dark or coloured with light pips, tinted see-through bodies), shading, perspective with a side face
  showing, touching pairs, small dice, a die cocked against a checker;
* ``real-dark`` and ``real-inverted`` — HELD OUT, never used for tuning: each die of a real photo
  made dark with light pips on the unchanged desk, and the whole photo inverted (a dark die with light
  pips on a dark desk).

Each sample carries the pips of every flat die in it; a cocked die is listed in ``cocked`` (the photo
reader need not read it, and must not invent a flat die in its place).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.images import Image, load_image

TUNING = ("real-tinted", "real-degraded", "drawn")
HELD_OUT = ("real-dark", "real-inverted")
FAMILIES = ("real", *TUNING, *HELD_OUT)

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Sample:
    """One labelled image: its family, a name that says how it was made, and the dice in it."""

    family: str
    name: str
    image: Image
    pips: tuple[int, ...]
    boxes: tuple[Box, ...] = ()
    cocked: int = 0
    notes: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class RealPhoto:
    """A public photo with its YOLO labels (pips and the box around the top face's pips)."""

    name: str
    image: Image
    pips: tuple[int, ...]
    boxes: tuple[Box, ...]


def real_photos(folder: Path) -> list[RealPhoto]:
    """The labelled photos of ``folder`` (``images/*.jpg`` with ``labels/*.txt``), by name."""
    photos = []
    for path in sorted((folder / "images").glob("*.jpg")):
        image = load_image(path)
        height, width = image.shape[:2]
        pips, boxes = [], []
        for line in (folder / "labels" / f"{path.stem}.txt").read_text().splitlines():
            if not line.strip():
                continue
            c, x, y, w, h = (float(v) for v in line.split())
            pips.append(int(c) + 1)
            boxes.append(
                (
                    round((x - w / 2) * width),
                    round((y - h / 2) * height),
                    round(w * width),
                    round(h * height),
                )
            )
        photos.append(RealPhoto(path.stem, image, tuple(pips), tuple(boxes)))
    return photos


def _table(channel: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    height, width = channel.shape
    small = cv2.resize(
        channel, (max(1, width // 4), max(1, height // 4)), interpolation=cv2.INTER_AREA
    )
    small = cv2.medianBlur(small, 31)
    return np.asarray(cv2.resize(small, (width, height)), np.float32)


def die_masks(photo: RealPhoto) -> list[npt.NDArray[np.float32]]:
    """A soft mask (0..1) of each labelled die's body, grown from its label box.

    The public dice are whiter than the desk and less yellow; the body is the connected part of
    that, near the label, with its pips filled in.
    """
    lab = cv2.cvtColor(photo.image, cv2.COLOR_BGR2LAB)
    lightness = np.ascontiguousarray(lab[:, :, 0], np.uint8)
    yellow = np.ascontiguousarray(lab[:, :, 2], np.uint8)
    score = np.maximum(lightness.astype(np.float32) - _table(lightness), 0) + 1.5 * (
        _table(yellow) - yellow.astype(np.float32)
    )
    dark = (cv2.medianBlur(lightness, 9).astype(np.float32) - lightness) > 30
    body = ((score > 9) | dark).astype(np.uint8)
    body = np.asarray(cv2.morphologyEx(body, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8)), np.uint8)
    body = cv2.morphologyEx(
        body, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
    )
    height, width = lightness.shape
    masks = []
    for x, y, w, h in photo.boxes:
        cx, cy = x + w / 2, y + h / 2
        half = max(2.0 * max(w, h), 0.07 * width)
        x0, x1 = max(0, int(cx - half)), min(width, int(cx + half) + 1)
        y0, y1 = max(0, int(cy - half)), min(height, int(cy + half) + 1)
        window = np.zeros_like(body)
        window[y0:y1, x0:x1] = body[y0:y1, x0:x1]
        count, labels = cv2.connectedComponents(window)
        inner = labels[max(0, y) : y + h + 1, max(0, x) : x + w + 1]
        found = np.bincount(inner.ravel(), minlength=count)
        found[0] = 0
        mask = np.zeros((height, width), np.uint8)
        if found.max() > 0:
            mask[labels == int(found.argmax())] = 255
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        cv2.drawContours(mask, contours, -1, 255, cv2.FILLED)  # the pips inside belong to it
        mask = _grown(photo.image, mask, (x0, y0, x1, y1))
        soft = cv2.GaussianBlur(mask.astype(np.float32) / 255, (5, 5), 1.2)
        masks.append(np.asarray(soft, np.float32))
    return masks


def _grown(
    image: Image, seed: npt.NDArray[np.uint8], window: tuple[int, int, int, int]
) -> npt.NDArray[np.uint8]:
    """The whole die from its whitest part: GrabCut inside the window, seeded by ``seed``.

    Side faces in shade are no lighter than the desk, so the first mask misses them; colour models
    of die and desk (GrabCut) find them.
    """
    if not seed.any():
        return seed
    ys, xs = np.nonzero(seed)
    size = max(int(xs.max() - xs.min()), int(ys.max() - ys.min()), 4)
    gx0, gy0 = max(0, int(xs.min()) - size), max(0, int(ys.min()) - size)
    gx1, gy1 = min(image.shape[1], int(xs.max()) + size), min(image.shape[0], int(ys.max()) + size)
    crop = np.ascontiguousarray(image[gy0:gy1, gx0:gx1])
    local = seed[gy0:gy1, gx0:gx1]
    labels = np.full(local.shape, cv2.GC_BGD, np.uint8)
    near = cv2.dilate(local, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size // 2 * 2 + 1,) * 2))
    labels[near > 0] = cv2.GC_PR_BGD
    labels[local > 0] = cv2.GC_PR_FGD
    labels[cv2.erode(local, np.ones((5, 5), np.uint8)) > 0] = cv2.GC_FGD
    background = np.zeros((1, 65), np.float64)
    foreground = np.zeros((1, 65), np.float64)
    cv2.grabCut(crop, labels, (0, 0, 1, 1), background, foreground, 4, cv2.GC_INIT_WITH_MASK)
    out = np.zeros_like(seed)
    grown = ((labels == cv2.GC_FGD) | (labels == cv2.GC_PR_FGD)).astype(np.uint8) * 255
    count, parts = cv2.connectedComponents(grown)
    if count > 1:
        keep = np.bincount(parts[local > 0].ravel(), minlength=count)
        keep[0] = 0
        grown = np.where(parts == int(keep.argmax()), 255, 0).astype(np.uint8)
    out[gy0:gy1, gx0:gx1] = grown
    contours, _ = cv2.findContours(out, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(out, contours, -1, 255, cv2.FILLED)
    return out


LIGHT_TINTS = [(235, 245, 250), (120, 230, 250), (200, 170, 250), (170, 240, 180), (250, 220, 180)]
STRONG_TINTS = [(60, 60, 220), (70, 170, 60), (200, 110, 40), (40, 180, 230), (150, 80, 160)]
DARK_BODIES = [
    (35, 35, 35),
    (40, 40, 170),
    (140, 60, 20),
    (30, 110, 30),
    (90, 20, 80),
    (25, 25, 70),
]
LIGHT_PIPS = [(245, 245, 245), (230, 235, 240), (120, 215, 235)]


def _recolour(photo: RealPhoto, rng: np.random.Generator, dark: bool) -> tuple[Image, list[str]]:
    image = photo.image.astype(np.float32)
    lightness = cv2.cvtColor(photo.image, cv2.COLOR_BGR2LAB)[:, :, 0].astype(np.float32)
    out = image.copy()
    names = []
    for mask in die_masks(photo):
        inside = mask > 0.5
        if not inside.any():
            continue
        body_l = float(np.percentile(lightness[inside], 75))
        if dark:
            body = np.array(DARK_BODIES[rng.integers(len(DARK_BODIES))], np.float32)
            pip = np.array(LIGHT_PIPS[rng.integers(len(LIGHT_PIPS))], np.float32)
            # how pip-like each pixel is: 0 on the body, 1 in a pip's middle
            weight = np.clip((body_l - 60 - lightness) / 60, 0, 1)[..., None]
            shade = np.clip(lightness / body_l, 0.4, 1.3)[..., None]
            die = body * shade * (1 - weight) + pip * weight
            names.append("dark")
        else:
            tints = LIGHT_TINTS if rng.random() < 0.6 else STRONG_TINTS
            tint = np.array(tints[rng.integers(len(tints))], np.float32) / 255
            die = image * tint
            names.append("tint")
        m = mask[..., None]
        out = out * (1 - m) + die * m
    return np.clip(out, 0, 255).astype(np.uint8), names


def _degrade(photo: RealPhoto, rng: np.random.Generator) -> tuple[Image, tuple[Box, ...], str]:
    image, boxes = photo.image, photo.boxes
    kind = ["small", "wide", "blur", "noise", "jpeg", "turn"][rng.integers(6)]
    if kind == "small":  # fewer pixels: each die a third to a half as wide
        factor = float(rng.uniform(0.35, 0.55))
        image = np.asarray(
            cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA), np.uint8
        )
        boxes = tuple(tuple(round(v * factor) for v in b) for b in boxes)  # type: ignore[misc]
    elif kind == "wide":  # a 16:9 strip holding every die, shown at 640x360 or less
        height, width = image.shape[:2]
        strip = round(width * 9 / 16)
        top_needed = min(b[1] for b in boxes) - 20
        bottom_needed = max(b[1] + b[3] for b in boxes) + 20
        top = int(np.clip((top_needed + bottom_needed - strip) // 2, 0, height - strip))
        image = image[top : top + strip]
        factor = float(rng.uniform(0.6, 1.0))
        image = np.asarray(
            cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA), np.uint8
        )
        boxes = tuple(
            (
                round(b[0] * factor),
                round((b[1] - top) * factor),
                round(b[2] * factor),
                round(b[3] * factor),
            )
            for b in boxes
        )
    elif kind == "blur":
        sigma = float(rng.uniform(1.0, 2.2))
        image = np.asarray(cv2.GaussianBlur(image, (0, 0), sigma), np.uint8)
    elif kind == "noise":
        sigma = float(rng.uniform(5, 14))
        image = np.clip(image + rng.normal(0, sigma, image.shape), 0, 255).astype(np.uint8)
    elif kind == "jpeg":
        quality = int(rng.integers(12, 35))
        _, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        image = np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)
    else:  # turned about the middle, a little smaller so the dice stay in view
        height, width = image.shape[:2]
        angle = float(rng.choice([90, 180, 270]) + rng.uniform(-25, 25))
        turn = cv2.getRotationMatrix2D((width / 2, height / 2), angle, 0.8)
        image = np.asarray(
            cv2.warpAffine(image, turn, (width, height), borderMode=cv2.BORDER_REPLICATE), np.uint8
        )
        moved = []
        for x, y, w, h in boxes:
            cx, cy = turn @ np.array([x + w / 2, y + h / 2, 1.0])
            side = 0.8 * max(w, h)
            moved.append((round(cx - side / 2), round(cy - side / 2), round(side), round(side)))
        boxes = tuple(moved)
    return np.ascontiguousarray(image, np.uint8), boxes, kind


# where the pips of each face lie, on a face from -1 to 1 each way
LAYOUTS: dict[int, list[tuple[float, float]]] = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def _surface(rng: np.random.Generator, width: int, height: int) -> npt.NDArray[np.float32]:
    """A table: felt, wood grain or a painted board, lit unevenly, with fine noise."""
    base = rng.uniform(20, 235, 3)
    kind = rng.integers(3)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    if kind == 0:  # wood grain
        phase = rng.uniform(0, 6.3)
        wave = np.sin(yy / rng.uniform(6, 20) + 3 * np.sin(xx / rng.uniform(60, 200) + phase))
        pattern = 0.08 * wave
    elif kind == 1:  # felt
        pattern = cv2.GaussianBlur(
            rng.normal(0, 0.05, (height, width)).astype(np.float32), (0, 0), 1.5
        )
    else:
        pattern = np.zeros((height, width), np.float32)
    gx, gy = rng.uniform(-0.35, 0.35, 2)
    light = 1 + gx * (xx / width - 0.5) + gy * (yy / height - 0.5)
    surface = base[None, None, :] * (light * (1 + pattern))[..., None]
    return np.asarray(surface, np.float32)


def _draw_die(
    canvas: npt.NDArray[np.float32],
    rng: np.random.Generator,
    centre: tuple[float, float],
    side: float,
    pips: int,
    style: dict[str, object],
    angle: float,
    squash: float = 1.0,
    lean: float = 0.0,
) -> Box:
    """Draw one die's top face (and the side face a slanted camera sees) onto ``canvas``."""
    height, width = canvas.shape[:2]
    body = np.array(style["body"], np.float32)
    pip_colour = np.array(style["pip"], np.float32)
    alpha = float(style["alpha"])  # type: ignore[arg-type]
    cx, cy = centre
    turn = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    shape = np.array([[1.0, lean], [0.0, squash]])
    to_image = shape @ turn * (side / 2)

    def place(points: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        return np.asarray(points @ to_image.T + np.array([cx, cy]), np.float64)

    rounding = 0.18
    corners = []
    for qx, qy in [(1, 1), (-1, 1), (-1, -1), (1, -1)]:
        start = math.atan2(qy, qx) - math.pi / 4
        for t in np.linspace(start, start + math.pi / 2, 6):
            corners.append(
                (
                    qx * (1 - rounding) + rounding * math.cos(t),
                    qy * (1 - rounding) + rounding * math.sin(t),
                )
            )
    face = place(np.array(corners))
    depth = float(style["depth"])  # type: ignore[arg-type]
    side_face = face + np.array([0.0, depth * side])
    # the die's side seen below its top, darker; a shadow on the table beside it
    shadow = np.zeros((height, width), np.float32)
    cv2.fillPoly(shadow, [np.rint(face + np.array([0.12, 0.15]) * side).astype(np.int32)], 1.0)
    shadow = np.asarray(cv2.GaussianBlur(shadow, (0, 0), max(1.0, 0.08 * side)), np.float32)
    canvas *= (1 - 0.35 * shadow)[..., None]
    solid = np.zeros((height, width), np.float32)
    if depth > 0:
        hull = cv2.convexHull(np.rint(np.vstack([face, side_face])).astype(np.int32))
        cv2.fillPoly(solid, [hull], 1.0)
        solid_colour = body * 0.7
        canvas[:] = (
            canvas * (1 - alpha * solid[..., None]) + alpha * solid[..., None] * solid_colour
        )
        for x in [[0.0], [-0.5, 0.5], [-0.5, 0.0, 0.5]][rng.integers(3)]:  # the side face's pips
            px, py = place(np.array([[x, 1.0]]))[0]
            py += depth * side * 0.5
            r = 0.085 * side
            if 0 <= px < width and 0 <= py < height:
                cv2.ellipse(
                    canvas,
                    (round(px), round(py)),
                    (max(1, round(r)), max(1, round(r * 0.4 + 0.6 * r * depth))),
                    0,
                    0,
                    360,
                    tuple(float(c) * 0.8 for c in pip_colour),
                    -1,
                    cv2.LINE_AA,
                )
    top = np.zeros((height, width), np.float32)
    cv2.fillPoly(top, [np.rint(face * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    g = rng.uniform(-0.25, 0.25, 2)
    shade = 1 + g[0] * (xx - cx) / side + g[1] * (yy - cy) / side
    face_colour = body[None, None, :] * shade[..., None]
    if alpha < 1:  # see-through: the table shows through, tinted by the body
        face_colour = canvas * (body / 255)[None, None, :] * 1.1 * (1 - alpha) + face_colour * alpha
    m = top[..., None]
    canvas[:] = canvas * (1 - m) + face_colour * m
    radius = float(style["pip_size"]) * side  # type: ignore[arg-type]
    if pips == 1 and style.get("big_one"):
        radius *= 1.35
    spread = float(rng.uniform(0.5, 0.58))
    for x, y in LAYOUTS[pips]:
        px, py = place(np.array([[spread * x, spread * y]]))[0]
        axes = to_image @ np.array([[radius, 0], [0, radius]]) / (side / 2)
        big, small = np.linalg.svd(axes, compute_uv=False)
        u, _, _ = np.linalg.svd(axes)
        tilt = math.degrees(math.atan2(u[1, 0], u[0, 0]))
        layer = np.zeros((height, width), np.float32)
        cv2.ellipse(
            layer,
            (round(px * 16), round(py * 16)),
            (max(8, round(big * 16)), max(8, round(small * 16))),
            tilt,
            0,
            360,
            1.0,
            -1,
            cv2.LINE_AA,
            4,
        )
        layer = layer[..., None]
        colour = pip_colour * (1 + 0.05 * rng.normal())
        canvas[:] = canvas * (1 - layer) + colour * layer
    xs, ys = face[:, 0], face[:, 1]
    return (int(xs.min()), int(ys.min()), int(xs.max() - xs.min()), int(ys.max() - ys.min()))


def _die_style(rng: np.random.Generator) -> dict[str, object]:
    kind = int(rng.integers(5))
    if kind == 0:  # light die, dark pips
        body = tuple(rng.uniform(190, 250, 3))
        pip = tuple(rng.uniform(0, 50, 3))
        alpha = 1.0
    elif kind == 1:  # dark die, light pips
        body = tuple(rng.uniform(10, 70, 3))
        pip = tuple(rng.uniform(200, 250, 3))
        alpha = 1.0
    elif kind == 2:  # a strong colour, white pips
        body = tuple(float(c) for c in STRONG_TINTS[rng.integers(len(STRONG_TINTS))])
        pip = tuple(rng.uniform(215, 250, 3))
        alpha = 1.0
    elif kind == 3:  # see-through precision die, white pips
        body = tuple(float(c) for c in STRONG_TINTS[rng.integers(len(STRONG_TINTS))])
        pip = tuple(rng.uniform(220, 250, 3))
        alpha = float(rng.uniform(0.35, 0.6))
    else:  # a pale colour, dark pips
        body = tuple(float(c) for c in LIGHT_TINTS[rng.integers(len(LIGHT_TINTS))])
        pip = tuple(rng.uniform(0, 60, 3))
        alpha = 1.0
    return {
        "body": body,
        "pip": pip,
        "alpha": alpha,
        "pip_size": float(rng.uniform(0.075, 0.1)),
        "depth": float(rng.choice([0.0, rng.uniform(0.15, 0.45)])),
        "big_one": bool(rng.random() < 0.4),
        "kind": ["light", "dark", "coloured", "translucent", "pale"][kind],
    }


def drawn_sample(rng: np.random.Generator, index: int) -> Sample:
    """One drawn scene: one to three dice of one style; maybe touching, small, or one cocked."""
    width, height = [(640, 480), (640, 360), (1280, 720), (960, 540)][rng.integers(4)]
    canvas = _surface(rng, width, height)
    style = _die_style(rng)
    small = rng.random() < 0.25
    side = float(rng.uniform(0.025, 0.045) if small else rng.uniform(0.05, 0.12)) * width
    count = int(rng.integers(1, 4))
    touching = count >= 2 and rng.random() < 0.35
    cocked_one = rng.random() < 0.15
    pips, boxes = [], []
    cocked = 0
    places: list[tuple[float, float]] = []
    for _ in range(count):
        for _ in range(50):
            if touching and places:  # beside the last die, edge to edge
                ox, oy = places[-1]
                dx, dy = [(1, 0), (-1, 0), (0, 1), (0, -1)][rng.integers(4)]
                gap = 1.0 + (0.35 if dy else 0.0) * float(style["depth"])  # type: ignore[arg-type]
                c = (ox + dx * side * 1.02, oy + dy * side * gap * 1.02)
            else:
                c = (rng.uniform(side, width - side), rng.uniform(side, height - 1.6 * side))
            inside = side <= c[0] <= width - side and side <= c[1] <= height - 1.6 * side
            apart = all(math.hypot(c[0] - t[0], c[1] - t[1]) > 1.6 * side for t in places)
            if inside and (apart or (touching and len(places) == 1 and c != places[0])):
                places.append(c)
                break
    places.sort(key=lambda c: c[1])  # from the far side: a nearer die hides a farther one's side
    lean_index = len(places) - 1 if cocked_one else -1
    for n, c in enumerate(places):
        value = int(rng.integers(1, 7))
        angle = 0.0 if touching else float(rng.uniform(0, math.pi / 2))
        if n == lean_index:  # a die leaning on a checker: its top face steeply foreshortened
            checker = (round(c[0] + 0.9 * side), round(c[1]))
            colour = tuple(float(v) for v in rng.uniform(0, 255, 3))
            cv2.circle(canvas, checker, round(0.9 * side), colour, -1, cv2.LINE_AA)
            _draw_die(canvas, rng, c, side, value, style, angle, squash=0.55, lean=0.35)
            cocked += 1
            continue
        squash = float(rng.uniform(0.8, 1.0)) if not touching else 1.0
        boxes.append(_draw_die(canvas, rng, c, side, value, style, angle, squash=squash))
        pips.append(value)
    noise = rng.normal(0, rng.uniform(1, 6), canvas.shape)
    image = np.clip(
        cv2.GaussianBlur(canvas, (0, 0), float(rng.uniform(0.4, 1.0))) + noise, 0, 255
    ).astype(np.uint8)
    name = f"drawn-{index}-{style['kind']}{'-small' if small else ''}{'-touching' if touching else ''}{'-cocked' if cocked else ''}"
    return Sample(
        "drawn", name, image, tuple(pips), tuple(boxes), cocked, {"kind": str(style["kind"])}
    )


def samples(family: str, real: Path, seed: int = 0, drawn: int = 300) -> Iterator[Sample]:
    """The samples of one family, the same for the same seed (``drawn``: how many drawn scenes)."""
    if family not in FAMILIES:
        raise ValueError(f"unknown dice family {family!r} (known: {', '.join(FAMILIES)})")
    if family == "drawn":
        for index in range(drawn):
            yield drawn_sample(np.random.default_rng((seed, 7, index)), index)
        return
    for number, photo in enumerate(real_photos(real)):
        rng = np.random.default_rng((seed, FAMILIES.index(family), number))
        if family == "real":
            yield Sample(family, photo.name, photo.image, photo.pips, photo.boxes)
        elif family in ("real-tinted", "real-dark"):
            image, _ = _recolour(photo, rng, dark=family == "real-dark")
            yield Sample(family, f"{photo.name}-{family}", image, photo.pips, photo.boxes)
        elif family == "real-degraded":
            image, boxes, kind = _degrade(photo, rng)
            yield Sample(
                family, f"{photo.name}-{kind}", image, photo.pips, boxes, notes={"kind": kind}
            )
        else:
            yield Sample(
                family, f"{photo.name}-inverted", 255 - photo.image, photo.pips, photo.boxes
            )


def plain_scene(
    dice: list[tuple[int, tuple[float, float]]],
    body: tuple[float, float, float],
    pip: tuple[float, float, float],
    side: float = 56.0,
    size: tuple[int, int] = (480, 360),
    table: tuple[float, float, float] = (70.0, 110.0, 60.0),
    angle: float = 0.3,
    seed: int = 0,
) -> Image:
    """Dice drawn flat from straight above (no side face) on an even table: for tests.

    ``dice``: (pips, centre) for each; ``body``, ``pip`` and ``table``: BGR colours.
    """
    rng = np.random.default_rng(seed)
    width, height = size
    canvas = np.empty((height, width, 3), np.float32)
    canvas[:] = np.array(table, np.float32)
    style: dict[str, object] = {
        "body": body,
        "pip": pip,
        "alpha": 1.0,
        "pip_size": 0.09,
        "depth": 0.0,
        "big_one": False,
    }
    for pips, centre in dice:
        _draw_die(canvas, rng, centre, side, pips, style, angle)
    noisy = canvas + rng.normal(0, 2.0, canvas.shape)
    return np.clip(cv2.GaussianBlur(noisy, (0, 0), 0.7), 0, 255).astype(np.uint8)
