"""The panel in a real Chromium (Debian's package, driven by Playwright), served by waitress.

Screenshots of each page go to ``artifacts/web/`` for a person to look at.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import PIN, FakeClock

from sheshbesh.locations import LOCATIONS
from sheshbesh.match import MatchSettings
from web import BackgroundServer, create_app
from web.fakes import SYNTHETIC_CORNERS, FakeControls, MemoryMatchStore, synthetic_frame
from web.hub import PanelHub
from web.state import example_state

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

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "web"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
WAIT_MS = 10_000


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def server(
    config: dict[str, Any],
    hub: PanelHub,
    controls: FakeControls,
    store: MemoryMatchStore,
    clock: FakeClock,
) -> Iterator[BackgroundServer]:
    app = create_app(
        config | {"KEEPALIVE": 5.0, "SSE_RETRY_MS": 200, "MAX_LISTENERS": 16},
        hub=hub,
        controls=controls,
        store=store,
        clock=clock,
    )
    with BackgroundServer(app, "127.0.0.1", 0) as running:
        yield running


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    opened = context.new_page()
    opened.set_default_timeout(WAIT_MS)
    problems: list[str] = []
    opened.on("pageerror", lambda error: problems.append(f"script error: {error}"))
    opened.on(
        "console",
        lambda message: (
            problems.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    yield opened
    context.close()
    assert problems == [], "the page broke its own rules or threw"


def _screenshot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 5_000
    return path


def _wait_for_event(page: Any, event_id: int) -> None:
    page.wait_for_selector(f'body[data-event-id="{event_id}"]', state="attached")


def _text(page: Any, field: str) -> str:
    return " ".join(page.locator(f'[data-field="{field}"]').inner_text().split())


def test_scoreboard_updates_live_on_a_play_and_a_cube_action(
    page: Any, server: BackgroundServer, hub: PanelHub
) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector('#connection[data-state="live"]')
    assert _text(page, "last-play") == "LAST PLAY Boris 64: 24/18 13/9"

    state = example_state()
    state.update(
        turn=1,
        dice=None,
        pips=[156, 157],
        last_play={
            "player": 0,
            "dice": [5, 2],
            "play": "13/8 13/11",
            "from": ["p13", "p13"],
            "to": ["p8", "p11"],
        },
    )
    _wait_for_event(page, hub.publish(state))
    assert _text(page, "last-play") == "LAST PLAY Ada 52: 13/8 13/11"
    assert _text(page, "pips-0") == "156"
    assert _text(page, "turn") == "Boris to roll"

    state["cube"] = {"value": 2, "owner": 1, "offered_by": 1, "dead": False}
    _wait_for_event(page, hub.publish(state))
    assert _text(page, "turn") == "Boris doubles to 4: Ada to take or pass"
    _screenshot(page, "scoreboard-cube-offer")

    state["cube"] = {"value": 4, "owner": 0, "offered_by": None, "dead": False}
    state["dice"] = [6, 3]
    _wait_for_event(page, hub.publish(state))
    assert _text(page, "cube") == "4, Ada's"
    assert _text(page, "cube-owner-0") == "cube 4"
    assert page.locator('[data-field="dice"] .die').count() == 2
    _screenshot(page, "scoreboard")


@pytest.mark.parametrize("viewport", [(1920, 1080), (1280, 720), (1024, 600), (390, 844)])
def test_scoreboard_fits_a_screen_without_scrolling(
    browser: Any, server: BackgroundServer, hub: PanelHub, viewport: tuple[int, int]
) -> None:
    state = example_state()
    state["match"]["players"] = ["Wolfgang Amadeus " + "M" * 23, "Bartholomew " + "W" * 28]
    state["message"] = {
        "kind": "mismatch",
        "text": "3 checkers on p6 where 5 should be",
        "locations": ["p6"],
    }
    hub.publish(state)
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        sizes = page.evaluate(
            "[document.documentElement.scrollHeight, innerHeight,"
            " document.documentElement.scrollWidth, innerWidth]"
        )
        assert sizes[0] <= sizes[1] and sizes[2] <= sizes[3], sizes
        score_px = page.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('.score')).fontSize)"
        )
        assert score_px >= min(viewport) * 0.15  # about 20 cm tall on a 42-inch TV
        _screenshot(page, f"scoreboard-{viewport[0]}x{viewport[1]}")
    finally:
        context.close()


def test_page_reconnects_and_catches_up_from_its_last_event_id(
    page: Any, server: BackgroundServer, hub: PanelHub
) -> None:
    asked: list[int | None] = []
    subscribe = hub.subscribe

    def recording_subscribe(last_id: int | None = None) -> Any:
        asked.append(last_id)
        return subscribe(last_id)

    hub.subscribe = recording_subscribe  # type: ignore[method-assign]
    page.goto(server.url + "/")
    page.wait_for_selector('#connection[data-state="live"]')
    state = example_state()
    state["match"]["score"] = [5, 4]
    _wait_for_event(page, hub.publish(state))

    assert hub.disconnect_all() == 1
    state["match"]["score"] = [6, 4]
    last = hub.publish(state)  # published while the page has no stream
    _wait_for_event(page, last)
    assert _text(page, "score-0") == "6"
    assert asked == [1, 2]  # first from the page's HTML, then the browser's Last-Event-ID


def test_board_page_draws_a_known_position(
    page: Any, server: BackgroundServer, hub: PanelHub
) -> None:
    state = example_state()
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(server.url + "/board")
    for location in LOCATIONS:
        white, black = state["position"][location]
        assert (
            page.locator(f'svg.board .checker.white[data-location="{location}"]').count() == white
        ), location
        assert (
            page.locator(f'svg.board .checker.black[data-location="{location}"]').count() == black
        ), location
    assert page.locator("svg.board polygon.point").count() == 24
    leds = page.eval_on_selector_all(
        "svg.board .led", "els => els.map(e => [e.dataset.location, e.dataset.light])"
    )
    assert sorted(map(tuple, leds)) == sorted(state["lights"].items())
    arrows = page.eval_on_selector_all(
        "svg.board line.last-play", "els => els.map(e => [e.dataset.from, e.dataset.to])"
    )
    assert arrows == [["p1", "p7"], ["p12", "p16"]]
    # White's 1-point is drawn bottom right, White's 24-point top right.
    p1 = page.locator('svg.board polygon[data-location="p1"]').bounding_box()
    p12 = page.locator('svg.board polygon[data-location="p12"]').bounding_box()
    p24 = page.locator('svg.board polygon[data-location="p24"]').bounding_box()
    assert p1["x"] > p12["x"] and p1["y"] > p24["y"] and abs(p1["x"] - p24["x"]) < 1
    _screenshot(page, "board")

    state["message"] = {
        "kind": "illegal",
        "text": "13/8 lands on a blocked point",
        "locations": ["p13", "p8"],
    }
    state["lights"] = {"p13": "illegal", "p8": "illegal"}
    _wait_for_event(page, hub.publish(state))
    assert _text(page, "message") == "Illegal play: 13/8 lands on a blocked point (p13, p8)"
    assert page.locator("svg.board rect.flagged").count() == 2
    _screenshot(page, "board-illegal")


def test_admin_login_and_starting_a_match(
    page: Any, server: BackgroundServer, controls: FakeControls, clock: FakeClock
) -> None:
    page.goto(server.url + "/admin/")
    assert page.url.endswith("/admin/login?next=/admin/")
    page.fill('input[name="pin"]', "0000")
    page.click('button[type="submit"]')
    assert "Wrong PIN" in page.inner_text('[data-field="problem"]')
    _screenshot(page, "admin-login")
    clock.advance(5)
    page.fill('input[name="pin"]', PIN)
    page.click('button[type="submit"]')
    page.wait_for_url("**/admin/")

    page.fill('#new-match input[name="player0"]', "Carmen")
    page.fill('#new-match input[name="player1"]', "Dov")
    page.fill('#new-match input[name="length"]', "5")
    page.select_option('#new-match select[name="policy"]', "tournament")
    page.check('#new-match input[name="hints"]')
    page.click('#new-match button[type="submit"]')
    page.wait_for_selector(".flash-ok")
    assert "Started a 5-point match: Carmen – Dov." in page.inner_text(".flash-ok")
    assert controls.calls == [
        (
            "new_match",
            MatchSettings(
                ("Carmen", "Dov"),
                length=5,
                crawford=True,
                jacoby=False,
                beavers=False,
                policy="tournament",
                hints=True,
                variant="backgammon",
            ),
        )
    ]
    _screenshot(page, "admin")
    page.click("nav.site >> text=Scoreboard")
    page.wait_for_url(server.url + "/")
    assert _text(page, "name-0") == "Carmen" and _text(page, "match-kind") == "Match to 5 · game 1"


def test_calibration_corners_are_clicked_on_the_frame(
    page: Any, server: BackgroundServer, controls: FakeControls
) -> None:
    controls.frame = synthetic_frame()
    controls.overlay = synthetic_frame(overlay=True)
    page.goto(server.url + "/admin/login?next=/admin/calibration")
    page.fill('input[name="pin"]', PIN)
    page.click('button[type="submit"]')
    page.wait_for_url("**/admin/calibration")
    image = page.locator("#frame")
    page.wait_for_function("() => document.getElementById('frame').naturalWidth > 0")
    box = image.bounding_box()
    scale = box["width"] / 800
    for x, y in SYNTHETIC_CORNERS:
        page.mouse.click(box["x"] + x * scale, box["y"] + y * scale)
    assert page.locator("#corner-layer circle").count() == 4
    _screenshot(page, "calibration")
    page.click('#corners button[type="submit"]')
    page.wait_for_selector(".flash-ok")
    ((name, corners),) = controls.calls
    assert name == "set_corners"
    for (x, y), (expected_x, expected_y) in zip(corners, SYNTHETIC_CORNERS, strict=True):
        assert abs(x - expected_x) <= 2 and abs(y - expected_y) <= 2


def test_matches_page_lists_matches_and_downloads_the_mat(
    page: Any, server: BackgroundServer, exports_dir: Path
) -> None:
    page.goto(server.url + "/matches")
    assert page.locator("table.matches tbody tr").count() == 2
    _screenshot(page, "matches")
    with page.expect_download() as download_info:
        page.click('tr[data-match="m-20261130-01"] a.download')
    download = download_info.value
    assert download.suggested_filename == "m-20261130-01.mat"
    assert Path(download.path()).read_text() == (exports_dir / "m-20261130-01.mat").read_text()
    page.click("text=Ada – Boris")
    page.wait_for_url("**/matches/m-20261130-01")
    page.wait_for_selector("table.games tbody tr")
    assert page.locator("table.games tbody tr").count() == 5
    _screenshot(page, "match")
