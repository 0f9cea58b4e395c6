"""Gin Rummy 1.0.0 (spec/games/gin-rummy-1.0.0.yaml): turns, knocks, lay-offs, scoring, the match.

Cards are ints and hands 52-bit masks; the stock and the discard pile are lists with their top at
the end, so a draw is a pop. Deadwood comes from ``deadwood``, reading and listing actions from
``actions``, loading layouts from ``setup``. A refused action returns its reason code before
touching anything, so a refusal never changes the state. This module knows nothing of fixtures,
YAML or the harness.
"""

from __future__ import annotations

from typing import Any

from reference_engine.cards import DECK_SIZE, card_name, pile_names
from reference_engine.gin_rummy.actions import (
    discard_actions,
    layoff_actions,
    meld_key,
    names,
    parse_action,
)
from reference_engine.gin_rummy.deadwood import (
    best_discards,
    broken_by,
    is_meld,
    kept_deadwood,
    least_after_discard,
    min_deadwood,
    note_wraps,
    value_of,
)
from reference_engine.gin_rummy.demands import deadwood_is, deadwood_not_lower, hand_ended, knock_tests, shows_no_wrap
from reference_engine.gin_rummy.scoring import end_hand, score_knock
from reference_engine.gin_rummy.setup import (
    HAND_SIZE,
    OVER,
    Deal,
    fresh_deal,
    load_layout,
)
from reference_engine.gamefiles.rules import Rules, rules_of
from reference_engine.seeded import SplitMix64
from reference_engine.clauses.trace import note, recording_now

GAME = "gin-rummy"
RULE_VERSION = "1.0.0"  # the game file whose clauses this code implements; versions differing in data alone play too
OPTIONS = ("knock_limit", "gin_bonus", "undercut_bonus", "target", "game_bonus", "box_bonus")
FEATURES = {"clone": True}  # Game.clone()

# Action kinds allowed in each phase.
PHASE_KINDS = {"offer": ("draw", "pass"), "draw": ("draw",), "discard": ("discard", "knock"),
               "layoff": ("layoff", "pass"), "round-over": (), "game-over": ()}


class Game:
    """One Gin Rummy match in progress."""

    def __init__(self, options: dict[str, Any], later: list[Deal], rng: SplitMix64 | None, rules: Rules) -> None:
        self.options = rules.read_options(options)  # the game file's defaults for any left out
        self.drawn_at = rules.number("drawn_at")
        self.later = list(later)
        self.rng = rng
        self.round = 1
        self.dealer = 0
        self.scores = [0, 0]
        self.hands_won = [0, 0]
        self.round_results: list[dict[str, Any]] = []
        self.game_result: dict[str, Any] | None = None
        self._reset_hand()

    def _reset_hand(self) -> None:
        """Clear what belongs to one hand."""
        self.hands = [0, 0]
        self.stock: list[int] = []    # top at the end
        self.discard: list[int] = []  # top at the end
        self.phase = "offer"
        self.to_act: int | None = 1 - self.dealer
        self.taken: int | None = None
        self.upcard_refused = False
        self.knocker: int | None = None
        self.melds: list[int] = []
        self.laid_off = 0  # the cards laid off onto the knocker's melds this hand
        self._discard_cache: tuple[int, dict[int, int]] = (-1, {})

    def clone(self) -> Game:
        """An independent copy (lists copied, the ints are bitmasks), for fuzzers and bots to try actions on."""
        twin = object.__new__(Game)
        twin.__dict__.update(self.__dict__)
        for name in ("later", "scores", "hands_won", "round_results", "hands", "stock", "discard", "melds"):
            setattr(twin, name, list(getattr(self, name)))
        if self.rng is not None:  # the twin deals its own later hands without moving ours
            twin.rng = self.rng.copy()
        return twin  # round_results' dicts and later's deals are shared: never changed once made

    # --- setting up hands -------------------------------------------------------------------

    def deal_fresh(self, hands: list[list[int]], stock_top_first: list[int], discard_top_first: list[int]) -> None:
        """Start the current hand from explicit cards, in the offer phase."""
        self._reset_hand()
        self.hands = [sum(1 << c for c in h) for h in hands]
        self.stock = stock_top_first[::-1]
        self.discard = discard_top_first[::-1]

    def deal_seeded(self) -> None:
        """Deal the current hand from the match's SplitMix64 (spec/seeded-deal.md)."""
        deck = list(range(DECK_SIZE))
        assert self.rng is not None
        self.rng.shuffle(deck)
        self.deal_deck(deck)

    def deal_deck(self, deck: list[int]) -> None:
        """Deal ``deck`` (top first): ten each, one at a time from the non-dealer; upcard; stock."""
        non_dealer = 1 - self.dealer
        hands = [[], []]  # type: list[list[int]]
        for i in range(2 * HAND_SIZE):
            hands[non_dealer if i % 2 == 0 else self.dealer].append(deck[i])
        self.deal_fresh(hands, deck[2 * HAND_SIZE + 1:], [deck[2 * HAND_SIZE]])

    # --- the interface ----------------------------------------------------------------------

    def legal_actions(self) -> list[dict[str, Any]]:
        """Every legal action of the seat to act, canonical, in a fixed order."""
        phase = self.phase
        if phase == "offer":
            note("gin-rummy.upcard-offer", "legal.draw", "legal.pass")
            return [{"draw": "discard"}, {"pass": True}]
        if phase == "draw":
            if self.upcard_refused:
                note("gin-rummy.forced-stock-draw", "legal.draw")
                return [{"draw": "stock"}]
            note("gin-rummy.draw", "legal.draw")
            return [{"draw": "discard"}, {"draw": "stock"}]
        if phase == "discard":
            note("gin-rummy.discard", "legal.discard")
            return self._discard_actions()
        if phase == "layoff":
            note("gin-rummy.layoff", "legal.layoff", "legal.pass")
            if self.knocker is not None and self.hands[1 - self.knocker].bit_count() < HAND_SIZE:
                # a lay-off has extended a meld: whether the list offers more onto it is this reading
                note("gin-rummy.layoff-on-extended-run", "legal.layoff")
            return self._layoff_actions()
        return []

    def apply(self, seat: int, action: dict[str, Any]) -> str | None:
        """Play ``action`` for ``seat``: None when accepted, else the reason code (state unchanged)."""
        return self.apply_parsed(seat, parse_action(action))

    parse = staticmethod(parse_action)  # what ``apply_parsed`` takes: an action read once, played any number of times

    def apply_parsed(self, seat: int, parsed: tuple[str, Any] | None) -> str | None:
        """``apply`` of an action as ``parse`` reads it (None: malformed): the same answer and the same change."""
        if parsed is None:
            return "malformed-action"
        kind, payload = parsed
        if self.phase in OVER:
            return "game-over"
        if seat != self.to_act:
            return "not-your-turn"
        if kind not in PHASE_KINDS[self.phase]:
            return "wrong-phase"
        if kind == "draw":
            return self._draw(seat, payload)
        if kind == "pass":
            return self._pass(seat)
        if kind == "discard":
            return self._discard(seat, payload)
        if kind == "knock":
            return self._knock(seat, *payload)
        return self._layoff(seat, *payload)

    def outcome(self) -> dict[str, Any]:
        """What a round's end decides, of the state view: the scores, the round results, the game's result."""
        return {
            "scores": list(self.scores),
            "round_results": [dict(r, deadwood=None if r["deadwood"] is None else list(r["deadwood"]))
                              for r in self.round_results],
            "game_result": None if self.game_result is None else {k: (list(v) if isinstance(v, list) else v)
                                                                   for k, v in self.game_result.items()},
        }

    def state(self) -> dict[str, Any]:
        """The full canonical state view."""
        outcome = self.outcome()
        knocker = self.knocker
        deadwood = None
        if knocker is not None:
            deadwood = [0, 0]
            deadwood[knocker] = value_of(self.hands[knocker])
            deadwood[1 - knocker] = min_deadwood(self.hands[1 - knocker])
            if recording_now():  # the view is asked for at every step: its notes cost nothing unrecorded
                note_wraps(self.hands[1 - knocker], "deadwood",
                           holds=deadwood_not_lower(deadwood[1 - knocker], 1 - knocker, False))
                note("gin-rummy.layoff-any-card", "deadwood",
                     holds=deadwood_is(deadwood[1 - knocker], 1 - knocker, False))
        return {
            "phase": self.phase,
            "to_act": self.to_act,
            "round": self.round,
            "dealer": self.dealer,
            "scores": outcome["scores"],
            "hands_won": list(self.hands_won),
            "hands": [names(h) for h in self.hands],
            "hand_sizes": [h.bit_count() for h in self.hands],
            "stock": pile_names(reversed(self.stock)),
            "stock_size": len(self.stock),
            "discard": pile_names(reversed(self.discard)),
            "taken": None if self.taken is None else card_name(self.taken),
            "upcard_refused": self.upcard_refused,
            "knocker": knocker,
            "gin": knocker is not None and not self.hands[knocker],
            "melds": [names(m) for m in self.melds],
            "deadwood": deadwood,
            "round_results": outcome["round_results"],
            "game_result": outcome["game_result"],
        }

    def observation(self, seat: int) -> dict[str, Any]:
        """The state view as ``seat`` sees it: the stock always hidden, the other hand until a knock."""
        view = self.state()
        view["stock"] = None
        note("gin-rummy.showdown-public", "hands")
        if self.knocker is None:  # from the knock on both hands are shown (gin-rummy.showdown-public)
            view["hands"] = [h if i == seat else None for i, h in enumerate(view["hands"])]
        return view

    # --- actions ----------------------------------------------------------------------------

    def _draw(self, seat: int, source: str) -> str | None:
        """Draw from the stock or the discard pile (in the offer: take the upcard)."""
        if self.phase == "offer" and source == "stock":
            note("gin-rummy.upcard-offer", "refused")
            return "offer-pending"
        if source == "discard":
            if self.upcard_refused:
                note("gin-rummy.forced-stock-draw", "refused")
                return "must-draw-stock"
            card = self.discard.pop()
            self.taken = card
        else:
            card = self.stock.pop()
            self.upcard_refused = False
        self.hands[seat] |= 1 << card
        self.phase = "discard"
        return None

    def _pass(self, seat: int) -> str | None:
        """Pass the upcard, or finish laying off."""
        if self.phase == "layoff":
            score_knock(self)
            return None
        note("gin-rummy.upcard-offer", "phase", "to_act", "upcard_refused")
        if seat == self.dealer:  # both passed: the non-dealer must draw from the stock
            self.phase, self.to_act, self.upcard_refused = "draw", 1 - seat, True
        else:
            self.to_act = self.dealer
        return None

    def _check_discard(self, seat: int, card: int) -> str | None:
        """The reason a discard of ``card`` is refused, if any."""
        if not self.hands[seat] >> card & 1:
            return "card-not-in-hand"
        if card == self.taken:
            note("gin-rummy.discard", "refused")
            return "discard-just-taken"
        return None

    def _discard(self, seat: int, card: int) -> str | None:
        """Discard without knocking; the hand is drawn if the stock is down to two cards."""
        reason = self._check_discard(seat, card)
        if reason:
            return reason
        self._put_down(seat, card)
        if len(self.stock) <= self.drawn_at:
            note("gin-rummy.drawn-hand-timing", "round_results.how", "round_results.round")
            note("gin-rummy.drawn-hand-scores-nothing", "round_results.points", "scores")
            self.round_results.append({"round": self.round, "how": "draw", "knocker": None, "winner": None,
                                       "points": 0, "deadwood": None})
            end_hand(self)
        else:  # the hand goes on: it ends only with a knock or at two stock cards (G-5.1); the turn passes
            note("gin-rummy.hand-end", "round_results.how")
            self.phase, self.to_act = "draw", 1 - seat
        return None

    def _knock(self, seat: int, card: int, melds: tuple[int, ...]) -> str | None:
        """Discard ``card`` and knock showing ``melds`` (gin at deadwood 0)."""
        reason = self._check_discard(seat, card)
        if reason:
            return reason
        hand = self.hands[seat]
        shown = 0
        for meld in melds:
            shown |= meld
        if shown & ~hand:
            return "card-not-in-hand"
        if shown >> card & 1:
            return "not-an-arrangement"
        if not all(is_meld(m) for m in melds):
            for meld in melds:  # a Q-K-A or K-A-2 shown is refused by the Ace's place, anything else by G-1.2
                note_wraps(meld, "refused")
            note("gin-rummy.melds", "refused")
            return "invalid-meld"
        left = hand & ~(1 << card)
        least = min_deadwood(left)
        note_wraps(left, "legal", holds=shows_no_wrap)
        anew = recording_now() and broken_by(hand, card)  # the ten cards left are arranged anew (G-3.1)
        if anew and kept_deadwood(hand, card) > self.options["knock_limit"] >= least:  # only so within the limit
            note("gin-rummy.knock-arrangement", "legal")
        if least > self.options["knock_limit"]:
            note("gin-rummy.knock", "refused")
            return "knock-too-high"
        note("gin-rummy.knock", "legal")
        if anew:
            note("gin-rummy.knock-arrangement", "legal")
        if value_of(left & ~shown) > least:
            note("gin-rummy.knock-arrangement", "refused")
            return "not-optimal-arrangement"
        note("gin-rummy.knock-arrangement", "legal")
        self._put_down(seat, card)
        self.hands[seat] = left & ~shown
        self.melds = sorted(melds, key=meld_key)
        self.knocker = seat
        self.phase, self.to_act = "layoff", 1 - seat
        if not self.hands[seat]:  # gin ends the hand at once: nothing may be laid off (G-3.3, G-5.1)
            note("gin-rummy.gin-is-knock-at-zero", "phase", "to_act", holds=hand_ended)
            note("gin-rummy.no-layoff-on-gin", "phase", "to_act", holds=hand_ended)
            score_knock(self)
        return None

    def _layoff(self, seat: int, cards: int, onto: int) -> str | None:
        """Lay ``cards`` off onto the knocker's meld number ``onto``."""
        if onto >= len(self.melds):
            return "no-such-meld"
        if cards & ~self.hands[seat]:
            return "card-not-in-hand"
        if not is_meld(self.melds[onto] | cards):
            return "invalid-layoff"
        if recording_now():  # the interpretations that admit this lay-off's shape
            if cards.bit_count() > 1 or self.melds[onto] & self.laid_off:
                note("gin-rummy.layoff-on-extended-run", "legal")
            hand = self.hands[seat]
            if min_deadwood(hand & ~cards) != min_deadwood(hand) - value_of(cards):  # cards of its own melds
                note("gin-rummy.layoff-any-card", "legal")
        self.melds[onto] |= cards
        self.laid_off |= cards
        self.hands[seat] &= ~cards
        return None

    def _put_down(self, seat: int, card: int) -> None:
        """Move ``card`` from the seat's hand to the top of the discard pile."""
        self.hands[seat] &= ~(1 << card)
        self.discard.append(card)
        self.taken = None

    # --- legal action lists -----------------------------------------------------------------

    def _knock_discards(self, hand: int) -> dict[int, int]:
        """Least deadwood after each discard of an 11-card hand, or {} when none reaches the limit."""
        if self._discard_cache[0] != hand:
            # One search answers "can it knock at all?"; on most turns it cannot, and the
            # per-card solves are skipped.
            can_knock = least_after_discard(hand) <= self.options["knock_limit"]
            self._discard_cache = (hand, best_discards(hand) if can_knock else {})
        return self._discard_cache[1]

    def _discard_actions(self) -> list[dict[str, Any]]:
        """Every discard, then every knock (each discard by each optimal arrangement)."""
        seat = self.to_act
        assert seat is not None
        hand = self.hands[seat]
        if recording_now():  # what the limit and the arrangement demand of another engine's knocks
            limit_kept, arrangement_kept = knock_tests(hand, self.taken, self.options["knock_limit"])
            note("gin-rummy.knock", "legal.knock", holds=limit_kept)
            note("gin-rummy.knock-arrangement", "legal.knock", holds=arrangement_kept)
        return discard_actions(hand, self.taken, self._knock_discards(hand), self.options["knock_limit"])

    def _layoff_actions(self) -> list[dict[str, Any]]:
        """Every lay-off onto every meld (any number of cards at once), then pass."""
        knocker = self.knocker
        assert knocker is not None
        hand = self.hands[1 - knocker]
        return layoff_actions(self.melds, hand)


def start(setup: dict[str, Any]) -> Game:
    """A new match from ``setup``: a complete layout (plus later layouts), or a seed."""
    rules = rules_of(GAME, str(setup.get("rule_version", RULE_VERSION)), RULE_VERSION)
    options = dict(setup.get("options") or {})
    if "seed" in setup:
        rules.check_players(setup.get("players", 2))
        game = Game(options, [], SplitMix64(int(setup["seed"])), rules)
        game.deal_seeded()
        return game
    drawn_at = rules.number("drawn_at")
    game = Game(options, [fresh_deal(layout, drawn_at) for layout in setup.get("later_layouts") or []], None, rules)
    load_layout(game, setup["layout"])
    return game
