"""``texts``: read rule documents, say what they are, where they disagree and what changed since the spec."""

from __future__ import annotations

import json
from typing import Any

from harness.versions.texts.compare import (
    Changed,
    Disagreement,
    Identified,
    changes,
    disagreements,
    identify,
    same_version_groups,
)
from harness.versions.texts.document import DocumentError, read_document
from harness.versions.texts.sources import record_section

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2


def texts(paths: list[str], record: bool = False, as_json: bool = False, game: str | None = None) -> int:
    """The ``texts`` command; its exit code."""
    import sys

    from harness.suite.arguments import load_reporting

    try:
        documents = [read_document(path) for path in paths]
    except DocumentError as error:
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE
    found = [identify(d, game) for d in documents]
    groups = same_version_groups(found)
    if record:
        return _record(found, groups)
    scenarios = load_reporting([]).scenarios
    report: dict[str, Any] = {"documents": [], "disagreements": [], "changed": [], "problems": []}
    lines: list[str] = []
    for item in found:
        d = item.document
        what = f"{item.game} {d.version}" if item.game else "an unknown game"
        lines.append(f"{d.path.name}: {what} ({d.language}), {len(d.sections)} sections, "
                     f"{sum(d.shape)} paragraphs" + (f"; told by {item.how}" if item.how else ""))
        report["documents"].append({"file": str(d.path), "game": item.game, "rule_version": d.version,
                                    "language": d.language, "sections": d.shape, "identified_by": item.how or None})
        if item.game is None:
            problem = (f"{d.path.name}: no game file has its title or its sections {d.shape}: name the game "
                       "(--game GAME), or record the document in its game file first (`texts DOC --game GAME "
                       "--record`)")
            report["problems"].append(problem)
        elif item.spec is None:
            problem = (f"{d.path.name}: no game file for {item.game} {d.version}: write one "
                       f"(`new-version {item.game} FROM {d.version}`) or pass it with --game-file")
            report["problems"].append(problem)
    games = sorted({(g, v) for g, v in groups})
    lines.append(f"{len({g for g, _ in games})} game(s), {len(games)} version(s): "
                 + ", ".join(f"{g} {v}" for g, v in games))
    compared = 0  # documents compared with their game file's fingerprints or with another of their version
    for (game, version), items in sorted(groups.items()):
        spec = items[0].spec
        if spec is None:
            continue
        docs = [i.document for i in items]
        if len(docs) > 1:
            compared += len(docs)
            found_here = disagreements(docs, spec)
            report["disagreements"] += [d.record() for d in found_here]
            lines += [_disagreement_line(d) for d in found_here]
            if not found_here:
                lines.append(f"{game} {version}: the {len(docs)} documents ({', '.join(d.language for d in docs)}) "
                             "agree on every number, option name, card notation and section size")
        for document in docs:
            changed = changes(document, spec, scenarios)
            if changed is None:
                lines.append(f"{document.path.name}: {spec.path.name} has no fingerprint in {document.language}: "
                             "compared with the other documents only (`texts DOC --record` prints them)")
                continue
            compared += 1
            report["changed"] += [c.record() for c in changed]
            lines += [_changed_line(c, spec.path.name) for c in changed]
            if not changed:
                lines.append(f"{document.path.name}: no paragraph changed since {spec.path.name} was written from it")
    if not compared and not report["problems"]:  # a document compared with nothing is not one that agrees
        report["problems"].append("nothing was checked: no document met a game file with fingerprints in its "
                                  "language or another document of its version: record its fingerprints "
                                  "(`texts DOC --game GAME --record`) or give a second document of that version")
    lines += report["problems"]
    print(json.dumps(report, ensure_ascii=False, indent=2) if as_json else "\n".join(lines))
    return EXIT_FOUND if report["disagreements"] or report["changed"] or report["problems"] else EXIT_OK


def _disagreement_line(found: Disagreement) -> str:
    """One disagreement in words."""
    said = "; ".join(f"{doc}{f' line {found.lines[doc]}' if doc in found.lines else ''} says "
                     f"{', '.join(map(str, values)) or 'none'}" for doc, values in found.values.items())
    return f"{found.paragraph}: the documents disagree on {found.kind}: {said}"


def _changed_line(found: Changed, game_file: str) -> str:
    """One changed paragraph, with what to revisit."""
    where = f"{found.document}" + (f" line {found.line}" if found.line else "")
    what = {"changed": f"changed since {game_file} was written from it",
            "new": f"is not in {game_file} (a new paragraph)",
            "missing": f"is in {game_file} but not in the document"}[found.how]
    revisit = [*found.clauses, *(f"option {o}" for o in found.options)]
    advice = (f"; revisit {', '.join(revisit)}" if revisit else "; no clause is written from it") + (
        f"; fixtures {', '.join(found.fixtures)}" if found.fixtures else "")
    return f"{found.paragraph} ({where}) {what}{advice}"


def _record(found: list[Identified], groups: dict[tuple[str, str], list[Identified]]) -> int:
    """Print the ``sources:`` section for one game version's documents."""
    import sys

    specs_found = {id(i.spec): i.spec for items in groups.values() for i in items if i.spec is not None}
    unknown = [i.document.path.name for i in found if i.spec is None]
    if unknown or len(specs_found) != 1:
        sys.stderr.write("--record takes documents of one game version with a game file"
                         + (f"; no game file for {', '.join(unknown)} (give it with --game-file)" if unknown else "")
                         + "\n")
        return EXIT_USAGE
    spec = next(iter(specs_found.values()))
    assert spec is not None
    print(f"# end {spec.path.name} with this section (it replaces any sources: there)")
    print(record_section(spec, [i.document for i in found]), end="")
    return EXIT_OK
