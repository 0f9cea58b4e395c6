"""What ``perft`` does once the counts differ (the automatic divide, the fixture) and ``perft --vectors``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path as FilePath
from typing import Any

from harness import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from harness.adapters.engine import EngineLoadError
from harness.perft.finding import replay_text, write
from harness.perft.locate import Mismatch, Tree, locate, tree
from harness.perft.tree import PerftError


def deal_differs(tested: Tree, reference: Tree, setup: dict[str, Any]) -> list[str]:
    """For a seeded deal: what the engine deals differently (the keys of the start's view), else nothing."""
    if "seed" not in setup:
        return []
    mine, want = tested.view(()), reference.view(())
    return sorted(k for k in set(want) | set(mine) if mine.get(k) != want.get(k)) if isinstance(mine, dict) else ["view"]


def explain(engine: Any, tested: Tree, reference: Tree | None, setup: dict[str, Any], depth: int,
            out: FilePath | None) -> Mismatch | None:
    """Divide down to the position whose legal list differs (from ``depth``, one whose count differs), print it,
    and write it as a fixture with ``out``."""
    from harness.adapters.engine import DEFAULT_ENGINE, load_engine
    from harness.findings.verify import verify_fixture

    if reference is None:
        return None
    keys = deal_differs(tested, reference, setup)
    if keys:
        print(f"the engine deals seed {setup['seed']} differently from the spec's seeded deal "
              f"(state view keys {', '.join(keys)}): fix the deal first (spec/seeded-deal.md), the counts follow")
        return None
    mismatch = locate(tested, reference, depth)
    if mismatch is None:
        print("divide found no position whose legal actions differ: the engine's answers change from one ask to the "
              "next (a legal list or a copy that is not deterministic)")
        return None
    print("divide: " + "\n  ".join(mismatch.lines()))
    if out is None:
        print("  replay (the setup, then one move a line; --out DIR writes a fixture instead):")
        print("  " + replay_text(setup, mismatch).replace("\n", "\n  "))
        return mismatch
    written = write(setup, reference, mismatch, out)
    if isinstance(written, str):
        print(f"  no fixture: {written}")
        print("  " + replay_text(setup, mismatch).replace("\n", "\n  "))
        return mismatch
    print(f"  fixture: {written} ({verify_fixture(written, engine, load_engine(DEFAULT_ENGINE)).summary()})")
    return mismatch


def command_vectors(args: argparse.Namespace) -> int:
    """``perft --vectors``: every published position of the games asked for, each to its published depths."""
    from harness.adapters.arguments import engine_from, opened
    from harness.adapters.handshake import described
    from harness.perft.vectors import VectorError, vector_games, vectors

    games = [args.game] if args.game else vector_games()
    try:
        chosen = [(game, vector) for game in games for vector in vectors(game)]
    except VectorError as error:
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE
    try:
        engine = engine_from(args)
    except (EngineLoadError, ValueError, OSError) as error:
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE
    wrong = skipped = 0
    with opened(engine):
        declared = described(engine).get("games", {})  # none: the engine never started (exit 3)
        for game, vector in chosen:
            if game not in declared:
                print(f"{game} {vector.name}: skip (the engine does not implement {game})")
                skipped += 1
                continue
            depth = min(args.depth or len(vector.counts), len(vector.counts))
            try:
                counts = tree(engine, vector.setup).counts(depth)
            except PerftError as error:
                print(f"{game} {vector.name}: error: {error}")
                wrong += 1
                continue
            want = list(vector.counts[:depth])
            if counts == want:
                print(f"{game} {vector.name}: ok to depth {depth} ({want[-1]} leaves)")
                continue
            wrong += 1
            first = next(d for d, (a, b) in enumerate(zip(counts, want), start=1) if a != b)
            print(f"{game} {vector.name}: DIFFERS from depth {first}: {counts[first - 1]}, published {want[first - 1]}")
            from harness.adapters.engine import DEFAULT_ENGINE, load_engine
            from harness.perft.tree import LocalTree

            try:
                explain(engine, tree(engine, vector.setup), LocalTree(load_engine(DEFAULT_ENGINE), vector.setup),
                        vector.setup, first, FilePath(args.out) if args.out else None)
            except PerftError as error:
                print(f"error: {error}")
    agree = len(chosen) - wrong - skipped
    print(f"perft vectors: {len(chosen)} positions: {agree} agree, {wrong} differ, {skipped} skipped"
          + (" (games the engine does not implement)" if skipped else ""))
    if not agree and not wrong:  # a run that checks nothing is not a pass
        print("nothing was checked: the engine implements none of the games of the vectors asked for")
        return EXIT_FAILED
    return EXIT_FAILED if wrong else EXIT_OK
