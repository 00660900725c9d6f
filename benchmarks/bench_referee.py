"""How long the referee takes to decide on one observation: median and worst, over whole matches.

Run: ``.venv/bin/python benchmarks/bench_referee.py`` (optionally ``--repeat N``).

Two parts:

1. Every real match in ``tests/data/matches`` replayed as board observations (hands-over-the-board
   noise, checkers moved one at a time), each ``Referee.handle`` call timed.
2. The worst doubles: positions whose double rolls have the most legal results (found among the
   positions of those matches, plus hand-made spread-out positions), each driven through dice seen,
   one checker moved, the whole play on the board, and the dice picked up.

Goal: under 20 ms worst case on one core.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "referee"))

from referee_testkit import match_inputs, match_paths, seen  # noqa: E402

from controller.record.matfile import read_mat  # noqa: E402
from controller.referee import (  # noqa: E402
    Input,
    MatchSettings,
    NewMatch,
    ObservationSeen,
    Referee,
)
from controller.rules import Dice, Play, Position, legal_plays  # noqa: E402

DOUBLES = ((1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6))


def timed(referee: Referee, inputs: list[Input]) -> list[float]:
    """Milliseconds per ``handle`` call."""
    times = []
    for item in inputs:
        start = time.perf_counter_ns()
        referee.handle(item)
        times.append((time.perf_counter_ns() - start) / 1e6)
    return times


def match_positions() -> list[Position]:
    positions = []
    for path in match_paths():
        match = read_mat(path.read_text())
        for game in match.games:
            position = Position.initial()
            for action in game.actions:
                if action.kind != "play" or action.dice is None:
                    continue
                before = Position.from_players(*position.by_player(), turn=action.player)
                positions.append(before)
                play = Play.from_notation(action.play, before, Dice(*action.dice))
                position = before.apply(play)
    return positions


def hand_made() -> list[Position]:
    """Spread-out positions where small doubles have the most ways to be played."""
    spread = (1,) * 15 + (0,) * 10
    return [
        Position(spread, (2, 2, 2, 3, 3, 3) + (0,) * 19, 0),
        Position((0,) + (1,) * 13 + (2,) + (0,) * 10, (0,) * 24 + (15,), 0),
        Position((2, 2, 2, 2, 2, 2, 1, 1, 1) + (0,) * 16, (15,) + (0,) * 24, 0),
    ]


def worst_doubles(count: int) -> list[tuple[Position, tuple[int, int], int]]:
    candidates = []
    for position in match_positions() + hand_made():
        for dice in DOUBLES:
            results = len(legal_plays(position, Dice(*dice)))
            candidates.append((results, position, dice))
    candidates.sort(key=lambda item: -item[0])
    return [(position, dice, results) for results, position, dice in candidates[:count]]


def doubles_inputs(position: Position, dice: tuple[int, int]) -> list[Input]:
    """Dice seen, one checker moved, the whole play on the board, the dice picked up."""
    plays = legal_plays(position, Dice(*dice))
    # The play with the most steps, the last of its kind: most partial boards to search.
    result = max(plays, key=lambda reached: len(plays[reached][0]))
    play = plays[result][-1]
    halfway = position.apply(play.steps[:1])
    return [
        seen(position, dice=dice),
        seen(halfway, dice=dice),
        seen(result, dice=dice),
        seen(result),
    ]


def best_of(runs: list[list[float]]) -> list[float]:
    """Per observation, the fastest of the repeated runs: the decision's own cost, without the
    pauses other processes on a shared machine cause."""
    return [min(times) for times in zip(*runs, strict=True)]


def settled(inputs: list[Input], times: list[float]) -> list[float]:
    """The times of observations the referee had to look at (moving/occluded frames return at once)."""
    return [
        took
        for item, took in zip(inputs, times, strict=True)
        if not (isinstance(item, ObservationSeen) and item.observation.state != "settled")
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs of everything (default 5)")
    parser.add_argument("--doubles", type=int, default=40, help="worst doubles positions to time")
    args = parser.parse_args()

    everything: list[float] = []
    raw_worst = 0.0
    print(f"{'':34} {'observations':>12} {'median ms':>10} {'worst ms':>9} {'raw worst':>10}")
    for path in match_paths():
        match = read_mat(path.read_text())
        inputs = match_inputs(match, one_at_a_time=0.5, with_noise=True)
        runs = [timed(Referee(clock=lambda: 0.0), inputs) for _ in range(args.repeat)]
        times = settled(inputs, best_of(runs))
        raw = max(max(run) for run in runs)
        raw_worst = max(raw_worst, raw)
        everything.extend(times)
        print(
            f"{path.name:34} {len(times):12} {statistics.median(times):10.3f} "
            f"{max(times):9.3f} {raw:10.3f}"
        )

    doubles_times: list[float] = []
    worst_case = ("", 0.0)
    for position, dice, results in worst_doubles(args.doubles):
        inputs = doubles_inputs(position, dice)
        runs = []
        for _ in range(args.repeat):
            referee = Referee(clock=lambda: 0.0)
            referee.handle(NewMatch(MatchSettings(length=7)))
            referee.game = replace(referee.game, position=position, phase="rolling")
            runs.append(timed(referee, inputs))
            assert referee.game.moves, "the doubles play was not recorded"
        raw_worst = max(raw_worst, max(max(run) for run in runs))
        times = best_of(runs)
        doubles_times.extend(times)
        if max(times) > worst_case[1]:
            label = f"{position.to_position_id()} {dice[0]}{dice[1]} ({results} results)"
            worst_case = (label, max(times))
    everything.extend(doubles_times)
    print(
        f"{'worst doubles positions':34} {len(doubles_times):12} "
        f"{statistics.median(doubles_times):10.3f} {max(doubles_times):9.3f}"
    )
    print(f"slowest doubles observation: {worst_case[0]}: {worst_case[1]:.3f} ms")
    print(
        f"all settled observations: {len(everything)}, median {statistics.median(everything):.3f} ms,"
        f" 99th percentile {statistics.quantiles(everything, n=100)[98]:.3f} ms,"
        f" worst {max(everything):.3f} ms (best of {args.repeat} runs each; goal: under 20 ms);"
        f" worst single raw timing {raw_worst:.3f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
