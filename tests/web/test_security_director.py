"""The room director's PIN is limited per client, as the table panel's is: a stranger's wrong
PINs lock out only the stranger, old failures decay, and the hub's own machine and trusted
networks are never limited."""

from __future__ import annotations

import re
import time
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.security import generate_password_hash

from web.room import create_room_app

PIN = "4321"


class Room:
    """A room with no tables whose director does nothing: the login is what is tested."""

    def tables(self) -> list[dict[str, Any]]:
        return []

    def table(self, name: str) -> dict[str, Any] | None:
        return None

    def wait_for_change(self, since: int, timeout: float) -> tuple[int, list[dict[str, Any]]]:
        return since, []

    def status(self) -> dict[str, Any]:
        return {"room": "cafe", "connected": True}

    def assign(self, table: str, settings: dict[str, Any]) -> str:
        return "a1"

    def results(self) -> list[dict[str, Any]]:
        return []

    def standings(self) -> list[dict[str, Any]]:
        return []

    def archive(self, day: str | None = None) -> bytes:
        return b""


def _app(**config: Any) -> Flask:
    return create_room_app(
        Room(),
        {"TESTING": True, "SECRET_KEY": "t", "PIN_HASH": generate_password_hash(PIN), **config},
    )


def _client(app: Flask, address: str = "192.168.1.50") -> tuple[FlaskClient, str]:
    """A client at ``address`` (the test client is the hub's own machine unless told) with the
    CSRF token of its login form."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    page = client.get("/director/login").get_data(as_text=True)
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found is not None
    return client, found.group(1)


def _login(client: FlaskClient, token: str, pin: str) -> int:
    return client.post("/director/login", data={"pin": pin, "csrf_token": token}).status_code


def test_a_strangers_wrong_pins_lock_out_only_the_stranger() -> None:
    app = _app()
    stranger, token = _client(app)
    assert [_login(stranger, token, "0000") for _ in range(7)] == [401] * 5 + [429] * 2
    refused = stranger.post("/director/login", data={"pin": PIN, "csrf_token": token})
    assert refused.status_code == 429
    assert "Too many wrong PINs from this device" in refused.get_data(as_text=True)
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    assert stranger.get("/director/").status_code == 302  # still not let in
    # The director, on another device, logs in at once: no delay shared by everyone.
    director, token = _client(app, "192.168.1.77")
    assert _login(director, token, PIN) == 302
    assert director.get("/director/").status_code == 200


def test_right_pins_never_count() -> None:
    director, token = _client(_app())
    for _ in range(8):
        assert _login(director, token, PIN) == 302
        director, token = _client(director.application)  # a fresh session, same address


def test_an_ipv6_client_is_limited_by_its_network() -> None:
    app = _app()
    for host in range(1, 7):
        client, token = _client(app, f"fd00:1:2:3::{host:x}")
        assert _login(client, token, "0000") == (401 if host <= 5 else 429)


def test_the_hubs_own_machine_and_trusted_networks_are_never_limited() -> None:
    app = _app(TRUSTED_NETWORKS="10.0.0.0/8")
    for address in ("127.0.0.1", "10.1.2.3"):
        client, token = _client(app, address)
        assert [_login(client, token, "1") for _ in range(8)] == [401] * 8
        assert _login(client, token, PIN) == 302


def test_wrong_pins_decay_with_time() -> None:
    client, token = _client(_app(PIN_LIMITS="2 per 1 second"))
    assert [_login(client, token, "1") for _ in range(2)] == [401, 401]
    assert _login(client, token, PIN) == 429
    time.sleep(1.2)  # the moving window passes: the old failures no longer count
    assert _login(client, token, PIN) == 302


def test_a_bad_trusted_network_is_refused_when_the_app_is_built() -> None:
    try:
        _app(TRUSTED_NETWORKS="not-a-network")
    except ValueError as error:
        assert "not-a-network" in str(error)
    else:
        raise AssertionError("a bad TRUSTED_NETWORKS entry was accepted")
