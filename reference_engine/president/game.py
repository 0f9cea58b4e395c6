"""President, CardVerse variant 1.1.0: the rules of spec/games/president-1.1.0.yaml.

Responsible for the exchange, tricks, revolutions, going out, titles and points. Cards are ints
(reference_engine.cards) and hands 52-bit masks; an action is checked completely before anything
changes, so a refusal leaves the state untouched. The card order and the plays it allows live in
``plays``, dealing and the checks on a layout in ``setup``. Knows nothing of fixtures or YAML.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from reference_engine.cards import parse_card
from reference_engine.president.plays import (
    CLUB_BIT,
    PLAYS,
    POS,
    RANK_BITS,
    names,
    parse_action,
)
from reference_engine.president.rounds import (
    EXCHANGE,
    GAME_OVER,
    PLAY,
    ROUND_OVER,
    end_round,
    next_give,
)
from reference_engine.president.setup import (
    check_cards,
    check_later_layout,
    check_position,
    deal,
    deal_deck,
    mask_of_names,
)
from reference_engine.gamefiles.rules import rules_of
from reference_engine.seeded import SplitMix64
from reference_engine.clauses.trace import note, recording_now

GAME = "president"
RULE_VERSION = "1.1.0"  # the game file whose clauses this code implements; versions differing in data alone play too
OPTIONS = ("revolution", "rounds")
FEATURES = {"clone": True}  # Game.clone()



class Game:
    """One game of President: a round, or a series of rounds."""

    def __init__(self, players: int, revolution: bool, rounds: int) -> None:
        self.players = players
        self.revolution = revolution
        self.rounds = rounds
        self.scores = [0] * players
        self.round = 1
        self.round_results: list[dict[str, Any]] = []
        self.game_result: dict[str, Any] | None = None
        self.later_layouts: list[dict[str, Any]] = []
        self.rng: SplitMix64 | None = None
        self.previous_order: list[int] = []
        self.reset_round([0] * players, 0)
        self.phase = PLAY
        self.to_act: int | None = 0

    def clone(self) -> Game:
        """An independent copy (lists copied, the ints are bitmasks), for fuzzers and bots to try actions on."""
        twin = object.__new__(Game)
        twin.__dict__.update(self.__dict__)
        for name in ("scores", "round_results", "later_layouts", "previous_order", "hands", "trick", "finished",
                     "gives"):
            setattr(twin, name, list(getattr(self, name)))
        if self.rng is not None:  # the twin deals its own later rounds without moving ours
            twin.rng = self.rng.copy()
        return twin  # results and later layouts are shared: never changed once made

    # ----- round set-up

    def reset_round(self, hands: list[int], played: int) -> None:
        """A fresh round: normal order, no trick, no passes, nobody out (P-6.3)."""
        self.hands = hands
        self.played = played
        self.reversed = False
        note("president.order-resets", "order")
        self.trick: list[tuple[int, int]] = []
        self.trick_size = 0
        self.trick_strength = -1
        self.last_player = -1
        self.passed = 0
        self.cleared = 0  # the seats whose passes the last trick's end cleared (what the trace tests a skip against)
        self.out = 0
        self.finished: list[int] = []
        self.gives: list[tuple[int, int, int]] = []  # pending (chooser, partner, count)
        self.next_leader = 0

    def load_layout(self, layout: dict[str, Any]) -> None:
        """Set the position of a complete layout given in ``setup["layout"]``."""
        hands = [mask_of_names(h) for h in layout["hands"]]
        played = mask_of_names(layout.get("played") or [])
        trick = [(int(p["seat"]), mask_of_names(p["cards"])) for p in layout.get("trick") or []]
        check_cards(hands, played, [m for _, m in trick])
        self.reset_round(hands, played)
        self.round = int(layout.get("round") or 1)
        if layout.get("scores") is not None:
            self.scores = [int(s) for s in layout["scores"]]
        self.reversed = layout.get("order") == "reversed"
        for seat in layout.get("finished") or []:
            self.finished.append(seat)
            self.out |= 1 << seat
        for seat in layout.get("passed") or []:
            self.passed |= 1 << seat
        for seat, mask in trick:  # the layout's order is the one these plays left behind
            self._put_on_trick(seat, mask, may_reverse=False)
        self.phase = PLAY
        check_position(self)
        to_act = layout.get("to_act")
        if to_act is not None:
            if not 0 <= to_act < self.players or (self.out | self.passed) >> to_act & 1:
                raise ValueError(f"to_act {to_act} is out of the round or has passed")
            self.to_act = to_act
        elif trick:
            self._after_action(self.last_player)
        else:
            first = layout.get("first")
            self.to_act = self._next_in(first - 1 if first is not None else -1)

    # ----- the interface

    def legal_actions(self) -> list[dict[str, Any]]:
        """The legal actions of the seat to act, canonical, in a fixed order."""
        if self.to_act is None:
            return []
        hand = self.hands[self.to_act]
        if self.phase == EXCHANGE:
            note("president.exchange-any-cards", "legal.give")
            cards = names(hand)
            return [{"give": list(combo)} for combo in combinations(cards, self.gives[0][2])]
        actions: list[dict[str, Any]] = []
        if not self.trick:
            note("president.lead-one-to-four", "legal.play")
            positions: range = range(13)
            size = 0
        else:
            note("president.follow-or-pass", "legal.play", "legal.pass")
            if self.reversed:  # strength 12 - p must beat the trick
                positions, size = range(12 - self.trick_strength), self.trick_size
            else:
                positions, size = range(self.trick_strength + 1, 13), self.trick_size
        for position in positions:
            # Which suits of this rank the hand holds, as 4 bits C, D, H, S (inline: the hot loop).
            held = hand >> CLUB_BIT[position]
            pattern = (held & 1) | (held >> 12 & 2) | (held >> 24 & 4) | (held >> 36 & 8)
            if pattern:
                actions.extend({"play": list(cards)} for cards in PLAYS[position][pattern][size])
        if self.trick:
            actions.append({"pass": True})
        return actions

    def apply(self, seat: int, action: dict[str, Any]) -> str | None:
        """Apply ``action`` by ``seat``: None when accepted, else the reason it is refused."""
        return self.apply_parsed(seat, parse_action(action))

    parse = staticmethod(parse_action)  # what ``apply_parsed`` takes: an action read once, played any number of times

    def apply_parsed(self, seat: int, parsed: tuple[str, int, int] | None) -> str | None:
        """``apply`` of an action as ``parse`` reads it (None: malformed): the same answer and the same change."""
        if parsed is None:
            return "malformed-action"
        if self.phase in (ROUND_OVER, GAME_OVER):
            return "game-over"
        if seat != self.to_act or type(seat) is not int:
            return self._not_to_act(seat)
        kind, mask, size = parsed
        if (kind == "give") != (self.phase == EXCHANGE):
            return "wrong-phase"
        if mask & ~self.hands[seat]:
            return "card-not-in-hand"
        if kind == "give":
            return self._give(seat, mask, size)
        if kind == "pass":
            return self._pass(seat)
        return self._play(seat, mask, size)

    def _not_to_act(self, seat: Any) -> str:
        """Why a seat that is not the seat to act is refused."""
        if self.phase == PLAY and type(seat) is int and 0 <= seat < self.players:
            if self.out >> seat & 1:
                return "already-out"
            if self.passed >> seat & 1:
                return "already-passed"
        return "not-your-turn"

    def _give(self, seat: int, mask: int, size: int) -> str | None:
        """The President's (or Vice-President's) chosen cards go to their partner."""
        _, partner, count = self.gives[0]
        if size != count:
            return "wrong-give-count"
        self.hands[seat] ^= mask
        self.hands[partner] |= mask
        del self.gives[0]
        next_give(self)
        return None

    def _pass(self, seat: int) -> str | None:
        """A pass holds until the trick is reset (P-3.4)."""
        if not self.trick:
            note("president.leader-must-play", "refused")
            return "leader-must-play"
        self.passed |= 1 << seat
        self._after_action(seat)
        return None

    def _play(self, seat: int, mask: int, size: int) -> str | None:
        """Lead or follow with ``mask``, after every check of P-3."""
        position = POS[(mask & -mask).bit_length() - 1]
        if mask & ~RANK_BITS[position]:
            note("president.same-rank", "refused")
            return "mixed-ranks"
        if self.trick:
            if size != self.trick_size:
                note("president.same-count", "refused")
                return "count-mismatch"
            strength = self._strength(position)
            if strength == self.trick_strength:
                note("president.equal-rank-refused", "refused")
                return "equal-rank"
            if strength < self.trick_strength:
                note("president.rank-must-be-higher", "refused")
                return "rank-too-low"
        self.hands[seat] ^= mask
        self._put_on_trick(seat, mask)
        if not self.hands[seat]:
            note("president.going-out", "finished")
            self.finished.append(seat)
            self.out |= 1 << seat
            if len(self.finished) == self.players - 1:
                end_round(self)
                return None
        self._after_action(seat)
        return None

    # ----- tricks

    def _strength(self, position: int) -> int:
        """How high a rank stands in the current order."""
        return 12 - position if self.reversed else position

    def _put_on_trick(self, seat: int, mask: int, may_reverse: bool = True) -> None:
        """Add a play to the trick; a four of a kind reverses the order (P-3.5)."""
        self.trick.append((seat, mask))
        self.trick_size = mask.bit_count()
        if self.trick_size == 4 and self.revolution and may_reverse:
            note("president.revolution-again" if self.reversed else "president.revolution", "order")
            self.reversed = not self.reversed
        elif self.trick_size == 4 and may_reverse:
            note("president.revolution-off", "order")
        # The strength is taken in the order the play leaves behind: after a revolution the
        # next four of a kind must be higher in the new order (interpretation of P-3.5).
        self.trick_strength = self._strength(POS[(mask & -mask).bit_length() - 1])
        self.last_player = seat

    def _after_action(self, seat: int) -> None:
        """Pass the turn on, or end the trick when all others still in have passed (P-2.3)."""
        waiting = ~(self.out | self.passed | 1 << self.last_player)
        for step in range(1, self.players):
            candidate = (seat + step) % self.players
            if waiting >> candidate & 1:
                if recording_now():
                    self._note_turn(seat, candidate)
                self.to_act = candidate
                return
        self._end_trick()

    def _note_turn(self, seat: int, candidate: int) -> None:
        """The rules that passed the turn from ``seat`` to ``candidate``, with what each demands of the seat another
        engine names: the next seat in order that is still in and has not passed in this trick (follow-or-pass),
        as a pass holds for its trick alone (pass-holds): the seat the last trick's passes would give, had they
        been kept, is pass-holds' mistake, not the order's."""
        held = (self.out | self.passed | self.cleared) & ~(1 << seat)
        carried = seat_in_after(held, self.players, seat)  # ``seat`` itself when all others are held: it leads again
        if self.passed:  # a seat that passed may be skipped
            note("president.pass-holds", "to_act")
        note("president.follow-or-pass", "to_act", holds=lambda answers: answers["to_act"] in (candidate, carried))
        if carried != candidate:  # a seat that passed in the last trick is in this one
            note("president.pass-holds", "to_act", holds=lambda answers: answers["to_act"] != carried)

    def _end_trick(self) -> None:
        """The last player wins; if out, the next seat still in leads (P-6.2)."""
        for _, mask in self.trick:
            self.played |= mask
        self.trick = []
        self.trick_size = 0
        self.trick_strength = -1
        self.cleared = self.passed
        self.passed = 0
        note("president.pass-holds", "passed")
        note("president.trick-won", "trick", "played")
        winner = self.last_player
        self.last_player = -1
        if self.out >> winner & 1:  # a seat still in leads (the text), the next one after the winner (the interpretation)
            out, players = self.out, self.players
            note("president.lead-after-out", "to_act", "leader",
                 holds=lambda answers: not (out >> answers["to_act"] | out >> answers["leader"]) & 1)
            note("president.trick-reset-after-out", "to_act", "leader",
                 holds=lambda answers: answers["to_act"] == answers["leader"] == seat_in_after(out, players, winner))
        else:
            note("president.trick-won", "to_act", "leader")
        self.to_act = winner if not self.out >> winner & 1 else self._next_in(winner)

    def _next_in(self, seat: int) -> int:
        """The first seat after ``seat`` that is still in the round."""
        return seat_in_after(self.out, self.players, seat)

    # ----- views

    def outcome(self) -> dict[str, Any]:
        """What a round's end decides, of the state view: the scores, the round results, the game's result."""
        return {
            "scores": list(self.scores),
            "round_results": [{k: list(v) for k, v in result.items()} for result in self.round_results],
            "game_result": None if self.game_result is None else {k: list(v) for k, v in self.game_result.items()},
        }

    def state(self) -> dict[str, Any]:
        """The full canonical state view."""
        playing = self.phase == PLAY
        outcome = self.outcome()
        return {
            "phase": self.phase,
            "to_act": self.to_act,
            "round": self.round,
            "scores": outcome["scores"],
            "hands": [names(h) for h in self.hands],
            "hand_sizes": [h.bit_count() for h in self.hands],
            "order": "reversed" if self.reversed else "normal",
            "trick": [{"seat": seat, "cards": names(mask)} for seat, mask in self.trick],
            "passed": [s for s in range(self.players) if self.passed >> s & 1],
            "leader": (self.trick[0][0] if self.trick else self.to_act) if playing else None,
            "finished": list(self.finished),
            "played": names(self.played),
            "round_results": outcome["round_results"],
            "game_result": outcome["game_result"],
        }

    def observation(self, seat: int) -> dict[str, Any]:
        """The state as ``seat`` sees it: the other hands are hidden, their sizes are not."""
        view = self.state()
        view["hands"] = [hand if s == seat else None for s, hand in enumerate(view["hands"])]
        return view


def start(setup: dict[str, Any]) -> Game:
    """A new game from a layout (with optional later layouts) or from a seed."""
    rules = rules_of(GAME, str(setup.get("rule_version", RULE_VERSION)), RULE_VERSION)
    options = rules.read_options(setup.get("options"))  # the game file's defaults for any left out
    revolution, rounds = bool(options["revolution"]), int(options["rounds"])
    if "layout" in setup:
        layout = setup["layout"]
        if layout.get("deck") is not None:  # a fresh deal from a given deck: deal it, then play as usual
            if layout.get("hands") or layout.get("trick") or layout.get("finished"):
                raise ValueError("a layout with a deck gives no hands, trick or finished seats")
            dealt = deal_deck([parse_card(c) for c in layout["deck"]], int(layout["players"]))
            layout = {**layout, "hands": [names(hand) for hand in dealt], "deck": None}
        players = len(layout["hands"])
        rules.check_players(players, "hands")
        game = Game(players, revolution, rounds)
        game.load_layout(layout)
        game.later_layouts = list(setup.get("later_layouts") or [])
        for later in game.later_layouts:
            check_later_layout(later, players)
        return game
    players = int(setup["players"])
    rules.check_players(players)
    game = Game(players, revolution, rounds)
    game.rng = SplitMix64(int(setup["seed"]))
    game.hands = deal(game.rng, players)
    game.to_act = 0
    return game


def seat_in_after(out: int, players: int, seat: int) -> int:
    """The first seat after ``seat`` not in ``out`` (a mask of seats)."""
    for step in range(1, players + 1):
        candidate = (seat + step) % players
        if not out >> candidate & 1:
            return candidate
    raise ValueError("nobody is left in the round")
