"""Reading real-looking boards from their field corners: accuracy per style family, and speed.

Each labelled image (``NAME.jpg`` + ``NAME.json`` with ``field_corners``, ``locations`` and
``occluded``, as the photoreal development set writes them) is calibrated on itself with the
labelled corners (calibration takes any position) and then read; the reading is compared with
the labels. Dice: the frames whose flat dice all read right and nothing more is read as a flat
die (pips as a multiset; a frame without dice must read none; a cocked die read as flat is extra). Frames with a hand over the field must read as occluded; their checkers are not
scored. Cube: the frames (no hand over the field) whose cube reads with the labelled face and place,
or as none when there is none (:func:`vision.cube.read_field_cube`, called by ``read_field``).
Shesh Besh frames (labels with ``"variant": "sheshbesh"``) are calibrated for that game and
scored as the camera sees them: a stack standing on a point is one checker (``--game`` reads
every frame for one game instead). Locations scored: the 24 points and the bar (the trays lie outside the field and are
inferred, so they are not a reading). "served" counts them as the referee gets them: a frame
without a hand that is read as occluded (the board not seen in it, too), or whose calibration is
refused, gives the referee none of its locations, so they all count as wrong there.

    .venv/bin/python benchmarks/bench_field.py tests/data/photoreal [more folders] [--show N]
    .venv/bin/python benchmarks/bench_field.py tests/data/photoreal-heldout2 --width 3840
    .venv/bin/python benchmarks/bench_field.py tests/data/photoreal-heldout2 --corner-error 4
    .venv/bin/python benchmarks/bench_field.py tests/data/photoreal --jpeg 60 --noise 4 --lens 0.05
    .venv/bin/python benchmarks/bench_field.py tests/data/photoreal-heldout6 --light 1.1,1,0.7
    .venv/bin/python benchmarks/bench_field.py tests/data/photoreal-heldout6 --light 1.4 --blur 1.5
    .venv/bin/python benchmarks/bench_field.py tests/data/photoreal --overlay
    .venv/bin/python benchmarks/bench_field.py tests/data/photoreal-tune13 --crop 0.05
    .venv/bin/python benchmarks/bench_field.py tests/data/photoreal-heldout2 --cube-shapes-only
    .venv/bin/python benchmarks/bench_field.py tests/data/photoreal-heldout2 --rings-only

A folder written by ``sheshbesh run --capture DIR`` (numbered frames labelled with the positions
the referee committed, and the calibration beside them) is read with its own calibration and
compared the same way: a café's own board checked on its own games.

``--jpeg``, ``--noise`` and ``--lens`` give every frame a real camera's faults first (a video
stream's compression, a small sensor's noise, a wide lens's barrel), to see how much the reading
leans on the renderer's clean pictures; ``--light`` an exposure or a white balance the camera got
wrong (each colour's light multiplied, clipped where the sensor fills), and ``--blur`` a focus a
little off. ``--overlay`` draws a tournament stream's graphics (names, scores, a clock) round the
field, over the frame and the table, never over the field or the cube. ``--crop`` cuts every
frame to the field and a margin round it, as a camera framed tightly on the field sees it (the
frame round the field, a cube resting on it, partly or wholly out of view). Each frame is
calibrated on itself after its faults, as a camera that always sees them would be.

Prints one table row per family (tuning families and held-out families apart) and the read time
per frame (median and worst, one core). ``--show N`` first prints up to N misread frames: the
locations read wrong, a hand not seen or seen where there is none (with what the hand test
measured: the strange patch and the arm, in checker areas), the dice there and read, and the
cube labelled and read.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import vision.cube as cube_reader
import vision.field_reader as field_reader
from sheshbesh.locations import POINT_LOCATIONS
from sheshbesh.observation import Observation
from vision.capture import load_dataset
from vision.errors import VisionError
from vision.field_board import (
    FieldCalibration,
    FieldSettleDetector,
    calibrate_field,
    load_calibration,
    standing_for,
    watch_field,
)
from vision.images import Image, load_image
from vision.synth.photoreal import camera_faults

SCORED = (*POINT_LOCATIONS, "bar")
_N = TypeVar("_N", int, float)


def _truth(
    labels: dict[str, dict[str, int]], standing: dict[str, int] | None = None
) -> dict[str, tuple[int, int]]:
    """(White, Black) per point and on the bar as the camera sees them: a stack standing on a
    point (Shesh Besh; ``standing`` says how many checkers stand in it) is one checker."""
    truth = {p: (labels[p]["white"], labels[p]["black"]) for p in POINT_LOCATIONS}
    for point, many in (standing or {}).items():
        white, black = truth[point]
        truth[point] = (white - many + 1, black) if white else (white, black - many + 1)
    truth["bar"] = (labels["bar-white"]["white"], labels["bar-black"]["black"])
    return truth


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--show", type=int, default=0, help="print the first N misreads")
    parser.add_argument("--split", choices=["tune", "heldout", "all"], default="all")
    parser.add_argument(
        "--game",
        choices=["backgammon", "sheshbesh"],
        help="calibrate and read every frame for this game (default: the game its label names): "
        "to see what reading for Shesh Besh changes",
    )
    parser.add_argument(
        "--width",
        type=_width,
        default=0,
        help="rescale every frame (and its corners) to this width first: 640 to 3840, to see "
        "that the reader does not depend on the camera's resolution",
    )
    parser.add_argument(
        "--crop",
        type=_margin,
        default=None,
        help="cut every frame (after --width) to the playing field and this share of the "
        "field's width and height round it, as a camera framed tightly on the field sees it: 0 "
        "cuts at the field's corners, 0.05 keeps a strip a twentieth of the field's size round it",
    )
    parser.add_argument(
        "--corner-error",
        type=_pixels,
        default=0.0,
        help="move every labelled corner by up to this many pixels (after --width) in a direction "
        "drawn from a fixed seed, as a person clicking the corners by hand would: to see how "
        "much the reading depends on exact corners",
    )
    add_camera_fault_options(parser)
    parser.add_argument(
        "--lens",
        type=_lens,
        default=0.0,
        help="bend every frame (and its corners) as a lens does: positive for a wide lens's "
        "barrel, negative for a pincushion; 0.05 moves the image's corners by about 5%%",
    )
    parser.add_argument(
        "--light",
        type=_gains,
        default=(1.0, 1.0, 1.0),
        help="multiply every frame's light by this (one number: an exposure, 1.4 over and 0.6 "
        "under) or each colour's by its own (R,G,B: a white balance, 1.1,1,0.7 a warm lamp left "
        "uncorrected), in linear light, clipped where the sensor fills",
    )
    parser.add_argument(
        "--overlay",
        action="store_true",
        help="draw a video stream's graphics round the field first (a lower-third banner of "
        "names and scores, a score box, a clock, a logo, a side panel; placed from a fixed seed, "
        "over the frame, the trays and the table, never over the field or the cube): a "
        "tournament's stream as the camera's picture",
    )
    parser.add_argument(
        "--blur",
        type=_spread,
        default=0.0,
        help="blur every frame by a Gaussian of this spread (pixels, after --width): a focus a "
        "little off",
    )
    parser.add_argument(
        "--cube-shapes-only",
        action="store_true",
        help="read the cube's face with the shape matcher alone, without the cube-face model "
        "(vision.cube_model): the reader as it was before the model",
    )
    parser.add_argument(
        "--rings-only",
        action="store_true",
        help="count each point's checkers from their rims alone, without the stack counter "
        "(vision.stack_model): the reader as it was before that model",
    )
    args = parser.parse_args(argv)
    if args.cube_shapes_only:
        cube_reader.USE_MODEL = False
    if args.rings_only:
        field_reader.USE_STACK_MODEL = False
    for folder in args.folders:
        if not folder.is_dir():
            parser.error(f"{str(folder)!r} is not a folder of labelled frames")
    clicks = np.random.default_rng(0)
    grain = np.random.default_rng(1)
    graphics = np.random.default_rng(2)
    cv2.setNumThreads(1)
    rows: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    times: list[float] = []
    settle_times: list[float] = []
    shown = 0
    for folder in args.folders:
        if (folder / "calibration.json").is_file():
            _captured(folder, rows, args.show)
            continue
        for label_file in sorted(folder.glob("*.json")):
            labels = json.loads(label_file.read_text())
            if "field_corners" not in labels:
                continue
            split = labels.get("split", "tune")
            if args.split != "all" and split != args.split:
                continue
            row = rows[(split, labels.get("family", "?"))]
            image = load_image(label_file.with_name(labels["image"]))
            corners = [tuple(c) for c in labels["field_corners"]]
            # labelled places (the cube's box, the dice's) go where the rescale and the cut below
            # put them (_as_read)
            scale = (args.width or image.shape[1]) / image.shape[1]
            if args.width:
                image, corners = _rescaled(image, corners, args.width)
            offset = (0, 0)
            if args.crop is not None:
                image, corners, offset = _cropped(image, corners, args.crop)
            cube_box = (labels.get("cube") or {}).get("box")
            if cube_box is not None:
                cube_box = _as_read(cube_box, scale, offset)
            if args.lens:
                image, corners = _bent(image, corners, args.lens)
            image = _lit(_blurred(image, args.blur), args.light)
            if args.overlay:  # drawn over the camera's picture, before the stream compresses it
                image = _overlaid(image, corners, cube_box, graphics)
            image = camera_faults(image, args.jpeg, args.noise, grain)
            if args.corner_error:
                corners = _clicked(corners, args.corner_error, clicks)
            row["frames"] += 1
            try:
                standing = standing_for(args.game or labels.get("variant", "backgammon"))
                calibration = calibrate_field(image, corners, standing=standing)
            except VisionError as error:
                row["refused"] += 1
                row["served_locations"] += 0 if labels.get("occluded") else len(SCORED)
                if shown < args.show:
                    print(f"{label_file.name}: calibration refused: {error}")
                    shown += 1
                continue
            start = time.perf_counter()
            observation = watch_field(image, calibration)
            times.append(time.perf_counter() - start)
            if "unseen" in observation.extra and shown < args.show:
                print(f"{label_file.name}: board not seen: {observation.extra['unseen']}")
                shown += 1
            detector = FieldSettleDetector(calibration)
            for moment in range(3):
                start = time.perf_counter()
                detector.update(image, float(moment))
                settle_times.append(time.perf_counter() - start)
            if labels.get("occluded"):
                row["hands"] += 1
                row["hands_refused"] += observation.state == "occluded"
                if observation.state != "occluded" and shown < args.show:
                    print(
                        f"{label_file.name}: a hand over the field was not seen"
                        f"{_hand_parts(observation)}"
                    )
                    shown += 1
                continue
            # the cube (vision.cube): face and place, or none seen where there is none
            cube = observation.cube
            truth_cube = labels.get("cube")
            row["cube_frames"] += 1
            cube_right = (
                cube is None
                if truth_cube is None
                else cube is not None
                and (cube.value, cube.place) == (truth_cube["value"], truth_cube["place"])
            )
            row["cube_right"] += cube_right
            if not cube_right and shown < args.show:
                labelled = (
                    None if truth_cube is None else (truth_cube["value"], truth_cube["place"])
                )
                seen_cube = None if cube is None else (cube.value, cube.place)
                print(f"{label_file.name}: cube: labelled {labelled}, read {seen_cube}")
                shown += 1
            row["boards"] += 1
            if "dice" in labels:  # flat dice as a multiset; a die read as cocked is not one
                wanted = sorted(d["pips"] for d in labels["dice"] if not d.get("cocked"))
                row["dice_frames"] += 1
                read = sorted(d.pips for d in observation.dice if not d.cocked)
                row["dice_right"] += read == wanted
                if read != wanted and shown < args.show:
                    misread = _dice_misread(labels["dice"], observation, scale, offset)
                    print(f"{label_file.name}: dice: {misread}")
                    shown += 1
            row["false_hands"] += observation.state == "occluded"
            if observation.state == "occluded" and shown < args.show:
                print(
                    f"{label_file.name}: read as a hand over the field, with none there"
                    f"{_hand_parts(observation)}"
                )
                shown += 1
            truth = _truth(labels["locations"], labels.get("standing"))
            seen = {
                p: (observation.count(p, "white"), observation.count(p, "black"))
                for p in POINT_LOCATIONS
            }
            seen["bar"] = (
                observation.count("bar-white", "white"),
                observation.count("bar-black", "black"),
            )
            wrong = [(p, truth[p], seen[p]) for p in SCORED if truth[p] != seen[p]]
            _score(row, len(wrong), observation.state == "occluded")
            tall = [p for p in POINT_LOCATIONS if max(truth[p]) >= 6]
            row["tall"] += len(tall)
            row["tall_exact"] += sum(truth[p] == seen[p] for p in tall)
            if wrong and shown < args.show:
                print(f"{label_file.name}: {wrong}")
                shown += 1
    header = (
        f"{'split':8} {'family':22} {'frames':>6} {'refused':>7} {'locations':>13} "
        f"{'boards':>9} {'tall (>=6)':>11} {'hands':>7} {'false hand':>10} {'dice':>7} {'cube':>7} "
        f"{'served':>7}"
    )
    print(header)
    total: dict[str, int] = defaultdict(int)
    for (split, family), row in sorted(rows.items()):
        for key, value in row.items():
            total[key] += value
        print(_line(split, family, row))
    print(_line("all", "", total))
    if times:
        print(
            f"read: median {statistics.median(times) * 1000:.1f} ms, "
            f"worst {max(times) * 1000:.1f} ms over {len(times)} frames"
        )
        print(
            f"settle check: median {statistics.median(settle_times) * 1000:.2f} ms, "
            f"worst {max(settle_times) * 1000:.2f} ms"
        )
    return 0


def _number(
    convert: Callable[[str], _N], what: str, inside: Callable[[_N], bool], refusal: str
) -> Callable[[str], _N]:
    """An option's ``type``: the text as ``convert`` reads it, refused in one line when it is not
    ``what`` or not ``inside`` what the option can use (``refusal``, formatted with the ``text``
    and the ``value``)."""

    def parse(text: str) -> _N:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not {what}: {text!r}") from None
        if not inside(value):
            raise argparse.ArgumentTypeError(refusal.format(text=text, value=value))
        return value

    return parse


#: ``--width``: a frame width of 16 pixels or more (0: as the frames are)
_width = _number(
    int,
    "a whole number of pixels",
    lambda width: width == 0 or width >= 16,
    "{value} pixels is too narrow to read a board (16 or more)",
)
#: ``--corner-error``: a distance in pixels, 0 or more
_pixels = _number(
    float, "a number of pixels", lambda pixels: 0 <= pixels < 1000, "{text} pixels: give 0 to 999"
)
#: ``--jpeg``: a JPEG quality from 1 to 100 (0: leave the frames as they are)
_quality = _number(
    int,
    "a whole number",
    lambda quality: 0 <= quality <= 100,
    "JPEG quality {value}: give 1 to 100",
)
#: ``--noise``: a standard deviation in grey levels, 0 to 255
_levels = _number(
    float,
    "a number of grey levels",
    lambda levels: 0 <= levels <= 255,
    "noise of {text} grey levels: give 0 to 255",
)
#: ``--lens``: a radial distortion from -0.5 (pincushion) to 0.5 (barrel)
_lens = _number(
    float,
    "a number",
    lambda strength: -0.5 <= strength <= 0.5,
    "lens {text}: give -0.5 to 0.5 (0.05 bends by about 5%)",
)


#: ``--crop``: a share of the field's width and height kept round it, 0 to 1
_margin = _number(
    float,
    "a number",
    lambda margin: 0 <= margin <= 1,
    "crop margin {text}: give 0 (the field alone) to 1",
)


#: ``--blur``: a Gaussian's spread in pixels, 0 (none) to 50
_spread = _number(
    float,
    "a number of pixels",
    lambda spread: 0 <= spread <= 50,
    "blur of {text} pixels: give 0 to 50",
)


def _gains(text: str) -> tuple[float, float, float]:
    """``--light``: one gain for every colour, or three (red, green, blue), each 0.05 to 20."""
    parts = text.split(",")
    if len(parts) not in (1, 3):
        raise argparse.ArgumentTypeError(
            f"light {text!r}: give one gain (1.4) or three, red,green,blue (1.1,1,0.7)"
        )
    try:
        gains = [float(part) for part in parts]
    except ValueError:
        raise argparse.ArgumentTypeError(f"light {text!r}: the gains must be numbers") from None
    if not all(0.05 <= gain <= 20 for gain in gains):
        raise argparse.ArgumentTypeError(f"light {text!r}: give gains of 0.05 to 20")
    red, green, blue = gains * 3 if len(gains) == 1 else gains
    return (red, green, blue)


def _lit(image: Image, gains: tuple[float, float, float]) -> Image:
    """``image`` (BGR, sRGB-coded) with each colour's linear light multiplied by its gain (red,
    green, blue), clipped at the sensor's full level: an exposure or a white balance gone wrong."""
    if gains == (1.0, 1.0, 1.0):
        return image
    linear = (np.arange(256) / 255.0) ** 2.2
    channels = []
    for channel, gain in zip(cv2.split(image), gains[::-1], strict=True):  # blue first
        table = np.rint(255.0 * np.minimum(linear * gain, 1.0) ** (1 / 2.2)).astype(np.uint8)
        channels.append(cv2.LUT(channel, table))
    return np.asarray(cv2.merge(channels), np.uint8)


def _blurred(image: Image, spread: float) -> Image:
    """``image`` blurred by a Gaussian of ``spread`` pixels (0: as it is)."""
    if not spread:
        return image
    return np.asarray(cv2.GaussianBlur(image, (0, 0), spread), np.uint8)


def add_camera_fault_options(parser: argparse.ArgumentParser) -> None:
    """``--jpeg`` and ``--noise``: a streaming camera's faults given to every frame first
    (:func:`vision.synth.photoreal.camera_faults`); ``bench_dice_model.py`` takes them too."""
    parser.add_argument(
        "--jpeg",
        type=_quality,
        default=0,
        help="store every frame as a JPEG of this quality (1 to 100) first, as a video stream does",
    )
    parser.add_argument(
        "--noise",
        type=_levels,
        default=0.0,
        help="add sensor noise of this standard deviation (grey levels) to every frame first",
    )


#: what a stream's graphics say: names, a score, a match's length, a clock
_CAPTIONS = (
    "A. PLAYER  3",
    "B. OPPONENT  5",
    "MATCH TO 7",
    "CRAWFORD",
    "00:12:41",
    "GAME 4",
    "PIPS 142 / 97",
    "LIVE",
)


def _overlaid(
    image: Image,
    corners: list[tuple[float, ...]],
    cube_box: Sequence[float] | None,
    rng: np.random.Generator,
) -> Image:
    """``image`` with a video stream's graphics drawn on it: up to five boxes (a lower-third
    banner, a score box, a clock, a logo, a side panel), each of a colour drawn from ``rng``,
    opaque or see-through, with white captions, placed by the image's edges wherever they keep
    clear of the field (and of the cube's box, x, y, width, height, where there is one): they
    cover the frame, the trays and the table as a tournament's stream does, never what is read."""
    height, width = image.shape[:2]
    field = np.zeros((height, width), np.uint8)
    cv2.fillPoly(field, [np.round(np.array(corners)).astype(np.int32)], 255)
    if cube_box is not None:
        x, y, w, h = (round(v) for v in cube_box)
        cv2.rectangle(field, (x, y), (x + w, y + h), 255, -1)
    keep_clear = cv2.dilate(field, np.ones((5, 5), np.uint8)) > 0
    out = image.copy()
    shapes = [  # (width, height) as shares of the image's, and the edges it is put against
        ((0.5, 0.1), ("bottom", "top")),
        ((0.22, 0.12), ("top-left", "top-right", "bottom-left", "bottom-right")),
        ((0.12, 0.07), ("top-right", "bottom-right", "top-left")),
        ((0.08, 0.14), ("top-left", "bottom-left", "top-right")),
        ((0.16, 0.45), ("left", "right")),
    ]
    for (share_w, share_h), edges in shapes:
        if rng.uniform() < 0.25:
            continue
        w = max(8, round(share_w * width * rng.uniform(0.7, 1.3)))
        h = max(8, round(share_h * height * rng.uniform(0.7, 1.3)))
        edge = edges[int(rng.integers(len(edges)))]
        inset = round(rng.uniform(0, 0.03) * width)
        # shrink towards the edge until the box keeps clear of the field
        while w >= 8 and h >= 8:
            x = {"left": inset, "right": width - w - inset}.get(
                edge.split("-")[-1], (width - w) // 2
            )
            y = {"top": inset, "bottom": height - h - inset}.get(
                edge.split("-")[0], (height - h) // 2
            )
            if not keep_clear[max(0, y) : y + h, max(0, x) : x + w].any():
                break
            w, h = (w, round(h * 0.8)) if edge in ("top", "bottom") else (round(w * 0.8), h)
            if edge not in ("top", "bottom", "left", "right"):
                h = round(h * 0.8)
        else:
            continue
        colour = rng.uniform(0, 255, 3)
        alpha = float(rng.choice([1.0, 0.85, 0.6]))
        box = out[y : y + h, x : x + w]
        box[:] = np.clip((1 - alpha) * box + alpha * colour, 0, 255).astype(np.uint8)
        caption = _CAPTIONS[int(rng.integers(len(_CAPTIONS)))]
        scale = max(0.3, min(h / 40, w / (len(caption) * 22)))
        cv2.putText(
            out,
            caption,
            (x + 4, y + min(h - 4, round(26 * scale) + 4)),
            cv2.FONT_HERSHEY_SIMPLEX,
            scale,
            (255, 255, 255),
            max(1, round(2 * scale)),
            cv2.LINE_AA,
        )
    return out


def _bent(
    image: Image, corners: list[tuple[float, ...]], strength: float
) -> tuple[Image, list[tuple[float, ...]]]:
    """``image`` bent by a lens's radial distortion, with its corners where the bent image
    shows them: a point at distance r from the middle (in half-diagonals) moves to r / (1 + k r^2),
    so with k > 0 straight edges bow outwards from the middle (barrel)."""
    height, width = image.shape[:2]
    middle = np.array([(width - 1) / 2, (height - 1) / 2])
    half = float(np.hypot(*middle))
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    dx, dy = (xs - middle[0]) / half, (ys - middle[1]) / half
    # each pixel of the bent image shows the straight image at r (1 + k r^2)
    grow = 1.0 + strength * (dx * dx + dy * dy)
    map_x = (middle[0] + dx * grow * half).astype(np.float32)
    map_y = (middle[1] + dy * grow * half).astype(np.float32)
    bent = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    moved: list[tuple[float, ...]] = []
    for x, y in corners:
        straight = (np.array([x, y]) - middle) / half
        seen = straight.copy()
        for _ in range(30):  # solve seen (1 + k |seen|^2) = straight
            seen = straight / (1.0 + strength * float(seen @ seen))
        moved.append(tuple(float(v) for v in middle + seen * half))
    return np.asarray(bent, np.uint8), moved


def _clicked(
    corners: list[tuple[float, ...]], error: float, rng: np.random.Generator
) -> list[tuple[float, ...]]:
    """``corners`` each moved up to ``error`` pixels, evenly over a disc (a hand's click)."""
    moved: list[tuple[float, ...]] = []
    for x, y in corners:
        reach = error * math.sqrt(rng.uniform())
        angle = rng.uniform(0, 2 * math.pi)
        moved.append((x + reach * math.cos(angle), y + reach * math.sin(angle)))
    return moved


def _rescaled(
    image: Image, corners: list[tuple[float, ...]], width: int
) -> tuple[Image, list[tuple[float, ...]]]:
    """``image`` at ``width`` pixels across (area averaging down, bicubic up), with its corners."""
    scale = width / image.shape[1]
    size = (width, round(image.shape[0] * scale))
    interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
    resized = np.asarray(cv2.resize(image, size, interpolation=interpolation), np.uint8)
    return resized, [tuple(v * scale for v in corner) for corner in corners]


def _cropped(
    image: Image, corners: list[tuple[float, ...]], margin: float
) -> tuple[Image, list[tuple[float, ...]], tuple[int, int]]:
    """``image`` cut to the box round its field ``corners`` widened by ``margin`` of the box's
    width and height each way (within the image), its corners moved with it, and where the cut
    begins (x, y)."""
    points = np.asarray(corners, np.float64)
    low, high = points.min(axis=0), points.max(axis=0)
    reach = margin * (high - low)
    height, width = image.shape[:2]
    x0, y0 = (max(0, math.floor(v)) for v in low - reach)
    x1 = min(width, math.ceil(high[0] + reach[0]) + 1)
    y1 = min(height, math.ceil(high[1] + reach[1]) + 1)
    cut = np.ascontiguousarray(image[y0:y1, x0:x1])
    return cut, [(x - x0, y - y0) for x, y in points.tolist()], (x0, y0)


def _captured(folder: Path, rows: dict[tuple[str, str], dict[str, int]], show: int) -> None:
    """A folder from ``sheshbesh run --capture``: its frames read with its own calibration and
    compared with the positions the referee committed."""
    calibration = load_calibration(folder / "calibration.json")
    if not isinstance(calibration, FieldCalibration):
        print(f"{folder}: calibrated on the marker board; this benchmark reads field calibrations")
        return
    row = rows[("captured", folder.name)]
    for path, image, label in load_dataset(folder):
        row["frames"] += 1
        row["boards"] += 1
        observation = watch_field(image, calibration)
        row["false_hands"] += observation.state == "occluded"
        wrong = [
            (p, label.count(p, "white"), label.count(p, "black"))
            for p in POINT_LOCATIONS
            if (observation.count(p, "white"), observation.count(p, "black"))
            != (label.count(p, "white"), label.count(p, "black"))
        ]
        bar = (label.count("bar-white", "white"), label.count("bar-black", "black"))
        if bar != (
            observation.count("bar-white", "white"),
            observation.count("bar-black", "black"),
        ):
            wrong.append(("bar", *bar))
        _score(row, len(wrong), observation.state == "occluded")
        if wrong and show:
            print(f"{path.name}: {wrong}")


def _hand_parts(observation: Observation) -> str:
    """What the hand test measured on a frame, for a ``--show`` line: the largest strange patch
    and the arm at the field's edge, each in checker areas beside the least that makes a hand
    (``RingSettings``); nothing where the test did not run (no empty board known)."""
    if "foreign" not in observation.extra or "arm" not in observation.extra:
        return ""
    settings = field_reader.RingSettings()
    return (
        f" (patch {observation.extra['foreign']:.2f} checker areas, a hand from "
        f"{settings.hand_area:g}; arm {observation.extra['arm']:.2f}, from {settings.arm_area:g})"
    )


def _as_read(box: Sequence[float], scale: float, offset: tuple[int, int]) -> list[float]:
    """A labelled box (x, y, w, h, in the render's pixels) where it lies in the frame as read:
    times ``scale`` (``--width``), less ``offset`` (where ``--crop`` cut the frame)."""
    x, y, w, h = (v * scale for v in box)
    return [x - offset[0], y - offset[1], w, h]


def _dice_misread(
    labelled: list[dict[str, Any]],
    observation: Observation,
    scale: float,
    offset: tuple[int, int],
) -> str:
    """The dice there and the dice read, each as pips, where its box starts (pixels of the frame
    as read: the labelled boxes times ``scale``, the ``--width`` rescale, less ``offset``, where
    ``--crop`` cut the frame; a lens's bend, ``--lens``, moves only the dice read) and whether it
    lies cocked, to tell a misread face from a missed die or a mark taken for one."""

    def die(pips: int, box: Sequence[float], cocked: bool) -> str:
        return f"{pips}{' cocked' if cocked else ''} at ({round(box[0])}, {round(box[1])})"

    there = [
        die(d["pips"], _as_read(d["box"], scale, offset), bool(d.get("cocked"))) for d in labelled
    ]
    read = [die(d.pips, d.box, d.cocked) for d in observation.dice]
    return f"there {', '.join(there) or 'none'}; read {', '.join(read) or 'none'}"


def _score(row: dict[str, int], wrong: int, occluded: bool) -> None:
    """One board without a hand read with ``wrong`` locations wrong; ``occluded``: taken for a
    hand, so the referee gets none of it (the ``served`` column)."""
    row["locations"] += len(SCORED)
    row["exact"] += len(SCORED) - wrong
    row["boards_exact"] += not wrong
    row["served_locations"] += len(SCORED)
    row["served_exact"] += 0 if occluded else len(SCORED) - wrong


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "    -"


def _line(split: str, family: str, row: dict[str, int]) -> str:
    return (
        f"{split:8} {family:22} {row['frames']:6d} {row['refused']:7d} "
        f"{_share(row['exact'], row['locations']):>6} {row['exact']:>3}/{row['locations']:<3} "
        f"{_share(row['boards_exact'], row['boards']):>9} "
        f"{_share(row['tall_exact'], row['tall']):>11} "
        f"{row['hands_refused']:>3}/{row['hands']:<3} {row['false_hands']:>10} "
        f"{_share(row['dice_right'], row['dice_frames']):>7} "
        f"{_share(row['cube_right'], row['cube_frames']):>7} "
        f"{_share(row['served_exact'], row['served_locations']):>7}"
    )


if __name__ == "__main__":
    raise SystemExit(main())
