"""Legal-play generation speed: this engine against GNU Backgammon's ``gnubg_nn.moves``.

A fixed, seeded mix of positions from random games (each with a seeded roll) is generated once; then
both engines answer every (position, roll) in the same run. Prints generations per second for each,
the ratio, and the slowest single position with doubles for this engine, in milliseconds.

Times are CPU time of this process (``time.process_time``), best of ``--repeat`` runs, with the
garbage collector off as ``timeit`` does, so other work on a shared machine disturbs them less.
One generation here is ``len(legal_plays(position, dice))``: the distinct reachable positions, as
``gnubg_nn.moves`` returns them.

Run: ``.venv/bin/python benchmarks/bench_rules.py [--games 60] [--seed 7] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.rules import Dice, Position, legal_plays


def sample(seed: int, games: int) -> list[tuple[Position, Dice]]:
    """Positions met in seeded random games, each with the roll played there."""
    rng = random.Random(seed)
    cases: list[tuple[Position, Dice]] = []
    for _ in range(games):
        position = Position.initial(turn=rng.randint(0, 1))
        while True:
            dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
            cases.append((position, dice))
            after = rng.choice(sorted(legal_plays(position, dice)))
            if after.mover_off == 15:
                break
            position = after.swap()
    return cases


def time_ours(cases: list[tuple[Position, Dice]]) -> float:
    start = time.process_time()
    for position, dice in cases:
        len(legal_plays(position, dice))
    return time.process_time() - start


def time_gnubg(cases: list[tuple[list[list[int]], int, int]]) -> float | None:
    try:
        import gnubg_nn
    except ImportError:
        return None
    moves = gnubg_nn.moves
    start = time.process_time()
    for board, first, second in cases:
        moves(board, first, second, 0)
    return time.process_time() - start


def slowest_double(cases: list[tuple[Position, Dice]]) -> tuple[float, Position, Dice, int]:
    """Every position with every double; each timed as the best of three wall-clock runs."""
    worst = (0.0, cases[0][0], cases[0][1], 0)
    for position, _ in cases:
        for value in range(1, 7):
            dice = Dice(value, value)
            elapsed = float("inf")
            for _ in range(3):
                start = time.perf_counter()
                count = len(legal_plays(position, dice))
                elapsed = min(elapsed, time.perf_counter() - start)
            if elapsed > worst[0]:
                worst = (elapsed, position, dice, count)
    return worst


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs")
    args = parser.parse_args()
    cases = sample(args.seed, args.games)
    gc.disable()
    boards = [(position.to_gnubg_board(), dice.first, dice.second) for position, dice in cases]
    ours = min(time_ours(cases) for _ in range(args.repeat))
    reference = [time_gnubg(boards) for _ in range(args.repeat)]
    print(f"positions: {len(cases)} from {args.games} seeded random games (seed {args.seed})")
    print(f"this engine : {len(cases) / ours:10.0f} generations/s")
    if reference[0] is None:
        print("gnubg_nn    : not installed (pip install gnubg-nn, x86-64)")
    else:
        gnubg_time = min(t for t in reference if t is not None)
        print(f"gnubg_nn    : {len(cases) / gnubg_time:10.0f} generations/s")
        print(f"ratio       : {gnubg_time / ours:10.3f} of gnubg_nn's rate (goal >= 0.1)")
    elapsed, position, dice, count = slowest_double(cases)
    print(
        f"slowest doubles position: {elapsed * 1000:.2f} ms for {dice} in "
        f"{position.to_position_id()} ({count} distinct results)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
