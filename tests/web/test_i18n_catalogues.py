"""The catalogues themselves: every text translated in each complete language, no guesses left,
placeholders kept, and the committed .mo files the same as compiling the .po files now."""

from __future__ import annotations

import gettext
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

from sheshbesh.language import DOMAIN, LANGUAGES, LOCALE_DIR, translations
from sheshbesh.phrases import PHRASES, placeholders

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [language for language in LANGUAGES if language != "en"]
KEYWORDS = ("-k", "N_", "-k", "NP_:1,2")  # as `make messages`
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def _po(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def _catalogue(language: str):
    with _po(language).open("rb") as handle:
        return read_po(handle, locale=language)


def _template():
    with (LOCALE_DIR / "messages.pot").open("rb") as handle:
        return read_po(handle)


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_has_a_translation_and_none_is_a_guess(language: str) -> None:
    catalogue = _catalogue(language)
    untranslated, fuzzy = [], []
    for message in catalogue:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings) or len(strings) != (
            catalogue.num_plurals if message.pluralizable else 1
        ):
            untranslated.append(message.id)
        if message.fuzzy:
            fuzzy.append(message.id)
    assert untranslated == [], f"{language}: untranslated"
    assert fuzzy == [], f"{language}: marked fuzzy (a guess, never shown)"
    assert len(catalogue) > 300


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_catalogue_holds_exactly_the_template_s_messages(language: str) -> None:
    wanted = {message.id for message in _template() if message.id}
    held = {message.id for message in _catalogue(language) if message.id}
    assert held == wanted, "run `make messages` and translate what it adds"


@pytest.mark.parametrize("language", TRANSLATED)
def test_placeholders_match_between_message_and_translation(language: str) -> None:
    wrong = []
    for message in _catalogue(language):
        if not message.id:
            continue
        if message.pluralizable:
            names = set(PLACEHOLDER.findall(message.id[0])) | set(
                PLACEHOLDER.findall(message.id[1])
            )
            for form in message.string:
                # A plural form may leave the count out ("one point"), never add a name.
                if not set(PLACEHOLDER.findall(form)) <= names:
                    wrong.append((message.id, form))
        elif sorted(set(PLACEHOLDER.findall(message.id))) != sorted(
            set(PLACEHOLDER.findall(message.string))
        ):
            wrong.append((message.id, message.string))
        elif message.string.count("%") - message.string.count("%%") * 2 != len(
            PLACEHOLDER.findall(message.string)
        ):
            wrong.append((message.id, message.string))  # a stray % would break formatting
    assert wrong == []


def _frozen(value: object) -> object:
    return tuple(value) if isinstance(value, (list, tuple)) else value


def _messages(catalogue) -> dict[object, object]:
    return {_frozen(m.id): _frozen(m.string) for m in catalogue if m.id}


@pytest.mark.parametrize("language", TRANSLATED)
def test_committed_mo_is_the_po_compiled_now(language: str) -> None:
    compiled = io.BytesIO()
    write_mo(compiled, _catalogue(language))
    with (LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as handle:
        committed = read_mo(handle)
    fresh = read_mo(io.BytesIO(compiled.getvalue()))
    assert _messages(committed) == _messages(fresh), "run `make catalogues`"


def test_make_catalogues_compiles_every_language(tmp_path: Path) -> None:
    pybabel = Path(sys.executable).with_name("pybabel")
    if not pybabel.exists():
        pytest.skip(f"no pybabel beside {sys.executable}")
    for language in TRANSLATED:
        target = tmp_path / language / "LC_MESSAGES"
        target.mkdir(parents=True)
        target.joinpath(f"{DOMAIN}.po").write_bytes(_po(language).read_bytes())
    result = subprocess.run(
        [str(pybabel), "compile", "-d", str(tmp_path), "-D", DOMAIN, "--statistics"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    for language in TRANSLATED:
        with (tmp_path / language / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as handle:
            assert gettext.GNUTranslations(handle).gettext("Scoreboard") != "Scoreboard"
    assert "100%" in result.stderr or "translated" in result.stderr


def test_the_template_holds_every_referee_phrase() -> None:
    ids = {message.id for message in _template() if message.id}
    for phrase in PHRASES:
        wanted = phrase.singular if phrase.plural is None else (phrase.singular, phrase.plural)
        assert wanted in ids, f"{phrase.singular!r} is missing: run `make messages`"


def test_the_template_is_what_extraction_finds_in_the_sources_today(tmp_path: Path) -> None:
    pybabel = Path(sys.executable).with_name("pybabel")
    if not pybabel.exists():
        pytest.skip(f"no pybabel beside {sys.executable}")
    out = tmp_path / "now.pot"
    subprocess.run(
        [str(pybabel), "-q", "extract", "-F", "babel.cfg", *KEYWORDS, "-o", str(out), "."],
        cwd=ROOT,
        check=True,
    )
    with out.open("rb") as handle:
        found = {message.id for message in read_po(handle) if message.id}
    held = {message.id for message in _template() if message.id}
    assert len(found) > 300
    assert found - held == set(), "texts marked in the sources but not in the catalogues"


def test_placeholders_of_phrases_are_named_and_known() -> None:
    for phrase in PHRASES:
        assert "%s" not in phrase.singular and "{" not in phrase.singular
        if phrase.count is not None:
            assert phrase.count in placeholders(phrase.singular)


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_standard_library_reads_the_same_catalogues(language: str) -> None:
    catalogue = translations(language)
    assert isinstance(catalogue, gettext.GNUTranslations)
    assert catalogue.gettext("a checker on the bar must enter first") != (
        "a checker on the bar must enter first"
    )


def test_the_catalogues_are_shipped_with_the_package() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"locale/*/LC_MESSAGES/*.mo"' in pyproject
    for language in TRANSLATED:
        assert (LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file()
