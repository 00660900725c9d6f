"""``sheshbesh read IMAGE [--calibration FILE]``: vision alone, the reading printed as JSON.

``--dice-only`` reads dice anywhere in a photo with no board and prints
``{"dice": [{"pips": N, "confidence": C, "box": [x, y, w, h]}, ...]}``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="an image file (PNG, JPEG, ...)")
    parser.add_argument(
        "--calibration",
        metavar="FILE",
        help="a calibration from `sheshbesh calibrate` (default: calibration.json beside the image, "
        "else the image itself is taken as the starting position)",
    )
    parser.add_argument(
        "--dice-only", action="store_true", help="read dice in a photo with no board"
    )
    parser.add_argument(
        "--overlay", metavar="PNG", help="also write the image with the reading drawn on it"
    )
    parser.add_argument(
        "--settings", metavar="JSON", help="reader thresholds overriding the defaults"
    )


def run(args: argparse.Namespace) -> int:
    from vision.calibration import Calibration, calibrate
    from vision.config import ReaderConfig
    from vision.dice import read_dice_photo
    from vision.errors import VisionError
    from vision.field_board import FieldCalibration, load_calibration, read_field
    from vision.images import load_image
    from vision.overlay import draw_field_reading, draw_reading
    from vision.reader import read_marker_board

    try:
        image = load_image(args.image)
        if args.dice_only:
            dice = read_dice_photo(image)
            result = {
                "dice": [
                    {"pips": d.pips, "confidence": round(d.confidence, 4), "box": list(d.box)}
                    for d in dice
                ]
            }
            print(json.dumps(result))
            return 0
        config = ReaderConfig.load(args.settings) if args.settings else ReaderConfig()
        beside = Path(args.image).with_name("calibration.json")
        calibration: Calibration | FieldCalibration
        if args.calibration:
            calibration = load_calibration(args.calibration)
        elif beside.is_file():
            calibration = load_calibration(beside)
        else:
            print(
                "note: no calibration given; taking this image as the starting position",
                file=sys.stderr,
            )
            calibration = calibrate(image)
        if isinstance(calibration, FieldCalibration):
            observation = read_field(image, calibration)
            drawn = draw_field_reading(image, calibration, observation)
        else:
            observation = read_marker_board(image, calibration, config)
            drawn = draw_reading(image, calibration, observation)
        if args.overlay:
            import cv2

            try:
                written = cv2.imwrite(args.overlay, drawn)
            except cv2.error:  # a folder, or a name without an image type
                written = False
            if not written:
                print(f"error: overlay {args.overlay!r} could not be written", file=sys.stderr)
                return 1
        print(observation.to_json())
        return 0
    except VisionError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
