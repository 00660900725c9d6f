"""``python -m synth``: render a labelled set, draw a contact sheet, draw labels back onto images."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from synth import SynthError, SynthInputError
from synth.labels import label_of, problems
from synth.scene import (
    FAMILIES,
    GENERATIONS,
    HELDOUT_FAMILIES,
    HELDOUT_LIGHTS,
    LIGHT_KINDS,
    SELECTIONS,
    STREAM_MODES,
    VARIANTS,
    choose,
    make_scene,
)
from synth.sheets import contact_sheet, draw_label, labelled_images


def render(args: argparse.Namespace) -> int:
    """Render ``count`` scenes, seeds ``seed`` .. ``seed + count - 1`` (or the ``seeds`` listed),
    into ``out``."""
    from synth.blender import render_linear
    from synth.post import develop, encode_jpeg, stream

    generation, variant, stream_mode = generation_options(args)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    times: list[float] = []
    seeds = args.seeds if args.seeds else list(range(args.seed, args.seed + args.count))
    for seed in seeds:
        family, light = choose(seed, args.family)
        scene = make_scene(
            seed,
            family,
            light,
            args.width,
            args.height,
            generation=generation,
            variant=variant,
            stream=stream_mode,
            dice_pairs=args.dice_pairs,
        )
        stem = (
            f"{family}-{seed:06d}" if variant == "backgammon" else f"{variant}-{family}-{seed:06d}"
        )
        if args.skip_existing and (out / f"{stem}.json").is_file():
            continue
        started = time.monotonic()
        linear = render_linear(scene, args.samples)
        image = develop(linear, scene.post, scene.camera.lens_mm)
        if scene.stream is not None:
            image = stream(image, scene.stream)
        quality = args.quality if args.quality else scene.post.jpeg_quality
        (out / f"{stem}.jpg").write_bytes(encode_jpeg(image, quality))
        label = label_of(scene, f"{stem}.jpg")
        (out / f"{stem}.json").write_text(json.dumps(label, indent=1) + "\n")
        times.append(time.monotonic() - started)
        print(f"{stem}: {family} {light} {label['split']} {times[-1]:.1f} s", flush=True)
    write_card(out, args, times)
    return 0


def seed_list(text: str) -> list[int]:
    """``--seeds 3,17,40``: the seeds, in order."""
    try:
        seeds = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of seeds: {text!r}") from None
    if not seeds or any(seed < 0 for seed in seeds):
        raise argparse.ArgumentTypeError(f"not a comma-separated list of seeds: {text!r}")
    return seeds


def generation_options(args: argparse.Namespace) -> tuple[int, str, str]:
    """(generation, variant, stream mode) from the command line: the Shesh Besh variant and the
    stream modes exist from generation 2 on, so asking for them without --generation means 2."""
    generation = args.generation
    if generation is None:
        generation = 2 if args.variant != "backgammon" or args.stream is not None else 1
    if generation < 2 and (args.variant != "backgammon" or args.stream is not None):
        raise SynthInputError("--variant sheshbesh and --stream need --generation 2")
    return generation, args.variant, args.stream or "mixed"


def write_card(out: Path, args: argparse.Namespace, times: list[float]) -> None:
    """``card.json``: what the folder holds, how it was made and how long frames took."""
    labels = [
        json.loads(p.read_text()) for p in sorted(out.glob("*.json")) if p.name != "card.json"
    ]
    size = sum(p.stat().st_size for p in out.iterdir() if p.is_file())
    card: dict[str, Any] = {
        "command": "python -m synth " + " ".join(sys.argv[1:]),
        "images": len(labels),
        "bytes": size,
        "families": dict(Counter(label["family"] for label in labels)),
        "lights": dict(Counter(label["style"]["light_kind"] for label in labels)),
        "splits": dict(Counter(label["split"] for label in labels)),
        "heldout_families": list(HELDOUT_FAMILIES),
        "heldout_lights": list(HELDOUT_LIGHTS),
        "occluded": sum(1 for label in labels if label["occluded"]),
        "width": args.width,
        "height": args.height,
        "samples": args.samples,
    }
    if any("generation" in label for label in labels):
        card["generations"] = dict(Counter(str(label.get("generation", 1)) for label in labels))
        card["variants"] = dict(Counter(label.get("variant", "backgammon") for label in labels))
        card["standing_stacks"] = sum(len(label.get("standing", {})) for label in labels)
        card["logo_cubes"] = sum(
            1 for label in labels if label["cube"] is not None and label["cube"].get("logo")
        )
        card["streamed"] = dict(
            Counter((label["style"].get("stream") or {}).get("codec", "none") for label in labels)
        )
    if any(label.get("generation", 1) >= 3 for label in labels):
        card["cocked_dice_lean_on"] = dict(
            Counter(die["leans_on"] for label in labels for die in label["dice"] if die["cocked"])
        )
    if times:
        card["seconds_per_frame_this_run"] = round(sum(times) / len(times), 1)
    (out / "card.json").write_text(json.dumps(card, indent=1) + "\n")


def sheet(args: argparse.Namespace) -> int:
    image = contact_sheet(args.folder, args.count)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(args.out), image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    print(f"{args.out}: {image.shape[1]}x{image.shape[0]}")
    return 0


def check_labels(args: argparse.Namespace) -> int:
    """Draw every label onto its image into ``out`` and report inconsistent labels."""
    args.out.mkdir(parents=True, exist_ok=True)
    bad = 0
    for path, label in labelled_images(args.folder):
        for problem in problems(label):
            bad += 1
            print(f"{path.name}: {problem}")
        image = cv2.imread(str(path))
        if image is None:
            raise SynthError(f"image {path} cannot be read")
        drawn = draw_label(np.asarray(image, dtype=np.uint8), label)
        cv2.imwrite(str(args.out / path.name), drawn, [cv2.IMWRITE_JPEG_QUALITY, 88])
    print(f"{args.out}: labels drawn; {bad} problems")
    return 1 if bad else 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="python -m synth", description=__doc__)
    commands = top.add_subparsers(dest="command", required=True)
    r = commands.add_parser("render", help="render labelled scenes into a folder")
    r.add_argument("--count", type=int, default=1)
    r.add_argument("--seed", type=int, default=0)
    r.add_argument(
        "--seeds",
        type=seed_list,
        default=None,
        help="comma-separated seeds to render instead of --seed and --count",
    )
    r.add_argument("--family", default="all", choices=FAMILIES + SELECTIONS)
    r.add_argument("--out", type=Path, required=True)
    r.add_argument("--width", type=int, default=1280)
    r.add_argument("--height", type=int, default=720)
    r.add_argument(
        "--samples",
        type=int,
        default=16,
        help="Cycles samples per pixel, denoised (default 16; fewer for quick looks)",
    )
    r.add_argument(
        "--generation",
        type=int,
        choices=GENERATIONS,
        default=None,
        help="1: the committed evaluation set's generator (the default); 2 adds Shesh Besh, cube "
        "logos, stream compression and dice leaning on checkers; 3 also leans dice on the wall; 4 "
        "adds hands resting on the board's frame",
    )
    r.add_argument(
        "--variant",
        choices=VARIANTS,
        default="backgammon",
        help="the game set up on the board (sheshbesh: standing stacks; means --generation 2)",
    )
    r.add_argument(
        "--stream",
        choices=tuple(STREAM_MODES),
        default=None,
        help="how often a frame is compressed like a video stream (generation 2; default mixed)",
    )
    r.add_argument("--quality", type=int, default=0, help="JPEG quality (default: the scene's own)")
    r.add_argument(
        "--dice-pairs",
        type=int,
        default=1,
        help="pairs of dice thrown where a scene has dice (more than 1: a set to learn dice from; "
        "the reader takes a roll for two dice)",
    )
    r.add_argument(
        "--skip-existing", action="store_true", help="leave scenes already in the folder"
    )
    r.set_defaults(run=render)
    c = commands.add_parser("contact-sheet", help="one image of thumbnails of a folder")
    c.add_argument("folder", type=Path)
    c.add_argument("--out", type=Path, required=True)
    c.add_argument("--count", type=int, default=30)
    c.set_defaults(run=sheet)
    k = commands.add_parser("check-labels", help="draw labels onto their images and check them")
    k.add_argument("folder", type=Path)
    k.add_argument("--out", type=Path, required=True)
    k.set_defaults(run=check_labels)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if (
        getattr(args, "count", 1) < 1
        or getattr(args, "width", 2) < 2
        or getattr(args, "height", 2) < 2
    ):
        print("error: --count, --width and --height must be positive", file=sys.stderr)
        return 2
    try:
        result: int = args.run(args)
    except SynthError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return result


__all__ = ["LIGHT_KINDS", "main"]
