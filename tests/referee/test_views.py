"""The referee's views (panel snapshot, lights, message line) are functions of the folded state."""

from __future__ import annotations

import functools

from referee_testkit import load_match, match_inputs, match_paths, run, seen

from controller.lights.scene import Light, turn_scene
from controller.referee import Input, MatchSettings, NewMatch, Referee
from controller.referee.fold import RefereeState, fold
from controller.referee.turn import TurnPlays
from controller.referee.views import message, scene, shown_message, snapshot
from controller.rules import Position


def _no_plays() -> TurnPlays:
    raise AssertionError("the legal plays were asked for where no hint is shown")


def _plays(state: RefereeState) -> TurnPlays:
    assert state.game.dice is not None
    return TurnPlays(state.game.position, state.game.dice)


def test_the_panel_and_lights_are_built_from_the_log_alone() -> None:
    """From the events only, the views give what a referee rebuilt from the same events shows."""
    paths = match_paths()
    start: list[Input] = [NewMatch(MatchSettings(length=3, match_id="views"))]
    inputs = match_inputs(load_match(paths[0].name))[:60] if paths else start
    referee = Referee(clock=lambda: 0.0)
    events = run(referee, inputs)
    state = functools.reduce(fold, events, RefereeState())
    rebuilt = Referee.from_events(events, clock=lambda: 0.0)
    lights = scene(state, None, None, lambda: _plays(state))
    assert lights == rebuilt.scene()
    assert snapshot(state, None, lights, None) == rebuilt.snapshot()
    assert state.game.moves, "the views were checked before any play"
    # Calling a view twice gives the same picture and leaves the state as it was.
    assert snapshot(state, None, lights, None) == snapshot(state, None, lights, None)
    assert state == functools.reduce(fold, events, RefereeState())


def test_the_message_line_falls_back_on_what_the_state_says_is_wrong() -> None:
    referee = Referee(clock=lambda: 0.0)
    start = Position.initial()
    illegal = Position.from_players(
        [0] * 4 + [1, 5] + [0, 3] + [0] * 4 + [5] + [0] * 10 + [1, 0], start.side(1), 0
    )
    run(
        referee,
        [
            NewMatch(MatchSettings(length=3, match_id="views")),
            seen(start, dice=(4, 2)),
            seen(illegal, dice=None),
        ],
    )
    state = referee.state
    assert state.game.phase == "illegal" and state.game.illegal is not None
    said = message("info", "something else")
    assert shown_message(state, said) is said
    assert shown_message(state, None) == message(
        "illegal", state.game.illegal.reason, state.game.illegal.locations
    )
    lit = scene(state, None, None, _no_plays).lit()
    assert set(lit) == set(state.game.illegal.locations)
    assert set(lit.values()) == {Light.ILLEGAL}


def test_without_hints_the_lights_show_only_whose_turn_it_is() -> None:
    referee = Referee(clock=lambda: 0.0)
    run(
        referee,
        [
            NewMatch(MatchSettings(length=3, hints=False, match_id="views")),
            seen(Position.initial(), dice=(4, 2)),
        ],
    )
    state = referee.state
    assert state.game.phase == "moving"
    assert scene(state, None, None, _no_plays) == turn_scene(state.game.turn)
