"""``sheshbesh analyse FILE.mat|MATCH_ID``: judge every cube action and checker play of a match.

A path to a ``.mat`` file is read as a match file; anything else is a match id in the record
(``--record``, default the configured ``var/sheshbesh.sqlite``). The report goes to stdout (or
``--output``) as text, JSON or HTML; a progress bar goes to stderr. The report of a recorded match
is also saved in the record's ``analyses`` table for the panel (``--no-save``: not). Exit status: 0
done, 1 the input could not be analysed (or the report not saved), 3 analysis is not installed.

The text and HTML reports are players' texts, in the command line's players' language
(``controller/commands/language.py``: ``LANGUAGE=cs sheshbesh analyse match.mat``); the JSON
report, the report saved in the record, the progress bar and the errors stay English.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TextIO

from controller.analysis import report
from controller.analysis.bgsage_engine import DEFAULT_LEVEL, LEVELS
from controller.analysis.errors import AnalysisError, AnalysisNotInstalledError
from controller.analysis.match import MatchAnalysis, analyse_turns
from controller.analysis.source import TurnSource, turns_from_events, turns_from_mat
from controller.commands.arguments import whole_number
from controller.commands.language import players_language
from controller.record.matfile import read_mat_file
from sheshbesh.errors import SheshbeshError

DEFAULT_RECORD = "var/sheshbesh.sqlite"
EXIT_NOT_INSTALLED = 3


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "source", metavar="FILE.mat|MATCH_ID", help="a .mat file or a recorded match id"
    )
    parser.add_argument(
        "--level",
        choices=sorted(LEVELS),
        default=DEFAULT_LEVEL,
        help="search depth, counted as GNU Backgammon does: 0ply is the bare neural network"
        f" (default {DEFAULT_LEVEL})",
    )
    parser.add_argument(
        "--format", choices=("text", "json", "html"), default="text", help="report format"
    )
    parser.add_argument("--output", "-o", metavar="FILE", help="write the report here, not stdout")
    parser.add_argument(
        "--record", default=DEFAULT_RECORD, metavar="DB", help="the event log holding MATCH_ID"
    )
    parser.add_argument(
        "--costliest",
        type=whole_number(0, 10_000),
        default=report.COSTLIEST,
        metavar="N",
        help="costly decisions to show",
    )
    parser.add_argument(
        "--no-jacoby", action="store_true", help="money sessions from a .mat file: no Jacoby rule"
    )
    parser.add_argument(
        "--beavers", action="store_true", help="money sessions from a .mat file: beavers allowed"
    )
    parser.add_argument(
        "--threads", type=whole_number(1, 64), default=1, help="engine threads (default 1)"
    )
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    parser.add_argument(
        "--no-save",
        action="store_true",
        help="a recorded match: do not save the report in the record for the panel",
    )


class ProgressBar:
    """A one-line progress bar on a terminal; on anything else, a line every tenth of the way."""

    def __init__(self, stream: TextIO, width: int = 30) -> None:
        self.stream = stream
        self.width = width
        self.started = time.monotonic()
        self.is_terminal = stream.isatty()
        self._last_tenth = -1

    def __call__(self, done: int, total: int) -> None:
        fraction = done / total if total else 1.0
        filled = round(self.width * fraction)
        elapsed = time.monotonic() - self.started
        line = (
            f"analysing [{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} turns"
            f" {elapsed:.0f}s"
        )
        if self.is_terminal:
            self.stream.write("\r" + line + ("\n" if done >= total else ""))
            self.stream.flush()
        elif int(fraction * 10) != self._last_tenth:
            self._last_tenth = int(fraction * 10)
            self.stream.write(line + "\n")
            self.stream.flush()


def is_recorded_match(args: argparse.Namespace) -> bool:
    """Whether ``args.source`` names a match in the record rather than a .mat file."""
    path = Path(args.source)
    return not (path.suffix.lower() == ".mat" or path.is_file())


def save_report(args: argparse.Namespace, source: TurnSource, analysis: MatchAnalysis) -> None:
    """Keep the report of a recorded match in the record (raises ``RecordError``)."""
    from controller.analysis.store import report_for_record
    from controller.record.store import Record

    games = [turn.game for turn in source.turns]
    # Not the writer's lock: a report is derived data, saved beside a running referee's events.
    with Record(Path(args.record), exclusive=False) as record:
        record.save_analysis(
            args.source,
            report_for_record(analysis, args.costliest),
            game=max(games) if games else None,
            level=args.level,
        )


def load_source(args: argparse.Namespace) -> TurnSource:
    """The turns of ``args.source``: a .mat file if such a file exists, else a recorded match."""
    path = Path(args.source)
    if not is_recorded_match(args):
        try:
            match = read_mat_file(path)
        except OSError as error:
            raise AnalysisError(f"cannot read {args.source}: {error.strerror}") from error
        return turns_from_mat(match, path.name, jacoby=not args.no_jacoby, beavers=args.beavers)
    from controller.record.store import Record

    record_path = Path(args.record)
    if not record_path.is_file():
        raise AnalysisError(
            f"{args.source!r} is neither a .mat file nor a match in a record ({args.record} not found)"
        )
    with Record(record_path, read_only=True) as record:
        events = record.events(args.source)
    if not events:
        raise AnalysisError(f"no match {args.source!r} in the record {args.record}")
    return turns_from_events(events, args.source)


def run(args: argparse.Namespace) -> int:
    from controller.analysis import make_analyser

    try:
        analyser = make_analyser(args.level, args.threads)
    except AnalysisNotInstalledError as error:
        print(f"sheshbesh analyse: {error}", file=sys.stderr)
        return EXIT_NOT_INSTALLED
    try:
        source = load_source(args)
        progress = None if args.quiet else ProgressBar(sys.stderr)
        analysis = analyse_turns(
            analyser,
            source.turns,
            source.players,
            source.length,
            progress=progress,
            source=source.name,
        )
    except (SheshbeshError, ValueError) as error:
        print(f"sheshbesh analyse: {error}", file=sys.stderr)
        return 1
    if args.format == "json":
        text = report.to_json(analysis, args.costliest)
    else:
        writer = report.to_html if args.format == "html" else report.to_text
        text = writer(analysis, args.costliest, players_language())
    if not text.endswith("\n"):
        text += "\n"
    status = 0
    if not args.output:
        sys.stdout.write(text)
    else:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as error:
            print(
                f"sheshbesh analyse: cannot write {args.output}: {error.strerror}", file=sys.stderr
            )
            status = 1
    if is_recorded_match(args) and not args.no_save:
        try:
            save_report(args, source, analysis)
        except SheshbeshError as error:
            print(f"sheshbesh analyse: the report was not saved: {error}", file=sys.stderr)
            status = 1
    return status
