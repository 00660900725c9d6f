"""The ``sheshbesh replay`` and ``sheshbesh export`` commands."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import events_from_replay, real_match_paths

from controller.cli import main
from controller.events import Event
from controller.record.export import export_mat
from controller.record.matfile import read_mat
from controller.record.rules_replay import replay_records
from controller.record.store import Record


def _path(name_part: str) -> Path:
    return next(p for p in real_match_paths() if name_part in p.name)


def test_replay_prints_each_game_and_the_final_score(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(_path("3pt"))]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "Alice - Bob, 3 point match",
        "Game 1: Bob wins 1 point (Alice 0, Bob 1)",
        "Game 2: Alice wins 6 points (Alice 6, Bob 1)",
        "Final score: Alice 6, Bob 1 (Alice wins the match)",
    ]


def test_replay_json_is_one_record_a_line(
    real_match: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "--json", str(real_match)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line) for line in lines] == list(
        replay_records(read_mat(real_match.read_text()))
    )
    assert json.loads(lines[-1])["type"] == "match"


def test_replay_of_a_corrupt_file_fails_with_line_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _path("3pt").read_text().replace("63: 7/1* 4/1", "63: 7/1* 4/2")
    bad = tmp_path / "bad.mat"
    bad.write_text(text)
    assert main(["replay", str(bad)]) == 1
    captured = capsys.readouterr()
    assert f"{bad}: line 9: Bob's 63: '7/1* 4/2' is not a legal play" in captured.err
    assert "Final score" in captured.out  # the games that do replay are still reported


def test_replay_of_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "nope.mat")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_replay_through_the_console_command() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "controller.cli", "replay", "--json", str(_path("1pt"))],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout.splitlines()[-1]) == {"type": "match", "score": [0, 2]}


@pytest.fixture
def database(tmp_path: Path) -> Path:
    path = tmp_path / "record.sqlite"
    with Record(path) as record:
        for name_part, match_id in (("5pt", "five"), ("7pt", "seven")):
            for event in events_from_replay(read_mat(_path(name_part).read_text()), match_id):
                # the record numbers events itself: two matches share one log
                record.append(Event(event.type, event.data, event.time), match_id)
    return path


def test_export_writes_the_recorded_match(database: Path, tmp_path: Path) -> None:
    out = tmp_path / "five.mat"
    assert (
        main(["export", "five", "--format", "mat", "--db", str(database), "--out", str(out)]) == 0
    )
    with Record(database) as record:
        expected = export_mat(record.events("five"))
    assert out.read_text() == expected
    exported = read_mat(out.read_text())
    original = read_mat(_path("5pt").read_text())
    assert list(replay_records(exported)) == list(replay_records(original))


def test_export_to_stdout_and_latest_match(
    database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "-", "--db", str(database)]) == 0
    text = capsys.readouterr().out
    assert read_mat(text).length == 7  # the match started last


def test_export_of_an_unknown_match_or_log(
    database: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "nine", "--db", str(database)]) == 1
    assert "no match 'nine'" in capsys.readouterr().err
    assert main(["export", "five", "--db", str(tmp_path / "missing.sqlite")]) == 1
    assert "no event log" in capsys.readouterr().err


def test_replay_text_keeps_the_file_totals_after_a_broken_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "broken.mat"
    bad.write_text(_path("7pt").read_text().replace("  2) 62: 24/18 18/16", "  2) 62: 24/18 18/15"))
    assert main(["replay", str(bad)]) == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines()[1:] == [
        "Game 2: Alice wins 2 points (Alice 4, Bob 0)",
        "Game 3: Bob wins 1 point (Alice 4, Bob 1)",
        "Game 4: Bob wins 4 points (Alice 4, Bob 5)",
        "Game 5: Alice wins 4 points (Alice 8, Bob 5)",
        "Final score: Alice 8, Bob 5 (Alice wins the match)",
    ]
    assert f"{bad}: line 8: Alice's 62: '24/18 18/15' is not a legal play" in captured.err
