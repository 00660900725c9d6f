"""Let GNU Backgammon play matches against itself and list each one's tallest stacks (a script).

    .venv/bin/python benchmarks/tall_matches.py OUT_DIR [--lengths 2,3,5,7] [--seeds 1,2,3]
        [--noise 0.4] [--demo]

For each length and seed, Debian's ``gnubg`` program (``apt-get install gnubg``) plays a match at
0-ply, each side with evaluation noise ``--noise`` (0 plays its best, 0.4 and more plays a weak,
noisy game that piles checkers up), and exports it as ``OUT_DIR/gnubg-{length}pt-seed{seed}.mat``.
The script prints one line a match: its games, the most checkers on one point and on the bar over
every moment the demo acts out, and the final score ``sheshbesh replay`` gives. ``--demo`` also
runs ``sheshbesh demo --match FILE --speed max --no-panel`` on each and says whether its last line
ends with the same score (minutes a game on a small machine).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

from controller.record.matfile import read_mat
from controller.record.rules_replay import replay_records
from controller.sim.director import direct_match

COMMANDS = """set seed {seed}
set player 0 gnubg
set player 1 gnubg
set player 0 chequerplay evaluation plies 0
set player 1 chequerplay evaluation plies 0
set player 0 cubedecision evaluation plies 0
set player 1 cubedecision evaluation plies 0
set player 0 chequerplay evaluation noise {noise}
set player 1 chequerplay evaluation noise {noise}
set player 0 chequerplay evaluation deterministic off
set player 1 chequerplay evaluation deterministic off
set player 0 cubedecision evaluation noise {noise}
set player 1 cubedecision evaluation noise {noise}
new match {length}
export match mat {out}
"""


def gnubg() -> str:
    found = shutil.which("gnubg") or shutil.which("/usr/games/gnubg")
    if found is None:
        raise SystemExit("tall_matches: no gnubg program here (apt-get install gnubg)")
    return found


def play(program: str, out: Path, length: int, seed: int, noise: float) -> None:
    commands = COMMANDS.format(seed=seed, noise=noise, length=length, out=out)
    subprocess.run(
        [program, "-t", "-q", "-r"],
        input=commands,
        text=True,
        capture_output=True,
        timeout=900,
        check=False,
    )
    if not out.exists():
        raise SystemExit(f"tall_matches: gnubg wrote no match for length {length} seed {seed}")


def tallest(path: Path) -> tuple[int, int, int, list[int]]:
    """(games, most on a point, most on the bar, final score) of the match file at ``path``."""
    match = read_mat(path.read_text())
    on_point = on_bar = 0
    for shot in direct_match(match):
        table = shot.table
        on_point = max(on_point, *table.white[:24], *table.black[:24])
        on_bar = max(on_bar, table.white[24], table.black[24])
    score = next(r for r in replay_records(match) if r["type"] == "match")["score"]
    return len(match.games), on_point, on_bar, list(score)


def demo_score(path: Path) -> list[int]:
    command = [sys.executable, "-m", "controller.cli", "demo", "--match", str(path)]
    done = subprocess.run(
        [*command, "--speed", "max", "--no-panel"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"tall_matches: the demo failed on {path}: {done.stderr.strip()}")
    return list(json.loads(done.stdout.strip().splitlines()[-1])["score"])


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("out", type=Path)
    parser.add_argument("--lengths", default="2,3,5,7")
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--noise", type=float, default=0.4)
    parser.add_argument("--demo", action="store_true", help="also run the demo on each match")
    args = parser.parse_args()
    program = gnubg()
    args.out.mkdir(parents=True, exist_ok=True)
    for length in (int(v) for v in args.lengths.split(",")):
        for seed in (int(v) for v in args.seeds.split(",")):
            path = args.out / f"gnubg-{length}pt-seed{seed}.mat"
            play(program, path, length, seed, args.noise)
            games, on_point, on_bar, score = tallest(path)
            line = f"{path.name}: {games} games, {on_point} on a point, {on_bar} on the bar, score {score}"
            if args.demo:
                seen = demo_score(path)
                line += f", demo {seen} {'same' if seen == score else 'DIFFERENT'}"
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
