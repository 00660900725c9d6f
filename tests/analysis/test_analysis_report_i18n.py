"""The analysis reports in the players' language: text and HTML translated, JSON never.

The English reports are compared byte for byte with golden files written by the report module as
it was before it spoke other languages (same fake engine, same match), so English readers and the
tools around the text see no change. The command line is run as a real process with each
language's environment; it needs the analysis engine (bgsage) and skips without it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from analysis_fakes import MATCHES, FakeAnalyser

from controller.analysis import report
from controller.analysis.match import MatchAnalysis, analyse_turns
from controller.analysis.source import turns_from_mat_text
from controller.analysis.verdicts import CubeVerdict, PlayVerdict
from controller.commands.language import ENVIRONMENT
from sheshbesh.language import translations

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden"
SEVEN = "gnubg-selfplay-7pt-seed4242.mat"
ONE = MATCHES / "gnubg-selfplay-1pt-seed11.mat"
TRANSLATED = ("he", "ar", "cs", "tr", "el", "ru")
NOTE = "game 3, move 4: a double the engine cannot judge (3-away/2-away, Crawford, cube 1 centred)"

#: English words of the reports that must not be left in a translated one (IDs taken out first;
#: "Crawford" and "Jacoby" are names some catalogues keep, checked through the catalogue instead).
ENGLISH = re.compile(
    r"Analysis|Engine|marks:|doubtful|blunder|Unforced|Cube decisions|Equity lost|Error rate"
    r"|checker play|Marked|decisions that cost|Position ID|Match ID|on roll|no double"
    r"|double/|played|best|proper|-away|cube|centred|opponent|point match|Note:"
    r"|\bvs\b|\bgame\b|\bmove\b"
)


@cache
def _analysis() -> MatchAnalysis:
    """A whole 7-point match judged by the fake engine: plays, doubles and answers, a note."""
    source = turns_from_mat_text((MATCHES / SEVEN).read_text(), SEVEN)
    analysis = analyse_turns(
        FakeAnalyser(), source.turns, source.players, source.length, source=source.name
    )
    analysis.notes.append(NOTE)
    return analysis


def _without_ids(text: str, analysis: MatchAnalysis, costliest: int) -> str:
    for mistake in analysis.mistakes(costliest):
        place = mistake.verdict.place
        text = text.replace(place.position_id, "").replace(place.match_id, "")
    return text


def test_english_reports_are_byte_identical_to_before() -> None:
    analysis = _analysis()
    assert report.to_text(analysis, 30) == (GOLDEN / "report-en-7pt-fake.txt").read_text()
    assert report.to_html(analysis, 30) == (GOLDEN / "report-en-7pt-fake.html").read_text()
    assert report.to_text(analysis, 30, "en") == report.to_text(analysis, 30)


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_text_report_is_translated_and_keeps_ids_notation_and_numbers(language: str) -> None:
    analysis = _analysis()
    catalogue = translations(language)
    text = report.to_text(analysis, 30, language)
    english = report.to_text(analysis, 30)
    assert text != english
    left = ENGLISH.findall(_without_ids(text, analysis, 30))
    assert not left, f"English left in the {language} report: {sorted(set(left))}"
    first_line = catalogue.gettext("Analysis: %(title)s").split("%(title)s")[0]
    assert text.startswith(first_line) and "Alice" in text.splitlines()[0]
    assert catalogue.gettext("Unforced checker plays") in text
    totals = analysis.totals()
    for value in (f"{totals[0].play_loss:.3f}", f"{totals[1].error_rate:.1f}", "0.040", "0.160"):
        assert value in text
    mistakes = analysis.mistakes(30)
    for mistake in mistakes:
        place = mistake.verdict.place
        assert place.position_id in text and place.match_id in text
        if isinstance(mistake.verdict, PlayVerdict):
            assert mistake.verdict.best in text
            assert f"-{mistake.loss:.3f}" in text
    cube = [m.verdict for m in mistakes if isinstance(m.verdict, CubeVerdict)]
    assert cube and f"{cube[0].equities.double_take:+.3f}" in text
    note = catalogue.gettext("Note: %(note)s").split("%(note)s")[0]
    crawford = catalogue.gettext("Crawford")
    assert [line for line in text.splitlines() if line.startswith(note) and crawford in line]
    # the same boards, line for line, and as many report lines as in English
    assert text.count("+13-14-15-16-17-18") == english.count("+13-14-15-16-17-18") == 30
    assert len(text.splitlines()) == len(english.splitlines())


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_html_report_is_translated_and_right_to_left_where_the_language_is(
    language: str,
) -> None:
    analysis = _analysis()
    page = report.to_html(analysis, 4, language)
    rtl = language in ("he", "ar")
    expected = f'<html lang="{language}"' + (' dir="rtl"' if rtl else "") + "><head>"
    assert expected in page
    body = re.sub(r"<[^>]*>", " ", page.split("</head>", 1)[1])
    left = ENGLISH.findall(_without_ids(body, analysis, 4))
    assert not left, f"English left in the {language} page: {sorted(set(left))}"
    assert page.count("<svg") == 4
    heading = translations(language).gettext("The decisions that cost the most")
    assert f"<h2>{heading}</h2>" in page


def test_the_match_state_is_translated_in_each_of_its_forms() -> None:
    words = report._Words("cs")
    assert report._context("money (Jacoby, beavers), cube 1 centred", words) == (
        "o peníze (Jacoby, bobr), kostka 1 uprostřed"
    )
    assert report._context("3-away/2-away, post-Crawford, cube 2 opponent's", words) == (
        "chybí 3/chybí 2, po Crawfordovi, kostka 2 u soupeře"
    )
    english = report._Words("en")
    for text in ("money, cube 4 own", "5-away/1-away, Crawford, cube 1 centred", "odd text"):
        assert report._context(text, english) == text
    assert report._context("odd text", words) == "odd text"


def _run(language: dict[str, str], *arguments: str) -> str:
    """``sheshbesh analyse`` on the 1-point match as a real process, in ``language``'s environment."""
    pytest.importorskip("bgsage", reason="the analysis extra (bgsage) is not installed")
    env = {key: value for key, value in os.environ.items() if key not in ENVIRONMENT}
    env.update(language)
    command = [sys.executable, "-m", "controller.cli", "analyse", str(ONE), "-q", *arguments]
    result = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_command_line_report_follows_the_players_language() -> None:
    english = _run({})
    assert english.startswith(
        "Analysis: Alice vs Bob, 1-point match (gnubg-selfplay-1pt-seed11.mat)"
    )
    # a shell's locale that names no language of the project's is English, not an error
    assert _run({"LANG": "C.UTF-8"}) == english
    assert _run({"LANGUAGE": "fr", "LANG": "fr_FR.UTF-8"}) == english
    data = json.loads(_run({}, "--format", "json"))
    for environment, language in (
        ({"LANG": "cs_CZ.UTF-8"}, "cs"),
        ({"LANGUAGE": "fr:he"}, "he"),
        ({"LC_ALL": "ru_RU.UTF-8", "LANG": "cs_CZ.UTF-8"}, "ru"),
    ):
        text = _run(environment)
        catalogue = translations(language)
        assert text.splitlines()[0].startswith(catalogue.gettext("Analysis: %(title)s")[:4])
        assert catalogue.gettext("Cube decisions") in text
        assert len(text.splitlines()) == len(english.splitlines())
        for costly in data["costliest"]:
            assert costly["position_id"] in text and costly["match_id"] in text
            text = text.replace(costly["position_id"], "").replace(costly["match_id"], "")
        left = ENGLISH.findall(text)
        assert not left, f"English left in the {language} report: {sorted(set(left))}"


def test_the_json_report_is_never_translated() -> None:
    english = _run({}, "--format", "json")
    assert _run({"LANG": "cs_CZ.UTF-8"}, "--format", "json") == english
    assert _run({"LANGUAGE": "he"}, "--format", "json") == english
    assert json.loads(english)["costliest"][0]["text"].startswith("Alice, game 1, move ")


def test_the_command_line_html_report_is_right_to_left_in_arabic(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    assert _run({"LANG": "ar_EG.UTF-8"}, "--format", "html", "-o", str(out)) == ""
    page = out.read_text(encoding="utf-8")
    assert page.startswith('<!doctype html>\n<html lang="ar" dir="rtl">')
    assert translations("ar").gettext("Position ID") in page
