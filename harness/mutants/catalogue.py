"""The mutant catalogue: plausible mistakes an engine author makes, each a small reference variant.

Each mutant is one mistake (sometimes made in two places, e.g. both the legal-action list and
the check on apply, as a real author would), written as exact edits of the reference engine's
source (see ``variants``). ``engine(mutant_id)`` builds it; ``harness.mutants:<name>`` also
works as an ``--engine`` factory, with the id's dots and dashes as underscores (``gin_rummy_knock_below_limit``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from harness.mutants.later_rounds import MUTANTS as LATER_ROUNDS
from harness.mutants.meeting import MEETING
from harness.mutants.variants import Edit, VariantEngine, build

GAME_MODULES = {"rummy": "reference_engine.rummy.game", "gin-rummy": "reference_engine.gin_rummy.game",
                "president": "reference_engine.president.game"}
R, RM = "reference_engine.rummy.game", "reference_engine.rummy.melds"
G, GA = "reference_engine.gin_rummy.game", "reference_engine.gin_rummy.actions"
GD, GS = "reference_engine.gin_rummy.deadwood", "reference_engine.gin_rummy.scoring"
# What the reference does when a knock is gin (mutants of gin ending the hand at once remove it).
GIN_ENDS = ('            note("gin-rummy.gin-is-knock-at-zero", "phase", "to_act", holds=hand_ended)\n'
            '            note("gin-rummy.no-layoff-on-gin", "phase", "to_act", holds=hand_ended)\n            score_knock(self)\n')
P, PP, PR = "reference_engine.president.game", "reference_engine.president.plays", "reference_engine.president.rounds"


@dataclass(frozen=True)
class Mutant:
    """One plausible implementation mistake."""

    id: str
    game: str
    mistake: str
    clause: str
    edits: tuple[Edit, ...]
    # The options its seeded games are played with, beside the game's defaults: the option it mishandles.
    options: dict[str, Any] = field(default_factory=dict)
    # Why no seeded game between players can show the mistake (None: seeded play shows it; harness.mutants.visibility).
    unseen_in_play: str | None = None

    @property
    def factory_name(self) -> str:
        """The name of its ``--engine`` factory in this module."""
        return self.id.replace(".", "_").replace("-", "_")


def _m(id: str, clause: str, mistake: str, *edits: tuple[str, str, str, str], options: dict[str, Any] | None = None,
       unseen_in_play: str | None = None) -> Mutant:
    """A mutant from (module, function, old, new) edits."""
    return Mutant(id, id.split(".")[0], mistake, clause, tuple(Edit(*e) for e in edits), dict(options or {}),
                  unseen_in_play)


CATALOGUE: tuple[Mutant, ...] = (
    # --- Rummy ------------------------------------------------------------------------------------
    _m("rummy.qka-refused", "rummy.ace-after-king", "the Ace is taken as low: Q-K-A is neither listed nor accepted",
       (RM, "meld_fault", "    if _contiguous(run):\n        return None",
        "    if _contiguous(run) and not run >> ACE_POSITION:\n        return None"),
       (RM, "_suit_runs", "for block in _intervals(positions(suit_bits), 3))",
        "for block in _intervals(positions(suit_bits), 3) if not block >> ACE_POSITION)")),
    _m("rummy.a23-accepted", "rummy.no-ace-low", "runs may wrap round the Ace (A-2-3, K-A-2 accepted)",
       (RM, "meld_fault", "        return ACE_WRAP", "        return None"),
       (RM, "_suit_runs", "    return tuple(suit_bits_of(block) for block in _intervals(positions(suit_bits), 3))",
        "    run = positions(suit_bits)\n    turned = (run >> 7 | run << 6) & ALL_POSITIONS  # 9..A below 2..8: wraps unbroken\n"
        "    wraps = [suit_bits_of((b << 7 | b >> 6) & ALL_POSITIONS) for b in _intervals(turned, 3) if b >> 5 & 3 == 3]\n"
        "    return tuple(suit_bits_of(block) for block in _intervals(run, 3)) + tuple(wraps)")),
    _m("rummy.discard-taken-allowed", "rummy.no-discard-of-taken-card",
       "the card just taken from the discard pile may be discarded again",
       (R, "RummyGame._discard", '        if card == self.taken:\n            note("rummy.no-discard-of-taken-card", "refused")\n'
        '            return "discard-just-taken"\n', ""),
       (R, "RummyGame.legal_actions", "for c in canonical(hand) if c != taken)", "for c in canonical(hand))")),
    _m("rummy.discard-to-win-ignored", "rummy.discard-to-win", "option discard_to_win is ignored",
       (R, "RummyGame._leaves_playable", 'return "must-discard-to-win" if self.discard_to_win else None', "return None"),
       options={"discard_to_win": True}),
    _m("rummy.stranded-allowed", "rummy.no-stranding-taken-card",
       "a meld may leave only the card just taken from the discard pile in hand",
       (R, "RummyGame._leaves_playable", 'return "taken-card-stranded"', "return None")),
    _m("rummy.empty-stock-tie-lowest-seat", "rummy.empty-stock-tie-order",
       "R-5.2 tie goes to the lowest seat number, not the first in turn order from the asker",
       (R, "RummyGame._lowest_hand", "order = [(asker + i) % self.players for i in range(self.players)]",
        "order = list(range(self.players))")),
    _m("rummy.empty-stock-asker-wins", "rummy.empty-stock-ends-hand",
       "R-5.2: the seat asking for the empty stock wins, whatever the hand values",
       (R, "RummyGame._draw", 'self._end_round(self._lowest_hand(seat), "empty-stock")',
        'self._end_round(seat, "empty-stock")')),
    _m("rummy.ace-high-ignored", "rummy.hand-value", "option ace_high is ignored in hand values",
       (RM, "hand_value", "_HAND_VALUES[ace_high]", "_HAND_VALUES[False]"), options={"ace_high": True}),
    _m("rummy.winner-counts-own-hand", "rummy.empty-stock-scoring",
       "the winner also scores the value of its own hand (matters after an empty stock)",
       (R, "RummyGame._end_round", "points = sum(values) - values[winner]", "points = sum(values)")),
    _m("rummy.first-seat-stays", "rummy.first-seat", "every round starts with the same first seat",
       (R, "RummyGame._end_round", "first = (self.first + 1) % self.players", "first = self.first")),
    _m("rummy.target-strict", "rummy.game-end", "the game ends only above the target, not when reaching it",
       (R, "RummyGame._end_round", "if max(self.scores) >= self.target:", "if max(self.scores) > self.target:")),
    _m("rummy.no-such-meld-off-by-one", "rummy.layoff-keeps-meld-valid",
       "a lay-off onto the meld index just past the last one crashes instead of being refused",
       (R, "RummyGame._lay_down", "if onto >= len(self.meld_cards):", "if onto > len(self.meld_cards):"),
       unseen_in_play="a seat lays off onto a meld it sees on the table; the index just past the last meld names "
                      "none, so only a malformed request (fuzz's near misses, a fixture) sends it"),
    _m("rummy.meld-out-not-ending", "rummy.go-out-by-meld",
       "melding the last card does not end the round",
       (R, "RummyGame._lay_down", "        if not self.hands[seat]:\n            self._end_round(seat, kind)", "        pass")),
    _m("rummy.game-tie-lowest-seat", "rummy.game-end",
       "a tie for the highest score at the end of the game goes to the lowest seat, not the first from the round's winner",
       (R, "RummyGame._end_round", "order = [(winner + i) % self.players for i in range(self.players)]",
        "order = list(range(self.players))"),
       unseen_in_play="only the round's winner scores and the game ends once a score reaches the target, so a game "
                      "played from its deal never ends in a tie for the highest score: only a later layout's scores do"),
    _m("rummy.empty-discard-crash", "rummy.draw-first", "drawing from an empty discard pile crashes instead of being refused",
       (R, "RummyGame._draw", '            if not self.discard:\n                return "empty-discard"\n', ""),
       unseen_in_play="in a dealt game the pile is never empty at a draw: it starts with the upcard and every turn "
                      "that does not end the round ends with a discard; only a layout with an empty pile reaches it"),
    # --- Gin Rummy --------------------------------------------------------------------------------
    _m("gin-rummy.knock-below-limit", "gin-rummy.knock", "knock only below the limit (< 10 instead of <= 10)",
       (G, "Game._knock", 'if least > self.options["knock_limit"]:', 'if least >= self.options["knock_limit"]:'),
       (GA, "discard_actions", "if after[card] <= limit:", "if after[card] < limit:")),
    _m("gin-rummy.undercut-strictly-lower", "gin-rummy.undercut-on-equal",
       "an undercut needs strictly lower deadwood (a tie goes to the knocker)",
       (GS, "score_knock", "elif theirs > mine:", "elif theirs >= mine:")),
    _m("gin-rummy.gin-bonus-only", "gin-rummy.gin-score", "gin scores the bonus without the opponent's deadwood",
       (GS, "score_knock", 'game.options["gin_bonus"] + theirs', 'game.options["gin_bonus"]')),
    _m("gin-rummy.undercut-bonus-missing", "gin-rummy.undercut", "an undercut scores the difference without the bonus",
       (GS, "score_knock", 'mine - theirs + game.options["undercut_bonus"]', "mine - theirs")),
    _m("gin-rummy.qka-run", "gin-rummy.ace-low", "Q-K-A counts as a run",
       (GD, "_all_melds", "    return melds",
        "    melds.extend(sum(1 << make_card(r, s) for r in (12, 13, 1)) for s in range(4))\n    return melds"),
       # and wherever deadwood is counted: the search's shortcuts (meldable cards, the knock check) know Q-K-A too
       (GD, "meldable", "    return runs | (hand & (ranks | ranks << 13 | ranks << 26 | ranks << 39))", "    return hand"),
       (GD, "least_after_discard", "    runs, gain = _run_tables()\n",
        "    return min(best_discards(hand).values())\n    runs, gain = _run_tables()\n")),
    _m("gin-rummy.discard-taken-allowed", "gin-rummy.discard",
       "the card just taken from the discard pile may be discarded again",
       (G, "Game._check_discard", '        if card == self.taken:\n            note("gin-rummy.discard", "refused")\n'
        '            return "discard-just-taken"\n', ""),
       (GA, "discard_actions", "(c for c in cards_of(hand) if c != taken)", "(c for c in cards_of(hand))")),
    _m("gin-rummy.layoff-onto-gin", "gin-rummy.no-layoff-on-gin",
       "gin leaves the hand open like a knock, and lay-offs onto the gin melds are accepted",
       (G, "Game._knock", "        if not self.hands[seat]:  # gin ends the hand at once: nothing may be laid off "
        "(G-3.3, G-5.1)\n" + GIN_ENDS, "")),
    _m("gin-rummy.drawn-hand-late", "gin-rummy.drawn-hand-timing", "the hand is drawn at 1 stock card instead of 2",
       (G, "Game._discard", "if len(self.stock) <= self.drawn_at:", "if len(self.stock) < self.drawn_at:")),
    _m("gin-rummy.target-strict", "gin-rummy.target-reached", "the match ends only above the target",
       (GS, "end_hand", "if max(game.scores) >= target:", "if max(game.scores) > target:")),
    _m("gin-rummy.dealer-stays", "gin-rummy.dealer-rotation", "the dealer does not alternate between hands",
       (GS, "next_hand", "        game.round += 1\n        game.dealer = 1 - game.dealer\n        game.deal_fresh(",
        "        game.round += 1\n        game.deal_fresh("),
       (GS, "next_hand", "        game.dealer = 1 - game.dealer\n        game.deal_seeded()", "        game.deal_seeded()")),
    _m("gin-rummy.both-pass-take-upcard", "gin-rummy.forced-stock-draw",
       "after both passed the upcard, the non-dealer may still take it",
       (G, "Game._draw", '            if self.upcard_refused:\n                note("gin-rummy.forced-stock-draw", "refused")\n'
        '                return "must-draw-stock"\n', ""),
       (G, "Game.legal_actions", '            if self.upcard_refused:\n                note("gin-rummy.forced-stock-draw", "legal.draw")\n'
        '                return [{"draw": "stock"}]\n', "")),
    _m("gin-rummy.box-bonus-winner-only", "gin-rummy.match-bonuses",
       "the box bonus is paid to the match winner only, not to each seat for the hands it won",
       (GS, "end_hand", 'bonuses = [game.options["box_bonus"] * game.hands_won[s] for s in (0, 1)]',
        'bonuses = [game.options["box_bonus"] * game.hands_won[s] * (s == champion) for s in (0, 1)]'),
       options={"box_bonus": 25}),
    _m("gin-rummy.opponent-deadwood-unmelded", "gin-rummy.layoff-any-card",
       "the opponent's deadwood counts all its cards left, as if it could not meld its own cards",
       (GS, "score_knock", "theirs = min_deadwood(game.hands[opponent])", "theirs = value_of(game.hands[opponent])")),
    _m("gin-rummy.any-arrangement-within-limit", "gin-rummy.knock-arrangement",
       "the knocker may show any arrangement whose deadwood is within the knock limit, not only an optimal one",
       (G, "Game._knock", "if value_of(left & ~shown) > least:", 'if value_of(left & ~shown) > self.options["knock_limit"]:'),
       (GA, "discard_actions", "            arrangements = [sorted((meld_key(m), names(m)) for m in a) for a in\n"
        "                            optimal_arrangements(hand & ~(1 << card))]\n",
        "            from reference_engine.gin_rummy.deadwood import MELDS_BY_LOWEST, VALUE\n\n"
        "            def within(rest: int, budget: int, chosen: list[int], found: list[list[int]]) -> None:\n"
        "                if not rest:\n                    found.append(list(chosen))\n                    return\n"
        "                low = (rest & -rest).bit_length() - 1\n"
        "                if VALUE[low] <= budget:\n                    within(rest & ~(1 << low), budget - VALUE[low], chosen, found)\n"
        "                for meld in MELDS_BY_LOWEST[low]:\n"
        "                    if meld & rest == meld:\n                        within(rest ^ meld, budget, chosen + [meld], found)\n"
        "            every: list[list[int]] = []\n            within(hand & ~(1 << card), limit, [], every)\n"
        "            arrangements = [sorted((meld_key(m), names(m)) for m in a) for a in every]\n")),
    # --- President --------------------------------------------------------------------------------
    _m("president.equal-rank-allowed", "president.equal-rank-refused", "a play of the same rank may follow",
       (P, "Game._play", '            if strength == self.trick_strength:\n                note("president.equal-rank-refused", "refused")\n'
        '                return "equal-rank"\n', ""),
       (P, "Game.legal_actions", "range(self.trick_strength + 1, 13)", "range(self.trick_strength, 13)"),
       (P, "Game.legal_actions", "range(12 - self.trick_strength)", "range(13 - self.trick_strength)")),
    _m("president.revolution-not-reversing", "president.revolution", "a four of a kind does not reverse the order",
       (P, "Game._put_on_trick", "self.reversed = not self.reversed", "pass")),
    _m("president.revolution-not-reverting", "president.revolution-again",
       "a second four of a kind does not restore the normal order",
       (P, "Game._put_on_trick", "self.reversed = not self.reversed", "self.reversed = True")),
    _m("president.revolution-option-ignored", "president.revolution-off",
       "option revolution=false is ignored: four of a kind still reverses",
       (P, "Game._put_on_trick", "self.trick_size == 4 and self.revolution and may_reverse",
        "self.trick_size == 4 and may_reverse"), options={"revolution": False}),
    _m("president.pass-not-holding", "president.pass-holds", "a seat that passed gets the turn again in the same trick",
       (P, "Game._after_action", "waiting = ~(self.out | self.passed | 1 << self.last_player)",
        "waiting = ~(self.out | 1 << self.last_player)")),
    _m("president.lead-to-finished-seat", "president.lead-after-out",
       "the lead does not pass over a trick winner who has gone out",
       (P, "Game._end_trick", "self.to_act = winner if not self.out >> winner & 1 else self._next_in(winner)",
        "self.to_act = winner")),
    _m("president.exchange-worst-cards", "president.best-cards", "the Scum gives its worst cards instead of its best",
       (PP, "best_cards", "for card in reversed(_CANONICAL):", "for card in _CANONICAL:")),
    _m("president.points-off-by-one", "president.points", "places score n-1 down to 0 instead of n down to 1",
       (PR, "end_round", "points[seat] = game.players - place", "points[seat] = game.players - place - 1"),
       (PR, "end_round", "game.scores[seat] += game.players - place", "game.scores[seat] += game.players - place - 1")),
    _m("president.vice-exchange-with-three", "president.no-vice-exchange-with-three",
       "with three players a Vice exchange is made too",
       (PR, "start_later_round", "if game.players >= 4:", "if game.players >= 3:")),
    _m("president.president-leads-after-exchange", "president.exchange-timing",
       "after the exchange the President leads instead of the previous round's Scum",
       (PR, "start_later_round", "game.next_leader = order[-1]", "game.next_leader = order[0]")),
    _m("president.vice-gives-two", "president.exchange", "the Vice-President gives two cards back instead of one",
       (PR, "start_later_round", "game.gives.append((order[1], order[-2], 1))",
        "game.gives.append((order[1], order[-2], 2))")),
    _m("president.passes-carry-over", "president.pass-holds", "passes are not cleared when a trick is won",
       (P, "Game._end_trick", "        self.passed = 0\n", "")),
    _m("president.lead-to-lowest-seat-in", "president.trick-reset-after-out",
       "when the trick winner is out, the lowest seat still in leads instead of the next one after the winner",
       (P, "Game._end_trick", "self._next_in(winner)", "self._next_in(-1)")),
    _m("president.order-carries-over", "president.order-resets", "a revolution lasts into the next round",
       (P, "Game.reset_round", "self.reversed = False", 'self.reversed = getattr(self, "reversed", False)')),
    _m("president.count-mismatch-ignored", "president.same-count", "a follow may have another number of cards",
       (P, "Game._play", "if size != self.trick_size:", "if False:"),
       (P, "Game.legal_actions", "range(12 - self.trick_strength), self.trick_size", "range(12 - self.trick_strength), 0"),
       (P, "Game.legal_actions", "range(self.trick_strength + 1, 13), self.trick_size", "range(self.trick_strength + 1, 13), 0")),
    # --- added for what outside engines showed (issue 12) -----------------------------------------
    _m("gin-rummy.gin-waits-for-pass", "gin-rummy.gin-is-knock-at-zero",
       "gin leaves the hand open until the opponent passes (lay-offs refused), instead of ending it at once",
       (G, "Game._knock", "        if not self.hands[seat]:  # gin ends the hand at once: nothing may be laid off "
        "(G-3.3, G-5.1)\n" + GIN_ENDS, ""),
       (G, "Game._layoff", "        if onto >= len(self.melds):",
        '        if not self.hands[self.knocker]:  # type: ignore[index]\n            return "wrong-phase"\n'
        "        if onto >= len(self.melds):"),
       (G, "Game._layoff_actions", "        hand = self.hands[1 - knocker]\n",
        "        hand = self.hands[1 - knocker] if self.hands[knocker] else 0\n")),
    _m("gin-rummy.knock-keeps-eleven-card-split", "gin-rummy.knock-arrangement",
       "the knock limit is checked on the eleven cards' first best split minus the discard, not re-arranged",
       (GD, "best_discards",
        "        after[card] = min_deadwood(hand & ~(1 << card)) if core >> card & 1 else whole - VALUE[card]\n",
        "        meld = next((m for m in optimal_arrangements(hand)[0] if m >> card & 1), 0)\n"
        "        rest = meld & ~(1 << card)\n"
        "        after[card] = (whole - VALUE[card] if not meld else whole if is_meld(rest)\n"
        "                       else whole + sum(VALUE[c] for c in cards_of(rest)))\n"),
       (G, "Game._knock", "        least = min_deadwood(left)\n", "        least = best_discards(hand)[card]\n")),
    _m("gin-rummy.drawn-after-ten-discard-draws", "gin-rummy.hand-end",
       "the hand is drawn after ten draws in a row from the discard pile, with the stock far from two cards",
       (G, "Game._draw", "            self.taken = card\n",
        "            self.taken = card\n            self.discard_streak = getattr(self, \"discard_streak\", 0) + 1\n"),
       (G, "Game._draw", "            self.upcard_refused = False\n",
        "            self.upcard_refused = False\n            self.discard_streak = 0\n"),
       (G, "Game._discard", "if len(self.stock) <= self.drawn_at:",
        "if len(self.stock) <= self.drawn_at or getattr(self, \"discard_streak\", 0) >= 10:")),
    _m("rummy.layoff-stranding-allowed", "rummy.no-stranding-taken-card",
       "a lay-off (not a meld) may leave only the card just taken from the discard pile in hand",
       (R, "RummyGame._lay_down", "        reason = self._leaves_playable(hand & ~cards)\n",
        "        reason = self._leaves_playable(hand & ~cards)\n"
        "        if kind == \"layoff\" and reason == \"taken-card-stranded\":\n            reason = None\n"),
       (R, "RummyGame.legal_actions", "additions = [a for a in layoffs_onto(meld, hand) if self._leaves_playable(hand & ~a) is None]",
        "additions = [a for a in layoffs_onto(meld, hand) if self._leaves_playable(hand & ~a) in (None, \"taken-card-stranded\")]")),
    _m("rummy.legal-discards-first", "rummy.meld-and-layoff-after-draw",
       "after the draw the discards are listed before the melds and lay-offs (the right actions, out of order)",
       (R, "RummyGame.legal_actions", "        actions: list[Action] = []\n", "        actions: list[Action] = []\n"
        "        taken = -1 if self.taken is None else self.taken\n"
        "        actions.extend({\"discard\": card_name(c)} for c in canonical(hand) if c != taken)\n"),
       (R, "RummyGame.legal_actions", "        taken = -1 if self.taken is None else self.taken\n"
        "        actions.extend({\"discard\": card_name(c)} for c in canonical(hand) if c != taken)\n        return actions",
        "        return actions"),
       unseen_in_play="the right actions, only listed in another order: a record holds the action each seat took, "
                      "never the list it chose from (the seats of recorded games choose from it in canonical order)"),
    # --- shortcuts engines take on the 11-card knock check (issue 25, benchmarks/mine_shortcuts.py) ---
    _m("gin-rummy.knock-check-drops-highest-leftover", "gin-rummy.knock",
       "the knock check takes one best split of the eleven cards and drops its highest leftover card "
       "(OpenSpiel's min_deadwood), instead of splitting the ten cards left after each discard anew",
       (GD, "least_after_discard", "    runs, gain = _run_tables()\n",
        "    left = hand & ~sum(optimal_arrangements(hand)[0])\n"
        "    return value_of(left) - max((VALUE[c] for c in cards_of(left)), default=0)\n"
        "    runs, gain = _run_tables()\n"),
       (G, "Game._knock", 'if least > self.options["knock_limit"]:',
        'if max(least, least_after_discard(hand)) > self.options["knock_limit"]:')),
    _m("gin-rummy.knock-on-eleven-cards", "gin-rummy.knock",
       "the knock limit is checked on the eleven cards' deadwood, before the discard is chosen",
       (GD, "least_after_discard", "    runs, gain = _run_tables()\n",
        "    return min_deadwood(hand)\n    runs, gain = _run_tables()\n"),
       (G, "Game._knock", 'if least > self.options["knock_limit"]:',
        'if max(least, least_after_discard(hand)) > self.options["knock_limit"]:')),
    _m("gin-rummy.knock-discards-leftover-only", "gin-rummy.knock-arrangement",
       "a knock may discard only a leftover card of the eleven cards' first best split, never a melded one",
       (GD, "best_discards",
        "        after[card] = min_deadwood(hand & ~(1 << card)) if core >> card & 1 else whole - VALUE[card]\n",
        "        after[card] = 1 << 30 if sum(optimal_arrangements(hand)[0]) >> card & 1 else whole - VALUE[card]\n"),
       (G, "Game._knock", "        least = min_deadwood(left)\n", "        least = best_discards(hand)[card]\n")),
    _m("gin-rummy.run-wraps", "gin-rummy.ace-low", "runs may go round the corner: K-A-2 and Q-K-A count",
       (GD, "_all_melds", "    return melds",
        "    melds.extend(sum(1 << make_card((low + i - 1) % 13 + 1, s) for i in range(n))\n"
        "                 for s in range(4) for n in range(3, 13) for low in range(15 - n, 14))\n    return melds"),
       (GD, "meldable", "    return runs | (hand & (ranks | ranks << 13 | ranks << 26 | ranks << 39))", "    return hand"),
       (GD, "least_after_discard", "    runs, gain = _run_tables()\n",
        "    return min(best_discards(hand).values())\n    runs, gain = _run_tables()\n")),
    _m("gin-rummy.drawn-after-fifty-discard-draws", "gin-rummy.hand-end",
       "the hand is drawn after 50 draws from the discard pile in all (OpenSpiel's limit), with the stock far from two cards",
       (G, "Game._draw", "            self.taken = card\n",
        "            self.taken = card\n            self.discard_draws = getattr(self, \"discard_draws\", 0) + 1\n"),
       (G, "Game._reset_hand", "        self.taken: int | None = None\n",
        "        self.taken: int | None = None\n        self.discard_draws = 0\n"),
       (G, "Game._discard", "if len(self.stock) <= self.drawn_at:",
        "if len(self.stock) <= self.drawn_at or self.discard_draws >= 50:"),
       unseen_in_play="fifty draws from the discard pile in one hand: seats take the discard when it melds, so a hand "
                      "ends at a knock or at the stock's last two cards long before (see drawn-after-ten-discard-draws)"),
    _m("gin-rummy.knock-melds-suit-first", "gin-rummy.knock",
       "the melds of a listed knock are in the order of their lowest card suit first (the 52-bit mask), not the card order",
       (GA, "discard_actions", "arrangements = [sorted((meld_key(m), names(m)) for m in a)",
        "arrangements = [sorted((m, names(m)) for m in a)"),
       unseen_in_play="the right knocks, only listed in another order: a record holds the knock taken, its melds "
                      "in the game file's canonical order, never the list (the seats choose from it in canonical order)"),
)
CATALOGUE += tuple(_m(*made, **extra) for made, extra in MEETING)  # options in the match, rules meeting, lists
CATALOGUE += tuple(_m(*made, **extra) for made, extra in LATER_ROUNDS)  # a match's later rounds
BY_ID = {m.id: m for m in CATALOGUE}
from harness.mutants.player_mistakes import MISTAKES as PLAYER_MISTAKES  # noqa: E402,F401  the players' own (issue 45)


def label(mutant: Mutant) -> str:
    """The name its code is compiled under (an exception's traceback shows it)."""
    return f"mutant {mutant.id}"


@cache
def _module(mutant_id: str) -> Any:
    """The mutated game module, built once per process."""
    mutant = BY_ID[mutant_id]
    return build(GAME_MODULES[mutant.game], mutant.edits, label(mutant))


def engine(mutant_id: str) -> VariantEngine:
    """The reference engine with the mutant's game replaced by the mutant."""
    if mutant_id not in BY_ID:
        raise KeyError(f"no mutant {mutant_id!r}; `cardverse-conformance mutants --list` shows the catalogue")
    mutant = BY_ID[mutant_id]
    return VariantEngine(mutant.game, _module(mutant_id), f"mutant {mutant_id}")


_FACTORIES = {m.factory_name: m.id for m in CATALOGUE}


def __getattr__(name: str) -> Any:
    """``--engine harness.mutants:gin_rummy_knock_below_limit`` makes that mutant."""
    if name in _FACTORIES:
        return lambda: engine(_FACTORIES[name])
    raise AttributeError(name)
