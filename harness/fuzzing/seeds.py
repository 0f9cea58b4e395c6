"""Fuzz campaigns over a range of seeds (``--seeds A:B``), and on a Dask cluster (``--cluster``): a task per campaign.

A campaign is a function of its game, its seed and its budget alone, so a worker computes the
very result this process would; the results come back in the order of the campaigns, and
everything printed or written from them (findings, fixtures checked on the engine here, records,
the summary) is done here. Each campaign of a range keeps its own Hypothesis example database
(``DIR/.hypothesis/GAME-seed-S``), so none depends on which ran before it. Workers of a
``local`` cluster use it on this machine's disk; workers of a scheduler elsewhere, maybe on another
machine, run without one.
"""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.adapters.engine import EngineLoadError
from harness.adapters.rule_versions import Played, played_here, playing_as
from harness.host.cluster import is_local, ordered

if TYPE_CHECKING:  # the parser takes seed_range from here: Hypothesis is imported only when a campaign runs
    from harness.fuzzing.campaign import FuzzOptions, FuzzResult


def parse_seeds(text: str) -> range:
    """``"A:B"`` as ``range(A, B)``, maybe empty; ValueError unless two integers around a colon."""
    start, colon, stop = text.partition(":")
    if not colon:
        raise ValueError(text)
    return range(int(start), int(stop))


def seed_range(text: str) -> range:
    """``"0:64"`` as ``range(0, 64)`` (an argparse type: a bad range is a usage error)."""
    try:
        seeds = parse_seeds(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected A:B, the seeds A to B-1, e.g. 0:8") from None
    if not seeds:
        raise argparse.ArgumentTypeError(f"{text!r} is empty: B must be above A")
    return seeds


def database(out: Path, game: str, seed: int) -> Path:
    """The example database of one campaign of a seed range."""
    return out / ".hypothesis" / f"{game}-seed-{seed}"


@contextmanager
def on_a_worker(played: Played) -> Iterator[None]:
    """On a Dask worker, while inside: the game files and rule versions the command plays (``playing_as``);
    Hypothesis' warning about ``random``, which the worker's own threads set off, silenced."""
    from hypothesis.errors import HypothesisDeprecationWarning

    # Its heartbeats draw from ``random`` while a game is drawn; Hypothesis takes that for a strategy's.
    warnings.filterwarnings("ignore", "Do not use the `random` module", HypothesisDeprecationWarning)
    with playing_as(played):
        yield


def campaign(options: FuzzOptions, engine: argparse.Namespace, records: bool,
             played: Played) -> tuple[FuzzResult, list[str]]:
    """On a worker: one campaign on the engine ``engine`` names (opened here) and the reference, playing what
    ``played`` holds; its games' records if asked."""
    with on_a_worker(played):
        return _campaign(options, engine, records)


def _campaign(options: FuzzOptions, engine: argparse.Namespace, records: bool) -> tuple[FuzzResult, list[str]]:
    """``campaign``, once the worker plays the command's game files."""
    from harness.adapters.arguments import engine_from, opened
    from harness.fuzzing.campaign import fuzz
    from harness.fuzzing.recording import recording
    from harness.records.record import server_of
    from reference_engine import create

    reference = create()
    try:
        tested = engine_from(engine)
    except (EngineLoadError, ValueError, OSError) as error:
        raise ValueError(f"a cluster worker cannot open the engine: {error}") from None
    lines: list[str] = []
    played = recording(reference, server_of(reference), options.seed, lines.append) if records else None
    with opened(tested):
        return fuzz(tested, options, reference, None, played), lines


def on_cluster(client: Any, address: str, args: argparse.Namespace, plan: list[FuzzOptions]) -> Iterator[tuple[FuzzResult, list[str]]]:
    """Each campaign of ``plan``'s result and records, in order, computed on the client's workers."""
    local = is_local(address)
    sent = [replace(o, database=o.database.resolve() if local else None) if o.database else o for o in plan]
    from harness.adapters.arguments import engine_args

    engine = engine_args(args)
    played = played_here()
    return ordered(client, campaign, ((options, engine, bool(args.records), played) for options in sent))


def summary(seeds: range, results: list[Any]) -> str:
    """The last lines of a campaign over a seed range: how far each game's games went, then the totals."""
    from harness.fuzzing.reach import Reach

    found = sum(bool(r.findings) for r in results)
    reach: dict[str, Reach] = {}
    for result in results:
        reach.setdefault(result.game, Reach()).merge(result.reach)
    lines = [f"{game} over seeds {seeds.start}:{seeds.stop}: {reached.line()}" for game, reached in sorted(reach.items())]
    return "\n".join(lines + [
        f"seeds {seeds.start}:{seeds.stop}: {len(results)} campaigns, {sum(r.examples for r in results)} examples, "
            f"{sum(r.steps for r in results)} steps: " + (f"{found} with findings" if found else "nothing found")])
