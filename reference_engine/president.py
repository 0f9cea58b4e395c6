"""President, CardVerse variant 1.1.0: the rules of spec/games/president-1.1.0.yaml.

Responsible for dealing, the exchange, tricks, revolutions, going out, titles and points. Cards
are ints (reference_engine.cards) and hands 52-bit masks; an action is checked completely before
anything changes, so a refusal leaves the state untouched. Knows nothing of fixtures or YAML.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from reference_engine.cards import (
    DECK_SIZE,
    FULL_DECK,
    CardError,
    CardNames,
    card_name,
    fill_order,
    parse_card,
    rank_of,
    sort_key,
)
from reference_engine.seeded import SplitMix64

GAME = "president"
RULE_VERSIONS = ("1.1.0",)
OPTIONS = ("revolution", "rounds")
FEATURES = {"clone": True}  # Game.clone()

CARD_ORDER = "3456789TJQKA2"
_KEY = sort_key(CARD_ORDER)
# Position of each card's rank in the normal order: 3 -> 0 .. A -> 11, 2 -> 12.
_POS = [(rank_of(c) - 3) % 13 for c in range(DECK_SIZE)]
_RANK_BITS = [sum(1 << c for c in range(DECK_SIZE) if _POS[c] == p) for p in range(13)]
_CANONICAL = sorted(range(DECK_SIZE), key=_KEY.__getitem__)
_NAMES = [card_name(c) for c in range(DECK_SIZE)]


def _rank_plays(position: int) -> list[list[list[tuple[str, ...]]]]:
    """For each 4-bit pattern of held suits of one rank, its plays by size, in canonical order."""
    cards = [c for c in _CANONICAL if _POS[c] == position]  # suits C, D, H, S
    table: list[list[list[tuple[str, ...]]]] = []
    for pattern in range(16):
        held = [c for i, c in enumerate(cards) if pattern >> i & 1]
        combos = [combo for size in range(1, len(held) + 1) for combo in combinations(held, size)]
        combos.sort(key=lambda combo: [_KEY[c] for c in combo])
        by_size: list[list[tuple[str, ...]]] = [[] for _ in range(5)]
        for combo in combos:
            names_ = tuple(_NAMES[c] for c in combo)
            by_size[0].append(names_)  # index 0: every size, for a lead
            by_size[len(combo)].append(names_)
        table.append(by_size)
    return table


# _PLAYS[position][pattern][size]: the plays a hand holding ``pattern`` of that rank can make.
_PLAYS = [_rank_plays(p) for p in range(13)]
# The bit of each rank's club; the other suits are 13, 26 and 39 bits above it.
_CLUB_BIT = [next(c for c in range(13) if _POS[c] == p) for p in range(13)]


PLAY = "play"
EXCHANGE = "exchange"
ROUND_OVER = "round-over"
GAME_OVER = "game-over"
_ACTION_SIZES = {"play": 4, "give": 2}


names = CardNames(CARD_ORDER)  # the cards of a mask as names, in canonical order


def mask_of_names(texts: list[str]) -> int:
    """The mask of a list of card names from a layout (trusted to be cards)."""
    mask = 0
    for text in texts:
        mask |= 1 << parse_card(text)
    return mask


def best_cards(hand: int, count: int) -> int:
    """The ``count`` best cards of ``hand``: highest in the normal order, the higher suit first."""
    chosen = 0
    for card in reversed(_CANONICAL):
        if count == 0:
            break
        if hand >> card & 1:
            chosen |= 1 << card
            count -= 1
    return chosen


def titles(players: int) -> list[str]:
    """The title of each finishing place (index 0 = first out)."""
    places = ["citizen"] * players
    places[0], places[-1] = "president", "scum"
    if players >= 4:  # with three, second is also second to last: no Vice titles (P-6.1)
        places[1], places[-2] = "vice-president", "vice-scum"
    return places


def deal(rng: SplitMix64, players: int) -> list[int]:
    """A shuffled fill-order deck dealt one card at a time from seat 0."""
    deck = fill_order()
    rng.shuffle(deck)
    return deal_deck(deck, players)


def deal_deck(deck: list[int], players: int) -> list[int]:
    """``deck`` (top first) dealt one card at a time from seat 0."""
    hands = [0] * players
    for i, card in enumerate(deck):
        hands[i % players] |= 1 << card
    return hands


def parse_action(action: Any) -> tuple[str, int, int] | None:
    """(kind, mask, size) of a well-formed action, or None when it is malformed."""
    if not isinstance(action, dict) or len(action) != 1:
        return None
    kind, value = next(iter(action.items()))
    if kind == "pass":
        return ("pass", 0, 0) if value is True else None
    limit = _ACTION_SIZES.get(kind)
    if limit is None or not isinstance(value, list) or not 1 <= len(value) <= limit:
        return None
    mask = 0
    for text in value:
        if not isinstance(text, str):
            return None
        try:
            bit = 1 << parse_card(text)
        except CardError:
            return None
        if mask & bit:  # a repeated card (TH and 10H are the same card)
            return None
        mask |= bit
    return kind, mask, len(value)


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
        self._reset_round([0] * players, 0)
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

    def _reset_round(self, hands: list[int], played: int) -> None:
        """A fresh round: normal order, no trick, no passes, nobody out (P-6.3)."""
        self.hands = hands
        self.played = played
        self.reversed = False
        self.trick: list[tuple[int, int]] = []
        self.trick_size = 0
        self.trick_strength = -1
        self.last_player = -1
        self.passed = 0
        self.out = 0
        self.finished: list[int] = []
        self.gives: list[tuple[int, int, int]] = []  # pending (chooser, partner, count)
        self.next_leader = 0

    def load_layout(self, layout: dict[str, Any]) -> None:
        """Set the position of a complete layout given in ``setup["layout"]``."""
        hands = [mask_of_names(h) for h in layout["hands"]]
        played = mask_of_names(layout.get("played") or [])
        trick = [(int(p["seat"]), mask_of_names(p["cards"])) for p in layout.get("trick") or []]
        _check_cards(hands, played, [m for _, m in trick])
        self._reset_round(hands, played)
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
        _check_position(self)
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

    def _start_later_round(self, hands: list[int], played: int) -> None:
        """Round 2 and later of a series: the exchange comes first (P-6.1)."""
        _check_cards(hands, played, [])
        self._reset_round(hands, played)
        self.round += 1
        order = self.previous_order
        self.next_leader = order[-1]  # the Scum leads after the exchange
        self.gives = [(order[0], order[-1], 2)]
        if self.players >= 4:
            self.gives.append((order[1], order[-2], 1))
        self.phase = EXCHANGE
        self._next_give()

    def _next_give(self) -> None:
        """Make the automatic gift of the next exchange, or start play when none is left."""
        if not self.gives:
            self.phase = PLAY
            self.to_act = self.next_leader
            return
        chooser, partner, count = self.gives[0]  # the lower place gives first, automatically
        gift = best_cards(self.hands[partner], count)
        self.hands[partner] ^= gift
        self.hands[chooser] |= gift
        self.to_act = chooser

    # ----- the interface

    def legal_actions(self) -> list[dict[str, Any]]:
        """The legal actions of the seat to act, canonical, in a fixed order."""
        if self.to_act is None:
            return []
        hand = self.hands[self.to_act]
        if self.phase == EXCHANGE:
            cards = names(hand)
            return [{"give": list(combo)} for combo in combinations(cards, self.gives[0][2])]
        actions: list[dict[str, Any]] = []
        if not self.trick:
            positions: range = range(13)
            size = 0
        elif self.reversed:  # strength 12 - p must beat the trick
            positions, size = range(12 - self.trick_strength), self.trick_size
        else:
            positions, size = range(self.trick_strength + 1, 13), self.trick_size
        for position in positions:
            # Which suits of this rank the hand holds, as 4 bits C, D, H, S (inline: the hot loop).
            held = hand >> _CLUB_BIT[position]
            pattern = (held & 1) | (held >> 12 & 2) | (held >> 24 & 4) | (held >> 36 & 8)
            if pattern:
                actions.extend({"play": list(cards)} for cards in _PLAYS[position][pattern][size])
        if self.trick:
            actions.append({"pass": True})
        return actions

    def apply(self, seat: int, action: dict[str, Any]) -> str | None:
        """Apply ``action`` by ``seat``: None when accepted, else the reason it is refused."""
        parsed = parse_action(action)
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
        self._next_give()
        return None

    def _pass(self, seat: int) -> str | None:
        """A pass holds until the trick is reset (P-3.4)."""
        if not self.trick:
            return "leader-must-play"
        self.passed |= 1 << seat
        self._after_action(seat)
        return None

    def _play(self, seat: int, mask: int, size: int) -> str | None:
        """Lead or follow with ``mask``, after every check of P-3."""
        position = _POS[(mask & -mask).bit_length() - 1]
        if mask & ~_RANK_BITS[position]:
            return "mixed-ranks"
        if self.trick:
            if size != self.trick_size:
                return "count-mismatch"
            strength = self._strength(position)
            if strength == self.trick_strength:
                return "equal-rank"
            if strength < self.trick_strength:
                return "rank-too-low"
        self.hands[seat] ^= mask
        self._put_on_trick(seat, mask)
        if not self.hands[seat]:
            self.finished.append(seat)
            self.out |= 1 << seat
            if len(self.finished) == self.players - 1:
                self._end_round()
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
            self.reversed = not self.reversed
        # The strength is taken in the order the play leaves behind: after a revolution the
        # next four of a kind must be higher in the new order (interpretation of P-3.5).
        self.trick_strength = self._strength(_POS[(mask & -mask).bit_length() - 1])
        self.last_player = seat

    def _after_action(self, seat: int) -> None:
        """Pass the turn on, or end the trick when all others still in have passed (P-2.3)."""
        waiting = ~(self.out | self.passed | 1 << self.last_player)
        for step in range(1, self.players):
            candidate = (seat + step) % self.players
            if waiting >> candidate & 1:
                self.to_act = candidate
                return
        self._end_trick()

    def _end_trick(self) -> None:
        """The last player wins; if out, the next seat still in leads (P-6.2)."""
        for _, mask in self.trick:
            self.played |= mask
        self.trick = []
        self.trick_size = 0
        self.trick_strength = -1
        self.passed = 0
        winner = self.last_player
        self.last_player = -1
        self.to_act = winner if not self.out >> winner & 1 else self._next_in(winner)

    def _next_in(self, seat: int) -> int:
        """The first seat after ``seat`` that is still in the round."""
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if not self.out >> candidate & 1:
                return candidate
        raise ValueError("nobody is left in the round")

    # ----- end of a round, end of the game

    def _end_round(self) -> None:
        """Titles and points (P-4), then the next round, a stop, or the end of the game."""
        last = next(s for s in range(self.players) if not self.out >> s & 1)
        order = self.finished + [last]
        points = [0] * self.players
        seat_titles = [""] * self.players
        for place, (seat, title) in enumerate(zip(order, titles(self.players))):
            points[seat] = self.players - place
            seat_titles[seat] = title
            self.scores[seat] += self.players - place
        self.round_results.append({"finishing_order": order, "titles": seat_titles, "points": points})
        for _, mask in self.trick:
            self.played |= mask
        self.trick, self.trick_size, self.trick_strength = [], 0, -1
        self.passed, self.last_player, self.to_act = 0, -1, None
        self.previous_order = order
        if self.round >= self.rounds:
            self.phase = GAME_OVER
            self.game_result = {"finishing_order": list(order), "scores": list(self.scores)}
        elif self.later_layouts:
            layout = self.later_layouts.pop(0)
            hands = [mask_of_names(h) for h in layout["hands"]]
            self._start_later_round(hands, mask_of_names(layout.get("played") or []))
        elif self.rng is not None:
            self._start_later_round(deal(self.rng, self.players), 0)
        else:
            self.phase = ROUND_OVER

    # ----- views

    def state(self) -> dict[str, Any]:
        """The full canonical state view."""
        playing = self.phase == PLAY
        return {
            "phase": self.phase,
            "to_act": self.to_act,
            "round": self.round,
            "scores": list(self.scores),
            "hands": [names(h) for h in self.hands],
            "hand_sizes": [h.bit_count() for h in self.hands],
            "order": "reversed" if self.reversed else "normal",
            "trick": [{"seat": seat, "cards": names(mask)} for seat, mask in self.trick],
            "passed": [s for s in range(self.players) if self.passed >> s & 1],
            "leader": (self.trick[0][0] if self.trick else self.to_act) if playing else None,
            "finished": list(self.finished),
            "played": names(self.played),
            "round_results": [
                {k: list(v) for k, v in result.items()} for result in self.round_results],
            "game_result": None if self.game_result is None else {
                k: list(v) for k, v in self.game_result.items()},
        }

    def observation(self, seat: int) -> dict[str, Any]:
        """The state as ``seat`` sees it: the other hands are hidden, their sizes are not."""
        view = self.state()
        view["hands"] = [hand if s == seat else None for s, hand in enumerate(view["hands"])]
        return view


def _check_cards(hands: list[int], played: int, trick: list[int]) -> None:
    """A layout must place each of the 52 cards exactly once."""
    seen = 0
    for mask in [*hands, played, *trick]:
        if seen & mask:
            raise ValueError(f"a card is placed twice: {names(seen & mask)}")
        seen |= mask
    if seen != FULL_DECK:
        raise ValueError(f"cards not placed: {names(FULL_DECK & ~seen)}")


def _check_position(game: Game) -> None:
    """A mid-game layout must be a position the rules can reach from (P-2.4, P-5.1)."""
    seats = range(game.players)
    if any(not 0 <= s < game.players for s in [*game.finished, *(p for p, _ in game.trick)]):
        raise ValueError("a seat in finished or trick is not at the table")
    for seat in seats:
        if bool(game.out >> seat & 1) == bool(game.hands[seat]):
            raise ValueError(f"seat {seat}: only the seats in finished may have an empty hand")
    if len(game.finished) >= game.players - 1:
        raise ValueError("the round is already over: at most players - 2 seats may be finished")
    if len({mask.bit_count() for _, mask in game.trick}) > 1:
        raise ValueError("the plays of a trick must all have the same number of cards")


def _check_later_layout(layout: dict[str, Any], players: int) -> None:
    """A later round's deal: all 52 cards, and at least 2 per hand so every exchange can be made."""
    hands = [mask_of_names(h) for h in layout["hands"]]
    if len(hands) != players or any(hand.bit_count() < 2 for hand in hands):
        raise ValueError(f"a later layout needs {players} hands of at least 2 cards each")
    _check_cards(hands, mask_of_names(layout.get("played") or []), [])


def start(setup: dict[str, Any]) -> Game:
    """A new game from a layout (with optional later layouts) or from a seed."""
    options = setup.get("options") or {}
    revolution = bool(options.get("revolution", True))
    rounds = int(options.get("rounds", 1))
    if "layout" in setup:
        layout = setup["layout"]
        if layout.get("deck") is not None:  # a fresh deal from a given deck: deal it, then play as usual
            if layout.get("hands") or layout.get("trick") or layout.get("finished"):
                raise ValueError("a layout with a deck gives no hands, trick or finished seats")
            dealt = deal_deck([parse_card(c) for c in layout["deck"]], int(layout["players"]))
            layout = {**layout, "hands": [names(hand) for hand in dealt], "deck": None}
        players = len(layout["hands"])
        if not 3 <= players <= 6:
            raise ValueError(f"President is for 3 to 6 players, not {players}")
        game = Game(players, revolution, rounds)
        game.load_layout(layout)
        game.later_layouts = list(setup.get("later_layouts") or [])
        for later in game.later_layouts:
            _check_later_layout(later, players)
        return game
    players = int(setup["players"])
    if not 3 <= players <= 6:
        raise ValueError(f"President is for 3 to 6 players, not {players}")
    game = Game(players, revolution, rounds)
    game.rng = SplitMix64(int(setup["seed"]))
    game.hands = deal(game.rng, players)
    game.to_act = 0
    return game
