"""Rummy, CardVerse variant 1.1.0: turns, going out, the empty stock, scoring over rounds.

The rules of a round live here; what a meld is lives in ``melds``, reading setups and
layouts in ``setup``. Hands are 52-bit masks, the stock and discard pile lists with the top
card last, so a step touches a few ints and never copies the state.
"""

from __future__ import annotations

from typing import Any

from reference_engine.cards import (
    CardError,
    CardNames,
    card_name,
    parse_card,
    pile_names,
)
from reference_engine.rummy.melds import (
    ACE_WRAP,
    CARD_ORDER,
    canonical,
    canonical_key,
    hand_value,
    layoffs_onto,
    meld_fault,
    melds_in,
    note_layoff,
)
from reference_engine.gamefiles.rules import Rules, rules_of
from reference_engine.rummy.setup import (
    Round,
    deal_round,
    read_later_layout,
    read_layout,
)
from reference_engine.seeded import SplitMix64
from reference_engine.clauses.trace import note, recording_now

GAME = "rummy"
RULE_VERSION = "1.1.0"  # the game file whose clauses this code implements; versions differing in data alone play too
OPTIONS = ("discard_to_win", "ace_high", "target")
FEATURES = {"clone": True}  # RummyGame.clone()

DRAW, PLAY, ROUND_OVER, GAME_OVER = "draw", "play", "round-over", "game-over"

Action = dict[str, Any]

# The clause that ends a round, by how it ended.
ROUND_ENDS = {"meld": "rummy.go-out-by-meld", "layoff": "rummy.go-out-by-meld", "discard": "rummy.round-ends-empty-hand",
              "empty-stock": "rummy.empty-stock-ends-hand"}


def _card(text: Any) -> int | None:
    """The card named by ``text``, or None if it is not a card."""
    try:
        return parse_card(text)
    except CardError:
        return None


def _card_mask(texts: Any) -> int | None:
    """The mask of a non-empty list of distinct card names, or None if malformed."""
    if not isinstance(texts, list) or not texts:
        return None
    mask = 0
    for text in texts:
        card = _card(text)
        if card is None or mask >> card & 1:
            return None
        mask |= 1 << card
    return mask


def parse_action(action: Any) -> tuple[str, int, int] | None:
    """(kind, card mask or draw source, onto) for a well-formed action, else None."""
    if not isinstance(action, dict):
        return None
    keys = set(action)
    if keys == {"draw"}:
        source = action["draw"]
        return ("draw", 1 if source == "discard" else 0, 0) if source in ("stock", "discard") else None
    if keys == {"discard"}:
        card = _card(action["discard"])
        return None if card is None else ("discard", 1 << card, 0)
    if keys == {"meld"}:
        mask = _card_mask(action["meld"])
        return None if mask is None else ("meld", mask, 0)
    if keys == {"layoff", "onto"}:
        mask, onto = _card_mask(action["layoff"]), action["onto"]
        if mask is None or type(onto) is not int or onto < 0:
            return None
        return ("layoff", mask, onto)
    return None


_names = CardNames(CARD_ORDER)  # a mask as canonical card names


class RummyGame:
    """One Rummy game: a round in progress, plus scores and results of the rounds before."""

    def __init__(self, options: dict[str, Any], first_round: Round, later: list[dict[str, Any]],
                 rng: SplitMix64 | None, rules: Rules) -> None:
        self.rules = rules
        self.discard_to_win = bool(options["discard_to_win"])
        self.ace_high = bool(options["ace_high"])
        self.target = int(options["target"])
        self.players = len(first_round.hands)
        self.later = later
        self.rng = rng
        self.scores = list(first_round.scores)
        self.round_results: list[dict[str, Any]] = []
        self.game_result: dict[str, Any] | None = None
        self._begin(first_round)

    def _begin(self, deal: Round) -> None:
        """Set the table for a round (a fresh deal or a mid-game position)."""
        self.round = deal.round
        self.first = deal.first
        self.hands = list(deal.hands)
        self.stock = list(deal.stock)
        self.discard = list(deal.discard)
        self.meld_owners = [owner for owner, _ in deal.melds]
        self.meld_cards = [cards for _, cards in deal.melds]
        self.phase = deal.phase
        self.to_act: int | None = deal.to_act
        self.taken = deal.taken  # the card taken from the discard pile this turn, or None

    def clone(self) -> RummyGame:
        """An independent copy, cheap enough for bots and fuzzers to try actions on."""
        twin = object.__new__(RummyGame)
        twin.__dict__.update(self.__dict__)
        for name in ("later", "scores", "round_results", "hands", "stock", "discard", "meld_owners", "meld_cards"):
            setattr(twin, name, list(getattr(self, name)))
        if self.rng is not None:  # the twin must deal its own later rounds without moving ours
            twin.rng = self.rng.copy()
        return twin  # round_results' dicts are shared: they are never changed once written

    # --- the interface -------------------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> str | None:
        """Play ``action`` for ``seat``: None if accepted, else the reason it is refused."""
        return self.apply_parsed(seat, parse_action(action))

    parse = staticmethod(parse_action)  # what ``apply_parsed`` takes: an action read once, played any number of times

    def apply_parsed(self, seat: int, parsed: tuple[str, int, int] | None) -> str | None:
        """``apply`` of an action as ``parse`` reads it (None: malformed): the same answer and the same change."""
        if parsed is None:
            return "malformed-action"
        if self.to_act is None:
            return "game-over"
        if type(seat) is not int or seat != self.to_act:
            return "not-your-turn"
        kind, cards, onto = parsed
        if kind == "draw":
            return self._draw(cards)
        if self.phase != PLAY:
            return "wrong-phase"
        if kind == "discard":
            return self._discard(seat, cards)
        return self._lay_down(seat, kind, cards, onto)

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take, canonical, in the order the game file states."""
        if self.to_act is None:
            return []
        if self.phase == DRAW:
            note("rummy.draw-first", "legal.draw")
            draws: list[Action] = [{"draw": "stock"}]
            if self.discard:
                draws.append({"draw": "discard"})
            return draws
        hand = self.hands[self.to_act]
        actions: list[Action] = []
        note("rummy.meld-and-layoff-after-draw", "legal.meld", "legal.layoff")
        melds = [m for m in melds_in(hand) if self._leaves_playable(hand & ~m) is None]
        melds.sort(key=canonical_key)
        actions.extend({"meld": _names(m)} for m in melds)
        for onto, meld in enumerate(self.meld_cards):
            additions = [a for a in layoffs_onto(meld, hand) if self._leaves_playable(hand & ~a) is None]
            additions.sort(key=canonical_key)
            actions.extend({"layoff": _names(a), "onto": onto} for a in additions)
        note("rummy.discard-ends-turn", "legal.discard")
        taken = -1 if self.taken is None else self.taken
        actions.extend({"discard": card_name(c)} for c in canonical(hand) if c != taken)
        return actions

    def outcome(self) -> dict[str, Any]:
        """What a round's end decides, of the state view: the scores, the round results, the game's result."""
        return {
            "scores": list(self.scores),
            "round_results": [dict(r, hand_values=list(r["hand_values"])) for r in self.round_results],
            "game_result": None if self.game_result is None else dict(
                self.game_result, scores=list(self.game_result["scores"])),
        }

    def state(self) -> dict[str, Any]:
        """The full canonical state view."""
        outcome = self.outcome()
        return {
            "phase": self.phase,
            "to_act": self.to_act,
            "round": self.round,
            "first": self.first,
            "scores": outcome["scores"],
            "hands": [_names(hand) for hand in self.hands],
            "hand_sizes": [hand.bit_count() for hand in self.hands],
            "stock": pile_names(reversed(self.stock)),
            "stock_size": len(self.stock),
            "discard": pile_names(reversed(self.discard)),
            "melds": [{"owner": o, "cards": _names(m)} for o, m in zip(self.meld_owners, self.meld_cards)],
            "taken_discard": None if self.taken is None else card_name(self.taken),
            "round_results": outcome["round_results"],
            "game_result": outcome["game_result"],
        }

    def observation(self, seat: int) -> dict[str, Any]:
        """The state view as ``seat`` sees it: other hands and the stock hidden."""
        view = self.state()
        view["hands"] = [hand if i == seat else None for i, hand in enumerate(view["hands"])]
        view["stock"] = None
        return view

    # --- the rules -------------------------------------------------------------------------------

    def _leaves_playable(self, rest: int) -> str | None:
        """Why a meld or lay-off leaving ``rest`` in hand is refused, or None if it is fine."""
        if not rest:
            if self.discard_to_win:  # the text's rule, then how the refusal is answered
                note("rummy.discard-to-win", "refused")
                note("rummy.discard-to-win-refuses", "refused")
            return "must-discard-to-win" if self.discard_to_win else None
        if self.taken is not None and rest == 1 << self.taken:
            note("rummy.no-stranding-taken-card", "refused")
            return "taken-card-stranded"  # that card could never be discarded this turn
        return None

    def _draw(self, from_discard: int) -> str | None:
        """Draw from the stock (0) or the discard pile (1); an empty stock ends the hand."""
        if self.phase != DRAW:
            return "wrong-phase"
        seat = self.to_act
        assert seat is not None
        if from_discard:
            if not self.discard:
                return "empty-discard"
            self.taken = self.discard.pop()
            self.hands[seat] |= 1 << self.taken
        elif not self.stock:
            self._end_round(self._lowest_hand(seat), "empty-stock")
            return None
        else:
            self.hands[seat] |= 1 << self.stock.pop()
        self.phase = PLAY
        return None

    def _lay_down(self, seat: int, kind: str, cards: int, onto: int) -> str | None:
        """A new meld, or cards added to meld ``onto``; the last card laid down goes out (R-2.3)."""
        hand = self.hands[seat]
        if cards & ~hand:
            return "card-not-in-hand"
        if kind == "meld":
            fault = meld_fault(cards)
            if fault:
                return "ace-wrap" if fault == ACE_WRAP else "invalid-meld"
        else:
            if onto >= len(self.meld_cards):
                return "no-such-meld"
            if recording_now():
                note_layoff(self.meld_cards[onto], cards, self.taken)
            fault = meld_fault(self.meld_cards[onto] | cards)
            if fault:
                return "ace-wrap" if fault == ACE_WRAP else "invalid-layoff"
        reason = self._leaves_playable(hand & ~cards)
        if reason:
            return reason
        self.hands[seat] = hand & ~cards
        if self.taken is not None and cards >> self.taken & 1:
            self.taken = None  # laid down: no longer a card that must not be discarded
        if kind == "meld":
            self.meld_owners.append(seat)
            self.meld_cards.append(cards)
        else:
            self.meld_cards[onto] |= cards
        if not self.hands[seat]:
            self._end_round(seat, kind)
        return None

    def _discard(self, seat: int, card_bit: int) -> str | None:
        """Discard one card, ending the turn, or the round if it was the last."""
        if not self.hands[seat] & card_bit:
            return "card-not-in-hand"
        card = card_bit.bit_length() - 1
        if card == self.taken:
            note("rummy.no-discard-of-taken-card", "refused")
            return "discard-just-taken"
        self.hands[seat] &= ~card_bit
        self.discard.append(card)
        self.taken = None
        if not self.hands[seat]:
            self._end_round(seat, "discard")
        else:
            self.to_act = (seat + 1) % self.players
            self.phase = DRAW
        return None

    def _lowest_hand(self, asker: int) -> int:
        """R-5.2: the lowest hand value; ties go to the first in turn order from the asker."""
        order = [(asker + i) % self.players for i in range(self.players)]
        winner = min(order, key=lambda s: hand_value(self.hands[s], self.ace_high))  # min keeps the first
        if recording_now():  # the lowest value wins; on a tie, the first of the tied in that order
            low = hand_value(self.hands[winner], self.ace_high)
            if self.ace_high and min(order, key=lambda s: hand_value(self.hands[s], False)) != winner:
                # the Ace's 11 decides who is lowest: the comparison uses the values scoring uses
                note("rummy.ace-high-in-comparison", "round_results.winner", holds=lowest_wins)
            note("rummy.empty-stock-ends-hand", "round_results.winner", holds=lowest_wins)
            if sum(hand_value(h, self.ace_high) == low for h in self.hands) > 1:
                note("rummy.empty-stock-tie-order", "round_results.winner", holds=lambda answers: first_lowest(answers, order))
                note("rummy.empty-stock-tie", "round_results.winner", holds=lambda answers: first_lowest(answers, order))
        return winner

    def _end_round(self, winner: int, how: str) -> None:
        """Score the round, then end the game, start the next round, or stop."""
        note(ROUND_ENDS[how], "round_results.how", "round_results.round")
        values = [hand_value(hand, self.ace_high) for hand in self.hands]
        note("rummy.hand-value", "round_results.hand_values",
             holds=lambda answers: answers["round_results"][-1]["hand_values"] == values)
        points = sum(values) - values[winner]
        note("rummy.empty-stock-scoring" if how == "empty-stock" else "rummy.winner-scores-opponents",
             "round_results.points", "scores")
        self.scores[winner] += points
        self.round_results.append(
            {"round": self.round, "winner": winner, "how": how, "points": points, "hand_values": values})
        self.taken = None
        if max(self.scores) >= self.target:
            note("rummy.game-end", "phase", "game_result")
            order = [(winner + i) % self.players for i in range(self.players)]
            best = max(order, key=self.scores.__getitem__)  # max keeps the first of equals
            self.game_result = {"winner": best, "scores": list(self.scores)}
            self.phase, self.to_act = GAME_OVER, None
            return
        first = (self.first + 1) % self.players
        note("rummy.first-seat", "first", "to_act")
        if self.later:
            self._begin(read_later_layout(self.later.pop(0), self.players, first, self.round + 1, self.scores,
                                          self.rules))
        elif self.rng is not None:
            self._begin(deal_round(self.rng, self.players, first, self.round + 1, self.scores, self.rules))
        else:
            self.phase, self.to_act = ROUND_OVER, None


def start(setup: dict[str, Any]) -> RummyGame:
    """A new game from a setup (spec/README.md, "The engine interface")."""
    if setup.get("game", GAME) != GAME:
        raise ValueError(f"not a Rummy setup: {setup.get('game')}")
    rules = rules_of(GAME, str(setup.get("rule_version", RULE_VERSION)), RULE_VERSION)
    options = rules.read_options(setup.get("options"))
    if "seed" in setup:
        rng = SplitMix64(int(setup["seed"]))
        players = int(setup["players"])
        return RummyGame(options, deal_round(rng, players, 0, 1, [0] * players, rules), [], rng, rules)
    first_round = read_layout(setup["layout"], rules)
    return RummyGame(options, first_round, list(setup.get("later_layouts") or []), None, rules)


def lowest_wins(answers: dict[str, Any]) -> bool:
    """R-5.2, of another engine's round result: its winner's hand value is the lowest of its values."""
    result = answers["round_results"][-1]
    return result["hand_values"][result["winner"]] == min(result["hand_values"])  # type: ignore[no-any-return]


def first_lowest(answers: dict[str, Any], order: list[int]) -> bool:
    """R-5.2's tie, of another engine's round result: its winner is the first in ``order`` of its lowest values."""
    result = answers["round_results"][-1]
    values = result["hand_values"]
    return result["winner"] == next(s for s in order if values[s] == min(values))  # type: ignore[no-any-return]
