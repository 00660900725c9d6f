"""The director's knockout draw: seeding, byes, winners advanced from recorded results (through
the hub's mirror, kept over a restart), the director's page; and end to end on a real mosquitto:
a ready bracket match sent from the page to a table, played there, and its winner advanced."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from werkzeug.security import generate_password_hash

from controller.network.director import AssignmentError, FollowDirector
from controller.network.hub import Hub
from controller.network.knockout import Draw, bracket, seed_order
from controller.network.mirror import Mirror
from controller.network.topics import WireEvent
from tests.network.roomkit import MOSQUITTO, Broker, SimulatedTable, wait_for
from tests.shared_data import MATCHES_DIR
from web.room import create_room_app

PIN = "1357"


@pytest.mark.parametrize("places", [2, 4, 8, 16, 32])
def test_seeds_meet_in_the_usual_order(places: int) -> None:
    order = seed_order(places)
    assert sorted(order) == list(range(1, places + 1))
    # First round: seed s meets seed places+1-s.
    assert all(a + b == places + 1 for a, b in zip(order[::2], order[1::2], strict=True))
    # The two top seeds are in different halves, so they can meet only in the final.
    half = places // 2
    assert (order.index(1) < half) != (order.index(2) < half)


def test_seed_order_needs_a_power_of_two() -> None:
    with pytest.raises(ValueError, match="power of two"):
        seed_order(6)


@pytest.mark.parametrize(("count", "places"), [(2, 2), (3, 4), (5, 8), (6, 8), (9, 16)])
def test_byes_go_to_the_top_seeds_and_fill_the_bracket(count: int, places: int) -> None:
    players = [f"P{seed}" for seed in range(1, count + 1)]
    drawn = bracket(Draw.from_list(players, 5, 0.0), [])
    first = drawn["rounds"][0]
    assert len(first) == places // 2
    assert len(drawn["rounds"]) == places.bit_length() - 1
    byes = [m for m in first if m["bye"]]
    assert len(byes) == places - count
    # The byes are the top seeds', who are through at once.
    assert sorted(m["winner"] for m in byes) == sorted(players[: places - count])
    assert all(None in m["players"] and m["winner"] in m["players"] for m in byes)
    played = [m for m in first if not m["bye"]]
    assert all(m["ready"] and m["winner"] is None and None not in m["players"] for m in played)
    # Every player is in the first round exactly once.
    seated = [name for m in first for name in m["players"] if name]
    assert sorted(seated) == sorted(players)
    assert drawn["champion"] is None


def _result(
    white: str, black: str, winner: int | None, score: list[int], started: float
) -> dict[str, Any]:
    return {
        "players": [white, black],
        "winner": winner,
        "score": score,
        "started": started,
        "table": "t1",
        "match": f"{white}-{black}",
    }


def test_winners_advance_from_recorded_results_to_a_champion() -> None:
    draw = Draw.from_list(["Ada", "Bo", "Cy", "Di", "Ed"], 3, created=100.0)
    # Five players: byes for Ada, Bo and Cy; Di meets Ed first.
    results = [
        _result("Di", "Ed", 0, [3, 1], 50.0),  # before the draw: does not count
        _result("Ed", "Di", 0, [3, 2], 150.0),  # Ed wins, playing White
        _result("Ada", "Ed", 1, [2, 3], 160.0),  # Ed beats the top seed
        _result("Cy", "Bo", 0, [3, 0], 170.0),
        _result("Cy", "Ed", None, [1, 1], 180.0),  # still being played: decides nothing
    ]
    drawn = bracket(draw, results[:1])
    first = drawn["rounds"][0]
    assert [m["players"] for m in first] == [
        ["Ada", None],
        ["Di", "Ed"],
        ["Bo", None],
        ["Cy", None],
    ]
    assert first[1]["ready"] and first[1]["winner"] is None
    drawn = bracket(draw, results)
    first, semi, final = drawn["rounds"]
    assert first[1]["winner"] == "Ed" and first[1]["score"] == [2, 3]  # as the bracket lists them
    assert [m["players"] for m in semi] == [["Ada", "Ed"], ["Bo", "Cy"]]
    assert semi[0]["winner"] == "Ed" and semi[0]["score"] == [2, 3]
    assert semi[1]["winner"] == "Cy" and semi[1]["score"] == [0, 3]
    assert final[0]["players"] == ["Ed", "Cy"] and final[0]["ready"]
    assert drawn["champion"] is None
    drawn = bracket(draw, [*results, _result("Cy", "Ed", 0, [3, 2], 190.0)])
    assert drawn["rounds"][2][0]["winner"] == "Cy" and drawn["champion"] == "Cy"
    assert drawn["rounds"][2][0]["table"] == "t1"


def test_one_recorded_match_decides_one_bracket_match() -> None:
    """Two players who could meet twice (a rematch) need two recorded matches."""
    draw = Draw.from_list(["A", "B"], 1, 0.0)
    assert bracket(draw, [_result("A", "B", 0, [1, 0], 1.0)])["champion"] == "A"
    assert bracket(draw, [_result("a", "b", 1, [0, 1], 1.0)])["champion"] == "B"  # any case


@pytest.mark.parametrize(
    ("players", "length", "words"),
    [
        (["Ada"], 5, "at least two players"),
        (["Ada", "", "  "], 5, "at least two players"),
        (["Ada", "Bo", "ada"], 5, "listed twice"),
        (["Ada", "B" * 41], 5, "longer than 40"),
        (["Ada", "Bo"], 0, "1 to 64"),
        (["Ada", "Bo"], "seven", "not a number"),
        ([f"P{n}" for n in range(129)], 5, "at most 128"),
    ],
)
def test_a_bad_draw_is_refused_naming_what_is_wrong(
    players: list[str], length: Any, words: str
) -> None:
    with pytest.raises(AssignmentError, match=re.escape(words)):
        Draw.from_list(players, length, 0.0)


def _mirror_match(
    mirror: Mirror, table: str, record: str, players: list[str], winner: int, score: list[int]
) -> None:
    events = [
        ("match_started", {"id": record, "players": players, "length": 3}),
        ("match_won", {"winner": winner, "score": score}),
    ]
    for sequence, (kind, data) in enumerate(events, start=1):
        event = WireEvent(record, sequence, sequence - 1, record, kind, 0.0, data)
        assert mirror.add(table, event) == "stored"


def _login(client: Any) -> str:
    page = client.get("/director/login").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    assert client.post("/director/login", data={"pin": PIN, "csrf_token": token}).status_code == 302
    page = client.get("/director/").get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]


def test_the_hub_keeps_the_draw_and_the_director_page_shows_it(tmp_path: Path) -> None:
    now = [1000.0]
    path = str(tmp_path / "hub.sqlite")
    mirror = Mirror(path, clock=lambda: now[0])
    hub = Hub("mqtt://127.0.0.1:1", mirror, room="cafe")
    assert hub.knockout() is None
    _mirror_match(mirror, "t1", "old", ["Ada", "Bo"], 0, [3, 0])  # before the draw
    now[0] = 2000.0
    app = create_room_app(
        hub, {"TESTING": True, "SECRET_KEY": "t", "PIN_HASH": generate_password_hash(PIN)}
    )
    client = app.test_client()
    token = _login(client)
    page = client.get("/director/").get_data(as_text=True)
    assert "Make the draw" in page and "rm-bracket" not in page
    answer = client.post(
        "/director/knockout",
        data={"csrf_token": token, "players": "Ada\nBo\n", "length": "0"},
        follow_redirects=True,
    )
    assert "1 to 64" in answer.get_data(as_text=True)
    assert hub.knockout() is None
    answer = client.post(
        "/director/knockout",
        data={"csrf_token": token, "players": "Ada\r\nBo\r\nCy\r\n", "length": "3"},
        follow_redirects=True,
    )
    page = answer.get_data(as_text=True)
    assert "Knockout draw made: 3 players." in page
    # Ada's bye; Bo v Cy is ready, with a form that sends it to a table as an assignment.
    assert "rm-bye" in page and page.count("rm-send-match") == 1
    assert 'name="white" value="Bo"' in page and 'name="black" value="Cy"' in page
    assert 'name="length" value="3"' in page
    now[0] = 2100.0
    _mirror_match(mirror, "t2", "r2", ["Cy", "Bo"], 0, [3, 1])
    drawn = hub.knockout()
    assert drawn is not None and drawn["rounds"][1][0]["players"] == ["Ada", "Cy"]
    page = client.get("/director/").get_data(as_text=True)
    assert 'name="white" value="Ada"' in page and 'name="black" value="Cy"' in page
    # Without a PIN nobody draws.
    stranger = app.test_client()
    assert stranger.post("/director/knockout", data={"players": "X\nY"}).status_code in (400, 403)
    mirror.close()
    # The hub restarts over its file: the same draw, the same results.
    again = Hub("mqtt://127.0.0.1:1", Mirror(path), room="cafe")
    assert again.knockout() == drawn
    again.mirror.close()


@pytest.mark.skipif(MOSQUITTO is None, reason="mosquitto is not installed")
def test_a_bracket_match_sent_from_the_page_is_played_and_its_winner_advances(
    tmp_path: Path,
) -> None:
    source = (MATCHES_DIR / "gnubg-selfplay-3pt-seed12345.mat").read_text()
    with Broker(tmp_path / "broker") as broker:
        hub = Hub(broker.url, Mirror(str(tmp_path / "hub.sqlite"))).start()
        wait_for(lambda: hub.is_connected, 20, "the hub connected")
        table = SimulatedTable(tmp_path, "t1", source, broker.url).start()
        follow = FollowDirector(table.runner).attach(table.link)
        wait_for(lambda: table.link.is_connected, 20, "the table connected")
        app = create_room_app(
            hub, {"TESTING": True, "SECRET_KEY": "t", "PIN_HASH": generate_password_hash(PIN)}
        )
        client = app.test_client()
        token = _login(client)
        client.post(
            "/director/knockout",
            data={"csrf_token": token, "players": "Dana\nEli", "length": "3"},
        )
        page = client.get("/director/").get_data(as_text=True)
        form = re.search(r"<form[^>]*rm-send-match.*?</form>", page, re.S)
        assert form is not None
        fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form.group(0)))
        fields["table"] = "t1"
        answer = client.post("/director/assign", data=fields, follow_redirects=True)
        assert "starts when the board is free" in answer.get_data(as_text=True)
        assigned = hub.assignments["t1"]["id"]
        wait_for(lambda: follow.started == [assigned], 20, "the assigned match to start")
        # The board plays the recorded 3-point match under the assigned names.
        table.inputs = table.inputs[1:]  # the director's assignment was the match's start
        table.fed = 0
        table.feed()
        assert table.link.wait_until_acknowledged(30)
        winner = ["Dana", "Eli"][0 if table.expected_score()[0] > table.expected_score()[1] else 1]
        drawn = hub.knockout()
        assert drawn is not None
        final = drawn["rounds"][0][0]
        assert final["winner"] == winner and drawn["champion"] == winner
        assert final["match"] == assigned and final["table"] == "t1"
        assert final["score"] == table.expected_score()
        page = client.get("/director/").get_data(as_text=True)
        assert f'<b class="rm-champion">{winner}</b>' in page
        table.close()
        hub.close()
