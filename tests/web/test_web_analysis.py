"""The analysis page: totals, error rates and costliest decisions; never a game in progress in
rated play; a plain sentence when there is no analysis or no engine."""

from __future__ import annotations

import sys
from copy import deepcopy
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from web import create_app
from web.analysis import covered_games, covers_game_in_progress
from web.fakes import FakeControls, MemoryMatchStore, example_matches
from web.hub import PanelHub
from web.interfaces import AnalysisStore, MatchSummary

FINISHED = "m-20261130-01"  # a finished 7-point match, five games
MONEY = "m-20261130-02"  # a money session in progress: game 1 over, game 2 going on

DRAWING = (
    " +13-14-15-16-17-18------19-20-21-22-23-24-+\n | X           O    |   |  O              X |"
)


def _report(games: list[int]) -> dict[str, Any]:
    return {
        "engine": "bgsage 0ply",
        "players": ["Ada", "Boris"],
        "length": 7,
        "totals": [
            {
                "unforced_plays": 40,
                "cube_decisions": 3,
                "play_loss": 0.4123,
                "cube_loss": 0.05,
                "error_rate": 10.9,
                "play_error_rate": 10.3,
                "cube_error_rate": 16.7,
                "marks": {"doubtful": 2, "error": 1, "blunder": 0},
            },
            {
                "unforced_plays": 38,
                "cube_decisions": 2,
                "play_loss": 0.9,
                "cube_loss": 0.0,
                "error_rate": 22.5,
                "play_error_rate": 23.7,
                "cube_error_rate": 0.0,
                "marks": {"doubtful": 0, "error": 2, "blunder": 1},
            },
        ],
        "costliest": [
            {
                "player": 1,
                "kind": "play",
                "loss": 0.3141,
                "skill": "blunder",
                "game": games[-1],
                "move": 12,
                "position_id": "4HPwATDgc/ABMA",
                "match_id": "cAkAAAAAAAAA",
                "text": "Boris, game 2, move 12: 62: played 24/18 13/11, best 24/16 (-0.314, blunder)",
                "drawing": DRAWING,
            },
            {
                "player": 0,
                "kind": "double",
                "loss": 0.05,
                "skill": "doubtful",
                "game": games[0],
                "move": 3,
                "position_id": "sGfwATDgc/ABMA",
                "match_id": "MAEAAAAAAAAA",
                "text": "Ada, game 1, move 3: Double; proper action no double (-0.050, doubtful)",
            },
        ],
        "plays": [{"game": game, "move": 1} for game in games],
        "cube": [],
        "notes": [],
    }


class AnalysedStore(MemoryMatchStore):
    """The panel's fake store, with saved analyses."""

    def __init__(self, analyses: dict[str, dict[str, Any]]) -> None:
        super().__init__()
        self.analyses = analyses
        self.asked: list[str] = []

    def analysis(self, match_id: str) -> dict[str, Any] | None:
        self.asked.append(match_id)
        entry = self.analyses.get(match_id)
        return deepcopy(entry) if entry is not None else None


def _entry(games: list[int], policy: str = "tournament") -> dict[str, Any]:
    return {
        "match_id": "x",
        "game": max(games),
        "level": "0ply",
        "time": "2026-11-30T19:12:00+00:00",
        "policy": policy,
        "report": _report(games),
    }


def _client(config: dict[str, Any], hub: PanelHub, store: object) -> FlaskClient:
    app: Flask = create_app(config, hub=hub, controls=FakeControls(hub=hub), store=store)  # type: ignore[arg-type]
    return app.test_client()


@pytest.fixture
def bgsage_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "bgsage", None)


def test_the_report_shows_totals_error_rates_and_the_costliest_decisions(
    config: dict[str, Any], hub: PanelHub
) -> None:
    store = AnalysedStore({FINISHED: _entry([1, 2, 3, 4, 5])})
    assert isinstance(store, AnalysisStore)
    response = _client(config, hub, store).get(f"/matches/{FINISHED}/analysis")
    assert response.status_code == 200
    page = response.text
    assert store.asked == [FINISHED]
    assert "Error rate (mEMG/decision)" in page
    assert "<td>10.9</td><td>22.5</td>" in page  # each player's error rate, in seat order
    assert "<td>0.412</td><td>0.900</td>" in page  # equity lost in checker play
    assert "<td>2</td><td>0</td>" in page  # marked doubtful
    assert page.index("Boris, game 2, move 12") < page.index("Ada, game 1, move 3")
    assert "<code>4HPwATDgc/ABMA</code>" in page and "<code>sGfwATDgc/ABMA</code>" in page
    assert '<pre class="position">' in page and "+13-14-15-16-17-18" in page
    assert page.count('<pre class="position">') == 1  # only the decision that has a drawing
    assert "bgsage 0ply" in page


def test_the_match_page_links_to_its_analysis(client: FlaskClient) -> None:
    page = client.get(f"/matches/{FINISHED}").text
    assert f'href="/matches/{FINISHED}/analysis"' in page


def test_rated_play_never_shows_a_game_in_progress(config: dict[str, Any], hub: PanelHub) -> None:
    for policy in ("tournament", "condone"):
        store = AnalysedStore({MONEY: _entry([1, 2], policy)})
        page = _client(config, hub, store).get(f"/matches/{MONEY}/analysis").text
        assert "once the game in progress is over" in page, policy
        assert "4HPwATDgc/ABMA" not in page and "Error rate" not in page


def test_rated_play_shows_the_games_that_are_over(config: dict[str, Any], hub: PanelHub) -> None:
    store = AnalysedStore({MONEY: _entry([1], "condone")})
    page = _client(config, hub, store).get(f"/matches/{MONEY}/analysis").text
    assert "Error rate (mEMG/decision)" in page
    assert "games 1–1" in page


def test_teaching_play_may_show_the_game_in_progress(config: dict[str, Any], hub: PanelHub) -> None:
    store = AnalysedStore({MONEY: _entry([1, 2], "teaching")})
    page = _client(config, hub, store).get(f"/matches/{MONEY}/analysis").text
    assert "Error rate (mEMG/decision)" in page and "4HPwATDgc/ABMA" in page


def test_a_report_whose_policy_is_unknown_counts_as_rated(
    config: dict[str, Any], hub: PanelHub
) -> None:
    entry = _entry([1, 2])
    del entry["policy"]
    page = _client(config, hub, AnalysedStore({MONEY: entry})).get(f"/matches/{MONEY}/analysis")
    assert "once the game in progress is over" in page.text


def test_no_analysis_yet(config: dict[str, Any], hub: PanelHub) -> None:
    pytest.importorskip("bgsage", reason="the analysis extra (bgsage) is not installed")
    page = _client(config, hub, AnalysedStore({})).get(f"/matches/{FINISHED}/analysis").text
    assert "No analysis of this match yet" in page
    assert f"sheshbesh analyse {FINISHED}" in page


def test_without_the_engine_the_page_says_analysis_is_not_installed(
    config: dict[str, Any], hub: PanelHub, bgsage_missing: None
) -> None:
    page = _client(config, hub, AnalysedStore({})).get(f"/matches/{FINISHED}/analysis").text
    assert "Analysis is not installed" in page


def test_a_saved_report_is_shown_even_without_the_engine(
    config: dict[str, Any], hub: PanelHub, bgsage_missing: None
) -> None:
    store = AnalysedStore({FINISHED: _entry([1, 2, 3, 4, 5])})
    page = _client(config, hub, store).get(f"/matches/{FINISHED}/analysis").text
    assert "Error rate (mEMG/decision)" in page and "not installed" not in page


def test_a_store_without_analyses_is_tolerated(client: FlaskClient, bgsage_missing: None) -> None:
    assert not isinstance(MemoryMatchStore(), AnalysisStore)
    response = client.get(f"/matches/{FINISHED}/analysis")
    assert response.status_code == 200
    assert "Analysis is not installed" in response.text


def test_an_unknown_match_is_not_found(client: FlaskClient) -> None:
    response = client.get("/matches/nope/analysis")
    assert response.status_code == 404
    assert "no recorded match has the id" in response.text


def test_report_text_is_escaped(config: dict[str, Any], hub: PanelHub) -> None:
    entry = _entry([1, 2, 3, 4, 5])
    entry["report"]["costliest"][0]["text"] = "<script>alert(1)</script>"
    page = _client(config, hub, AnalysedStore({FINISHED: entry})).get(
        f"/matches/{FINISHED}/analysis"
    )
    assert "<script>alert(1)</script>" not in page.text
    assert "&lt;script&gt;" in page.text


def test_which_games_a_report_covers() -> None:
    entry = _entry([1, 2])
    entry["game"] = None
    assert covered_games(entry) == {1, 2}
    summaries: list[MatchSummary] = example_matches()
    money = summaries[1]
    assert covers_game_in_progress(entry, money)
    assert not covers_game_in_progress(_entry([1]), money)
    assert not covers_game_in_progress(_entry([1, 2, 3]), summaries[0])  # the match is over
