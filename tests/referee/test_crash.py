"""Crash and power-cut recovery: kill the referee's process anywhere, resume, lose and double nothing.

A real match is replayed as board inputs by a forked child process that writes to an SQLite log
and notes, after each input is fully handled, how far it got (as the camera would simply go on
showing the board). The child is killed with SIGKILL: by a hook just before or just after the Nth
append (N drawn at random, at least 50 points), or by the parent at random moments. Each time a
new child resumes from the log. The final log must equal that of an uninterrupted run.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import time
from pathlib import Path

import pytest
from referee_testkit import match_inputs, match_paths

from controller.events import Event
from controller.record.matfile import read_mat
from controller.record.store import Record
from controller.referee import Input, RefereeInputError
from controller.table.runner import Runner

PATHS = match_paths()
pytestmark = [
    pytest.mark.skipif(not PATHS, reason="the shared .mat matches are not present"),
    pytest.mark.slow,
]


def _inputs() -> list[Input]:
    return match_inputs(read_mat(PATHS[2].read_text()), one_at_a_time=0.3, with_noise=True)


def _drive(
    database: Path,
    progress: Path,
    inputs: list[Input],
    crash_at: int = 0,
    before: bool = False,
) -> None:
    """Resume from the log and feed inputs from where the last run got to (runs in the child)."""
    start = int(progress.read_text()) if progress.exists() else 0
    now = [float(start)]
    with Record(database) as record:
        append = record.append

        def append_then_maybe_die(event: Event, match_id: str | None = None) -> int:
            if crash_at and before and event.sequence == crash_at:
                os.kill(os.getpid(), signal.SIGKILL)
            sequence = append(event, match_id)
            if crash_at and not before and sequence == crash_at:
                os.kill(os.getpid(), signal.SIGKILL)
            return sequence

        record.append = append_then_maybe_die  # type: ignore[method-assign]
        runner = Runner.resume(record, clock=lambda: now[0])
        for index in range(start, len(inputs)):
            now[0] = float(index)
            try:
                runner.feed(inputs[index])
            except RefereeInputError:
                # Killed after the log took this input's events but before the progress note:
                # the input comes again, as a person presses resign again after a power cut. An
                # admin input the log already holds is refused, never recorded twice.
                if index != start:
                    raise
            scratch = progress.with_suffix(".tmp")
            scratch.write_text(str(index + 1))
            os.replace(scratch, progress)


def _in_child(database: Path, progress: Path, inputs: list[Input], **crash: object) -> int:
    """Run :func:`_drive` in a forked process; return its wait status's signal (0 = exited)."""
    pid = os.fork()
    if pid == 0:  # the child
        code = 1
        try:
            _drive(database, progress, inputs, **crash)  # type: ignore[arg-type]
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return os.WTERMSIG(status)
    assert os.WEXITSTATUS(status) == 0, "the child failed (not a kill)"
    return 0


def _log(database: Path) -> list[tuple[object, ...]]:
    connection = sqlite3.connect(database)
    try:
        return connection.execute(
            "SELECT sequence, match_id, time, type, data FROM events ORDER BY sequence"
        ).fetchall()
    finally:
        connection.close()


def test_killed_at_fifty_random_appends_the_resumed_record_is_identical(tmp_path: Path) -> None:
    inputs = _inputs()
    reference = tmp_path / "reference.db"
    assert _in_child(reference, tmp_path / "reference.progress", inputs) == 0
    expected = _log(reference)
    assert len(expected) > 100

    rng = random.Random(2024)
    kill_points = sorted(rng.sample(range(1, len(expected) + 1), 50))
    database, progress = tmp_path / "crashed.db", tmp_path / "crashed.progress"
    kills = 0
    for point in kill_points:
        killed = _in_child(database, progress, inputs, crash_at=point, before=rng.random() < 0.5)
        kills += killed == signal.SIGKILL
    assert kills == 50
    assert _in_child(database, progress, inputs) == 0
    assert _log(database) == expected


def test_killed_at_random_moments_the_resumed_record_is_identical(tmp_path: Path) -> None:
    inputs = _inputs()
    reference = tmp_path / "reference.db"
    started = time.monotonic()
    assert _in_child(reference, tmp_path / "reference.progress", inputs) == 0
    whole_run = time.monotonic() - started  # kill moments spread over about one run's length
    expected = _log(reference)

    rng = random.Random(99)
    database, progress = tmp_path / "crashed.db", tmp_path / "crashed.progress"
    for _ in range(12):
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                _drive(database, progress, inputs)
                code = 0
            finally:
                os._exit(code)
        time.sleep(rng.uniform(0.02, 0.15) * whole_run)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    assert _in_child(database, progress, inputs) == 0
    assert _log(database) == expected
