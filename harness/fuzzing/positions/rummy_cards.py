"""The cards of a Rummy position being built: what is still free, melds found among them, values.

A ``Pool`` holds the cards not yet placed, in the deal's (shuffled) order, so "the next free
card" is a random card that costs no draw. Runs follow the Rummy card order 2..K, A (R-3.1).
"""

from __future__ import annotations

from reference_engine.cards import mask_of, parse_cards
from reference_engine.rummy.melds import hand_value

RUN_ORDER = "23456789TJQKA"  # the Ace only above the King
SUITS = "CDHS"


def value(cards: list[str], ace_high: bool) -> int:
    """A hand's value (R-4.1), as the reference counts it."""
    return hand_value(mask_of(parse_cards(cards)), ace_high)


# Each card's value, without (False) and with (True) ace_high.
WORTH = {ace_high: {r + s: value([r + s], ace_high) for r in RUN_ORDER for s in SUITS} for ace_high in (False, True)}


class Pool:
    """The cards still free to place, in a fixed shuffled order."""

    def __init__(self, cards: list[str]) -> None:
        self.cards = list(cards)
        self.free = set(cards)

    def take(self, card: str) -> str:
        """Place ``card`` (it must be free)."""
        self.free.remove(card)
        self.cards.remove(card)
        return card

    def take_first(self, count: int) -> list[str]:
        """The next ``count`` free cards."""
        return [self.take(card) for card in self.cards[:count]]

    def take_highest(self, ace_high: bool) -> str:
        """The first free card of the highest value (some card must be free)."""
        return self.take(max(self.cards, key=WORTH[ace_high].__getitem__))  # max keeps the first

    def run_from(self, anchor: str, size: int) -> list[str]:
        """Up to ``size`` free cards of ``anchor``'s suit in a row with it, upwards first, in run order."""
        at = RUN_ORDER.index(anchor[0])
        low = high = at
        while high - low + 1 < size and high + 1 < len(RUN_ORDER) and RUN_ORDER[high + 1] + anchor[1] in self.free:
            high += 1
        while high - low + 1 < size and low > 0 and RUN_ORDER[low - 1] + anchor[1] in self.free:
            low -= 1
        return [RUN_ORDER[i] + anchor[1] for i in range(low, high + 1)]

    def set_of(self, anchor: str, size: int) -> list[str]:
        """Up to ``size`` free cards of ``anchor``'s rank, ``anchor`` first."""
        mates = [anchor[0] + suit for suit in SUITS if anchor[0] + suit in self.free and anchor[0] + suit != anchor]
        return [anchor, *mates][:size]


def meld_up(cards: list[str]) -> tuple[list[list[str]], list[str]]:
    """``cards`` split into valid melds and the cards left out (few): a table that holds the cards
    an empty discard pile beside a near-empty stock cannot. Runs then sets, or sets then runs,
    whichever leaves fewer out once each card left out has tried a meld with others left out
    and cards a meld can spare."""
    best: tuple[list[list[str]], list[str]] | None = None
    for finders in ((_runs, _sets), (_sets, _runs)):
        melds: list[list[str]] = []
        left = list(cards)
        for finder in finders:
            found = finder(left)
            used = {c for meld in found for c in meld}
            melds += found
            left = [c for c in left if c not in used]
        for card in list(left):
            if card in left:
                _rescue(card, melds, left)
        if best is None or len(left) < len(best[1]):
            best = (melds, left)
    assert best is not None
    return best


def _rescue(card: str, melds: list[list[str]], left: list[str]) -> None:
    """Meld ``card`` (left out) with cards left out and cards other melds can spare, if it can be."""
    spare = {c: meld for meld in melds if len(meld) > 3
             for c in (meld if meld[0][0] == meld[1][0] else (meld[0], meld[-1]))}  # any of a set of 4, a run's ends
    free = set(left) | set(spare)
    at = RUN_ORDER.index(card[0])
    options = [[card[0] + s for s in SUITS if card[0] + s in free]]
    options += [[RUN_ORDER[i] + card[1] for i in range(low, low + 3)] for low in range(max(0, at - 2), min(at, 10) + 1)]
    for meld in options:
        if len(meld) >= 3 and all(c in free for c in meld):
            for c in meld:
                if c in spare:
                    spare[c].remove(c)
                else:
                    left.remove(c)
            melds.append(meld)
            return


def _runs(cards: list[str]) -> list[list[str]]:
    """Every maximal block of three or more cards of one suit in a row."""
    held = set(cards)
    runs = []
    for suit in SUITS:
        block: list[str] = []
        for rank in RUN_ORDER + " ":  # the blank closes the last block
            if rank + suit in held:
                block.append(rank + suit)
                continue
            if len(block) >= 3:
                runs.append(block)
            block = []
    return runs


def _sets(cards: list[str]) -> list[list[str]]:
    """Every rank held three or four times."""
    by_rank: dict[str, list[str]] = {}
    for card in cards:
        by_rank.setdefault(card[0], []).append(card)
    return [same for same in by_rank.values() if len(same) >= 3]
