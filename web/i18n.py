"""The panel's languages: Flask-Babel over the shared catalogues, the language of each page, the switch.

Which language a page is in, first that applies:

1. the viewer's own choice on the panel's language switch (remembered in a cookie for a year);
2. the table's default, ``[panel] language`` in the config (``LANGUAGE`` in the app's settings):
   the café's language, which the TV across the room shows whatever its browser says;
3. the browser's ``Accept-Language``;
4. English.

Texts are marked with ``_()`` in templates and Python (``from flask_babel import gettext as _``);
the referee's sentences, written in English by the standard-library referee, are translated here
through :mod:`sheshbesh.phrases`.

>>> from flask import Flask
>>> app = Flask(__name__)
>>> init_app(app)
>>> with app.test_request_context(headers={"Accept-Language": "he-IL,he;q=0.9,en;q=0.5"}):
...     page_language(), page_direction()
('he', 'rtl')
"""

from __future__ import annotations

from typing import Any

import flask_babel
from flask import Blueprint, Flask, current_app, redirect, request
from flask_babel import Babel, get_locale, get_translations
from markupsafe import Markup
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response as BaseResponse

from sheshbesh.language import (
    DEFAULT_LANGUAGE,
    LANGUAGE_NAMES,
    LANGUAGES,
    LOCALE_DIR,
    N_,
    check_language,
    direction,
)
from sheshbesh.phrases import translate_sentence

__all__ = [
    "COOKIE",
    "_",
    "init_app",
    "ngettext",
    "page_direction",
    "page_language",
    "select_language",
]

#: The cookie that remembers a viewer's choice of language.
COOKIE = "sheshbesh_language"
COOKIE_SECONDS = 365 * 24 * 3600

bp = Blueprint("language", __name__)


def _(message: str, **variables: Any) -> str:
    """``message`` in the page's language, ``%(name)s`` placeholders filled from ``variables``.

    English outside a request (the helpers also serve tests and the JSON side).
    """
    return str(flask_babel.gettext(message, **variables))


def ngettext(singular: str, plural: str, count: int, **variables: Any) -> str:
    """The singular or plural form for ``count`` (``%(num)s``) in the page's language."""
    return str(flask_babel.ngettext(singular, plural, count, **variables))


def select_language() -> str:
    """The language of this request's page (see the module's precedence)."""
    chosen = request.cookies.get(COOKIE, "")
    if chosen in LANGUAGES:
        return chosen
    table_default = current_app.config.get("LANGUAGE") or ""
    if table_default in LANGUAGES:
        return str(table_default)
    return request.accept_languages.best_match(LANGUAGES) or DEFAULT_LANGUAGE


def page_language() -> str:
    """The language code for ``<html lang>``."""
    locale = get_locale()
    return locale.language if locale is not None else DEFAULT_LANGUAGE


def page_direction() -> str:
    """``rtl`` or ``ltr`` for ``<html dir>``."""
    return direction(page_language())


def referee_text(text: str) -> str:
    """One of the referee's English sentences in the page's language (unchanged if unknown)."""
    return translate_sentence(text, get_translations(), isolate=page_direction() == "rtl")


#: HTTP errors' names as the error page shows them.
ERROR_NAMES: dict[int, str] = {
    400: N_("Bad Request"),
    401: N_("Unauthorized"),
    403: N_("Forbidden"),
    404: N_("Not Found"),
    405: N_("Method Not Allowed"),
    409: N_("Conflict"),
    413: N_("Request Entity Too Large"),
    429: N_("Too Many Requests"),
    500: N_("Internal Server Error"),
}

#: Texts that reach the error page already written elsewhere (werkzeug's own descriptions, the
#: security module's refusals): looked up in the catalogue when shown (:func:`panel_text`).
SHOWN_AS_WRITTEN: tuple[str, ...] = (
    N_("The browser (or proxy) sent a request that this server could not understand."),
    N_(
        "You don't have the permission to access the requested resource. It is either "
        "read-protected or not readable by the server."
    ),
    N_(
        "The requested URL was not found on the server. If you entered the URL manually please "
        "check your spelling and try again."
    ),
    N_("The method is not allowed for the requested URL."),
    N_("The data value transmitted exceeds the capacity limit."),
    N_("This user has exceeded an allotted request count. Try again later."),
    N_(
        "The server encountered an internal error and was unable to complete your request. "
        "Either the server is overloaded or there is an error in the application."
    ),
    N_("The form's security token is missing or wrong: reload the page."),
    N_("Log in with the admin PIN first."),
)


def panel_text(text: Any) -> str:
    """A text written elsewhere in English, in the page's language when the catalogue has it."""
    return str(get_translations().gettext(str(text)))


def http_error_name(code: int, name: str) -> str:
    """An HTTP error's name ("Not Found") in the page's language."""
    return _(ERROR_NAMES[code]) if code in ERROR_NAMES else name


def room_cube_words(table: Any) -> str:
    """A room table's cube in words ("centred", "2, Ada's") in the page's language."""
    cube = table.get("cube") or {}
    value = int(cube.get("value") or 1)
    owner = cube.get("owner")
    players = table.get("players") or ["", ""]
    if owner in (0, 1) and not isinstance(owner, bool):
        name = players[owner] or (_("White") if owner == 0 else _("Black"))
        return _("%(value)s, %(player)s's", value=value, player=name)
    return _("centred") if value == 1 else _("%(value)s, centred", value=value)


def _safe_target(target: str) -> str:
    """A path on this site to go back to; anything else (another site, a scheme) is the home page."""
    if not target.startswith("/") or target.startswith(("//", "/\\")):
        return "/"
    return target


@bp.get("/language/<code>")
def choose(code: str) -> BaseResponse:
    """Remember the viewer's language in a cookie and go back to the page they came from."""
    if code not in LANGUAGES:
        raise NotFound(
            description=_(
                "no language %(code)s; the panel speaks %(languages)s",
                code=repr(code),
                languages=", ".join(LANGUAGES),
            )
        )
    response = redirect(_safe_target(request.args.get("next", "")))
    response.set_cookie(
        COOKIE,
        check_language(code),
        max_age=COOKIE_SECONDS,
        samesite="Lax",
        httponly=True,
        secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
    )
    return response


def init_app(app: Flask) -> None:
    """Install Flask-Babel on ``app`` with the shared catalogues, the switch and template helpers.

    Raises :class:`sheshbesh.language.LanguageError` for a ``LANGUAGE`` setting that is not one
    of the panel's languages.
    """
    table_default = app.config.get("LANGUAGE") or ""
    if table_default:
        check_language(str(table_default))
    Babel(
        app,
        default_locale=DEFAULT_LANGUAGE,
        default_translation_directories=str(LOCALE_DIR),
        locale_selector=select_language,
    )
    app.register_blueprint(bp)
    app.jinja_env.globals.update(
        page_language=page_language,
        page_direction=page_direction,
        referee_text=referee_text,
        panel_text=panel_text,
        http_error_name=http_error_name,
        room_cube_words=room_cube_words,
        Markup=Markup,
        languages=LANGUAGES,
        language_names=LANGUAGE_NAMES,
    )
