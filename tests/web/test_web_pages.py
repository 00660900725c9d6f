"""Scoreboard, board, JSON API and matches pages through Flask's test client."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from web.fakes import EXAMPLE_MAT
from web.hub import PanelHub
from web.state import example_state


class _FieldText(HTMLParser):
    """Collects the text inside the element carrying ``data-field="<name>"``."""

    VOID = frozenset({"br", "img", "input", "meta", "link", "hr", "source"})

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
        self.depth = 0
        self.found = False
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.VOID:
            return
        if self.depth:
            self.depth += 1
        elif not self.found and ("data-field", self.name) in attrs:
            self.depth, self.found = 1, True

    def handle_endtag(self, tag: str) -> None:
        if self.depth and tag not in self.VOID:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.parts.append(data)


def _field(html: str, name: str) -> str:
    parser = _FieldText(name)
    parser.feed(html)
    assert parser.found, f"no data-field {name!r} in page"
    return " ".join("".join(parser.parts).split())


def test_scoreboard_shows_players_score_cube_turn_dice_pips_and_last_play(
    client: FlaskClient,
) -> None:
    response = client.get("/")
    assert response.status_code == 200
    html = response.text
    assert _field(html, "name-0") == "Ada" and _field(html, "name-1") == "Boris"
    assert _field(html, "score-0") == "3" and _field(html, "score-1") == "4"
    assert _field(html, "pips-0") == "163" and _field(html, "pips-1") == "157"
    assert _field(html, "match-kind") == "Match to 7 · game 5"
    assert _field(html, "cube") == "2, Boris's"
    assert _field(html, "turn") == "Ada to play"
    assert 'data-pips="5"' in html and 'data-pips="2"' in html
    assert "24/18 13/9" in html
    assert 'data-events="/events?last_id=1"' in html


def test_scoreboard_has_no_external_resources(client: FlaskClient) -> None:
    for path in ("/", "/board", "/matches", "/admin/login"):
        html = client.get(path).text
        assert not re.search(r"""(src|href)=["']?(https?:)?//""", html), path


@pytest.mark.parametrize(
    ("match_update", "words"),
    [
        ({"crawford_game": True}, "Crawford game"),
        ({"post_crawford": True}, "post-Crawford"),
        ({"length": 0}, "Money game"),
        ({"variant": "sheshbesh", "length": 0}, "Shesh Besh · Money game"),
    ],
)
def test_scoreboard_names_the_kind_of_game(
    client: FlaskClient, hub: PanelHub, match_update: dict[str, Any], words: str
) -> None:
    state = example_state()
    state["match"].update(match_update)
    hub.publish(state)
    assert words in _field(client.get("/scoreboard/fragment").text, "match-kind")


def test_scoreboard_shows_a_cube_offer_and_the_winner(client: FlaskClient, hub: PanelHub) -> None:
    state = example_state()
    state["cube"] = {"value": 2, "owner": 1, "offered_by": 1, "dead": False}
    hub.publish(state)
    html = client.get("/scoreboard/fragment").text
    assert _field(html, "turn") == "Boris doubles to 4: Ada to take or pass"
    state["cube"] = {"value": 4, "owner": 0, "offered_by": None, "dead": True}
    state["match"]["winner"] = 0
    hub.publish(state)
    html = client.get("/scoreboard/fragment").text
    assert _field(html, "cube") == "4, Ada's (dead)"
    assert _field(html, "winner") == "Ada wins the match"


def test_pages_escape_names(client: FlaskClient, hub: PanelHub) -> None:
    state = example_state()
    state["match"]["players"] = ["<b>Ada</b>", "Boris"]
    hub.publish(state)
    for path in ("/", "/board", "/board/fragment"):
        html = client.get(path).text
        assert "<b>Ada</b>" not in html and "&lt;b&gt;Ada&lt;/b&gt;" in html


def test_board_page_draws_the_position_moves_games_and_lights(client: FlaskClient) -> None:
    html = client.get("/board").text
    assert html.count('class="checker white"') == 15
    assert html.count('class="checker black"') == 15
    assert html.count('class="checker white" data-location="p13"') == 5
    moves = _field(html, "moves")
    assert "Ada doubles to 2" in moves and "Boris takes" in moves and "31: 8/5 6/5" in moves
    assert "Boris 64: 24/18 13/9" in _field(html, "last-play")
    assert _field(html, "position-id") == "4HPhQSCwZ/ABMA"
    assert _field(html, "match-id") == "EYHqADAAIAAE"
    assert "p13: source" in _field(html, "lights")
    assert html.count("<tr><td>") == 4  # four finished games


def test_board_page_shows_the_referees_words_for_an_illegal_play(
    client: FlaskClient, hub: PanelHub
) -> None:
    state = example_state()
    state["message"] = {
        "kind": "illegal",
        "text": "13/8 lands on a blocked point",
        "locations": ["p13", "p8"],
    }
    hub.publish(state)
    html = client.get("/board/fragment").text
    assert _field(html, "message") == "Illegal play: 13/8 lands on a blocked point (p13, p8)"
    assert html.count('class="mark flagged flagged-illegal"') == 2
    state["message"] = {
        "kind": "mismatch",
        "text": "3 checkers on p6 where 5 should be",
        "locations": ["p6"],
    }
    hub.publish(state)
    assert _field(client.get("/board").text, "message").startswith(
        "Board mismatch: 3 checkers on p6"
    )


def test_board_svg_is_an_image(client: FlaskClient) -> None:
    response = client.get("/board.svg")
    assert response.mimetype == "image/svg+xml"
    assert response.text.startswith("<?xml") and response.text.count('class="checker') == 30


def test_api_state_is_the_published_state(client: FlaskClient, hub: PanelHub) -> None:
    body = client.get("/api/state").json
    assert body == {"id": 1, "state": example_state()}
    state = example_state()
    state["dice"] = [6, 6]
    assert hub.publish(state) == 2
    assert client.get("/api/state").get_json()["state"]["dice"] == [6, 6]


def test_api_matches_and_one_match(client: FlaskClient) -> None:
    matches = client.get("/api/matches").get_json()["matches"]
    assert [m["id"] for m in matches] == ["m-20261130-01", "m-20261130-02"]
    one = client.get("/api/matches/m-20261130-01").get_json()["match"]
    assert one["score"] == [7, 4] and len(one["games"]) == 5
    missing = client.get("/api/matches/nope")
    assert missing.status_code == 404 and "nope" in missing.get_json()["description"]


def test_matches_list_and_detail(client: FlaskClient) -> None:
    html = client.get("/matches").text
    assert "Ada – Boris" in html and "Chaim – Dalia" in html
    assert "in progress" in html and "Ada won" in html
    assert 'href="/matches/m-20261130-01.mat"' in html
    detail = client.get("/matches/m-20261130-01").text
    assert detail.count("<tr><td>") == 5 and "7–4" in detail
    assert client.get("/matches/unknown").status_code == 404


def test_mat_download_is_written_into_the_exports_folder(
    client: FlaskClient, exports_dir: Path
) -> None:
    response = client.get("/matches/m-20261130-01.mat")
    assert response.status_code == 200
    assert response.text == EXAMPLE_MAT
    assert "attachment" in response.headers["Content-Disposition"]
    assert "m-20261130-01.mat" in response.headers["Content-Disposition"]
    assert (exports_dir / "m-20261130-01.mat").read_text() == EXAMPLE_MAT
    assert sorted(p.name for p in exports_dir.iterdir()) == ["m-20261130-01.mat"]


def test_mat_of_a_match_the_store_cannot_export_is_404(
    client: FlaskClient, exports_dir: Path
) -> None:
    assert client.get("/matches/m-20261130-02.mat").status_code == 404
    assert list(exports_dir.iterdir()) == []


@pytest.mark.parametrize(
    "path",
    [
        "/matches/..%2F..%2Fsecret.mat",
        "/matches/%2E%2E.mat",
        "/matches/.hidden.mat",
        "/exports/../secret.txt",
        "/exports/%2E%2E/secret.txt",
        "/exports/..%2Fsecret.txt",
        "/exports//etc/passwd",
        "/exports/sub/../../secret.txt",
    ],
)
def test_paths_outside_the_exports_folder_are_refused(
    client: FlaskClient, exports_dir: Path, path: str
) -> None:
    secret = exports_dir.parent / "secret.txt"
    secret.write_text("not for the panel")
    response = client.get(path, follow_redirects=True)
    assert response.status_code in (400, 404)
    assert b"not for the panel" not in response.data
    assert not (exports_dir.parent / "secret.mat").exists()


def test_files_in_the_exports_folder_are_served(client: FlaskClient, exports_dir: Path) -> None:
    (exports_dir / "final.mat").write_text(EXAMPLE_MAT)
    response = client.get("/exports/final.mat")
    assert response.status_code == 200 and response.text == EXAMPLE_MAT
    assert client.get("/exports/missing.mat").status_code == 404


def test_unknown_page_is_a_readable_404(client: FlaskClient) -> None:
    response = client.get("/nowhere")
    assert response.status_code == 404 and "Not Found" in response.text


def test_pages_allow_only_their_own_resources(client: FlaskClient) -> None:
    for path in ("/", "/board", "/api/state", "/admin/login"):
        headers = client.get(path).headers
        assert "default-src 'self'" in headers["Content-Security-Policy"]
        assert headers["X-Frame-Options"] == "DENY"
        assert headers["X-Content-Type-Options"] == "nosniff"
