"""What the referee writes: a typed payload per event, whose data has the keys recorded so far.

The referee builds each event from a ``sheshbesh.events`` dataclass. These tests pin the shape of
the data it writes for the events whose optional keys depend on the situation (a key that is
written as false, a key that is left out), so that the record's bytes stay what they were, and
check that what is stored reads back to the very payload the referee wrote.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

import pytest
from referee_testkit import match_inputs, match_paths, observe, recorded, run, seen

from controller.events import Event
from controller.record.matfile import read_mat
from controller.referee import ClockSettings, MatchSettings, NewMatch, ObservationSeen, Referee
from controller.referee.turn import board_of
from controller.referee.variants import sheshbesh_counts
from controller.rules import Dice, Position
from controller.rules.sheshbesh import SheshBeshGame
from sheshbesh.events import EVENT_CLASSES, event_payload

START = Position.initial()
PATHS = match_paths()


def _stored(event: Event) -> dict[str, Any]:
    """The event's data as the record stores it and reads it back (``controller.record``)."""
    data: dict[str, Any] = json.loads(json.dumps(event.data, sort_keys=True, separators=(",", ":")))
    return data


def _reads_back(event: Event) -> None:
    """The stored data parses to the payload written, of the class the type names."""
    assert isinstance(event.payload, EVENT_CLASSES[event.type]), event
    assert event_payload(event.type, _stored(event)) == event.payload, event


def _white_moved(changes: dict[int, int]) -> Position:
    white = list(START.side(0))
    for point, change in changes.items():
        white[point - 1] += change
    return Position.from_players(white, START.side(1), 0)


def _started(policy: Literal["tournament", "condone"]) -> Referee:
    referee = Referee(clock=lambda: 10.0)
    settings = MatchSettings(("Alice", "Bob"), length=5, policy=policy)
    run(referee, [NewMatch(settings), seen(START, dice=(3, 1))])
    return referee


def test_a_new_match_records_its_settings_as_a_resume_reads_them() -> None:
    """No id given, jacoby left to its default, a clock's seconds as ints: the payload folded is
    the one the stored data reads back to, so the live state is the state a resume rebuilds."""
    clock = ClockSettings(reserve="fixed", reserve_seconds=600, delay_seconds=5)
    settings = MatchSettings(("Alice", "Bob"), length=0, clock=clock)
    referee = Referee(clock=lambda: 1_700_000_000.0)
    events = run(referee, [NewMatch(settings)])
    assert [event.type for event in events] == ["match_started", "game_started"]
    data = _stored(events[0])
    assert data["id"] == "20231114-221320-1" and data["jacoby"] is True
    assert data["clock"]["reserve_seconds"] == 600.0
    _reads_back(events[0])
    assert referee.state == Referee.from_events(events, clock=lambda: 1_700_000_000.0).state


def test_an_illegal_play_writes_dice_left_even_when_false() -> None:
    referee = _started("tournament")
    wrong = _white_moved({8: -1, 2: +1})  # 8/2: six pips with 3-1
    events = run(referee, [seen(wrong, dice=(3, 1)), seen(wrong)])
    assert [event.type for event in events] == ["illegal_play"]
    data = _stored(events[0])
    assert set(data) == {
        "player",
        "dice",
        "reason",
        "locations",
        "position_id",
        "result_id",
        "dice_left",
    }
    assert data["dice_left"] is False and data["dice"] == [3, 1] and data["player"] == 0
    _reads_back(events[0])


def test_a_condoned_play_writes_condoned_and_the_reason_but_no_dice_left() -> None:
    referee = _started("condone")
    wrong = _white_moved({8: -1, 2: +1})
    illegal = run(referee, [seen(wrong, dice=(3, 1)), seen(wrong)])
    events = run(referee, [seen(wrong.swap(), dice=(5, 2))])
    assert [event.type for event in events] == ["play", "dice_rolled"]
    data = _stored(events[0])
    assert set(data) == {
        "player",
        "dice",
        "play",
        "position_id",
        "match_id",
        "result_id",
        "from",
        "to",
        "condoned",
        "reason",
    }
    assert data["condoned"] is True and data["reason"] == illegal[0].data["reason"]
    assert _stored(events[1]) == {"player": 1, "dice": [5, 2]}
    for event in events:
        _reads_back(event)


def test_a_board_mismatch_writes_its_locations() -> None:
    referee = _started("tournament")
    counts = board_of(START).counts()
    counts["p6"] = (4, 0)  # a White checker lost from the 6-point
    events = recorded(referee.handle(ObservationSeen(observe(START, counts=counts))))
    assert [event.type for event in events] == ["board_mismatch"]
    data = _stored(events[0])
    assert set(data) == {"reason", "locations"} and isinstance(data["locations"], list)
    _reads_back(events[0])


def test_a_wrong_shesh_besh_lay_down_writes_the_counts_seen() -> None:
    settings = MatchSettings(("Alice", "Bob"), length=3, variant="sheshbesh", match_id="m")
    game = SheshBeshGame.initial(0)

    def shown(counts: dict[str, tuple[int, int]], dice: tuple[int, int] | None = None) -> Any:
        return ObservationSeen(observe(START, dice=dice, counts=counts, cube=None))

    referee = Referee(clock=lambda: 0.0)
    counts = sheshbesh_counts(game)
    run(referee, [NewMatch(settings), shown(counts), shown(counts, (5, 2))])
    run(referee, [shown(counts), shown(counts, (6, 1))])
    wrong = dict(counts)
    wrong["p5"] = (wrong["p5"][0] + 1, 0)  # laid down on 5 instead of 6
    wrong["p1"] = (wrong["p1"][0] + 1, 0)
    events = run(referee, [shown(wrong)])
    assert [event.type for event in events] == ["illegal_play"]
    data = _stored(events[0])
    assert set(data) == {"player", "dice", "reason", "locations", "position_id", "counts"}
    assert data["counts"] == {name: list(pair) for name, pair in wrong.items()}
    _reads_back(events[0])
    events = run(referee, [shown(sheshbesh_counts(game.play(Dice(6, 1)).after))])
    assert [event.type for event in events] == ["play"]
    assert "dice_left" not in events[0].data
    _reads_back(events[0])


@pytest.mark.skipif(not PATHS, reason="the shared .mat matches are not present")
@pytest.mark.parametrize("path", PATHS[:2], ids=lambda p: p.name)
def test_a_whole_match_reads_back_to_the_payloads_written(path: Path) -> None:
    events = run(Referee(clock=lambda: 0.0), match_inputs(read_mat(path.read_text())))
    assert len(events) > 20
    for event in events:
        _reads_back(event)
    starts = [_stored(event) for event in events if event.type == "game_started"]
    assert starts and all(set(data) == {"game", "score", "crawford_game"} for data in starts)
    assert any(data["crawford_game"] is False for data in starts)
    won = [_stored(event) for event in events if event.type == "game_won"]
    assert won and all(set(data) >= {"game", "winner", "points", "kind", "score"} for data in won)
    assert all(isinstance(value, int) for data in won for value in data["score"])
