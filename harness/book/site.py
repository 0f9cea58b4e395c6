"""The rule book: a static site (HTML, and a Markdown twin of each page) from the spec and the fixtures."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from harness.book import model
from harness.book.cards_svg import all_card_files
from harness.book.catalogue import fixture_lines
from harness.book.changes import VersionChange, version_changes
from harness.book.render import environment, game_name, prepare, static_files, stylesheet, write
from harness.book.search import documents, search_script
from harness.reports.mutant_scores import MutantScores
from harness.suite.model import Scenario

SITE = "CardVerse rule book"


def render_book(book: model.Book, changes: list[VersionChange] | None = None) -> dict[str, str]:
    """Every file of the book, by relative path; ``changes``: a "what changed" page for each."""
    env = environment()
    files: dict[str, str] = {"style.css": stylesheet(), **{f"cards/{n}": t for n, t in all_card_files().items()}}
    common = {"site": SITE, "games": book.games, "changes": changes or []}

    def page(path: str, template: str, title: str, **values: Any) -> None:
        root = "../" * path.count("/")
        name = path.rsplit("/", 1)[-1]
        for ext, twin in (("html", f"{name}.md"), ("md", None)):
            files[f"{path}.{ext}"] = env.get_template(f"{template}.{ext}").render(
                **common, root=root, title=title, twin=twin, **values)

    counts = Counter(model.game_key(f.spec) for f in book.fixtures)
    page("index", "index", "Games", fixture_counts=counts)
    lines = fixture_lines(book)
    page("fixtures", "fixtures", "Every fixture", lines=lines,
         games_seen=sorted({(f.game, game_name(f.game)) for f in lines}),
         versions_seen=sorted({(f.version, f.version) for f in lines}),
         reasons_seen=[(r, r) for r in sorted({r for f in lines for r in f.reasons})],
         levels_seen=[(v, v) for v in ("easy", "normal", "hard") if any(v in f.levels for f in lines)])
    page("search", "search", "Search")
    files["search-data.js"] = search_script(documents(book, lines))
    files.update(static_files())
    page("edge-cases", "edge-cases", "Edge cases", refusals=book.edge_cases(), interpretations=book.interpretations())
    for v in changes or []:
        page(f"changes/{v.key}", "changes", v.title, v=v)
    games = {g.key: g for g in book.games}
    for g in book.games:
        page(f"games/{g.key}", "game", f"{g.spec.game} {g.spec.rule_version}", g=g)
        for c in g.clauses:
            page(model.clause_page(g.spec, c.id), "clause", c.id, g=g, c=c, covering=g.covering.get(c.id, []))
    for f in book.fixtures:
        g = games[model.game_key(f.spec)]
        page(model.fixture_page(f.id), "fixture", f.scenario.title, f=f, g=g)
        page(f"sources/{f.id}", "source", f.file, s=f.scenario, name=f.file, lines=f.source_lines)
        files[f"sources/{f.id}.yaml"] = "".join(line + "\n" for line in f.source_lines)
    return files


def read_sources(scenarios: list[Scenario]) -> dict[str, list[str]]:
    """Each fixture file's lines, keyed by the file name the scenario gives."""
    sources = {}
    for scenario in scenarios:
        try:
            sources[scenario.file] = Path(scenario.file).read_text(encoding="utf-8").splitlines()
        except OSError:
            sources[scenario.file] = [f"# {scenario.file} could not be read when the book was made"]
    return sources


def write_book(scenarios: list[Scenario], out: Path, mutants: MutantScores | None = None) -> int:
    """Write the book of ``scenarios`` (with each clause's generated mutants, if given) into ``out``; the number of pages."""
    book = model.build(scenarios, read_sources(scenarios), mutants=mutants)
    files = render_book(book, version_changes(scenarios))
    prepare(out)
    write(out, files)
    return sum(1 for name in files if name.endswith(".html"))
