"""The bundled book reads cleanly: no raw Markdown in its pages, rule paragraphs named with their document's language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from harness.book.render import markdown_prose, prose
from harness.cli import main

CODE = re.compile(r"<(code|pre|script)\b.*?</\1>", re.S)


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("bundled") / "book"
    assert main(["docs", "--out", str(out)]) == 0
    return out


def raw_backticks(page: str) -> list[str]:
    """Each backtick of an HTML page outside <code>, <pre> and <script>, with the text around it."""
    text = CODE.sub("", page)
    return [text[max(0, m.start() - 40):m.end() + 40] for m in re.finditer("`", text)]


def test_the_scan_finds_a_raw_backtick_and_lets_code_be() -> None:
    assert raw_backticks("<p>layout `first` leads</p>") == ["<p>layout `first` leads</p>", "<p>layout `first` leads</p>"]
    assert raw_backticks("<p><code>`x`</code></p><pre>a ` b</pre>") == []


def test_code_spans_become_code_in_html_and_stay_code_in_markdown() -> None:
    assert str(prose("layout `first`, <seat> 0")) == "layout <code>first</code>, &lt;seat&gt; 0"
    assert str(prose("a lone ` tick")) == "a lone \u2018 tick"
    assert markdown_prose("layout `first`, seat|0") == "layout `first`, seat\\|0"
    assert markdown_prose("`a` `b`") == "`a` `b`"


def test_no_page_of_the_bundled_book_holds_a_raw_backtick(book: Path) -> None:
    found = {str(p.relative_to(book)): raw_backticks(p.read_text(encoding="utf-8")) for p in book.rglob("*.html")}
    assert len(found) >= 700
    assert {page: hits for page, hits in found.items() if hits} == {}
    page = (book / "clauses" / "president-1.1.0" / "president.first-seat-starts.html").read_text(encoding="utf-8")
    assert "layout <code>first</code>" in page


def test_a_clause_names_its_paragraph_and_the_language_of_its_document(book: Path) -> None:
    rummy = (book / "clauses" / "rummy-1.1.0" / "rummy.ace-after-king.html").read_text(encoding="utf-8")
    assert "From paragraph R-3.1 of the Rummy rules 1.1.0 (in Vietnamese, Romanian and Thai)" in rummy
    game = (book / "games" / "president-1.1.0.html").read_text(encoding="utf-8")
    assert "Rule text: the President rules 1.1.0 (in Vietnamese)" in game
    for page in book.rglob("*.html"):
        assert "shared/rules" not in page.read_text(encoding="utf-8"), page


def test_the_cards_an_action_moves_are_marked_where_they_land(tmp_path: Path) -> None:
    out = tmp_path / "small"
    assert main(["docs", str(Path(__file__).parent / "data" / "scenarios"), "--out", str(out)]) == 0
    page = (out / "fixtures" / "harness.meld-and-refuse.html").read_text(encoding="utf-8")
    steps = {n: page.split(f'id="step-{n}"')[1].split("</li>")[0] for n in (1, 2, 3)}
    # Step 1 draws the stock's top card, 7♦ (the layout's stock), into seat 0's hand: the draw names no card.
    assert re.findall(r'class="card moved" src="../cards/(\w+).svg"', steps[1]) == ["7D"]
    # Step 2 melds Q♥ K♥ A♥: outlined on the table, in the meld; step 3 is refused and moves nothing.
    assert re.findall(r'class="card moved" src="../cards/(\w+).svg"', steps[2]) == ["QH", "KH", "AH"]
    assert "Outlined: the cards this step moved (Q♥ K♥ A♥)." in steps[2]
    assert "moved" not in steps[3]
    twin = (out / "fixtures" / "harness.meld-and-refuse.md").read_text(encoding="utf-8")
    assert "After step 2 (it moved Q♥ K♥ A♥):" in twin and "After step 3:" in twin


def test_the_search_documents_hold_no_backtick_and_every_page_they_open_exists(book: Path) -> None:
    text = (book / "search-data.js").read_text(encoding="utf-8")
    assert text.startswith("window.CARDVERSE_SEARCH = [") and "`" not in text
    docs = json.loads(text.removeprefix("window.CARDVERSE_SEARCH = ").rstrip().rstrip(";"))
    assert {d["kind"] for d in docs} == {"rules", "clause", "option", "reason", "fixture"}
    for doc in docs:
        page, _, fragment = doc["url"].partition("#")
        html = (book / page).read_text(encoding="utf-8")
        assert not fragment or f'id="{fragment}"' in html, doc["url"]
