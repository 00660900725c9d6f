"""``sheshbesh export MATCH_ID --format mat [--db FILE] [--out FILE]``: write a recorded match.

Reads the match's events from the record (the SQLite event log) and writes it as GNU Backgammon /
Jellyfish ``.mat`` text, which gnubg imports. ``MATCH_ID`` ``-`` (or ``current``) is the match most
recently started. Exit status: 0 written, 1 the match is unknown or its events do not make a
match file (each problem on stderr).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from controller.record.export import MatchExportError, export_mat
from controller.record.store import Record, RecordError
from controller.table.config import RecordConfig

FORMATS = ("mat",)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "match", metavar="MATCH_ID", help="the match id in the record ('-': latest)"
    )
    parser.add_argument("--format", choices=FORMATS, default="mat", help="output format (mat)")
    parser.add_argument(
        "--db",
        default=RecordConfig().database,
        metavar="FILE",
        help=f"the event log (default {RecordConfig().database})",
    )
    parser.add_argument("--out", "-o", metavar="FILE", help="write here instead of stdout")


def run(args: argparse.Namespace) -> int:
    database = Path(args.db)
    try:
        # Read-only: an export never changes the record, and reads a backup on a read-only medium.
        with Record(database, read_only=True) as record:
            match = record.current_match if args.match in ("-", "current") else args.match
            events = record.events(match) if match else []
    except RecordError as error:
        print(f"sheshbesh export: {error}", file=sys.stderr)
        return 1
    if not events:
        print(f"sheshbesh export: no match {args.match!r} in {str(database)!r}", file=sys.stderr)
        return 1
    try:
        text = export_mat(events)
    except MatchExportError as error:
        print(
            f"sheshbesh export: match {match!r}: {len(error.problems)} problem(s)", file=sys.stderr
        )
        for problem in error.problems:
            print(problem, file=sys.stderr)
        return 1
    if args.out:
        try:
            Path(args.out).write_text(text, encoding="utf-8")
        except OSError as error:
            print(
                f"sheshbesh export: cannot write {args.out!r}: {error.strerror or error}",
                file=sys.stderr,
            )
            return 1
    else:
        sys.stdout.write(text)
    return 0
