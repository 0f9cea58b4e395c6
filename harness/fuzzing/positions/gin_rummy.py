"""Gin Rummy positions for the fuzzer (see the package docstring): near the knock, at the knock, after it.

Five kinds, each with the dealer either seat: an upcard offer or a draw (either seat, the upcard
maybe refused), with hands near the knock; a discard (11 cards) near the knock, with tied splits
(a set crossing a run), a Q-K-A or K-A-2 corner, an opponent holding the knocker's cards in the
two other suits (equal deadwood, nothing to lay off), a hand mined for a shortcut of the knock
check, or a cheap meld that could be left unshown within the limit; a discard that can go gin, the opponent
holding cards that would lay off onto the gin melds (G-3.3); and a lay-off phase after a knock:
equal deadwood, an opponent in other suits, a Q-K-A trap in the opponent's hand, or lay-off
candidates. Scores are drawn near the target, exactly one predictable hand short of it when the
gain is known (a gin, or a knock nobody can lay off on), with hands won on both sides (box bonus).
The stock is anything from near empty (G-5.1) to full; the discard pile holds the rest (in an
upcard offer, the upcard alone: it comes only at the start of a hand, G-6.1).
"""

from __future__ import annotations

import functools
import itertools
import zlib
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from harness.findings.games import GameFacts
from harness.fuzzing.actions import Draw, pick
from harness.fuzzing.positions.gin_rummy_hands import (
    Cards,
    card,
    copy_in,
    deadwood,
    draw_deadwood,
    draw_melds,
    draw_trap,
    extensions,
    value,
)
from harness.spec.cards import CardOrder
from reference_engine.cards import card_name, parse_card
from reference_engine.gin_rummy.deadwood import (
    least_after_discard,
    optimal_arrangements,
)

ORDER = CardOrder("A23456789TJQK")
ALL_SUITS = (0, 1, 2, 3)
# Suit pairs for a hand kept in two suits (runs only) and the two suits left to the other seat.
PAIRS = ((0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2))
KNOCK_SHAPES = ("plain", "tied", "copy", "corner", "mined", "cheap")


@dataclass
class Plan:
    """What a kind decides; the stock, discard pile, scores and hand count are drawn after it."""

    hands: list[list[str]]
    phase: str
    to_act: int
    min_stock: int
    taken: str | None = None
    upcard_refused: bool = False
    knocker: int | None = None
    melds: list[list[str]] | None = None
    gain: tuple[int, int] | None = None  # (seat, points) when the hand's score is predictable
    top: list[str] = field(default_factory=list)  # cards wanted on top of the discard pile


def draw(data: Draw, facts: GameFacts, deal: dict[str, Any], options: dict[str, Any]) -> dict[str, Any] | None:
    """A position layout from the cards of ``deal`` (their order shuffles what the kinds leave free)."""
    cards = Cards([c for hand in deal["hands"] for c in hand] + list(deal["discard"]) + list(deal["stock"]))
    # Shifted by a wide salt, as actions.pick does: Hypothesis mostly replays earlier games' choices,
    # which left whole seeds without some kinds of position. The salt is mixed with the deal's order
    # too: Hypothesis draws the edges of a range (0, the top) often, which alone gave some kinds
    # ten times their share of a seed's games and others none.
    salt = data.draw(st.integers(0, 2**16), label="kind-salt") + deal_salt(cards)
    kind = pick(data, list(_KINDS), salt, "gin-position")
    dealer = data.draw(st.integers(0, 1), label="dealer")
    plan = _BUILDERS[kind](data, cards, dealer, options)
    return _layout(data, cards, dealer, options, plan)


def deal_salt(cards: Cards) -> int:
    """A number made from the deal's order: a salt that differs between games Hypothesis replays."""
    return zlib.crc32(" ".join(cards.order).encode())


def near_hand(data: Draw, cards: Cards, options: dict[str, Any], size: int = 10, suits: tuple[int, ...] = ALL_SUITS,
              exact: bool = False, limit: int | None = None, over: bool = True, gin: bool = True) -> list[str]:
    """``size`` cards of melds and a little deadwood, about the knock limit (sometimes just over it);
    ``exact``: runs only, each deadwood card alone (the deadwood is exactly their sum, no lay-off onto
    other suits), at most ``limit``; ``over``: sometimes a little over the limit; ``gin``: maybe no deadwood."""
    knock_limit = int(options["knock_limit"]) if limit is None else limit
    top = min(knock_limit + 5 if over and not exact else knock_limit, 40)
    budget = data.draw(st.one_of(st.just(min(knock_limit, top)), st.integers(0, top)), label="budget")
    least = 0 if gin and not exact else 1
    loose = data.draw(st.integers(least, max(least, min(4, budget // 2, size))), label="loose")
    low = data.draw(st.booleans(), label="low-melds")
    melds = draw_melds(data, cards, size - loose, suits, runs_only=exact or len(suits) < 3, low=low)
    hand = [c for m in melds for c in m]
    hand += draw_deadwood(data, cards, size - len(hand), max(budget, size - len(hand)), hand, suits, alone=exact)
    return hand + cards.next(size - len(hand), suits)


def _split(kept: list[str]) -> tuple[list[list[str]], list[str]]:
    """The first optimal arrangement of ``kept``: its melds and its deadwood cards."""
    arrangement = optimal_arrangements(sum(1 << parse_card(c) for c in kept))[0]
    melds = [ORDER.sort(card_name(i) for i in range(52) if m >> i & 1) for m in arrangement]
    shown = {c for m in melds for c in m}
    return melds, [c for c in kept if c not in shown]


def _offer_or_draw(data: Draw, cards: Cards, dealer: int, options: dict[str, Any], phase: str) -> Plan:
    """A fresh hand's first turns or a later draw, the hands near the knock or not."""
    hands = [near_hand(data, cards, options) if data.draw(st.booleans(), label="near-knock") else cards.next(10)
             for _ in range(2)]
    if phase == "offer":
        to_act = data.draw(st.sampled_from([1 - dealer, dealer]), label="offer-seat")  # dealer: the other passed
    else:
        to_act = data.draw(st.integers(0, 1), label="to-act")
    refused = phase == "draw" and to_act != dealer and data.draw(st.booleans(), label="upcard-refused")
    # On top, sometimes a card the seat to act could meld: taking it is a real choice.
    wanted = [c for m in _runs_and_sets(hands[to_act]) for c in extensions(m) if c in cards.free]
    top = wanted[:1] if wanted and data.draw(st.booleans(), label="useful-upcard") else []
    return Plan(hands, phase, to_act, 3, upcard_refused=refused, top=top)


def _runs_and_sets(hand: list[str]) -> list[list[str]]:
    """The melds of an optimal arrangement of ``hand``."""
    return _split(hand)[0]


def _offer(data: Draw, cards: Cards, dealer: int, options: dict[str, Any]) -> Plan:
    return _offer_or_draw(data, cards, dealer, options, "offer")


def _draw(data: Draw, cards: Cards, dealer: int, options: dict[str, Any]) -> Plan:
    return _offer_or_draw(data, cards, dealer, options, "draw")


def _knock(data: Draw, cards: Cards, dealer: int, options: dict[str, Any], shapes: tuple[str, ...] = KNOCK_SHAPES) -> Plan:
    """The seat to act holds 11 cards, ten of them near the knock; the other seat too, or a copy."""
    seat = data.draw(st.integers(0, 1), label="knocker")
    shape = data.draw(st.sampled_from(shapes), label="knock-shape")
    other: list[str] | None = None
    if shape == "mined":  # eleven cards on which a shortcut of the knock check answers otherwise
        kept = _mined(data, cards, int(options["knock_limit"]))
    elif shape == "cheap":
        kept = _cheap(data, cards, options)
    elif shape == "copy":  # the other seat holds the same ranks in the other two suits: equal deadwood
        pair = PAIRS[data.draw(st.integers(0, 5), label="suits")]
        rest = tuple(s for s in ALL_SUITS if s not in pair)
        kept = near_hand(data, cards, options, suits=pair, exact=True, limit=max(1, int(options["knock_limit"])))
        other = cards.take(copy_in(kept, {pair[0]: rest[0], pair[1]: rest[1]}))
    else:
        planted = _tie(data, cards) if shape == "tied" else _corner(data, cards) if shape == "corner" else \
            [c for m in _long_run(data, cards) for c in m]
        kept = planted + near_hand(data, cards, options, size=10 - len(planted))
    if other is None:
        other = near_hand(data, cards, options) if data.draw(st.booleans(), label="other-near") else cards.next(10)
    hands = [other, other]
    hands[seat] = kept + cards.next(11 - len(kept) if shape == "mined" else 1)
    taken = kept[0] if data.draw(st.booleans(), label="taken") else None  # it came from the discard pile
    gain = (1 - seat, int(options["undercut_bonus"])) if shape == "copy" else None
    return Plan(hands, "discard", seat, 2, taken=taken, gain=gain)


def _shortcut(data: Draw, cards: Cards, dealer: int, options: dict[str, Any]) -> Plan:
    """A knock turn on a hand where a shortcut of the knock check answers otherwise (kinds of their own:
    Hypothesis mostly replays a game's earlier choices, so a rare shape of a kind is seldom drawn)."""
    return _knock(data, cards, dealer, options, ("mined",))


def _unshown(data: Draw, cards: Cards, dealer: int, options: dict[str, Any]) -> Plan:
    """A knock turn with a cheap meld that a worse arrangement could leave unshown within the limit."""
    return _knock(data, cards, dealer, options, ("cheap",))


def _tie(data: Draw, cards: Cards) -> list[str]:
    """A run of four and a set of the rank at one of its ends: two optimal splits (empty if placed)."""
    suit, low = data.draw(st.integers(0, 3), label="tie-suit"), data.draw(st.integers(0, 9), label="tie-low")
    end = low + 3 * data.draw(st.integers(0, 1), label="tie-end")
    planted = [card(r, suit) for r in range(low, low + 4)] + [card(end, s) for s in ALL_SUITS if s != suit]
    return cards.take(planted) if all(c in cards.free for c in planted) else []


def _long_run(data: Draw, cards: Cards) -> list[list[str]]:
    """Sometimes a run of 6 to 10, shown whole or split in shorter runs: many optimal arrangements,
    so a knock is often the action chosen (empty if its cards are placed)."""
    if not data.draw(st.booleans(), label="long-run"):
        return []
    size = data.draw(st.integers(6, 10), label="run-size")
    suit, low = data.draw(st.integers(0, 3), label="run-suit"), data.draw(st.integers(0, 13 - size), label="run-low")
    run = [card(r, suit) for r in range(low, low + size)]
    return [cards.take(run)] if all(c in cards.free for c in run) else []


# Eleven-card hands mined by benchmarks/mine_shortcuts.py (rank 0 = Ace .. 12 = King, suit), their
# suits renamed as drawn: the eleven cards say 11, after the discard 7; K-A-2 as a run would leave 6,
# the rules 15. The greedy ones (below) are made for the knock limit drawn.
MINED = (((0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 3), (2, 1), (2, 2), (3, 0), (3, 1)),
         ((0, 0), (0, 1), (1, 0), (1, 2), (2, 2), (5, 3), (6, 0), (6, 1), (6, 2), (6, 3), (12, 0)))


@functools.cache
def greedy_traps() -> dict[int, tuple[tuple[int, int], ...]]:
    """Per knock limit, eleven cards within it after the best discard, over it by the eleven cards' best
    split less its highest leftover, whichever best split is found (gin-rummy.mined.greedy-drop-misses-knock-at-ten):
    a run of four in one suit, a set of the rank above its low card, the next rank four times, two loose cards."""
    # At 0 (a gin the greedy check misses), mined: no hand of the family below goes so low.
    traps: dict[int, tuple[tuple[int, int], ...]] = {
        0: ((0, 0), (1, 0), (3, 0), (0, 1), (1, 1), (2, 1), (3, 1), (1, 2), (0, 3), (1, 3), (3, 3))}
    for low in range(1, 7):
        for first, second in itertools.product(range(13), repeat=2):
            hand = ((low, 3), (low + 1, 0), (low + 1, 1), (low + 1, 3), *((low + 2, s) for s in ALL_SUITS),
                    (low + 3, 3), (first, 0), (second, 1))
            mask = sum(1 << parse_card(card(r, s)) for r, s in hand)
            if mask.bit_count() < 11:
                continue
            least = least_after_discard(mask)
            if least not in traps and all(_less_highest_leftover(mask, a) > least for a in optimal_arrangements(mask)):
                traps[least] = hand
    return traps


def _less_highest_leftover(mask: int, arrangement: list[int]) -> int:
    """The deadwood an arrangement of eleven cards leaves, less its highest leftover card (0 if none)."""
    left = [value(card_name(i)) for i in range(52) if (mask & ~sum(arrangement)) >> i & 1]
    return sum(left) - max(left, default=0)


def _mined(data: Draw, cards: Cards, limit: int) -> list[str]:
    """A hand on which a shortcut of the knock check answers otherwise, its suits renamed (empty if placed)."""
    which = pick(data, list(range(len(MINED) + 5)), deal_salt(cards), "mined-hand")  # a greedy trap 5 times in 7
    traps = greedy_traps()
    hand = MINED[which - 5] if which >= 5 else traps.get(limit, traps[10])
    suits = data.draw(st.permutations(ALL_SUITS), label="mined-suits")
    planted = [card(r, suits[s]) for r, s in hand]
    return cards.take(planted) if all(c in cards.free for c in planted) else []


def _cheap(data: Draw, cards: Cards, options: dict[str, Any]) -> list[str]:
    """Ten cards near the knock with a cheap meld among them (three Aces, A-2-3) that could be left
    unshown within the limit: a worse arrangement an engine must still refuse (empty if placed)."""
    suit = data.draw(st.integers(0, 3), label="cheap-suit")
    planted = [card(0, s) for s in ALL_SUITS if s != suit] if data.draw(st.booleans(), label="aces") else \
        [card(r, suit) for r in range(3)]
    if not all(c in cards.free for c in planted):
        return []
    room = int(options["knock_limit"]) - sum(value(c) for c in planted)
    return cards.take(planted) + near_hand(data, cards, options, size=7, limit=max(0, room), over=False)


def _corner(data: Draw, cards: Cards) -> list[str]:
    """Q-K-A or K-A-2 of one suit: not runs (G-1.3), so deadwood (empty if placed)."""
    suit = data.draw(st.integers(0, 3), label="corner-suit")
    ranks = (11, 12, 0) if data.draw(st.booleans(), label="q-k-a") else (12, 0, 1)
    planted = [card(r, suit) for r in ranks]
    return cards.take(planted) if all(c in cards.free for c in planted) else []


def _gin(data: Draw, cards: Cards, dealer: int, options: dict[str, Any]) -> Plan:
    """Ten cards in melds and one more: discarding it is gin; the other seat holds lay-off candidates."""
    seat = data.draw(st.integers(0, 1), label="knocker")
    # The opponent's deadwood is shown at once: a Q-K-A trap there tells an engine that melds Q-K-A.
    # Placed first, while its cards are free.
    other = draw_trap(data, cards) if data.draw(st.integers(0, 2), label="trap") < 2 else []
    melds = _long_run(data, cards)
    melds += draw_melds(data, cards, 10 - sum(len(m) for m in melds), low=data.draw(st.booleans(), label="low-melds"))
    kept = [c for m in melds for c in m]
    gin = len(kept) == 10
    kept += cards.next(10 - len(kept))
    # An extra card over the knock limit: then every knock listed is the gin, not a knock with it.
    high = [c for c in cards.rest() if value(c) > int(options["knock_limit"])]
    extra = cards.take(high[:1]) if high and data.draw(st.integers(0, 2), label="high-extra") < 2 else cards.next(1)
    candidates = list(dict.fromkeys(c for m in melds for c in extensions(m) if c in cards.free))
    other += cards.take(candidates[:data.draw(st.integers(0, min(4, 10 - len(other))), label="layoff-candidates")])
    other += cards.next(10 - len(other))
    hands = [other, other]
    hands[seat] = kept + extra
    taken = kept[0] if data.draw(st.booleans(), label="taken") else None
    gain = (seat, int(options["gin_bonus"]) + deadwood(other)) if gin else None
    return Plan(hands, "discard", seat, 2, taken=taken, gain=gain)


def _layoff(data: Draw, cards: Cards, dealer: int, options: dict[str, Any]) -> Plan:
    """After a knock that is not gin: the knocker's melds shown, the opponent to lay off or pass."""
    seat = data.draw(st.integers(0, 1), label="knocker")
    shape = data.draw(st.sampled_from(["copy", "trap", "copy", "apart", "layoffs"]), label="layoff-shape")
    limit = int(options["knock_limit"])
    if shape in ("copy", "apart"):  # runs in two suits, the opponent in the other two: nothing to lay off
        pair = PAIRS[data.draw(st.integers(0, 5), label="suits")]
        rest = tuple(s for s in ALL_SUITS if s not in pair)
        kept = near_hand(data, cards, options, suits=pair, exact=True, limit=max(1, limit))
        other = cards.take(copy_in(kept, {pair[0]: rest[0], pair[1]: rest[1]})) if shape == "copy" \
            else cards.next(10, rest)
    elif shape == "trap":
        other = draw_trap(data, cards)
        other += cards.next(10 - len(other))
        kept = near_hand(data, cards, options, over=False, gin=False)
    else:
        other = draw_trap(data, cards) if data.draw(st.booleans(), label="trap") else []
        kept = near_hand(data, cards, options, over=False, gin=False)
        candidates = list(dict.fromkeys(c for m in _runs_and_sets(kept) for c in extensions(m) if c in cards.free))
        other += cards.take(candidates[:data.draw(st.integers(1, min(4, 10 - len(other))), label="layoff-candidates")])
        other += cards.next(10 - len(other))
    melds, loose = _split(kept)
    mine = sum(value(c) for c in loose)
    hands = [other, other]
    if not 0 < mine <= limit:  # gin or too high to have knocked: the turn before the knock instead
        hands[seat] = kept + cards.next(1)
        return Plan(hands, "discard", seat, 2)
    hands[seat] = loose
    gain = None
    if shape in ("copy", "apart"):
        theirs = deadwood(other)
        gain = (seat, theirs - mine) if theirs > mine else (1 - seat, mine - theirs + int(options["undercut_bonus"]))
    return Plan(hands, "layoff", 1 - seat, 2, knocker=seat, melds=melds, gain=gain)


_KINDS = ("layoff", "gin", "knock", "layoff", "gin", "offer", "layoff", "gin", "draw", "layoff", "gin", "layoff",
          "shortcut", "unshown", "shortcut")
_BUILDERS = {"offer": _offer, "draw": _draw, "knock": _knock, "gin": _gin, "layoff": _layoff, "shortcut": _shortcut,
             "unshown": _unshown}


def _layout(data: Draw, cards: Cards, dealer: int, options: dict[str, Any], plan: Plan) -> dict[str, Any]:
    """The complete position layout: the plan, the stock and discard pile from the cards left, the match."""
    top = [c for c in plan.top if c in cards.free]
    cards.take(top)
    rest = cards.rest()
    most = len(rest) + len(top) - 1  # the discard pile keeps at least one card
    size = data.draw(st.one_of(st.integers(plan.min_stock, plan.min_stock + 3),
                               st.integers(plan.min_stock, most)), label="stock-size")
    size = min(size, len(rest))
    if plan.phase == "offer":  # the offer comes only at the start of a hand (G-6.1): the upcard alone is face up
        size = most
    scores, won, round_ = _match(data, options, plan.gain)
    return {"dealer": dealer, "hands": [ORDER.sort(h) for h in plan.hands], "stock": rest[:size],
            "discard": top + rest[size:], "phase": plan.phase, "to_act": plan.to_act, "scores": scores,
            "hands_won": won, "round": round_, "taken": plan.taken, "upcard_refused": plan.upcard_refused,
            "knocker": plan.knocker, "melds": plan.melds}


def _match(data: Draw, options: dict[str, Any], gain: tuple[int, int] | None) -> tuple[list[int], list[int], int]:
    """Scores below the target (one predictable hand short of it, exactly or by one, when ``gain`` is
    known), hands won by each seat (a seat that scored won one at least), and the hand number."""
    target = int(options["target"])
    mode = data.draw(st.sampled_from(["exact", "near", "exact", "short", "zero", "exact"]), label="scores")
    scores = [0, 0]
    if mode != "zero":
        scores = [max(0, target - data.draw(st.integers(1, 30), label="short-by")) for _ in range(2)]
        if gain is not None and mode in ("exact", "short"):
            seat, points = gain
            scores[seat] = max(0, target - points - (mode == "short"))
    scores = [min(s, target - 1) for s in scores]
    won = [max(data.draw(st.integers(0, 3), label="hands-won"), int(s > 0)) for s in scores]
    return scores, won, 1 + sum(won) + data.draw(st.integers(0, 2), label="drawn-hands")
