"""The director: assignments reach a table and start there when it is free; results, standings and
the day's archive; the pages behind the PIN. A real mosquitto, the real hub, a simulated table."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest
from werkzeug.security import generate_password_hash

from controller.network.director import AssignmentError, FollowDirector, assignment_settings
from controller.network.director import standings as standings_of
from controller.network.hub import Hub
from controller.network.link import TableLink
from controller.network.mirror import Mirror
from controller.record.matfile import read_mat
from controller.record.rules_replay import replay_records
from tests.network.roomkit import MOSQUITTO, Broker, SimulatedTable, wait_for
from tests.shared_data import MATCHES_DIR
from web.room import create_room_app

PIN = "2468"


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ({"players": ["A"]}, "two players"),
        ({"players": ["A", " "]}, "name of 1 to 40"),
        ({"players": ["A", "B"], "length": "seven"}, "not a number"),
        ({"players": ["A", "B"], "length": 99}, "0 (money) to 64"),
        ({"players": ["A", "B"], "variant": "chess"}, "variant 'chess'"),
        ({"players": ["A", "B"], "policy": "lenient"}, "policy 'lenient'"),
    ],
)
def test_a_bad_assignment_is_refused_naming_the_field(raw: dict[str, object], words: str) -> None:
    with pytest.raises(AssignmentError, match=re.escape(words)):
        assignment_settings(raw)


def test_standings_rank_by_wins_then_point_difference() -> None:
    rows = standings_of(
        [
            {"players": ["Ada", "Boris"], "score": [5, 3], "winner": 0},
            {"players": ["Boris", "Chen"], "score": [5, 0], "winner": 0},
            {"players": ["Chen", "Ada"], "score": [5, 4], "winner": 0},
            {"players": ["Ada", "Chen"], "score": [1, 2], "winner": None},  # still playing
        ]
    )
    assert [(r["player"], r["won"], r["lost"]) for r in rows] == [
        ("Boris", 1, 1),
        ("Ada", 1, 1),
        ("Chen", 1, 1),
    ]
    assert rows[0]["for"] - rows[0]["against"] == 3


@pytest.mark.skipif(MOSQUITTO is None, reason="mosquitto is not installed")
def test_director_assigns_a_match_collects_results_and_archives_them(tmp_path: Path) -> None:
    source = sorted(MATCHES_DIR.glob("*.mat"))[0].read_text()
    with Broker(tmp_path / "broker") as broker:
        hub = Hub(broker.url, Mirror(str(tmp_path / "hub.sqlite"))).start()
        wait_for(lambda: hub.is_connected, 20, "the hub connected")
        table = SimulatedTable(tmp_path, "t1", source, broker.url).start()
        follow = FollowDirector(table.runner).attach(table.link)
        table.feed(30)  # a match in progress: the assignment waits for it to end
        app = create_room_app(
            hub,
            {
                "TESTING": True,
                "PIN_HASH": generate_password_hash(PIN),
                "SECRET_KEY": "t",
            },
        )
        client = app.test_client()
        assert client.get("/director/").status_code == 302  # the login page first
        page = client.get("/director/login").get_data(as_text=True)
        token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
        assert (
            client.post("/director/login", data={"pin": "0000", "csrf_token": token}).status_code
            == 401
        )
        assert client.get("/director/").status_code == 302  # a wrong PIN does not let in
        assert client.post("/director/login", data={"pin": PIN}).status_code == 400  # no token
        client.post("/director/login", data={"pin": PIN, "csrf_token": token})
        page = client.get("/director/").get_data(as_text=True)
        assert "Assign the next match" in page
        token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
        form = {
            "csrf_token": token, "table": "t1", "white": "Dana", "black": "Eli",
            "length": "3", "variant": "backgammon", "policy": "tournament", "crawford": "on",
        }  # fmt: skip
        answer = client.post("/director/assign", data=form, follow_redirects=True)
        assert "starts when the board is free" in answer.get_data(as_text=True)
        assigned = hub.assignments["t1"]["id"]
        # Not while the recorded match goes on...
        table.feed(20)
        assert follow.started == []
        # ...but as soon as it is won.
        table.feed()
        wait_for(lambda: follow.started == [assigned], 20, "the assigned match to start")
        assert table.link.wait_until_acknowledged(30)
        summary = hub.mirror.summary("t1")
        assert summary is not None
        assert summary["match"] == assigned
        assert summary["players"] == ["Dana", "Eli"] and summary["length"] == 3
        # The broker hands the retained assignment again after a reconnect: not started twice.
        table.link.close()
        table.link = TableLink(table.path, broker.url, "t1").start()
        table.runner.panels = [table.link]
        follow.attach(table.link)
        wait_for(lambda: table.link.is_connected, 20, "the table back")
        assert table.link.wait_until_acknowledged(30)
        assert [m["id"] for m in table.record.matches()].count(assigned) == 1
        # Results, standings and the archive of the day.
        page = client.get("/director/").get_data(as_text=True)
        first = table.match.players
        assert "Dana" in page and f"{first[1]} wins" in page
        archive = client.get("/director/archive.zip")
        assert archive.mimetype == "application/zip"
        with zipfile.ZipFile(io.BytesIO(archive.data)) as files:
            names = sorted(files.namelist())
            assert names == sorted(["t1-t1-match.mat", f"t1-{assigned}.mat"])
            exported = read_mat(files.read("t1-t1-match.mat").decode())
        replayed = next(r for r in replay_records(exported) if r["type"] == "match")["score"]
        assert replayed == table.expected_score()
        assert client.post("/director/logout", data={"csrf_token": token}).status_code == 302
        assert client.get("/director/").status_code == 302
        table.close()
        hub.close()
