"""Cube and match rules as tables: who may double, take, pass, beaver; scoring; Crawford; money."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from controller.rules import (
    CubeActionError,
    Dice,
    Game,
    GameStateError,
    IllegalPlayError,
    MatchState,
    MoneySession,
    Play,
    Position,
    Resignation,
    Step,
    beaver,
    dead_cube_warning,
    finish_game,
    game_points,
    game_result,
    judge_beaver,
    judge_double,
    judge_pass,
    judge_redouble,
    judge_take,
    legal_plays,
    match_winner,
    offer_double,
    opening_roll,
    pass_double,
    roll_off,
    score_game,
    take,
)

MONEY = MatchState.new_money()
MATCH7 = MatchState.new_match(7)
CRAWFORD = replace(MatchState.new_match(5), score=(4, 2), is_crawford_game=True, crawford_done=True)
POST_CRAWFORD = replace(MatchState.new_match(5), score=(4, 2), crawford_done=True)

DOUBLE_CASES = [
    # (state, player, player on roll, has rolled, allowed, reason)
    (MONEY, 0, 0, False, True, ""),
    (
        MONEY,
        1,
        0,
        False,
        False,
        "only the player on roll may double, before rolling: it is White's turn",
    ),
    (MONEY, 0, 0, True, False, "doubling after rolling is not allowed"),
    (replace(MONEY, cube_value=2, cube_owner=1), 0, 0, False, False, "Black owns the cube"),
    (replace(MONEY, cube_value=2, cube_owner=0), 0, 0, False, True, ""),
    (replace(MONEY, offered_by=1), 1, 1, False, False, "Black's double awaits an answer"),
    (CRAWFORD, 0, 0, False, False, "the Crawford game: no doubling"),
    (CRAWFORD, 1, 1, False, False, "the Crawford game: no doubling"),
    (POST_CRAWFORD, 1, 1, False, True, ""),
    (replace(MATCH7, score=(7, 3)), 0, 0, False, False, "the match is over"),
    (replace(MONEY, game_over=True), 0, 0, False, False, "the game is over"),
]


@pytest.mark.parametrize(
    ("state", "player", "on_roll", "rolled", "allowed", "reason"), DOUBLE_CASES
)
def test_judge_double(
    state: MatchState, player: int, on_roll: int, rolled: bool, allowed: bool, reason: str
) -> None:
    verdict = judge_double(state, player, player_on_roll=on_roll, has_rolled=rolled)
    assert verdict.allowed is allowed
    assert verdict.reason == reason
    assert bool(verdict) is allowed


def test_redouble_is_for_the_owner_only() -> None:
    centred = judge_redouble(MONEY, 0, player_on_roll=0)
    assert not centred and "first double" in centred.reason
    owned = replace(MONEY, cube_value=2, cube_owner=1)
    assert judge_redouble(owned, 1, player_on_roll=1).allowed
    assert judge_redouble(owned, 0, player_on_roll=0).reason == "Black owns the cube"


ANSWER_CASES = [
    # (judge, state, player, allowed, reason)
    (judge_take, replace(MONEY, offered_by=0), 1, True, ""),
    (judge_take, replace(MONEY, offered_by=0), 0, False, "White offered the double and cannot take it"),
    (judge_take, MONEY, 1, False, "there is no double to take"),
    (judge_pass, replace(MONEY, offered_by=1), 0, True, ""),
    (judge_pass, MONEY, 0, False, "there is no double to pass"),
    (judge_beaver, replace(MONEY, offered_by=0), 1, False, "beavers are not agreed in this session"),
    (judge_beaver, replace(MatchState.new_money(beavers=True), offered_by=0), 1, True, ""),
    (judge_beaver, replace(MATCH7, offered_by=0), 1, False, "beavers are for money play only"),
    (judge_beaver, replace(MatchState.new_money(beavers=True), offered_by=0), 0, False,
     "White offered the double and cannot beaver it"),
]  # fmt: skip


@pytest.mark.parametrize(("judge", "state", "player", "allowed", "reason"), ANSWER_CASES)
def test_judge_answers(
    judge: object, state: MatchState, player: int, allowed: bool, reason: str
) -> None:
    verdict = judge(state, player)  # type: ignore[operator]
    assert verdict.allowed is allowed
    assert verdict.reason == reason


def test_take_gives_the_taker_the_cube_and_only_the_taker_redoubles() -> None:
    state = offer_double(MONEY, 0, player_on_roll=0)
    state = take(state, 1)
    assert (state.cube_value, state.cube_owner, state.offered_by) == (2, 1, None)
    with pytest.raises(CubeActionError, match="White may not double: Black owns the cube"):
        offer_double(state, 0, player_on_roll=0)
    state = take(offer_double(state, 1, player_on_roll=1), 0)
    assert (state.cube_value, state.cube_owner) == (4, 0)


def test_pass_ends_the_game_at_the_stake_before_the_double() -> None:
    state = take(offer_double(MATCH7, 0, player_on_roll=0), 1)  # 2-cube, Black owns
    state = offer_double(state, 1, player_on_roll=1)  # Black redoubles to 4
    after, winner, points = pass_double(state, 0)
    assert (winner, points) == (1, 2)
    assert after.score == (0, 2)
    assert (after.cube_value, after.cube_owner, after.game_number) == (1, None, 2)


def test_beaver_keeps_the_cube_with_the_beaverer() -> None:
    session = MatchState.new_money(beavers=True)
    state = beaver(offer_double(session, 0, player_on_roll=0), 1)
    assert (state.cube_value, state.cube_owner) == (4, 1)
    with pytest.raises(CubeActionError, match="beavers are not agreed"):
        beaver(offer_double(MONEY, 0, player_on_roll=0), 1)


SCORING = [
    # (state, kind, points)
    (MONEY, 1, 1),
    (MONEY, 2, 1),  # Jacoby: cube not turned
    (MONEY, 3, 1),
    (replace(MONEY, cube_value=2, cube_owner=1), 2, 4),
    (replace(MONEY, cube_value=4, cube_owner=0), 3, 12),
    (MatchState.new_money(jacoby=False), 2, 2),
    (MATCH7, 2, 2),  # no Jacoby in match play
    (replace(MATCH7, cube_value=2, cube_owner=0), 3, 6),
]


@pytest.mark.parametrize(("state", "kind", "points"), SCORING)
def test_game_points(state: MatchState, kind: int, points: int) -> None:
    assert game_points(state, kind) == points


def test_game_points_rejects_unknown_kinds() -> None:
    with pytest.raises(GameStateError, match="1 \\(single\\)"):
        game_points(MONEY, 4)


def test_crawford_and_post_crawford_transitions() -> None:
    state = MatchState.new_match(5)
    state = finish_game(state, 0, 2)  # 2-0
    assert not state.is_crawford_game
    state = finish_game(state, 0, 2)  # 4-0: White at match point -> Crawford game
    assert state.is_crawford_game and state.crawford_done
    assert judge_double(state, 1, player_on_roll=1).reason == "the Crawford game: no doubling"
    state = finish_game(state, 1, 1)  # 4-1: post-Crawford
    assert not state.is_crawford_game and state.is_post_crawford
    assert judge_double(state, 1, player_on_roll=1).allowed
    state = finish_game(state, 1, 3)  # 4-4: no second Crawford game
    assert not state.is_crawford_game
    state = finish_game(state, 1, 1)
    assert match_winner(state) == 1 and state.winner == 1
    with pytest.raises(GameStateError, match="already over"):
        finish_game(state, 0, 1)


def test_crawford_rule_off_allows_doubling_at_match_point() -> None:
    state = finish_game(MatchState.new_match(5, crawford=False), 0, 4)
    assert not state.is_crawford_game
    assert judge_double(state, 1, player_on_roll=1).allowed


def test_reaching_match_point_by_jumping_past_it_is_not_crawford() -> None:
    state = finish_game(MatchState.new_match(3), 0, 4)
    assert state.winner == 0 and not state.is_crawford_game


DEAD_CUBE = [
    # (state, doubling player, warning or None)
    (replace(MATCH7, score=(5, 0), cube_value=2, cube_owner=0), 0, "dead cube: the 2-cube already gives White the 2 points needed"),
    (replace(MATCH7, score=(6, 0), crawford_done=True), 0, "dead cube: the 1-cube already gives White the 1 point needed"),
    (replace(MATCH7, score=(0, 6), crawford_done=True), 0, None),  # the trailer's double is proper
    (replace(MATCH7, score=(2, 2), cube_value=2, cube_owner=1), 1, None),
    (MONEY, 0, None),
]  # fmt: skip


@pytest.mark.parametrize(("state", "player", "warning"), DEAD_CUBE)
def test_dead_cube_warning(state: MatchState, player: int, warning: str | None) -> None:
    assert dead_cube_warning(state, player) == warning


def test_dead_cube_doubles_are_allowed_with_a_warning() -> None:
    state = replace(MATCH7, score=(5, 0), cube_value=2, cube_owner=0)
    verdict = judge_double(state, 0, player_on_roll=0)
    assert verdict.allowed and verdict.warning.startswith("dead cube")


def test_money_session_running_total() -> None:
    session = MoneySession()
    for winner, points in [(0, 1), (1, 4), (0, 2), (0, 8)]:
        session = session.record(winner, points)
    assert session.totals == (11, 4) and session.balance == 7 and session.games == 4
    with pytest.raises(GameStateError):
        session.record(2, 1)


def side(**points: int) -> list[int]:
    counts = [0] * 25
    for name, count in points.items():
        counts[24 if name == "bar" else int(name[1:]) - 1] = count
    return counts


RESULTS = [
    # (white side, black side, winner, kind)
    (side(), side(p6=1), 0, 1),
    (side(), side(p6=15), 0, 2),
    (side(), side(p20=1, p6=14), 0, 3),  # Black's 20 is White's 5: in White's home board
    (side(), side(bar=1, p6=14), 0, 3),
    (side(p1=1), side(), 1, 1),
    (side(p12=15), side(), 1, 2),
    (side(p19=2, p1=13), side(), 1, 3),
]


@pytest.mark.parametrize(("white", "black", "winner", "kind"), RESULTS)
def test_game_results(white: list[int], black: list[int], winner: int, kind: int) -> None:
    for turn in (0, 1):
        result = game_result(Position.from_players(white, black, turn))
        assert result is not None
        assert (result.winner, result.kind) == (winner, kind)


def test_game_goes_on_until_all_fifteen_are_off() -> None:
    assert game_result(Position.initial()) is None
    with pytest.raises(GameStateError, match="not over"):
        score_game(MATCH7, Position.initial())


def test_score_game_applies_the_cube() -> None:
    state = replace(MATCH7, cube_value=2, cube_owner=1)
    after, result, points = score_game(state, Position.from_players(side(), side(p6=15), 1))
    assert result.kind_name == "gammon" and points == 4 and after.score == (4, 0)


def test_roll_off_and_opening_roll() -> None:
    assert roll_off(6, 1) == 0 and roll_off(2, 3) == 1 and roll_off(4, 4) is None
    assert opening_roll(3, 5) == (1, opening_roll(5, 3)[1])  # type: ignore[index]
    first, dice = opening_roll(2, 6)  # type: ignore[misc]
    assert first == 1 and (dice.first, dice.second) == (6, 2)
    assert opening_roll(3, 3) is None
    with pytest.raises(GameStateError):
        roll_off(0, 3)


def test_resignations() -> None:
    offer = Resignation(player=1, kind=2)
    assert offer.describe() == "Black resigns a gammon"
    after, winner, points = offer.accept(MatchState.new_money(jacoby=False))
    assert (winner, points, after.score) == (0, 2, (2, 0))
    # Jacoby: with the cube not turned a resigned gammon is worth a single game.
    assert Resignation(1, 2).points(MONEY) == 1
    assert Resignation(0, 3).points(replace(MATCH7, cube_value=4, cube_owner=1)) == 12
    with pytest.raises(GameStateError):
        Resignation(0, 4)


def test_a_whole_game_turn_by_turn_to_a_result() -> None:
    assert Game.start(4, 4) is None  # a tie: both roll again
    game = Game.start(2, 5)
    assert game is not None and game.player_on_roll == 1 and game.dice == Dice(5, 2)
    with pytest.raises(GameStateError, match="still to play"):
        game.roll("11")
    with pytest.raises(IllegalPlayError, match="both dice could be played"):
        game.play(Play((Step(13, 8),)))
    with pytest.raises(IllegalPlayError, match="no checker was moved"):
        game.play(Play(()))
    with pytest.raises(IllegalPlayError, match="cannot be made: 13/12: point 12 is blocked"):
        game.play(Play((Step(13, 12), Step(13, 8))))
    rng = random.Random(9)
    while game.result is None:
        if game.dice is None:
            game = game.roll(Dice(rng.randint(1, 6), rng.randint(1, 6)))
        plays = legal_plays(game.position, game.dice)
        chosen = sorted(plays)[rng.randrange(len(plays))]
        game = game.play(plays[chosen][0])
        assert game.turns < 1000
    result = game.result
    assert result is not None and game.position.off(result.winner) == 15
    with pytest.raises(GameStateError, match="game is over"):
        game.roll("31")


def test_game_resignation_offered_refused_then_accepted() -> None:
    game = Game.start(6, 1)
    assert game is not None
    offered = game.offer_resignation(1, 2)
    with pytest.raises(GameStateError, match="Black resigns a gammon, awaiting an answer"):
        offered.roll("31")
    assert offered.refuse_resignation() == game
    assert offered.accept_resignation() == (0, 2)
    with pytest.raises(GameStateError, match="no resignation"):
        game.accept_resignation()
