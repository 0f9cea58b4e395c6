"""Check the Gin Rummy deadwood solver against an exhaustive brute force on many hands.

Half the hands are uniformly random, half dense (cards from a band of four adjacent ranks, so sets
and runs overlap everywhere). The brute force tries every set of disjoint melds of the hand; it
shares nothing with the solver but the list of meld masks, which it re-derives and compares.

    python3 benchmarks/check_deadwood.py [--hands 100000] [--discards 10000] [--least 100000] [--seed 1]
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference_engine.gin_rummy.deadwood import ALL_MELDS, best_discards, least_after_discard, min_deadwood  # noqa: E402

VALUES = [min(c % 13 + 1, 10) for c in range(52)]


def melds_of_deck() -> set[int]:
    """Every meld, derived from the rule text without the solver's tables."""
    melds = set()
    for rank in range(13):
        cards = [s * 13 + rank for s in range(4)]
        for size in (3, 4):
            for chosen in itertools.combinations(cards, size):
                melds.add(sum(1 << c for c in chosen))
    for suit in range(4):
        for low in range(13):
            for high in range(low + 2, 13):  # the King (12) is the top; no wrap to the Ace
                melds.add(sum(1 << (suit * 13 + r) for r in range(low, high + 1)))
    return melds


def brute_min_deadwood(hand: int, melds: list[int]) -> int:
    """The least deadwood by trying every set of disjoint melds inside ``hand``."""
    inside = [m for m in melds if m & hand == m]
    total = sum(VALUES[c] for c in range(52) if hand >> c & 1)
    covered = [sum(VALUES[c] for c in range(52) if m >> c & 1) for m in inside]
    best = 0

    def walk(i: int, used: int, score: int) -> None:
        nonlocal best
        if score > best:
            best = score
        for j in range(i, len(inside)):
            if not inside[j] & used:
                walk(j + 1, used | inside[j], score + covered[j])

    walk(0, 0, 0)
    return total - best


def random_hand(rng: random.Random, size: int, dense: bool) -> int:
    """A random or a dense hand of ``size`` cards."""
    if dense:
        low = rng.randint(0, 9)
        pool = [s * 13 + r for r in range(low, low + 4) for s in range(4)]
    else:
        pool = list(range(52))
    return sum(1 << c for c in rng.sample(pool, size))


def main() -> int:
    """Run the check; non-zero exit on any disagreement."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000, help="10-card hands (half dense)")
    parser.add_argument("--discards", type=int, default=10_000, help="11-card best-discard checks (half dense)")
    parser.add_argument("--least", type=int, default=100_000,
                        help="11-card hands checking the one-pass best discard against per-card solves")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    melds = melds_of_deck()
    if melds != set(ALL_MELDS):
        print(f"MELD TABLE MISMATCH: solver {len(ALL_MELDS)}, rule text {len(melds)}")
        return 1
    meld_list = sorted(melds)
    rng = random.Random(args.seed)
    started = time.perf_counter()
    failures = 0
    for i in range(args.hands):
        hand = random_hand(rng, 10, dense=i % 2 == 1)
        expected, got = brute_min_deadwood(hand, meld_list), min_deadwood(hand)
        if expected != got:
            failures += 1
            print(f"10 cards {hand:#x}: brute force {expected}, solver {got}")
    for i in range(args.discards):
        hand = random_hand(rng, 11, dense=i % 2 == 1)
        cards = [c for c in range(52) if hand >> c & 1]
        expected_after = {c: brute_min_deadwood(hand & ~(1 << c), meld_list) for c in cards}
        if expected_after != best_discards(hand):
            failures += 1
            print(f"11 cards {hand:#x}: best discards differ")
        if least_after_discard(hand) != min(expected_after.values()):
            failures += 1
            print(f"11 cards {hand:#x}: least after the best discard differs")
    for i in range(args.least):
        # The one-pass 11-card answer against every discard solved apart (itself checked above).
        hand = random_hand(rng, 11, dense=i % 2 == 1)
        if least_after_discard(hand) != min(best_discards(hand).values()):
            failures += 1
            print(f"11 cards {hand:#x}: least after the best discard differs from the per-card solves")
    seconds = time.perf_counter() - started
    print(f"{len(melds)} melds; {args.hands} ten-card hands ({args.hands // 2} dense) and {args.discards} "
          f"eleven-card discards (brute force), {args.least} eleven-card one-pass answers checked in {seconds:.1f}s: {failures} disagreement(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
