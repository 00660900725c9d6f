"""The match clock on the panel: the snapshot's shape, the pages that draw it, the director's pause."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest
from conftest import csrf_of
from flask import Flask
from flask.testing import FlaskClient

from controller.referee import ClockSettings, MatchSettings, NewMatch, Referee
from web.errors import PanelStateError
from web.fakes import FakeControls
from web.hub import PanelHub
from web.state import check_state, example_clock, example_state


def clocked_state(**changes: object) -> dict[str, object]:
    state = example_state()
    state["clock"] = example_clock() | changes
    return state


def test_a_referee_snapshot_with_a_clock_is_a_valid_panel_state() -> None:
    referee = Referee(clock=lambda: 10.0)
    referee.handle(NewMatch(MatchSettings(length=5, clock=ClockSettings(delay="bronstein"))))
    snapshot = check_state(dict(referee.snapshot()))
    assert snapshot["clock"]["remaining"] == [600.0, 600.0]
    assert snapshot["clock"]["delay_kind"] == "bronstein"


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"remaining": [10.0]}, "clock.remaining: must be a list of two"),
        ({"remaining": [10.0, -1]}, "clock.remaining.1: must be a number of seconds"),
        ({"running": 2}, "clock.running: must be null, 0 or 1"),
        ({"delay_kind": "fischer"}, "clock.delay_kind: must be one of simple, bronstein"),
        ({"flagged": [True, "no"]}, "clock.flagged"),
    ],
)
def test_a_malformed_clock_is_refused_by_name(changes: dict[str, object], words: str) -> None:
    with pytest.raises(PanelStateError, match=re.escape(words)):
        check_state(clocked_state(**changes))


def test_the_scoreboard_and_the_board_page_show_both_clocks(
    client: FlaskClient, hub: PanelHub
) -> None:
    hub.publish(clocked_state())
    for path in ("/", "/scoreboard/fragment", "/board"):
        page = client.get(path).text
        faces = re.findall(r'data-field="clock-(\d)">([^<]*)<', page)
        # 611.4 s shows as 10:12 (a clock shows a second until it is spent), 52 s as 0:52.
        assert faces == [("0", "10:12"), ("1", "0:52")], path
        assert 'class="clock-side clock-white is-running"' in page
        assert "clock-black is-low" in page
        assert 'data-field="clock-delay">3<' in page
        assert "clock.js" in page


def test_a_flag_a_pause_and_a_loss_on_time_are_shown(client: FlaskClient, hub: PanelHub) -> None:
    hub.publish(clocked_state(paused=True))
    page = client.get("/scoreboard/fragment").text
    assert "is-running" not in page
    assert "Clock paused" in page
    hub.publish(
        clocked_state(remaining=[611.4, 0.0], flagged=[False, True], running=None, lost_on_time=1)
    )
    page = client.get("/scoreboard/fragment").text
    assert "Flag: out of time" in page
    assert "Boris lost the match on time" in page


def test_no_clock_no_clock_markup(client: FlaskClient) -> None:
    assert "match-clock" not in client.get("/").text
    assert "match-clock" not in client.get("/board").text


def test_the_director_pauses_and_resumes_behind_the_pin(
    admin: FlaskClient, client: FlaskClient, controls: FakeControls, hub: PanelHub
) -> None:
    hub.publish(clocked_state())
    assert 'value="pause"' in admin.get("/admin/").text
    token = csrf_of(admin)
    assert (
        admin.post("/admin/clock", data={"action": "pause", "csrf_token": token}).status_code == 302
    )
    assert (
        admin.post("/admin/clock", data={"action": "resume", "csrf_token": token}).status_code
        == 302
    )
    assert controls.calls == [("pause_clock", True), ("pause_clock", False)]
    refused = admin.post("/admin/clock", data={"action": "stop", "csrf_token": token})
    assert refused.status_code == 400
    assert "must be pause or resume" in refused.text
    controls.refusal = "the clock is already paused"
    again = admin.post("/admin/clock", data={"action": "pause", "csrf_token": token})
    assert again.status_code == 409
    assert "the clock is already paused" in again.text


def test_the_pause_needs_the_pin(app: Flask, controls: FakeControls) -> None:
    stranger = app.test_client()
    response = stranger.post(
        "/admin/clock", data={"action": "pause", "csrf_token": csrf_of(stranger)}
    )
    assert response.status_code in (302, 403)
    assert controls.calls == []


@dataclass
class ClocklessControls:
    """Controls of a table without a clock (no ``pause_clock``)."""

    calls: list[str] = field(default_factory=list)

    def new_match(self, settings: object) -> None:
        self.calls.append("new_match")

    def resign(self, player: int, points: int) -> None:
        self.calls.append("resign")

    def undo(self) -> None:
        self.calls.append("undo")


def test_a_table_without_a_clock_says_so(
    config: dict[str, object], hub: PanelHub, store: object
) -> None:
    from conftest import PIN

    from web import create_app

    app = create_app(config, hub=hub, controls=ClocklessControls(), store=store)  # type: ignore[arg-type]
    client = app.test_client()
    client.post("/admin/login", data={"pin": PIN, "csrf_token": csrf_of(client)})
    response = client.post("/admin/clock", data={"action": "pause", "csrf_token": csrf_of(client)})
    assert response.status_code == 409
    assert "no match clock" in response.text
