"""``sheshbesh replay FILE.mat [--json] [--rules-only]``: replay a match file through the referee.

The match is shown to the referee as a perfectly read board would show it (see
:mod:`controller.sim.replay`): every play is judged from the board it leaves, every cube action from
where the cube goes. ``--rules-only`` walks the file through the rules engine alone instead
(:func:`controller.record.rules_replay.replay_records`); both give the same records. The text form prints each
game's result and the final score, in the players' language
(:mod:`controller.commands.language`); ``--json`` writes one JSON object a line, the same in every
language (each play with the Position ID and Match ID before it, each cube action, each game's
result, and last the final score).
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

from controller.commands.language import PlayersText
from controller.record.matfile import MAX_PROBLEMS, MatchFile, MatFileError, read_mat_file
from controller.record.rules_replay import replay_records
from sheshbesh.errors import SheshbeshError
from sheshbesh.language import N_, NP_


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


def _heading(match: MatchFile, text: PlayersText) -> str:
    """The players and the match's kind: "Ada - Bo, 5 point match"."""
    first, second = match.players
    if not match.length:
        return text(N_("%(first)s - %(second)s, money session"), first=first, second=second)
    forms = NP_(
        "%(first)s - %(second)s, %(num)s point match", "%(first)s - %(second)s, %(num)s point match"
    )
    return text.plural(forms, match.length, first=first, second=second)


def _text_line(record: dict[str, Any], match: MatchFile, text: PlayersText) -> str | None:
    """One game's result or the final score, for the players (the JSON form is for tools)."""
    names = match.players
    if record["type"] == "game":
        winner = record["winner"]
        # from the score the file gives at the game's start, so a broken game before it
        # does not shift the totals
        score = list(match.games[record["game"] - 1].score)
        score[winner] += record["points"]
        forms = NP_(
            "Game %(game)s: %(winner)s wins %(num)s point (%(first)s %(first_score)s, "
            "%(second)s %(second_score)s)",
            "Game %(game)s: %(winner)s wins %(num)s points (%(first)s %(first_score)s, "
            "%(second)s %(second_score)s)",
        )
        return text.plural(
            forms,
            record["points"],
            game=record["game"],
            winner=names[winner],
            first=names[0],
            first_score=score[0],
            second=names[1],
            second_score=score[1],
        )
    if record["type"] == "match":
        s0, s1 = record["score"]
        scores = {"first": names[0], "first_score": s0, "second": names[1], "second_score": s1}
        if match.length and max(s0, s1) >= match.length:
            return text(
                N_(
                    "Final score: %(first)s %(first_score)s, %(second)s %(second_score)s "
                    "(%(winner)s wins the match)"
                ),
                winner=names[0] if s0 > s1 else names[1],
                **scores,
            )
        return text(
            N_("Final score: %(first)s %(first_score)s, %(second)s %(second_score)s"), **scores
        )
    return None


def _records(
    match: MatchFile, rules_only: bool, record_path: str | None, options: dict[str, bool]
) -> Iterator[dict[str, Any]]:
    if rules_only:
        yield from replay_records(match, **options)
        return
    from controller.record.store import Record
    from controller.sim.replay import replay_through_referee

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
    text = PlayersText()
    try:
        if not as_json:
            print(_heading(match, text), file=out)
        for entry in _records(match, rules_only, record, options):
            line = json.dumps(entry) if as_json else _text_line(entry, match, text)
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
