"""``sheshbesh replay FILE.mat [--json] [--rules-only]``: replay a match file through the referee.

The match is shown to the referee as a perfectly read board would show it (see
:mod:`controller.replay`): every play is judged from the board it leaves, every cube action from
where the cube goes. ``--rules-only`` walks the file through the rules engine alone instead
(:func:`controller.matfile.replay_records`); both give the same records. The text form prints each
game's result and the final score; ``--json`` writes one JSON object a line (each play with the
Position ID and Match ID before it, each cube action, each game's result, and last the final score).
``--record DB`` keeps the referee's events in an event log. Exit status: 0 the whole match
replays, 1 the file cannot be read or a play or cube action is wrong (each problem on stderr with
its line number).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from controller.matfile import (
    MAX_PROBLEMS,
    MatchFile,
    MatFileError,
    read_mat_file,
    replay_records,
)
from sheshbesh.errors import SheshbeshError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE.mat", help="a GNU Backgammon / Jellyfish match file")
    parser.add_argument("--json", action="store_true", help="one JSON object a line")
    parser.add_argument(
        "--no-jacoby",
        action="store_true",
        help="money sessions (0 point match): without the Jacoby rule (gnubg's default is with)",
    )
    parser.add_argument(
        "--no-crawford", action="store_true", help="matches: play without the Crawford rule"
    )
    parser.add_argument(
        "--rules-only",
        action="store_true",
        help="walk the file through the rules engine alone, not through the referee",
    )
    parser.add_argument(
        "--record",
        metavar="DB",
        help="keep the referee's events in this event log (SQLite; created if missing)",
    )


def _points(points: int) -> str:
    return f"{points} point{'s' if points != 1 else ''}"


def _text_line(record: dict[str, Any], match: MatchFile) -> str | None:
    names = match.players
    if record["type"] == "game":
        winner = record["winner"]
        # from the score the file gives at the game's start, so a broken game before it
        # does not shift the totals
        score = list(match.games[record["game"] - 1].score)
        score[winner] += record["points"]
        return (
            f"Game {record['game']}: {names[winner]} wins {_points(record['points'])}"
            f" ({names[0]} {score[0]}, {names[1]} {score[1]})"
        )
    if record["type"] == "match":
        s0, s1 = record["score"]
        line = f"Final score: {names[0]} {s0}, {names[1]} {s1}"
        if match.length and max(s0, s1) >= match.length:
            line += f" ({names[0] if s0 > s1 else names[1]} wins the match)"
        return line
    return None


def _records(
    match: MatchFile, rules_only: bool, record_path: str | None, options: dict[str, bool]
) -> Iterator[dict[str, Any]]:
    if rules_only:
        yield from replay_records(match, **options)
        return
    from controller.record import Record
    from controller.replay import replay_through_referee

    jacoby, crawford = options.get("jacoby", True), options.get("crawford", True)
    if record_path is None:
        yield from replay_through_referee(match, jacoby=jacoby, crawford=crawford)
        return
    with Record(record_path) as record:
        yield from replay_through_referee(match, record, jacoby=jacoby, crawford=crawford)


def _print_problems(path: Path, problems: tuple[str, ...], err: TextIO) -> None:
    """Each problem on its own line, at most :data:`MAX_PROBLEMS` of them (then a count)."""
    print(f"sheshbesh replay: {path}: {len(problems)} problem(s)", file=err)
    for problem in problems[:MAX_PROBLEMS]:
        print(f"{path}: {problem}", file=err)
    if len(problems) > MAX_PROBLEMS:
        print(f"{path}: ... and {len(problems) - MAX_PROBLEMS} more", file=err)


def replay_file(
    path: Path,
    as_json: bool,
    out: TextIO,
    err: TextIO,
    rules_only: bool = False,
    record: str | None = None,
    **options: bool,
) -> int:
    """Replay ``path`` to ``out`` (through the referee unless ``rules_only``); problems go to
    ``err``. ``record`` is an event log for the referee's events. Returns the exit status."""
    try:
        match = read_mat_file(path)
    except OSError as error:
        print(f"sheshbesh replay: cannot read {str(path)!r}: {error.strerror or error}", file=err)
        return 1
    except MatFileError as error:
        _print_problems(path, error.problems, err)
        return 1
    try:
        if not as_json:
            kind = f"{match.length} point match" if match.length else "money session"
            print(f"{match.players[0]} - {match.players[1]}, {kind}", file=out)
        for entry in _records(match, rules_only, record, options):
            line = json.dumps(entry) if as_json else _text_line(entry, match)
            if line is not None:
                print(line, file=out)
    except MatFileError as error:
        out.flush()
        _print_problems(path, error.problems, err)
        return 1
    except SheshbeshError as error:  # the event log given with --record cannot be used
        out.flush()
        print(f"sheshbesh replay: {error}", file=err)
        return 1
    return 0


def run(args: argparse.Namespace) -> int:
    return replay_file(
        Path(args.file),
        args.json,
        sys.stdout,
        sys.stderr,
        rules_only=args.rules_only,
        record=args.record,
        jacoby=not args.no_jacoby,
        crawford=not args.no_crawford,
    )
