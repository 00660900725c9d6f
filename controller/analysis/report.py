"""A match report: JSON for the panel and the record, printable text and HTML for people.

Every report lists each player's totals and the decisions that cost the most, each with its
Position ID and the position drawn.

The text and HTML reports are for players, so they speak a language (``language``, one of
:data:`sheshbesh.language.LANGUAGES`; ``sheshbesh analyse`` passes the command line's players'
language, see ``controller/commands/language.py``): headings, labels, cube actions and marks are
looked up in the catalogues, with the panel's analysis page's msgids where the same words exist,
and the costliest decisions' lines through the referee's templates (:mod:`sheshbesh.phrases`), as
the panel shows them. Names, numbers (Western digits), Position IDs, Match IDs, move notation and
the drawn board stay as they are. In English the reports read exactly as they always did. The JSON
report (and the ``text`` of each costly decision in it) is for tools and the record: it is never
translated.
"""

from __future__ import annotations

import json
import re
from html import escape
from typing import Any

from controller.analysis import drawing
from controller.analysis.match import MatchAnalysis, Mistake
from controller.analysis.verdicts import CubeVerdict, PlayVerdict
from sheshbesh.language import DEFAULT_LANGUAGE, N_, direction, translations
from sheshbesh.phrases import translate_sentence

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


class _Words:
    """The report's words in one language: a catalogue lookup with ``%(name)s`` values filled in.

    A translation that does not fit its values (a broken catalogue) falls back to the English, so
    a report is always printed.
    """

    def __init__(self, language: str) -> None:
        self.language = language
        self.catalogue = translations(language)
        self.rtl = direction(language) == "rtl"
        #: Between the parts of a list ("7-away/3-away, Crawford, cube 1 centred"): Arabic has its
        #: own comma.
        self.comma = self(N_(", "))

    def __call__(self, message: str, **values: Any) -> str:
        template = self.catalogue.gettext(message)
        if not values:
            return template
        try:
            return template % values
        except (KeyError, ValueError, TypeError):
            return message % values

    def html(self, message: str, **markup: str) -> str:
        """``message`` translated and escaped, its placeholders filled with ready HTML."""
        try:
            return escape(self.catalogue.gettext(message)) % markup
        except (KeyError, ValueError, TypeError):
            return escape(message) % markup

    def sentence(self, text: str, *, isolate: bool = False) -> str:
        """An English sentence made from a :mod:`sheshbesh.phrases` template, translated."""
        return translate_sentence(text, self.catalogue, isolate=isolate and self.rtl)


#: :func:`controller.analysis.match.describe_context`'s words: "3-away/2-away, Crawford, cube 2
#: opponent's", "money (Jacoby, beavers), cube 1 centred".
_CONTEXT = re.compile(
    r"(?:(?P<money>money)(?: \((?P<rules>[^)]*)\))?|(?P<own>[0-9]+)-away/(?P<other>[0-9]+)-away)"
    r"(?:, (?P<crawford>Crawford|post-Crawford))?, cube (?P<value>[0-9]+)"
    r" (?P<owner>centred|own|opponent's)"
)
_CUBE_OWNER = {
    "centred": N_("cube %(value)s centred"),
    "own": N_("cube %(value)s own"),
    "opponent's": N_("cube %(value)s opponent's"),
}
_MONEY_RULES = {"Jacoby": N_("Jacoby"), "beavers": N_("beavers")}


def _context(text: str, words: _Words) -> str:
    """The match's state at a decision in ``words``' language (unchanged if not recognised)."""
    found = _CONTEXT.fullmatch(text)
    if found is None:
        return text
    if found["money"]:
        parts = [words("money")]
        if found["rules"]:
            rules = [words(_MONEY_RULES.get(rule, rule)) for rule in found["rules"].split(", ")]
            parts[0] += f" ({words.comma.join(rules)})"
    else:
        away = N_("%(points)s-away")
        parts = [f"{words(away, points=found['own'])}/{words(away, points=found['other'])}"]
    if found["crawford"]:
        parts.append(words(found["crawford"]))
    parts.append(words(_CUBE_OWNER[found["owner"]], value=found["value"]))
    return words.comma.join(parts)


def _note(note: str, words: _Words, *, isolate: bool = False) -> str:
    """A note of the analysis ("game 3, move 4: a double the engine cannot judge (3-away/...)")
    through the referee's templates, and the match's state inside it in ``words``' language."""
    translated = words.sentence(note, isolate=isolate)
    return _CONTEXT.sub(lambda found: _context(found[0], words), translated)


def _title(analysis: MatchAnalysis, words: _Words) -> str:
    if analysis.length:
        kind = words(N_("%(length)s-point match"), length=analysis.length)
    else:
        kind = words(N_("money session"))
    name = f" ({analysis.source})" if analysis.source else ""
    first, second = analysis.players
    return (
        words(N_("%(first)s vs %(second)s, %(kind)s"), first=first, second=second, kind=kind) + name
    )


def _totals_rows(analysis: MatchAnalysis, words: _Words) -> list[tuple[str, str, str]]:
    first, second = analysis.totals()
    rows = [
        (
            words(N_("Unforced checker plays")),
            str(first.unforced_plays),
            str(second.unforced_plays),
        ),
        (words(N_("Cube decisions")), str(first.cube_decisions), str(second.cube_decisions)),
        (
            words(N_("Equity lost, checker play")),
            f"{first.play_loss:.3f}",
            f"{second.play_loss:.3f}",
        ),
        (words(N_("Equity lost, cube")), f"{first.cube_loss:.3f}", f"{second.cube_loss:.3f}"),
        (
            words(N_("Error rate (mEMG/decision)")),
            f"{first.error_rate:.1f}",
            f"{second.error_rate:.1f}",
        ),
        (
            "  " + words(N_("checker play")),
            f"{first.play_error_rate:.1f}",
            f"{second.play_error_rate:.1f}",
        ),
        ("  " + words(N_("cube")), f"{first.cube_error_rate:.1f}", f"{second.cube_error_rate:.1f}"),
    ]
    for mark in first.marks:
        label = words(N_("Marked %(mark)s"), mark=words(mark))
        rows.append((label, str(first.marks[mark]), str(second.marks[mark])))
    return rows


def _thresholds_text(analysis: MatchAnalysis, words: _Words) -> str:
    t = analysis.thresholds
    return words(
        N_("doubtful >= %(doubtful)s, error >= %(error)s, blunder >= %(blunder)s"),
        doubtful=f"{t.doubtful:.3f}",
        error=f"{t.error:.3f}",
        blunder=f"{t.blunder:.3f}",
    )


def _engine_line(analysis: MatchAnalysis, words: _Words) -> str:
    return words(
        N_("Engine: %(engine)s; marks: %(marks)s"),
        engine=analysis.engine,
        marks=_thresholds_text(analysis, words),
    )


def _cube_equities(verdict: CubeVerdict, words: _Words) -> str:
    e = verdict.equities
    values = {
        "no_double": f"{e.no_double:+.3f}",
        "take": f"{e.double_take:+.3f}",
        "pass": f"{e.double_pass:+.3f}",
    }
    if e.double_beaver is None:
        return words(
            N_("no double %(no_double)s, double/take %(take)s, double/pass %(pass)s"), **values
        )
    return words(
        N_(
            "no double %(no_double)s, double/take %(take)s, double/pass %(pass)s,"
            " double/beaver %(beaver)s"
        ),
        beaver=f"{e.double_beaver:+.3f}",
        **values,
    )


def to_text(
    analysis: MatchAnalysis, costliest: int = COSTLIEST, language: str = DEFAULT_LANGUAGE
) -> str:
    """A printable plain-text report, in ``language`` (see the module docstring)."""
    words = _Words(language)
    players = analysis.players
    rows = _totals_rows(analysis, words)
    # 30 columns for the labels, wider where a language's labels need it (English fits in 30).
    width = max([30] + [len(label) + 1 for label, _a, _b in rows])
    lines = [
        words(N_("Analysis: %(title)s"), title=_title(analysis, words)),
        _engine_line(analysis, words),
        "",
        f"{'':{width}}{players[0]:>14}{players[1]:>14}",
    ]
    lines += [f"{label:{width}}{a:>14}{b:>14}" for label, a, b in rows]
    mistakes = analysis.mistakes(costliest)
    heading = words(N_("The decisions that cost the most")) + ":"
    lines += ["", heading if mistakes else words(N_("No equity was lost."))]
    for number, mistake in enumerate(mistakes, start=1):
        place = mistake.verdict.place
        lines += ["", f"{number}. {words.sentence(describe(mistake, players))}"]
        ids = words(
            N_("Position ID %(position_id)s, Match ID %(match_id)s; %(context)s"),
            position_id=place.position_id or "?",
            match_id=place.match_id or "?",
            context=_context(place.context_text, words),
        )
        lines.append("   " + ids)
        if isinstance(mistake.verdict, CubeVerdict):
            lines.append("   " + _cube_equities(mistake.verdict, words))
        lines.append("   " + words(N_("(%(player)s on roll, as X)"), player=players[place.player]))
        lines += ["   " + row for row in drawing.to_text(place.sides).splitlines()]
    for note in analysis.notes:
        lines.append(words(N_("Note: %(note)s"), note=_note(note, words)))
    return "\n".join(lines) + "\n"


def to_html(
    analysis: MatchAnalysis, costliest: int = COSTLIEST, language: str = DEFAULT_LANGUAGE
) -> str:
    """A self-contained printable HTML page (inline SVG boards, no scripts), in ``language``.

    A right-to-left language gets ``dir="rtl"``, and the parts kept as they are inside a
    translated line (names, move notation) are set apart with Unicode isolates, as on the panel.
    """
    words = _Words(language)
    players = analysis.players
    title = escape(words(N_("Analysis: %(title)s"), title=_title(analysis, words)))
    page_direction = ' dir="rtl"' if words.rtl else ""
    out = [
        "<!doctype html>",
        f'<html lang="{escape(language)}"{page_direction}><head><meta charset="utf-8">',
        f"<title>{title}</title>",
        "<style>body{font-family:sans-serif;max-width:60em;margin:auto}"
        "table{border-collapse:collapse}td,th{padding:.2em .8em;text-align:right}"
        "td:first-child,th:first-child{text-align:left}"
        ".mistake{page-break-inside:avoid;margin:1em 0}"
        + (
            "td,th{text-align:left}td:first-child,th:first-child{text-align:right}"
            if words.rtl
            else ""
        )
        + "</style>",
        "</head><body>",
        f"<h1>{title}</h1>",
        f"<p>{escape(_engine_line(analysis, words))}.</p>",
        f"<table><tr><th></th><th>{escape(players[0])}</th><th>{escape(players[1])}</th></tr>",
    ]
    for label, a, b in _totals_rows(analysis, words):
        out.append(f"<tr><td>{escape(label)}</td><td>{a}</td><td>{b}</td></tr>")
    out.append("</table>")
    mistakes = analysis.mistakes(costliest)
    out.append(
        f"<h2>{escape(words(N_('The decisions that cost the most')))}</h2>"
        if mistakes
        else f"<p>{escape(words(N_('No equity was lost.')))}</p>"
    )
    for mistake in mistakes:
        place = mistake.verdict.place
        line = words.sentence(describe(mistake, players), isolate=True)
        out.append('<div class="mistake">')
        out.append(f"<p><strong>{escape(line)}</strong><br>")
        ids = words.html(
            N_(
                "Position ID %(position_id)s, Match ID %(match_id)s; %(context)s;"
                " %(player)s on roll (dark)."
            ),
            position_id=f"<code>{escape(place.position_id or '?')}</code>",
            match_id=f"<code>{escape(place.match_id or '?')}</code>",
            context=escape(_context(place.context_text, words)),
            player=escape(players[place.player]),
        )
        out.append(ids + "</p>")
        out.append(drawing.to_svg(place.sides, line))
        out.append("</div>")
    for note in analysis.notes:
        note_text = words(N_("Note: %(note)s"), note=_note(note, words, isolate=True))
        out.append(f"<p>{escape(note_text)}</p>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
