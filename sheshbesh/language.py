"""The languages the panel and the referee speak, and the one place their catalogues live.

Standard library only, so the referee's side can use it too: the catalogues are ordinary gettext
ones (``sheshbesh/locale/<language>/LC_MESSAGES/messages.po``, compiled to ``.mo`` beside them by
``make catalogues``), read here with :mod:`gettext` and by the panel through Flask-Babel.

>>> direction("he"), direction("cs")
('rtl', 'ltr')
>>> translations("cs").gettext("Scoreboard")
'Výsledky'
>>> check_language("fr")
Traceback (most recent call last):
...
sheshbesh.language.LanguageError: language 'fr' is not one of en, he, ar, cs, tr, el, ru
"""

from __future__ import annotations

import gettext
from pathlib import Path
from typing import Final, Literal

from sheshbesh.errors import SheshbeshError

#: The complete languages, English (the source language) first.
LANGUAGES: Final[tuple[str, ...]] = ("en", "he", "ar", "cs", "tr", "el", "ru")
#: Each language's name as its readers write it (what the panel's switch shows).
LANGUAGE_NAMES: Final[dict[str, str]] = {
    "en": "English",
    "he": "עברית",
    "ar": "العربية",
    "cs": "Čeština",
    "tr": "Türkçe",
    "el": "Ελληνικά",
    "ru": "Русский",
}
#: Languages read right to left.
RIGHT_TO_LEFT: Final[frozenset[str]] = frozenset({"he", "ar"})
#: The folder of the catalogues, shared by the panel (Flask-Babel) and the referee (gettext).
LOCALE_DIR: Final[Path] = Path(__file__).resolve().parent / "locale"
#: The gettext domain: one catalogue per language for every text.
DOMAIN: Final = "messages"
DEFAULT_LANGUAGE: Final = "en"


class LanguageError(SheshbeshError, ValueError):
    """A language code that is not one of :data:`LANGUAGES`."""


def N_(message: str) -> str:
    """Mark ``message`` for the catalogues without translating it yet (it is translated where shown)."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular and plural pair for the catalogues, like ``ngettext`` without a count."""
    return singular, plural


class TemplatedError(Exception):
    """An error whose message is a gettext template with named values, so a page can translate it.

    Why: the hub and the table write their refusals in English (logs, the command line), but a
    director's page shows them in the director's language. The message is the template filled in
    (``str(error)`` reads as before); :func:`error_text` fills the translated template instead.
    A message with no values is kept as it is (a ``%`` in it is not a placeholder).

    >>> error = TemplatedError(N_("player %(name)s is listed twice"), name="'Ada'")
    >>> str(error), error.template, error.values
    ("player 'Ada' is listed twice", 'player %(name)s is listed twice', {'name': "'Ada'"})
    """

    def __init__(self, template: str, /, **values: object) -> None:
        self.template = template
        self.values = {name: str(value) for name, value in values.items()}
        super().__init__(template % self.values if self.values else template)


def error_text(error: BaseException, catalogue: gettext.NullTranslations) -> str:
    """``error``'s message in ``catalogue``'s language: a :class:`TemplatedError` by its template,
    any other by looking its whole message up; English where the catalogue has no translation
    (or a broken one)."""
    if not isinstance(error, TemplatedError):
        return catalogue.gettext(str(error))
    template = catalogue.gettext(error.template)
    if not error.values:
        return template
    try:
        return template % error.values
    except (KeyError, ValueError, TypeError):
        return str(error)


def check_language(code: str) -> str:
    """``code`` when it is one of :data:`LANGUAGES`; raises :class:`LanguageError` otherwise."""
    if code not in LANGUAGES:
        raise LanguageError(f"language {code!r} is not one of {', '.join(LANGUAGES)}")
    return code


def direction(language: str) -> Literal["rtl", "ltr"]:
    """``"rtl"`` for a language read right to left, ``"ltr"`` otherwise."""
    return "rtl" if language in RIGHT_TO_LEFT else "ltr"


def translations(language: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``language`` through the standard library's :mod:`gettext`.

    English (and a catalogue not compiled yet) gives the texts unchanged. Raises
    :class:`LanguageError` for a language that is not one of :data:`LANGUAGES`.
    """
    check_language(language)
    if language == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, str(LOCALE_DIR), [language], fallback=True)
