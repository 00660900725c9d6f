"""``sheshbesh replay`` through the referee: the same records as the rules engine, the same errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.cli import main
from controller.record.matfile import MatFileError, read_mat
from controller.record.rules_replay import replay_records
from controller.record.store import Record
from controller.referee import ButtonPressed, NewMatch, ObservationSeen, Resign
from controller.sim.replay import (
    BoardScript,
    match_settings,
    referee_inputs,
    replay_through_referee,
)
from tests.shared_data import MATCHES_DIR

PATHS = sorted(MATCHES_DIR.glob("*.mat"))
pytestmark = pytest.mark.skipif(not PATHS, reason="the shared .mat matches are not present")


def _path(part: str) -> Path:
    return next(path for path in PATHS if f"-{part}-" in path.name)


def _broken(tmp_path: Path, part: str, old: str, new: str) -> Path:
    text = _path(part).read_text()
    assert old in text, f"{old!r} is not in {part}"
    bad = tmp_path / f"broken-{part}.mat"
    bad.write_text(text.replace(old, new, 1))
    return bad


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    status = main(["replay", *args])
    captured = capsys.readouterr()
    return status, captured.out.splitlines(), captured.err


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_referee_and_rules_give_the_same_json_lines(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, through_referee, err = _run(capsys, "--json", str(path))
    assert status == 0, err
    status, rules_only, err = _run(capsys, "--json", "--rules-only", str(path))
    assert status == 0, err
    assert through_referee == rules_only
    records = [json.loads(line) for line in through_referee]
    assert records[-1] == {"type": "match", "score": list(read_mat(path.read_text()).final_score)}
    assert {record["type"] for record in records} >= {"play", "game", "match"}


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_text_output_is_the_same_both_ways(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, through_referee, _ = _run(capsys, str(path))
    assert status == 0
    assert _run(capsys, "--rules-only", str(path))[1] == through_referee
    assert through_referee[-1].startswith("Final score:")


def test_the_referee_records_every_event_in_the_given_log(tmp_path: Path) -> None:
    match = read_mat(_path("3pt").read_text())
    with Record(tmp_path / "replay.sqlite") as record:
        records = list(replay_through_referee(match, record, match_id="three", clock=lambda: 1.0))
        events = record.events("three")
    assert events[0].type == "match_started"
    assert events[0].data["players"] == ["Alice", "Bob"]
    plays = [event for event in events if event.type == "play"]
    assert [(e.data["player"], e.data["play"]) for e in plays] == [
        (r["player"], r["play"]) for r in records if r["type"] == "play"
    ]
    won = [(e.data["winner"], e.data["points"]) for e in events if e.type == "game_won"]
    assert won == [(game.winner, game.points) for game in match.games]
    assert [e.type for e in events if e.type.startswith("resign")] == []  # this match has none
    assert events[-1].type == "match_won"


def test_record_option_keeps_the_events(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    database = tmp_path / "events.sqlite"
    status, _, err = _run(capsys, "--record", str(database), str(_path("1pt")))
    assert status == 0, err
    with Record(database) as record:
        (entry,) = record.matches()
    assert entry["score"] == list(read_mat(_path("1pt").read_text()).final_score)
    assert entry["finished"] is not None


def test_record_option_with_a_file_that_is_no_event_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    not_a_log = tmp_path / "notes.txt"
    not_a_log.write_text("shopping list\n")
    status, _, err = _run(capsys, "--record", str(not_a_log), str(_path("1pt")))
    assert status == 1
    assert "not an SQLite event log" in err


def test_a_corrupt_file_fails_with_line_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = _broken(tmp_path, "3pt", "  2)  Doubles => 2", "  2)  Doubles => 3")
    status, out, err = _run(capsys, str(bad))
    assert status == 1
    assert out == []
    assert f"{bad}: line 16: " in err and "Doubles" in err


def test_an_illegal_play_is_reported_with_its_line_and_later_games_go_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = _broken(tmp_path, "7pt", "  2) 62: 24/18 18/16", "  2) 62: 24/18 18/15")
    status, out, err = _run(capsys, str(bad))
    assert status == 1
    assert f"{bad}: line 8: Alice's 62: '24/18 18/15' is not a legal play" in err
    assert "9 pips moved, but 6-2 gives 8" in err  # the referee's own explanation
    assert out[1:] == [
        "Game 2: Alice wins 2 points (Alice 4, Bob 0)",
        "Game 3: Bob wins 1 point (Alice 4, Bob 1)",
        "Game 4: Bob wins 4 points (Alice 4, Bob 5)",
        "Game 5: Alice wins 4 points (Alice 8, Bob 5)",
        "Final score: Alice 8, Bob 5 (Alice wins the match)",
    ]
    rules_status, rules_out, _ = _run(capsys, "--rules-only", str(bad))
    assert (rules_status, rules_out) == (status, out)


def test_broken_games_give_the_same_json_lines_as_the_rules(tmp_path: Path) -> None:
    cases = [
        ("3pt", "63: 7/1* 4/1", "63: 7/1* 4/2"),  # shown on the board, judged by the referee
        ("3pt", "63: 7/1* 4/1", "63: 7/2* 4/1"),  # cannot be shown: no blot on 2 to hit
        ("1pt", "  2) 32: 24/21 23/21", "  2) 32: 24/21 23/22"),
        ("1pt", " 18) 44:  ", " 18) 44: 6/2 "),  # a checker on the bar must enter first
    ]
    for part, old, new in cases:
        match = read_mat(_broken(tmp_path, part, old, new).read_text())
        outcomes = []
        for replay in (replay_records, replay_through_referee):
            records: list[dict[str, object]] = []
            with pytest.raises(MatFileError) as caught:
                records.extend(replay(match))
            outcomes.append((records, caught.value.problems))
        (rules_records, rules_problems), (records, problems) = outcomes
        assert records == rules_records, new
        assert [p.split(":")[0] for p in problems] == [p.split(":")[0] for p in rules_problems]
        assert problems[0].split(": ")[1] == rules_problems[0].split(": ")[1]


def test_a_play_that_cannot_be_shown_keeps_the_rules_message(tmp_path: Path) -> None:
    match = read_mat(_broken(tmp_path, "3pt", "63: 7/1* 4/1", "63: 7/2* 4/1").read_text())
    with pytest.raises(MatFileError) as caught:
        list(replay_through_referee(match))
    assert caught.value.problems == (
        "line 9: Bob's 63: '7/2* 4/1' is not a legal play with dice 6-3 in position "
        "4HPMAVA4X+ABKA: 7/2 moves 5 pips: no number of 6-3 makes 5",
    )
    with pytest.raises(MatFileError, match="line 9"):
        list(referee_inputs(match))


def test_play_after_the_game_is_over(tmp_path: Path) -> None:
    bad = _broken(
        tmp_path, "3pt", "  2)  Doubles => 2                Takes", "  2)  Doubles => 2    Drops"
    )
    with pytest.raises(MatFileError) as caught:
        list(replay_through_referee(read_mat(bad.read_text())))
    assert caught.value.problems == ("line 17: game 2 is already over: nothing more may happen",)


MONEY = """ 0 point match

 Game 1
 Ann : 0                            Ben : 0
  1) 31: 8/5 6/5                   52: 13/8 24/22
      Wins 2 points
"""


def test_a_resignation_is_shown_with_the_resign_input() -> None:
    match = read_mat(MONEY.replace("Wins 2 points", "Wins 1 point"))
    inputs = list(referee_inputs(match))
    assert isinstance(inputs[0], NewMatch)
    assert inputs[-2:] == [Resign(1, 1), ButtonPressed("accept")]  # Ben resigns to Ann
    assert all(isinstance(item, ObservationSeen) for item in inputs[1:-2])
    records = list(replay_through_referee(match))
    assert records == list(replay_records(match))
    assert records[-2:] == [
        {"type": "game", "game": 1, "winner": 0, "points": 1},
        {"type": "match", "score": [1, 0]},
    ]


def test_a_gammon_resignation_under_jacoby_is_refused_with_a_hint() -> None:
    match = read_mat(MONEY)
    with pytest.raises(MatFileError, match="the Jacoby rule is on") as caught:
        list(replay_through_referee(match))
    assert caught.value.problems[0].startswith("line 6: Ann cannot win 2 points by resignation")
    records = list(replay_through_referee(match, jacoby=False))
    assert records == list(replay_records(match, jacoby=False))
    assert records[-1] == {"type": "match", "score": [2, 0]}


def test_a_roll_then_a_resignation() -> None:
    text = MONEY.replace("52: 13/8 24/22\n      Wins 2 points", "52:\n      Wins 1 point")
    match = read_mat(text)
    assert match.games[0].actions[-1].play == ""
    records = list(replay_through_referee(match))
    assert records == list(replay_records(match))
    assert [r["type"] for r in records] == ["play", "game", "match"]


def test_an_opening_double_cannot_come_from_the_roll_off() -> None:
    match = read_mat(MONEY.replace("31: 8/5 6/5", "33: 8/5 8/5 6/3 6/3"))
    with pytest.raises(MatFileError, match="line 5: Ann opens game 1 with 33"):
        list(replay_through_referee(match))


def test_the_script_hooks_shape_the_inputs() -> None:
    match = read_mat(MONEY.replace("Wins 2 points", "Wins 1 point"))

    class OneAtATime(BoardScript):
        def steps_shown(self, play: object) -> int:
            return 1

    plain = list(referee_inputs(match))
    slow = list(referee_inputs(match, script=OneAtATime))
    assert len(slow) == len(plain) + 2  # one partial board for each of the two plays
    settings = match_settings(match)
    assert settings.players == ("Ann", "Ben") and settings.length == 0
