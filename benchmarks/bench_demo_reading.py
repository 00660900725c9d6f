"""How well vision reads the demo's own frames: every settled shot of a real match, several boards.

For each seed (a board style and camera pose), the embedded 3-point match is acted out by the director;
every still shot is rendered once and read by :func:`vision.reader.read_marker_board`; the reading is compared
with what lies on the table (checkers per location, dice pips, cube face and place). The demo and the
end-to-end test need this near perfect: one misread die can stall a game.

    .venv/bin/python benchmarks/bench_demo_reading.py [--seeds 7 1 2 3] [--verbose]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[7, 1, 2, 3, 4, 5])
    parser.add_argument("--verbose", action="store_true", help="print every misread shot")
    args = parser.parse_args()
    cv2.setNumThreads(1)

    from controller.record.matfile import read_mat
    from controller.sim.director import FAST_TIMING, direct_match
    from controller.sim.stage import Stage, calibrated_reader
    from vision.reader import read_marker_board

    root = Path(__file__).resolve().parents[1]
    match = read_mat((root / "controller" / "data" / "demo-3pt.mat").read_text())
    totals = {"shots": 0, "bad": 0, "checkers": 0, "dice": 0, "cube": 0}
    for seed in args.seeds:
        stage = Stage(seed=seed)
        calibration = calibrated_reader(stage).calibration
        bad = 0
        shots = [shot for shot in direct_match(match, FAST_TIMING) if not shot.hand]
        for shot in shots:
            image = next(stage.frames(shot, 1))
            seen = read_marker_board(image, calibration)
            scene = stage.scene(shot)
            problems = []
            for name, (white, black) in scene.counts.items():
                got = (seen.count(name, "white"), seen.count(name, "black"))
                if got != (white, black):
                    problems.append(f"{name} saw {got} truth {(white, black)}")
            if problems:
                totals["checkers"] += 1
            truth_dice = sorted(pips for pips, _ in shot.table.dice)
            seen_dice = sorted(d.pips for d in seen.dice if not d.cocked)
            if truth_dice != seen_dice:
                totals["dice"] += 1
                problems.append(
                    f"dice saw {[(d.pips, d.cocked) for d in seen.dice]} truth {truth_dice}"
                )
            cube = None if seen.cube is None else (seen.cube.value, seen.cube.place)
            if cube != (shot.table.cube_value, shot.table.cube_place):
                totals["cube"] += 1
                problems.append(
                    f"cube saw {cube} truth {(shot.table.cube_value, shot.table.cube_place)}"
                )
            if problems:
                bad += 1
                if args.verbose:
                    print(f"  seed {seed} {shot.caption}: {'; '.join(problems)}")
        totals["shots"] += len(shots)
        totals["bad"] += bad
        print(f"seed {seed}: {len(shots) - bad}/{len(shots)} still shots read exactly")
    shots = totals["shots"]
    print(
        f"all: {shots - totals['bad']}/{shots} exact ({100 * (shots - totals['bad']) / shots:.1f}%); "
        f"shots with a checker wrong {totals['checkers']}, dice wrong {totals['dice']}, "
        f"cube wrong {totals['cube']}"
    )


if __name__ == "__main__":
    main()
