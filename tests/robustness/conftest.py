"""Shared pieces of the robustness suite: a calibration file for ``sheshbesh run`` and a helper
that runs a subcommand in this process and fails on any traceback."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from controller.cli import main

ROOT = Path(__file__).resolve().parents[2]
MATCH = ROOT / "controller" / "data" / "demo-3pt.mat"


@dataclass
class Outcome:
    status: int
    out: str
    err: str


def call(argv: Sequence[str], stdin: str = "") -> Outcome:
    """Run ``sheshbesh ARGV`` in this process. Any exception other than the ``SystemExit`` of a
    refusal escapes and fails the test: that is the traceback a user would have seen."""
    out, err = io.StringIO(), io.StringIO()
    status = 0
    with (
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        pytest.MonkeyPatch.context() as patch,
    ):
        patch.setattr("sys.stdin", io.StringIO(stdin))
        try:
            status = main(list(argv))
        except SystemExit as stop:
            if isinstance(stop.code, str):
                err.write(stop.code + "\n")
                status = 1
            else:
                status = int(stop.code or 0)
    return Outcome(status, out.getvalue(), err.getvalue())


@pytest.fixture(scope="session")
def calibration(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A calibration file from one rendered frame (what ``sheshbesh run`` needs to start)."""
    from controller.record.matfile import read_mat
    from controller.sim.demo import write_frames

    folder = tmp_path_factory.mktemp("frames")
    return write_frames(read_mat(MATCH.read_text()), folder, shots=slice(0, 1))
