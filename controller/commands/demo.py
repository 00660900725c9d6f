"""``sheshbesh demo``: a recorded match acted out as camera frames through the whole pipeline.

The synthetic renderer draws each moment of the match (hands reaching in, dice rolled, checkers moved
one at a time, the cube turned and taken or passed) as a camera would see it; vision reads the frames,
the referee follows the game, the fake LEDs and the panel show it, the record keeps it. Nothing below
the renderer knows the match file.

``sheshbesh demo --match FILE.mat --speed max --no-panel`` ends by printing one JSON line with each
game's result and the final score (a contract).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path

from controller.commands.arguments import port, port_problem, positive_number, whole_number
from controller.network import options as room
from controller.record.matfile import MAX_FILE_BYTES, MatchFile, MatFileError, decode_mat, read_mat
from controller.sim.director import DirectorError
from controller.table.assembly import LiveTable, TableError
from controller.table.health import Health
from controller.table.panel import PanelStartError

log = logging.getLogger("sheshbesh")
#: Bounds of the demo's pace: slower than a hundredth of real life never ends, faster than a
#: thousand times is what ``--speed max`` is for.
MIN_SPEED, MAX_SPEED = 0.01, 1000.0
MAX_FPS = 60.0
MAX_SEED = 2**32 - 1
PROGRESS = (
    "play",
    "cube_offered",
    "cube_taken",
    "cube_passed",
    "game_won",
    "match_won",
    "illegal_play",
    "board_mismatch",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant",
        choices=("backgammon", "sheshbesh"),
        default="backgammon",
        help="sheshbesh: a whole Arabic Shesh Besh game, its dice seeded by --seed (no --match)",
    )
    parser.add_argument(
        "--match",
        metavar="FILE.mat",
        help="the match to play (default: an embedded 3-point match GNU Backgammon played)",
    )
    parser.add_argument(
        "--speed",
        default="1",
        help="how many times faster than real life, or 'max' for as fast as it goes (default 1)",
    )
    parser.add_argument("--no-panel", action="store_true", help="do not serve the score panel")
    parser.add_argument("--host", default="127.0.0.1", help="panel address (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=port, default=8080, help="panel port (default 8080; 0 picks a free one)"
    )
    parser.add_argument(
        "--db",
        metavar="FILE",
        help="the record (SQLite); default: a new file in a temporary folder",
    )
    parser.add_argument("--log", metavar="FILE", help="log file (default: beside the record)")
    parser.add_argument(
        "--seed",
        type=whole_number(0, MAX_SEED),
        default=7,
        help="seed of the board's looks and camera pose (default 7)",
    )
    parser.add_argument(
        "--fps",
        type=positive_number(MAX_FPS, low=1.0),
        default=10.0,
        help=f"camera frames a second, 1 to {MAX_FPS:g} (default 10)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress lines on the terminal")
    parser.add_argument(
        "--stay",
        action="store_true",
        help="keep the panel up after the match, until Ctrl-C (the default on a terminal)",
    )
    room.add_arguments(parser)


def _speed(text: str) -> float | None:
    if text == "max":
        return None
    try:
        value = float(text)
    except ValueError:
        raise SystemExit(f"sheshbesh demo: --speed {text!r} is not a number or 'max'") from None
    if not MIN_SPEED <= value <= MAX_SPEED:
        raise SystemExit(
            f"sheshbesh demo: --speed {text!r} is out of range: choose {MIN_SPEED:g} to"
            f" {MAX_SPEED:g}, or 'max'"
        )
    return value


def _match_text(path: str | None) -> tuple[str, str]:
    if path is None:
        text = resources.files("controller").joinpath("data/demo-3pt.mat").read_text()
        return text, "the embedded 3-point match"
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise SystemExit(f"sheshbesh demo: cannot read {path!r}: {error.strerror}") from None
    if len(data) > MAX_FILE_BYTES:
        raise SystemExit(
            f"sheshbesh demo: {path} is larger than {MAX_FILE_BYTES // 2**20} MiB: not a match file"
        )
    try:
        return decode_mat(data), path
    except MatFileError as error:
        raise SystemExit(f"sheshbesh demo: {path}: {error.problems[0]}") from None


def run(args: argparse.Namespace) -> int:
    if args.variant == "sheshbesh":
        from controller.sim.sheshbesh_demo import run_variant

        return run_variant(args)
    speed = _speed(args.speed)
    text, source = _match_text(args.match)
    try:
        match = read_mat(text)
    except MatFileError as error:
        print(f"sheshbesh demo: {source} is not a usable match file:\n{error}", file=sys.stderr)
        return 1
    db = (
        Path(args.db)
        if args.db
        else Path(tempfile.mkdtemp(prefix="sheshbesh-demo-")) / "record.sqlite"
    )
    log_path = Path(args.log) if args.log else db.with_suffix(".log")
    if not args.no_panel:
        problem = port_problem(args.host, args.port)
        if problem:
            print(f"sheshbesh demo: {problem} (--port, or --no-panel)", file=sys.stderr)
            return 2
    try:
        handler = logging.FileHandler(log_path)
    except OSError as error:
        print(
            f"sheshbesh demo: cannot write the log {str(log_path)!r}: {error.strerror}",
            file=sys.stderr,
        )
        return 2
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)

    quiet = args.quiet or (speed is None and args.no_panel)
    health = Health(camera="ok", leds="ok", analysis="off")  # rendered frames, fake LEDs
    try:
        with LiveTable("demo", health=health, progress=() if quiet else PROGRESS) as live:
            return _act_out(args, live, match, source, db, log_path, speed)
    except TableError as error:
        print(f"sheshbesh demo: {error}", file=sys.stderr)
        return 2
    except PanelStartError as error:
        print(f"sheshbesh demo: {error} (--port, or --no-panel)", file=sys.stderr)
        return 2
    except DirectorError as error:
        print(f"sheshbesh demo: {source} cannot be acted out: {error}", file=sys.stderr)
        return 1


def _act_out(
    args: argparse.Namespace,
    live: LiveTable,
    match: MatchFile,
    source: str,
    db: Path,
    log_path: Path,
    speed: float | None,
) -> int:
    """Open the demo's table, act ``match`` out on it and print the result: the contract's JSON
    line. Returns the exit status."""
    from controller.network.director import DirectorInbox
    from controller.sim.demo import open_demo_table, play_match, prepare  # OpenCV loads only here

    open_demo_table(live, db)
    record = live.record
    inbox = DirectorInbox()  # the room director's assignment, when the demo joins a room
    link = live.join_room(args, on_command=inbox.command)
    assigned = room.demo_assignment(link, inbox, record, match.length)
    if assigned is not None:
        print(f"playing the director's assignment {assigned.match_id}", flush=True)
    if not args.no_panel and speed is not None:
        live.open_analyst()
    if not args.no_panel:
        live.open_panel()
    demo = prepare(match, live, seed=args.seed, settings=assigned)
    if not args.no_panel:
        server = live.serve_panel(demo.controls, args.host, args.port, db.parent / "exports")
        print(f"panel: {server.url}/", flush=True)
    print(f"record: {db}", flush=True)
    print(f"log: {log_path}", flush=True)
    try:
        result = play_match(demo, match, speed=speed, fps=args.fps)
    except KeyboardInterrupt:
        print("stopped; the record keeps everything so far", file=sys.stderr)
        return 130
    result["match"] = source
    result["length"] = match.length
    live.leave_room(linger=room.DEFAULT_LINGER)
    print(json.dumps(result), flush=True)
    if live.server is not None and (args.stay or sys.stdin.isatty()):
        print("the match is over; the panel stays up until Ctrl-C", flush=True)
        try:
            while True:
                time.sleep(1.0)
        except KeyboardInterrupt:
            pass
    return 0
