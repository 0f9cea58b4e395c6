"""The report written: the summary, a page per game, a page per engine over time, the badges."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from harness.book.badges import badge_svg
from harness.book.history import histories
from harness.book.render import SiteError, environment, prepare, stylesheet, write
from harness.book.report import build, score
from harness.book.runs import OUTCOMES, Run, record_clauses
from harness.book.trend_svg import outcome_strip, score_line
from harness.host.files import file_part
from harness.reports.safetext import safe_link

SITE = "CardVerse conformance report"


def write_report(runs: list[Run], out: Path, book: str) -> list[str]:
    """Write the report into ``out`` (links to the book at ``book``); the badge files written."""
    games = build(runs)
    env = environment()
    env.filters["clause_list"] = lambda record: ", ".join(record_clauses(record))
    env.globals.update(score_line=score_line, outcome_strip=outcome_strip)
    book_link = Path(os.path.relpath(Path(book).resolve(), out.resolve())).as_posix() if "://" not in book else book.rstrip("/")
    if safe_link(book_link) is None:
        raise SiteError(f"--book {book}: give a folder or an http(s) URL")
    prepare(out)
    files: dict[str, str] = {"style.css": stylesheet()}
    engines = [{"label": run.label, "slug": file_part(run.label, default="engine"), "path": run.path, "header": run.header} for run in runs]
    badges = []
    for i, engine in enumerate(engines):
        for g in games:
            passed, ran = score(g.totals[i])
            name = f"badges/{engine['slug']}-{g.key}.svg"
            files[name] = badge_svg(f"{g.game} {g.rule_version}", f"{passed}/{ran}" if ran else "not run",
                                    "none" if not ran else "pass" if passed == ran else "fail")
            badges.append(name)
    over_time = histories(runs)
    common = {"site": SITE, "engines": engines, "reports": games, "book": book_link, "score": score,
              "outcomes": OUTCOMES, "histories": over_time}
    pages: list[tuple[str, str, str, dict[str, Any]]] = [("index", "report-index", "Summary", {})]
    pages += [(g.key, "report-game", g.key, {"g": g}) for g in games]
    pages += [(f"history-{h.slug}", "report-history", f"{h.engine} over time", {"h": h}) for h in over_time]
    for name, template, title, values in pages:
        for ext, twin in (("html", f"{name}.md"), ("md", None)):
            files[f"{name}.{ext}"] = env.get_template(f"{template}.{ext}").render(
                **common, root="", title=title, twin=twin, **values)
    write(out, files)
    return badges
