"""The match clock in a real Chromium: both clocks on the scoreboard, counting down between updates.

The screenshots go to ``artifacts/clock/`` for a person to look at.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

# The browser, the served panel and the page come from the panel's own browser tests (which skip,
# and so these with them, without Debian's chromium or Playwright).
import test_web_browser as panel_browser

from web import BackgroundServer
from web.hub import PanelHub
from web.state import example_clock, example_state

pytestmark = pytest.mark.browser
browser = panel_browser.browser
server = panel_browser.server
page = panel_browser.page
expect = panel_browser.sync_api.expect
WAIT_MS = panel_browser.WAIT_MS

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "clock"


def _shot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 5_000
    return path


def _face(page: Any, player: int) -> str:
    return str(page.locator(f'[data-field="clock-{player}"]').inner_text()).strip()


def test_the_scoreboard_shows_both_clocks_and_counts_the_running_one_down(
    page: Any, server: BackgroundServer, hub: PanelHub
) -> None:
    state = example_state()
    state["clock"] = example_clock() | {"delay_left": 0.0, "remaining": [611.4, 52.0]}
    hub.publish(state)
    page.goto(server.url + "/")
    page.wait_for_selector(".match-clock")
    assert _face(page, 1) == "0:52"
    assert "is-running" in page.locator(".clock-white").get_attribute("class")
    assert "is-low" in page.locator(".clock-black").get_attribute("class")
    # White's time runs (no delay left): the face leaves 10:12 by itself, Black's stands.
    expect(page.locator('[data-field="clock-0"]')).not_to_have_text("10:12", timeout=WAIT_MS)
    assert _face(page, 0).startswith("10:1")
    assert _face(page, 1) == "0:52"
    _shot(page, "scoreboard-clock")


def test_black_answering_a_double_with_its_delay_and_a_flag_after(
    page: Any, server: BackgroundServer, hub: PanelHub
) -> None:
    state = example_state()
    state["cube"]["offered_by"] = 0
    state["turn"] = 0
    state["dice"] = None
    state["clock"] = example_clock(running=1) | {"delay_left": 9.0, "remaining": [598.0, 40.0]}
    hub.publish(state)
    page.goto(server.url + "/")
    page.wait_for_selector(".clock-black.is-running")
    _shot(page, "scoreboard-clock-taker")
    state["clock"] = example_clock(running=None) | {
        "remaining": [598.0, 0.0],
        "flagged": [False, True],
        "lost_on_time": 1,
    }
    state["match"]["winner"] = 0
    state["match"]["score"] = [7, 4]
    state["cube"]["offered_by"] = None
    state["turn"] = None
    state["message"] = {
        "kind": "info",
        "text": "Boris (Black) has run out of time: Ada (White) wins the match on time",
        "locations": [],
    }
    hub.publish(state)
    page.wait_for_selector(".clock-black.is-flagged")
    _shot(page, "scoreboard-clock-flag")
    page.goto(server.url + "/board")
    page.wait_for_selector(".match-clock")
    _shot(page, "board-clock")
