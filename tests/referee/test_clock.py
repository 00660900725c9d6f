"""The match clock, driven by the referee's own events with an injected clock (no test waits).

Every expected time below is worked out by hand from the script's times, in the comments beside
it: a turn that uses ``t`` seconds with a delay of ``d`` costs ``max(0, t - d)`` of the reserve.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from referee_testkit import recorded, seen

from controller.events import Event
from controller.record.export import export_mat, match_from_events
from controller.record.store import Record
from controller.referee import (
    ButtonPressed,
    ClockSettings,
    ClockSettingsError,
    Input,
    MatchSettings,
    MatchSettingsError,
    NewMatch,
    PauseClock,
    Referee,
    RefereeInputError,
    Resign,
    Tick,
)
from controller.referee.clock import start_clock, switch
from controller.rules import Play, Position
from controller.table.runner import Runner


class Script:
    """A referee on an injected clock, fed inputs at given times; keeps every recorded event."""

    def __init__(self, referee: Referee | None = None, now: list[float] | None = None) -> None:
        self.now = now if now is not None else [0.0]
        self.referee = referee or Referee(clock=lambda: self.now[0])
        self.events: list[Event] = []

    def at(self, time: float, *inputs: Input) -> list[Event]:
        self.now[0] = time
        new: list[Event] = []
        for item in inputs:
            new.extend(recorded(self.referee.handle(item)))
        self.events.extend(new)
        return new

    def clock(self, time: float) -> dict[str, Any]:
        self.now[0] = time
        view: dict[str, Any] = self.referee.snapshot()["clock"]
        return view

    def remaining(self, time: float) -> list[float]:
        return list(self.clock(time)["remaining"])


def after(position: Position, dice: tuple[int, int], text: str) -> Position:
    """The board after the mover plays ``text``, with the opponent on roll."""
    return position.apply(Play.from_notation(text, position, dice)).swap()


def clocked(length: int = 3, **clock: Any) -> MatchSettings:
    return MatchSettings(
        ("Ada", "Boris"), length=length, match_id="clocked", clock=ClockSettings(**clock)
    )


# Positions of the scripted match (White = Ada = 0, Black = Boris = 1).
START_WHITE = Position.initial(turn=0)
G1_AFTER_WHITE = after(START_WHITE, (3, 1), "8/5 6/5")
G1_AFTER_BLACK = after(G1_AFTER_WHITE, (6, 4), "24/18 13/9")
START_BLACK = Position.initial(turn=1)
G2_AFTER_BLACK = after(START_BLACK, (5, 2), "13/8 13/11")


def first_game(script: Script) -> None:
    """Game 1 of a 3-point match: 2 minutes a point (360 s each), 12 s simple delay.

    t=0 match starts; t=30 opening roll 3-1, White's time runs; t=50 White's play (20 s);
    t=60 Black rolls 6-4, t=90 Black's play (40 s); t=95 White doubles (5 s);
    t=155 Black passes (60 s): White wins 1 point, and nobody's time runs until the next roll.
    """
    script.at(0, NewMatch(clocked(3)))
    script.at(30, seen(START_WHITE, dice=(3, 1)))
    script.at(50, seen(G1_AFTER_WHITE))
    script.at(60, seen(G1_AFTER_WHITE, dice=(6, 4)))
    script.at(90, seen(G1_AFTER_BLACK))
    script.at(95, seen(G1_AFTER_BLACK, cube=(2, "middle")))
    script.at(155, seen(G1_AFTER_BLACK, cube=(2, "white")))


def second_game(script: Script, offset: float = 0.0) -> None:
    """Game 2: t=400 opening roll 5-2 for Black (the 245 s between games cost nobody);
    t=410 Black's play (10 s); t=430 White doubles (20 s); t=530 Black takes after 100 s;
    t=545 Black offers to resign a single game at the cube of 2; t=575 White accepts (White's
    time ran from the take at 530: 45 s). White wins 2 points: 3-0, the match."""
    cube_black = (2, "black")
    script.at(400 + offset, seen(START_WHITE, dice=(2, 5)))
    script.at(410 + offset, seen(G2_AFTER_BLACK))
    script.at(430 + offset, seen(G2_AFTER_BLACK, cube=(2, "middle")))
    script.at(530 + offset, seen(G2_AFTER_BLACK, cube=cube_black))
    script.at(545 + offset, Resign(1, 1))
    script.at(575 + offset, ButtonPressed("accept"))


def test_a_whole_match_with_scripted_think_times_ends_with_the_right_times() -> None:
    script = Script()
    first_game(script)
    # White: 360 - (20-12) - 0 = 352.  Black: 360 - (40-12) - (60-12) = 284.
    assert script.remaining(155) == [352.0, 284.0]
    assert script.clock(155)["running"] is None
    assert script.remaining(399) == [352.0, 284.0]  # between games: paused
    second_game(script)
    # White: 352 - (20-12) - (45-12) = 311.  Black: 284 - 0 - (100-12) = 196.
    assert script.remaining(575) == [311.0, 196.0]
    assert script.remaining(10_000) == [311.0, 196.0]  # the match is over: nobody's time runs
    kinds = [event.type for event in script.events]
    assert kinds[-2:] == ["game_won", "match_won"]
    assert script.events[-1].data == {"winner": 0, "score": [3, 0]}
    assert not [kind for kind in kinds if kind.startswith("clock_")]


def test_the_mover_and_the_taker_are_marked_as_running_with_their_delay() -> None:
    script = Script()
    script.at(0, NewMatch(clocked(3)))
    assert script.clock(20)["running"] is None  # before the opening roll
    script.at(30, seen(START_WHITE, dice=(3, 1)))
    view = script.clock(35)
    assert (view["running"], view["delay_left"], view["remaining"]) == (0, 7.0, [360.0, 360.0])
    script.at(50, seen(G1_AFTER_WHITE))
    script.at(60, seen(G1_AFTER_WHITE, dice=(6, 4)))
    # Black's turn began at 50, not at the roll: 20 s used at 70, 8 s past the delay.
    assert script.clock(70)["running"] == 1
    assert script.remaining(70) == [352.0, 352.0]


def test_a_double_answered_slowly_runs_the_takers_time() -> None:
    script = Script()
    first_game(script)
    script.at(400, seen(START_WHITE, dice=(2, 5)))
    script.at(410, seen(G2_AFTER_BLACK))
    script.at(430, seen(G2_AFTER_BLACK, cube=(2, "middle")))
    # White doubled at 430 and Black thinks: Black's time runs, White's stands.
    assert script.clock(500)["running"] == 1
    assert script.remaining(500) == [344.0, 284.0 - (70 - 12)]
    assert script.remaining(529) == [344.0, 284.0 - (99 - 12)]
    script.at(530, seen(G2_AFTER_BLACK, cube=(2, "black")))
    # The take hands the time back to the doubler, with a fresh delay.
    view = script.clock(531)
    assert (view["running"], view["delay_left"]) == (0, 11.0)
    assert view["remaining"] == [344.0, 196.0]


def test_simple_and_bronstein_delay_differ_during_the_turn_not_after_it() -> None:
    views: dict[str, list[list[float]]] = {}
    for kind in ("simple", "bronstein"):
        script = Script()
        script.at(0, NewMatch(clocked(3, delay=kind)))
        script.at(30, seen(START_WHITE, dice=(3, 1)))
        views[kind] = [script.remaining(35), script.remaining(50)]
        script.at(50, seen(G1_AFTER_WHITE))
        views[kind].append(script.remaining(50))
    # simple: the reserve stands for 12 s, then falls; Bronstein: it falls at once and the
    # delay comes back when the turn ends: 360 - 20 + 12 = 352 either way.
    assert views["simple"] == [[360.0, 360.0], [352.0, 360.0], [352.0, 360.0]]
    assert views["bronstein"] == [[355.0, 360.0], [340.0, 360.0], [352.0, 360.0]]


@pytest.mark.parametrize(("kind", "flag_at"), [("simple", 17.0), ("bronstein", 5.0)])
def test_a_short_reserve_flags_when_the_delay_kind_says(kind: str, flag_at: float) -> None:
    """5 s of reserve and a 12 s delay: simple delay flags at 5 + 12 s, Bronstein at 5 s."""
    script = Script()
    script.at(0, NewMatch(clocked(1, reserve="fixed", reserve_seconds=5, delay=kind)))
    script.at(100, seen(START_WHITE, dice=(3, 1)))
    assert not script.at(100 + flag_at - 0.5, Tick(0))
    flags = script.at(100 + flag_at + 0.5, Tick(0))
    assert [event.type for event in flags] == ["clock_flag"]
    assert flags[0].data == {"player": 0, "on_flag": "flag", "at": 100 + flag_at}


def test_a_flag_only_is_recorded_and_play_goes_on() -> None:
    script = Script()
    script.at(0, NewMatch(clocked(3, reserve="fixed", reserve_seconds=30, delay_seconds=12)))
    script.at(10, seen(START_WHITE, dice=(3, 1)))
    assert not script.at(51, Tick(0))  # 41 s used: 30 - (41 - 12) = 1 s left
    flag = script.at(53, Tick(0))  # 43 s: the reserve ran out at 10 + 42 = 52
    assert [(e.type, e.data["player"], e.data["at"]) for e in flag] == [("clock_flag", 0, 52.0)]
    view = script.clock(53)
    assert view["flagged"] == [True, False]
    assert view["remaining"] == [0.0, 30.0]
    assert view["lost_on_time"] is None
    assert not script.at(80, Tick(0))  # flagged once only
    assert [e.type for e in script.at(90, seen(G1_AFTER_WHITE))] == ["play"]
    assert script.clock(100)["running"] == 1
    assert script.remaining(100) == [0.0, 30.0]  # Black: 10 s, inside the delay
    assert script.referee.winner is None


def test_a_loss_on_time_ends_the_match_and_the_export_writes_it_as_a_resignation() -> None:
    settings = replace(clocked(3), clock=ClockSettings(on_flag="lose"))
    script = Script()
    script.at(0, NewMatch(settings))
    script.at(30, seen(START_WHITE, dice=(3, 1)))
    script.at(50, seen(G1_AFTER_WHITE))
    # Black's turn from 50: 360 + 12 s of delay: the reserve runs out at 422.
    assert not script.at(421, Tick(0))
    lost = script.at(423, Tick(0))
    assert [event.type for event in lost] == ["clock_flag", "game_won", "match_won"]
    assert lost[0].data == {"player": 1, "on_flag": "lose", "at": 422.0}
    assert lost[1].data == {"game": 1, "winner": 0, "points": 3, "kind": "time", "score": [3, 0]}
    assert lost[2].data == {"winner": 0, "score": [3, 0]}
    snapshot = script.referee.snapshot()
    assert snapshot["match"]["winner"] == 0
    assert snapshot["match"]["score"] == [3, 0]
    assert snapshot["clock"]["lost_on_time"] == 1
    assert snapshot["clock"]["running"] is None
    # The .mat format has no word for time: the game ends as a resignation does, with the
    # winner's "Wins 3 points" after White's opening play.
    text = export_mat(script.events)
    assert text.splitlines()[-2].strip() == "Wins 3 points"
    assert "31: 8/5 6/5" in text
    assert match_from_events(script.events).games[0].winner == 0


def test_pause_and_resume_charge_nobody_in_between() -> None:
    script = Script()
    script.at(0, NewMatch(clocked(3)))
    script.at(30, seen(START_WHITE, dice=(3, 1)))
    paused = script.at(40, PauseClock(True))  # White used 10 s, inside the delay
    assert [(e.type, e.data) for e in paused] == [("clock_paused", {"by": "director"})]
    assert script.remaining(1000) == [360.0, 360.0]
    assert script.clock(1000)["paused"] is True
    with pytest.raises(RefereeInputError, match="already paused"):
        script.referee.handle(PauseClock(True))
    script.at(1000, PauseClock(False))
    # 2 s of delay were left: 10 s after resuming, 8 s come off the reserve.
    assert script.remaining(1010) == [352.0, 360.0]
    # The pause button toggles, and its events say it was a button.
    assert [e.data for e in script.at(1010, ButtonPressed("pause"))] == [{"by": "button"}]
    assert script.remaining(1500) == [352.0, 360.0]
    assert [e.type for e in script.at(1500, ButtonPressed("pause"))] == ["clock_resumed"]
    assert script.remaining(1501) == [351.0, 360.0]


def test_the_clock_button_ends_the_turn_as_picking_up_the_dice_does() -> None:
    script = Script()
    script.at(0, NewMatch(clocked(3)))
    script.at(30, seen(START_WHITE, dice=(3, 1)))
    assert not script.at(45, seen(G1_AFTER_WHITE, dice=(3, 1)))  # played, dice still down
    assert [e.type for e in script.at(50, ButtonPressed("clock"))] == ["play"]
    assert script.clock(50)["running"] == 1
    assert script.remaining(50) == [352.0, 360.0]


def test_a_match_without_a_clock_records_and_shows_nothing_of_one() -> None:
    script = Script()
    script.at(0, NewMatch(MatchSettings(("Ada", "Boris"), length=3, match_id="plain")))
    script.at(30, seen(START_WHITE, dice=(3, 1)))
    script.at(5000, Tick(0))
    said = script.referee.handle(ButtonPressed("pause"))
    assert not recorded(said)
    assert "clock" not in script.events[0].data
    assert "clock" not in script.referee.snapshot()
    with pytest.raises(RefereeInputError, match="no clock"):
        script.referee.handle(PauseClock(True))


def test_a_power_cut_mid_turn_restores_the_times_from_the_record(tmp_path: Path) -> None:
    """Black is answering White's double when the power goes (t=120); the board comes back at
    t=5000. The record's times say Black's answer began at 95: the outage costs nobody."""
    database = tmp_path / "board.sqlite"
    now = [0.0]
    with Record(database) as log:
        runner = Runner.resume(log, clock=lambda: now[0])
        for time, item in [
            (0, NewMatch(clocked(3))),
            (30, seen(START_WHITE, dice=(3, 1))),
            (50, seen(G1_AFTER_WHITE)),
            (60, seen(G1_AFTER_WHITE, dice=(6, 4))),
            (90, seen(G1_AFTER_BLACK)),
            (95, seen(G1_AFTER_BLACK, cube=(2, "middle"))),
            (120, Tick(0)),
        ]:
            now[0] = time
            runner.feed(item)
        before = runner.referee.snapshot()["clock"]
        del runner  # the power goes: nothing but the file is left
    assert before["remaining"] == [352.0, 332.0 - (25 - 12)]
    now[0] = 5000.0
    with Record(database) as log:
        runner = Runner.resume(log, clock=lambda: now[0])
        restored = runner.referee.snapshot()["clock"]
        # As at the last recorded event (95): Black's answer has used nothing yet.
        assert restored["remaining"] == [352.0, 332.0]
        assert (restored["running"], restored["delay_left"]) == (1, 12.0)
        resumed = log.events("clocked")[-1]
        assert (resumed.type, resumed.data, resumed.time) == (
            "clock_resumed",
            {"by": "restart"},
            5000.0,
        )
        now[0] = 5035.0
        runner.feed(seen(G1_AFTER_BLACK, cube=(2, "white")))  # Black passes 35 s after
        assert runner.referee.snapshot()["clock"]["remaining"] == [352.0, 332.0 - (35 - 12)]
        events = log.events("clocked")
    # Folding the whole record again, at any later time, gives the same times.
    rebuilt = Referee.from_events(events, clock=lambda: 9999.0)
    assert rebuilt.snapshot()["clock"]["remaining"] == [352.0, 309.0]


def test_clock_settings_refuse_nonsense_by_name() -> None:
    with pytest.raises(ClockSettingsError, match="delay 'fischer'"):
        ClockSettings(delay="fischer")
    with pytest.raises(ClockSettingsError, match="reserve_seconds"):
        ClockSettings(reserve_seconds=0)
    with pytest.raises(ClockSettingsError, match="delay_seconds"):
        ClockSettings(delay_seconds=-1)
    with pytest.raises(ClockSettingsError, match="unknown clock setting"):
        ClockSettings.from_data({"increment": 5})
    with pytest.raises(MatchSettingsError, match="on_flag"):
        MatchSettings.from_data({"players": ["A", "B"], "length": 3, "clock": {"on_flag": "cry"}})
    assert ClockSettings(reserve="fixed", reserve_seconds=600).reserve_for(11) == 600.0
    assert ClockSettings().reserve_for(0) == 120.0  # a money session counts as one point


def test_time_never_runs_backwards_on_a_clock_that_jumps() -> None:
    clock = switch(start_clock(ClockSettings(delay_seconds=0), 1, 100.0), 0, 100.0)
    assert clock.remaining(90.0) == (120.0, 120.0)


def test_the_config_clock_section_is_checked_and_reaches_new_matches(tmp_path: Path) -> None:
    from controller.referee.clock import settings_from_config
    from controller.table.config import ConfigError, config_from_dict

    assert settings_from_config(config_from_dict({}).clock) is None  # off by default
    for bad, words in [
        ({"delay": "fischer"}, "[clock] delay is 'fischer'"),
        ({"reserve_seconds": 0}, "[clock] reserve_seconds = 0.0 is out of range"),
        ({"on_flag": "shout"}, "choose one of flag, lose"),
        ({"enabled": "yes"}, "[clock] enabled must be true or false"),
    ]:
        with pytest.raises(ConfigError) as caught:
            config_from_dict({"clock": bad})
        assert words in str(caught.value)
    config = config_from_dict(
        {"clock": {"enabled": True, "reserve": "fixed", "reserve_seconds": 900, "on_flag": "lose"}}
    )
    rules = settings_from_config(config.clock)
    assert rules == ClockSettings(reserve="fixed", reserve_seconds=900.0, on_flag="lose")
    now = [0.0]
    with Record(tmp_path / "board.sqlite") as log:
        runner = Runner.resume(log, clock=lambda: now[0], match_clock=rules)
        runner.new_match({"players": ["Ada", "Boris"], "length": 5, "id": "m"})
        started = log.events("m")[0]
        assert started.data["clock"]["reserve_seconds"] == 900.0
        assert runner.referee.snapshot()["clock"]["remaining"] == [900.0, 900.0]
        runner.pause_clock(True)
        with pytest.raises(RefereeInputError, match="already paused"):
            runner.pause_clock(True)
        assert log.events("m")[-1].data == {"by": "director"}


def test_a_money_session_only_flags_even_when_set_to_lose() -> None:
    script = Script()
    settings = clocked(0, reserve="fixed", reserve_seconds=20, delay_seconds=0, on_flag="lose")
    script.at(0, NewMatch(settings))
    script.at(10, seen(START_WHITE, dice=(3, 1)))
    flagged = script.at(31, Tick(0))
    assert [(e.type, e.data["at"]) for e in flagged] == [("clock_flag", 30.0)]
    assert script.referee.winner is None


def test_the_record_folds_to_the_same_clock_as_the_live_referee_mid_answer() -> None:
    script = Script()
    first_game(script)
    script.at(400, seen(START_WHITE, dice=(2, 5)))
    script.at(410, seen(G2_AFTER_BLACK))
    script.at(430, seen(G2_AFTER_BLACK, cube=(2, "middle")))
    live = script.clock(500)
    resumed = Referee.from_events(script.events, clock=lambda: 500.0)
    assert resumed.state == script.referee.state
    folded = resumed.snapshot()["clock"]
    assert folded == live
    assert live["remaining"] == [344.0, 284.0 - (70 - 12)]
