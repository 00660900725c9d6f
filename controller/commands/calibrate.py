"""``sheshbesh calibrate IMAGE|--camera N [--corners x1,y1,...] --out FILE [--overlay PNG]``.

Finds the board (ArUco markers, or four corners given by hand: top-left, top-right, bottom-right,
bottom-left as White sees the board) in a frame of the starting position, learns its colours and
writes the calibration as JSON; ``--overlay`` draws what was found, for a person to check.
"""

from __future__ import annotations

import argparse
import sys


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
    source.add_argument("image", nargs="?", help="a frame of the starting position")
    source.add_argument(
        "--camera", metavar="N", help="take the frame from camera N (index or /dev path)"
    )
    parser.add_argument(
        "--corners", type=_corners, metavar="x1,y1,...,x4,y4", help="board corners by hand"
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
    import cv2

    from vision.calibration import calibrate
    from vision.errors import VisionError
    from vision.images import load_image
    from vision.overlay import draw_calibration
    from vision.sources import first_frame

    try:
        image = load_image(args.image) if args.image else first_frame(args.camera)
        calibration = calibrate(image, corners=args.corners, learn=not args.no_colours)
        calibration.save(args.out)
        if args.overlay:
            cv2.imwrite(args.overlay, draw_calibration(image, calibration))
        print(f"calibration ({calibration.method}) written to {args.out}", file=sys.stderr)
        return 0
    except VisionError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
