"""The book's search: one document per clause, fixture, reason code, option and rule version, written as a script.

The documents go into ``search-data.js`` as a global, not a JSON file: a page opened from disk
(file://) may load a script but not fetch a file. MiniSearch (vendored in templates/static)
indexes them in the page; ``static/search.js`` reads card names (Q♥, 10♦, QH) as one term.
"""

from __future__ import annotations

import json
from typing import Any

from harness.book.catalogue import FixtureLine
from harness.book.model import Book, clause_page, fixture_page
from harness.book.render import game_name

GLOBAL = "CARDVERSE_SEARCH"


def documents(book: Book, lines: list[FixtureLine]) -> list[dict[str, Any]]:
    """Every searchable thing of the book, each with the page (relative to the book's root) it opens."""
    docs: list[dict[str, Any]] = []

    def add(kind: str, title: str, ids: str, text: str, url: str, game: str, cards: str = "") -> None:
        # A result shows its text as plain text: a `code span` of the rule text loses its backticks.
        docs.append({"id": len(docs), "kind": kind, "title": title.replace("`", ""), "ids": ids,
                     "text": " ".join(text.replace("`", "").split()),
                     "cards": cards, "url": url, "game": game})

    for g in book.games:
        name = f"{game_name(g.spec.game)} {g.spec.rule_version}"
        add("rules", name, f"{g.spec.game} {g.spec.rule_version} {g.key}",
            f"{g.spec.data['title']}: rule version {g.spec.rule_version}, {g.document()}", f"games/{g.key}.html", name)
        for c in g.clauses:
            add("clause", c.id, f"{c.id} {c.source} {c.basis}", f"{c.question or ''} {c.rule}",
                f"{clause_page(g.spec, c.id)}.html", name)
        for o in g.options():
            add("option", o["name"], f"{o['name']} {o['source']}", f"{o['meaning']} Default {o['default']}; {o['allowed']}.",
                f"games/{g.key}.html#option-{o['name']}", name)
        for r in g.reasons():
            add("reason", r["code"], r["code"], r["meaning"], f"games/{g.key}.html#reason-{r['code']}", name)
    by_id = {line.id: line for line in lines}
    for f in book.fixtures:
        line = by_id[f.id]
        told = [step.action for step in f.steps if step.action] + [n for step in f.steps for n in step.checks if n.startswith("Note:")]
        add("fixture", f.scenario.title, " ".join((f.id, *line.clauses, *line.reasons, *line.levels, line.outcome)),
            f"{f.scenario.description} {' '.join(told)}", f"{fixture_page(f.id)}.html",
            f"{game_name(f.spec.game)} {f.spec.rule_version}", " ".join(line.cards))
    return docs


def search_script(docs: list[dict[str, Any]]) -> str:
    """``search-data.js``: the documents as one global, readable from file://."""
    data = json.dumps(docs, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return f"window.{GLOBAL} = {data};\n"
