"""Arabic Shesh Besh: setup, laying down, wasted numbers, doubles, bearing off, win and gammon."""

from __future__ import annotations

import random

import pytest

from controller.rules import Dice, GameStateError, SheshBeshGame, SheshBeshSide


def kinds(turn: object) -> list[str]:
    return [str(action) for action in turn.actions]  # type: ignore[attr-defined]


def test_setup() -> None:
    game = SheshBeshGame.initial(first_player=1)
    for side in game.sides:
        assert side.counts() == (2, 2, 2, 3, 3, 3)
        assert side.visible() == (1, 1, 1, 1, 1, 1)  # a standing stack looks like one checker
        assert side.off == 0 and not side.is_laying_done
        assert sum(side.to_lay) == 9
    assert game.player_on_roll == 1
    position = game.to_position()
    assert position.turn == 1 and sum(position.mover) == 15 and sum(position.opponent) == 15
    assert game.visible_position().mover[:6] == (1, 1, 1, 1, 1, 1)


def test_laying_down_and_wasted_numbers() -> None:
    game = SheshBeshGame.initial(first_player=0)
    turn = game.play("62")
    assert kinds(turn) == ["6: lay down on 6", "2: lay down on 2"]
    assert not turn.rolls_again and turn.after.player_on_roll == 1
    white = turn.after.sides[0]
    assert white.to_lay == (1, 0, 1, 2, 2, 1) and white.down == (1, 2, 1, 1, 1, 2)
    game = SheshBeshGame((white, turn.after.sides[1]), 0)
    turn = game.play("22")  # point 2 has nothing left to lay: all four wasted, then roll again
    assert kinds(turn) == ["2: wasted"] * 4
    assert turn.rolls_again and turn.after.player_on_roll == 0


def test_doubles_play_four_times_and_roll_again() -> None:
    turn = SheshBeshGame.initial(0).play(Dice(5, 5))
    assert kinds(turn) == ["5: lay down on 5", "5: lay down on 5", "5: wasted", "5: wasted"]
    assert turn.rolls_again and turn.after.player_on_roll == 0


def test_leftover_numbers_are_wasted_on_the_turn_laying_down_completes() -> None:
    side = SheshBeshSide(to_lay=(0, 0, 1, 0, 0, 0), down=(2, 2, 1, 3, 3, 3))
    game = SheshBeshGame((side, SheshBeshSide()), 0)
    turn = game.play("33")
    assert kinds(turn) == ["3: lay down on 3", "3: wasted", "3: wasted", "3: wasted"]
    assert turn.after.sides[0].is_laying_done
    turn = turn.after.play("31")  # now bearing off
    assert kinds(turn) == ["3: bear off on 3", "1: bear off on 1"]
    assert turn.after.sides[0].off == 2


def test_bearing_off_wastes_numbers_with_no_checker_on_their_point() -> None:
    side = SheshBeshSide(to_lay=(0,) * 6, down=(0, 0, 0, 0, 0, 2))
    turn = SheshBeshGame((side, SheshBeshSide()), 0).play("64")
    assert kinds(turn) == ["6: bear off on 6", "4: wasted"]


def test_win_single_and_gammon() -> None:
    almost = SheshBeshSide(to_lay=(0,) * 6, down=(0, 0, 0, 0, 0, 1))
    laid = SheshBeshSide(to_lay=(0,) * 6, down=(2, 2, 2, 3, 3, 3))
    single = SheshBeshGame((almost, laid), 0).play("61")
    assert single.after.result == (0, 1)
    assert not single.rolls_again
    gammon = SheshBeshGame((laid, almost), 1).play("66")
    assert gammon.after.result == (1, 1)
    gammon = SheshBeshGame((SheshBeshSide(), almost), 1).play("62")
    assert gammon.after.result == (1, 2)  # White had not finished laying down
    assert not gammon.rolls_again
    with pytest.raises(GameStateError, match="game is over"):
        gammon.after.play("11")


def test_a_whole_game_from_setup_to_a_win() -> None:
    rng = random.Random(17)
    first = None
    while first is None:
        first = SheshBeshGame.roll_off(rng.randint(1, 6), rng.randint(1, 6))
    game = SheshBeshGame.initial(first)
    turns = 0
    while game.result is None:
        player = game.player_on_roll
        before = game.sides[player]
        turn = game.play(Dice(rng.randint(1, 6), rng.randint(1, 6)))
        after = turn.after.sides[player]
        assert after.off >= before.off and sum(after.to_lay) <= sum(before.to_lay)
        assert turn.after.sides[1 - player] == game.sides[1 - player]
        for action in turn.actions:
            assert action.kind in ("lay down", "bear off", "wasted")
            if action.kind == "bear off":
                assert before.is_laying_done  # never on the turn laying down completes
        game = turn.after
        turns += 1
        assert turns < 500
    winner, kind = game.result
    assert game.sides[winner].off == 15
    assert kind == (1 if game.sides[1 - winner].is_laying_done else 2)


def test_bad_sides_are_refused() -> None:
    with pytest.raises(GameStateError):
        SheshBeshSide(to_lay=(9,) * 6)
    with pytest.raises(GameStateError):
        SheshBeshGame.initial(first_player=2)


def test_english_doublets_play_a_double_as_many_times_as_the_dice_add_up_to() -> None:
    laid = SheshBeshSide(to_lay=(0,) * 6, down=(2, 2, 5, 3, 3, 0))
    turn = SheshBeshGame((laid, SheshBeshSide()), 0, rules="english").play("33")
    assert kinds(turn) == ["3: bear off on 3"] * 5 + ["3: wasted"]
    assert turn.rolls_again and turn.after.rules == "english"


def test_french_doubles_are_two_numbers_and_another_roll() -> None:
    turn = SheshBeshGame.initial(0, rules="french").play("44")
    assert kinds(turn) == ["4: lay down on 4", "4: lay down on 4"]
    assert turn.rolls_again and turn.after.player_on_roll == 0


def test_old_english_gives_unusable_numbers_to_the_opponent() -> None:
    white = SheshBeshSide(to_lay=(1, 0, 1, 2, 2, 2), down=(1, 2, 1, 1, 1, 1))  # nothing left on 2
    turn = SheshBeshGame((white, SheshBeshSide()), 0, rules="old-english").play("21")
    assert kinds(turn) == ["2: lay down on 2 for the opponent", "1: lay down on 1"]
    assert turn.after.sides[1].to_lay == (1, 0, 1, 2, 2, 2)
    assert turn.after.sides[0].to_lay == (0, 0, 1, 2, 2, 2)
    # Under the Arabic rules the same 2 is simply wasted.
    arabic = SheshBeshGame((white, SheshBeshSide()), 0).play("21")
    assert kinds(arabic) == ["2: wasted", "1: lay down on 1"]


def test_unknown_rules_are_named() -> None:
    with pytest.raises(GameStateError, match="unknown Shesh Besh rules 'dutch'"):
        SheshBeshGame.initial(0, rules="dutch")  # type: ignore[arg-type]


@pytest.mark.parametrize("rules", ["arabic", "english", "french", "old-english"])
def test_every_rule_set_plays_a_game_to_the_end(rules: str) -> None:
    rng = random.Random(5)
    game = SheshBeshGame.initial(0, rules=rules)  # type: ignore[arg-type]
    for _ in range(1000):
        if game.result is not None:
            break
        before = sum(side.off for side in game.sides) + sum(sum(side.down) for side in game.sides)
        game = game.play(Dice(rng.randint(1, 6), rng.randint(1, 6))).after
        for side in game.sides:
            assert sum(side.to_lay) + sum(side.down) + side.off == 15
        assert sum(side.off for side in game.sides) + sum(sum(s.down) for s in game.sides) >= before
    assert game.result is not None
