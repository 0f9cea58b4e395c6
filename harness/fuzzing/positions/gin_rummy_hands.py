"""Gin hands for the position generator: melds, deadwood near a budget, suit copies, the Q-K-A trap.

Cards are names (``QH``); every choice is a Hypothesis draw over the cards still free, taken in
the deal's order (a free shuffle). Hands are shaped here; what they are worth to the rules is
left to the reference engine, except where a position needs an exact deadwood (``deadwood``).
"""

from __future__ import annotations

from hypothesis import strategies as st

from harness.fuzzing.actions import Draw
from harness.spec.cards import RANKS, SUITS
from reference_engine.cards import parse_card
from reference_engine.gin_rummy.deadwood import min_deadwood, value_of


def card(rank: int, suit: int) -> str:
    """The card of ``rank`` (0 = Ace .. 12 = King) and ``suit`` (0..3 for C, D, H, S)."""
    return RANKS[rank] + SUITS[suit]


def rank_of(name: str) -> int:
    """0 (Ace) .. 12 (King)."""
    return RANKS.index(name[0])


def suit_of(name: str) -> int:
    """0..3 for C, D, H, S."""
    return SUITS.index(name[1])


def value(name: str) -> int:
    """Deadwood value (G-1.4), as the reference counts it."""
    return value_of(1 << parse_card(name))


def deadwood(cards: list[str]) -> int:
    """The least deadwood of ``cards`` (the reference's solver: positions are shaped, not judged, by it)."""
    return min_deadwood(sum(1 << parse_card(c) for c in cards))


def _melds() -> list[tuple[str, ...]]:
    """Runs of 3 to 5 and sets of 3 and 4, cheapest first (a draw shrinks towards low melds)."""
    runs = [tuple(card(r, s) for r in range(low, low + size))
            for s in range(4) for size in (3, 4, 5) for low in range(14 - size)]
    sets = [tuple(card(r, s) for s in range(4) if s != out) for r in range(13) for out in range(4)]
    sets += [tuple(card(r, s) for s in range(4)) for r in range(13)]
    return sorted(runs + sets, key=lambda m: (sum(value(c) for c in m), len(m)))


MELDS = tuple(_melds())
_BIT = {card(r, s): 1 << (13 * s + r) for s in range(4) for r in range(13)}
_SUIT_BITS = [((1 << 13) - 1) << (13 * s) for s in range(4)]
# Per meld: its cards as a mask, its size, whether it is a run (drawn over and over: masks are cheap)
_MELD_FACTS = tuple((sum(_BIT[c] for c in m), len(m), m[0][0] != m[1][0]) for m in MELDS)


def suit_mask(suits: tuple[int, ...]) -> int:
    """The mask of every card of ``suits``."""
    return sum(_SUIT_BITS[s] for s in suits)


class Cards:
    """The cards not yet placed, in the deal's order."""

    def __init__(self, order: list[str]) -> None:
        self.order = list(order)
        self.free = set(order)
        self.mask = sum(_BIT[c] for c in order)

    def take(self, cards: list[str] | tuple[str, ...]) -> list[str]:
        """Place ``cards`` (each must be free)."""
        for c in cards:
            self.free.remove(c)
            self.mask &= ~_BIT[c]
        return list(cards)

    def rest(self) -> list[str]:
        """The free cards in deal order."""
        return [c for c in self.order if c in self.free]

    def next(self, count: int, suits: tuple[int, ...] = (0, 1, 2, 3)) -> list[str]:
        """The next ``count`` free cards of ``suits`` in deal order (fewer if that many are not free)."""
        return self.take([c for c in self.order if c in self.free and suit_of(c) in suits][:count])


def draw_melds(data: Draw, cards: Cards, size: int, suits: tuple[int, ...] = (0, 1, 2, 3),
               runs_only: bool = False, low: bool = False) -> list[list[str]]:
    """Melds of free cards covering ``size`` cards or a little less (when none fits the rest)."""
    melds: list[list[str]] = []
    covered = 0
    while size - covered >= 3:
        room = size - covered
        allowed = cards.mask & suit_mask(suits)
        fits = [(meld, size) for meld, (mask, size, run) in zip(MELDS, _MELD_FACTS)
                if size <= room and mask & allowed == mask and (run or not runs_only)]
        if not fits:
            break
        # a meld that leaves 1 or 2 cards unmelded only when nothing else fits: the deadwood stays as drawn
        fits = [f for f in fits if room - f[1] not in (1, 2)] or fits
        # low: among the cheapest, so that a knock's melds can be dropped within the knock limit
        top = min(len(fits), 12) if low else len(fits)
        melds.append(cards.take(fits[data.draw(st.integers(0, top - 1), label="meld")][0]))
        covered += len(melds[-1])
    return melds


def isolated(name: str, hand: list[str]) -> bool:
    """Whether ``name`` can meld with nothing of ``hand``: no same-suit neighbour, no other card of its rank."""
    rank, suit = rank_of(name), suit_of(name)
    return not any((suit_of(c) == suit and abs(rank_of(c) - rank) <= 1) or (rank_of(c) == rank) for c in hand)


def draw_deadwood(data: Draw, cards: Cards, count: int, budget: int, hand: list[str],
                  suits: tuple[int, ...] = (0, 1, 2, 3), alone: bool = False) -> list[str]:
    """Up to ``count`` free cards worth at most ``budget`` together, the last one making it exact when
    it can (a knock exactly at the limit); ``alone``: each meets nothing of ``hand`` (exact deadwood)."""
    picked: list[str] = []
    for left in range(count, 0, -1):
        room = budget - sum(value(c) for c in picked) - (left - 1)  # a card of value 1 each for the others
        fits = [c for c in cards.order if c in cards.free and suit_of(c) in suits and value(c) <= room
                and (not alone or isolated(c, hand + picked))]
        if not fits:
            break
        exact = [c for c in fits if value(c) == room] if left == 1 else []
        if exact and data.draw(st.booleans(), label="exact-deadwood"):
            choice = exact[0]
        else:
            choice = fits[data.draw(st.integers(0, min(len(fits), 8) - 1), label="deadwood-card")]
        picked.append(cards.take([choice])[0])
    return picked


def extensions(meld: list[str]) -> list[str]:
    """The cards that could be laid off onto ``meld``: a run's neighbours, a set's missing suits."""
    ranks = [rank_of(c) for c in meld]
    if len(set(ranks)) == 1:
        return [card(ranks[0], s) for s in range(4) if card(ranks[0], s) not in meld] if len(meld) == 3 else []
    suit, low, high = suit_of(meld[0]), min(ranks), max(ranks)
    return [card(r, suit) for r in (low - 1, high + 1) if 0 <= r <= 12]


def copy_in(cards: list[str], mapping: dict[int, int]) -> list[str]:
    """``cards`` with their suits renamed by ``mapping``: the same deadwood when no set is involved."""
    return [card(rank_of(c), mapping[suit_of(c)]) for c in cards]


def draw_trap(data: Draw, cards: Cards) -> list[str]:
    """Q-K-A of a suit in a hand that needs it as a run to meld well (G-1.3, the Ace is low only):
    its Jack is wanted by a Jack set and by J-Q-K, its Ace by A-2-3 (and 2-3-4 is there); taking
    Q-K-A as a run would meld everything, the rules leave 20 or more. Empty when the cards are placed."""
    suit = data.draw(st.integers(0, 3), label="trap-suit")
    others = [s for s in range(4) if s != suit]
    left_out = data.draw(st.sampled_from(others), label="trap-jacks")
    trap = [card(r, suit) for r in (10, 11, 12, 0, 1, 2)] + [card(10, s) for s in others if s != left_out]
    if data.draw(st.booleans(), label="trap-four"):
        trap.append(card(3, suit))
    if not all(c in cards.free for c in trap):
        return []
    return cards.take(trap)
