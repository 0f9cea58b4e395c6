"""How fast perft counts, in process and over stdio, and which of the catalogue's mutants it catches.

    python benchmarks/bench_perft.py [--repeat 3] [--no-stdio] [--no-mutants] [--mutant-depth 4]

Speed: for each game, one seeded deal counted to a depth of some 10^5 leaves (Gin Rummy's and
President's are the issue's whole-command positions), on the reference in process (``clone()``
at each branch) and behind `cardverse-conformance serve` over stdio: with ``perft`` declared (the
engine counts, one request: ``CountingTree``) and without it (``serve --no-perft``: a level at a
time, each level's forks and its children's apply / legal_actions / state in one round).
Nodes are every position counted at depths 1..N; the best of the repeats is kept, interleaved.
CPU seconds (the harness and the server together) are shown beside the wall time: on a loaded
machine each round trip waits for a core, so the wall ratio grows while the CPU ratio does not.
The harness's own CPU a level at a time is shown apart: its reading and checking of the answers.
The whole ``perft`` command also counts the reference beside the engine (in a forked child, or a
thread): time the whole commands side by side, e.g. with ``/usr/bin/time`` (README, perft).

Mutants: each mutant of the catalogue counted from every published position of its game to
``--mutant-depth`` (at most the published depths; 0: all of them); caught when a count differs from the
published one (or the mutant raises or refuses an action it lists); then divided against the
reference down to the position whose legal list differs, written as a fixture and checked.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_fuzz import server_cpu  # the sibling script: one reading of /proc

from harness.adapters import subprocess_engine
from harness.findings.verify import verify_fixture
from harness.mutants.catalogue import CATALOGUE
from harness.mutants.catalogue import engine as mutant
from harness.findings.games import facts
from harness.perft.counted import CountingTree
from harness.perft.finding import write
from harness.perft.locate import locate
from harness.perft.remote import RemoteTree
from harness.perft.tree import LocalTree, PerftError
from harness.perft.vectors import vectors
from reference_engine import create

# (game, seed, players, depth): 10^5 to 10^6 nodes each on the reference
SPEED = (("rummy", 3, 4, 7), ("gin-rummy", 1, 2, 9), ("president", 2, 4, 7))
MODES = ("in process", "stdio perft", "stdio levels")


def timed(tree: Any, depth: int, server: Any = None) -> tuple[list[int], float, float, float]:
    """The counts, the wall seconds, the CPU seconds (this process plus the server's) and this process's own
    of one count."""
    wall, cpu, theirs = time.perf_counter(), time.process_time(), server_cpu(server) if server else 0.0
    counts = tree.counts(depth)
    own = time.process_time() - cpu
    return counts, time.perf_counter() - wall, own + ((server_cpu(server) - theirs) if server else 0.0), own


def seeded(game: str, seed: int, players: int) -> dict[str, Any]:
    """The setup of a seeded deal with the game's default options."""
    spec = facts(game).spec
    return {"game": game, "rule_version": spec.rule_version, "options": dict(spec.option_defaults), "seed": seed,
            "players": players}


def speed(repeat: int, stdio: bool) -> None:
    """Nodes per second per game, in process and over stdio with perft declared and without it."""
    shown = MODES if stdio else MODES[:1]
    print(f"{'game':<10} {'deal':<10} {'depth':>5} {'nodes':>8} " + " ".join(f"{m:>14}" for m in shown)
          + ("  wall ratios (cpu ratios) to in process" if stdio else ""))
    served = {"stdio perft": subprocess_engine([sys.executable, "-m", "harness", "serve"]),
              "stdio levels": subprocess_engine([sys.executable, "-m", "harness", "serve", "--no-perft"])} if stdio else {}
    try:
        for engine in served.values():
            engine.describe()  # started and shaken hands with before the clock runs
        for game, seed, players, depth in SPEED:
            setup = seeded(game, seed, players)
            best: dict[str, tuple[float, float, float]] = {}
            want: list[int] | None = None
            for _ in range(repeat):
                runs: list[tuple[str, Any, Any]] = [("in process", LocalTree(create(), setup), None)]
                runs += [("stdio perft", CountingTree(served["stdio perft"], setup), served["stdio perft"])] if stdio else []
                runs += [("stdio levels", RemoteTree(served["stdio levels"], setup), served["stdio levels"])] if stdio else []
                for label, tree, server in runs:
                    counts, wall, cpu, own = timed(tree, depth, server)
                    want = want or counts
                    assert counts == want, (label, game, counts, want)
                    old = best.get(label)
                    best[label] = (min(wall, old[0]), min(cpu, old[1]), min(own, old[2])) if old else (wall, cpu, own)
            assert want is not None
            nodes = sum(want)
            local = best["in process"]
            line = f"{game:<10} {f'{seed}, {players}p':<10} {depth:>5} {nodes:>8} " + " ".join(
                f"{nodes / best[m][0]:>12,.0f}/s" for m in shown)
            if stdio:
                line += "  " + ", ".join(f"{m[6:]} {best[m][0] / local[0]:.2f}x ({best[m][1] / local[1]:.2f}x)"
                                         for m in shown[1:])
                line += f"; the harness's own CPU a level at a time: {best['stdio levels'][2]:.2f} s"
            print(line, flush=True)
    finally:
        for engine in served.values():
            engine.close()


def caught(mutant_id: str, game: str, depth: int, out: Path) -> tuple[str, str]:
    """Where perft first tells the mutant from the published counts (or ``-``), and what came of the
    divide's fixture there: ``ok`` (lints, fails on the mutant, passes on the reference) or why not."""
    engine = mutant(mutant_id)
    for vector in vectors(game):
        reach = min(depth, len(vector.counts)) if depth > 0 else len(vector.counts)
        try:
            counts = LocalTree(engine, vector.setup).counts(reach)
        except PerftError as error:
            return f"{vector.name}: error ({str(error)[:60]})", "-"
        if tuple(counts) != vector.counts[:reach]:
            first = next(d for d, (a, b) in enumerate(zip(counts, vector.counts), start=1) if a != b)
            return f"{vector.name} at depth {first}", fixture(engine, vector.setup, first, out / mutant_id)
    return "-", "-"


def fixture(engine: Any, setup: dict[str, Any], depth: int, out: Path) -> str:
    """The divide from ``setup`` to ``depth``, written as a fixture and checked."""
    reference = LocalTree(create(), setup)
    try:
        found = locate(LocalTree(engine, setup), reference, depth)
    except PerftError as error:
        return f"divide: error ({str(error)[:50]})"
    if found is None:
        return "divide found no position"
    written = write(setup, reference, found, out)
    if isinstance(written, str):
        return f"no fixture: {written[:50]}"
    check = verify_fixture(written, engine, create())
    return "ok" if check.ok else check.summary()[:60]


def mutants(depth: int) -> None:
    """The table: each mutant, the first published position and depth whose count it gets wrong, the fixture."""
    reach = f"to depth {depth}" if depth > 0 else "to every published depth"
    print(f"\nmutants caught by perft {reach} from the published positions (and the divide's fixture):")
    found = fixtures = 0
    with tempfile.TemporaryDirectory() as folder:
        for entry in CATALOGUE:
            where, made = caught(entry.id, entry.game, depth, Path(folder))
            found += where != "-"
            fixtures += made == "ok"
            print(f"  {entry.id:<44} {where:<40} {made}", flush=True)
    print(f"perft caught {found}/{len(CATALOGUE)} mutants; {fixtures} fixtures lint, fail on the mutant and pass "
          "on the reference")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-stdio", action="store_true")
    parser.add_argument("--no-mutants", action="store_true")
    parser.add_argument("--mutant-depth", type=int, default=4)
    args = parser.parse_args()
    speed(args.repeat, not args.no_stdio)
    if not args.no_mutants:
        mutants(args.mutant_depth)


if __name__ == "__main__":
    main()
