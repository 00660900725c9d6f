"""Analysis reports kept in the record, for the panel: what to save and when.

A report is derived data: it is saved in the record's ``analyses`` table
(:meth:`controller.record.store.Record.save_analysis`), never among the events. The panel reads the
latest one back (:meth:`controller.record.store.Record.analysis`).

:func:`analyse_finished_game` is what the application calls, on a worker thread, after each game
is won: it analyses every finished game of the match (never the game in progress, which in rated
play must not be shown) and saves the report. It takes seconds, so never call it on the referee's
own thread. Typical use::

    threading.Thread(
        target=analyse_finished_game, args=(record, match_id, "0ply"), daemon=True
    ).start()
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from controller.analysis import drawing, report
from controller.analysis.bgsage_engine import DEFAULT_LEVEL
from controller.analysis.engine import Analyser
from controller.analysis.errors import AnalysisInputError
from controller.analysis.match import MatchAnalysis, analyse_turns
from controller.analysis.source import turns_from_events

if TYPE_CHECKING:
    from controller.record.store import Record

__all__ = ["analyse_finished_game", "finished_games", "report_for_record"]


def report_for_record(analysis: MatchAnalysis, costliest: int = report.COSTLIEST) -> dict[str, Any]:
    """The JSON report (:func:`controller.analysis.report.to_dict`) with each of the costliest
    decisions' positions drawn as text (``"drawing"``, the decider at the bottom as ``X``)."""
    data = report.to_dict(analysis, costliest)
    for entry, mistake in zip(data["costliest"], analysis.mistakes(costliest), strict=True):
        entry["drawing"] = drawing.to_text(mistake.verdict.place.sides)
    return data


def finished_games(record: Record, match_id: str) -> list[int]:
    """The numbers of ``match_id``'s games that are over (a ``game_won`` is recorded)."""
    return [
        int(event.data["game"]) for event in record.events(match_id) if event.type == "game_won"
    ]


def analyse_finished_game(
    record: Record,
    match_id: str,
    level: str = DEFAULT_LEVEL,
    *,
    analyser: Analyser | None = None,
    costliest: int = report.COSTLIEST,
    game_in_progress: bool = False,
) -> dict[str, Any] | None:
    """Analyse every finished game of ``match_id`` and save the report in ``record``.

    Returns the report saved, or None when no game of the match is over yet (nothing is saved).
    The game in progress is left out unless ``game_in_progress`` (teaching: a verdict after each
    decision; the panel never shows it during a rated game). ``analyser`` defaults to the bgsage
    engine at ``level``.

    Raises :class:`controller.analysis.AnalysisNotInstalledError` without the analysis extra,
    :class:`controller.analysis.AnalysisInputError` for an unknown match or a log that does not
    hold together, :class:`controller.record.store.RecordError` when the report cannot be saved.
    """
    events = record.events(match_id)
    if not events:
        raise AnalysisInputError(f"no match {match_id!r} in the record {record.path!r}")
    over = {int(event.data["game"]) for event in events if event.type == "game_won"}
    source = turns_from_events(events, match_id)
    turns = [turn for turn in source.turns if game_in_progress or turn.game in over]
    if not turns:
        return None
    if analyser is None:
        from controller.analysis import make_analyser

        analyser = make_analyser(level)
    analysis = analyse_turns(analyser, turns, source.players, source.length, source=match_id)
    data = report_for_record(analysis, costliest)
    record.save_analysis(match_id, data, game=max(turn.game for turn in turns), level=level)
    return data
