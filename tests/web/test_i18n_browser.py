"""The scoreboard and the board page in each language in a real Chromium (Debian's, driven by
Playwright): right to left where the language reads so, nothing cut or off the screen, the board
drawing the same in every language. Screenshots go to ``artifacts/i18n/`` for a person to look at.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# The browser, the served panel and Chromium's settings are the panel's browser tests' own.
from test_web_browser import CHROMIUM_ARGS, WAIT_MS, browser, server  # noqa: F401

from sheshbesh.language import LANGUAGES, direction
from web import BackgroundServer
from web.hub import PanelHub
from web.state import example_state

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "i18n"
TV = {"width": 1280, "height": 720}

#: Elements of the scoreboard whose text must show whole (no ellipsis, no clipping).
WHOLE = ["match-kind", "name-0", "name-1", "turn", "cube", "last-play", "message"]

#: Boxes of [data-field] elements that leave the viewport, and texts wider than their box.
OVERFLOW_SCRIPT = """
(fields) => {
  const problems = [];
  const width = window.innerWidth, height = window.innerHeight;
  for (const element of document.querySelectorAll('[data-field]')) {
    const box = element.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    // What a clipping ancestor (an ellipsis) hides is not on the screen.
    let left = box.left, right = box.right;
    for (let up = element.parentElement; up; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== 'visible') {
        const frame = up.getBoundingClientRect();
        left = Math.max(left, frame.left);
        right = Math.min(right, frame.right);
      }
    }
    if (left < -1 || right > width + 1) {
      problems.push(element.dataset.field + ' leaves the screen sideways');
    }
  }
  for (const name of fields) {
    const element = document.querySelector('[data-field="' + name + '"]');
    if (!element) continue;
    for (const part of [element, ...element.querySelectorAll('*')]) {
      if (part.scrollWidth > part.clientWidth + 1 && getComputedStyle(part).overflow === 'hidden') {
        problems.push(name + ' is cut: ' + part.scrollWidth + ' > ' + part.clientWidth);
      }
    }
  }
  if (document.documentElement.scrollWidth > width + 1) problems.push('the page scrolls sideways');
  // The scoreboard's blocks follow one another down the screen without overlapping, and what
  // the centre row holds stays inside it.
  const board = document.querySelector('.scoreboard');
  if (board) {
    const blocks = [...board.children].map((child) => [child.className, child.getBoundingClientRect()]);
    for (let i = 1; i < blocks.length; i++) {
      if (blocks[i][1].top < blocks[i - 1][1].bottom - 1) {
        problems.push(blocks[i][0] + ' overlaps ' + blocks[i - 1][0]);
      }
    }
    if (blocks.length && blocks[blocks.length - 1][1].bottom > height + 1) problems.push('the scoreboard runs off the bottom');
    const centre = board.querySelector('.centre');
    const frame = centre.getBoundingClientRect();
    for (const child of centre.children) {
      const box = child.getBoundingClientRect();
      if (box.height && (box.top < frame.top - 1 || box.bottom > frame.bottom + 1)) {
        problems.push(child.className + ' spills out of the centre row');
      }
    }
  }
  return problems;
}
"""


@pytest.fixture
def in_language(browser: Any) -> Iterator[Any]:  # noqa: F811
    """A page factory: a fresh browser context whose language is the one asked for."""
    contexts: list[Any] = []
    problems: list[str] = []

    def open_page(language: str, viewport: dict[str, int] = TV) -> Any:
        context = browser.new_context(viewport=viewport, locale=language)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
        page.on(
            "console",
            lambda message: (
                problems.append(message.text) if "Content Security Policy" in message.text else None
            ),
        )
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert problems == [], "a page broke its own rules or threw"


def _screenshot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 5_000
    return path


def _with_a_referee_message(hub: PanelHub) -> None:
    state = example_state()
    state["message"] = {
        "kind": "illegal",
        "text": "Bar/20: no checker on the bar",
        "locations": ["p20"],
    }
    state["cube"] = {"value": 2, "owner": 1, "offered_by": 1, "dead": False}
    hub.publish(state)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_scoreboard_in_each_language(
    in_language: Any,
    server: BackgroundServer,  # noqa: F811
    hub: PanelHub,
    language: str,
) -> None:
    _with_a_referee_message(hub)
    page = in_language(language)
    page.goto(server.url + "/")
    page.wait_for_selector('#connection[data-state="live"]')
    assert page.evaluate("document.documentElement.lang") == language
    assert page.evaluate("document.documentElement.dir") == direction(language)
    assert page.evaluate("getComputedStyle(document.body).direction") == direction(language)
    assert page.evaluate(OVERFLOW_SCRIPT, WHOLE) == []
    white = page.locator('[data-player="0"]').bounding_box()
    black = page.locator('[data-player="1"]').bounding_box()
    # White's card comes first in reading order: on the right in Hebrew and Arabic.
    assert (white["x"] > black["x"]) == (direction(language) == "rtl")
    # Scores and pips in Western digits, as tournament boards show them.
    assert page.inner_text('[data-field="score-0"]') == "3"
    assert page.inner_text('[data-field="pips-1"]') == "157"
    # The move notation reads left to right in every language.
    notation = page.locator('[data-field="last-play"] .notation')
    assert notation.inner_text() == "64: 24/18 13/9"
    assert notation.evaluate("element => getComputedStyle(element).direction") == "ltr"
    _screenshot(page, f"scoreboard-{language}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_board_page_in_each_language(
    in_language: Any,
    server: BackgroundServer,  # noqa: F811
    hub: PanelHub,
    language: str,
) -> None:
    _with_a_referee_message(hub)
    page = in_language(language, {"width": 1280, "height": 800})
    page.goto(server.url + "/board")
    page.wait_for_selector('#connection[data-state="live"]')
    assert page.evaluate("document.documentElement.dir") == direction(language)
    assert page.evaluate(OVERFLOW_SCRIPT, []) == []
    board = page.locator("svg.board")
    assert board.evaluate("element => getComputedStyle(element).direction") == "ltr"
    side = page.locator(".side-column").bounding_box()
    drawing = board.bounding_box()
    # The page mirrors (the moves column on the reading side's end), the drawing does not.
    assert (side["x"] < drawing["x"]) == (direction(language) == "rtl")
    _screenshot(page, f"board-{language}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_phone_shows_the_scoreboard_without_sideways_scrolling(
    in_language: Any,
    server: BackgroundServer,  # noqa: F811
    hub: PanelHub,
    language: str,
) -> None:
    _with_a_referee_message(hub)
    page = in_language(language, {"width": 390, "height": 844})
    page.goto(server.url + "/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(OVERFLOW_SCRIPT, []) == []


def test_the_board_drawing_is_the_same_in_every_language(
    in_language: Any,
    server: BackgroundServer,  # noqa: F811
) -> None:
    drawings = set()
    for language in LANGUAGES:
        page = in_language(language)
        page.goto(server.url + "/board")
        drawings.add(page.locator("svg.board").evaluate("element => element.outerHTML"))
    assert len(drawings) == 1


def test_the_switch_changes_the_language_and_keeps_it(
    in_language: Any,
    server: BackgroundServer,  # noqa: F811
) -> None:
    page = in_language("cs")
    page.goto(server.url + "/board")
    assert page.evaluate("document.documentElement.lang") == "cs"
    page.click('.languages a[lang="he"]')
    page.wait_for_url(server.url + "/board")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    page.goto(server.url + "/")
    assert page.evaluate("document.documentElement.lang") == "he"


def test_the_live_indicator_speaks_the_language(
    in_language: Any,
    server: BackgroundServer,  # noqa: F811
) -> None:
    page = in_language("cs")
    page.goto(server.url + "/")
    page.wait_for_selector('#connection[data-state="live"]')
    assert page.get_attribute("#connection", "title") == "živé aktualizace: živě"
