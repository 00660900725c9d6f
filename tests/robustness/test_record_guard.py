"""The record cannot be confused: a second writer, an empty file, a damaged or unknown event,
a busy panel port; ``export`` and every reader leave the file exactly as it was."""

from __future__ import annotations

import hashlib
import socket
import sqlite3
from pathlib import Path

import pytest

from controller.events import Event
from controller.record.store import Record, RecordCorruptError, RecordError, RecordInUseError
from controller.referee import MatchSettings, NewMatch
from controller.table.runner import Runner
from tests.robustness.conftest import Outcome, call


def _recorded(path: Path) -> str:
    """A record holding one match that has begun (its first game started)."""
    with Record(path) as record:
        runner = Runner.resume(record, clock=lambda: 1_000.0)
        runner.feed(NewMatch(MatchSettings(("Ada", "Bo"), length=3, match_id="m1")))
        assert record.current_match == "m1"
    return "m1"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _run(db: Path, calibration: Path, tmp_path: Path, *extra: str) -> Outcome:
    config = tmp_path / "run.toml"
    config.write_text(f'[record]\nlog = "{tmp_path / "run.log"}"\n[lights]\nkind = "none"\n')
    return call(
        [
            "run", "--config", str(config), "--camera", str(tmp_path / "no-such-camera"),
            "--calibration", str(calibration), "--db", str(db), "--give-up-after", "0.001",
            "--reconnect-seconds", "0.001", *extra,
        ]
    )  # fmt: skip


def test_a_second_writer_is_told_the_record_is_in_use(tmp_path: Path) -> None:
    path = tmp_path / "record.sqlite"
    with Record(path) as first:
        first.append(Event("match_started", {"id": "m1", "players": ["A", "B"], "length": 1}))
        with pytest.raises(RecordInUseError, match="in use"):
            Record(path)
        with Record(path, read_only=True) as reader:  # readers are never locked out
            assert reader.current_match == "m1"
    with Record(path) as again:  # the lock ends with the writer
        assert again.current_match == "m1"


def test_run_on_a_record_in_use_refuses_in_one_line(tmp_path: Path, calibration: Path) -> None:
    db = tmp_path / "record.sqlite"
    _recorded(db)
    with Record(db):
        done = _run(db, calibration, tmp_path, "--no-panel")
    assert done.status == 2
    assert "is in use" in done.err and "Traceback" not in done.err


def test_an_empty_file_is_named_as_such_and_left_alone(tmp_path: Path, calibration: Path) -> None:
    db = tmp_path / "record.sqlite"
    db.touch()
    with pytest.raises(RecordCorruptError, match=r"empty file \(0 bytes\)"):
        Record(db)
    done = _run(db, calibration, tmp_path, "--no-panel")
    assert done.status == 2 and "empty file (0 bytes)" in done.err
    exported = call(["export", "-", "--db", str(db)])
    assert exported.status == 1 and "empty file (0 bytes)" in exported.err
    assert db.stat().st_size == 0


def test_run_refuses_a_match_that_export_flags(tmp_path: Path, calibration: Path) -> None:
    db = tmp_path / "record.sqlite"
    _recorded(db)
    raw = sqlite3.connect(db)
    raw.execute(
        "INSERT INTO events (match_id, time, type, data) VALUES ('m1', 2000, 'play', ?)",
        ('{"player": 0, "dice": [9, 9], "play": "24/15"}',),
    )
    raw.commit()
    raw.close()
    before = _digest(db)
    exported = call(["export", "m1", "--db", str(db)])
    assert exported.status == 1 and "dice" in exported.err
    done = _run(db, calibration, tmp_path, "--no-panel")
    assert done.status == 2
    assert "cannot be resumed" in done.err and "dice" in done.err
    assert _digest(db) == before


def test_an_unknown_event_type_is_a_clear_error(tmp_path: Path, calibration: Path) -> None:
    db = tmp_path / "record.sqlite"
    _recorded(db)
    raw = sqlite3.connect(db)
    raw.execute(
        "INSERT INTO events (match_id, time, type, data) VALUES ('m1', 2000, 'teleport', '{}')"
    )
    raw.commit()
    raw.close()
    with Record(db, read_only=True) as record, pytest.raises(RecordCorruptError, match="teleport"):
        record.events("m1")
    done = _run(db, calibration, tmp_path, "--no-panel")
    assert done.status == 2 and "unknown event type 'teleport'" in done.err
    exported = call(["export", "m1", "--db", str(db)])
    assert exported.status == 1 and "teleport" in exported.err


def test_a_busy_panel_port_is_found_before_anything_is_recorded(
    tmp_path: Path, calibration: Path
) -> None:
    db = tmp_path / "record.sqlite"
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = _run(db, calibration, tmp_path, "--port", str(port))
    assert done.status == 2 and f"127.0.0.1:{port}" in done.err
    assert not db.exists()


def test_export_changes_nothing_in_the_file(tmp_path: Path) -> None:
    db = tmp_path / "record.sqlite"
    _recorded(db)
    raw = sqlite3.connect(db)
    raw.execute("DROP TRIGGER events_no_delete")  # a damaged schema export must not repair
    raw.execute("PRAGMA journal_mode=DELETE")
    raw.commit()
    raw.close()
    before = _digest(db)
    done = call(["export", "m1", "--db", str(db)])
    assert done.status in (0, 1) and "Traceback" not in done.err
    assert _digest(db) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["record.sqlite"]
    with Record(db, read_only=True) as record, pytest.raises(RecordError, match="read-only"):
        record.append(Event("match_started", {"id": "m2"}))


def test_a_missing_or_foreign_path_is_refused(tmp_path: Path) -> None:
    for db, words in ((tmp_path / "none.sqlite", "no event log"), (tmp_path, "is a folder")):
        done = call(["export", "-", "--db", str(db)])
        assert done.status == 1 and words in done.err
