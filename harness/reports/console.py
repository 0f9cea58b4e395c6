"""Reports of a run: the console summary, JSON lines and JUnit XML."""

from __future__ import annotations

import json
import os
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, TextIO
from xml.etree import ElementTree as ET

from harness import KIT_NAME, __version__
from harness.host.files import UnsafePath, check_target
from harness.host.text import console_text
from harness.reports.grouping import SHOWN, alike
from harness.reports.safetext import json_safe, xml_text
from harness.run.runner import OUTCOMES, FixtureResult, count
from harness.run.verdicts import ERROR_KINDS
from harness.spec import gamespec as specs

SCREENFUL = 20  # detail lines a failure shows on the console before folding the rest


def clause_basis(clause_id: str) -> str:
    """``text`` or ``interpretation``: whether the clause is the rule text or our reading of an open question."""
    found = specs.all_clauses().get(clause_id)
    return found[1].basis if found else "unknown"


def header(engine_description: dict[str, Any], incomplete: str | None = None) -> dict[str, Any]:
    """The first JSON line: which kit, spec and engine produced the run (and why it is incomplete, if it is)."""
    head: dict[str, Any] = {
        "kit": KIT_NAME, "kit_version": __version__,
        "spec": {s.game: s.rule_version for s in specs.game_specs()},
        "engine": {k: engine_description.get(k) for k in ("name", "version")},
        # When the run began, so that `report` can put runs of one engine in order and label them.
        "started": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    if incomplete:
        head["incomplete"] = incomplete
    return head


@dataclass(frozen=True)
class StartError:
    """An engine that never started: why, the end of its stderr, the command that shows it by hand."""

    message: str
    stderr: list[str]
    by_hand: str

    def record(self) -> dict[str, Any]:
        """Its JSON line, after the header: read back as an error, not as a fixture."""
        return {"error": "never-started", "message": f"the engine never started: {self.message}",
                "stderr": self.stderr, "by_hand": self.by_hand}


def result_record(result: FixtureResult) -> dict[str, Any]:
    """One fixture's result as a JSON object."""
    scenario = result.scenario
    record: dict[str, Any] = {
        "id": scenario.id, "game": scenario.game, "rule_version": result.rule_version,
        "clauses": list(scenario.clauses), "basis": {c: clause_basis(c) for c in scenario.clauses},
        "outcome": result.outcome,
        "file": scenario.file, "line": result.line, "seconds": round(result.seconds, 6),
    }
    if result.outcome != "pass":
        record["message"] = result.message
        record["details"] = result.details
        if result.step is not None:
            record["step"] = result.step.index + 1
    if result.charged != scenario.clauses:
        record["charged"] = list(result.charged)
    if result.feature is not None:
        record["feature"] = result.feature
    if result.kind is not None:
        record["error_kind"] = result.kind
    if result.skip_kind is not None:
        record["skip_kind"] = result.skip_kind
    if result.unchecked:
        record["unchecked"] = result.unchecked
    return record


def write_json_lines(results: list[FixtureResult], engine_description: dict[str, Any], out: TextIO,
                     amend: Callable[[FixtureResult, dict[str, Any]], dict[str, Any]] | None = None,
                     incomplete: str | None = None, start_error: StartError | None = None) -> None:
    """A header line, the start's error if the engine never started, then one line per fixture (each record
    passed through ``amend`` if given).

    Every string is made encodable first (an engine's text may hold lone surrogates); json.dumps
    escapes control characters itself.
    """
    out.write(json.dumps(json_safe(header(engine_description, incomplete)), ensure_ascii=False) + "\n")
    if start_error is not None:
        out.write(json.dumps(json_safe(start_error.record()), ensure_ascii=False) + "\n")
    for result in results:
        record = result_record(result)
        out.write(json.dumps(json_safe(amend(result, record) if amend else record), ensure_ascii=False) + "\n")


def write_junit(results: list[FixtureResult], engine_description: dict[str, Any], path: str,
                incomplete: str | None = None, start_error: StartError | None = None) -> None:
    """A JUnit XML file: one test suite per game, one test case per fixture; every text made XML 1.0-safe.

    An engine that never started is one test case in error, so that no CI widget reads the run as green.
    """
    suites = ET.Element("testsuites", name=xml_text(f"{KIT_NAME} against {engine_description.get('name', 'engine')}"))
    by_game: dict[str, list[FixtureResult]] = defaultdict(list)
    for result in results:
        by_game[result.scenario.game].append(result)
    repeated = repeated_ids(results)
    if incomplete and not by_game:
        by_game[KIT_NAME] = []  # the property needs a suite to live in
    for game, game_results in sorted(by_game.items()):
        totals = count(game_results)
        suite = ET.SubElement(suites, "testsuite", name=xml_text(game), tests=str(len(game_results)),
                              failures=str(totals["fail"]), errors=str(totals["error"]), skipped=str(totals["skip"]),
                              time=f"{sum(r.seconds for r in game_results):.6f}")
        if incomplete:
            properties = ET.SubElement(suite, "properties")
            ET.SubElement(properties, "property", name="incomplete", value=xml_text(incomplete))
        for result in game_results:
            case = ET.SubElement(suite, "testcase", classname=xml_text(game), name=xml_text(case_name(result, repeated)),
                                 file=xml_text(result.scenario.file), line=str(result.line),
                                 time=f"{result.seconds:.6f}")
            properties = ET.SubElement(case, "properties")
            for clause in result.scenario.clauses:
                ET.SubElement(properties, "property", name=f"clause {clause}", value=clause_basis(clause))
            if result.outcome in ("fail", "error") and result.charged != result.scenario.clauses:
                ET.SubElement(properties, "property", name="charged", value=xml_text(", ".join(result.charged)))
            tag = {"fail": "failure", "error": "error", "skip": "skipped"}.get(result.outcome)
            if tag:
                element = ET.SubElement(case, tag, message=xml_text(result.message))
                if result.details:
                    element.text = xml_text("\n".join(result.details))
    if start_error is not None:
        start_case(suites, start_error)
    ET.ElementTree(suites).write(path, encoding="utf-8", xml_declaration=True)


def start_case(suites: ET.Element, start_error: StartError) -> None:
    """The test case of an engine that never started, in the kit's suite: an error with the stderr's end."""
    suite = suites.find(f"testsuite[@name='{KIT_NAME}']")
    if suite is None:
        suite = ET.SubElement(suites, "testsuite", name=KIT_NAME, tests="0", failures="0", errors="0", skipped="0",
                              time="0")
    suite.set("tests", str(int(suite.get("tests", "0")) + 1))
    suite.set("errors", str(int(suite.get("errors", "0")) + 1))
    case = ET.SubElement(suite, "testcase", classname=KIT_NAME, name="the engine starts", time="0")
    error = ET.SubElement(case, "error", message=xml_text(f"the engine never started: {start_error.message}"),
                          type="never-started")
    error.text = xml_text("\n".join([*start_error.stderr, f"to see it by hand: {start_error.by_hand}"]))


def repeated_ids(results: list[FixtureResult]) -> set[str]:
    """The fixtures run more than once (once per rule version the engine declares)."""
    seen: set[str] = set()
    repeated: set[str] = set()
    for result in results:
        (repeated if result.scenario.id in seen else seen).add(result.scenario.id)
    return repeated


def case_name(result: FixtureResult, repeated: set[str]) -> str:
    """A fixture's name in a report: its id, with the rule version when it ran for several."""
    return f"{result.scenario.id}[{result.rule_version}]" if result.scenario.id in repeated else result.scenario.id


def report_path_problems(paths: dict[str, str | None]) -> list[str]:
    """Why each report path given (option -> path) could not be written, checked before the run starts."""
    problems = []
    for option, path in paths.items():
        if not path:
            continue
        folder = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path):
            problems.append(f"{option} {path}: is a folder; give a file name")
        elif not os.path.isdir(folder):
            problems.append(f"{option} {path}: the folder {folder} does not exist; create it or give another path")
        elif not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
            problems.append(f"{option} {path}: cannot be written here (permission denied); give another path")
        else:
            try:
                check_target(path)  # a dangling link, a pipe or a device
            except UnsafePath as error:
                problems.append(f"{option} {error}")
    return problems


def write_each(writers: dict[str, Callable[[], None]], out: TextIO | None = None) -> list[str]:
    """Run every report writer (label -> writer), each whatever the others do; a line per one that failed."""
    out = out or sys.stderr
    failed = []
    for label, writer in writers.items():
        try:
            writer()
        except (OSError, ValueError) as error:
            failed.append(label)
            out.write(f"could not write {label}: {console_text(str(error))}; the other reports were written\n")
    return failed


def summary_table(results: list[FixtureResult], every_clause: bool = False) -> str:
    """Counts by game and by clause (every clause, or those with a failure or error), then the totals."""
    rows: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: dict.fromkeys(OUTCOMES, 0))
    versions: dict[str, set[str | None]] = defaultdict(set)
    for result in results:
        versions[result.scenario.game].add(result.rule_version)
    for result in results:
        game = result.scenario.game
        if len(versions[game] - {None}) > 1:  # the engine declares several: one block per version
            game = f"{game} {result.rule_version or '(none)'}"
        rows[(game, "")][result.outcome] += 1
        for clause in result.charged:
            rows[(game, clause)][result.outcome] += 1
    width = max([len(clause) + len(clause_basis(clause)) + 5 for _, clause in rows if clause] + [24])
    lines = [f"{'game / clause':<{width}} {'pass':>6} {'fail':>6} {'error':>6} {'skip':>6}"]
    for (game, clause), totals in sorted(rows.items()):
        if clause and not (every_clause or totals["fail"] or totals["error"]):
            continue  # by default a clause is listed only where something went wrong; games always
        label = f"  {clause} [{clause_basis(clause)}]" if clause else game
        lines.append(f"{label:<{width}} " + " ".join(f"{totals[o]:>6}" for o in OUTCOMES))
    totals = count(results)
    lines.append(f"{'total':<{width}} " + " ".join(f"{totals[o]:>6}" for o in OUTCOMES))
    return "\n".join(lines)


def print_failures(results: list[FixtureResult], out: TextIO | None = None) -> None:
    """Every failure and error, with its place and its details; the same verdict over several fixtures told once."""
    out = out or sys.stdout
    repeated = repeated_ids(results)
    failed = [r for r in results if r.outcome in ("fail", "error")]
    for group in alike(failed, lambda r: (r.outcome, r.message, tuple(r.details))):
        result = group[0]
        if len(group) > 1:
            out.write(f"{result.outcome.upper()} {len(group)} fixtures: {console_text(result.message)}\n")
            lines = [f"  {line}" for line in result.details]
            for one in group[:SHOWN]:
                out.write(f"  {case_name(one, repeated)} ({one.scenario.file}:{one.line})\n")
            if len(group) > SHOWN:
                out.write(f"  ... and {len(group) - SHOWN} more (-v or --json names every one)\n")
        else:
            scenario = result.scenario
            out.write(f"{result.outcome.upper()} {case_name(result, repeated)} ({scenario.file}:{result.line})\n")
            out.write(f"  {scenario.title}; {charged_words(result)}\n")
            lines = result.report().splitlines()
        for line in lines[:SCREENFUL]:
            out.write(f"  {console_text(line)}\n")
        if len(lines) > SCREENFUL:
            out.write(f"    ... and {len(lines) - SCREENFUL} more ({len(result.details)} in all; --json lists every one)\n")


def charged_words(result: FixtureResult) -> str:
    """The clauses a failure or error is charged to, in words: the fixture's, or those the failing step names."""
    charged, clauses = result.charged, result.scenario.clauses
    if charged == clauses:
        return f"clauses: {', '.join(clauses)}"
    if not charged:
        return f"charged to no clause: the engine failed while taking the setup, before any step the fixture checks ({', '.join(clauses)})"
    return f"charged to: {', '.join(charged)} (of the fixture's {len(clauses)} clauses)"


def capability_notes(results: list[FixtureResult]) -> list[str]:
    """The skips for a missing feature, counted apart by feature, and the checks left unchecked."""
    lines = []
    by_feature: dict[str, int] = defaultdict(int)
    for result in results:
        if result.outcome == "skip" and result.feature is not None:
            by_feature[result.feature] += 1
    if by_feature:
        counts = ", ".join(f"{feature} {n}" for feature, n in sorted(by_feature.items()))
        lines.append(f"skipped for a feature the engine does not declare: {counts} "
                     f"({sum(by_feature.values())} fixtures)")
    unchecked = [r for r in results if r.unchecked]
    if unchecked:
        lines.append(f"left unchecked by the engine's declared features: {sum(len(r.unchecked) for r in unchecked)} "
                     f"reason check(s) in {len(unchecked)} fixture(s) (reasons: illegal); run -v to list them")
    return lines


def basis_notes(results: list[FixtureResult]) -> list[str]:
    """The failures split into those on the rule text and those on our reading of an open question.

    Only failures count here: an error says the engine misbehaved, not which reading it follows.
    """
    text: set[str] = set()
    read: set[str] = set()
    readings: dict[str, set[str]] = defaultdict(set)
    for result in results:
        if result.outcome != "fail":
            continue
        for clause_id in result.charged:
            found = specs.all_clauses().get(clause_id)
            if found and found[1].basis == "interpretation":
                readings[f"{clause_id} ({found[1].question})"].add(result.scenario.id)
                read.add(result.scenario.id)
            else:
                text.add(result.scenario.id)
    lines = []
    if text:
        lines.append(f"failures on the rule text: {len(text)} fixture(s)")
    if read:
        lines.append(f"failures on an interpretation: {len(read)} fixture(s)")
    for reading, fixtures in sorted(readings.items()):
        lines.append(f"follows another reading of: {reading}: {len(fixtures)} fixture(s)")
    return lines


def error_and_skip_notes(results: list[FixtureResult]) -> list[str]:
    """The engine errors counted by kind (crash, timeout, protocol, ...), and the skips by reason."""
    lines = []
    errors = Counter(r.kind for r in results if r.outcome == "error")
    if errors:
        kinds = ", ".join(f"{kind} {errors[kind]}" for kind in ERROR_KINDS if errors[kind])
        lines.append(f"engine errors (not rule failures): {sum(errors.values())} fixture(s): {kinds}")
    skips = Counter(r.skip_kind or "other" for r in results if r.outcome == "skip")
    if skips:
        reasons = ", ".join(f"{kind} {n}" for kind, n in sorted(skips.items(), key=lambda item: (-item[1], item[0])))
        lines.append(f"skipped: {sum(skips.values())} fixture(s), by reason: {reasons}")
    return lines
