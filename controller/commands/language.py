"""Which of the command line's texts speak the players' language, and which language that is.

The rule, by who reads a text:

- **Players' texts are translated**: what a command prints *about the game* for a person to read,
  the results of ``sheshbesh replay FILE.mat`` (the match, each game's winner, the final score)
  and the legal plays that ``sheshbesh legal POSITION DICE`` lists.
- **The operator's texts stay English**: errors about the command's own input (a bad image, bad
  corners, an unknown option value, a file that cannot be read, a port in use, a bad config),
  progress lines (``sheshbesh run``'s one line a move, the demo's "playing the director's
  assignment"), and the ``label: value`` lines scripts read (``panel: URL``, ``record: PATH``).
  Who sees them is whoever set the table up and who may search for the words, and the tests and
  tools around the project match them.
- **What tools read is never translated**: every JSON line (``demo``, ``read``, ``replay
  --json``), ``legal --batch``'s lines (its ``error:`` lines too), and log lines. These are
  contracts (``/work/shared/design.md``), byte-identical in every language.

The language, first that applies: the standard gettext environment in gettext's own order (the
first of ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set; ``LANGUAGE`` may list
several, ``he:cs``), then a config's ``[panel] language`` for a command given one, then English.
As in gettext, only the first variable that is set is read. When it names no language the project
speaks (``C``, ``POSIX``, ``fr_FR``) the config's language or English follows, never an error: a
shell's locale is not the command's input. The commands that print players' texts
(``replay``, ``legal``) take no config file, so for them it is the environment or English.

>>> players_language({"LANG": "he_IL.UTF-8"})
'he'
>>> players_language({"LANGUAGE": "fr:cs", "LANG": "he_IL.UTF-8"})
'cs'
>>> players_language({"LC_ALL": "C.UTF-8", "LANG": "he_IL.UTF-8"})
'en'
>>> players_language({"LANG": "C.UTF-8"}, configured="ar")
'ar'
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from typing import Any, Final

from sheshbesh.language import DEFAULT_LANGUAGE, LANGUAGES, translations

#: gettext's order: the first of these that is set (not empty) decides.
ENVIRONMENT: Final = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def _code(entry: str) -> str:
    """``he_IL.UTF-8@euro`` -> ``he``; ``C`` and ``POSIX`` (no language) -> ``""``."""
    base = entry.split(".", 1)[0].split("@", 1)[0]
    if base in ("C", "POSIX"):
        return ""
    return base.split("_", 1)[0].split("-", 1)[0].lower()


def players_language(environ: Mapping[str, str] | None = None, configured: str = "") -> str:
    """The language of the players' texts (see the module's rule)."""
    environ = os.environ if environ is None else environ
    for name in ENVIRONMENT:
        value = environ.get(name, "")
        if not value:
            continue
        for entry in value.split(":") if name == "LANGUAGE" else [value]:
            code = _code(entry.strip())
            if code in LANGUAGES:
                return code
        break
    if configured in LANGUAGES:
        return configured
    return DEFAULT_LANGUAGE


class PlayersText:
    """The players' texts of one command run, in :func:`players_language`'s language.

    The texts are marked where written with :func:`sheshbesh.language.N_` and ``NP_``, so that
    ``make messages`` finds them: ``text(N_("Final score: ..."), ...)``.
    """

    def __init__(self, language: str | None = None) -> None:
        self.language = players_language() if language is None else language
        self.catalogue: gettext.NullTranslations = translations(self.language)

    def __call__(self, message: str, **values: Any) -> str:
        """``message`` translated, its ``%(name)s`` placeholders filled from ``values``."""
        return self._fill(self.catalogue.gettext(message), message, values)

    def plural(self, forms: tuple[str, str], count: int, **values: Any) -> str:
        """The form for ``count`` (given to the message as ``%(num)s``) of ``forms``, the
        English singular and plural (marked with :func:`sheshbesh.language.NP_`)."""
        singular, plural = forms
        values = {"num": count, **values}
        english = singular if count == 1 else plural
        return self._fill(self.catalogue.ngettext(singular, plural, count), english, values)

    @staticmethod
    def _fill(template: str, english: str, values: Mapping[str, Any]) -> str:
        try:
            return template % values if values else template
        except (KeyError, ValueError, TypeError):  # a broken translation: the English one
            return english % values
