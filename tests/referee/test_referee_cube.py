"""The cube over the board: offer, take, pass, beaver, refusals, Crawford, Jacoby, buttons."""

from __future__ import annotations

from referee_testkit import of_type, run, seen

from controller.events import Event
from controller.referee import ButtonPressed, MatchSettings, NewMatch, Referee, Resign
from controller.rules import Dice, Play, Position

START = Position.initial()
OPENING = START.apply(Play.from_notation("8/5 6/5", START, Dice(3, 1)))
BLACK_ON_ROLL = OPENING.swap()


def types(events: list[Event]) -> list[str]:
    return [event.type for event in events]


def black_on_roll(settings: MatchSettings) -> Referee:
    """White opened 3-1 with 8/5 6/5; Black is on roll and may double."""
    referee = Referee(clock=lambda: 0.0)
    run(
        referee,
        [NewMatch(settings), seen(START, dice=(3, 1)), seen(OPENING, dice=(3, 1)), seen(OPENING)],
    )
    assert referee.game.phase == "rolling" and referee.game.turn == 1
    return referee


def test_offer_then_take_gives_the_taker_the_cube() -> None:
    referee = black_on_roll(MatchSettings(length=7))
    events = run(
        referee,
        [
            seen(BLACK_ON_ROLL, cube=(2, "middle")),
            seen(BLACK_ON_ROLL, cube=(2, "middle")),
            seen(BLACK_ON_ROLL, cube=(2, "white")),
        ],
    )
    assert [(e.type, e.data) for e in events] == [
        ("cube_offered", {"player": 1, "cube": 2}),
        ("cube_taken", {"player": 0, "cube": 2}),
    ]
    cube = referee.snapshot()["cube"]
    assert (cube["value"], cube["owner"], cube["offered_by"]) == (2, 0, None)
    # Black rolls on after the take.
    events = run(referee, [seen(BLACK_ON_ROLL, dice=(6, 5), cube=(2, "white"))])
    assert types(events) == ["dice_rolled"]


def test_the_cube_pushed_back_is_a_pass_and_ends_the_game() -> None:
    referee = black_on_roll(MatchSettings(length=7))
    events = run(
        referee, [seen(BLACK_ON_ROLL, cube=(2, "middle")), seen(BLACK_ON_ROLL, cube=(2, "black"))]
    )
    assert types(events) == ["cube_offered", "cube_passed", "game_won", "game_started"]
    assert events[1].data == {"player": 0, "cube": 1}
    won = events[2].data
    assert (won["winner"], won["points"], won["kind"], won["score"]) == (1, 1, "pass", [0, 1])


def test_beaver_in_money_play_with_beavers_on() -> None:
    referee = black_on_roll(MatchSettings(length=0, beavers=True))
    events = run(
        referee, [seen(BLACK_ON_ROLL, cube=(2, "middle")), seen(BLACK_ON_ROLL, cube=(4, "white"))]
    )
    assert [(e.type, e.data) for e in events] == [
        ("cube_offered", {"player": 1, "cube": 2}),
        ("cube_beavered", {"player": 0, "cube": 4}),
    ]
    assert (referee.game.cube, referee.game.cube_owner, referee.game.turn) == (4, 0, 1)


def test_beaver_refused_in_match_play() -> None:
    referee = black_on_roll(MatchSettings(length=7))
    events = run(referee, [seen(BLACK_ON_ROLL, cube=(2, "middle")), ButtonPressed("double")])
    assert types(events) == ["cube_offered", "cube_refused"]
    assert events[1].data["action"] == "beaver"
    assert "money" in events[1].data["reason"]
    assert referee.game.phase == "cube_offered"


def test_only_the_owner_may_redouble_and_a_refusal_is_recorded_once() -> None:
    referee = black_on_roll(MatchSettings(length=7))
    run(referee, [ButtonPressed("double"), ButtonPressed("take")])  # White owns the 2-cube
    after = BLACK_ON_ROLL.apply(Play.from_notation("24/18 13/8", BLACK_ON_ROLL, Dice(6, 5)))
    run(
        referee,
        [
            seen(BLACK_ON_ROLL, dice=(6, 5), cube=(2, "white")),
            seen(after, dice=(6, 5), cube=(2, "white")),
            seen(after, cube=(2, "white")),
        ],
    )
    assert referee.game.turn == 0
    # White redoubles to 4: allowed (White owns the cube); then Black may not redouble to 8.
    white_on_roll = after.swap()
    events = run(
        referee, [seen(white_on_roll, cube=(4, "middle")), seen(white_on_roll, cube=(4, "black"))]
    )
    assert types(events) == ["cube_offered", "cube_taken"]
    white_moves = white_on_roll.apply(Play.from_notation("13/11 6/5", white_on_roll, Dice(2, 1)))
    run(
        referee,
        [
            seen(white_on_roll, dice=(2, 1), cube=(4, "black")),
            seen(white_moves, dice=(2, 1), cube=(4, "black")),
            seen(white_moves, cube=(4, "black")),
        ],
    )
    black_again = white_moves.swap()
    assert referee.game.cube_owner == 1 and referee.game.turn == 1
    # Now it is Black's turn: a White push of the cube is not White's to make.
    events = run(referee, [ButtonPressed("take")])
    assert types(events) == []
    events = run(referee, [seen(black_again, cube=(8, "middle"))] * 3)
    assert types(events) == ["cube_offered"]


def test_double_refused_outside_the_player_on_roll_turn() -> None:
    referee = black_on_roll(MatchSettings(length=7))
    run(referee, [ButtonPressed("double"), ButtonPressed("take")])  # White owns the cube now
    events = run(referee, [seen(BLACK_ON_ROLL, cube=(4, "middle"))] * 3)
    assert types(events) == ["cube_refused"]
    assert events[0].data["player"] == 1 and "White owns the cube" in events[0].data["reason"]


def _win_game(referee: Referee, loser: int, level: int) -> list[Event]:
    """End the game in progress by ``loser`` resigning ``level`` (accepted)."""
    return run(referee, [Resign(loser, level), ButtonPressed("accept")])


def test_crawford_game_forbids_doubling_and_post_crawford_allows_it() -> None:
    referee = black_on_roll(MatchSettings(length=3))
    events = _win_game(referee, loser=1, level=2)  # White 2, one short of 3
    started = next(of_type(events, "game_started")).data
    assert started == {"game": 2, "score": [2, 0], "crawford_game": True}
    snapshot = referee.snapshot()["match"]
    assert snapshot["crawford_game"] and not snapshot["post_crawford"]
    run(referee, [seen(START, dice=(3, 1)), seen(OPENING, dice=(3, 1)), seen(OPENING)])
    events = run(referee, [seen(BLACK_ON_ROLL, cube=(2, "middle"))])
    assert types(events) == ["cube_refused"]
    assert "Crawford" in events[0].data["reason"]
    events = _win_game(referee, loser=0, level=1)  # Black 1: 2-1, post-Crawford
    assert next(of_type(events, "game_started")).data["crawford_game"] is False
    assert referee.snapshot()["match"]["post_crawford"] is True
    run(referee, [seen(START, dice=(3, 1)), seen(OPENING, dice=(3, 1)), seen(OPENING)])
    events = run(referee, [seen(BLACK_ON_ROLL, cube=(2, "middle"))])
    assert types(events) == ["cube_offered"]
    events = run(referee, [ButtonPressed("pass")])
    assert types(events) == ["cube_passed", "game_won", "game_started"]
    assert events[1].data["score"] == [2, 2] and events[2].data["crawford_game"] is False


def test_jacoby_counts_gammons_single_until_the_cube_is_turned() -> None:
    referee = black_on_roll(MatchSettings(length=0))
    events = _win_game(referee, loser=1, level=2)
    assert next(of_type(events, "game_won")).data["points"] == 1
    referee = black_on_roll(MatchSettings(length=0))
    run(referee, [ButtonPressed("double"), ButtonPressed("take")])
    events = _win_game(referee, loser=1, level=2)
    assert next(of_type(events, "game_won")).data["points"] == 4


def test_buttons_are_the_fallback_for_double_take_and_pass() -> None:
    referee = black_on_roll(MatchSettings(length=5))
    events = run(referee, [ButtonPressed("double"), ButtonPressed("pass")])
    assert types(events) == ["cube_offered", "cube_passed", "game_won", "game_started"]
    assert next(of_type(events, "game_won")).data["winner"] == 1
