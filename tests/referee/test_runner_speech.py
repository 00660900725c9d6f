"""What the runner's ``speak`` hears: the referee's sentences in the table's language.

A whole real match (a shared .mat file, with noise) goes through the real referee twice, once by
an English runner and once by a runner in each complete language. The spoken sentences must be
the translations of the English ones, in the language's script, while the record and the panel's
snapshots stay exactly as the English runner wrote them.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from referee_testkit import load_match, match_inputs, match_paths, observe

from controller.record.store import Record
from controller.referee import ButtonPressed, Input, MatchSettings, NewMatch, ObservationSeen
from controller.rules import Position
from controller.table.runner import Runner
from sheshbesh.language import LANGUAGES, LanguageError, translations
from sheshbesh.phrases import translate_sentence

#: Letters that show a sentence is in the language's own script.
SCRIPT = {
    "he": re.compile(r"[\u0590-\u05FF]"),
    "ar": re.compile(r"[\u0600-\u06FF]"),
    "el": re.compile(r"[\u0370-\u03FF]"),
    "ru": re.compile(r"[\u0400-\u04FF]"),
}


class Panel:
    """Keeps the snapshots the runner publishes."""

    def __init__(self) -> None:
        self.snapshots: list[Any] = []

    def publish(self, state: Any) -> int:
        self.snapshots.append(state)
        return 1


def _heard(inputs: list[Input], language: str) -> tuple[list[str], list[Any], list[Any]]:
    """What a runner in ``language`` speaks for ``inputs``, with what it records and publishes."""
    spoken: list[str] = []
    panel = Panel()
    with Record(":memory:") as record:
        runner = Runner.resume(
            record, clock=lambda: 0.0, panels=[panel], speak=spoken.append, language=language
        )
        events = [(event.type, event.to_json()) for event in runner.feed_all(inputs)]
    return spoken, events, panel.snapshots


@pytest.fixture(scope="module")
def inputs() -> list[Input]:
    paths = match_paths()
    if not paths:
        pytest.skip("the shared .mat matches are not present")
    match = load_match(paths[0].name)
    played = list(match_inputs(match, one_at_a_time=0.5, with_noise=True, seed=5))
    # Then a money session where every button is pressed when it means nothing: refusals.
    buttons = ["take", "pass", "accept", "reject", "undo", "resign", "done"]
    return [
        *played,
        NewMatch(MatchSettings(("Ada", "Boris"), length=0, beavers=True, jacoby=False)),
        ObservationSeen(observe(Position.initial())),
        *(ButtonPressed(name) for name in buttons),
    ]


@pytest.fixture(scope="module")
def english(inputs: list[Input]) -> tuple[list[str], list[Any], list[Any]]:
    return _heard(inputs, "")


def test_with_no_language_the_runner_speaks_the_referee_s_english(
    inputs: list[Input], english: tuple[list[str], list[Any], list[Any]]
) -> None:
    spoken, events, _ = english
    assert len(spoken) > 10
    assert any(re.search(r"\bwins \d+ points?\b", text) for text in spoken), spoken
    assert "There is no double to take" in spoken
    assert len(events) > 50
    assert _heard(inputs, "en")[0] == spoken


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_the_runner_speaks_the_table_s_language_and_records_english(
    inputs: list[Input], english: tuple[list[str], list[Any], list[Any]], language: str
) -> None:
    english_spoken, english_events, english_snapshots = english
    spoken, events, snapshots = _heard(inputs, language)
    catalogue = translations(language)
    assert spoken == [translate_sentence(text, catalogue) for text in english_spoken]
    for text, translated in zip(english_spoken, spoken, strict=True):
        assert translated != text, (language, text)
        if language in SCRIPT:
            assert SCRIPT[language].search(translated), (language, translated)
    # Only what is spoken changes: the record and the panel's snapshots are the English runner's.
    assert events == english_events
    assert snapshots == english_snapshots
    if language == "he":
        won = [text for text in spoken if "מנצח" in text]
        assert won, spoken


def test_an_unknown_language_is_refused_by_name() -> None:
    with Record(":memory:") as record, pytest.raises(LanguageError, match="'fr'"):
        Runner.resume(record, clock=lambda: 0.0, speak=print, language="fr")
