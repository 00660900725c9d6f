"""Admin: the PIN and its refusals, CSRF on every form, and each action reaching the controls."""

from __future__ import annotations

import time
from typing import Any

import pytest
from conftest import PIN, csrf_of
from flask import Flask
from flask.testing import FlaskClient

from sheshbesh.match import MatchSettings
from web import create_app
from web.admin import FormError, parse_corners, parse_match_settings
from web.fakes import FakeControls
from web.hub import PanelHub

NEW_MATCH = {
    "player0": "Ada",
    "player1": "Boris",
    "length": "7",
    "variant": "backgammon",
    "policy": "tournament",
    "crawford": "on",
    "hints": "on",
}
CORNERS = {
    "x1": "10",
    "y1": "12",
    "x2": "630",
    "y2": "8",
    "x3": "635",
    "y3": "470",
    "x4": "5",
    "y4": "475",
}
ACTIONS = [
    ("/admin/new-match", NEW_MATCH),
    ("/admin/resign", {"player": "1", "points": "2"}),
    ("/admin/undo", {}),
    ("/admin/calibration", CORNERS),
]
PAGES = [
    "/admin/",
    "/admin/calibration",
    "/admin/calibration/frame.jpg",
    "/admin/calibration/overlay.jpg",
]


@pytest.mark.parametrize("path", PAGES)
def test_admin_pages_redirect_to_login_without_the_pin(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/admin/login?next=")


@pytest.mark.parametrize(("path", "form"), ACTIONS)
def test_admin_actions_are_refused_without_the_pin(
    client: FlaskClient, controls: FakeControls, path: str, form: dict[str, str]
) -> None:
    response = client.post(path, data=form | {"csrf_token": csrf_of(client)})
    assert response.status_code == 403
    assert controls.calls == []


def _stranger(app: Flask, address: str = "192.168.1.50") -> tuple[FlaskClient, str]:
    """A client on the café's network (the test client is the Pi itself unless told)."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client, csrf_of(client)


def test_wrong_pins_are_limited_per_client(app: Flask) -> None:
    stranger, token = _stranger(app)
    codes = [
        stranger.post("/admin/login", data={"pin": "0000", "csrf_token": token}).status_code
        for _ in range(7)
    ]
    assert codes == [401] * 5 + [429] * 2
    refused = stranger.post("/admin/login", data={"pin": PIN, "csrf_token": token})
    assert refused.status_code == 429 and "Too many wrong PINs" in refused.text
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    assert stranger.get("/admin/").status_code == 302
    owner, token = _stranger(app, "192.168.1.77")
    assert owner.post("/admin/login", data={"pin": PIN, "csrf_token": token}).status_code == 302
    assert owner.get("/admin/").status_code == 200


def test_right_pins_do_not_count_against_a_client(app: Flask) -> None:
    owner, token = _stranger(app)
    for _ in range(8):
        assert owner.post("/admin/login", data={"pin": PIN, "csrf_token": token}).status_code == 302
        token = csrf_of(owner)


def test_an_ipv6_client_is_limited_by_its_network(app: Flask) -> None:
    for host in range(1, 7):
        client, token = _stranger(app, f"fd00:1:2:3::{host:x}")
        status = client.post("/admin/login", data={"pin": "0000", "csrf_token": token}).status_code
        assert status == (401 if host <= 5 else 429)


def test_the_pi_itself_and_trusted_networks_are_never_limited(
    config: dict[str, Any], hub: PanelHub
) -> None:
    app = create_app(config | {"TRUSTED_NETWORKS": "10.0.0.0/8"}, hub=hub)
    for address in ("127.0.0.1", "10.1.2.3"):
        client, token = _stranger(app, address)
        for _ in range(8):
            assert (
                client.post("/admin/login", data={"pin": "1", "csrf_token": token}).status_code
                == 401
            )
        assert (
            client.post("/admin/login", data={"pin": PIN, "csrf_token": token}).status_code == 302
        )
    # A proxy on the Pi speaking for someone else is not the Pi's own screen.
    proxied, token = _stranger(app, "127.0.0.1")
    proxied.environ_base["HTTP_X_FORWARDED_FOR"] = "192.168.1.9"
    codes = [
        proxied.post("/admin/login", data={"pin": "1", "csrf_token": token}).status_code
        for _ in range(6)
    ]
    assert codes[-1] == 429


def test_wrong_pins_decay_with_time(config: dict[str, Any], hub: PanelHub) -> None:
    app = create_app(config | {"PIN_LIMITS": "2 per 1 second"}, hub=hub)
    client, token = _stranger(app)
    for _ in range(2):
        client.post("/admin/login", data={"pin": "1", "csrf_token": token})
    assert client.post("/admin/login", data={"pin": PIN, "csrf_token": token}).status_code == 429
    time.sleep(1.2)  # the moving window passes: the old failures no longer count
    assert client.post("/admin/login", data={"pin": PIN, "csrf_token": token}).status_code == 302


def test_empty_pin_counts_as_wrong(client: FlaskClient) -> None:
    assert (
        client.post("/admin/login", data={"pin": "", "csrf_token": csrf_of(client)}).status_code
        == 401
    )


def test_login_is_refused_when_no_pin_was_set(config: dict[str, Any], hub: PanelHub) -> None:
    app = create_app(config | {"PIN_HASH": None}, hub=hub)
    client = app.test_client()
    page = client.get("/admin/login")
    assert "No admin PIN has been set" in page.text
    with client.session_transaction() as session:
        session["csrf_token"] = "token-of-this-session"
    response = client.post("/admin/login", data={"pin": "", "csrf_token": "token-of-this-session"})
    assert response.status_code == 403 and "set-pin" in response.text


def test_login_follows_next_only_inside_admin(client: FlaskClient) -> None:
    token = csrf_of(client)
    response = client.post(
        "/admin/login?next=/admin/calibration", data={"pin": PIN, "csrf_token": token}
    )
    assert response.headers["Location"] == "/admin/calibration"
    client.post("/admin/logout", data={"csrf_token": csrf_of(client)})
    token = csrf_of(client)
    response = client.post(
        "/admin/login?next=//evil.example/admin/", data={"pin": PIN, "csrf_token": token}
    )
    assert response.headers["Location"] == "/admin/"


@pytest.mark.parametrize("token", [None, "", "forged-token"])
@pytest.mark.parametrize(
    ("path", "form"), [*ACTIONS, ("/admin/login", {"pin": PIN}), ("/admin/logout", {})]
)
def test_forms_without_this_sessions_csrf_token_are_refused(
    admin: FlaskClient, controls: FakeControls, path: str, form: dict[str, str], token: str | None
) -> None:
    data = dict(form) if token is None else form | {"csrf_token": token}
    response = admin.post(path, data=data)
    assert response.status_code == 400
    assert "security token" in response.text
    assert controls.calls == []


def test_token_of_another_session_is_refused(
    admin: FlaskClient, app: Flask, controls: FakeControls
) -> None:
    other = app.test_client()
    stolen = csrf_of(other)
    assert admin.post("/admin/undo", data={"csrf_token": stolen}).status_code == 400
    assert controls.calls == []


def test_every_form_on_the_admin_pages_carries_the_token(admin: FlaskClient) -> None:
    token = csrf_of(admin)
    for path in ("/admin/", "/admin/calibration", "/admin/login"):
        html = admin.get(path).text
        assert html.count("<form") == html.count(f'name="csrf_token" value="{token}"'), path


def test_new_match_reaches_the_controls_and_the_panel(
    admin: FlaskClient, controls: FakeControls, hub: PanelHub
) -> None:
    response = admin.post("/admin/new-match", data=NEW_MATCH | {"csrf_token": csrf_of(admin)})
    assert response.status_code == 302
    assert controls.calls == [
        (
            "new_match",
            MatchSettings(
                ("Ada", "Boris"),
                length=7,
                crawford=True,
                jacoby=False,
                beavers=False,
                policy="tournament",
                hints=True,
                variant="backgammon",
            ),
        )
    ]
    assert "Started a 7-point match: Ada – Boris." in admin.get("/admin/").text
    assert hub.snapshot()[1]["match"]["players"] == ["Ada", "Boris"]


def test_new_match_with_bad_fields_lists_every_problem(
    admin: FlaskClient, controls: FakeControls
) -> None:
    form = NEW_MATCH | {"length": "seven", "policy": "lenient", "csrf_token": csrf_of(admin)}
    response = admin.post("/admin/new-match", data=form)
    assert response.status_code == 400
    assert (
        "match length &#39;seven&#39;" in response.text
        and "policy &#39;lenient&#39;" in response.text
    )
    assert controls.calls == []


def test_resign_and_undo_reach_the_controls(admin: FlaskClient, controls: FakeControls) -> None:
    token = csrf_of(admin)
    assert (
        admin.post(
            "/admin/resign", data={"player": "1", "points": "2", "csrf_token": token}
        ).status_code
        == 302
    )
    assert admin.post("/admin/undo", data={"csrf_token": token}).status_code == 302
    assert controls.calls == [("resign", {"player": 1, "points": 2}), ("undo", None)]
    bad = admin.post("/admin/resign", data={"player": "2", "points": "4", "csrf_token": token})
    assert bad.status_code == 400 and len(controls.calls) == 2


def test_refusal_by_the_referee_is_shown_in_its_words(
    admin: FlaskClient, controls: FakeControls
) -> None:
    controls.refusal = "nothing to undo: the game has just started"
    response = admin.post("/admin/undo", data={"csrf_token": csrf_of(admin)})
    assert response.status_code == 409
    assert "Refused: nothing to undo: the game has just started" in response.text


def test_calibration_without_a_camera_says_so_and_images_are_404(admin: FlaskClient) -> None:
    page = admin.get("/admin/calibration")
    assert page.status_code == 200 and "No camera frame yet" in page.text
    assert admin.get("/admin/calibration/frame.jpg").status_code == 404
    assert admin.get("/admin/calibration/overlay.jpg").status_code == 404


def test_calibration_shows_the_overlay_and_saves_clicked_corners(
    admin: FlaskClient, controls: FakeControls
) -> None:
    controls.frame, controls.overlay = b"\xff\xd8frame", b"\xff\xd8overlay"
    page = admin.get("/admin/calibration").text
    assert 'src="/admin/calibration/overlay.jpg"' in page
    frame = admin.get("/admin/calibration/frame.jpg")
    assert frame.mimetype == "image/jpeg" and frame.data == b"\xff\xd8frame"
    assert admin.get("/admin/calibration/overlay.jpg").data == b"\xff\xd8overlay"
    response = admin.post("/admin/calibration", data=CORNERS | {"csrf_token": csrf_of(admin)})
    assert response.status_code == 302
    assert controls.calls == [
        ("set_corners", [(10.0, 12.0), (630.0, 8.0), (635.0, 470.0), (5.0, 475.0)])
    ]


def test_calibration_with_bad_corners_is_refused(
    admin: FlaskClient, controls: FakeControls
) -> None:
    response = admin.post(
        "/admin/calibration", data=CORNERS | {"x3": "-4", "y4": "", "csrf_token": csrf_of(admin)}
    )
    assert response.status_code == 400
    assert "bottom-right corner: x &#39;-4&#39;" in response.text
    assert "bottom-left corner: y &#39;&#39; is not a number" in response.text
    assert controls.calls == []


def test_logout_ends_the_admin_session(admin: FlaskClient) -> None:
    assert admin.post("/admin/logout", data={"csrf_token": csrf_of(admin)}).status_code == 302
    assert admin.get("/admin/").status_code == 302


def test_a_copied_cookie_is_worthless_after_logout(app: Flask, admin: FlaskClient) -> None:
    cookie = admin.get_cookie("session")
    assert cookie is not None
    thief = app.test_client()
    thief.set_cookie("session", cookie.value)
    assert thief.get("/admin/").status_code == 200
    admin.post("/admin/logout", data={"csrf_token": csrf_of(admin)})
    assert thief.get("/admin/").status_code == 302


def test_secure_cookies_behind_https(config: dict[str, Any], hub: PanelHub) -> None:
    app = create_app(config | {"SESSION_COOKIE_SECURE": True, "PROXIES": 1}, hub=hub)
    client = app.test_client()
    page = client.get("/admin/login", headers={"X-Forwarded-Proto": "https"})
    assert "Secure" in page.headers["Set-Cookie"] and "HttpOnly" in page.headers["Set-Cookie"]


def test_admin_session_expires(
    config: dict[str, Any], hub: PanelHub, controls: FakeControls
) -> None:
    app = create_app(config | {"ADMIN_SESSION_SECONDS": 0}, hub=hub, controls=controls)
    client = app.test_client()
    assert (
        client.post("/admin/login", data={"pin": PIN, "csrf_token": csrf_of(client)}).status_code
        == 302
    )
    assert client.get("/admin/").status_code == 302


def test_parse_match_settings_money_rules_and_default_names() -> None:
    settings = parse_match_settings(
        {
            "length": "0",
            "policy": "condone",
            "variant": "sheshbesh",
            "crawford": "on",
            "jacoby": "on",
            "beavers": "on",
        }
    )
    assert settings.players == ("White", "Black")
    assert (settings.crawford, settings.jacoby, settings.beavers) == (False, True, True)
    with pytest.raises(FormError, match="longer than 40"):
        parse_match_settings(NEW_MATCH | {"player0": "x" * 41})
    with pytest.raises(ValueError, match="0 \\(money\\) to 64"):
        parse_match_settings(NEW_MATCH | {"length": "65"})


def test_parse_corners_refuses_repeated_points() -> None:
    with pytest.raises(FormError, match="four different points"):
        parse_corners(CORNERS | {"x2": "10", "y2": "12"})
