"""The panel's pages in each language: <html lang dir>, the visible words, which language wins
(the viewer's switch, then the café's default, then Accept-Language), and the outside contract
on a real ``python -m web --fake`` process."""

from __future__ import annotations

import html
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from sheshbesh.language import LANGUAGES
from web import create_app
from web.fakes import FakeControls, MemoryMatchStore
from web.hub import PanelHub
from web.i18n import COOKIE
from web.state import example_state

ROOT = Path(__file__).resolve().parents[2]
RIGHT_TO_LEFT = {
    "he": "rtl",
    "ar": "rtl",
    "en": "ltr",
    "cs": "ltr",
    "tr": "ltr",
    "el": "ltr",
    "ru": "ltr",
}
TRANSLATED = [language for language in LANGUAGES if language != "en"]
#: Languages written in a script with no Latin letters: only names, IDs and notation may be Latin.
NOT_LATIN = {"he", "ar", "el", "ru"}
#: Words of each language the scoreboard of the example state must show.
SCOREBOARD_WORDS = {
    "en": ["Scoreboard", "Match to 7", "pips", "Last play", "Ada to play 5-2"],
    "he": ["תוצאות", "מאץ' ל-7", "פיפס", "מהלך אחרון", "משחק"],
    "ar": ["النتائج", "مباراة إلى 7", "خطوات", "آخر نقلة", "دور"],
    "cs": ["Výsledky", "Zápas na 7", "oka", "Poslední tah", "hraje"],
    "tr": ["Skor tablosu", "7 sayılık maç", "pip", "Son hamle", "oynayacak"],
    "el": ["Πίνακας σκορ", "Ματς στους 7", "πιπ", "Τελευταία κίνηση", "παίζει"],
    "ru": ["Табло", "Матч до 7", "пипы", "Последний ход", "ходит"],
}
#: English words of the panel's own that must not be left on a translated page.
ENGLISH = re.compile(
    r"\b(Scoreboard|Board|Matches|Admin|Match to|pips|away|Cube|Last play|Turn|Dice|Pips|"
    r"Position ID|Match ID|Game|Winner|Points|Score|LEDs|Camera|Analysis|to play|to roll|"
    r"doubles|takes|passes|centred|source|legal|none|off|ok)\b"
)
#: What may stay in Latin letters on a Hebrew or Arabic page: names, IDs, notation, locations.
ALLOWED_LATIN = {
    "Ada",
    "Boris",
    "Chaim",
    "Dalia",
    "English",
    "Čeština",
    "Türkçe",
    "PIN",
    "ID",
    "mat",
}
ALLOWED_LATIN |= {"sheshbesh", "analyse"}  # the command that analyses a match


def _visible(page: str) -> str:
    """The words a viewer sees: no tags, scripts, styles, the board drawing, or attributes."""
    page = re.sub(r"<(svg|script|style|head)\b.*?</\1>", " ", page, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def _latin_words(text: str) -> list[str]:
    text = re.sub(r"[A-Za-z0-9+/]{10,}", " ", text)  # Position and Match IDs
    text = re.sub(r"\b(?:bar|off)-(?:white|black)\b|\bp\d+\b|\b\d+/\d+\b", " ", text)
    return [
        word
        for word in re.findall(r"[A-Za-zČčěšřžýáíéůúüçğışöÜÇĞİŞÖ]{2,}", text)
        if word not in ALLOWED_LATIN
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_scoreboard_answers_in_the_browser_s_language(
    client: FlaskClient, language: str
) -> None:
    page = client.get("/", headers={"Accept-Language": language}).text
    assert f'<html lang="{language}" dir="{RIGHT_TO_LEFT[language]}">' in page
    text = _visible(page)
    for word in SCOREBOARD_WORDS[language]:
        assert word in text, (language, word)
    if language != "en":
        assert ENGLISH.findall(text) == [], text
    if language in NOT_LATIN:
        assert _latin_words(text) == [], text


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize(
    "path", ["/board", "/matches", "/matches/m-20261130-01", "/matches/m-20261130-01/analysis"]
)
def test_every_page_is_in_the_language_with_no_english_left(
    client: FlaskClient, language: str, path: str
) -> None:
    response = client.get(path, headers={"Accept-Language": language})
    assert response.status_code == 200, path
    text = _visible(response.text)
    assert f'lang="{language}"' in response.text
    assert ENGLISH.findall(text) == [], (path, text)
    if language in NOT_LATIN:
        assert _latin_words(text) == [], (path, text)


@pytest.mark.parametrize("language", TRANSLATED)
def test_admin_calibration_login_and_errors_are_translated(
    admin: FlaskClient, language: str
) -> None:
    headers = {"Accept-Language": language}
    for path in ("/admin/", "/admin/calibration"):
        text = _visible(admin.get(path, headers=headers).text)
        assert not re.search(r"\b(New match|Resign|Undo|Calibration|Save corners|Corner)\b", text)
    missing = admin.get("/matches/nothing-here", headers=headers)
    assert missing.status_code == 404
    assert "Not Found" not in _visible(missing.text)
    assert "nothing-here" in _visible(missing.text)


def test_login_refusal_is_translated(client: FlaskClient) -> None:
    from conftest import csrf_of

    token = csrf_of(client)
    response = client.post(
        "/admin/login",
        data={"pin": "0000", "csrf_token": token},
        headers={"Accept-Language": "cs"},
    )
    assert response.status_code == 401
    assert "Špatný PIN." in response.text


def test_a_form_s_problems_are_in_the_language(admin: FlaskClient) -> None:
    from conftest import csrf_of

    response = admin.post(
        "/admin/new-match",
        data={"length": "x", "policy": "teaching", "variant": "backgammon"}
        | {"csrf_token": csrf_of(admin)},
        headers={"Accept-Language": "he"},
    )
    assert response.status_code == 400
    assert "אורך המאץ' 'x' אינו מספר מ-0 (כסף) עד 64" in html.unescape(response.text)


def test_the_referee_s_message_is_shown_in_the_viewer_s_language(
    client: FlaskClient, hub: PanelHub
) -> None:
    state = example_state()
    state["message"] = {
        "kind": "illegal",
        "text": "13/12 lands on a blocked point (Black holds 12)",
        "locations": ["p12"],
    }
    hub.publish(state)
    czech = _visible(client.get("/board", headers={"Accept-Language": "cs"}).text)
    assert "Neplatný tah: 13/12 končí na obsazeném poli (Černý drží 12)" in czech
    hebrew = client.get("/board", headers={"Accept-Language": "he"}).text
    # The notation keeps its own direction inside the right-to-left sentence.
    assert "\u206813/12\u2069 נוחת על נקודה תפוסה" in html.unescape(hebrew)
    english = _visible(client.get("/board").text)
    assert "Illegal play: 13/12 lands on a blocked point (Black holds 12)" in english


def test_the_viewer_s_switch_wins_and_is_remembered(client: FlaskClient) -> None:
    response = client.get("/language/ar?next=/board")
    assert response.status_code == 302 and response.headers["Location"] == "/board"
    assert f"{COOKIE}=ar" in response.headers["Set-Cookie"]
    assert "Max-Age=31536000" in response.headers["Set-Cookie"]
    page = client.get("/board", headers={"Accept-Language": "cs"}).text
    assert '<html lang="ar" dir="rtl">' in page
    assert "/language/en?next=/board" in page  # the switch offers every language


def test_the_switch_goes_back_only_to_this_site(client: FlaskClient) -> None:
    for target in ("https://elsewhere.example/", "//elsewhere.example/", "/\\elsewhere"):
        response = client.get("/language/he", query_string={"next": target})
        assert response.headers["Location"] == "/"
    assert client.get("/language/fr").status_code == 404


def test_the_cafe_s_default_beats_the_browser_and_loses_to_the_viewer(
    config: dict[str, Any], hub: PanelHub, controls: FakeControls, store: MemoryMatchStore
) -> None:
    app = create_app(config | {"LANGUAGE": "he"}, hub=hub, controls=controls, store=store)
    client = app.test_client()
    assert '<html lang="he" dir="rtl">' in client.get("/", headers={"Accept-Language": "cs"}).text
    client.get("/language/cs")
    assert '<html lang="cs" dir="ltr">' in client.get("/", headers={"Accept-Language": "en"}).text


def test_an_unknown_cafe_language_is_refused_in_one_line(config: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="language 'fr' is not one of en, he, ar, cs"):
        create_app(config | {"LANGUAGE": "fr"})


def test_without_any_language_the_panel_is_english(app: Flask) -> None:
    page = app.test_client().get("/", headers={"Accept-Language": "fr, de;q=0.5"}).text
    assert '<html lang="en" dir="ltr">' in page and "Scoreboard" in page


def test_a_regional_browser_language_finds_its_language(client: FlaskClient) -> None:
    page = client.get("/", headers={"Accept-Language": "he-IL,he;q=0.9,en-US;q=0.5"}).text
    assert '<html lang="he" dir="rtl">' in page


def test_the_json_api_stays_in_english(client: FlaskClient) -> None:
    response = client.get("/api/state", headers={"Accept-Language": "he"})
    assert response.json is not None and response.json["state"]["match"]["players"] == [
        "Ada",
        "Boris",
    ]


# --- the contract, on a real process -------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def fake_panel() -> Iterator[str]:
    port = _free_port()
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SHESHBESH_PANEL_")}
    process = subprocess.Popen(
        [sys.executable, "-m", "web", "--fake", "--pin", "1234", "--port", str(port)],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url + "/api/state", timeout=2):
                    break
            except (urllib.error.URLError, ConnectionError):
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"python -m web did not start: {process.stderr}") from None
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=20)
        if process.stderr is not None:
            process.stderr.close()


def _get(url: str, language: str) -> str:
    request = urllib.request.Request(url, headers={"Accept-Language": language})
    with urllib.request.urlopen(request, timeout=10) as response:
        body: bytes = response.read()
        return body.decode("utf-8")


@pytest.mark.parametrize(
    ("language", "opening", "word"),
    [
        ("he", '<html lang="he" dir="rtl">', "תוצאות"),
        ("ar", '<html lang="ar" dir="rtl">', "النتائج"),
        ("cs", '<html lang="cs"', "Výsledky"),
        ("en", '<html lang="en"', "Scoreboard"),
    ],
)
def test_python_m_web_fake_answers_in_the_requested_language(
    fake_panel: str, language: str, opening: str, word: str
) -> None:
    page = _get(fake_panel + "/", language)
    assert opening in page
    text = _visible(page)
    assert word in text
    if language != "en":
        assert ENGLISH.findall(text) == [], text


@pytest.mark.parametrize("language", TRANSLATED)
def test_an_analysis_report_reads_in_the_language(
    config: dict[str, Any], hub: PanelHub, language: str
) -> None:
    from test_web_analysis import FINISHED, AnalysedStore, _entry

    store = AnalysedStore({FINISHED: _entry([1, 2])})
    app = create_app(config, hub=hub, controls=FakeControls(hub=hub), store=store)
    page = app.test_client().get(
        f"/matches/{FINISHED}/analysis", headers={"Accept-Language": language}
    )
    text = _visible(page.text)
    assert "24/18 13/11" in text and "4HPwATDgc/ABMA" in text
    assert not re.search(r"\b(played|best|proper|blunder|doubtful|Equity|Error rate)\b", text)
    if language in NOT_LATIN:
        allowed = {"bgsage", "ply", "mEMG"}
        assert [w for w in _latin_words(text) if w not in allowed] == [], text
