"""The match clock on the room's pages in a real Chromium (Debian's package, driven by Playwright),
served by waitress over a hub mirror: the overlay and the cards count the running side down with
the panel's own clock.js, and follow the table's next snapshot.

Screenshots go to ``artifacts/clock/`` for a person to look at.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.network.hub import Hub
from controller.network.mirror import Mirror

# The browser comes from the room's own browser tests (which skip, and so these with them, without
# Debian's chromium or Playwright).
from tests.network import test_room_browser as room_browser
from web.room import create_room_app
from web.server import make_server
from web.state import example_clock, example_state

browser = room_browser.browser
sync_api = room_browser.sync_api

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "clock"
WAIT_MS = 10_000


def clocked(**clock: Any) -> dict[str, Any]:
    """Ada v Boris (the panel's example) with White's time running and no delay left."""
    state = example_state()
    state["clock"] = example_clock() | {"delay_left": 0.0} | clock
    return state


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Mirror]]:
    mirror = Mirror(str(tmp_path_factory.mktemp("room") / "hub.sqlite"))
    mirror.set_snapshot("table-1", "r1", clocked())
    mirror.set_presence("table-1", True, None)
    mirror.set_snapshot("table-2", "r2", example_state())
    mirror.set_presence("table-2", True, None)
    app = create_room_app(Hub("mqtt://127.0.0.1:1", mirror, room="cafe"), {"KEEPALIVE": 1.0})
    server = make_server(app, "127.0.0.1", 0, threads=8)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}", mirror
    server.task_dispatcher.shutdown(timeout=2)
    server.close()
    mirror.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    opened = context.new_page()
    opened.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert not errors


def _shot(page: Any, name: str, *, transparent: bool = False) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), omit_background=transparent, full_page=not transparent)
    assert path.stat().st_size > 5_000


def _seconds(face: str) -> int:
    minutes, seconds = face.strip().split(":")
    return int(minutes) * 60 + int(seconds)


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return dict(box)


def _apart(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def test_the_overlay_counts_the_running_clock_down_and_fits_the_stream(
    page: Any, room: tuple[str, Mirror]
) -> None:
    url, mirror = room
    mirror.set_snapshot("table-1", "r1", clocked())
    page.goto(url + "/overlay/table-1?board=1")
    white = page.locator('[data-field="clock-0"]')
    black = page.locator('[data-field="clock-1"]')
    # White's 611.4 s read 10:12 when drawn; the shared clock.js takes it down from there.
    sync_api.expect(white).not_to_have_text("10:12", timeout=WAIT_MS)
    assert _seconds(white.inner_text()) < 612
    assert black.inner_text() == "0:52"
    assert "is-running" in (page.locator(".clock-white").get_attribute("class") or "")
    assert "is-low" in (page.locator(".clock-black").get_attribute("class") or "")
    assert page.locator(".clock-white .clock-mark").is_visible()
    assert page.locator(".clock-black .clock-low").is_visible()
    clock = _box(page, ".rm-clock-overlay")
    assert clock["y"] >= 0 and clock["y"] + clock["height"] <= 720
    assert clock["x"] >= 0 and clock["x"] + clock["width"] <= 1280
    assert _apart(clock, _box(page, ".rm-overlay-bar"))
    assert _apart(clock, _box(page, ".rm-overlay-board svg"))
    # Readable on a stream: the faces are large.
    size = page.evaluate("getComputedStyle(document.querySelector('.clock-time')).fontSize")
    assert float(size.removesuffix("px")) >= 48
    _shot(page, "overlay-clock", transparent=True)


def test_the_overlay_shows_a_flag(page: Any, room: tuple[str, Mirror]) -> None:
    url, mirror = room
    state = clocked(remaining=[598.0, 0.0], running=None, flagged=[False, True], lost_on_time=1)
    state["match"]["winner"] = 0
    mirror.set_snapshot("table-1", "r1", state)
    page.goto(url + "/overlay/table-1")
    flag = page.locator('[data-field="clock-flag-1"]')
    assert flag.is_visible()
    assert "out of time" in flag.inner_text().lower()
    assert page.locator('[data-field="clock-status"]').inner_text() == (
        "Boris lost the match on time"
    )
    assert page.locator(".clock-side.is-running").count() == 0
    _shot(page, "overlay-clock-flag", transparent=True)


def test_the_room_s_cards_follow_the_next_snapshot(page: Any, room: tuple[str, Mirror]) -> None:
    url, mirror = room
    mirror.set_snapshot("table-1", "r1", clocked())
    page.goto(url + "/")
    page.wait_for_selector("#connection.live")
    assert page.locator("#card-table-1 .match-clock").count() == 1
    assert page.locator("#card-table-2 .match-clock").count() == 0
    card_white = page.locator('#card-table-1 [data-field="clock-0"]')
    sync_api.expect(card_white).not_to_have_text("10:12", timeout=WAIT_MS)
    _shot(page, "room-clock")
    # Black's turn now, 40 s left: the card is swapped in and its new running side counts down.
    black_to_play = clocked(remaining=[600.0, 40.0], running=1)
    black_to_play["turn"] = 1
    mirror.set_snapshot("table-1", "r1", black_to_play)
    card_black = page.locator('#card-table-1 [data-field="clock-1"]')
    sync_api.expect(page.locator("#card-table-1 .clock-black.is-running")).to_have_count(1)
    sync_api.expect(card_black).not_to_have_text("0:40", timeout=WAIT_MS)
    assert _seconds(card_black.inner_text()) < 40
    assert card_white.inner_text() == "10:00"
    _shot(page, "room-clock-next")


def test_the_table_page_draws_one_clock_beside_the_board(
    page: Any, room: tuple[str, Mirror]
) -> None:
    url, mirror = room
    mirror.set_snapshot("table-1", "r1", clocked(remaining=[611.4, 52.0]))
    page.goto(url + "/tables/table-1")
    assert page.locator(".match-clock").count() == 1
    assert page.locator(".rm-clock-table .clock-black .clock-low").is_visible()
    _shot(page, "table-clock")
