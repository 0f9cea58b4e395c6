// President, CardVerse variant 1.1.0, written from the rule text (shared/rules/president-1.1.0.md)
// and its spec file (spec/games/president-1.1.0.yaml): an ES module with no imports but seeded.js,
// the same file in a browser (index.html) and under Node.js 18+ (stdio.js, ../node-president/).

const RANKS = "3456789TJQKA2"; // the card order, lowest first; suits C < D < H < S
const SUITS = "CDHS";
const CARD = /^(10|[A2-9TJQK])[CDHS]$/;
const TITLES = {
  3: ["president", "citizen", "scum"],
  4: ["president", "vice-president", "vice-scum", "scum"],
  5: ["president", "vice-president", "citizen", "vice-scum", "scum"],
  6: ["president", "vice-president", "citizen", "citizen", "vice-scum", "scum"],
};

const norm = (card) => (card.startsWith("10") ? "T" + card.slice(2) : card);
const key = (card) => RANKS.indexOf(card[0]) * 4 + SUITS.indexOf(card[1]);
const sorted = (cards) => cards.map(norm).sort((a, b) => key(a) - key(b));
const byCards = (a, b) => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return key(a[i]) - key(b[i]);
  return a.length - b.length;
};

import { SplitMix64 } from "./seeded.js";

class Refusal extends Error {}
const refuse = (reason) => { throw new Refusal(reason); };

export class President {
  constructor(setup) {
    // A seeded game deals fresh decks from one generator (spec/seeded-deal.md), this round and the next.
    this.rng = setup.layout ? null : new SplitMix64(setup.seed);
    this.revolution = setup.options.revolution !== false;
    this.rounds = setup.options.rounds || 1;
    this.later = (setup.later_layouts || []).slice();
    const layout = setup.layout || { deck: this.rng.shuffled(), players: setup.players };
    this.n = layout.deck ? layout.players : layout.hands.length;
    this.scores = layout.scores ? layout.scores.slice() : new Array(this.n).fill(0);
    this.round = layout.round || 1;
    this.roundResults = [];
    this.gameResult = null;
    this.deal(layout);
    this.trick = (layout.trick || []).map((p) => ({ seat: p.seat, cards: sorted(p.cards) }));
    this.passed = new Set(layout.passed || []);
    this.finished = (layout.finished || []).slice();
    this.order = layout.order || "normal";
    this.phase = "play";
    const first = layout.first == null ? 0 : layout.first;
    if (layout.to_act != null) this.toAct = layout.to_act;
    else if (this.trick.length === 0) this.toAct = this.nextIn(first, true);
    else this.toAct = this.nextActive(this.trick[this.trick.length - 1].seat);
    this.leader = this.trick.length ? this.trick[0].seat : this.toAct;
  }

  deal(layout) { // given hands, or a deck dealt one card at a time from seat 0 (P-1.1)
    let hands = layout.hands;
    if (layout.deck) {
      hands = Array.from({ length: this.n }, () => []);
      layout.deck.forEach((card, i) => hands[i % this.n].push(card));
    }
    this.hands = hands.map(sorted);
    this.played = sorted(layout.played || []);
  }

  // --- whose turn ---------------------------------------------------------------------------
  isOut(seat) { return this.finished.includes(seat); }

  nextIn(seat, inclusive) { // the first seat still in the round, from seat (or after it)
    for (let i = inclusive ? 0 : 1; i <= this.n; i++) {
      const s = (seat + i) % this.n;
      if (!this.isOut(s)) return s;
    }
    return null;
  }

  nextActive(seat) { // the next seat after seat that is in and has not passed
    for (let i = 1; i <= this.n; i++) {
      const s = (seat + i) % this.n;
      if (!this.isOut(s) && !this.passed.has(s)) return s;
    }
    return null;
  }

  strength(rank) {
    const i = RANKS.indexOf(rank);
    return this.order === "normal" ? i : RANKS.length - 1 - i;
  }

  // Why a play of `rank` may not follow a play of `last` (P-3.2, P-3.3), or null when it may.
  // apply and legalActions both ask it, so the refusal and the legal list never disagree.
  tooLow(rank, last) {
    if (this.strength(rank) === this.strength(last)) return "equal-rank";
    return this.strength(rank) < this.strength(last) ? "rank-too-low" : null;
  }

  // --- actions ------------------------------------------------------------------------------
  apply(seat, action) {
    try {
      this.applyOrRefuse(seat, action);
      return null;
    } catch (error) {
      if (error instanceof Refusal) return error.message;
      throw error;
    }
  }

  applyOrRefuse(seat, action) {
    const kind = wellFormed(action);
    if (kind === null) refuse("malformed-action");
    if (this.phase === "round-over" || this.phase === "game-over") refuse("game-over");
    if (seat !== this.toAct) {
      if (this.isOut(seat)) refuse("already-out");
      if (this.passed.has(seat)) refuse("already-passed");
      refuse("not-your-turn");
    }
    if ((this.phase === "play") !== (kind !== "give")) refuse("wrong-phase");
    const cards = kind === "pass" ? [] : sorted(action[kind]);
    const hand = this.hands[seat];
    if (cards.some((c) => !hand.includes(c))) refuse("card-not-in-hand");
    if (kind === "give") return this.give(seat, cards);
    if (cards.some((c) => c[0] !== (cards[0] || "")[0])) refuse("mixed-ranks");
    if (kind === "pass") {
      if (this.trick.length === 0) refuse("leader-must-play");
      this.passed.add(seat);
      return this.advance(seat);
    }
    if (this.trick.length) {
      const last = this.trick[this.trick.length - 1].cards;
      if (cards.length !== this.trick[0].cards.length) refuse("count-mismatch");
      const low = this.tooLow(cards[0][0], last[0][0]);
      if (low) refuse(low);
    }
    this.hands[seat] = hand.filter((c) => !cards.includes(c));
    this.trick.push({ seat, cards });
    if (this.revolution && cards.length === 4) this.order = this.order === "normal" ? "reversed" : "normal";
    if (this.hands[seat].length === 0) this.finished.push(seat);
    this.advance(seat);
  }

  advance(actor) {
    if (this.finished.length >= this.n - 1) return this.endRound();
    const last = this.trick[this.trick.length - 1].seat;
    const waiting = [...Array(this.n).keys()].filter((s) => s !== last && !this.isOut(s) && !this.passed.has(s));
    if (waiting.length === 0) { // everyone else still in has passed: the last player wins the trick
      for (const play of this.trick) this.played.push(...play.cards);
      this.played = sorted(this.played);
      this.trick = [];
      this.passed.clear();
      this.toAct = this.leader = this.nextIn(last, true);
      return;
    }
    this.toAct = this.nextActive(actor);
  }

  endRound() {
    const order = [...this.finished, ...[...Array(this.n).keys()].filter((s) => !this.isOut(s))];
    const titles = new Array(this.n), points = new Array(this.n);
    order.forEach((seat, place) => { titles[seat] = TITLES[this.n][place]; points[seat] = this.n - place; });
    this.scores = this.scores.map((s, seat) => s + points[seat]);
    this.roundResults.push({ finishing_order: order, titles, points });
    for (const play of this.trick) this.played.push(...play.cards);
    this.played = sorted(this.played);
    this.trick = [];
    this.passed.clear();
    this.toAct = this.leader = null;
    if (this.round >= this.rounds) {
      this.phase = "game-over";
      this.gameResult = { finishing_order: order, scores: this.scores.slice() };
    } else if (this.later.length || this.rng) {
      this.startExchange(order);
    } else {
      this.phase = "round-over";
    }
  }

  startExchange(order) {
    this.round += 1;
    this.deal(this.later.length ? this.later.shift() : { deck: this.rng.shuffled() });
    this.finished = [];
    this.order = "normal";
    this.places = order; // the previous round's finishing order decides who gives to whom
    this.phase = "exchange";
    this.move(order[order.length - 1], order[0], 2); // the Scum's two best cards go to the President
    this.toAct = order[0];
  }

  move(from, to, count) { // the best cards: the last ones in canonical order
    const best = this.hands[from].slice(-count);
    this.hands[from] = this.hands[from].slice(0, -count);
    this.hands[to] = sorted([...this.hands[to], ...best]);
  }

  give(seat, cards) {
    const order = this.places;
    const president = seat === order[0];
    if (cards.length !== (president ? 2 : 1)) refuse("wrong-give-count");
    const to = president ? order[order.length - 1] : order[order.length - 2];
    this.hands[seat] = this.hands[seat].filter((c) => !cards.includes(c));
    this.hands[to] = sorted([...this.hands[to], ...cards]);
    if (president && this.n >= 4) {
      this.move(order[order.length - 2], order[1], 1); // the Vice-Scum's best card to the Vice-President
      this.toAct = order[1];
      return;
    }
    this.phase = "play";
    this.toAct = this.leader = order[order.length - 1]; // the previous Scum leads
  }

  // --- views --------------------------------------------------------------------------------
  legalActions() {
    if (this.phase === "exchange") {
      const count = this.toAct === this.places[0] ? 2 : 1;
      return combinations(this.hands[this.toAct], count).map((cards) => ({ give: cards }));
    }
    if (this.phase !== "play") return [];
    const hand = this.hands[this.toAct];
    const actions = [];
    const last = this.trick.length ? this.trick[this.trick.length - 1].cards : null;
    for (const rank of RANKS) {
      const group = hand.filter((c) => c[0] === rank);
      if (last && this.tooLow(rank, last[0][0])) continue;
      const sizes = last ? [this.trick[0].cards.length] : [1, 2, 3, 4];
      for (const size of sizes) for (const cards of combinations(group, size)) actions.push({ play: cards });
    }
    actions.sort((a, b) => byCards(a.play, b.play)); // the canonical order: card lists compared card by card
    if (last) actions.push({ pass: true });
    return actions;
  }

  state() {
    return {
      phase: this.phase, to_act: this.toAct, round: this.round, scores: this.scores.slice(),
      hands: this.hands.map((h) => h.slice()), hand_sizes: this.hands.map((h) => h.length),
      order: this.order, trick: this.trick.map((p) => ({ seat: p.seat, cards: p.cards.slice() })),
      passed: [...this.passed].sort((a, b) => a - b), leader: this.phase === "play" ? this.leader : null,
      finished: this.finished.slice(), played: this.played.slice(),
      round_results: this.roundResults.map((r) => JSON.parse(JSON.stringify(r))),
      game_result: this.gameResult && JSON.parse(JSON.stringify(this.gameResult)),
    };
  }

  observation(seat) {
    const view = this.state();
    view.hands = view.hands.map((h, s) => (s === seat ? h : null));
    return view;
  }
}

function wellFormed(action) {
  if (action === null || typeof action !== "object" || Array.isArray(action)) return null;
  const keys = Object.keys(action);
  if (keys.length !== 1) return null;
  const [kind] = keys, value = action[kind];
  if (kind === "pass") return value === true ? "pass" : null;
  if (kind !== "play" && kind !== "give") return null;
  const max = kind === "play" ? 4 : 2;
  if (!Array.isArray(value) || value.length < 1 || value.length > max) return null;
  if (!value.every((c) => typeof c === "string" && CARD.test(c))) return null;
  return new Set(value.map(norm)).size === value.length ? kind : null;
}

function combinations(items, size) {
  if (size === 0) return [[]];
  const out = [];
  items.forEach((item, i) => {
    for (const rest of combinations(items.slice(i + 1), size - 1)) out.push([item, ...rest]);
  });
  return out;
}

