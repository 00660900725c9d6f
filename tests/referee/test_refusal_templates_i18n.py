"""The referee's last untranslated refusals (a take-back to an event it cannot go back to, a
``match_started`` it cannot read) have templates, and read in every language with their values
kept as they are. The refusals are produced by the real referee and settings code."""

from __future__ import annotations

import pytest
from referee_testkit import load_match, match_inputs, run

from controller.referee import Referee
from controller.referee.messages import TakeBack
from sheshbesh.language import LANGUAGES, translations
from sheshbesh.match import MatchSettings
from sheshbesh.phrases import find_phrase, translate_sentence


def _refused(action: object) -> str:
    with pytest.raises(ValueError) as raised:
        action()  # type: ignore[operator]
    return str(raised.value)


@pytest.fixture(scope="module")
def refusals() -> dict[str, str]:
    finished = Referee()
    events = run(finished, match_inputs(load_match("gnubg-selfplay-1pt-seed11.mat")))
    last_won = [event for event in events if event.type == "game_won"][-1]
    return {
        "not in this game": _refused(lambda: Referee().handle(TakeBack(5))),
        "game over there": _refused(lambda: finished.handle(TakeBack(last_won.sequence))),
        "malformed": _refused(lambda: MatchSettings.from_data({"players": "x", "length": "seven"})),
    }


def test_each_refusal_fits_its_template(refusals: dict[str, str]) -> None:
    templates = {key: find_phrase(text) for key, text in refusals.items()}
    assert {key: None if p is None else p.singular for key, p in templates.items()} == {
        "not in this game": (
            "cannot undo to event %(event)s: it is not in the current game (events %(known)s)"
        ),
        "game over there": "cannot undo to event %(event)s: the game was already over there",
        "malformed": "malformed match_started data %(data)s: %(error)s",
    }


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_each_refusal_reads_in_the_language_with_its_values_kept(
    refusals: dict[str, str], language: str
) -> None:
    catalogue = translations(language)
    for key, english in refusals.items():
        phrase = find_phrase(english)
        assert phrase is not None
        shown = translate_sentence(english, catalogue)
        assert shown != english, f"{key} is English in {language}"
        assert shown.split(" ", 1)[0] != english.split(" ", 1)[0]
        parts = phrase.match(english)
        assert parts is not None
        assert shown == catalogue.gettext(phrase.singular) % parts
        for value in parts.values():
            assert value in shown
    assert "en" in LANGUAGES
    english = translations("en")
    for text in refusals.values():
        assert translate_sentence(text, english) == text
