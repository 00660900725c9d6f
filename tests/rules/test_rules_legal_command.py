"""The `sheshbesh legal` contract: batch lines in, sorted reachable Position IDs out."""

from __future__ import annotations

import io
import subprocess
import sys

from controller.commands.legal import batch_line, describe_plays, run_batch
from controller.rules import Position, legal_plays

CLOSED = Position(
    [0] * 5 + [13] + [0] * 18 + [2],
    [2, 2, 2, 2, 2, 2] + [0] * 6 + [3] + [0] * 12,
)


def test_batch_lines() -> None:
    start = "4HPwATDgc/ABMA"
    out = batch_line(f"{start} 31").split()
    assert len(out) == 16 and out == sorted(out)
    assert set(out) == {p.to_position_id() for p in legal_plays(Position.initial(), "31")}
    assert batch_line(f"{CLOSED.to_position_id()} 64") == CLOSED.to_position_id()
    assert batch_line("nonsense").startswith("error: expected 'POSITION_ID DICE'")
    assert batch_line(f"{start} 71").startswith("error: dice '71'")
    assert batch_line("4HPwATDgc/AB 31").startswith("error: Position ID")


def test_batch_goes_on_after_errors() -> None:
    source = io.StringIO("4HPwATDgc/ABMA 65\nbad line here\n\n4HPwATDgc/ABMA 11\n")
    sink = io.StringIO()
    assert run_batch(source, sink) == 0
    lines = sink.getvalue().splitlines()
    assert len(lines) == 3
    assert (
        len(lines[0].split()) == 7 and lines[1].startswith("error:") and len(lines[2].split()) == 42
    )


def test_console_command_end_to_end() -> None:
    batch = subprocess.run(
        [sys.executable, "-m", "controller.cli", "legal", "--batch"],
        input="4HPwATDgc/ABMA 33\nxx 11\n",
        capture_output=True,
        text=True,
        check=True,
    )
    first, second = batch.stdout.splitlines()
    assert len(first.split()) == 73 and second.startswith("error:")
    person = subprocess.run(
        [sys.executable, "-m", "controller.cli", "legal", "4HPwATDgc/ABMA", "31"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "16 distinct results" in person.stdout and "8/5 6/5" in person.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "controller.cli", "legal", "4HPwATDgc/ABMA", "91"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 1 and "error: dice '91'" in bad.stderr


def test_describe_a_position_with_no_move() -> None:
    text = describe_plays(CLOSED.to_position_id(), "64")
    assert "no legal move" in text


def test_describe_reads_an_xgid_with_its_dice() -> None:
    text = describe_plays("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10", None)
    assert text.startswith("4HPwATDgc/ABMA to roll 5-2: 8 distinct results")
    assert "  13/11 13/8  " in text
