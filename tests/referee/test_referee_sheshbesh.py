"""Shesh Besh over the board: every roll has one outcome, and the referee follows it."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import replace

from referee_testkit import observe, of_type, run

from controller.referee import Input, MatchSettings, NewMatch, ObservationSeen, Referee, ShowLights
from controller.referee.fold import RefereeState, fold
from controller.referee.variants import sheshbesh_counts
from controller.rules import Dice, Position
from controller.rules.sheshbesh import SheshBeshGame
from sheshbesh.observation import LocationCount

SETTINGS = MatchSettings(("Alice", "Bob"), length=3, variant="sheshbesh", match_id="doublets")


def counts_seen(game: SheshBeshGame, dice: tuple[int, int] | None = None) -> ObservationSeen:
    observation = observe(Position.initial(), dice=dice, counts=sheshbesh_counts(game), cube=None)
    return ObservationSeen(observation)


def whole_game(seed: int) -> tuple[list[Input], SheshBeshGame, int]:
    """Inputs for one game played to the end with random dice; returns the end and the rolls."""
    rng = random.Random(seed)
    game = SheshBeshGame.initial(0)
    inputs: list[Input] = [counts_seen(game)]
    white_die, black_die = rng.sample(range(1, 7), 2)
    first = 0 if white_die > black_die else 1
    game = SheshBeshGame.initial(first)
    inputs.append(counts_seen(game, dice=(white_die, black_die)))
    rolls = 0
    while game.result is None:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        inputs.append(counts_seen(game))  # the dice picked up
        inputs.append(counts_seen(game, dice=dice))
        after = game.play(Dice(*dice)).after
        inputs.append(counts_seen(after, dice=dice))
        inputs.append(counts_seen(after))
        game = after
        rolls += 1
    return inputs, game, rolls


def _follows_the_engine(
    seed: int, seen_as: Callable[[ObservationSeen], ObservationSeen] = lambda seen: seen
) -> None:
    """One game played to the end with random dice, each board shown as ``seen_as`` reports it:
    the referee records every roll as a play, nothing illegal, and the engine's result."""
    inputs, end, rolls = whole_game(seed)
    shown = [seen_as(i) if isinstance(i, ObservationSeen) else i for i in inputs]
    referee = Referee(clock=lambda: 0.0)
    events = run(referee, [NewMatch(SETTINGS), *shown])
    assert len(list(of_type(events, "play"))) == rolls
    assert not list(of_type(events, "illegal_play", "board_mismatch"))
    won = next(of_type(events, "game_won")).data
    assert end.result is not None
    assert (won["winner"], won["points"]) == (end.result.winner, end.result.kind)


def test_whole_sheshbesh_games_follow_the_engine() -> None:
    for seed in (1, 2, 3):
        _follows_the_engine(seed)


def test_doubles_roll_again() -> None:
    game = SheshBeshGame.initial(0)
    referee = Referee(clock=lambda: 0.0)
    run(referee, [NewMatch(SETTINGS), counts_seen(game), counts_seen(game, dice=(5, 2))])
    assert referee.game.phase == "rolling" and referee.game.turn == 0
    after = game.play(Dice(4, 4)).after
    events = run(
        referee,
        [
            counts_seen(game),
            counts_seen(game, dice=(4, 4)),
            counts_seen(after, dice=(4, 4)),
            counts_seen(after),
        ],
    )
    assert [e.type for e in events] == ["dice_rolled", "play"]
    assert referee.game.turn == 0  # White rolls again after doubles


def test_a_wrong_lay_down_is_illegal_until_put_right() -> None:
    game = SheshBeshGame.initial(0)
    referee = Referee(clock=lambda: 0.0)
    run(referee, [NewMatch(SETTINGS), counts_seen(game), counts_seen(game, dice=(5, 2))])
    run(referee, [counts_seen(game), counts_seen(game, dice=(6, 1))])
    wrong = sheshbesh_counts(game)
    wrong["p5"] = (wrong["p5"][0] + 1, 0)  # laid down on 5 instead of 6
    wrong["p1"] = (wrong["p1"][0] + 1, 0)
    events = run(referee, [ObservationSeen(observe(Position.initial(), counts=wrong, cube=None))])
    assert [e.type for e in events] == ["illegal_play"]
    assert "6" in events[0].data["reason"] and "p5" in events[0].data["locations"]
    right = game.play(Dice(6, 1)).after
    events = run(referee, [counts_seen(right)])
    assert [e.type for e in events] == ["play"]
    assert events[0].data["play"] == "6: lay down on 6, 1: lay down on 1"


def test_the_lights_show_the_one_outcome_of_the_roll() -> None:
    game = SheshBeshGame.initial(0)
    referee = Referee(clock=lambda: 0.0)
    run(referee, [NewMatch(SETTINGS), counts_seen(game), counts_seen(game, dice=(5, 2))])
    run(referee, [counts_seen(game)])
    effects = referee.handle(counts_seen(game, dice=(6, 1)))
    scene = next(e for e in effects if isinstance(e, ShowLights)).scene
    assert {name for name, light in scene.lit().items() if light.value == "legal"} == {"p6", "p1"}
    assert referee.snapshot()["dice"] == [6, 1]


def test_folding_the_log_gives_the_state_living_the_game_gave() -> None:
    """After every input of a whole game, a wrong lay-down and its correction included."""
    inputs, _, _ = whole_game(2)
    game = SheshBeshGame.initial(0)
    wrong = sheshbesh_counts(game)
    wrong["p5"] = (wrong["p5"][0] + 1, 0)
    wrong["p1"] = (wrong["p1"][0] + 1, 0)
    staged: list[Input] = [
        counts_seen(game),
        counts_seen(game, dice=(5, 2)),
        counts_seen(game),
        counts_seen(game, dice=(6, 1)),
        ObservationSeen(observe(Position.initial(), counts=wrong, cube=None)),
        counts_seen(game.play(Dice(6, 1)).after),
    ]
    for script in (inputs, staged):
        referee = Referee(clock=lambda: 0.0)
        events = []
        for item in [NewMatch(SETTINGS), *script]:
            events.extend(run(referee, [item]))
            assert functools.reduce(fold, events, RefereeState()) == referee.state
        rebuilt, live = (
            Referee.from_events(events, clock=lambda: 0.0).snapshot(),
            referee.snapshot(),
        )
        for transient in ("message", "lights"):  # what was seen, not recorded
            rebuilt.pop(transient)
            live.pop(transient)
        assert rebuilt == live
    assert [e.type for e in events][-2:] == ["illegal_play", "play"]


def _field_only(seen: ObservationSeen) -> ObservationSeen:
    """``seen`` as a camera that sees only the playing field reports it: each tray is what the
    points do not show of the side's fifteen (stacks hide checkers, so that is not what is off)."""
    observation = seen.observation
    locations = dict(observation.locations)
    for tray, side in (("off-white", 0), ("off-black", 1)):
        shown = sum(
            (count.white, count.black)[side]
            for name, count in locations.items()
            if not name.startswith("off-")
        )
        off = 15 - shown
        locations[tray] = LocationCount(*((off, 0) if side == 0 else (0, off)), 0.5, 0.5)
    extra = {**observation.extra, "off_inferred": True}
    return ObservationSeen(replace(observation, locations=locations, extra=extra))


def test_a_camera_that_sees_only_the_field_follows_whole_games() -> None:
    # the field reader cannot count the trays (standing stacks hide checkers): the referee
    # counts them from the points, each checker gone from a point having been borne off
    for seed in (4, 5):
        _follows_the_engine(seed, _field_only)
