"""A match report: JSON for the panel and the record, printable text and HTML for people.

Every report lists each player's totals and the decisions that cost the most, each with its
Position ID and the position drawn.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from controller.analysis import drawing
from controller.analysis.match import MatchAnalysis, Mistake
from controller.analysis.verdicts import CubeVerdict, PlayVerdict

#: How many costly decisions a report shows.
COSTLIEST = 10


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _place(verdict: CubeVerdict | PlayVerdict) -> dict[str, Any]:
    place = verdict.place
    return {
        "game": place.game,
        "move": place.move,
        "player": place.player,
        "position_id": place.position_id,
        "match_id": place.match_id,
        "context": place.context_text,
    }


def cube_to_dict(verdict: CubeVerdict) -> dict[str, Any]:
    equities = verdict.equities
    return {
        **_place(verdict),
        "no_double": _round(equities.no_double),
        "double_take": _round(equities.double_take),
        "double_pass": _round(equities.double_pass),
        "double_beaver": _round(equities.double_beaver),
        "probabilities": [round(p, 4) for p in equities.probabilities],
        "proper_action": verdict.proper_action,
        "action": verdict.action_text,
        "doubled": verdict.doubled,
        "response": verdict.response,
        "doubler_loss": _round(verdict.doubler_loss),
        "doubler_skill": verdict.doubler_skill.value,
        "response_loss": _round(verdict.response_loss),
        "response_skill": None if verdict.response_skill is None else verdict.response_skill.value,
        "close": verdict.is_close,
    }


def play_to_dict(verdict: PlayVerdict) -> dict[str, Any]:
    return {
        **_place(verdict),
        "dice": list(verdict.dice),
        "played": verdict.played,
        "played_equity": _round(verdict.played_equity),
        "best": verdict.best,
        "best_equity": _round(verdict.best_equity),
        "loss": _round(verdict.loss),
        "skill": verdict.skill.value,
        "choices": verdict.choices,
        "alternatives": [
            {"play": alternative.notation, "equity": _round(alternative.equity)}
            for alternative in verdict.alternatives
        ],
    }


def describe(mistake: Mistake, players: tuple[str, str]) -> str:
    """One line in the field's words: who, where, what they did, what was right, the cost."""
    verdict = mistake.verdict
    place = verdict.place
    who = players[mistake.player]
    where = f"game {place.game}, move {place.move}"
    if isinstance(verdict, PlayVerdict):
        what = (
            f"{verdict.dice[0]}{verdict.dice[1]}: played {verdict.played or '(no move)'},"
            f" best {verdict.best}"
        )
    elif mistake.kind == "double":
        what = f"{verdict.action_text.split(',')[0]}; proper action {verdict.proper_action}"
    else:
        what = f"{verdict.response} a double; proper answer {verdict.proper_response}"
    return f"{who}, {where}: {what} (-{mistake.loss:.3f}, {mistake.skill.value})"


def to_dict(analysis: MatchAnalysis, costliest: int = COSTLIEST) -> dict[str, Any]:
    """Everything in plain JSON values (see the module docstring)."""
    totals = analysis.totals()
    thresholds = analysis.thresholds
    return {
        "source": analysis.source,
        "engine": analysis.engine,
        "players": list(analysis.players),
        "length": analysis.length,
        "thresholds": {
            "doubtful": thresholds.doubtful,
            "error": thresholds.error,
            "blunder": thresholds.blunder,
        },
        "totals": [totals[0].to_dict(), totals[1].to_dict()],
        "costliest": [
            {
                "player": mistake.player,
                "kind": mistake.kind,
                "loss": _round(mistake.loss),
                "skill": mistake.skill.value,
                "game": mistake.verdict.place.game,
                "move": mistake.verdict.place.move,
                "position_id": mistake.verdict.place.position_id,
                "match_id": mistake.verdict.place.match_id,
                "text": describe(mistake, analysis.players),
            }
            for mistake in analysis.mistakes(costliest)
        ],
        "cube": [cube_to_dict(verdict) for verdict in analysis.cube],
        "plays": [play_to_dict(verdict) for verdict in analysis.plays],
        "notes": list(analysis.notes),
    }


def to_json(analysis: MatchAnalysis, costliest: int = COSTLIEST) -> str:
    return json.dumps(to_dict(analysis, costliest), indent=1)


def _title(analysis: MatchAnalysis) -> str:
    kind = f"{analysis.length}-point match" if analysis.length else "money session"
    name = f" ({analysis.source})" if analysis.source else ""
    return f"{analysis.players[0]} vs {analysis.players[1]}, {kind}{name}"


def _totals_rows(analysis: MatchAnalysis) -> list[tuple[str, str, str]]:
    first, second = analysis.totals()
    rows = [
        ("Unforced checker plays", str(first.unforced_plays), str(second.unforced_plays)),
        ("Cube decisions", str(first.cube_decisions), str(second.cube_decisions)),
        ("Equity lost, checker play", f"{first.play_loss:.3f}", f"{second.play_loss:.3f}"),
        ("Equity lost, cube", f"{first.cube_loss:.3f}", f"{second.cube_loss:.3f}"),
        ("Error rate (mEMG/decision)", f"{first.error_rate:.1f}", f"{second.error_rate:.1f}"),
        ("  checker play", f"{first.play_error_rate:.1f}", f"{second.play_error_rate:.1f}"),
        ("  cube", f"{first.cube_error_rate:.1f}", f"{second.cube_error_rate:.1f}"),
    ]
    for mark in first.marks:
        rows.append((f"Marked {mark}", str(first.marks[mark]), str(second.marks[mark])))
    return rows


def _thresholds_text(analysis: MatchAnalysis) -> str:
    t = analysis.thresholds
    return f"doubtful >= {t.doubtful:.3f}, error >= {t.error:.3f}, blunder >= {t.blunder:.3f}"


def to_text(analysis: MatchAnalysis, costliest: int = COSTLIEST) -> str:
    """A printable plain-text report."""
    players = analysis.players
    lines = [
        f"Analysis: {_title(analysis)}",
        f"Engine: {analysis.engine}; marks: {_thresholds_text(analysis)}",
        "",
        f"{'':30}{players[0]:>14}{players[1]:>14}",
    ]
    lines += [f"{label:30}{a:>14}{b:>14}" for label, a, b in _totals_rows(analysis)]
    mistakes = analysis.mistakes(costliest)
    lines += ["", "The decisions that cost the most:" if mistakes else "No equity was lost."]
    for number, mistake in enumerate(mistakes, start=1):
        place = mistake.verdict.place
        lines += ["", f"{number}. {describe(mistake, players)}"]
        lines.append(
            f"   Position ID {place.position_id or '?'}, Match ID {place.match_id or '?'};"
            f" {place.context_text}"
        )
        if isinstance(mistake.verdict, CubeVerdict):
            e = mistake.verdict.equities
            beaver = "" if e.double_beaver is None else f", double/beaver {e.double_beaver:+.3f}"
            lines.append(
                f"   no double {e.no_double:+.3f}, double/take {e.double_take:+.3f},"
                f" double/pass {e.double_pass:+.3f}{beaver}"
            )
        lines.append(f"   ({players[place.player]} on roll, as X)")
        lines += ["   " + row for row in drawing.to_text(place.sides).splitlines()]
    for note in analysis.notes:
        lines.append(f"Note: {note}")
    return "\n".join(lines) + "\n"


def to_html(analysis: MatchAnalysis, costliest: int = COSTLIEST) -> str:
    """A self-contained printable HTML page (inline SVG boards, no scripts)."""
    players = analysis.players
    title = escape(_title(analysis))
    out = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Analysis: {title}</title>",
        "<style>body{font-family:sans-serif;max-width:60em;margin:auto}"
        "table{border-collapse:collapse}td,th{padding:.2em .8em;text-align:right}"
        "td:first-child,th:first-child{text-align:left}"
        ".mistake{page-break-inside:avoid;margin:1em 0}</style>",
        "</head><body>",
        f"<h1>Analysis: {title}</h1>",
        f"<p>Engine: {escape(analysis.engine)}; marks: {escape(_thresholds_text(analysis))}.</p>",
        f"<table><tr><th></th><th>{escape(players[0])}</th><th>{escape(players[1])}</th></tr>",
    ]
    for label, a, b in _totals_rows(analysis):
        out.append(f"<tr><td>{escape(label)}</td><td>{a}</td><td>{b}</td></tr>")
    out.append("</table>")
    mistakes = analysis.mistakes(costliest)
    out.append(
        "<h2>The decisions that cost the most</h2>" if mistakes else "<p>No equity was lost.</p>"
    )
    for mistake in mistakes:
        place = mistake.verdict.place
        out.append('<div class="mistake">')
        out.append(f"<p><strong>{escape(describe(mistake, players))}</strong><br>")
        out.append(
            f"Position ID <code>{escape(place.position_id or '?')}</code>,"
            f" Match ID <code>{escape(place.match_id or '?')}</code>;"
            f" {escape(place.context_text)}; {escape(players[place.player])} on roll (dark).</p>"
        )
        out.append(drawing.to_svg(place.sides, describe(mistake, players)))
        out.append("</div>")
    for note in analysis.notes:
        out.append(f"<p>Note: {escape(note)}</p>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
