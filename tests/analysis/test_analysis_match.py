"""Turns from match files and the record, a whole match analysed with a fake engine, reports."""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from html.parser import HTMLParser

import pytest
from analysis_fakes import (
    MATCHES,
    FakeAnalyser,
    equities,
    events_for,
    make_fake,
    missing_engine,
)

from controller.analysis import report
from controller.analysis.errors import AnalysisInputError, AnalysisNotInstalledError
from controller.analysis.match import MatchAnalysis, Turn, analyse_turns
from controller.analysis.source import (
    TurnSource,
    turns_from_events,
    turns_from_mat,
    turns_from_mat_text,
)
from controller.analysis.verdicts import Skill
from controller.analysis.worker import AnalysisWorker
from controller.events import Event
from controller.record.matfile import Action, GameRecord, MatchFile


def _source(name: str) -> TurnSource:
    return turns_from_mat_text((MATCHES / name).read_text(), name)


SEVEN = "gnubg-selfplay-7pt-seed4242.mat"
THREE = "gnubg-selfplay-3pt-seed12345.mat"
FIVE = "gnubg-selfplay-5pt-seed777.mat"


def test_turns_of_a_match_file_carry_the_cube_and_score() -> None:
    source = _source(SEVEN)
    assert source.players == ("Alice", "Bob") and source.length == 7
    first = source.turns[0]
    assert (first.game, first.move, first.player, first.may_double) == (1, 1, 1, False)
    assert first.position_id == "4HPwATDgc/ABMA"
    # Game 1, line 11-12: Bob doubles to 2, Alice takes, Bob rolls 22.
    doubled = next(turn for turn in source.turns if turn.doubled)
    assert (doubled.player, doubled.response, doubled.dice) == (1, "take", (2, 2))
    assert doubled.context.cube_value == 1
    assert (doubled.play_context.cube_value, doubled.play_context.cube_owner) == (2, 0)
    after = source.turns[source.turns.index(doubled) + 1]
    assert (after.context.cube_value, after.context.cube_owner) == (2, 0)
    # The redouble to 4 is passed: a turn with no roll.
    passed = [turn for turn in source.turns if turn.response == "pass"]
    assert passed[0].dice is None and passed[0].context.cube_value == 2
    # Game 5 starts at 4-5 in a 7-point match: no Crawford game in this match.
    assert all(not turn.context.crawford_game for turn in source.turns)
    assert {turn.context.score for turn in source.turns if turn.game == 5} == {(4, 5)}


def _short_match() -> MatchFile:
    """A 3-point match: Alice cashes two games, then the Crawford game (Bob wins), then one more."""

    def opening(*rest: Action) -> tuple[Action, ...]:
        return (Action(0, "play", (3, 1), "8/5 6/5"), Action(1, "play", (4, 2), "8/4 6/4"), *rest)

    alice_cashes = (Action(0, "double", cube=2), Action(1, "pass"))
    games = (
        GameRecord(1, (0, 0), opening(*alice_cashes), winner=0, points=1),
        GameRecord(2, (1, 0), opening(*alice_cashes), winner=0, points=1),
        GameRecord(3, (2, 0), opening(), winner=1, points=1),
        GameRecord(4, (2, 1), opening(Action(0, "play", (6, 5), "24/13"))),
    )
    return MatchFile(3, ("Alice", "Bob"), games)


def test_the_crawford_game_and_after() -> None:
    source = turns_from_mat(_short_match())
    by_game = {turn.game: turn.context for turn in source.turns}
    assert [by_game[game].crawford_game for game in (1, 2, 3, 4)] == [False, False, True, False]
    analyser = FakeAnalyser()
    analysis = analyse_turns(analyser, source.turns, source.players, source.length)
    # No cube in the Crawford game; after it only the trailer (Bob, 2-away) has a live cube.
    assert {verdict.place.game for verdict in analysis.cube} == {1, 2, 4}
    game_four = [verdict.place.player for verdict in analysis.cube if verdict.place.game == 4]
    assert game_four == [1]
    assert [view.is_post_crawford for _, view in analyser.cube_calls][-1]


def test_an_illegal_play_names_the_game_and_line() -> None:
    text = (MATCHES / THREE).read_text().replace("52: 13/11 23/18", "52: 13/10 23/18", 1)
    with pytest.raises(AnalysisInputError, match=r"game 1, line 8: 52: 13/10 23/18"):
        turns_from_mat_text(text, "broken.mat")


@pytest.mark.parametrize("name", [SEVEN, THREE, FIVE])
def test_the_record_gives_the_same_turns_as_the_match_file(name: str) -> None:
    source = _source(name)
    from_record = turns_from_events(events_for(source), "m1")
    assert from_record.players == source.players and from_record.length == source.length
    assert from_record.turns == source.turns


def test_an_undo_withdraws_the_turns_after_it() -> None:
    events = events_for(_source(THREE))
    plays = [event for event in events if event.type == "play"]
    undo = Event("undo", {"to_sequence": plays[2].sequence}, sequence=plays[3].sequence)
    cut = [e for e in events if e.sequence < plays[3].sequence] + [undo]
    assert len(turns_from_events(cut).turns) == 3


def test_a_broken_event_stream_is_refused() -> None:
    play = Event("play", {"player": 0, "dice": [3, 1], "play": "8/5 6/5"}, sequence=5)
    with pytest.raises(AnalysisInputError, match=r"event 5 \(play\): a play before any game"):
        turns_from_events([play])
    started = Event("game_started", {"game": 1, "score": [0, 0]}, sequence=1)
    bad = Event("play", {"player": 0, "dice": [3, 1], "play": "8/5 6/5"}, sequence=2)
    with pytest.raises(AnalysisInputError, match=r"event 2 \(play\): a play without its Position"):
        turns_from_events([started, bad])
    unread = Event("play", {"player": 2, "dice": [3, 1], "play": "8/5 6/5"}, sequence=3)
    with pytest.raises(AnalysisInputError, match=r"event 3 \(play\): play: player must be 0 or 1"):
        turns_from_events([started, unread])


def _analysed(turns: Sequence[Turn], analyser: FakeAnalyser | None = None) -> MatchAnalysis:
    return analyse_turns(analyser or FakeAnalyser(), turns, ("Alice", "Bob"), 7, source="t")


def test_every_turn_is_judged_once_and_totals_add_up() -> None:
    source = _source(SEVEN)
    analyser = FakeAnalyser()
    analysis = _analysed(source.turns, analyser)
    rolls = [turn for turn in source.turns if turn.dice is not None]
    assert len(analysis.plays) == len(rolls) == len(analyser.play_calls)
    # A cube decision wherever the roller had access to a live cube, never on the opening roll.
    assert len(analysis.cube) == len(analyser.cube_calls)
    assert all(verdict.place.move > 1 for verdict in analysis.cube)
    first, second = analysis.totals()
    assert first.plays + second.plays == len(rolls)
    assert first.play_loss + second.play_loss == pytest.approx(
        sum(play.loss for play in analysis.plays if not play.is_forced)
    )
    # The fake says "no double, take" (0.2 vs -0.3): every double costs 0.5 and every take is right.
    doubles = [verdict for verdict in analysis.cube if verdict.doubled]
    assert doubles and all(verdict.doubler_loss == pytest.approx(0.5) for verdict in doubles)
    takes = [verdict for verdict in doubles if verdict.response == "take"]
    assert all(verdict.response_loss == 0.0 for verdict in takes)
    passes = [verdict for verdict in doubles if verdict.response == "pass"]
    assert all(verdict.response_loss == pytest.approx(1.3) for verdict in passes)
    doubler_loss = sum(v.doubler_loss for v in doubles if v.place.player == 0)
    response_loss = sum(v.response_loss or 0.0 for v in doubles if v.responder == 0)
    assert first.cube_loss == pytest.approx(doubler_loss + response_loss)
    assert first.error_rate == pytest.approx(1000 * first.total_loss / first.decisions)


def test_plays_after_a_take_are_judged_with_the_new_cube() -> None:
    source = _source(SEVEN)
    analyser = FakeAnalyser()
    _analysed(source.turns, analyser)
    index = next(i for i, turn in enumerate(source.turns) if turn.response == "take")
    views = [view for sides, dice, view in analyser.play_calls]
    assert views[index].cube_value == 2 and views[index].cube_owner == "opponent"


def test_mistakes_come_costliest_first() -> None:
    analysis = _analysed(_source(SEVEN).turns)
    mistakes = analysis.mistakes()
    assert mistakes == sorted(mistakes, key=lambda mistake: -mistake.loss)
    assert {mistake.kind for mistake in mistakes} >= {"play", "double", "response"}
    assert mistakes[0].loss == pytest.approx(1.3)  # passing a take costs the fake 1.3
    assert mistakes[0].skill is Skill.BLUNDER
    assert len(analysis.mistakes(limit=3)) == 3


def test_the_json_report_holds_every_verdict() -> None:
    analysis = _analysed(_source(THREE).turns)
    data = json.loads(report.to_json(analysis))
    assert data["players"] == ["Alice", "Bob"] and data["engine"] == "fake"
    assert data["thresholds"] == {"doubtful": 0.04, "error": 0.08, "blunder": 0.16}
    assert len(data["plays"]) == len(analysis.plays) and len(data["cube"]) == len(analysis.cube)
    assert data["totals"][0]["decisions"] == analysis.totals()[0].decisions
    costly = data["costliest"][0]
    assert costly["position_id"] and costly["text"].startswith(("Alice", "Bob"))
    assert set(data["cube"][0]) >= {"no_double", "double_take", "double_pass", "proper_action"}


def test_the_text_report_draws_the_costliest_positions() -> None:
    analysis = _analysed(_source(THREE).turns)
    text = report.to_text(analysis, costliest=2)
    assert "Error rate (mEMG/decision)" in text
    assert text.count("+13-14-15-16-17-18") == 2
    for mistake in analysis.mistakes(2):
        place = mistake.verdict.place
        assert f"Position ID {place.position_id}, Match ID {place.match_id}" in text


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)


def test_the_html_report_is_a_page_with_a_board_per_mistake() -> None:
    analysis = _analysed(_source(THREE).turns)
    analysis.players = ("<Alice>", "Bob")
    page = report.to_html(analysis, costliest=4)
    parser = _Tags()
    parser.feed(page)
    assert parser.tags.count("svg") == 4
    assert "&lt;Alice&gt;" in page and "<Alice>" not in page


def test_no_mistakes_says_so() -> None:
    source = _source(THREE)
    perfect = FakeAnalyser(default=equities(0.0, 0.0, 0.0))  # every cube action is equal
    analysis = _analysed([turn for turn in source.turns if turn.dice is None], perfect)
    assert "No equity was lost." in report.to_text(analysis)


def test_the_worker_never_makes_the_caller_wait() -> None:
    gate = threading.Event()
    source = _source(THREE)
    done: list[MatchAnalysis] = []
    with AnalysisWorker(
        lambda: FakeAnalyser(gate=gate), when_analysed=done.append, separate_process=False
    ) as worker:
        first = worker.submit_turns(source.turns[:10])
        second = worker.submit_turns(source.turns[10:20])
        # The engine is held at its first call, yet both submissions returned.
        assert not first.done() and not second.done()
        assert worker.pending == 2
        gate.set()
        rolled = sum(turn.dice is not None for turn in source.turns[:10])
        assert len(first.result(timeout=30).plays) == rolled
        assert worker.wait_for_idle(timeout=30)
    assert len(done) == 2 and worker.pending == 0
    with pytest.raises(RuntimeError, match="closed"):
        worker.submit_turns(source.turns[:1])


def test_a_worker_without_the_engine_reports_it_on_every_job() -> None:
    def missing() -> FakeAnalyser:
        raise AnalysisNotInstalledError("analysis is not installed: test")

    with AnalysisWorker(missing, separate_process=False) as worker:
        future = worker.submit_turns(_source(THREE).turns[:3])
        with pytest.raises(AnalysisNotInstalledError, match="not installed"):
            future.result(timeout=30)
        again = worker.submit_turns(_source(THREE).turns[:3])
        with pytest.raises(AnalysisNotInstalledError):
            again.result(timeout=30)
    assert isinstance(worker.problem, AnalysisNotInstalledError)


def test_a_failing_listener_does_not_stop_the_worker() -> None:
    def broken(_: MatchAnalysis) -> None:
        raise ValueError("listener broke")

    with AnalysisWorker(FakeAnalyser, when_analysed=broken, separate_process=False) as worker:
        worker.submit_turns(_source(THREE).turns[:2])
        assert worker.wait_for_idle(timeout=30)
        assert worker.submit_turns(_source(THREE).turns[:2]).result(timeout=30).plays
    assert isinstance(worker.listener_error, ValueError)


def test_the_engine_can_run_in_its_own_process() -> None:
    source = _source(THREE)
    with AnalysisWorker(make_fake) as worker:
        analysis = worker.submit_turns(source.turns, source.players, source.length).result(60)
    here = analyse_turns(FakeAnalyser(), source.turns, source.players, source.length)
    assert analysis.engine == "fake"
    assert analysis.plays == here.plays and analysis.cube == here.cube


def test_a_child_process_without_the_engine_reports_it() -> None:
    with (
        AnalysisWorker(missing_engine) as worker,
        pytest.raises(AnalysisNotInstalledError, match="not installed"),
    ):
        worker.submit_turns(_source(THREE).turns[:2]).result(60)
    assert isinstance(worker.problem, AnalysisNotInstalledError)
