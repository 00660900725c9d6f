"""Analysis reports kept in the record (apart from the events) and ``analyse_finished_game``."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest
from analysis_fakes import MATCHES, FakeAnalyser

from controller.analysis.store import analyse_finished_game, finished_games
from controller.cli import main
from controller.events import Event
from controller.record.matfile import read_mat
from controller.record.store import AnalysisRecordError, Record, RecordError
from controller.sim.replay import referee_inputs, replay_through_referee
from controller.table.runner import Runner

ONE = MATCHES / "gnubg-selfplay-1pt-seed11.mat"
FIVE = MATCHES / "gnubg-selfplay-5pt-seed777.mat"
pytestmark = pytest.mark.skipif(not ONE.is_file(), reason="the shared .mat matches are not present")


def _recorded(path: Path, match_file: Path, match_id: str) -> None:
    with Record(path) as record:
        list(replay_through_referee(read_mat(match_file.read_text()), record, match_id=match_id))


def _schema(path: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(path) as connection:
        return sorted(connection.execute("SELECT type, name FROM sqlite_master"))


def test_reports_are_saved_apart_from_the_events(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    with Record(path) as record:
        record.append(
            Event("match_started", {"id": "m1", "players": ["A", "B"], "policy": "condone"})
        )
        before = [event.to_json() for event in record.events("m1")]
        assert record.analysis("m1") is None  # no analyses table yet
        first = record.save_analysis("m1", {"engine": "bgsage 1ply", "totals": []}, game=1)
        second = record.save_analysis(
            "m1", json.dumps({"engine": "x", "n": 2}), level="2ply", time=0
        )
        assert second > first
        latest = record.analysis("m1")
        assert [event.to_json() for event in record.events("m1")] == before
        assert record.last_sequence() == 1
    assert latest == {
        "match_id": "m1",
        "game": None,
        "level": "2ply",
        "time": "1970-01-01T00:00:00+00:00",
        "report": {"engine": "x", "n": 2},
        "policy": "condone",
    }
    with sqlite3.connect(path) as connection:
        rows = connection.execute(
            "SELECT match_id, game, level FROM analyses ORDER BY id"
        ).fetchall()
        assert rows == [("m1", 1, "1ply"), ("m1", None, "2ply")]
        # The events keep their triggers: still append-only.
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            connection.execute("DELETE FROM events")


def test_opening_a_log_never_adds_the_analyses_table(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    with Record(path) as record:
        record.append(Event("match_started", {"id": "m1", "players": ["A", "B"]}))
    schema = _schema(path)
    with Record(path) as record:
        assert record.analysis("m1") is None
    assert _schema(path) == schema
    assert ("table", "analyses") not in schema


def test_bad_reports_are_refused(tmp_path: Path) -> None:
    with Record(tmp_path / "log.sqlite") as record:
        record.append(Event("match_started", {"id": "m1", "players": ["A", "B"]}))
        with pytest.raises(AnalysisRecordError, match="no match 'm2'"):
            record.save_analysis("m2", {"engine": "x"})
        with pytest.raises(AnalysisRecordError, match="not JSON"):
            record.save_analysis("m1", "{not json")
        with pytest.raises(AnalysisRecordError, match="JSON object, not list"):
            record.save_analysis("m1", "[1, 2]")
        with pytest.raises(AnalysisRecordError, match="game must be a game number"):
            record.save_analysis("m1", {}, game=0)
        with pytest.raises(ValueError):  # the builtin it narrows
            record.save_analysis("m1", "3")
        assert record.analysis("m1") is None


def test_only_finished_games_are_analysed_and_saved() -> None:
    match = read_mat(FIVE.read_text())
    inputs = list(referee_inputs(match, match_id="five"))
    with Record(":memory:") as record:
        runner = Runner.resume(record, clock=lambda: 0.0)
        fed = 0
        # Play on until two games are over and the third is under way.
        while len(finished_games(record, "five")) < 2:
            runner.feed(inputs[fed])
            fed += 1
        assert analyse_finished_game(record, "five", "0ply", analyser=FakeAnalyser()) is not None
        runner.feed_all(inputs[fed : fed + 12])
        events = record.events("five")
        assert max(e.data["game"] for e in events if e.type == "game_started") == 3
        assert any(e.type == "play" for e in events[-12:])  # game 3 is being played
        report = analyse_finished_game(record, "five", "0ply", analyser=FakeAnalyser())
        assert report is not None
        saved = record.analysis("five")
    assert saved is not None and saved["report"] == report
    assert saved["game"] == 2 and saved["level"] == "0ply"
    assert {play["game"] for play in report["plays"]} == {1, 2}
    assert report["players"] == ["Alice", "Bob"]
    assert report["costliest"] and all("drawing" in entry for entry in report["costliest"])
    assert "+13-14-15-16-17-18" in report["costliest"][0]["drawing"]


def test_nothing_is_saved_before_the_first_game_is_over(tmp_path: Path) -> None:
    match = read_mat(ONE.read_text())
    with Record(":memory:") as record:
        runner = Runner.resume(record, clock=lambda: 0.0)
        runner.feed_all(list(referee_inputs(match, match_id="one"))[:10])
        assert analyse_finished_game(record, "one", analyser=FakeAnalyser()) is None
        assert record.analysis("one") is None
        with pytest.raises(ValueError, match="no match 'two'"):
            analyse_finished_game(record, "two", analyser=FakeAnalyser())


def test_analyse_command_saves_the_report_in_the_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("bgsage", reason="the analysis extra (bgsage) is not installed")
    database = tmp_path / "record.sqlite"
    _recorded(database, ONE, "one")
    events_before = _events(database)
    assert main(["analyse", "one", "--record", str(database), "--format", "json", "-q"]) == 0
    printed = json.loads(capsys.readouterr().out)
    with Record(database) as record:
        saved = record.analysis("one")
    assert saved is not None
    assert saved["level"] == "0ply" and saved["game"] == 1
    report = saved["report"]
    assert report["totals"] == printed["totals"] and report["engine"] == "bgsage 0ply"
    assert [entry["position_id"] for entry in report["costliest"]] == [
        entry["position_id"] for entry in printed["costliest"]
    ]
    assert all(entry["drawing"] for entry in report["costliest"])
    assert _events(database) == events_before


def test_analyse_command_no_save_and_a_record_that_cannot_be_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("bgsage", reason="the analysis extra (bgsage) is not installed")
    database = tmp_path / "record.sqlite"
    _recorded(database, ONE, "one")
    assert main(["analyse", "one", "--record", str(database), "--no-save", "-q"]) == 0
    with Record(database) as record:
        assert record.analysis("one") is None
    capsys.readouterr()

    def refuse(self: Record, *args: object, **kwargs: object) -> int:
        raise RecordError(
            f"cannot save the analysis in {self.path!r}: attempt to write a readonly database"
        )

    monkeypatch.setattr(Record, "save_analysis", refuse)
    assert main(["analyse", "one", "--record", str(database), "-q"]) == 1
    captured = capsys.readouterr()
    assert "Analysis:" in captured.out  # the report is still printed
    assert "the report was not saved" in captured.err and "readonly" in captured.err


def test_analyse_command_without_the_engine_saves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "record.sqlite"
    _recorded(database, ONE, "one")
    monkeypatch.setitem(sys.modules, "bgsage", None)
    assert main(["analyse", "one", "--record", str(database), "-q"]) == 3
    assert "analysis is not installed" in capsys.readouterr().err
    with Record(database) as record:
        assert record.analysis("one") is None


def _events(path: Path) -> list[tuple[int, str, str]]:
    with sqlite3.connect(path) as connection:
        return connection.execute(
            "SELECT sequence, type, data FROM events ORDER BY sequence"
        ).fetchall()
