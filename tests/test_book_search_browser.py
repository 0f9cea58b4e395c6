"""The book's search and fixture index as headless Chromium shows them, from file:// and served over HTTP.

Skipped without Chromium unless ``CARDVERSE_BROWSER_TESTS=required`` (as tests/test_book_browser.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from browser import Browser
from static_server import serving
from test_book_browser import browser  # noqa: F401 (the module's Chromium, started once)

from harness.book import model
from harness.book.site import read_sources
from harness.cli import main
from harness.spec.paths import fixtures_dir
from harness.suite.fixtures import load_paths

RESULTS = """[...document.querySelectorAll('#results li')].map(li => ({
  kind: li.className.replace('hit hit-', ''), title: li.querySelector('a').textContent,
  page: li.querySelector('a').getAttribute('href')}))"""
SHOWN_ROWS = "[...document.querySelectorAll('table.fixture-index tbody tr')].filter(r => !r.hidden).map(r => r.id)"


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("searched") / "book"
    assert main(["docs", "--out", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def served(book: Path) -> Iterator[str]:
    with serving(book) as url:
        yield url


def searched(browser: Browser, root: str, query: str) -> list[dict[str, str]]:  # noqa: F811
    """The results the search page lists for ``query``, best first; fails on any console error."""
    browser.open(f"{root}/search.html?q={quote(query)}")
    results = browser.evaluate(RESULTS)
    assert browser.console_errors() == []
    return list(results)


def fixture_id(result: dict[str, str]) -> str:
    """The fixture a result opens: ``fixtures/ID.html`` as ID."""
    return result["page"].removeprefix("fixtures/").removesuffix(".html")


def test_undercut_lists_the_undercut_clauses_then_fixtures_first(browser: Browser, book: Path, served: str) -> None:  # noqa: F811
    scenarios = load_paths([fixtures_dir()]).scenarios
    clauses = {f"{c}" for s in scenarios for c in s.clauses if "undercut" in c}
    about = {s.id for s in scenarios if "undercut" in s.id.lower() or "undercut" in s.title.lower()}
    assert clauses == {"gin-rummy.undercut", "gin-rummy.undercut-on-equal"} and len(about) >= 5
    for root in (book.as_uri(), served):
        results = searched(browser, root, "undercut")
        first = results[:len(clauses) + len(about)]
        assert [r["title"] for r in first[:len(clauses)]] == sorted(clauses)
        assert {fixture_id(r) for r in first[len(clauses):]} == about, first
        assert all(r["kind"] == "fixture" for r in first[len(clauses):])


def test_a_card_is_found_as_q_hearts_or_qh_in_the_fixtures_holding_it(browser: Browser, book: Path) -> None:  # noqa: F811
    scenarios = load_paths([fixtures_dir()]).scenarios
    drawn = model.build(scenarios, read_sources(scenarios))
    holding = {f.id for f in drawn.fixtures for _, _, pos in f.layouts if pos
               for zone in pos.zones if "hand" in zone.label and "QH" in zone.cards}
    assert len(holding) >= 20
    glyph = searched(browser, book.as_uri(), "Q♥")
    found = {fixture_id(r) for r in glyph if r["kind"] == "fixture"}
    assert holding <= found, sorted(holding - found)
    told = {f.id: f"{f.layouts} {f.scenario.description} {[(s.action, s.checks) for s in f.steps]}" for f in drawn.fixtures}
    for fid in found - holding:  # in another zone at the start, or named by an action, a note or the description
        assert "QH" in told[fid] or "Q♥" in told[fid], fid
    assert [r["page"] for r in searched(browser, book.as_uri(), "qh")] == [r["page"] for r in glyph]
    tens = searched(browser, book.as_uri(), "10♦")
    assert tens and [r["page"] for r in searched(browser, book.as_uri(), "TD")] == [r["page"] for r in tens]


def test_a_reason_code_an_option_and_a_sentence_are_found(browser: Browser, book: Path) -> None:  # noqa: F811
    assert searched(browser, book.as_uri(), "knock-too-high")[0] == {
        "kind": "reason", "title": "knock-too-high", "page": "games/gin-rummy-1.0.0.html#reason-knock-too-high"}
    assert searched(browser, book.as_uri(), "knock_limit")[0]["page"] == "games/gin-rummy-1.0.0.html#option-knock_limit"
    assert searched(browser, book.as_uri(), "gin rummy 1.0.0")[0]["kind"] == "rules"
    # No page holds every word: the pages holding the most are listed, and the page says so.
    assert searched(browser, book.as_uri(), "what happens when the stock runs out")
    assert "none holding every word" in browser.evaluate("document.getElementById('status').textContent")
    assert searched(browser, book.as_uri(), "zzzzqqqx") == []


def test_the_index_filtered_to_gin_rummy_refused_knock_too_high_shows_exactly_those(browser: Browser, book: Path) -> None:  # noqa: F811
    scenarios = load_paths([fixtures_dir()]).scenarios
    wanted = sorted(s.id for s in scenarios if s.game == "gin-rummy" and any(
        step.expect == "refused" and "knock-too-high" in (step.reasons or (step.reason,)) for step in s.steps))
    assert len(wanted) >= 3
    browser.open((book / "fixtures.html").as_uri())
    assert len(browser.evaluate(SHOWN_ROWS)) == len(scenarios)
    for name, value in (("game", "gin-rummy"), ("outcome", "refused"), ("reason", "knock-too-high")):
        browser.evaluate(f"""(() => {{ const s = document.querySelector('select[name={name}]'); s.value = {value!r};
            s.dispatchEvent(new Event('change', {{bubbles: true}})); }})()""")
    assert sorted(browser.evaluate(SHOWN_ROWS)) == wanted
    assert browser.evaluate("document.getElementById('shown').textContent") == f"{len(wanted)} of {len(scenarios)} fixtures match."
    address = browser.evaluate("location.hash")
    assert address == "#game=gin-rummy&outcome=refused&reason=knock-too-high"
    browser.open("about:blank")  # else a new #fragment on the same page is no new load
    browser.open((book / "fixtures.html").as_uri() + "#level=hard")  # the address alone chooses
    hard = sorted(s.id for s in scenarios if any(st.decide and st.decide.get("level") == "hard" for st in s.steps))
    assert hard and sorted(browser.evaluate(SHOWN_ROWS)) == hard
    assert browser.console_errors() == []
