"""The engine's verdicts against GNU Backgammon's, on positions from the real matches.

Both at their bare neural network (our ``0ply``, gnubg's 0-ply): the two programs have different
networks and different cubeful methods, so equities differ by a few hundredths and close
decisions can come out the other way. The tolerances below were set from a run over the four
matches in ``shared/data/matches`` (figures in the analysis report and in
``benchmarks/bench_analysis.py --compare``) with some room; a mapping mistake (a flipped cube
owner, away scores swapped, Jacoby ignored) breaks them by far.
"""

from __future__ import annotations

import dataclasses
import statistics
from collections.abc import Iterator

import pytest
from analysis_fakes import MATCHES

pytest.importorskip("gnubg", reason="gnubg (the x86-64 reference, a dev dependency) is missing")
pytest.importorskip("bgsage", reason="the analysis extra (bgsage) is not installed")

import analysis_reference as reference

from controller.analysis import make_analyser
from controller.analysis.context import MatchContext
from controller.analysis.engine import Analyser
from controller.analysis.match import Turn
from controller.analysis.source import turns_from_mat_text

pytestmark = [pytest.mark.gnubg, pytest.mark.slow]


@pytest.fixture(scope="module")
def analyser() -> Iterator[Analyser]:
    reference.set_up(plies=0)
    yield make_analyser("0ply")
    reference.capture("set beavers 3")


@pytest.fixture(scope="module")
def turns() -> list[Turn]:
    found: list[Turn] = []
    for path in sorted(MATCHES.glob("*.mat")):
        found += turns_from_mat_text(path.read_text(), path.name).turns
    return found


def test_match_ids_are_gnubgs(turns: list[Turn]) -> None:
    """Our Match IDs, gnubg's Match IDs: the same score, cube and player mapping on every turn."""
    reference.set_up(plies=0)
    for turn in turns:
        assert turn.place().match_id == reference.match_id(turn), turn
        if turn.dice is not None:
            assert turn.place(for_play=True).match_id == reference.match_id(turn, turn.dice)
    money = _money(turns[5], jacoby=True, beavers=False)
    assert money.place().match_id == reference.match_id(money)
    assert _money(turns[5], False, False).place().match_id == reference.match_id(
        _money(turns[5], False, False)
    )


def test_cube_decisions_in_match_play(analyser: Analyser, turns: list[Turn]) -> None:
    compared = reference.compare_cube(analyser, turns)
    assert len(compared) >= 150
    agree = sum(item.agrees for item in compared) / len(compared)
    nd = [item.no_double_gap for item in compared]
    dt = [item.double_take_gap for item in compared]
    assert all(
        item.ours.double_pass == pytest.approx(item.theirs.double_pass, abs=0.001)
        for item in compared
    )
    assert agree >= 0.90, [
        (item.turn.position_id, item.ours_action, item.theirs.proper_action)
        for item in compared
        if not item.agrees
    ]
    assert statistics.mean(nd) <= 0.04
    assert statistics.mean(dt) <= 0.08
    assert sorted(nd)[int(0.9 * len(nd))] <= 0.08


def test_checker_plays(analyser: Analyser, turns: list[Turn]) -> None:
    sample = [turn for index, turn in enumerate(turns) if index % 2 == 0]
    compared = reference.compare_plays(analyser, sample)
    assert len(compared) >= 150
    loss_gaps = sorted(abs(item.our_loss - item.their_loss) for item in compared)
    # The same play judged by both (measured: 0.004 apart on average, 0.027 at the 95th
    # percentile over all 386 unforced plays of the four matches).
    assert statistics.mean(loss_gaps) <= 0.01
    assert loss_gaps[int(0.95 * len(loss_gaps))] <= 0.04
    # Our best play, judged by gnubg, gives away little.
    assert statistics.mean(item.our_best_judged_by_them for item in compared) <= 0.01
    assert sum(item.same_best for item in compared) / len(compared) >= 0.65


def _money(turn: Turn, jacoby: bool, beavers: bool) -> Turn:
    context = MatchContext(0, jacoby=jacoby, beavers=beavers)
    return dataclasses.replace(turn, context=context)


def test_money_play_with_and_without_jacoby_and_beavers(
    analyser: Analyser, turns: list[Turn]
) -> None:
    sample = [turn for turn in turns if turn.may_double][::10]
    assert len(sample) >= 40
    results = {}
    for jacoby, beavers in ((False, False), (True, False), (True, True)):
        money = [_money(turn, jacoby, beavers) for turn in sample]
        results[jacoby, beavers] = reference.compare_cube(analyser, money)
    for compared in results.values():
        assert sum(item.agrees for item in compared) / len(compared) >= 0.85
        assert statistics.mean(item.no_double_gap for item in compared) <= 0.05
    # Beavers show in the proper action exactly when both engines see a beaver.
    with_beavers = results[True, True]
    assert any(item.theirs.proper_action.endswith("beaver") for item in with_beavers)
    assert not any(item.ours_action.endswith("beaver") for item in results[True, False])
    # The Jacoby rule moves the no-double equity the same way in both engines.
    moved = 0
    for plain, with_jacoby in zip(results[False, False], results[True, False], strict=True):
        theirs = plain.theirs.no_double - with_jacoby.theirs.no_double
        ours = plain.ours.no_double - with_jacoby.ours.no_double
        if abs(theirs) >= 0.01:
            moved += 1
            assert ours * theirs > 0, plain.turn.position_id
    assert moved >= 10
