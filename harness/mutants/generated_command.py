"""``mutants --generated``: mutmut's mutants of the reference engine against the fixtures, then fuzz,
the fixtures fuzz writes mined into ``--out`` with each mutant's place, and the survivors listed."""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from harness import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from harness.host.files import UnsafePath, check_folder, write_inside
from harness.host.progress import Progress

EQUIVALENT = Path(__file__).with_name("equivalent.txt")
AHEAD = 16  # cluster tasks in flight per worker
PLACES = "mined.jsonl"  # in --out: one line per mined fixture, the mutant's place beside it


def known_equivalent(path: Path = EQUIVALENT) -> set[str]:
    """The ids (or globs of ids) of generated mutants known to change nothing a fixture could see (``id  # why`` a line)."""
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    return {line.partition("#")[0].strip() for line in lines} - {""}


def run_generated(args: argparse.Namespace) -> int:
    """The generated mutants of each game chosen, scored; the per-game summary and the survivors."""
    from harness.mutants.generated import MissingTool, places, sample

    games = args.game or ["rummy", "gin-rummy", "president"]
    try:
        every = {game: list(places(game)) for game in games}
    except MissingTool as error:
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE
    chosen = {game: sample([p for p in found if not args.mutant or any(fnmatch.fnmatchcase(p.id, g) for g in args.mutant)],
                           args.sample, args.seed) for game, found in every.items()}
    if args.list:
        for found in chosen.values():
            for p in found:
                print(f"{p.id}\t{p.file}:{p.line}\t{p.before} -> {p.after}")
        return EXIT_OK
    if args.sample is not None and args.sample < 1:
        sys.stderr.write("--sample must be 1 or more\n")
        return EXIT_USAGE
    out = Path(args.out) if args.out else None
    try:
        if out:
            check_folder(out)
    except UnsafePath as error:
        sys.stderr.write(f"--out {error}\n")
        return EXIT_USAGE
    from harness.mutants.scoring import sound_suite

    scenarios = sound_suite(args.paths)
    if scenarios is None:
        return EXIT_USAGE
    return _score(args, every, chosen, scenarios, out)


def _score(args: argparse.Namespace, every: dict[str, list[Any]], chosen: dict[str, list[Any]],
           scenarios: list[Any], out: Path | None) -> int:
    """Score the chosen mutants (on the cluster when asked), mine what fuzz finds, print the summary."""
    import contextlib

    from harness.fuzzing.campaign import FuzzOptions
    from harness.host.cluster import ClusterError, connected, workers
    from harness.mutants.mining import mine_all

    options = None if args.no_fuzz else FuzzOptions("", args.examples, args.seed, args.max_steps)
    ids = [p.id for found in chosen.values() for p in found]
    progress = Progress(args.progress)
    results: list[Any] = []
    written: dict[str, Path] = {}
    clauses = {s.id: list(s.clauses) for s in scenarios}  # a killing fixture's clauses, for --json
    try:
        lines = open(args.json, "w", encoding="utf-8") if args.json else None  # noqa: SIM115 (closed below)
    except OSError as error:
        sys.stderr.write(f"cannot write --json {args.json}: {error.strerror}; give a file in a folder you can write\n")
        return EXIT_USAGE
    try:
        with contextlib.ExitStack() as stack:
            if lines is not None:
                stack.enter_context(lines)
            client = stack.enter_context(connected(args.cluster)) if args.cluster else None
            # Many small tasks ahead of each worker: one that fuzzes for minutes holds back the report, not the work.
            ahead = (args.jobs or workers(client)) * AHEAD if client is not None else None
            progress.show(f"mutant 1/{len(ids)}")
            for mined in mine_all(ids, scenarios, options, client, ahead):
                results.append(mined)
                if mined.mineable and out is not None:
                    written[mined.place.id] = _write(mined, out)
                if lines is not None:  # kept line by line: a Ctrl-C leaves every mutant scored so far
                    record = _record(mined, written.get(mined.place.id), clauses)
                    lines.write(json.dumps(record, ensure_ascii=False) + "\n")
                    lines.flush()
                progress.show(f"mutant {len(results) + 1}/{len(ids)}: {mined.place.id}")
    except ClusterError as error:
        progress.done()
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE
    progress.done()
    return _summary(every, results, written, out)


def _record(mined: Any, fixture: Path | None, clauses: dict[str, list[str]]) -> dict[str, Any]:
    """One mutant's fate as a JSON object: its place, what happened, why, the clauses it counts for
    (the killing fixture's, or the one fuzz's divergence is filed under) and the fixture mined from it."""
    from harness.findings.clauses import divergence_clause
    from harness.findings.games import facts

    place = mined.place
    counted = clauses.get(mined.why, []) if mined.status == "killed" else (
        [divergence_clause(facts(place.game), mined.finding.failure)] if mined.mineable else [])
    return {"mutant": place.id, "game": place.game, "file": place.file, "line": place.line, "function": place.function,
            "operator": place.operator, "before": place.before, "after": place.after, "status": mined.status,
            "why": mined.why, "clauses": counted, "fixture": None if fixture is None else str(fixture)}


def _write(mined: Any, out: Path) -> Path:
    """The mutant's fixture written in ``out`` and checked on it and the reference; its place added to ``mined.jsonl``."""
    from harness.findings.verify import verify_fixture
    from harness.findings.writer import write_fixture
    from harness.mutants.generated import engine
    from reference_engine import create

    path = write_fixture(mined.finding, out)
    check = verify_fixture(path, engine(mined.place.id), create())
    place = mined.place
    line = {"fixture": path.name, "mutant": place.id, "file": place.file, "line": place.line,
            "function": place.function, "operator": place.operator, "before": place.before, "after": place.after,
            "verified": check.ok, "check": check.summary()}
    with (out / PLACES).open("a", encoding="utf-8") as places:
        places.write(json.dumps(line, ensure_ascii=False) + "\n")
    if not check.ok:
        print(f"note: {path} does not do its job ({check.summary()}); it is kept for a look, not for fixtures/")
    return path


def _share(killed: int, fuzz_only: int) -> str:
    """How much of what fixtures or fuzz find the fixtures find: ``killed / (killed + fuzz_only)`` as a percentage."""
    found = killed + fuzz_only
    return f"{100 * killed / found:.0f}% of {found}" if found else "-"


def _summary(every: dict[str, list[Any]], results: list[Any], written: dict[str, Path], out: Path | None) -> int:
    """The per-game table, what fuzz found, and the survivors by file and function (known equivalents apart)."""
    from harness.mutants.mining import FUZZ, PROPERTIES, STATUSES, SURVIVED

    equivalent = known_equivalent()
    print(f"{'game':<10} {'generated':>9} {'run':>5} {'crash at once':>13} {'killed by fixtures':>18} "
          f"{'found only by fuzz (fixture written)':>36} {'by properties':>13} {'survived':>8} {'timed out':>9} "
          f"{'fixtures of found':>17}")
    for game, found in every.items():
        mine = [r for r in results if r.place.game == game]
        count = Counter(r.status for r in mine)
        fixtures = sum(r.place.id in written for r in mine)
        counts = {status: count.get(status, 0) for status in STATUSES}
        print(f"{game:<10} {len(found):>9} {len(mine):>5} {counts['crash']:>13} {counts['killed']:>18} "
              f"{f'{counts[FUZZ]} ({fixtures})':>36} {counts[PROPERTIES]:>13} {counts[SURVIVED]:>8} "
              f"{counts['timed out']:>9} {_share(counts['killed'], counts[FUZZ]):>17}")
    for mined in (r for r in results if r.status == FUZZ):
        where = written.get(mined.place.id)
        how = (f"; fixture {where}" if where else "; no fixture (fuzz writes none for a seeded deal, an error at start or an invariant)" if not mined.mineable
               else "" if out else "; --out DIR writes its fixture")
        print(f"fuzz found {mined.place.id} ({mined.place.file}:{mined.place.line}): {mined.why}{how}")

    def listed(mined: Any) -> bool:
        return any(fnmatch.fnmatchcase(mined.place.id, pattern) for pattern in equivalent)

    survivors = [r for r in results if r.status == SURVIVED and not listed(r)]
    quiet = sum(r.status == SURVIVED and listed(r) for r in results)
    if survivors or quiet:
        print(f"survived, nothing finds them ({quiet} more known equivalent, in {EQUIVALENT.name}):")
    by_function: dict[tuple[str, str], list[Any]] = {}
    for mined in survivors:
        by_function.setdefault((mined.place.file, mined.place.function), []).append(mined.place)
    for (file, function), found in sorted(by_function.items()):
        print(f"  {file} {function}: {len(found)}")
        for p in found:
            print(f"    {p.id} line {p.line}: {p.before} -> {p.after}")
    return EXIT_FAILED if survivors or any(r.status == FUZZ for r in results) else EXIT_OK
