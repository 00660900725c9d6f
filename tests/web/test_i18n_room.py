"""The room's pages (every table, one table, the stream overlay, the director's login) in each
language, over a hub mirror filled from real refereed matches."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from controller.network.hub import Hub
from controller.network.mirror import Mirror
from tests.network.roomkit import SimulatedTable, fill_mirror
from tests.shared_data import MATCHES_DIR
from web.room import create_room_app

RIGHT_TO_LEFT = {"he": "rtl", "ar": "rtl", "cs": "ltr"}
ENGLISH = re.compile(
    r"\b(tables|online|offline|pips|to play|cube|centred|events|Games|wins|Room|Director|"
    r"stream overlay|with board|match over|money|Log in)\b"
)


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[SimulatedTable]]:
    files = sorted(MATCHES_DIR.glob("*.mat"))
    if len(files) < 2:
        pytest.skip("the shared .mat matches are not present")
    folder = tmp_path_factory.mktemp("tables")
    finished = SimulatedTable(folder, "finished", files[0].read_text(), "mqtt://127.0.0.1:1")
    finished.feed()
    playing = SimulatedTable(folder, "playing", files[1].read_text(), "mqtt://127.0.0.1:1")
    playing.feed(60)
    yield [finished, playing]
    for table in (finished, playing):
        table.record.close()


@pytest.fixture
def client(tmp_path: Path, tables: list[SimulatedTable]) -> Iterator[FlaskClient]:
    mirror = Mirror(str(tmp_path / "hub.sqlite"))
    for table in tables:
        fill_mirror(mirror, table)
    app = create_room_app(Hub("mqtt://127.0.0.1:1", mirror, room="cafe"), {"TESTING": True})
    yield app.test_client()
    mirror.close()


def _visible(page: str) -> str:
    page = re.sub(r"<(svg|script|style|head)\b.*?</\1>", " ", page, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


@pytest.mark.parametrize("language", ["he", "ar", "cs"])
@pytest.mark.parametrize(
    "path", ["/", "/tables/playing", "/tables/finished", "/overlay/playing", "/director/login"]
)
def test_room_pages_speak_the_viewer_s_language(
    client: FlaskClient, language: str, path: str
) -> None:
    response = client.get(path, headers={"Accept-Language": language})
    assert response.status_code == 200, path
    assert f'<html lang="{language}" dir="{RIGHT_TO_LEFT[language]}">' in response.text
    assert ENGLISH.findall(_visible(response.text)) == [], _visible(response.text)


def test_room_pages_stay_english_by_default(client: FlaskClient) -> None:
    page = client.get("/")
    assert '<html lang="en" dir="ltr">' in page.text
    assert re.search(r"2 tables · \d online", _visible(page.text))


@pytest.mark.parametrize("language", ["he", "ar", "cs"])
def test_the_director_s_page_speaks_the_language(
    tmp_path: Path, tables: list[SimulatedTable], language: str
) -> None:
    from werkzeug.security import generate_password_hash

    mirror = Mirror(str(tmp_path / "hub.sqlite"))
    for table in tables:
        fill_mirror(mirror, table)
    settings = {"TESTING": True, "SECRET_KEY": "t", "PIN_HASH": generate_password_hash("2468")}
    app = create_room_app(Hub("mqtt://127.0.0.1:1", mirror, room="cafe"), settings)
    client = app.test_client()
    client.set_cookie("sheshbesh_language", language)
    login = client.get("/director/login").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', login)
    assert token is not None
    client.post("/director/login", data={"pin": "2468", "csrf_token": token.group(1)})
    page = client.get("/director/").get_data(as_text=True)
    mirror.close()
    assert f'<html lang="{language}"' in page
    text = _visible(page)
    english = r"\b(Assign the next match|Table|Results|Standings|Player|Send|Log out|Points)\b"
    assert re.findall(english, text) == [], text
