"""President positions for the fuzzer: late in a round, where revolutions and going out happen.

A fresh deal plays 13 or more cards a seat before anyone goes out, and a four of a kind or the
end of a round within fuzz's step limit is rare; the exchange of the next round (only after a
round ends) rarer still. A position here is the end of a round: a few cards a hand, some seats
already out, often a four of a kind in a hand, a revolution already in force, a trick in progress
with passes (its last play sometimes the one that took a seat out), and in a series a round
before the last with the scores of the earlier ones, so that the round ends and the next one's
exchange is played.

A Hypothesis draw costs tens of microseconds, so choices about several seats are packed into one
integer each (hand sizes in mixed radix, passes as a bit mask): few draws, and each still shrinks
towards the simplest position (one card a seat, no passes).
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from hypothesis import strategies as st

from harness.findings.games import GameFacts
from harness.fuzzing.actions import Draw
from harness.spec.cards import normalise

ORDER = "3456789TJQKA2"  # the normal order, low to high (P-1.3)
MAX_HAND = 5  # cards of a seat still in beside its fours of a kind: the round ends within a few tricks
MAX_QUADS = 2
MAX_PLAYS = 3  # plays in the trick in progress (one when they are fours of a kind)
# 52 cards are enough: at most 9 in the trick, 8 in fours of a kind, 5 more a seat.
assert MAX_PLAYS * 3 + 4 * MAX_QUADS + 6 * MAX_HAND <= 52


@cache
def _integers(low: int, high: int) -> st.SearchStrategy[int]:
    """``st.integers``, built once: a new strategy object costs more to draw from the first time."""
    return st.integers(low, high)


@cache
def _orders(players: int) -> st.SearchStrategy[list[int]]:
    """The seats in a drawn order (shrinks to 0, 1, 2 ...)."""
    return st.permutations(range(players))


def draw(data: Draw, facts: GameFacts, deal: dict[str, Any], options: dict[str, Any]) -> dict[str, Any] | None:
    """A late position of a round made from the cards of ``deal`` (every one of the 52 placed)."""
    players = len(deal["hands"])
    pool = _pool(data, deal)
    revolution = bool(options.get("revolution", True))
    # Which seats are out already: the first ``out`` of a drawn finishing order, first out first.
    seats = data.draw(_orders(players), label="finishing-order")
    out = data.draw(_integers(0, players - 2), label="finished")
    finished, still_in = seats[:out], sorted(seats[out:])
    # A revolution in force twice as often as not: fresh deals play the normal order all the time.
    # In a series five times in six: the next round must start in the normal order again (P-6.3),
    # which only a round ending under a revolution shows.
    series = int(options.get("rounds", 1)) > 1
    reversed_ = revolution and data.draw(_integers(0, 5 if series else 2), label="reversed") > 0
    strength = {rank: (12 - i if reversed_ else i) for i, rank in enumerate(ORDER)}

    hands: list[list[str]] = [[] for _ in range(players)]
    quads: dict[str, int] = {}  # rank -> the seat holding all four
    # One in five positions without a four of a kind (they are the deals' lot), shrinking to none.
    # Mostly none in a series under a revolution: a four of a kind played would undo it before the round ends.
    keep_order = series and reversed_ and data.draw(_integers(0, 2), label="keep-order") > 0
    quads_drawn = 0 if keep_order else (data.draw(_integers(0, 2 * MAX_QUADS), label="fours-of-a-kind") + 1) // 2
    for _ in range(quads_drawn):
        which = data.draw(_integers(0, 13 * len(still_in) - 1), label="four-of-a-kind")  # rank and holder
        rank, holder = ORDER[which % 13], still_in[which // 13]
        if rank not in quads:
            quads[rank] = holder
            hands[holder] += _take_rank(pool, rank, 4)
    others = [r for r in ORDER if r not in quads]
    # Mostly a four of a kind to answer: then the holder's only plays are a four of a kind or a pass.
    answer = bool(quads) and data.draw(_integers(0, 2), label="answer-a-four") < 2
    trick = _answer_trick(data, pool, still_in, others, strength, *next(iter(quads.items()))) if answer else \
        _draw_trick(data, pool, finished, still_in, others, strength)
    last = trick[-1]["seat"] if trick else None
    # Someone still in has not passed, else the trick would have been won: the seat answering a
    # four of a kind, or one the bit mask of passes leaves out (it is never all ones).
    answering = quads[next(iter(quads))] if answer and trick else None
    may_pass = [s for s in still_in if s not in (last, answering)] if trick else []
    top = 2 ** len(may_pass) - (1 if answering is not None else 2)
    passes = data.draw(_integers(0, top), label="passes") if top > 0 else 0
    sizes = data.draw(_integers(0, MAX_HAND ** len(still_in) - 1), label="hand-sizes")
    for seat in still_in:
        size, sizes = sizes % MAX_HAND, sizes // MAX_HAND
        hands[seat] += [pool.pop() for _ in range(size if hands[seat] else size + 1)]

    round_, scores = _series(data, options, seats)
    return {
        "first": trick[0]["seat"] if trick else data.draw(_integers(0, players - 1), label="first"),
        "hands": hands,
        "played": pool,
        "trick": trick,
        "passed": [s for i, s in enumerate(may_pass) if passes >> i & 1],
        "finished": finished,
        "order": "reversed" if reversed_ else "normal",
        "to_act": None,  # the engine works it out from the trick, the passes and `first`
        "phase": "play",
        "scores": scores,
        "round": round_,
    }


def _pool(data: Draw, deal: dict[str, Any]) -> list[str]:
    """The deal's 52 cards, dealt from the end: in the deal's order turned round a drawn place
    (a stacked deck keeps its runs of one rank, where pairs and triples are), or shuffled."""
    pool = [normalise(c) for hand in deal["hands"] for c in hand] + [normalise(c) for c in deal.get("played") or []]
    turn = data.draw(_integers(0, 2 * len(pool) - 1), label="turn-or-shuffle")
    if turn < len(pool):
        return pool[turn:] + pool[:turn]
    random.Random(turn).shuffle(pool)
    return pool


def _take_rank(pool: list[str], rank: str, count: int) -> list[str]:
    """``count`` cards of ``rank`` taken out of ``pool`` (it holds them)."""
    taken = [c for c in pool if c[0] == rank][:count]
    for card in taken:
        pool.remove(card)
    return taken


def _draw_trick(data: Draw, pool: list[str], finished: list[int], still_in: list[int], ranks: list[str],
                strength: dict[str, int]) -> list[dict[str, Any]]:
    """A trick in progress (or none): plays of one size rising in the order in force, by seats in
    turn; its last play is sometimes the one that took the last seat out (``finished[-1]``)."""
    size = data.draw(_integers(0, 4), label="trick-size")  # 0: no trick in progress
    if not size:
        return []
    # A four of a kind changes the order: one is the whole trick (the layout's order is the one it left).
    count = 1 if size == 4 else data.draw(_integers(1, MAX_PLAYS), label="plays")
    ranks = sorted(ranks, key=strength.__getitem__)
    chosen = []
    for _ in range(count):
        chosen.append(ranks.pop(data.draw(_integers(0, len(ranks) - 1), label="rank")))
    # The last player: the seat that went out with this play, or a seat still in.
    went_out = bool(finished) and data.draw(_integers(0, 1), label="went-out") == 1
    last = finished[-1] if went_out else still_in[data.draw(_integers(0, len(still_in) - 1), label="last-play")]
    taking_part = sorted({*still_in, last})
    at = taking_part.index(last)
    seats = [taking_part[(at - back) % len(taking_part)] for back in range(count)][::-1]  # in turn up to ``last``
    return [{"seat": seat, "cards": _take_rank(pool, rank, size)}
            for seat, rank in zip(seats, sorted(chosen, key=strength.__getitem__))]


def _answer_trick(data: Draw, pool: list[str], still_in: list[int], ranks: list[str], strength: dict[str, int],
                  rank: str, holder: int) -> list[dict[str, Any]]:
    """A four of a kind weaker than ``holder``'s fours of ``rank``, played by the seat before it:
    the holder is to act, with only a four of a kind or a pass legal (a revolution, or its undoing)."""
    weaker = sorted((r for r in ranks if strength[r] < strength[rank]), key=strength.__getitem__)
    if not weaker:
        return []
    played = weaker[data.draw(_integers(0, len(weaker) - 1), label="answered-rank")]
    before = still_in[still_in.index(holder) - 1]  # seats between them are out: the holder acts next
    return [{"seat": before, "cards": _take_rank(pool, played, 4)}]


def _series(data: Draw, options: dict[str, Any], order: list[int]) -> tuple[int, list[int] | None]:
    """The round, before the last of a series so that the next round's exchange comes, and the
    scores of the rounds before it, as if each had ended in the drawn finishing ``order``."""
    rounds = int(options.get("rounds", 1))
    if rounds == 1:
        return 1, None
    # two times in three the last round but one (shrinking to it): its end, the exchange and the last round
    # all follow within fuzz's step limit; else any earlier round
    earlier = data.draw(_integers(0, 2), label="earlier-round") == 2
    round_ = rounds - 1 - (data.draw(_integers(0, rounds - 2), label="round") if earlier else 0)
    if round_ == 1:
        return 1, None
    scores = [0] * len(order)
    for place, seat in enumerate(order):
        scores[seat] = (round_ - 1) * (len(order) - place)
    return round_, scores
