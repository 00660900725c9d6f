"""The variants' rules behind one protocol: chosen once from the settings, answering the referee's
questions as the rules engine does."""

from __future__ import annotations

from dataclasses import replace

import pytest
from referee_testkit import run, seen

from controller.referee import MatchSettings, NewMatch, Referee
from controller.referee.judge import explain_illegal_play
from controller.referee.state import GameState
from controller.referee.turn import TurnPlays, board_of
from controller.referee.variants import (
    BACKGAMMON,
    SHESHBESH,
    VARIANTS,
    Backgammon,
    RefereeVariant,
    SheshBesh,
    sheshbesh_counts,
    variant_rules,
)
from controller.rules import Dice, Position
from controller.rules.match import MatchState
from controller.rules.sheshbesh import SheshBeshGame
from sheshbesh.events import Play
from sheshbesh.match import VARIANTS as VARIANT_WORDS


def test_every_variant_word_has_its_rules_and_the_match_chooses_them_once() -> None:
    assert set(VARIANTS) == set(VARIANT_WORDS)
    for word in VARIANT_WORDS:
        rules: RefereeVariant = variant_rules(word)
        assert rules.name == word
        referee = Referee(clock=lambda: 0.0)
        run(referee, [NewMatch(MatchSettings(length=3, variant=word, match_id="v"))])
        assert referee.state.rules is rules
    assert Referee(clock=lambda: 0.0).state.rules is BACKGAMMON  # before any match


def test_what_each_variant_leaves_out() -> None:
    assert (BACKGAMMON.uses_cube, BACKGAMMON.follows_policy, BACKGAMMON.one_outcome) == (
        True,
        True,
        False,
    )
    assert (SHESHBESH.uses_cube, SHESHBESH.follows_policy, SHESHBESH.one_outcome) == (
        False,
        False,
        True,
    )


def test_the_roll_off_winner_plays_backgammon_at_once_and_rolls_again_in_sheshbesh() -> None:
    game = GameState(number=1, phase="roll_off")
    standard = BACKGAMMON.after_roll_off(game, 1, (2, 5))
    assert (standard.phase, standard.dice, standard.turn) == ("moving", (5, 2), 1)
    assert standard.position == Position.initial(turn=1) and standard.sheshbesh is None
    laid = SHESHBESH.after_roll_off(game, 1, (2, 5))
    assert (laid.phase, laid.dice, laid.stale_dice) == ("rolling", None, (2, 5))
    assert laid.sheshbesh == SheshBeshGame.initial(1)
    assert laid.position == SheshBeshGame.initial(1).to_position()


def test_sheshbesh_has_the_engines_one_outcome_and_applies_it_as_recorded() -> None:
    start = SheshBeshGame.initial(0)
    game = replace(SHESHBESH.after_roll_off(GameState(), 0, (5, 2)), phase="moving", dice=(6, 1))
    outcome = SHESHBESH.outcome(game)
    turn = start.play(Dice(6, 1))
    assert outcome is not None
    assert outcome.counts == sheshbesh_counts(turn.after)
    assert outcome.notation == "6: lay down on 6, 1: lay down on 1"
    assert (outcome.moved_from, outcome.moved_to) == ([], ["p1", "p6"])
    assert outcome.position_id == start.to_position().to_position_id()
    assert not outcome.rolls_again
    assert BACKGAMMON.outcome(game) is None  # a choice of plays: the turn's plays judge them
    recorded = Play(0, (6, 1), outcome.notation)
    assert SHESHBESH.after_play(game, recorded).sheshbesh == turn.after
    assert SHESHBESH.visible(game) == sheshbesh_counts(start)


def test_a_backgammon_play_is_applied_from_its_result_id_and_refused_without_one() -> None:
    start = Position.initial(turn=0)
    result = TurnPlays(start, (3, 1)).legal
    after = next(iter(result))
    game = GameState(number=1, position=start, phase="moving", dice=(3, 1))
    play = Play(0, (3, 1), "8/5 6/5", result_id=after.to_position_id())
    assert BACKGAMMON.after_play(game, play).position == after.swap()
    with pytest.raises(ValueError, match="result_id"):
        BACKGAMMON.after_play(game, Play(0, (3, 1), "8/5 6/5"))
    # Before its roll-off a Shesh Besh game is played by the standard rules (as python-chess's
    # variants fall back on the standard board).
    assert SHESHBESH.after_play(game, play).position == after.swap()


def test_illegal_plays_are_explained_by_each_variants_rules() -> None:
    start = Position.initial(turn=0)
    game = GameState(number=1, position=start, phase="moving", dice=(4, 2))
    moved = Position.from_players(
        [0] * 4 + [1, 5] + [0, 3] + [0] * 4 + [5] + [0] * 10 + [1, 0], start.side(1), 0
    )
    seen_counts = board_of(moved).counts()
    assert BACKGAMMON.explain_illegal(game, seen_counts) == explain_illegal_play(
        start, (4, 2), moved
    )
    laid = replace(SHESHBESH.after_roll_off(GameState(), 0, (5, 2)), phase="moving", dice=(6, 1))
    wrong = sheshbesh_counts(SheshBeshGame.initial(0))
    wrong["p5"] = (wrong["p5"][0] + 1, 0)
    reason, locations = SHESHBESH.explain_illegal(laid, wrong)
    assert reason == (
        "With 6-1 White must lay down a checker on point 6 and lay down a checker on point 1"
    )
    assert locations == ["p1", "p5", "p6"]


def test_the_end_of_a_game_by_each_variants_rules() -> None:
    match = MatchState(length=3)
    assert BACKGAMMON.result(GameState(), match) is None
    done = Position.from_players([0] * 25, Position.initial().side(1), 1)
    won = BACKGAMMON.result(GameState(position=done), match)
    assert won is not None and (won[0], won[2]) == (0, "backgammon")
    finished = SheshBeshGame.initial(0)
    rolls = iter([(6, 5), (4, 3), (2, 1)] * 40)
    while finished.result is None:
        finished = finished.play(Dice(*next(rolls))).after
    game = GameState(position=finished.to_position(), sheshbesh=finished, cube=2)
    result = finished.result
    assert result is not None
    assert SHESHBESH.result(game, match) == (result.winner, 2 * result.kind, result.kind_name)
    assert SHESHBESH.result(GameState(), match) is None


def test_the_lights_guide_each_variants_move() -> None:
    laid = replace(SHESHBESH.after_roll_off(GameState(), 0, (5, 2)), phase="moving", dice=(6, 4))
    guide = SHESHBESH.guide(laid, None, _no_plays)
    assert guide is not None and (list(guide[0]), list(guide[1])) == (["p6", "p4"], ["p6", "p4"])
    start = GameState(position=Position.initial(turn=0), phase="moving", dice=(3, 1))
    hint = BACKGAMMON.guide(start, None, lambda: TurnPlays(start.position, (3, 1)))
    assert hint is not None and sorted(hint[0]) == ["p13", "p24", "p6", "p8"]


def test_the_variant_classes_and_a_match_showing_its_variant() -> None:
    assert isinstance(BACKGAMMON, Backgammon) and isinstance(SHESHBESH, SheshBesh)
    board = seen(Position.initial())
    referee = Referee(clock=lambda: 0.0)
    settings = MatchSettings(length=1, variant="sheshbesh", match_id="v")
    run(referee, [NewMatch(settings), board])
    assert referee.snapshot()["match"]["variant"] == "sheshbesh"


def _no_plays() -> TurnPlays:
    raise AssertionError("Shesh Besh has no choice of plays to ask for")
