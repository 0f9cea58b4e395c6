"""The book and the report as a real browser shows them: headless Chromium from file://.

Skipped when Chromium is not installed; ``CARDVERSE_BROWSER_TESTS=required`` (set by .ci/run)
makes that a failure instead, so CI cannot pass without looking.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from browser import Browser, chromium_path, start_browser

from harness.book import model
from harness.book.cards_svg import card_name
from harness.cli import main
from harness.spec import gamespec as specs
from harness.spec.paths import fixtures_dir
from harness.suite.fixtures import load_paths

SCENARIOS = Path(__file__).parent / "data" / "scenarios"
PAGE_FACTS = """({
  links: [...document.querySelectorAll('a[href]')].map(a => a.href),
  broken_images: [...document.images].filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src),
  ids: [...document.querySelectorAll('[id]')].map(e => e.id)
})"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if chromium_path() is None:
        why = "chromium is not installed (apt-get install -y chromium chromium-driver)"
        if os.environ.get("CARDVERSE_BROWSER_TESTS") == "required":
            pytest.fail(f"{why}, and CARDVERSE_BROWSER_TESTS=required")
        pytest.skip(why)
    started = start_browser()
    yield started
    started.close()


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("sites")
    assert main(["docs", "--out", str(root / "book")]) == 0
    assert main(["docs", str(SCENARIOS), "--out", str(root / "small")]) == 0
    runs = [str(root / "reference.jsonl"), str(root / "broken.jsonl")]
    assert main(["run", str(SCENARIOS), "--json", runs[0]]) == 0
    assert main(["run", str(SCENARIOS), "--engine", "fake_engines:accepts_everything", "--json", runs[1]]) == 1
    assert main(["report", *runs, "--out", str(root / "report"), "--book", str(root / "small")]) == 0
    return {"book": root / "book", "small": root / "small", "report": root / "report"}


def visit(browser: Browser, page: Path) -> dict[str, list[str]]:
    """Open a page; its links, broken images and element ids; fails on any console error."""
    browser.open(page.as_uri())
    facts = browser.evaluate(PAGE_FACTS)
    assert browser.console_errors() == [], page
    assert facts["broken_images"] == [], page
    return dict(facts)


def target(link: str) -> tuple[Path, str]:
    """A file:// link as the file and the fragment it points at."""
    parts = urlsplit(link)
    assert parts.scheme == "file", link
    return Path(unquote(parts.path)), parts.fragment


def ids_in(page: Path, cache: dict[Path, set[str]]) -> set[str]:
    """The element ids of a page we did not open in the browser."""
    if page not in cache:
        cache[page] = set(re.findall(r'\sid="([^"]+)"', page.read_text(encoding="utf-8")))
    return cache[page]


def test_every_clause_and_fixture_page_is_linked_and_no_link_is_broken(browser: Browser, sites: dict[str, Path]) -> None:
    book = sites["book"]
    # Chromium opens every page but the fixture and source pages (hundreds of card images each: a
    # few, below, and the drawn-position test open those); their links are followed from the pages.
    queue, opened, linked = [book / "index.html"], set(), set()
    ids: dict[Path, set[str]] = {}
    while queue:
        page = queue.pop()
        if page in opened:
            continue
        opened.add(page)
        facts = visit(browser, page)
        ids[page] = set(facts["ids"])
        for link in facts["links"]:
            file, fragment = target(link)
            assert file.is_file(), f"{page.relative_to(book)} links to a missing {file}"
            linked.add(file)
            if fragment:
                assert fragment in ids_in(file, ids), f"{page.relative_to(book)} links to a missing #{fragment} in {file}"
            if file.suffix == ".html" and file.parent.name not in ("fixtures", "sources"):
                queue.append(file)
    for spec in specs.game_specs():
        for clause_id in spec.clauses:
            assert book / f"{model.clause_page(spec, clause_id)}.html" in linked, clause_id
    scenarios = load_paths([fixtures_dir()]).scenarios
    for scenario in scenarios:
        assert book / "fixtures" / f"{scenario.id}.html" in linked, scenario.id
    first_of_each_game = {s.game: s for s in reversed(scenarios)}.values()
    for scenario in first_of_each_game:
        facts = visit(browser, book / "fixtures" / f"{scenario.id}.html")
        for link in facts["links"]:
            file, fragment = target(link)
            assert file.is_file() and (not fragment or fragment in ids_in(file, ids)), link


def test_the_checks_catch_a_missing_image_a_broken_link_and_a_console_error(browser: Browser, tmp_path: Path) -> None:
    page = tmp_path / "bad.html"
    page.write_text('<!doctype html><title>bad</title><img src="cards/XX.svg" alt="gone">'
                    '<a href="nowhere.html#top">x</a><script>console.error("seen")</script>', encoding="utf-8")
    browser.open(page.as_uri())
    facts = browser.evaluate(PAGE_FACTS)
    assert facts["broken_images"] == [(tmp_path / "cards" / "XX.svg").as_uri()]
    assert target(facts["links"][0]) == (tmp_path / "nowhere.html", "top")
    errors = browser.console_errors()
    assert "seen" in errors and any("ERR_FILE_NOT_FOUND" in e for e in errors), errors


ZONE_CARDS = """[...document.querySelectorAll(%r + ' .zone')].map(z => [
  z.querySelector('h4').textContent, [...z.querySelectorAll('img.card')].map(i => i.alt),
  [...z.querySelectorAll('img.card')].every(i => i.complete && i.naturalWidth > 0)])"""


def test_a_drawn_position_shows_the_right_cards(browser: Browser, sites: dict[str, Path]) -> None:
    visit(browser, sites["small"] / "fixtures" / "harness.meld-and-refuse.html")
    names = [card_name(c) for c in "2C 3D 4S 9C QH KH AH".split()]  # the layout's hand, in the game's card order
    start = browser.evaluate(ZONE_CARDS % 'section[aria-label="The layout"]')
    assert start[0] == ["Seat 0's hand (to act)", names, True]
    assert start[1] == ["Seat 1's hand", [card_name(c) for c in "2D 4H 5D 8H 9S TC JD".split()], True]
    assert ["Discard pile (top first)", ["5 of clubs"], True] in start
    after_meld = browser.evaluate(ZONE_CARDS % 'section[aria-label="after step 2"]')
    assert ["Meld 0 (seat 0's)", ["queen of hearts", "king of hearts", "ace of hearts"], True] in after_meld
    assert after_meld[0] == ["Seat 0's hand (to act)", [card_name(c) for c in "2C 3D 4S 7D 9C".split()], True]
    refused = browser.evaluate("document.querySelector('#step-3 .verdict').textContent")
    assert refused == "refused"


def test_the_report_shows_the_failing_clause_in_red_in_both_colour_schemes(browser: Browser, sites: dict[str, Path]) -> None:
    visit(browser, sites["report"] / "index.html")
    badges = browser.evaluate("[...document.querySelectorAll('.badges img')].map(i => i.alt)")
    assert "rummy 1.1.0: 3/3" in badges and "rummy 1.1.0: 2/3" in badges
    facts = visit(browser, sites["report"] / "rummy-1.1.0.html")
    assert any(link.endswith("/small/fixtures/harness.meld-and-refuse.html#step-3") for link in facts["links"])
    cell = "getComputedStyle(document.querySelector('tr[id=\"rummy.valid-meld\"] td.o-fail')).backgroundColor"
    assert browser.evaluate(cell) == "rgb(179, 18, 42)"
    browser.call("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]},
                 session=True)
    try:
        assert browser.evaluate(cell) == "rgb(255, 107, 127)"
        assert browser.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(21, 22, 26)"
    finally:
        browser.call("Emulation.setEmulatedMedia", {"features": []}, session=True)
