"""Refusals that name a value or a limit, in the viewer's language with no English left.

The panel's admin is refused by the referee or the calibration ("Refused: ..."): the messages,
produced here by the real code, are matched to their templates (:mod:`sheshbesh.phrases`) and
translated. (The room director's refusals by the hub, raised as templates with named values
(:class:`sheshbesh.language.TemplatedError`), are tested in ``test_i18n_room.py`` over its
mirror of real matches, with :func:`english_left` and :func:`latin_left` from here.)
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import numpy as np
import pytest
from flask.testing import FlaskClient

from sheshbesh.language import LANGUAGES, TemplatedError, error_text, translations
from sheshbesh.phrases import find_phrase, translate_sentence
from web.fakes import FakeControls

TRANSLATED = [language for language in LANGUAGES if language != "en"]
RIGHT_TO_LEFT = {"he", "ar"}
_PLACEHOLDER = re.compile(r"%\(\w+\)s")
_WORD = re.compile(r"[^\W\d_]{3,}")


def english_left(template: str, shown: str, values: list[str]) -> set[str]:
    """The English template's own words (3 letters or more) still in ``shown``, once the values
    put into it (names, numbers, form values) are taken out."""
    for value in sorted(values, key=len, reverse=True):
        shown = shown.replace(value, " ")
    words = set(_WORD.findall(_PLACEHOLDER.sub(" ", template)))
    return words & set(_WORD.findall(shown))


def latin_left(shown: str, values: list[str]) -> list[str]:
    """Latin words in a right-to-left translation once the values are taken out."""
    for value in sorted(values, key=len, reverse=True):
        shown = shown.replace(value, " ")
    return re.findall(r"[A-Za-z]{2,}", shown)


def test_a_templated_error_reads_the_same_in_english_and_survives_a_broken_translation() -> None:
    error = TemplatedError("player %(name)s is listed twice", name="'Ada'")
    assert str(error) == "player 'Ada' is listed twice"

    class Broken:
        def gettext(self, message: str) -> str:
            return "%(nobody)s"

    assert error_text(error, cast(Any, Broken())) == "player 'Ada' is listed twice"


# -- the panel's admin: "Refused: ..." ---------------------------------------------------------


def _referee_refusals() -> list[str]:
    """Refusals the referee and the calibration give, produced by the real code."""
    from controller.referee import MatchSettings, Referee, Resign
    from controller.referee.clock import PauseClock
    from controller.sim.stage import DemoControls
    from controller.table.controls import LiveControls
    from vision.field_board import calibrate_field

    messages: list[str] = []

    def refused(action: Any) -> None:
        with pytest.raises(ValueError) as raised:
            action()
        messages.append(str(raised.value))

    refused(lambda: MatchSettings(("Ada",), length=5))  # type: ignore[arg-type]
    refused(lambda: MatchSettings(("Ada", "Bo"), length=-1))
    refused(lambda: MatchSettings(("Ada", "Bo"), length=5, variant="chess"))
    refused(lambda: MatchSettings(("Ada", "Bo"), length=5, policy="lax"))
    refused(lambda: MatchSettings(("Ada", "Bo"), length=5, beavers=True))
    refused(lambda: Resign(2, 1))
    refused(lambda: Resign(0, 4))
    refused(lambda: Referee().handle(Resign(0, 1)))
    refused(lambda: Referee().handle(PauseClock(True, "director")))
    refused(lambda: DemoControls.set_corners(cast(Any, None), []))
    no_frame = SimpleNamespace(status=SimpleNamespace(latest_frame=None))
    refused(lambda: LiveControls(cast(Any, None), cast(Any, no_frame), Path("x")).set_corners([]))
    image = np.full((480, 640, 3), 90, np.uint8)
    for corners in (
        [(10, 10), (900, 10), (630, 470), (10, 470)],  # outside the image
        [(10, 10), (630, 470), (630, 10), (10, 470)],  # crossed
        [(10, 10), (20, 10), (20, 20), (10, 20)],  # too small
        [(630, 10), (630, 470), (10, 470), (10, 10)],  # turned
        [(40, 40), (600, 40), (600, 440), (40, 440)],  # a bare board: no checkers
    ):
        refused(lambda corners=corners: calibrate_field(image, corners))
    return messages


@pytest.fixture(scope="module")
def referee_refusals() -> list[str]:
    return _referee_refusals()


def test_every_refusal_the_admin_can_meet_has_a_template(referee_refusals: list[str]) -> None:
    assert len(referee_refusals) == 16
    assert [m for m in referee_refusals if find_phrase(m) is None] == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_admin_s_refusals_are_in_the_language(
    admin: FlaskClient, controls: FakeControls, referee_refusals: list[str], language: str
) -> None:
    from conftest import csrf_of

    catalogue = translations(language)
    frame = catalogue.gettext("Refused: %(reason)s")
    for message in referee_refusals:
        controls.refusal = message
        response = admin.post(
            "/admin/undo",
            data={"csrf_token": csrf_of(admin)},
            headers={"Accept-Language": language},
        )
        assert response.status_code == 409
        [shown] = [
            " ".join(html.unescape(re.sub(r"<[^>]+>", " ", item)).split())
            for item in re.findall(r'<li class="flash flash-error">(.*?)</li>', response.text, re.S)
        ]
        reason = translate_sentence(message, catalogue, isolate=language in RIGHT_TO_LEFT)
        assert shown == " ".join((frame % {"reason": reason}).split()), message
        phrase = find_phrase(message)
        assert phrase is not None
        parts = phrase.match(message) or phrase.match(message[:1].lower() + message[1:]) or {}
        values = [v for v in parts.values() if find_phrase(v) is None]
        plain = translate_sentence(message, catalogue)
        assert plain != message
        assert english_left(phrase.singular, plain, values) == set(), (language, plain)
        if language in RIGHT_TO_LEFT:
            assert latin_left(plain, values) == [], plain


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_calibration_page_s_refusal_is_in_the_language(
    admin: FlaskClient, controls: FakeControls, referee_refusals: list[str], language: str
) -> None:
    from conftest import csrf_of

    catalogue = translations(language)
    message = next(m for m in referee_refusals if m.startswith("field corners are not in"))
    controls.refusal = message
    corners = {"x1": "10", "y1": "10", "x2": "600", "y2": "10", "x3": "600", "y3": "400"}
    response = admin.post(
        "/admin/calibration",
        data=corners | {"x4": "10", "y4": "400", "csrf_token": csrf_of(admin)},
        headers={"Accept-Language": language},
    )
    assert response.status_code == 400
    text = html.unescape(response.text)
    reason = translate_sentence(message, catalogue, isolate=language in RIGHT_TO_LEFT)
    assert catalogue.gettext("Refused: %(reason)s") % {"reason": reason} in text
    assert message not in text
