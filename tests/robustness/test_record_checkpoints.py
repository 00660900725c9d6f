"""The record's write-ahead log is copied back into the file by a thread of its own, not inside
the referee's appends, and every append is still on disk (synced) when it returns."""

from __future__ import annotations

import shutil
import sqlite3
import time
from pathlib import Path

from controller.events import Event
from controller.record.store import Record, _Checkpointer


def _count_in_main_file(path: Path, folder: Path) -> int:
    """Events that the main file holds by itself, without its write-ahead log (a copy of the
    file alone is read, so whatever only the log holds is not counted)."""
    alone = folder / f"alone-{time.monotonic_ns()}.sqlite"
    shutil.copyfile(path, alone)
    connection = sqlite3.connect(alone)
    try:
        return int(connection.execute("SELECT COUNT(*) FROM events").fetchone()[0])
    except sqlite3.OperationalError:  # not even the schema has left the log yet
        return 0
    finally:
        connection.close()


def _append(record: Record, count: int) -> None:
    record.append(Event("match_started", {"id": "m1", "players": ["A", "B"], "length": 3}))
    for index in range(count - 1):
        record.append(Event("dice_rolled", {"player": index % 2, "dice": [3, 1]}))


def test_the_writer_never_checkpoints_in_its_commits_and_syncs_each_one(tmp_path: Path) -> None:
    with Record(tmp_path / "r.sqlite") as record:
        connection = record._connection
        assert connection.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        # 2 = FULL: the log is synced at every commit, so a power cut loses no appended event.
        assert connection.execute("PRAGMA synchronous").fetchone()[0] == 2
    with Record(tmp_path / "inline.sqlite", background_checkpoints=False) as record:
        assert record._connection.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 1000


def test_the_background_thread_moves_the_log_into_the_file(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    with Record(path) as record:
        _append(record, _Checkpointer.EVERY + 10)
        deadline = time.monotonic() + 30
        moved = _count_in_main_file(path, tmp_path)
        while moved < _Checkpointer.EVERY and time.monotonic() < deadline:
            time.sleep(0.05)
            moved = _count_in_main_file(path, tmp_path)
        assert moved >= _Checkpointer.EVERY
        # Every event is readable at once, from the log or the file.
        assert len(record.events("m1")) == _Checkpointer.EVERY + 10
    # Closing checkpoints the rest: the file alone then holds everything.
    assert _count_in_main_file(path, tmp_path) == _Checkpointer.EVERY + 10


def test_without_the_thread_the_log_keeps_what_a_few_commits_wrote(tmp_path: Path) -> None:
    """The control: a few commits (fewer than a checkpoint waits for) stay in the log only, so
    the copy above can tell the log from the file."""
    path = tmp_path / "r.sqlite"
    Record(path).close()  # the schema, checkpointed when the writer closes
    with Record(path) as record:
        _append(record, 5)
        time.sleep(0.2)
        assert _count_in_main_file(path, tmp_path) == 0
        assert len(record.events("m1")) == 5


def _poke(checkpointer: _Checkpointer) -> None:
    """Let the thread look at its (fake) clock again, as a new commit would."""
    with checkpointer._wake:
        checkpointer._wake.notify()


def test_a_checkpoint_waits_for_a_quiet_moment_unless_too_much_waits(tmp_path: Path) -> None:
    """With a fake clock: never while appends keep coming, at once when they pause, and anyway
    once :attr:`_Checkpointer.AT_MOST` commits wait."""
    path = tmp_path / "r.sqlite"
    Record(path).close()  # a WAL-mode record to checkpoint
    now = [100.0]
    checkpointer = _Checkpointer(str(path), clock=lambda: now[0])
    try:
        for _ in range(_Checkpointer.EVERY):
            checkpointer.committed()
        time.sleep(0.6)  # the thread is up, and waits: the last commit was "just now"
        assert checkpointer.checkpoints == 0
        now[0] += _Checkpointer.QUIET + 0.01  # no append for a while: a quiet moment
        _poke(checkpointer)
        deadline = time.monotonic() + 20
        while checkpointer.checkpoints == 0:
            assert time.monotonic() < deadline, "no checkpoint in the quiet moment"
            time.sleep(0.02)
        # Appends that never pause: none until AT_MOST commits wait, then one anyway.
        for _ in range(_Checkpointer.AT_MOST - 1):
            checkpointer.committed()
        time.sleep(0.6)
        assert checkpointer.checkpoints == 1
        checkpointer.committed()
        deadline = time.monotonic() + 20
        while checkpointer.checkpoints == 1:
            assert time.monotonic() < deadline, "no checkpoint after AT_MOST commits"
            time.sleep(0.02)
    finally:
        checkpointer.close()
