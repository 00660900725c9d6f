"""The room's pages (every table, one table, the stream overlay, the director's login) in each
language, over a hub mirror filled from real refereed matches."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from test_i18n_refusals import TRANSLATED, english_left, latin_left

from controller.network.director import assignment_settings
from controller.network.hub import Hub
from controller.network.knockout import MAX_PLAYERS, Draw
from controller.network.mirror import Mirror
from sheshbesh.language import TemplatedError, error_text, translations
from tests.network.roomkit import SimulatedTable, fill_mirror
from tests.shared_data import MATCHES_DIR
from web.room import create_room_app

RIGHT_TO_LEFT = {"he": "rtl", "ar": "rtl", "cs": "ltr", "tr": "ltr", "el": "ltr", "ru": "ltr"}
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


@pytest.mark.parametrize("language", TRANSLATED)
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


@pytest.mark.parametrize("language", TRANSLATED)
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


def _logged_in_director(
    tmp_path: Path, tables: list[SimulatedTable], language: str | None
) -> tuple[FlaskClient, str, Mirror]:
    """A director logged in on a room over the filled mirror (its hub has no broker), the
    viewer's language chosen on the switch (None: no choice, no Accept-Language)."""
    from werkzeug.security import generate_password_hash

    mirror = Mirror(str(tmp_path / "hub.sqlite"))
    for table in tables:
        fill_mirror(mirror, table)
    settings = {"TESTING": True, "SECRET_KEY": "t", "PIN_HASH": generate_password_hash("2468")}
    app = create_room_app(Hub("mqtt://127.0.0.1:1", mirror, room="cafe"), settings)
    client = app.test_client()
    if language is not None:
        client.set_cookie("sheshbesh_language", language)
    login = client.get("/director/login").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', login)
    assert token is not None
    client.post("/director/login", data={"pin": "2468", "csrf_token": token.group(1)})
    page = client.get("/director/").get_data(as_text=True)  # logging in starts a new session
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token is not None, page
    return client, token.group(1), mirror


def _flashes(page: str) -> list[str]:
    return [
        " ".join(html.unescape(re.sub(r"<[^>]+>", " ", item)).split())
        for item in re.findall(r'<li class="rm-flash[^"]*">(.*?)</li>', page, flags=re.S)
    ]


DIRECTOR_ENGLISH = re.compile(
    r"\b(Knockout|draw|made|players?|hub|connected|broker|try again|shortly|needs|at least)\b"
)


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_director_s_actions_are_answered_in_the_viewer_s_language(
    tmp_path: Path, tables: list[SimulatedTable], language: str
) -> None:
    from sheshbesh.language import translations

    catalogue = translations(language)
    client, token, mirror = _logged_in_director(tmp_path, tables, language)
    try:
        drawn = client.post(
            "/director/knockout",
            data={"players": "Ada\nBen\nDana\nEli", "length": "5", "csrf_token": token},
            follow_redirects=True,
        ).get_data(as_text=True)
        refused = client.post(
            "/director/knockout",
            data={"players": "Ada", "length": "5", "csrf_token": token},
            follow_redirects=True,
        ).get_data(as_text=True)
        # The hub has no broker: sending a match is refused with the hub's reason.
        unsent = client.post(
            "/director/assign",
            data={"table": "playing", "white": "Dana", "black": "Eli", "csrf_token": token},
            follow_redirects=True,
        ).get_data(as_text=True)
        unnamed = client.post(
            "/director/assign",
            data={"table": "playing", "white": "Dana", "black": " ", "csrf_token": token},
            follow_redirects=True,
        ).get_data(as_text=True)
    finally:
        mirror.close()
    made = catalogue.ngettext(
        "Knockout draw made: %(num)s player.", "Knockout draw made: %(num)s players.", 4
    ) % {"num": 4}
    reason = catalogue.gettext("a knockout draw needs at least two players")
    knockout = catalogue.gettext("Knockout draw: %(reason)s") % {"reason": reason}
    not_connected = catalogue.gettext("the hub is not connected to the broker; try again shortly")
    table_says = catalogue.gettext("%(table)s: %(reason)s") % {
        "table": "playing",
        "reason": not_connected,
    }
    assert _flashes(drawn) == [made]
    assert _flashes(refused) == [knockout]
    assert _flashes(unsent) == [table_says]
    no_name = catalogue.gettext("each player needs a name of 1 to 40 characters")
    assert _flashes(unnamed) == [
        catalogue.gettext("%(table)s: %(reason)s") % {"table": "playing", "reason": no_name}
    ]
    assert no_name != "each player needs a name of 1 to 40 characters"
    for flash in (made, knockout, not_connected):
        assert DIRECTOR_ENGLISH.findall(flash) == [], flash
    assert f'<html lang="{language}"' in unsent
    if language == "he":
        assert made == "ההגרלה בוצעה: 4 שחקנים."
        assert table_says == "playing: המרכז אינו מחובר לשרת ההודעות; נסו שוב בעוד רגע"


def test_the_director_s_actions_stay_english_by_default(
    tmp_path: Path, tables: list[SimulatedTable]
) -> None:
    client, token, mirror = _logged_in_director(tmp_path, tables, None)
    try:
        drawn = client.post(
            "/director/knockout",
            data={"players": "Ada\nBen\nDana", "length": "5", "csrf_token": token},
            follow_redirects=True,
        ).get_data(as_text=True)
        unsent = client.post(
            "/director/assign",
            data={"table": "playing", "white": "Dana", "black": "Eli", "csrf_token": token},
            follow_redirects=True,
        ).get_data(as_text=True)
    finally:
        mirror.close()
    assert _flashes(drawn) == ["Knockout draw made: 3 players."]
    assert _flashes(unsent) == [
        "playing: the hub is not connected to the broker; try again shortly"
    ]


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_room_s_error_pages_speak_the_language(client: FlaskClient, language: str) -> None:
    from sheshbesh.language import translations

    catalogue = translations(language)
    page = client.get("/tables/nobody", headers={"Accept-Language": language})
    assert page.status_code == 404
    assert f'<html lang="{language}" dir="{RIGHT_TO_LEFT[language]}">' in page.text
    text = _visible(page.text)
    assert f"404 {catalogue.gettext('Not Found')}" in text
    described = catalogue.gettext("No table named %(name)s in this room.") % {"name": "'nobody'"}
    assert described in text
    assert re.findall(r"\b(Not Found|No table|room)\b", text) == [], text
    # The API keeps its plain answer, whatever the viewer reads.
    assert (
        client.get("/api/tables/nobody", headers={"Accept-Language": language}).status_code == 404
    )


def test_the_room_s_error_pages_stay_english_by_default(client: FlaskClient) -> None:
    text = _visible(client.get("/tables/nobody").text)
    assert "404 Not Found" in text
    assert "No table named 'nobody' in this room." in text


# -- the hub's refusals that name a value or a limit ------------------------------------------

#: What the director sends, and the refusal the hub must answer with (its template).
ASSIGNMENTS = [
    ({"table": "no table!"}, "table name %(name)s must be 1-64 letters"),
    ({"length": "seven"}, "match length %(length)s is not a number"),
    ({"length": "99"}, "match length %(length)s must be 0 (money) to %(most)s"),
    ({"variant": "chess"}, "variant %(variant)s: choose %(choices)s"),
    ({"policy": "lax"}, "policy %(policy)s: choose %(choices)s"),
]
DRAWS = [
    ([f"P{n}" for n in range(MAX_PLAYERS + 1)], "5", "at most %(most)s players"),
    (["Ada", "B" * 41], "5", "player name %(name)s is longer than 40 characters"),
    (["Ada", "Bo", "ada"], "5", "player %(name)s is listed twice"),
    (["Ada", "Bo"], "x", "match length %(length)s is not a number"),
    (["Ada", "Bo"], "0", "a knockout match length must be 1 to %(most)s points"),
]


def _hub_error(action: Any) -> TemplatedError:
    with pytest.raises(TemplatedError) as raised:
        action()
    return raised.value


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_hub_s_refusals_naming_a_value_reach_the_director_translated(
    tmp_path: Path, tables: list[SimulatedTable], language: str
) -> None:
    catalogue = translations(language)
    client, token, mirror = _logged_in_director(tmp_path, tables, language)
    shown: list[tuple[str, str, TemplatedError, str]] = []
    try:
        for change, wanted in ASSIGNMENTS:
            form = {"table": "playing", "white": "Dana", "black": "Eli", "length": "5"} | change
            page = client.post(
                "/director/assign", data=form | {"csrf_token": token}, follow_redirects=True
            ).get_data(as_text=True)
            # the refusal the hub gives for the same input, translated from its template
            error = _hub_error(lambda form=form: _assign_check(form))
            reason = error_text(error, catalogue)
            expected = catalogue.gettext("%(table)s: %(reason)s") % {
                "table": form["table"],
                "reason": reason,
            }
            shown.append((wanted, _flashes(page)[0], error, form["table"]))
            assert _flashes(page) == [expected]
        for players, length, wanted in DRAWS:
            page = client.post(
                "/director/knockout",
                data={"players": "\n".join(players), "length": length, "csrf_token": token},
                follow_redirects=True,
            ).get_data(as_text=True)
            error = _hub_error(lambda p=players, n=length: Draw.from_list(p, n, 0.0))
            expected = catalogue.gettext("Knockout draw: %(reason)s") % {
                "reason": error_text(error, catalogue)
            }
            shown.append((wanted, _flashes(page)[0], error, ""))
            assert _flashes(page) == [expected]
    finally:
        mirror.close()
    for wanted, flash, error, table in shown:
        assert wanted in error.template
        reason = error_text(error, catalogue)
        assert reason != str(error), (language, error.template)
        values = [value for value in (table, *error.values.values()) if value]
        assert english_left(error.template, reason, values) == set(), (language, reason)
        if RIGHT_TO_LEFT.get(language) == "rtl":
            assert latin_left(flash, values) == [], flash


def _assign_check(form: dict[str, str]) -> None:
    """What the hub checks of an assignment, in its order (the table's name first)."""
    from controller.network.address import check_name
    from controller.network.director import AssignmentError

    try:
        check_name(form["table"])
    except TemplatedError as error:
        raise AssignmentError(error.template, **error.values) from None
    assignment_settings(
        {
            "players": [form["white"], form["black"]],
            "length": form.get("length", "7"),
            "variant": form.get("variant", "backgammon"),
            "policy": form.get("policy", "tournament"),
        }
    )


def test_the_hub_s_refusals_read_as_before_in_english(
    tmp_path: Path, tables: list[SimulatedTable]
) -> None:
    client, token, mirror = _logged_in_director(tmp_path, tables, None)
    try:
        page = client.post(
            "/director/assign",
            data={"table": "playing", "white": "A", "black": "B", "length": "99"}
            | {"csrf_token": token},
            follow_redirects=True,
        ).get_data(as_text=True)
        draw = client.post(
            "/director/knockout",
            data={"players": "Ada\nBo\nada", "length": "5", "csrf_token": token},
            follow_redirects=True,
        ).get_data(as_text=True)
    finally:
        mirror.close()
    assert _flashes(page) == ["playing: match length 99 must be 0 (money) to 64"]
    assert _flashes(draw) == ["Knockout draw: player 'ada' is listed twice"]
