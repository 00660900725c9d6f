"""The analysis page of a recorded match: each player's totals and error rate, and the decisions
that cost the most, with their Position IDs and the positions drawn.

Reports come from the match store's optional ``analysis(match_id)``
(:class:`web.interfaces.AnalysisStore`); a store without it, or a match with no report yet, gets a
plain sentence instead ("analysis is not installed" where the engine is missing). In rated play
(policy ``tournament`` or ``condone``) a report that covers a game still in progress is never
shown: analysis must not help the players during a game.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, abort, render_template

from web.i18n import _
from web.interfaces import AnalysisStore, MatchSummary
from web.services import services

bp = Blueprint("analysis", __name__)


def analysis_installed() -> bool:
    """Whether the analysis engine (the ``sheshbesh[analysis]`` extra, bgsage) can be imported."""
    try:
        return importlib.util.find_spec("bgsage") is not None
    except (ImportError, ValueError):
        return False


def covered_games(entry: Mapping[str, Any]) -> set[int]:
    """The games a saved analysis covers: its ``game`` and every game its decisions name."""
    report = entry.get("report") or {}
    games = {entry.get("game")}
    for key in ("plays", "cube", "costliest"):
        for decision in report.get(key) or ():
            if isinstance(decision, Mapping):
                games.add(decision.get("game"))
    return {game for game in games if isinstance(game, int)}


def covers_game_in_progress(entry: Mapping[str, Any], summary: MatchSummary) -> bool:
    """True when the analysis covers a game of ``summary`` that is not over."""
    if summary.get("finished"):
        return False
    over = {game.get("game") for game in summary.get("games", [])}
    return any(game not in over for game in covered_games(entry))


def is_rated(entry: Mapping[str, Any]) -> bool:
    """Rated play unless the match is plainly a teaching one (an unknown policy counts as rated)."""
    return entry.get("policy") != "teaching"


@bp.get("/matches/<match_id>/analysis")
def page(match_id: str) -> str:
    store = services().store
    summary = store.match(match_id)
    if summary is None:
        abort(404, description=_("no recorded match has the id %(id)s", id=repr(match_id)))
    entry = store.analysis(match_id) if isinstance(store, AnalysisStore) else None
    status = "shown"
    if entry is None or not isinstance(entry.get("report"), Mapping):
        entry = None
        status = "none" if analysis_installed() else "not_installed"
    elif is_rated(entry) and covers_game_in_progress(entry, summary):
        entry = None
        status = "in_progress"
    report = entry["report"] if entry is not None else None
    return render_template(
        "analysis.html", match=summary, status=status, entry=entry, report=report
    )
