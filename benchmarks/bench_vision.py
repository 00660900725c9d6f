"""Vision benchmark (a script, not a test): accuracy on seeded synthetic boards and real dice photos,
and the time to read one 1280x720 frame on one core.

    .venv/bin/python benchmarks/bench_vision.py [--boards 500] [--tall 200] [--seed 0] [--real DIR] [--json]

Each synthetic board has its own random board colours, checker colours, camera pose, light
gradient, glare, per-frame shadow, blur and noise (``random_style(hard=True)``); it is calibrated
on a frame of the starting position in the same light (no passing shadow), then a random position
with dice and cube is read. A die counts as right when its pips and its cocked flag are right; a
cocked die (to be rolled again) only needs the flag. Each die read must also name the half of the
board it lies in; a board where more dice are read than lie there has a phantom die.

Tall stacks are reported apart (``tall_stacks``): on each of ``--tall`` boards (their own style,
pose and light, as above) one side piles 11 to 15 checkers on one point or on the bar, the rest
of both sides elsewhere; the figures are the share of those tall stacks read exactly (also by
height), the share the referee's reading of the board gets right (it settles a count vision was
unsure of from the fifteen checkers a side), the share of whole boards read exactly, and the mean
confidence vision gave the tall stacks it read right and wrong.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import json
import statistics
import time
from pathlib import Path

import cv2
import numpy as np

from controller.referee.reading import Board
from controller.referee.reading import read_board as referee_reading
from sheshbesh.locations import LOCATIONS
from vision.calibration import calibrate
from vision.dice import read_dice_photo
from vision.errors import VisionError
from vision.images import load_image
from vision.reader import read_marker_board
from vision.synth.render import DrawnScene, random_scene, random_style, render_frame

REAL = Path(__file__).resolve().parents[1] / "tests" / "data" / "real" / "dice-matteop65"


def die_key(pips: int, cocked: bool) -> tuple[int, bool]:
    return (0, True) if cocked else (pips, False)


def synthetic(boards: int, seed: int, verbose: bool) -> dict[str, float]:
    locations_right = locations_total = boards_right = 0
    dice_right = dice_total = dice_boards_right = cube_right = 0
    dice_read = halves_right = phantom_boards = 0
    failures = 0
    times: list[float] = []
    for index in range(boards):
        rng = np.random.default_rng(seed + index)
        style = random_style(rng, hard=True)
        start = render_frame(
            DrawnScene.starting(), dataclasses.replace(style, shadow=0.0), rng
        ).image
        scene = random_scene(rng)
        frame = render_frame(scene, style, rng).image
        try:
            calibration = calibrate(start)
        except VisionError as error:
            failures += 1
            locations_total += len(LOCATIONS)
            dice_total += len(scene.dice)
            if verbose:
                print(f"board {index}: calibration failed: {error}")
            continue
        began = time.perf_counter()
        observation = read_marker_board(frame, calibration)
        times.append(time.perf_counter() - began)
        wrong = [
            name
            for name in LOCATIONS
            if (observation.count(name, "white"), observation.count(name, "black"))
            != scene.count(name)
        ]
        locations_total += len(LOCATIONS)
        locations_right += len(LOCATIONS) - len(wrong)
        boards_right += not wrong
        truth = collections.Counter(die_key(d.pips, d.cocked) for d in scene.dice)
        seen = collections.Counter(die_key(d.pips, d.cocked) for d in observation.dice)
        dice_total += sum(truth.values())
        dice_right += sum((truth & seen).values())
        dice_boards_right += truth == seen
        phantom_boards += len(observation.dice) > len(scene.dice)
        dice_read += len(observation.dice)
        halves_right += sum(d.half == scene.dice_half for d in observation.dice)  # one half
        cube = observation.cube
        cube_right += cube is not None and (cube.value, cube.place) == (
            scene.cube_value,
            scene.cube_place,
        )
        if verbose and (wrong or truth != seen):
            details = [
                (n, scene.count(n), observation.count(n, "white"), observation.count(n, "black"))
                for n in wrong
            ]
            print(
                f"board {index}: wrong {details} dice {sorted(truth.elements())} read {sorted(seen.elements())}"
            )
    return {
        "boards": boards,
        "calibration_failures": failures,
        "location_accuracy": locations_right / locations_total,
        "board_exact_rate": boards_right / boards,
        "die_accuracy": dice_right / dice_total,
        "dice_pair_rate": dice_boards_right / boards,
        "die_half_accuracy": halves_right / max(dice_read, 1),
        "phantom_die_boards": phantom_boards,
        "cube_accuracy": cube_right / boards,
        "median_ms": 1000 * statistics.median(times),
        "worst_ms": 1000 * max(times),
    }


def tall_scene(rng: np.random.Generator, height: int) -> tuple[DrawnScene, str]:
    """A position where one side piles ``height`` (11..15) checkers at one place: (scene, place)."""
    mover = int(rng.integers(2))
    place = "bar-white" if mover == 0 else "bar-black"
    if rng.random() >= 0.15:
        place = f"p{int(rng.integers(1, 25))}"
    counts: dict[str, list[int]] = {name: [0, 0] for name in LOCATIONS}
    counts[place][mover] = height
    for colour in (0, 1):
        left = 15 - counts[place][colour]
        tray = ("off-white", "off-black")[colour]
        borne_off = min(left, int(rng.choice([0, 0, 2, 4])))
        counts[tray][colour] = borne_off
        left -= borne_off
        while left > 0:
            point = f"p{int(rng.integers(1, 25))}"
            if point == place or counts[point][1 - colour] > 0 or counts[point][colour] >= 8:
                continue
            add = min(left, int(rng.integers(1, 5)), 8 - counts[point][colour])
            counts[point][colour] += add
            left -= add
    scene = DrawnScene(counts={name: (white, black) for name, (white, black) in counts.items()})
    return scene, place


def tall_stacks(boards: int, seed: int, verbose: bool) -> dict[str, object]:
    right = 0
    settled = 0
    exact_boards = 0
    by_height: dict[int, list[int]] = {h: [0, 0] for h in range(11, 16)}
    confidence: dict[bool, list[float]] = {True: [], False: []}
    for index in range(boards):
        rng = np.random.default_rng(10_000 + seed + index)
        style = random_style(rng, hard=True)
        start = render_frame(
            DrawnScene.starting(), dataclasses.replace(style, shadow=0.0), rng
        ).image
        height = int(rng.integers(11, 16))
        scene, place = tall_scene(rng, height)
        frame = render_frame(scene, style, rng).image
        try:
            calibration = calibrate(start)
        except VisionError:
            by_height[height][1] += 1
            continue
        observation = read_marker_board(frame, calibration)
        seen = (observation.count(place, "white"), observation.count(place, "black"))
        ok = seen == scene.count(place)
        right += ok
        by_height[height][0] += ok
        by_height[height][1] += 1
        board = referee_reading(observation)
        settled += isinstance(board, Board) and board.counts()[place] == scene.count(place)
        entry = observation.locations[place]
        confidence[ok].append(max(entry.white_confidence, entry.black_confidence))
        exact_boards += all(
            (observation.count(name, "white"), observation.count(name, "black"))
            == scene.count(name)
            for name in LOCATIONS
        )
        if verbose and not ok:
            print(f"tall board {index}: {place} holds {scene.count(place)}, read {seen}")
    return {
        "boards": boards,
        "tall_stack_accuracy": right / boards,
        "after_referee_reading": settled / boards,
        "board_exact_rate": exact_boards / boards,
        **{f"accuracy_{h}": r / max(n, 1) for h, (r, n) in by_height.items()},
        "confidence_when_right": statistics.fmean(confidence[True] or [0.0]),
        "confidence_when_wrong": statistics.fmean(confidence[False] or [0.0]),
    }


def real_dice(folder: Path, verbose: bool) -> dict[str, float]:
    images = sorted((folder / "images").glob("*.jpg"))
    dice_right = dice_total = images_right = 0
    times = []
    for path in images:
        truth = collections.Counter(
            int(line.split()[0]) + 1
            for line in (folder / "labels" / f"{path.stem}.txt").read_text().splitlines()
            if line.strip()
        )
        image = load_image(path)
        began = time.perf_counter()
        seen = collections.Counter(d.pips for d in read_dice_photo(image))
        times.append(time.perf_counter() - began)
        dice_total += sum(truth.values())
        dice_right += sum((truth & seen).values())
        images_right += truth == seen
        if verbose and truth != seen:
            print(
                f"{path.name}: labelled {sorted(truth.elements())} read {sorted(seen.elements())}"
            )
    return {
        "images": len(images),
        "die_accuracy": dice_right / dice_total,
        "image_exact_rate": images_right / len(images),
        "median_ms": 1000 * statistics.median(times),
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--boards", type=int, default=500)
    parser.add_argument(
        "--tall", type=int, default=200, help="boards with 11 to 15 checkers at one place"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--real", type=Path, default=REAL)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--verbose", action="store_true", help="list every miss")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    results: dict[str, object] = {"synthetic": synthetic(args.boards, args.seed, args.verbose)}
    if args.tall > 0:
        results["tall_stacks"] = tall_stacks(args.tall, args.seed, args.verbose)
    if (args.real / "images").is_dir():
        results["real_dice"] = real_dice(args.real, args.verbose)
    if args.json:
        print(json.dumps(results))
    else:
        for part, figures in results.items():
            print(part)
            for key, value in figures.items():  # type: ignore[attr-defined]
                print(
                    f"  {key:22} {value:.4f}" if isinstance(value, float) else f"  {key:22} {value}"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
