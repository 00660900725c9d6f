"""Pictures for people: labels drawn back onto their images, and contact sheets of a folder."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from sheshbesh.locations import POINT_LOCATIONS
from synth import SynthInputError


def read_label(path: Path) -> dict[str, Any]:
    try:
        label: dict[str, Any] = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise SynthInputError(f"label {path}: cannot be read ({error})") from error
    return label


def labelled_images(folder: Path) -> list[tuple[Path, dict[str, Any]]]:
    """(image path, label) of every label file in ``folder``, sorted by name."""
    if not folder.is_dir():
        raise SynthInputError(f"folder {folder} does not exist")
    pairs = []
    for path in sorted(folder.glob("*.json")):
        if path.name == "card.json":
            continue
        label = read_label(path)
        image = folder / str(label.get("image", ""))
        if not image.is_file():
            raise SynthInputError(f"label {path.name}: image {image.name} is missing")
        pairs.append((image, label))
    if not pairs:
        raise SynthInputError(f"folder {folder} holds no labelled images")
    return pairs


def _field_point(corners: NDArray[np.float64], u: float, v: float) -> tuple[int, int]:
    """A point of the field quad by bilinear fractions (u across from left, v down from top)."""
    tl, tr, br, bl = corners
    top = tl + (tr - tl) * u
    bottom = bl + (br - bl) * u
    p = top + (bottom - top) * v
    return round(p[0]), round(p[1])


def outlined(
    image: NDArray[np.uint8],
    words: str,
    where: tuple[int, int],
    scale: float,
    colour: tuple[int, int, int],
) -> None:
    """``words`` in ``colour`` with a black outline, readable on any background. The outline is
    the thin text shifted by a pixel each way: OpenCV 5 advances thick text further than thin
    text, so a thick black copy under it would not line up."""
    font = cv2.FONT_HERSHEY_SIMPLEX
    x, y = where
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            if dx or dy:
                cv2.putText(image, words, (x + dx, y + dy), font, scale, (0, 0, 0), 1, cv2.LINE_AA)
    cv2.putText(image, words, where, font, scale, colour, 1, cv2.LINE_AA)


def draw_label(image: NDArray[np.uint8], label: dict[str, Any]) -> NDArray[np.uint8]:
    """The label drawn over a copy of ``image``: field quad, point names and counts, bar and off
    counts, dice boxes with pips, the cube, and the occlusion flag."""
    out = image.copy()
    corners = np.asarray(label["field_corners"], dtype=np.float64)
    cv2.polylines(out, [np.round(corners).astype(np.int32)], True, (0, 255, 0), 2, cv2.LINE_AA)
    bar = float(label["style"]["board"]["bar_w"]) / float(label["style"]["board"]["field_w"])
    point = (1 - bar) / 12

    def text(
        where: tuple[int, int], words: str, colour: tuple[int, int, int], scale: float = 0.45
    ) -> None:
        outlined(out, words, where, scale, colour)

    for name in POINT_LOCATIONS:
        n = int(name[1:])
        column, top = (12 - n, False) if n <= 12 else (n - 13, True)
        u = (column + 0.5) * point + (bar if column >= 6 else 0.0)
        v = 0.04 if top else 0.96
        x, y = _field_point(corners, u, v)
        counts = label["locations"][name]
        words = name
        if counts["white"]:
            words += f" w{counts['white']}"
        if counts["black"]:
            words += f" b{counts['black']}"
        standing = label.get("standing", {}).get(name, 0)
        if standing:
            words += f" s{standing}"  # of those, this many stand in a stack
        colour = (
            (255, 255, 255)
            if counts["white"]
            else (80, 200, 255)
            if counts["black"]
            else (180, 180, 180)
        )
        text((x - 14, y), name, colour, 0.38)
        if words != name:
            text((x - 14, y + (14 if top else -14)), words[len(name) + 1 :], colour, 0.38)
    for name, v in (
        ("bar-white", 0.7),
        ("bar-black", 0.3),
        ("off-white", 0.85),
        ("off-black", 0.15),
    ):
        counts = label["locations"][name]
        n = counts["white"] + counts["black"]
        off_u = -0.12 if label["style"]["board"]["tray_side"] == "left" else 1.02
        u = 0.5 if name.startswith("bar") else off_u
        x, y = _field_point(corners, u, v)
        text((x - 20, y), f"{name} {n}", (0, 255, 255))
    for die in label["dice"]:
        x, y, w, h = (round(c) for c in die["box"])
        cv2.rectangle(out, (x, y), (x + w, y + h), (255, 0, 255), 2)
        leans = f" on {die['leans_on']}" if die.get("leans_on") else ""
        cocked = f" cocked{leans}" if die["cocked"] else ""
        text((x, y - 4), f"{die['pips']}{cocked}", (255, 0, 255))
    cube = label.get("cube")
    if cube is not None:
        x, y, w, h = (round(c) for c in cube["box"])
        cv2.rectangle(out, (x, y), (x + w, y + h), (0, 165, 255), 2)
        logo = " logo" if cube.get("logo") else ""
        text((x, y + h + 14), f"cube {cube['value']}{logo} {cube['place']}", (0, 165, 255))
    header = f"{label['family']} / {label['style']['light_kind']} / {label['split']} / seed {label['seed']}"
    if label.get("variant", "backgammon") != "backgammon":
        header += f" / {label['variant']} {label['style'].get('stack_form', '')}"
    stream = label["style"].get("stream")
    if stream:
        header += f" / stream {stream['codec']} x{stream['scale']}"
    if label["occluded"]:
        header += " / OCCLUDED"
    text((10, 22), header, (255, 255, 255), 0.6)
    return out


def contact_sheet(folder: Path, count: int = 30, thumb_width: int = 320) -> NDArray[np.uint8]:
    """Up to ``count`` images of ``folder`` as thumbnails in a grid, each captioned with its family."""
    pairs = labelled_images(folder)
    if len(pairs) > count:
        step = len(pairs) / count
        pairs = [pairs[int(i * step)] for i in range(count)]
    columns = 6 if len(pairs) > 20 else 5
    thumbs = []
    for path, label in pairs:
        image = cv2.imread(str(path))
        if image is None:
            raise SynthInputError(f"image {path} cannot be read")
        h = round(image.shape[0] * thumb_width / image.shape[1])
        thumb = np.asarray(
            cv2.resize(image, (thumb_width, h), interpolation=cv2.INTER_AREA), dtype=np.uint8
        )
        words = f"{label['family']} {label['style']['light_kind']}"
        outlined(thumb, words, (6, h - 8), 0.42, (255, 255, 255))
        thumbs.append(thumb)
    h = max(t.shape[0] for t in thumbs)
    rows = math.ceil(len(thumbs) / columns)
    sheet = np.full((rows * (h + 4) + 4, columns * (thumb_width + 4) + 4, 3), 30, dtype=np.uint8)
    for i, thumb in enumerate(thumbs):
        r, c = divmod(i, columns)
        y, x = 4 + r * (h + 4), 4 + c * (thumb_width + 4)
        sheet[y : y + thumb.shape[0], x : x + thumb_width] = thumb
    return sheet
