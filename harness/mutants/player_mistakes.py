"""The players' mistakes: computer players that break one position clause of their level, only sometimes.

Each is the reference's player of one game and level, except in the positions its mistake is
about (at a clause's boundary, or with a certain history), where it takes another legal action:
the one a player author who misread the clause would take. ``players`` must find each, charged
to its own clause, and the decision fixtures must kill it. ``--engine
harness.mutants.player_mistakes:NAME`` makes one (the id's dots and dashes as underscores).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from harness.findings.rules import gin_rummy as gin
from harness.findings.rules import president, rummy
from harness.findings.rules.deadwood import card_key, greedy, least, value
from harness.findings.rules.melds import completions, melds_in, near, rank
from reference_engine import ReferenceEngine

Wrong = Callable[[dict[str, Any], dict[str, Any]], "dict[str, Any] | None"]
TOP = {"normal": "2", "reversed": "3"}  # the strongest rank in each President order (P-1.3, P-6.3)


@dataclass(frozen=True)
class PlayerMistake:
    """One computer-player mistake: the clause it breaks, and the other action it takes where it errs."""

    id: str
    game: str
    level: str
    clause: str
    mistake: str
    wrong: Wrong

    @property
    def factory_name(self) -> str:
        """The name of its ``--engine`` factory in this module."""
        return self.id.replace(".", "_").replace("-", "_")


class MistakenEngine(ReferenceEngine):
    """The reference engine whose player of one game and level makes one mistake."""

    def __init__(self, mistake: PlayerMistake) -> None:
        super().__init__()
        self.mistake = mistake

    def describe(self) -> dict[str, Any]:
        """As the reference engine, under the mistake's name."""
        return {**super().describe(), "name": f"player mistake {self.mistake.id}"}

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        """The reference's choice, but the mistaken one where the mistake applies."""
        choice = super().choose(view)
        if view.get("game") != self.mistake.game or view.get("level") != self.mistake.level:
            return choice
        other = self.mistake.wrong(view, choice)
        return choice if other is None or other not in view["legal"] else other


def _hand(view: dict[str, Any]) -> list[str]:
    return list(view["observation"]["hands"][view["seat"]] or [])


def _plays(view: dict[str, Any]) -> list[list[str]]:
    return [list(a["play"]) for a in view["legal"] if "play" in a]


def _discards(view: dict[str, Any]) -> list[str]:
    return [a["discard"] for a in view["legal"] if "discard" in a]


# --- President ----------------------------------------------------------------------------------
def _last_suits(view: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any] | None:
    trick = view["observation"].get("trick")
    if not trick or "play" not in choice:
        return None
    same = [c for c in _hand(view) if rank(c) == rank(choice["play"][0])]
    if len(same) <= len(choice["play"]):
        return None
    return {"play": sorted(same, key=lambda c: "CDHS".index(c[-1]))[-len(choice["play"]):]}


def _passes_top(view: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any] | None:
    top = TOP[view["observation"].get("order", "normal")]
    if view["observation"].get("trick") and "play" in choice and rank(choice["play"][0]) == top:
        return {"pass": True}
    return None


def _leads_single(view: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any] | None:
    if not view["observation"].get("trick") and len(choice.get("play", [])) == 2:
        return {"play": sorted(choice["play"], key=lambda c: "CDHS".index(c[-1]))[:1]}
    return None


def _gives_high_suits(view: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any] | None:
    """Of the rank its gift ends in, it gives the highest suits, not the first in canonical order."""
    if "give" not in choice:
        return None
    given = choice["give"]
    last = rank(max(given, key=lambda c: (president.NORMAL.index(rank(c)), "CDHS".index(c[-1]))))
    same = sorted((c for c in _hand(view) if rank(c) == last), key=lambda c: "CDHS".index(c[-1]))
    kept = [c for c in given if rank(c) != last]
    other = kept + same[len(same) - (len(given) - len(kept)):]
    return {"give": other} if sorted(other) != sorted(given) else None


def _control_with_three(view: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any] | None:
    control = president.control_cards(view)
    others = {rank(c) for c in _hand(view) if c not in control}
    plays = _plays(view)
    if not view["observation"].get("trick") or not choice.get("pass") or len(others) != 3:
        return None
    if any(not set(p) & control for p in plays) or not plays:
        return None
    return {"play": plays[0]}


def _passes_with_two(view: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any] | None:
    """It reads the limit as one other rank: with exactly two it keeps its control card and passes."""
    control = president.control_cards(view)
    others = {rank(c) for c in _hand(view) if c not in control}
    trick = view["observation"].get("trick")
    if trick and "play" in choice and set(choice["play"]) & control and len(others) == 2:
        return {"pass": True}
    return None


def _splits_lower(view: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any] | None:
    if not view["observation"].get("trick") or "play" not in choice:
        return None
    control, held = president.control_cards(view), Counter(rank(c) for c in _hand(view))
    strength = {r: i for i, r in enumerate(president.NORMAL[::-1] if view["observation"].get("order") == "reversed"
                                           else president.NORMAL)}
    mine = strength[rank(choice["play"][0])]
    split = [p for p in _plays(view) if not set(p) & control and len(p) < held[rank(p[0])]
             and strength[rank(p[0])] < mine]
    return {"play": split[0]} if split else None


def _forgets_the_played(view: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any] | None:
    hand = _hand(view)
    ranks = {rank(c) for c in hand}
    top = TOP[view["observation"].get("order", "normal")]
    if view["observation"].get("trick") or len(ranks) != 2 or "play" not in choice:
        return None
    if rank(choice["play"][0]) == top or len(choice["play"]) != Counter(rank(c) for c in hand)[rank(choice["play"][0])]:
        return None  # only a winner it knows from the cards played: it counts the 2s alone as sure
    other = [c for c in hand if rank(c) != rank(choice["play"][0])]
    return {"play": other}


# --- Rummy --------------------------------------------------------------------------------------
def _takes_a_set(view: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any] | None:
    pile = view["observation"].get("discard") or []
    if choice.get("draw") == "stock" and pile and sum(rank(c) == rank(pile[0]) for c in _hand(view)) == 2:
        return {"draw": "discard"}
    return None


def _low_value_meld(view: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any] | None:
    melds = [a["meld"] for a in view["legal"] if "meld" in a]
    if "meld" not in choice:
        return None
    same = [m for m in melds if len(m) == len(choice["meld"])]
    low = min(same, key=lambda m: sum(rummy.value(c, view) for c in m))
    return {"meld": low} if sum(rummy.value(c, view) for c in low) < sum(rummy.value(c, view) for c in choice["meld"]) \
        else None


def _lays_off_near_the_end(view: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any] | None:
    offs = [a for a in view["legal"] if "layoff" in a]
    return offs[0] if offs and len(_hand(view)) <= 3 and "discard" in choice else None


def _lower_face(view: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any] | None:
    if "discard" not in choice or any("meld" in a for a in view["legal"]):
        return None
    tens = [c for c in _discards(view) if rummy.value(c, view) == 10 and rank(c) != rank(choice["discard"])]
    if rummy.value(choice["discard"], view) != 10 or not tens:
        return None
    return {"discard": min(tens, key=lambda c: ("TJQK".index(rank(c)), "CDHS".index(c[-1])))}


def _live_anyway(card: str, view: dict[str, Any]) -> bool:
    """Whether ``card`` makes a partial meld with another card of the hand, whatever is dead."""
    return any(completions(card, other, rummy.RANKS) for other in _hand(view) if other != card)


def _ignores_the_dead(memory: bool) -> Wrong:
    """A player that counts a partial meld as useful even when every card that would complete it is dead."""

    def wrong(view: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any] | None:
        if "discard" not in choice:
            return None
        if memory and any(s <= 3 for i, s in enumerate(view["observation"]["hand_sizes"]) if i != view["seat"]):
            return None
        may = _discards(view)
        useful = [c for c in may if rummy.useful(c, view, memory)]
        dead_pairs = [c for c in may if not rummy.useful(c, view, memory) and _live_anyway(c, view)]
        if choice["discard"] in dead_pairs and useful:
            return {"discard": max(useful, key=lambda c: (rummy.value(c, view), rummy.RANKS.index(rank(c))))}
        return None

    return wrong


def _cuts_points_at_four(view: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any] | None:
    """It reads "may go out" as four cards or fewer: with another seat at four it throws its highest card."""
    others = [n for i, n in enumerate(view["observation"]["hand_sizes"]) if i != view["seat"]]
    may = _discards(view)
    if "discard" not in choice or min(others) != 4 or not may:
        return None
    return {"discard": max(may, key=lambda c: (rummy.value(c, view), rummy.RANKS.index(rank(c)), "CDHS".index(c[-1])))}


def _feeds_the_seat_before(view: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any] | None:
    """It reads the seat before it as the next one: the same seat at two players, another at three or four."""
    seats = len(view["observation"]["hand_sizes"])
    if "discard" not in choice or seats == 2:
        return None
    before = {**view, "seat": (view["seat"] - 2) % seats}
    idle = [c for c in _discards(view) if not rummy.useful(c, view)]
    wrong = [c for c in idle if rummy.feeds(c, view) and not rummy.feeds(c, {**before, "observation": view["observation"]})]
    return {"discard": wrong[0]} if wrong and choice["discard"] in idle else None


# --- Gin Rummy ----------------------------------------------------------------------------------
def _takes_upcard_set(view: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any] | None:
    pile = view["observation"].get("discard") or []
    if view["observation"].get("phase") == "offer" and pile and sum(rank(c) == rank(pile[0]) for c in _hand(view)) == 2:
        return {"draw": "discard"}
    return None


def _runs_first(view: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any] | None:
    """It forms its runs before its sets, so a card of a set it should keep can look like deadwood."""
    card = choice.get("discard")
    if card is None:
        return None
    hand, may = _hand(view), _discards(view)
    runs = [m for m in melds_in(hand, "A23456789TJQK") if len({c[-1] for c in m}) == 1]
    left = set(hand)
    for run in sorted(runs, key=lambda m: (-len(m), -gin.points(m))):
        if run <= left:
            left -= run
    wrong = [c for c in greedy(sorted(left))[1] if c in may]
    other = max(wrong, key=lambda c: (value(c), card_key(c))) if wrong else None
    return {"discard": other} if other and other != card else None


def _lower_suit(view: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any] | None:
    card = choice.get("discard")
    if card is None:
        return None
    deadwood = [c for c in greedy(_hand(view))[1] if c in _discards(view) and rank(c) == rank(card) and c != card]
    return {"discard": min(deadwood, key=card_key)} if deadwood and card_key(deadwood[0]) < card_key(card) else None


def _knock_below_limit(view: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any] | None:
    if "knock" not in choice:
        return None
    left = least(frozenset(_hand(view)) - {choice["knock"]})
    return {"discard": choice["knock"]} if left == view["options"].get("knock_limit", 10) else None


def _higher_meld(view: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any] | None:
    if "layoff" not in choice:
        return None
    same = [a for a in view["legal"] if "layoff" in a and sorted(a["layoff"]) == sorted(choice["layoff"])
            and a["onto"] != choice["onto"]]
    deadwood = set(greedy(_hand(view))[1])
    rival = [a for a in view["legal"] if "layoff" in a and a["onto"] > choice["onto"] and set(a["layoff"]) <= deadwood
             and len(a["layoff"]) == len(choice["layoff"]) and gin.points(a["layoff"]) == gin.points(choice["layoff"])]
    return (same or rival)[-1] if (same or rival) else None


def _forgets_the_offer(view: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any] | None:
    """It reads the opponent's takes from its draw phase only, never the upcard it took in the offer."""
    card = choice.get("discard")
    if card is None or not view["history"] or view["history"][0]["seat"] == view["seat"]:
        return None
    upcard = view["history"][0]["action"].get("card")  # the offer's take, when the opponent took it
    held = gin.held_takes(view)
    if upcard not in held:
        return None
    later = list(held)
    later.remove(upcard)
    hand = frozenset(_hand(view))
    left = {c: least(hand - {c}) for c in _discards(view)}
    best = [c for c in left if left[c] == min(left.values())]
    wrong = [c for c in best if near(c, upcard, "A23456789TJQK") and not any(near(c, t, "A23456789TJQK") for t in later)]
    return {"discard": wrong[0]} if wrong and card != wrong[0] else None


def _nine_above(view: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any] | None:
    """It reads the bound as 9: a discard that leaves exactly 9 above the least deadwood is still open to it."""
    if "discard" not in choice or view["observation"].get("stock_size", 0) <= 20:
        return None  # early in the hand only: played on to the end, it keeps the hands from ending
    hand = frozenset(_hand(view))
    left = {c: least(hand - {c}) for c in _discards(view)}
    nine = [c for c in left if left[c] == min(left.values()) + 9]
    return {"discard": min(nine, key=card_key)} if nine else None


def _plays_on_past_gin(view: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any] | None:
    if "knock" in choice and not gin.least_kept(frozenset(_hand(view))) and view["observation"].get("stock_size", 0) > 20:
        return {"discard": choice["knock"]}
    return None


def _m(id: str, level: str, clause: str, mistake: str, wrong: Wrong) -> PlayerMistake:
    return PlayerMistake(id, id.split(".")[0], level, clause, mistake, wrong)


MISTAKES: tuple[PlayerMistake, ...] = (
    _m("president.easy-follows-with-high-suits", "easy", "president.easy-lowest-follow",
       "following with part of a group, easy plays the last cards of the rank, not the first", _last_suits),
    _m("president.easy-passes-on-its-top-rank", "easy", "president.easy-never-passes",
       "following, easy passes rather than play its strongest rank", _passes_top),
    _m("president.easy-leads-one-of-a-pair", "easy", "president.easy-lowest-lead",
       "leading a lowest rank it holds two of, easy leads a single", _leads_single),
    _m("president.easy-gives-high-suits", "easy", "president.easy-gives-lowest",
       "when its gift ends in a rank it holds more of, easy gives the highest suits of that rank", _gives_high_suits),
    _m("president.normal-control-with-three-ranks", "normal", "president.normal-keeps-control",
       "normal plays a control card to win back the lead with three other ranks in hand (the limit is two)",
       _control_with_three),
    _m("president.normal-passes-with-two-ranks", "normal", "president.normal-keeps-control",
       "normal keeps its control card and passes with two other ranks in hand (it should play it)",
       _passes_with_two),
    _m("president.normal-splits-a-lower-group", "normal", "president.normal-keeps-groups",
       "following, normal splits a lower group rather than play a higher one whole", _splits_lower),
    _m("president.hard-counts-only-twos", "hard", "president.hard-counts-ranks",
       "hard counts only the top rank as a sure winner, never a rank whose higher cards were all played",
       _forgets_the_played),
    _m("rummy.easy-takes-a-set", "easy", "rummy.easy-draws-stock",
       "easy takes the top discard when it makes a set of three with its pair", _takes_a_set),
    _m("rummy.easy-melds-the-lower-value", "easy", "rummy.easy-melds-at-once",
       "between melds of as many cards, easy lays down the lower-value one", _low_value_meld),
    _m("rummy.easy-lays-off-near-the-end", "easy", "rummy.easy-no-layoff",
       "easy lays off once its hand is down to three cards", _lays_off_near_the_end),
    _m("rummy.easy-discards-the-lower-face", "easy", "rummy.easy-discards-strongest",
       "between 10-point cards, easy discards the lowest rank (T before K)", _lower_face),
    _m("rummy.normal-keeps-dead-pairs", "normal", "rummy.normal-useful-combinations",
       "normal keeps a partial meld whose missing cards are all melded or on the pile", _ignores_the_dead(False)),
    _m("rummy.normal-feeds-the-seat-after-next", "normal", "rummy.normal-feeding-risk",
       "normal reads the feeding risk of the seat before it, not the next seat (the same seat at two players)",
       _feeds_the_seat_before),
    _m("rummy.hard-keeps-dead-pairs", "hard", "rummy.hard-memory",
       "hard keeps a partial meld whose missing cards are all dead (melded, on the pile or taken from it)",
       _ignores_the_dead(True)),
    _m("rummy.hard-cuts-points-at-four-cards", "hard", "rummy.hard-memory",
       "hard reads 'another seat may go out' as four cards or fewer and throws its highest card, useful or not",
       _cuts_points_at_four),
    _m("gin-rummy.easy-takes-an-upcard-set", "easy", "gin-rummy.easy-never-takes-discard",
       "easy takes the upcard in the offer when it makes a set of three", _takes_upcard_set),
    _m("gin-rummy.easy-forms-runs-first", "easy", "gin-rummy.easy-keeps-its-melds",
       "easy forms its runs before its sets, then throws a card of the set it should keep", _runs_first),
    _m("gin-rummy.easy-discards-the-lower-suit", "easy", "gin-rummy.easy-discards-highest-deadwood",
       "between deadwood cards of one rank, easy discards the lower suit", _lower_suit),
    _m("gin-rummy.easy-no-knock-at-the-limit", "easy", "gin-rummy.easy-knocks-when-it-can",
       "easy does not knock when its deadwood is exactly the knock limit", _knock_below_limit),
    _m("gin-rummy.easy-lays-off-on-the-higher-meld", "easy", "gin-rummy.easy-lays-off-deadwood",
       "between equal lay-offs easy takes the higher meld index", _higher_meld),
    _m("gin-rummy.normal-no-knock-at-the-limit", "normal", "gin-rummy.normal-best-split",
       "normal does not knock when its deadwood is exactly the knock limit", _knock_below_limit),
    _m("gin-rummy.normal-forgets-the-upcard-taken", "normal", "gin-rummy.normal-useful-to-opponent",
       "normal forgets the upcard the opponent took in the offer", _forgets_the_offer),
    _m("gin-rummy.hard-throws-nine-above", "hard", "gin-rummy.hard-estimates",
       "hard reads its bound as 9 points: it throws a low card that leaves 9 above the least deadwood", _nine_above),
    _m("gin-rummy.hard-plays-on-past-gin", "hard", "gin-rummy.hard-estimates",
       "hard plays on toward a bigger score rather than go gin while more than 20 cards are in the stock",
       _plays_on_past_gin),
)
BY_ID = {m.id: m for m in MISTAKES}
_FACTORIES = {m.factory_name: m.id for m in MISTAKES}


def engine(mistake_id: str) -> MistakenEngine:
    """The reference engine with the player mistake ``mistake_id``."""
    if mistake_id not in BY_ID:
        raise KeyError(f"no player mistake {mistake_id!r}; see harness/mutants/player_mistakes.py")
    return MistakenEngine(BY_ID[mistake_id])


def __getattr__(name: str) -> Any:
    """``--engine harness.mutants.player_mistakes:rummy_easy_takes_a_set`` makes that mistake."""
    if name in _FACTORIES:
        return lambda: engine(_FACTORIES[name])
    raise AttributeError(name)
