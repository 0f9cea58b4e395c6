"""The example web client as a person sees it, in headless Chromium at a phone's width: SVG cards, who played
what in the trick, touch targets of 44 px, and a clear message when it is opened from disk.

Skipped without Chromium unless ``CARDVERSE_BROWSER_TESTS=required`` (as tests/test_book_browser.py).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser import Browser
from static_server import serving
from test_book_browser import browser  # noqa: F401 (the module's Chromium, started once)

from harness.book.cards_svg import card_name

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "browser-president"
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
SMALL_TARGETS = """[...document.querySelectorAll('button')].filter(b => b.offsetParent !== null)
  .map(b => [b.getAttribute('aria-label') || b.textContent, b.getBoundingClientRect()])
  .filter(([, r]) => r.width < 44 || r.height < 44).map(([name, r]) => `${name}: ${r.width}x${r.height}`)"""
TRICK = """[...document.querySelectorAll('#trick .play')].map(p => [p.querySelector('figcaption').textContent,
  [...p.querySelectorAll('.card')].map(c => c.dataset.card)])"""


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    with serving(EXAMPLE) as url:
        yield url


def wait_for(browser: Browser, expression: str, seconds: float = 10.0) -> object:  # noqa: F811
    """The first truthy value of ``expression`` in the page."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = browser.evaluate(expression)
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"never true: {expression}")


def test_at_a_phone_s_width_the_cards_are_svg_the_trick_says_who_and_targets_are_44_px(
        browser: Browser, served: str) -> None:  # noqa: F811
    browser.call("Emulation.setDeviceMetricsOverride", PHONE, session=True)
    try:
        browser.open(f"{served}/index.html?pause=0")
        wait_for(browser, "document.getElementById('status').textContent.length > 0")
        assert browser.evaluate("document.getElementById('disk').hidden") is True
        hand = browser.evaluate("[...document.querySelectorAll('#hand button.card')].map(b => [b.dataset.card, "
                                "b.getAttribute('aria-label'), !!b.querySelector('svg.face path')])")
        assert len(hand) == 13 and all(has_svg for _, _, has_svg in hand)
        assert [name for _, name, _ in hand] == [card_name(card) for card, _, _ in hand]  # named as the book names them
        assert browser.evaluate(SMALL_TARGETS) == []
        assert browser.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
        # Lead the lowest card if it is our turn to lead; then every play on the table says whose it is.
        if browser.evaluate("document.getElementById('status').textContent.startsWith('Lead')"):
            browser.evaluate("document.querySelector('#hand button').click(); document.getElementById('act').click()")
        trick = wait_for(browser, TRICK)
        log = browser.evaluate("[...document.getElementById('log').children].map(i => i.textContent)")
        for caption, cards in trick:  # the table matches the log: "Seat 2: play 7♦ 7♥"
            seat = caption.removesuffix(" (to beat)")
            shown = " ".join(c[0].replace("T", "10") + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[c[1]] for c in cards)
            assert f"{seat}: play {shown}" in log, (caption, cards, log[:8])
        assert trick[-1][0].endswith("(to beat)")
        assert browser.console_errors() == []
    finally:
        browser.call("Emulation.clearDeviceMetricsOverride", session=True)


def test_opened_from_disk_the_page_says_it_must_be_served_and_how(browser: Browser) -> None:  # noqa: F811
    browser.open((EXAMPLE / "index.html").as_uri())
    assert browser.evaluate("document.getElementById('disk').hidden") is False
    told = browser.evaluate("document.getElementById('disk').textContent")
    assert "must be served" in told and "python3 -m http.server -d examples/browser-president 8000" in told
    browser.console_errors()  # the refused module scripts are the errors this page explains
