"""The room's pages in a real Chromium (Debian's package, driven by Playwright), served by waitress.

Screenshots of the room, a table and the stream overlay go to ``artifacts/room/`` for a person to
look at. The room page must follow the hub live: a table's next events change its card without a
reload.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.security import generate_password_hash

from controller.network.hub import Hub
from controller.network.mirror import Mirror
from tests.network.roomkit import SimulatedTable, fill_mirror
from tests.shared_data import MATCHES_DIR
from web.room import create_room_app
from web.server import make_server

CHROMIUM = "/usr/bin/chromium"
if not os.path.exists(CHROMIUM):
    pytest.skip(
        f"browser tests need Debian's chromium at {CHROMIUM} (apt-get install chromium)",
        allow_module_level=True,
    )
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="browser tests need Playwright for Python"
)

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "room"
PIN = "2468"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Hub, SimulatedTable]]:
    folder = tmp_path_factory.mktemp("room")
    files = sorted(MATCHES_DIR.glob("*.mat"))
    mirror = Mirror(str(folder / "hub.sqlite"))
    tables = [
        SimulatedTable(folder, "table-1", files[3].read_text(), "mqtt://127.0.0.1:1"),
        SimulatedTable(folder, "table-2", files[0].read_text(), "mqtt://127.0.0.1:1"),
        SimulatedTable(folder, "table-3", files[2].read_text(), "mqtt://127.0.0.1:1"),
    ]
    tables[0].feed(101)
    tables[1].feed()
    tables[2].feed(40)
    for table in tables:
        fill_mirror(mirror, table)
    mirror.set_presence("table-3", False, None)
    hub = Hub("mqtt://127.0.0.1:1", mirror, room="cafe")
    app = create_room_app(
        hub,
        {
            "KEEPALIVE": 1.0,
            "ROOM_TITLE": "Café Shesh Besh",
            "PIN_HASH": generate_password_hash(PIN),
        },
    )
    server = make_server(app, "127.0.0.1", 0, threads=8)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}", hub, tables[0]
    server.task_dispatcher.shutdown(timeout=2)
    server.close()
    for table in tables:
        table.record.close()
    mirror.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


def _page(browser: Any, width: int = 1280, height: int = 720) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def test_room_page_follows_the_tables_live(
    browser: Any, room: tuple[str, Hub, SimulatedTable]
) -> None:
    url, hub, playing = room
    page = _page(browser)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url + "/")
    assert page.locator("article.rm-table-card").count() == 3
    assert "offline" in page.locator("#card-table-3").inner_text()
    assert "match over" in page.locator("#card-table-2").inner_text()
    page.wait_for_selector("#connection.live")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "room.png"), full_page=True)
    before = page.locator("#card-table-1 .rm-events").inner_text()
    # The table plays on: the hub's mirror takes its next events, the card follows.
    start = playing.record.last_sequence()
    playing.feed(30)
    fill_more(hub.mirror, playing, start)
    expected = f"{hub.mirror.summary('table-1')['events']} events"  # type: ignore[index]
    assert expected != before
    page.wait_for_function(
        "text => document.querySelector('#card-table-1 .rm-events').textContent.trim() === text",
        arg=expected,
    )
    assert not errors


def fill_more(mirror: Mirror, table: SimulatedTable, after: int) -> None:
    """Hand the mirror ``table``'s events after sequence ``after`` (as the hub would receive)."""
    import json
    import sqlite3

    from controller.network.link import record_id
    from controller.network.topics import WireEvent

    with sqlite3.connect(table.path) as connection:
        rows = connection.execute(
            "SELECT sequence, match_id, time, type, data FROM events ORDER BY sequence"
        ).fetchall()
    record = record_id(rows[0])
    previous = after
    for sequence, match, when, kind, data in rows:
        if sequence <= after:
            continue
        event = WireEvent(record, sequence, previous, match, kind, when, json.loads(data))
        assert mirror.add(table.name, event) == "stored"
        previous = sequence
    mirror.set_snapshot(table.name, record, table.runner.referee.snapshot())


def test_table_page_and_overlay(browser: Any, room: tuple[str, Hub, SimulatedTable]) -> None:
    url, _, _ = room
    page = _page(browser)
    page.goto(url + "/tables/table-1")
    assert page.locator("svg.board").count() == 1
    assert page.locator("svg.board circle, svg.board .checker").count() >= 20
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "table.png"), full_page=True)
    overlay = _page(browser)
    overlay.goto(url + "/overlay/table-1?board=1")
    assert overlay.evaluate("getComputedStyle(document.body).backgroundColor") in (
        "rgba(0, 0, 0, 0)",
        "transparent",
    )
    # the overlay is live: the bar may be swapped for a fresh one between two calls, so it is
    # found and measured in one script
    overlay.wait_for_selector(".rm-overlay-bar")
    bottom = overlay.evaluate(
        "() => { const bar = document.querySelector('.rm-overlay-bar');"
        " return bar ? bar.getBoundingClientRect().bottom : null; }"
    )
    assert bottom is not None and bottom <= 720
    overlay.screenshot(path=str(ARTIFACTS / "overlay.png"), omit_background=True)
    bare = _page(browser)
    bare.goto(url + "/overlay/table-2")
    assert "wins the match" in bare.locator(".rm-overlay-last").inner_text()
    bare.screenshot(path=str(ARTIFACTS / "overlay-finished.png"), omit_background=True)


def test_director_page_behind_the_pin(browser: Any, room: tuple[str, Hub, SimulatedTable]) -> None:
    url, _, _ = room
    page = _page(browser, height=900)
    page.goto(url + "/director/")
    assert page.url.endswith("/director/login")
    page.fill("input[name=pin]", "0000")
    page.click("button[type=submit]")
    page.wait_for_selector(".rm-flashes:has-text('Wrong PIN')")
    assert "Wrong PIN" in page.locator(".rm-flashes").inner_text()
    page.fill("input[name=pin]", PIN)
    page.click("button[type=submit]")
    page.wait_for_url(url + "/director/")
    assert page.locator("table.rm-results tbody tr").count() >= 3  # three matches, one finished
    assert "wins" in page.locator("table.rm-results").first.inner_text()
    # The hub here has no broker: sending an assignment says so instead of pretending.
    page.fill("input[name=white]", "Dana")
    page.fill("input[name=black]", "Eli")
    page.click("form.rm-assign button[type=submit]")
    page.wait_for_selector(".rm-flashes:has-text('not connected')")
    assert "not connected" in page.locator(".rm-flashes").inner_text()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "director.png"), full_page=True)
