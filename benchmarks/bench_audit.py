"""How fast `audit` judges game records, against the reference just applying the same actions, and its memory.

    python benchmarks/bench_audit.py [--games 40] [--million-hands 1000000] [--distinct 300] [--keep FILE]
    python benchmarks/bench_audit.py --build 100000 --out gin.jsonl.gz   # distinct Gin hands, to audit
    python benchmarks/bench_audit.py --decoders --million-hands 0        # the record readers side by side
    python benchmarks/bench_audit.py --mutants   # does the audit catch each mutant from its own seeded games?

For each game it plays seeded reference games between computer players and writes their records
(spec/records.md), then at several sizes (the first tenth, half, all of them) times, on one core:
  * audit: reading the lines, parsing and checking each record, judging its rules (`audit --rules-only`);
  * levels: the same, and each seat the record marks as a computer player judged at every decision against
    its level's clauses (`audit` without --rules-only; no goal: each decision is a position checked);
  * judge: judging records already parsed (the replay with its checks, no reading);
  * bare:  the reference engine starting each game and applying the recorded actions, nothing else.
Times are CPU seconds of this process (the machine may be shared): the three are timed in turn, in a
new order each round, for at least nine rounds and three CPU seconds, and the best of each counts.
It prints hands per second per core and the ratios audit/bare and judge/bare (goal: audit <= 1.2x).
With ``--decoders`` it also times, per game, the ways to read a record line into what the audit
judges, each over bare: ``json.loads`` and the compiled schema check (jsonschema-rs, the reader
before the typed decoder), orjson and the same check (if orjson is installed), and the msgspec
typed decoder the kit reads with (harness/records/decoder.py); each then with the game-file checks.

Then it writes a gzip file of ``--million-hands`` Gin Rummy hands with the kit's record writer,
made of ``--distinct`` seeded matches (harness.audit.sample) repeated in turn (playing a million
hands between computer players takes hours here; each repeated record is read, parsed and
replayed in full all the same), runs `cardverse-conformance audit` on it in a child process and
prints its wall and CPU time and peak memory (goal: under 3 minutes on one core, under 60 MB,
flat); ``--keep FILE`` keeps the file (to time it again with ``/usr/bin/time -v``).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from harness.audit.campaign import judge_groups
from harness.audit.judge import Parsed, audit_record
from harness.audit.sample import seeded_game
from harness.records import decoder
from harness.records.record import check_record, parse_record, validator
from harness.records.stream import groups
from harness.records.writer import RecordWriter
from reference_engine import create

ROUNDS, BUDGET = 9, 3.0  # timings of each kind, taken in turn, at least 9 and for 3 CPU seconds; the best counts
LEVELS = {"gin-rummy": ["easy", "normal"], "rummy": ["easy", "easy", "easy"], "president": ["easy"] * 4}


def bare(records: list[Any], engine: Any) -> float:
    """Seconds for the reference to start each game and apply its recorded actions, with no check."""
    started = time.process_time()
    for record in records:
        game = engine.start(record.setup)
        apply = game.apply
        for round_ in record.rounds:
            for move in round_["moves"]:
                apply(move["seat"], move["action"])
    return time.process_time() - started


def judged(records: list[Any], engine: Any) -> float:
    """Seconds to judge records already parsed (as judge_groups does: each action parsed once for them all)."""
    started, parsed = time.process_time(), Parsed()
    for record in records:
        if not audit_record(record, engine, parsed).clean:
            raise SystemExit("a reference record is not clean: a bug of the audit")
    return time.process_time() - started


def audited(path: Path, engine: Any, seats: bool = False) -> float:
    """Seconds to read, parse and judge every line of ``path`` (``seats``: the computer players' levels too)."""
    started = time.process_time()
    for outcome, _ in judge_groups(groups([str(path)]), engine, seats):
        if outcome.outcome != "clean":
            raise SystemExit(f"{outcome.words()}: a reference record is not clean")
    return time.process_time() - started


def per_game(game: str, count: int, engine: Any, folder: Path) -> None:
    """The three timings at three sizes for one game."""
    texts = [json.dumps(seeded_game(engine, game, seed, LEVELS[game])) for seed in range(count)]
    for size in sorted({max(1, count // 10), max(1, count // 2), count}):
        path = folder / f"{game}-{size}.jsonl"
        path.write_text("".join(t + "\n" for t in texts[:size]), encoding="utf-8")
        records = [parse_record(t) for t in texts[:size]]
        hands = sum(len(r.rounds) for r in records)
        moves = sum(len(x["moves"]) for r in records for x in r.rounds)
        runs = {"bare": lambda: bare(records, engine), "judge": lambda: judged(records, engine),
                "audit": lambda: audited(path, engine), "levels": lambda: audited(path, engine, True)}
        times = dict.fromkeys(runs, float("inf"))
        order, spent, rounds = list(runs), 0.0, 0
        while rounds < ROUNDS or spent < BUDGET:  # the three in turn, in a new order each round: a slower spell
            random.Random(rounds).shuffle(order)  # of the machine, or the one run before, hits each alike
            for name in order:
                took = runs[name]()
                times[name], spent = min(times[name], took), spent + took
            rounds += 1
        print(f"{game:10} {size:5} games {hands:6} hands {moves:7} moves | audit {hands / times['audit']:8.0f} hands/s | "
              f"judge {hands / times['judge']:8.0f} | bare {hands / times['bare']:8.0f} | "
              f"audit/bare {times['audit'] / times['bare']:.2f}x judge/bare {times['judge'] / times['bare']:.2f}x | "
              f"levels {hands / times['levels']:6.0f} hands/s, {times['levels'] / times['bare']:.1f}x",
              flush=True)


def readers(game: str, count: int, engine: Any) -> None:
    """Each way to read ``count`` records of ``game`` into checked data, over bare (the best of five)."""
    texts = [json.dumps(seeded_game(engine, game, seed, LEVELS[game]), separators=(",", ":")) for seed in range(count)]
    records = [parse_record(t) for t in texts]
    schema = validator()
    ways: dict[str, Any] = {"json+jsonschema-rs": lambda t: schema.is_valid(json.loads(t)),
                            "msgspec decoder": decoder.decode, "json+checks": lambda t: check_record(json.loads(t)),
                            "msgspec+checks": parse_record}
    try:
        import orjson
    except ImportError:
        print(f"{game}: orjson is not installed: pip install orjson to time it too")
    else:
        ways["orjson+jsonschema-rs"] = lambda t: schema.is_valid(orjson.loads(t))
        ways["orjson+checks"] = lambda t: check_record(orjson.loads(t))
    base = min(bare(records, engine) for _ in range(5))
    timed = {}
    for name, read in ways.items():
        read(texts[0])  # the decoder's move cache, warm as on any file longer than a few games
        timed[name] = min(_cpu(lambda: [read(t) for t in texts]) for _ in range(5)) / base
    print(f"{game:10} read / bare: " + " | ".join(f"{name} {ratio:.3f}x" for name, ratio in timed.items()), flush=True)


def _cpu(run: Any) -> float:
    """CPU seconds ``run()`` takes."""
    started = time.process_time()
    run()
    return time.process_time() - started


def million(hands_wanted: int, distinct: int, engine: Any, folder: Path, keep: Path | None = None) -> None:
    """Peak memory and time of `audit` on a gzip file of ``hands_wanted`` Gin Rummy hands."""
    texts = [json.dumps(seeded_game(engine, "gin-rummy", seed, LEVELS["gin-rummy"]), separators=(",", ":"))
             for seed in range(distinct)]
    sizes = [len(json.loads(t)["rounds"]) for t in texts]
    path = keep or folder / "gin-million.jsonl.gz"
    hands = games = 0
    with RecordWriter(path) as out:
        while hands < hands_wanted:
            out.write(texts[games % distinct])
            hands += sizes[games % distinct]
            games += 1
    print(f"gin-rummy: {games:,} records, {hands:,} hands ({distinct} distinct matches), "
          f"{path.stat().st_size / 1e6:.0f} MB gzip", flush=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "harness", "audit", str(path), "--quiet", "--rules-only"],
                          capture_output=True, text=True, env={**os.environ, "CI": "1"})
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(done.stdout.strip().splitlines()[0] if done.stdout.strip() else done.stderr[-500:])
    print(f"audit of {hands:,} Gin Rummy hands: {wall:.0f} s wall, {cpu:.0f} s CPU, {hands / cpu:.0f} hands per CPU "
          f"second, peak memory {after.ru_maxrss / 1024:.0f} MB")


def _match(seed: int) -> str:
    """One seeded Gin Rummy match's record, for ``--build`` (a pool worker's task)."""
    return json.dumps(seeded_game(create(), "gin-rummy", seed, LEVELS["gin-rummy"]), separators=(",", ":"))


def build(hands_wanted: int, out: Path, jobs: int) -> None:
    """Write records of distinct seeded Gin Rummy matches (seeds 0, 1, ...) until ``hands_wanted`` hands."""
    import multiprocessing

    started, hands, games = time.perf_counter(), 0, 0
    with gzip.open(out, "wt", encoding="utf-8", compresslevel=1) as file, multiprocessing.Pool(jobs) as pool:
        for text in pool.imap(_match, range(10**9), chunksize=20):
            file.write(text + "\n")
            hands += text.count('"moves":')
            games += 1
            if hands >= hands_wanted:
                break
    print(f"{out}: {games:,} distinct Gin Rummy matches, {hands:,} hands, {out.stat().st_size / 1e6:.1f} MB, "
          f"written in {time.perf_counter() - started:.0f} s with {jobs} processes")


def mutant_table() -> None:
    """Each mutant: visible in seeded play?, its record flagged by the audit?, the clause charged, its own?"""
    from harness.mutants import catalogue as mutants
    from harness.mutants.visibility import first_difference
    from harness.records.record import check_record

    engine, visible, flagged, own, elsewhere = create(), 0, 0, 0, []
    started = time.perf_counter()
    print(f"{'mutant':48} {'visible?':9} {'flagged?':9} {'clause charged':38} own?")
    for mutant in mutants.CATALOGUE:
        found = None if mutant.unseen_in_play else first_difference(mutant.id)
        verdict = None if found is None else audit_record(check_record(json.loads(json.dumps(found[1]))), engine).disagreement
        clause = verdict.clause if verdict is not None else "-"
        visible += found is not None
        flagged += verdict is not None
        own += verdict is not None and clause == mutant.clause
        if found is not None and (verdict is None or clause != mutant.clause):
            elsewhere.append(mutant.id)
        seen = "yes" if found is not None else ("no: says why" if mutant.unseen_in_play else "NO")
        print(f"{mutant.id:48} {seen:9} {'yes' if verdict else '-' if found is None else 'NO':9} {clause:38} "
              f"{'yes' if verdict and clause == mutant.clause else '-' if verdict is None else 'no'}", flush=True)
    print(f"{len(mutants.CATALOGUE)} mutants: {visible} visible in seeded play; of those, {flagged} flagged by the audit "
          f"({100 * flagged / max(visible, 1):.1f}%), {own} charged to their own clause ({100 * own / max(visible, 1):.1f}%); "
          f"{time.perf_counter() - started:.0f} s wall")
    print("not flagged or charged elsewhere (tests/test_mutants_visible.py says why): " + (", ".join(elsewhere) or "none"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="seeded games per game (default 40)")
    parser.add_argument("--only", choices=sorted(LEVELS), action="append", help="only this game (repeatable)")
    parser.add_argument("--million-hands", type=int, default=1_000_000, metavar="N",
                        help="Gin Rummy hands in the memory run (default 1,000,000; 0 skips it)")
    parser.add_argument("--distinct", type=int, default=300, help="distinct matches repeated in it (default 300)")
    parser.add_argument("--keep", type=Path, metavar="FILE", help="write the memory run's file here and keep it (.gz)")
    parser.add_argument("--decoders", action="store_true", help="also time each way to read records, per game")
    parser.add_argument("--build", type=int, metavar="HANDS", help="only write distinct Gin Rummy hands to --out")
    parser.add_argument("--out", type=Path, default=Path("gin.jsonl.gz"), help="the file --build writes")
    parser.add_argument("--mutants", action="store_true", help="only the table of the catalogue's mutants audited")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes --build plays on")
    args = parser.parse_args()
    if args.build:
        build(args.build, args.out, args.jobs)
        return
    if args.mutants:
        mutant_table()
        return
    engine = create()
    with tempfile.TemporaryDirectory() as folder:
        for game in args.only or sorted(LEVELS):
            per_game(game, args.games, engine, Path(folder))
        for game in (args.only or sorted(LEVELS)) if args.decoders else ():
            readers(game, args.games, engine)
        if args.million_hands:
            million(args.million_hands, args.distinct, engine, Path(folder), args.keep)


if __name__ == "__main__":
    main()
