"""The SQLite event log: append-only, committed on append, safe with foreign or damaged files."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from referee_testkit import match_inputs, match_paths

from controller.events import Event
from controller.record.matfile import read_mat
from controller.record.store import DuplicateEventError, Record, RecordCorruptError, RecordError
from controller.table.runner import Runner


def _started(match_id: str, players: tuple[str, str] = ("Alice", "Bob")) -> Event:
    return Event("match_started", {"id": match_id, "players": list(players), "length": 3}, 100.0)


def test_append_commits_and_another_connection_sees_it(tmp_path: Path) -> None:
    path = tmp_path / "events.db"
    with Record(path) as record:
        first = record.append(_started("m1"))
        second = record.append(Event("dice_rolled", {"player": 0, "dice": [3, 1]}, 101.0))
        assert (first, second) == (1, 2)
        other = sqlite3.connect(path)
        rows = other.execute(
            "SELECT sequence, match_id, type FROM events ORDER BY sequence"
        ).fetchall()
        other.close()
        assert rows == [(1, "m1", "match_started"), (2, "m1", "dice_rolled")]
        mode = record._connection.execute("PRAGMA journal_mode").fetchone()[0]
        assert mode == "wal"
    with Record(path) as reopened:
        assert [e.type for e in reopened.events("m1")] == ["match_started", "dice_rolled"]
        assert reopened.events("m1")[1].data == {"player": 0, "dice": [3, 1]}
        assert reopened.current_match == "m1"


def test_events_are_never_updated_or_deleted(tmp_path: Path) -> None:
    with Record(tmp_path / "events.db") as record:
        record.append(_started("m1"))
        for statement in ("UPDATE events SET type = 'undo'", "DELETE FROM events"):
            with pytest.raises(sqlite3.DatabaseError, match="append-only"):
                record._connection.execute(statement)
        assert len(record.events("m1")) == 1


def test_the_same_sequence_is_never_recorded_twice(tmp_path: Path) -> None:
    with Record(tmp_path / "events.db") as record:
        record.append(Event("match_started", {"id": "m1"}, 0.0, sequence=1))
        with pytest.raises(DuplicateEventError, match="event 1"):
            record.append(Event("game_started", {"game": 1}, 0.0, sequence=1))
        assert [e.type for e in record.events()] == ["match_started"]


def test_an_event_without_a_match_is_refused() -> None:
    with Record(":memory:") as record, pytest.raises(RecordError, match="no match"):
        record.append(Event("dice_rolled", {"player": 0, "dice": [3, 1]}))


def test_a_corrupt_file_gives_a_clear_error_and_is_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "events.db"
    garbage = b"this is not a database at all\n" * 100
    path.write_bytes(garbage)
    with pytest.raises(RecordCorruptError, match="not an SQLite event log"):
        Record(path)
    assert path.read_bytes() == garbage
    assert sorted(p.name for p in tmp_path.iterdir()) == ["events.db"]


def test_a_damaged_database_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "events.db"
    with Record(path) as record:
        for index in range(200):
            record.append(Event("match_started", {"id": f"m{index}", "pad": "x" * 200}, 0.0))
        record._connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    data[4096 : 4096 + 300] = b"\xff" * 300  # scribble over the second page, header and all
    path.write_bytes(bytes(data))
    with pytest.raises(RecordCorruptError, match="left untouched"):
        Record(path)
    assert path.read_bytes() == bytes(data)


def test_another_programs_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE photos (name TEXT)")
    connection.commit()
    connection.close()
    before = path.read_bytes()
    with pytest.raises(RecordCorruptError, match="no 'events' table"):
        Record(path)
    assert path.read_bytes() == before


def test_matches_are_listed_for_the_panel(tmp_path: Path) -> None:
    paths = match_paths()
    if not paths:
        pytest.skip("the shared .mat matches are not present")
    match = read_mat(paths[1].read_text())
    with Record(tmp_path / "events.db") as record:
        runner = Runner.resume(record, clock=lambda: 1_700_000_000.0)
        runner.feed_all(match_inputs(match))
        record.append(_started("later", ("Carol", "Dave")))
        listed = record.list_matches()
        assert [entry["id"] for entry in listed] == ["later", "match"]
        finished = listed[1]
        assert finished["players"] == list(match.players)
        assert finished["length"] == match.length
        assert tuple(finished["score"]) == match.final_score
        assert finished["started"] == "2023-11-14T22:13:20+00:00"
        assert finished["finished"] is not None
        assert [(g["winner"], g["points"]) for g in finished["games"]] == [
            (g.winner, g.points) for g in match.games
        ]
        assert listed[0]["finished"] is None and listed[0]["games"] == []
        assert record.match("match") == finished
        assert record.match("nothing") is None
        exported = read_mat(record.export_mat("match"))
        assert [(g.winner, g.points) for g in exported.games] == [
            (g.winner, g.points) for g in match.games
        ]
        with pytest.raises(KeyError):
            record.export_mat("nothing")


def test_the_panels_threads_may_read_while_the_referee_writes(tmp_path: Path) -> None:
    with Record(tmp_path / "events.db") as record:
        record.append(_started("m1"))
        listed: list[list[str]] = []
        failures: list[BaseException] = []

        def read() -> None:
            try:
                for _ in range(50):
                    listed.append([entry["id"] for entry in record.list_matches()])
            except BaseException as error:  # collected for the assertion below
                failures.append(error)

        readers = [threading.Thread(target=read) for _ in range(3)]
        for reader in readers:
            reader.start()
        for index in range(50):
            record.append(Event("dice_rolled", {"player": index % 2, "dice": [3, 1]}, 101.0))
        for reader in readers:
            reader.join()
        assert failures == []
        assert len(listed) == 150 and all(ids == ["m1"] for ids in listed)
        assert len(record.events("m1")) == 51
