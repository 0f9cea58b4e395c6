"""Mine Gin Rummy hands where a shortcut engines take changes what a player sees, against the exact solver.

Each shortcut answers the 11-card question of a knock turn (can this seat knock, after which
discards, is it gin, what deadwood is left after the best discard); the exact answer comes from
``reference_engine.gin_rummy.deadwood``. Half the hands are uniformly random, half dense (four
adjacent ranks, so sets and runs overlap). For each shortcut the script counts the hands where the
answer a player sees differs, and prints the smallest few (fewest distinct ranks, then lowest
cards) as candidates for fixtures; each candidate is checked against the rule text by hand before
it goes into fixtures/ (see the fixtures' notes). Not run in CI at full size.

    python3 benchmarks/mine_shortcuts.py [--hands 20000] [--seed 1] [--show 3] [--limit 10]

Shortcuts: ``greedy`` (one best arrangement of the eleven cards, drop its highest leftover card:
OpenSpiel's heuristic), ``openspiel`` (pyspiel's own ``min_deadwood`` on eleven cards, through the
``bench`` extra; skipped when open-spiel is not installed), ``eleven`` (deadwood counted on the
eleven cards, before the discard), ``split`` (one best arrangement of the eleven cards, discard
one of its leftover cards), ``keeps-split`` (one best arrangement kept, the discard taken out of
it), ``wrap`` (runs may wrap round the Ace: K-A-2), ``ace-high`` (Q-K-A is a run).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference_engine.cards import card_name, cards_of, make_card  # noqa: E402
from reference_engine.gin_rummy.deadwood import (  # noqa: E402
    ALL_MELDS,
    VALUE,
    best_discards,
    is_meld,
    min_deadwood,
    optimal_arrangements,
    value_of,
)

Verdict = tuple[bool, frozenset[int], bool, int]  # knock legal, discards that allow it, gin, least after


def verdict(after: dict[int, int], limit: int) -> Verdict:
    """What a player sees from the least deadwood after each discard."""
    least = min(after.values())
    return least <= limit, frozenset(c for c, d in after.items() if d <= limit), least == 0, least


def exact(hand: int, limit: int) -> Verdict:
    """The rules: the least deadwood of the ten cards left after each discard."""
    return verdict(best_discards(hand), limit)


def _leftover_after(hand: int, arrangement: list[int]) -> dict[int, int]:
    """Discarding a leftover card of ``arrangement``: the eleven cards' deadwood minus its value."""
    left = hand & ~sum(arrangement)
    whole = value_of(left)
    return {c: whole - VALUE[c] for c in cards_of(left)}


def greedy(hand: int, limit: int) -> Verdict:
    """One best arrangement of the eleven cards, its highest leftover card dropped (0 if none is left)."""
    # The most favourable of the tied arrangements: a hand it misses is missed whichever one is found first.
    least = min(min(after.values()) if after else 0
                for after in (_leftover_after(hand, a) for a in optimal_arrangements(hand)))
    return least <= limit, frozenset(), least == 0, least


def split(hand: int, limit: int) -> Verdict:
    """One best arrangement of the eleven cards; only its leftover cards may be discarded to knock."""
    after = _leftover_after(hand, optimal_arrangements(hand)[0]) or {c: 0 for c in cards_of(hand)}
    return verdict(after, limit)


def keeps_split(hand: int, limit: int) -> Verdict:
    """One best arrangement kept: a melded card discarded breaks its meld unless the rest still melds."""
    first = optimal_arrangements(hand)[0]
    whole = min_deadwood(hand)
    after = {}
    for card in cards_of(hand):
        meld = next((m for m in first if m >> card & 1), 0)
        rest = meld & ~(1 << card)
        after[card] = whole - VALUE[card] if not meld else whole if is_meld(rest) else whole + value_of(rest)
    return verdict(after, limit)


def eleven(hand: int, limit: int) -> Verdict:
    """Deadwood counted on the eleven cards, before the discard is chosen."""
    least = min_deadwood(hand)
    return least <= limit, frozenset(), least == 0, least


def solver(melds: tuple[int, ...]) -> Callable[[int], int]:
    """An exact least-deadwood search over another meld list (lowest card: deadwood or in a meld)."""
    by_lowest: list[list[int]] = [[] for _ in range(52)]
    for meld in melds:
        by_lowest[(meld & -meld).bit_length() - 1].append(meld)
    memo: dict[int, int] = {0: 0}

    def solve(hand: int) -> int:
        if hand in memo:
            return memo[hand]
        low = hand & -hand
        card = low.bit_length() - 1
        best = VALUE[card] + solve(hand ^ low)
        for meld in by_lowest[card]:
            if meld & hand == meld:
                best = min(best, solve(hand ^ meld))
        memo[hand] = best
        return best

    return solve


def _run(suit: int, ranks: list[int]) -> int:
    return sum(1 << make_card(r, suit) for r in ranks)


WRAPS = tuple(_run(s, [(low + i - 1) % 13 + 1 for i in range(n)]) for s in range(4)
              for n in range(3, 14) for low in range(13 - n + 2, 14))  # runs through K-A
ACE_HIGH = tuple(_run(s, list(range(low, 14)) + [1]) for s in range(4) for low in range(2, 13))


def other_melds(name: str, melds: tuple[int, ...]) -> Callable[[int, int], Verdict]:
    """A shortcut that only changes which runs count."""
    solve = solver(ALL_MELDS + melds)

    def shortcut(hand: int, limit: int) -> Verdict:
        return verdict({c: solve(hand & ~(1 << c)) for c in cards_of(hand)}, limit)

    shortcut.__name__ = name
    return shortcut


def openspiel() -> Callable[[int, int], Verdict] | None:
    """pyspiel's ``min_deadwood`` on eleven cards (its knock check), or None without open-spiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)

    def shortcut(hand: int, limit: int) -> Verdict:
        cards = utils.card_strings_to_card_ints([_openspiel_name(c) for c in cards_of(hand)])
        least = utils.min_deadwood(cards)
        return least <= limit, frozenset(), least == 0, least

    return shortcut


def _openspiel_name(card: int) -> str:
    """OpenSpiel writes a card rank first with a lower-case suit: ``Th``."""
    name = card_name(card)
    return name[0] + name[1].lower()


def random_hand(rng: random.Random, dense: bool) -> int:
    """Eleven cards, uniformly or from a band of four adjacent ranks."""
    if not dense:
        return sum(1 << c for c in rng.sample(range(52), 11))
    low = rng.randrange(1, 11)
    band = [make_card(r, s) for r in range(low, low + 4) for s in range(4)]
    return sum(1 << c for c in rng.sample(band, 11))


def differs(mine: Verdict, right: Verdict) -> list[str]:
    """Which parts of what a player sees change; an empty part of the shortcut is not compared."""
    names = ["knock legal", "knock discards", "gin", "least after discard"]
    return [n for n, a, b, keep in zip(names, mine, right, (True, bool(mine[1]), True, True)) if keep and a != b]


def size(hand: int) -> tuple[int, int]:
    """Smaller is simpler to check by hand: fewer ranks, then lower cards."""
    return len({c % 13 for c in cards_of(hand)}), sum(VALUE[c] for c in cards_of(hand))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=3)
    parser.add_argument("--limit", type=int, default=10)
    args = parser.parse_args()
    shortcuts: dict[str, Callable[[int, int], Verdict] | None] = {
        "greedy": greedy, "openspiel": openspiel(), "eleven": eleven, "split": split, "keeps-split": keeps_split,
        "wrap": other_melds("wrap", WRAPS), "ace-high": other_melds("ace-high", ACE_HIGH)}
    rng = random.Random(args.seed)
    hands = [random_hand(rng, dense=i % 2 == 1) for i in range(args.hands)]
    started = time.perf_counter()
    truths = [exact(h, args.limit) for h in hands]
    for name, shortcut in shortcuts.items():
        if shortcut is None:
            print(f"{name:12} skipped: open-spiel is not installed (pip install -e '.[bench]')")
            continue
        found = []
        for hand, truth in zip(hands, truths):
            parts = differs(shortcut(hand, args.limit), truth)
            if parts and ("knock legal" in parts or "gin" in parts or "knock discards" in parts):
                found.append((size(hand), hand, parts))
        found.sort(key=lambda f: ("knock legal" not in f[2], "gin" not in f[2], f[0], f[1]))
        print(f"{name:12} {len(found):6} of {len(hands)} hands change a verdict")
        for _, hand, parts in found[:args.show]:
            mine, right = shortcut(hand, args.limit), exact(hand, args.limit)
            cards = " ".join(card_name(c) for c in sorted(cards_of(hand), key=lambda c: (c % 13, c // 13)))
            print(f"    {cards}: {', '.join(parts)}; exact least {right[3]}, shortcut {mine[3]}")
    print(f"{time.perf_counter() - started:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
