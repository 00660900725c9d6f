"""Figures for the analysis service: speed per decision and per match, memory, agreement with gnubg.

    .venv/bin/python benchmarks/bench_analysis.py                  # speed and memory, all levels
    .venv/bin/python benchmarks/bench_analysis.py --levels 0ply    # one level
    .venv/bin/python benchmarks/bench_analysis.py --compare        # also: verdicts against gnubg

Speed: the median time of one cube decision and one checker play over turns of the 7-point match
in tests/data/matches, then the whole match through ``analyse_turns``. Memory: the process's
resident set (VmRSS) before the engine is loaded, after, and after the match. Responsiveness: the
worst delay of a 5 ms timer on the main thread while the worker thread analyses the match (what
the referee would feel). ``--compare`` runs every decision of the four matches against GNU
Backgammon at the same depth (our 0ply vs gnubg 0-ply, our 1ply vs gnubg 1-ply) and lists the
cases that differ.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "analysis"))

from controller.analysis import make_analyser  # noqa: E402
from controller.analysis.engine import Analyser  # noqa: E402
from controller.analysis.match import Turn, analyse_turns  # noqa: E402
from controller.analysis.source import turns_from_mat_text  # noqa: E402
from controller.analysis.worker import AnalysisWorker  # noqa: E402

MATCHES = ROOT / "tests" / "data" / "matches"
SEVEN = MATCHES / "gnubg-selfplay-7pt-seed4242.mat"


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def time_decisions(analyser: Analyser, turns: list[Turn], sample: int) -> tuple[float, float]:
    """Median seconds per cube decision and per checker play (unforced rolls only)."""
    cube_times: list[float] = []
    play_times: list[float] = []
    for turn in turns:
        view = turn.context.for_player(turn.player)
        if turn.may_double and view.may_double and len(cube_times) < sample:
            start = time.perf_counter()
            analyser.cube_equities(turn.sides, view)
            cube_times.append(time.perf_counter() - start)
        if turn.dice is not None and len(play_times) < sample:
            start = time.perf_counter()
            ranked = analyser.ranked_plays(
                turn.sides, turn.dice, turn.play_context.for_player(turn.player), turn.played
            )
            if len(ranked) > 1:
                play_times.append(time.perf_counter() - start)
    return statistics.median(cube_times), statistics.median(play_times)


def idle_delay(seconds: float = 3.0) -> float:
    """The worst delay of a 5 ms timer with nothing else running here: the machine's own noise."""
    worst = 0.0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        before = time.perf_counter()
        time.sleep(0.005)
        worst = max(worst, time.perf_counter() - before - 0.005)
    return worst


def responsiveness(level: str, turns: list[Turn], separate_process: bool) -> tuple[float, float]:
    """(seconds for the match on the worker, worst delay of a 5 ms main-thread timer)."""
    worst = 0.0
    started = time.perf_counter()
    factory = partial(make_analyser, level)
    with AnalysisWorker(factory, separate_process=separate_process) as worker:
        future = worker.submit_turns(turns)
        while not future.done():
            before = time.perf_counter()
            time.sleep(0.005)
            worst = max(worst, time.perf_counter() - before - 0.005)
        future.result()
    return time.perf_counter() - started, worst


def compare(levels: list[str]) -> None:
    import analysis_reference as reference

    turns: list[Turn] = []
    for path in sorted(MATCHES.glob("*.mat")):
        turns += turns_from_mat_text(path.read_text(), path.name).turns
    for level in levels:
        plies = int(level[0])
        if plies > 1:
            continue
        reference.set_up(plies)
        analyser = make_analyser(level)
        cube = reference.compare_cube(analyser, turns)
        plays = reference.compare_plays(analyser, turns)
        agree = sum(item.agrees for item in cube)
        nd = sorted(item.no_double_gap for item in cube)
        dt = sorted(item.double_take_gap for item in cube)
        gaps = sorted(abs(item.our_loss - item.their_loss) for item in plays)
        print(f"\n== bgsage {level} against gnubg {plies}-ply ==")
        print(
            f"cube decisions: {len(cube)}; same proper action {agree} ({100 * agree / len(cube):.1f}%);"
            f" |no double| gap mean {statistics.mean(nd):.3f}, 90% {nd[int(0.9 * len(nd))]:.3f},"
            f" max {nd[-1]:.3f}; |double/take| gap mean {statistics.mean(dt):.3f},"
            f" 90% {dt[int(0.9 * len(dt))]:.3f}, max {dt[-1]:.3f}"
        )
        for item in cube:
            if not item.agrees:
                ours, theirs = item.ours, item.theirs
                print(
                    f"  differs: game {item.turn.game} move {item.turn.move}"
                    f" {item.turn.position_id} ({item.turn.place().context_text}):"
                    f" ours {item.ours_action} (ND {ours.no_double:+.3f} DT {ours.double_take:+.3f}),"
                    f" gnubg {theirs.proper_action} (ND {theirs.no_double:+.3f}"
                    f" DT {theirs.double_take:+.3f})"
                )
        same = sum(item.same_best for item in plays)
        judged = statistics.mean(item.our_best_judged_by_them for item in plays)
        print(
            f"checker plays: {len(plays)} unforced; same best play {same}"
            f" ({100 * same / len(plays):.1f}%); our best judged by gnubg loses {judged:.4f} on"
            f" average; |loss of the play made| gap mean {statistics.mean(gaps):.4f},"
            f" 95% {gaps[int(0.95 * len(gaps))]:.3f}, max {gaps[-1]:.3f}"
        )
        for play_item in plays:
            if abs(play_item.our_loss - play_item.their_loss) > 0.04:
                turn = play_item.turn
                assert turn.dice is not None
                print(
                    f"  differs: game {turn.game} move {turn.move} {turn.position_id}"
                    f" {turn.dice[0]}{turn.dice[1]} played {turn.played_notation}: loss ours"
                    f" {play_item.our_loss:.3f} gnubg {play_item.their_loss:.3f}; best ours {play_item.our_best},"
                    f" gnubg {play_item.their_best}"
                )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", nargs="+", default=["0ply", "1ply", "2ply"])
    parser.add_argument("--sample", type=int, default=40, help="decisions timed per kind")
    parser.add_argument("--no-match", action="store_true", help="skip the whole-match timings")
    parser.add_argument(
        "--worker-levels",
        nargs="*",
        default=["0ply", "1ply"],
        help="levels whose match also runs through the worker, to time the main thread",
    )
    parser.add_argument("--compare", action="store_true", help="verdicts against gnubg")
    args = parser.parse_args()
    source = turns_from_mat_text(SEVEN.read_text(), SEVEN.name)
    turns = list(source.turns)
    rolls = sum(turn.dice is not None for turn in turns)
    print(f"7-point match: {len(turns)} turns, {rolls} rolls; Python {sys.version.split()[0]}")
    print(f"memory before any engine: {rss_mib():.0f} MiB")
    print(f"worst delay of a 5 ms timer, idle: {1000 * idle_delay():.1f} ms")
    for level in args.levels:
        analyser = make_analyser(level)
        loaded = rss_mib()
        cube, play = time_decisions(analyser, turns, args.sample)
        print(f"\n== {analyser.name} ==")
        print(f"memory with the engine loaded: {loaded:.0f} MiB")
        print(f"cube decision: {1000 * cube:.1f} ms (median of {args.sample})")
        print(f"checker play:  {1000 * play:.1f} ms (median of {args.sample} unforced)")
        if not args.no_match:
            start = time.perf_counter()
            analysis = analyse_turns(analyser, turns, source.players, source.length)
            elapsed = time.perf_counter() - start
            print(
                f"whole 7-point match: {elapsed:.1f} s ({len(analysis.cube)} cube decisions,"
                f" {len(analysis.plays)} plays); memory after: {rss_mib():.0f} MiB"
            )
            for separate in (False, True) if level in args.worker_levels else ():
                seconds, worst = responsiveness(level, turns, separate)
                where = "in a child process" if separate else "on the worker thread"
                print(
                    f"worker, engine {where}: {seconds:.1f} s for the match; worst delay of a"
                    f" 5 ms timer on the main thread {1000 * worst:.1f} ms"
                )
    if args.compare:
        compare(args.levels)
    return 0


if __name__ == "__main__":
    sys.exit(main())
