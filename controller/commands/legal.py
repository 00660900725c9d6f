"""``sheshbesh legal``: the legal plays for a position and roll.

``sheshbesh legal 4HPwATDgc/ABMA 31`` prints each distinct result with the plays reaching it, for a
person, in the players' language (:mod:`controller.commands.language`). ``sheshbesh legal --batch`` is a contract for tools: it reads ``POSITION_ID DICE`` lines on
stdin and writes, per line, the sorted Position IDs of every distinct reachable position from the same
player's point of view (the input ID itself when nothing can be played), or ``error: ...`` for a bad
line, and goes on.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from controller.commands.language import PlayersText
from controller.rules import Dice, DiceError, Play, Position, RulesError, Xgid, legal_plays
from sheshbesh.language import N_, NP_


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "position_id",
        nargs="?",
        metavar="POSITION",
        help="GNU Backgammon Position ID (player on roll's view) or an XGID",
    )
    parser.add_argument("dice", nargs="?", help="the roll, e.g. 31 or 6-6 (optional with an XGID)")
    parser.add_argument(
        "--batch",
        action="store_true",
        help="read 'POSITION_ID DICE' lines on stdin, write the reachable Position IDs per line",
    )


def batch_line(line: str) -> str:
    """The output line for one input line of ``--batch``.

    >>> len(batch_line('4HPwATDgc/ABMA 65').split())
    7
    >>> batch_line('4HPwATDgc/ABMA 65').split()[:2]
    ['4HPwATCKT/ABMA', '4HPwATDC5+ABMA']
    """
    fields = line.split()
    if len(fields) != 2:
        return f"error: expected 'POSITION_ID DICE', got {line.strip()!r}"
    try:
        position = Position.from_position_id(fields[0])
        dice = Dice.from_text(fields[1])
        return " ".join(legal_plays(position, dice).to_position_ids())
    except RulesError as error:
        return f"error: {error}"


def run_batch(source: TextIO, sink: TextIO) -> int:
    """Answer every line of ``source`` on ``sink``; blank lines are skipped. Returns 0."""
    for line in source:
        if not line.strip():
            continue
        sink.write(batch_line(line) + "\n")
        sink.flush()  # a tool may be waiting for each answer before it sends the next line
    return 0


def describe_plays(
    position_text: str, dice_text: str | None, text: PlayersText | None = None
) -> str:
    """Human-readable list of the plays, one distinct result per line, in ``text``'s language
    (English without one; notation and IDs as they are).

    ``position_text`` is a Position ID or an XGID; with an XGID that shows dice, ``dice_text`` may
    be None. Raises :class:`RulesError` for bad input.
    """
    text = text or PlayersText("en")
    if position_text.upper().startswith("XGID="):
        xgid = Xgid.from_xgid(position_text)
        position = xgid.position
        if dice_text is None and xgid.match.dice != (0, 0):
            dice_text = f"{xgid.match.dice[0]}{xgid.match.dice[1]}"
    else:
        position = Position.from_position_id(position_text)
    if dice_text is None:
        raise DiceError(f"no dice given and none in {position_text!r}: add the roll, e.g. 31")
    dice = Dice.from_text(dice_text)
    plays = legal_plays(position, dice)
    position_id = position.to_position_id()
    heading = NP_(
        "%(position)s to roll %(dice)s: %(num)s distinct results",
        "%(position)s to roll %(dice)s: %(num)s distinct results",
    )
    dice_shown = f"{dice.first}-{dice.second}"
    lines = [text.plural(heading, len(plays), position=position_id, dice=dice_shown)]
    if not plays.can_move:
        lines.append("  " + text(N_("no legal move: the turn passes")))
        return "\n".join(lines)
    ordered = sorted(plays, key=lambda result: _order(plays[result][0]))
    rows = [(_either(plays[r], text), r.to_position_id()) for r in ordered]
    width = max(len(text) for text, _ in rows)
    lines.extend(f"  {text:<{width}}  {result_id}" for text, result_id in rows)
    return "\n".join(lines)


def _either(plays: tuple[Play, ...], text: PlayersText) -> str:
    """The plays that reach one result, "8/5 6/5 or 6/3 8/7"."""
    shown = str(plays[0])
    for play in plays[1:]:
        shown = text(N_("%(plays)s or %(play)s"), plays=shown, play=str(play))
    return shown


def _order(play: Play) -> tuple[tuple[int, int], ...]:
    return tuple((-step.source, -step.destination) for step in play.steps)


def run(args: argparse.Namespace) -> int:
    if args.batch:
        if args.position_id is not None:
            print("error: --batch reads positions from stdin; give no POSITION_ID", file=sys.stderr)
            return 2
        return run_batch(sys.stdin, sys.stdout)
    if args.position_id is None:
        print(
            "error: give POSITION_ID and DICE (e.g. 4HPwATDgc/ABMA 31), or --batch", file=sys.stderr
        )
        return 2
    try:
        print(describe_plays(args.position_id, args.dice, PlayersText()))
    except RulesError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0
