"""Verdicts from equities: proper actions, equity lost by each side, the field's marks."""

from __future__ import annotations

import pytest
from analysis_fakes import equities

from controller.analysis.board import START
from controller.analysis.engine import CubeEquities, RankedPlay
from controller.analysis.errors import AnalysisInputError, UnknownPlayError
from controller.analysis.verdicts import (
    DecisionPlace,
    Skill,
    Thresholds,
    judge_cube,
    judge_play,
    proper_action,
    proper_response,
)
from controller.rules import Position

PLACE = DecisionPlace(game=1, move=7, player=0, sides=START)

# (nd, dt, dp, db) -> proper action
PROPER_TABLE = [
    ((0.40, 0.30, 1.0, None), "no double, take"),
    ((0.60, 0.70, 1.0, None), "double, take"),
    ((0.80, 1.20, 1.0, None), "double, pass"),
    ((1.30, 1.60, 1.0, None), "too good, pass"),
    ((0.10, -0.20, 1.0, -0.40), "no double, beaver"),
    ((0.50, 0.60, 1.0, 1.20), "double, take"),
    ((1.00, 1.40, 1.0, None), "double, pass"),  # a tie: double, as GNU Backgammon does
]


@pytest.mark.parametrize(("values", "expected"), PROPER_TABLE)
def test_proper_action_in_the_fields_words(
    values: tuple[float, float, float, float | None], expected: str
) -> None:
    assert proper_action(equities(*values)) == expected


# (nd, dt, dp), doubled, response -> doubler loss, response loss
LOSS_TABLE = [
    ((0.40, 0.30, 1.0), False, None, 0.0, None),
    ((0.40, 0.30, 1.0), True, "take", 0.10, 0.0),  # premature double, right take
    ((0.40, 0.30, 1.0), True, "pass", 0.10, 0.70),  # and a huge wrong pass
    ((0.60, 0.70, 1.0), False, None, 0.10, None),  # missed double
    ((0.60, 0.70, 1.0), True, "take", 0.0, 0.0),
    ((0.80, 1.20, 1.0), True, "take", 0.0, 0.20),  # wrong take
    ((0.80, 1.20, 1.0), True, "pass", 0.0, 0.0),
    ((0.80, 1.20, 1.0), False, None, 0.20, None),  # missed a double/pass
    ((1.30, 1.60, 1.0), True, "pass", 0.30, 0.0),  # cashed a gammonish position
    ((1.30, 1.60, 1.0), False, None, 0.0, None),  # played on for the gammon
]


@pytest.mark.parametrize(("values", "doubled", "response", "doubler", "responder"), LOSS_TABLE)
def test_equity_lost_by_each_side(
    values: tuple[float, float, float],
    doubled: bool,
    response: str | None,
    doubler: float,
    responder: float | None,
) -> None:
    verdict = judge_cube(PLACE, equities(*values), doubled, response)  # type: ignore[arg-type]
    assert verdict.doubler_loss == pytest.approx(doubler)
    if responder is None:
        assert verdict.response_loss is None
    else:
        assert verdict.response_loss == pytest.approx(responder)
    assert verdict.responder == 1


def test_a_beaver_is_judged_as_an_answer() -> None:
    values = equities(0.10, -0.20, 1.0, -0.40)
    assert proper_response(values) == "beaver"
    took = judge_cube(PLACE, values, True, "take")
    beavered = judge_cube(PLACE, values, True, "beaver")
    assert took.response_loss == pytest.approx(0.20)
    assert beavered.response_loss == 0.0
    assert took.doubler_loss == pytest.approx(0.50)  # doubling into a beaver: 0.10 - (-0.40)


def test_answers_that_cannot_be_are_refused() -> None:
    with pytest.raises(AnalysisInputError, match="without a double"):
        judge_cube(PLACE, equities(0.4, 0.3), False, "take")
    with pytest.raises(AnalysisInputError, match="beavers are not allowed"):
        judge_cube(PLACE, equities(0.4, 0.3), True, "beaver")
    with pytest.raises(AnalysisInputError, match="unknown answer"):
        judge_cube(PLACE, equities(0.4, 0.3), True, "drop")  # type: ignore[arg-type]


MARKS = [
    (0.0, Skill.OK),
    (0.039, Skill.OK),
    (0.040, Skill.DOUBTFUL),
    (0.079, Skill.DOUBTFUL),
    (0.080, Skill.ERROR),
    (0.159, Skill.ERROR),
    (0.160, Skill.BLUNDER),
    (1.5, Skill.BLUNDER),
]


@pytest.mark.parametrize(("loss", "skill"), MARKS)
def test_gnu_backgammon_default_marks(loss: float, skill: Skill) -> None:
    assert Thresholds().classify(loss) is skill


def test_thresholds_must_rise() -> None:
    strict = Thresholds(0.02, 0.04, 0.08)
    assert strict.classify(0.05) is Skill.ERROR
    with pytest.raises(AnalysisInputError, match="must rise"):
        Thresholds(0.05, 0.04, 0.08)
    with pytest.raises(AnalysisInputError, match="must rise"):
        Thresholds(0.0, 0.04, 0.08)


def test_cube_marks_use_the_thresholds() -> None:
    verdict = judge_cube(
        PLACE, equities(0.80, 1.20, 1.0), True, "take", Thresholds(0.02, 0.04, 0.1)
    )
    assert verdict.response_skill is Skill.BLUNDER
    assert verdict.doubler_skill is Skill.OK


def _ranked() -> list[RankedPlay]:
    """The 16 plays of an opening 31, each 0.01 worse than the one before."""
    plays = Position.initial().legal_plays("31")
    ordered = sorted(plays, key=lambda result: str(plays[result][0]))
    return [
        RankedPlay((result.opponent, result.mover), str(plays[result][0]), -0.01 * index)
        for index, result in enumerate(ordered)
    ]


def test_a_play_is_judged_against_the_best() -> None:
    ranked = _ranked()
    verdict = judge_play(PLACE, (3, 1), ranked, ranked[5].result, "as written")
    assert verdict.loss == pytest.approx(0.05)
    assert verdict.skill is Skill.DOUBTFUL
    assert verdict.best == ranked[0].notation
    assert verdict.played == "as written"
    assert verdict.choices == 16 and not verdict.is_forced
    assert len(verdict.alternatives) == 3
    best = judge_play(PLACE, (3, 1), ranked, ranked[0].result)
    assert best.loss == 0.0 and best.played == ranked[0].notation


def test_a_play_the_engine_does_not_know_is_an_error() -> None:
    with pytest.raises(UnknownPlayError, match="not among the 16 legal plays"):
        judge_play(PLACE, (3, 1), _ranked(), START, "8/4")


def test_a_dance_is_forced_and_costs_nothing() -> None:
    verdict = judge_play(PLACE, (6, 6), [], START)
    assert verdict.is_forced and verdict.loss == 0.0
    with pytest.raises(UnknownPlayError, match="cannot be played"):
        judge_play(PLACE, (6, 6), [], _ranked()[0].result)


def test_double_is_the_answer_worst_for_the_doubler() -> None:
    values = CubeEquities(0.5, 0.7, 1.0, None, (0.7, 0.2, 0.0, 0.05, 0.0), "x")
    assert values.double == 0.7 and values.best == 0.7
