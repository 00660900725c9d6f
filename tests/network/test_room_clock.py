"""The match clock on the room's pages (the room's cards, a table's page, the stream overlay), drawn
from the snapshot each table retains on the broker, as the hub's mirror holds it (no broker here:
the mirror is filled directly, as the hub would fill it)."""

from __future__ import annotations

import dataclasses
import html
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from controller.network.hub import Hub
from controller.network.mirror import Mirror
from controller.referee import NewMatch
from controller.referee.clock import ClockSettings
from tests.network.roomkit import SimulatedTable, fill_mirror
from tests.shared_data import MATCHES_DIR
from web.room import create_room_app
from web.state import example_clock, example_state

PAGES = ("/", "/fragments/cards?names={name}", "/tables/{name}", "/overlay/{name}")
SIDE = re.compile(
    r'<div class="clock-side clock-(white|black)([^"]*)" data-player="(\d)" '
    r'data-remaining="([^"]*)" data-delay-left="([^"]*)" data-running="(true|false)">'
    r'.*?data-field="clock-\3">([^<]*)</div>',
    re.S,
)


def face(seconds: float) -> str:
    """What a clock face should read: whole seconds rounded up, m:ss (h:mm:ss from an hour)."""
    whole = math.ceil(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def clocks(page: str) -> list[dict[str, Any]]:
    """Every clock drawn on ``page``: its classes and data, and each side's as read back."""
    found = []
    for block in page.split('<div class="match-clock ')[1:]:
        head = block.split(">", 1)[0]
        body = block.split('data-field="clock-status">', 1)
        status = " ".join(
            html.unescape(re.sub(r"<[^>]+>", " ", body[1].split("</div>")[0])).split()
        )
        sides = {
            int(player): {
                "colour": colour,
                "classes": classes.split(),
                "remaining": float(remaining),
                "delay_left": float(delay_left),
                "running": running == "true",
                "face": text.strip(),
            }
            for colour, classes, player, remaining, delay_left, running, text in SIDE.findall(
                body[0]
            )
        }
        found.append({"head": head, "sides": sides, "status": status, "html": body[0]})
    return found


def the_clock(client: FlaskClient, path: str, **headers: str) -> dict[str, Any]:
    response = client.get(path, headers=headers)
    assert response.status_code == 200, path
    drawn = clocks(response.get_data(as_text=True))
    assert len(drawn) == 1, path
    return drawn[0]


def snapshot(**clock: Any) -> dict[str, Any]:
    """The panel's example snapshot (Ada v Boris, 7 points) with its clock changed by ``clock``."""
    state = example_state()
    state["clock"] = example_clock() | clock
    return state


@pytest.fixture
def mirror(tmp_path: Path) -> Iterator[Mirror]:
    held = Mirror(str(tmp_path / "hub.sqlite"))
    yield held
    held.close()


@pytest.fixture
def client(mirror: Mirror) -> FlaskClient:
    app = create_room_app(Hub("mqtt://127.0.0.1:1", mirror, room="cafe"), {"TESTING": True})
    return app.test_client()


def retain(mirror: Mirror, name: str, state: dict[str, Any], *, online: bool = True) -> None:
    """What the hub does with a table's retained snapshot and its presence."""
    mirror.set_snapshot(name, f"{name}-record", state)
    mirror.set_presence(name, online, None)


@pytest.mark.parametrize("path", PAGES)
def test_both_clocks_the_running_side_marked_and_low_time_warned(
    client: FlaskClient, mirror: Mirror, path: str
) -> None:
    retain(mirror, "t1", snapshot(remaining=[611.4, 52.0], running=0, delay_left=3.0))
    drawn = the_clock(client, path.format(name="t1"))
    white, black = drawn["sides"][0], drawn["sides"][1]
    assert (white["face"], black["face"]) == ("10:12", "0:52")
    assert (white["remaining"], black["remaining"]) == (611.4, 52.0)
    assert white["running"] and "is-running" in white["classes"]
    assert not black["running"] and "is-running" not in black["classes"]
    assert "is-low" in black["classes"] and "is-low" not in white["classes"]
    assert "Low on time" in drawn["html"]
    assert 'aria-label="time running"' in drawn["html"].split('data-player="1"')[0]
    # The running side's delay travels to clock.js (it counts down from the reserve after it).
    assert white["delay_left"] == 3.0 and black["delay_left"] == 0.0
    assert 'data-paused="false"' in drawn["head"] and 'data-delay-kind="simple"' in drawn["head"]
    assert "Ada" in drawn["html"] and "Boris" in drawn["html"]


def test_each_page_has_its_size_and_loads_the_shared_script(
    client: FlaskClient, mirror: Mirror
) -> None:
    retain(mirror, "t1", snapshot())
    for path, size in (("/", "card"), ("/tables/t1", "table"), ("/overlay/t1", "overlay")):
        page = client.get(path).get_data(as_text=True)
        assert f"rm-clock-{size}" in page, path
        assert '<script src="/panel-static/clock.js"></script>' in page, path
        assert '<link rel="stylesheet" href="/panel-static/clock.css">' in page, path
    # The table's page draws one clock, beside the board, not a second one in its card.
    assert client.get("/tables/t1").get_data(as_text=True).count('class="match-clock') == 1
    script = client.get("/panel-static/clock.js")
    assert script.status_code == 200 and b".match-clock" in script.data


def test_a_flag_and_a_match_lost_on_time(client: FlaskClient, mirror: Mirror) -> None:
    retain(
        mirror,
        "t1",
        snapshot(remaining=[598.0, 0.0], running=None, flagged=[False, True], lost_on_time=1),
    )
    for path in PAGES:
        drawn = the_clock(client, path.format(name="t1"))
        assert drawn["sides"][1]["face"] == "0:00"
        assert drawn["sides"][0]["face"] == "9:58"
        assert "is-flagged" in drawn["sides"][1]["classes"]
        assert "is-flagged" not in drawn["sides"][0]["classes"]
        assert 'data-field="clock-flag-1">Flag: out of time' in drawn["html"]
        assert not drawn["sides"][0]["running"] and not drawn["sides"][1]["running"]
        assert drawn["status"] == "Boris lost the match on time"


@pytest.mark.parametrize(
    ("paused", "online", "status"),
    [(True, True, "Clock paused"), (False, False, "Clock stopped: the table is offline")],
)
def test_a_paused_clock_and_an_offline_table_do_not_run(
    client: FlaskClient, mirror: Mirror, paused: bool, online: bool, status: str
) -> None:
    retain(mirror, "t1", snapshot(paused=paused), online=online)
    for path in PAGES:
        drawn = the_clock(client, path.format(name="t1"))
        assert 'data-paused="true"' in drawn["head"], path
        assert not any(side["running"] for side in drawn["sides"].values())
        assert drawn["status"] == status
        assert drawn["sides"][0]["face"] == "10:12"


def test_an_hour_or_more_and_the_delay_kind(client: FlaskClient, mirror: Mirror) -> None:
    retain(
        mirror,
        "t1",
        snapshot(remaining=[3725.0, 3600.0], running=1, delay_kind="bronstein", delay_left=0.0),
    )
    drawn = the_clock(client, "/tables/t1")
    assert (drawn["sides"][0]["face"], drawn["sides"][1]["face"]) == ("1:02:05", "1:00:00")
    assert drawn["sides"][1]["running"]
    assert 'data-delay-kind="bronstein"' in drawn["head"]
    assert drawn["status"] == "Delay 12 s (Bronstein)"


@pytest.mark.parametrize("path", PAGES)
def test_no_clock_without_one_in_the_snapshot(
    client: FlaskClient, mirror: Mirror, path: str
) -> None:
    retain(mirror, "plain", example_state())
    broken = snapshot()
    broken["clock"]["remaining"] = ["ten minutes", 52.0]
    retain(mirror, "broken", broken)
    for name in ("plain", "broken"):
        response = client.get(path.format(name=name))
        assert response.status_code == 200
        page = response.get_data(as_text=True)
        assert "match-clock" not in page and "clock-side" not in page, (name, path)
        if path != "/":
            assert "Ada" in page  # the rest of the page is drawn as before


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("he", ("השעון עצור: השולחן מנותק", "נגמר הזמן")),
        ("ar", ("الساعة متوقفة: الطاولة غير متصلة",)),
        ("cs", ("Hodiny stojí: stůl je odpojen",)),
    ],
)
def test_the_clock_speaks_the_viewer_s_language(
    client: FlaskClient, mirror: Mirror, language: str, words: tuple[str, ...]
) -> None:
    retain(mirror, "gone", snapshot(flagged=[False, True], remaining=[600.0, 0.0]), online=False)
    page = client.get("/overlay/gone", headers={"Accept-Language": language}).get_data(as_text=True)
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())
    for word in words:
        assert word in text
    for english in ("Clock stopped", "Flag: out of time", "time running", "Low on time"):
        assert english not in page


@pytest.fixture(scope="module")
def clocked_table(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[SimulatedTable, dict[str, Any]]]:
    """A real refereed match with a clock (5 minutes each, 2 s simple delay): inputs a second
    apart, then one long think of 95 s before the last input fed; with the clock before it."""
    files = sorted(MATCHES_DIR.glob("*.mat"))
    if len(files) < 2:
        pytest.skip("the shared .mat matches are not present")
    folder = tmp_path_factory.mktemp("clocked")
    table = SimulatedTable(folder, "clocked", files[1].read_text(), "mqtt://127.0.0.1:1")
    first = table.inputs[0]
    assert isinstance(first, NewMatch)
    clock = ClockSettings(reserve="fixed", reserve_seconds=300.0, delay_seconds=2.0)
    table.inputs[0] = NewMatch(dataclasses.replace(first.settings, clock=clock))
    table.feed(40)
    before = dict(table.runner.referee.snapshot()["clock"])
    table.clock[0] += 95.0
    table.feed(1)
    yield table, before
    table.record.close()


def test_a_refereed_match_s_clock_as_the_hub_mirrors_it(
    client: FlaskClient, mirror: Mirror, clocked_table: tuple[SimulatedTable, dict[str, Any]]
) -> None:
    table, before = clocked_table
    fill_mirror(mirror, table)
    held = mirror.snapshot("clocked")
    assert held is not None and "clock" in held
    remaining = held["clock"]["remaining"]
    # The side thinking before the last input was charged its 1 + 95 s less the 2 s delay.
    thinker = before["running"]
    assert thinker in (0, 1)
    assert remaining[thinker] == before["remaining"][thinker] - (96.0 - 2.0)
    assert held["clock"]["running"] == 1 - thinker
    for path in PAGES:
        drawn = the_clock(client, path.format(name="clocked"))
        for player in (0, 1):
            assert drawn["sides"][player]["face"] == face(remaining[player]), (path, player)
            assert drawn["sides"][player]["running"] == (held["clock"]["running"] == player)
        names = held["match"]["players"]
        assert names[0] in drawn["html"] and names[1] in drawn["html"]
