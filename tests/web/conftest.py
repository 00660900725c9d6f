"""Fixtures for the score panel: an app wired to fakes, its test client, and a logged-in admin."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.security import generate_password_hash

from web import create_app
from web.fakes import FakeControls, MemoryMatchStore
from web.hub import PanelHub
from web.state import example_state

PIN = "2468"


class FakeClock:
    """A monotonic clock that only moves when a test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(scope="session")
def pin_hash() -> str:
    # Hashing is deliberately slow; once per session is enough.
    return generate_password_hash(PIN, method="scrypt")


@pytest.fixture
def hub() -> Iterator[PanelHub]:
    panel_hub = PanelHub(history=16, queue_size=8)
    panel_hub.publish(example_state())
    yield panel_hub
    panel_hub.close()


@pytest.fixture
def controls(hub: PanelHub) -> FakeControls:
    return FakeControls(hub=hub)


@pytest.fixture
def store() -> MemoryMatchStore:
    return MemoryMatchStore()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def exports_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "exports"
    folder.mkdir()
    return folder


@pytest.fixture
def config(tmp_path: Path, exports_dir: Path, pin_hash: str) -> dict[str, Any]:
    return {
        "TESTING": True,
        "SECRET_KEY": "tests-only",
        "PIN_HASH": pin_hash,
        "PIN_FILE": str(tmp_path / "no-pin-file"),
        "EXPORTS_DIR": str(exports_dir),
        "KEEPALIVE": 0.05,
        "MAX_LISTENERS": 4,
    }


@pytest.fixture
def app(
    config: dict[str, Any],
    hub: PanelHub,
    controls: FakeControls,
    store: MemoryMatchStore,
    clock: FakeClock,
) -> Flask:
    return create_app(config, hub=hub, controls=controls, store=store, clock=clock)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def csrf_of(client: FlaskClient) -> str:
    """The CSRF token of the client's session, made by loading a page with a form."""
    client.get("/admin/login")
    with client.session_transaction() as session:
        token = session["csrf_token"]
    assert isinstance(token, str) and token
    return token


@pytest.fixture
def admin(client: FlaskClient) -> FlaskClient:
    """The client, logged in with the right PIN."""
    response = client.post("/admin/login", data={"pin": PIN, "csrf_token": csrf_of(client)})
    assert response.status_code == 302, response.text
    return client
