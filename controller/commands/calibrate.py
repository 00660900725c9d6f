"""``sheshbesh calibrate IMAGE|--camera N --field-corners x1,y1,x2,y2,x3,y3,x4,y4 --out FILE``.

With ``--field-corners`` (the contract for any real board): the four corners of the PLAYING FIELD
(the 24 points and the bar; trays and frame excluded), top-left, top-right, bottom-right,
bottom-left as the image shows it, on a frame of ANY position. The field's proportions, the bar
and the checkers' size are measured from the image, and the two checker sets learned from whatever
stands on the board; the lighter set is White unless ``--swap-colours``.

Without it, the project's own marker board: ArUco markers, or its outer corners with ``--corners``,
on a frame of the starting position. ``--overlay`` draws what was found, for a person to check;
when calibration is refused, it draws what was seen so the reason can be looked at.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vision.calibration import Calibration
    from vision.field_board import FieldCalibration
    from vision.images import Image


def _corners(text: str) -> list[tuple[float, float]]:
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"corners {text!r} are not numbers") from error
    if len(values) != 8:
        raise argparse.ArgumentTypeError(
            f"corners need 8 numbers (x1,y1,...,x4,y4), got {len(values)}"
        )
    return [(values[i], values[i + 1]) for i in range(0, 8, 2)]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("image", nargs="?", help="a frame of the board")
    source.add_argument(
        "--camera", metavar="N", help="take the frame from camera N (index or /dev path)"
    )
    corners = parser.add_mutually_exclusive_group()
    corners.add_argument(
        "--field-corners",
        type=_corners,
        metavar="x1,y1,...,x4,y4",
        help="the playing field's corners (points and bar, no trays or frame): top-left, "
        "top-right, bottom-right, bottom-left as the image shows it; any position on the board",
    )
    corners.add_argument(
        "--corners",
        type=_corners,
        metavar="x1,y1,...,x4,y4",
        help="the marker board's outer corners by hand (starting position)",
    )
    parser.add_argument(
        "--swap-colours",
        action="store_true",
        help="with --field-corners: the darker checker set is White",
    )
    parser.add_argument(
        "--variant",
        choices=["backgammon", "sheshbesh"],
        default="backgammon",
        help="with --field-corners: the game played on the board; sheshbesh reads a stack "
        "standing on a point 1 to 6 of either side as one checker",
    )
    parser.add_argument(
        "--out", required=True, metavar="FILE", help="where to write the calibration JSON"
    )
    parser.add_argument(
        "--overlay", metavar="PNG", help="also write the frame with the regions drawn"
    )
    parser.add_argument(
        "--no-colours", action="store_true", help="locate the board only (not the start)"
    )


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from vision.calibration import calibrate
    from vision.errors import VisionError
    from vision.images import load_image
    from vision.overlay import draw_calibration
    from vision.sources import first_frame

    if Path(args.out).is_dir():
        print(f"error: --out {args.out!r} is a folder; give a file name", file=sys.stderr)
        return 1
    try:
        image = load_image(args.image) if args.image else first_frame(args.camera)
        if args.field_corners is not None:
            return _calibrate_field(image, args)
        calibration = calibrate(image, corners=args.corners, learn=not args.no_colours)
        _save(calibration, args.out)
        if args.overlay:
            _write_overlay(args.overlay, draw_calibration(image, calibration))
        print(f"calibration ({calibration.method}) written to {args.out}", file=sys.stderr)
        return 0
    except VisionError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1


def _save(calibration: Calibration | FieldCalibration, path: str) -> None:
    try:
        calibration.save(path)
    except OSError as error:
        raise OSError(f"calibration cannot be written to {path!r}: {error.strerror}") from error


def _write_overlay(path: str, image: Image) -> None:
    import cv2

    try:
        written = cv2.imwrite(path, image)
    except cv2.error:  # a folder, or a name without an image type
        written = False
    if not written:
        raise OSError(f"overlay {path!r} could not be written (unknown image type or folder)")


def _calibrate_field(image: Image, args: argparse.Namespace) -> int:
    from vision.errors import VisionError
    from vision.field_board import calibrate_field, standing_for
    from vision.overlay import draw_field, draw_field_refusal

    try:
        calibration = calibrate_field(
            image, args.field_corners, swap=args.swap_colours, standing=standing_for(args.variant)
        )
    except VisionError as error:
        if args.overlay:
            _write_overlay(args.overlay, draw_field_refusal(image, args.field_corners, str(error)))
        raise
    _save(calibration, args.out)
    if args.overlay:
        _write_overlay(args.overlay, draw_field(image, calibration))
    print(f"calibration ({calibration.method}) written to {args.out}", file=sys.stderr)
    return 0
