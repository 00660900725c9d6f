"""The command line's players' texts in the players' language, through a real ``sheshbesh``
process: what ``replay`` and ``legal`` print for a person is translated, what tools read (JSON,
``legal --batch``) and the operator's errors stay byte-for-byte English."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from controller.commands.language import ENVIRONMENT, PlayersText, players_language
from sheshbesh.language import LANGUAGES, translations
from tests.shared_data import MATCHES_DIR

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [language for language in LANGUAGES if language != "en"]
POSITION = "4HPwATDgc/ABMA"  # the starting position
#: The English words of the players' texts; none may be left in a translation.
ENGLISH = re.compile(
    r"\b(Game|wins|points?|Final|score|match|money|session|roll|distinct|results|legal|move|"
    r"turn|passes|or)\b"
)


def _match_file() -> Path:
    files = sorted(MATCHES_DIR.glob("*pt-*.mat"))
    if not files:
        pytest.skip("the shared .mat matches are not present")
    return files[-1]  # a 7 point match: several games, gammons, the match's end


def sheshbesh(
    *arguments: str, language: str | None, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """``sheshbesh ARGUMENTS`` with only ``LANGUAGE`` set of the locale variables (or none)."""
    environ = {name: value for name, value in os.environ.items() if name not in ENVIRONMENT}
    if language is not None:
        environ["LANGUAGE"] = language
    return subprocess.run(
        [sys.executable, "-m", "controller.cli", *arguments],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=environ,
        timeout=300,
        check=False,
    )


@pytest.fixture(scope="module")
def english_replay() -> list[str]:
    result = sheshbesh("replay", "--rules-only", str(_match_file()), language=None)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_the_language_follows_gettext_s_environment_then_the_config() -> None:
    assert players_language({}) == "en"
    assert players_language({"LANG": "cs_CZ.UTF-8"}) == "cs"
    assert players_language({"LC_MESSAGES": "ar_EG.UTF-8", "LANG": "cs_CZ.UTF-8"}) == "ar"
    assert players_language({"LC_ALL": "he_IL.UTF-8", "LC_MESSAGES": "ar_EG"}) == "he"
    assert players_language({"LANGUAGE": "fr:de:he", "LC_ALL": "cs_CZ.UTF-8"}) == "he"
    # the first variable that is set decides, as in gettext: no falling through to LANG
    assert players_language({"LC_ALL": "fr_FR.UTF-8", "LANG": "he_IL.UTF-8"}) == "en"
    assert players_language({"LC_ALL": "POSIX", "LANG": "he_IL.UTF-8"}) == "en"
    assert players_language({"LANGUAGE": "", "LANG": "ar"}) == "ar"
    # a config's [panel] language when the environment names none the project speaks
    assert players_language({"LANG": "C.UTF-8"}, configured="cs") == "cs"
    assert players_language({"LANG": "fr_FR"}, configured="cs") == "cs"
    assert players_language({"LANG": "he_IL.UTF-8"}, configured="cs") == "he"
    assert players_language({}, configured="cs") == "cs"
    assert players_language({}, configured="xx") == "en"


@pytest.mark.parametrize("language", TRANSLATED)
def test_replay_prints_the_results_in_the_players_language(
    english_replay: list[str], language: str
) -> None:
    result = sheshbesh("replay", "--rules-only", str(_match_file()), language=language)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == len(english_replay) > 3
    for line, english in zip(lines, english_replay, strict=True):
        assert line != english
        assert ENGLISH.findall(line) == [], line
        # the names and the numbers are the same in every language ("one point" may be a word)
        assert set(re.findall(r"\d+", line)) <= set(re.findall(r"\d+", english)), line
        assert set(re.findall(r"Alice|Bob", line)) == set(re.findall(r"Alice|Bob", english))
    catalogue = translations(language)
    first, second = english_replay[0].split(", ")[0].split(" - ")
    length = int(re.findall(r"\d+", english_replay[0].split(", ")[-1])[0])
    heading = catalogue.ngettext(
        "%(first)s - %(second)s, %(num)s point match",
        "%(first)s - %(second)s, %(num)s point match",
        length,
    ) % {"first": first, "second": second, "num": length}
    assert lines[0] == heading


def test_replay_s_text_stays_english_without_a_language(english_replay: list[str]) -> None:
    assert re.fullmatch(r".+ - .+, \d+ point match", english_replay[0])
    assert all(line.startswith("Game ") for line in english_replay[1:-1])
    assert english_replay[-1].startswith("Final score: ")
    assert english_replay[-1].endswith(" wins the match)")


@pytest.mark.parametrize("language", ["he", "cs"])
def test_the_json_lines_are_byte_identical_in_every_language(language: str) -> None:
    arguments = ("replay", "--json", "--rules-only", str(_match_file()))
    english = sheshbesh(*arguments, language=None)
    translated = sheshbesh(*arguments, language=language)
    assert english.returncode == translated.returncode == 0
    assert translated.stdout == english.stdout
    assert english.stdout.count("\n") > 20


@pytest.mark.parametrize("language", TRANSLATED)
def test_legal_lists_the_plays_in_the_players_language(language: str) -> None:
    english = sheshbesh("legal", POSITION, "31", language=None)
    translated = sheshbesh("legal", POSITION, "31", language=language)
    assert english.returncode == translated.returncode == 0
    english_lines = english.stdout.splitlines()
    lines = translated.stdout.splitlines()
    assert english_lines[0] == f"{POSITION} to roll 3-1: 16 distinct results"
    text = PlayersText(language)
    assert lines[0] == text.plural(
        ("%(position)s to roll %(dice)s: %(num)s distinct results",) * 2,
        16,
        position=POSITION,
        dice="3-1",
    )
    assert ENGLISH.findall(lines[0]) == [], lines[0]
    # each result's plays: the notation and the Position IDs as they are
    assert lines[1:] == english_lines[1:]


def test_plays_reaching_one_result_are_joined_in_the_language() -> None:
    from controller.commands.legal import _either
    from controller.rules import Play, Position

    start = Position.initial()
    plays = (Play.from_notation("8/5 6/5", start, "31"), Play.from_notation("6/5 8/5", start, "31"))
    assert _either(plays, PlayersText("en")) == f"{plays[0]} or {plays[1]}"
    assert _either(plays, PlayersText("cs")) == f"{plays[0]} nebo {plays[1]}"
    assert _either(plays[:1], PlayersText("he")) == str(plays[0])


def _side(**points: int) -> list[int]:
    counts = [0] * 25
    for name, count in points.items():
        counts[24 if name == "bar" else int(name[1:]) - 1] = count
    return counts


def test_legal_with_no_play_says_so_in_the_language() -> None:
    from controller.rules import Position

    # two checkers on the bar against a closed board: the turn passes
    closed = Position(
        _side(bar=2, p6=13), _side(p1=2, p2=2, p3=2, p4=2, p5=2, p6=2, p13=3)
    ).to_position_id()
    english = sheshbesh("legal", closed, "64", language=None)
    assert english.stdout.splitlines()[1] == "  no legal move: the turn passes"
    czech = sheshbesh("legal", closed, "64", language="cs")
    assert czech.stdout.splitlines()[1] == "  " + translations("cs").gettext(
        "no legal move: the turn passes"
    )
    assert czech.stdout.splitlines()[1] != english.stdout.splitlines()[1]


@pytest.mark.parametrize("language", ["he", "ar"])
def test_what_tools_and_operators_read_stays_english(language: str) -> None:
    batch = "4HPwATDgc/ABMA 31\nnonsense\n"
    english = sheshbesh("legal", "--batch", language=None, stdin=batch)
    translated = sheshbesh("legal", "--batch", language=language, stdin=batch)
    assert translated.stdout == english.stdout
    assert translated.stdout.splitlines()[1].startswith("error: ")
    missing = sheshbesh("replay", "no-such-file.mat", language=language)
    assert missing.returncode == 1
    assert missing.stderr.startswith("sheshbesh replay: cannot read 'no-such-file.mat'")
    bad = sheshbesh("legal", "nonsense", "31", language=language)
    assert bad.returncode == 1 and bad.stderr.startswith("error: ")


def test_a_language_the_project_does_not_speak_gives_english(english_replay: list[str]) -> None:
    result = sheshbesh("replay", "--rules-only", str(_match_file()), language="fr")
    assert result.stdout.splitlines() == english_replay
