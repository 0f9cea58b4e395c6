#!/usr/bin/env node
// The seeded deal of spec/seeded-deal.md, written from that page alone: SplitMix64 on BigInt,
// an unbiased below(n), Fisher-Yates from the end, and the deal of each game's
// conventions.seeded_deal. An ES module for the browser and Node.js alike; run as a program
// (Node.js) it checks spec/seeded-deal-vectors.json:
//
//   node examples/browser-president/seeded.js spec/seeded-deal-vectors.json

const MASK = (1n << 64n) - 1n;
const FILL = [];
for (const suit of "CDHS") for (const rank of "A23456789TJQK") FILL.push(rank + suit);

export class SplitMix64 {
  constructor(seed) {
    this.state = BigInt(seed);
    if (this.state < 0n || this.state > MASK) throw new Error(`a seed is from 0 to 2^64-1, not ${seed}`);
  }

  next() {
    this.state = (this.state + 0x9E3779B97F4A7C15n) & MASK;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & MASK;
    return z ^ (z >> 31n);
  }

  below(n) {
    const big = BigInt(n);
    const limit = (1n << 64n) - ((1n << 64n) % big);
    for (;;) {
      const x = this.next();
      if (x < limit) return Number(x % big);
    }
  }

  shuffled() {
    const deck = FILL.slice();
    for (let i = deck.length - 1; i > 0; i--) {
      const j = this.below(i + 1);
      [deck[i], deck[j]] = [deck[j], deck[i]];
    }
    return deck;
  }
}

const ORDERS = { rummy: "23456789TJQKA", "gin-rummy": "A23456789TJQK", president: "3456789TJQKA2" };

function inOrder(game, cards) {
  const key = (c) => ORDERS[game].indexOf(c[0]) * 4 + "CDHS".indexOf(c[1]);
  return cards.slice().sort((a, b) => key(a) - key(b));
}

// Round 1 of a seeded game: hands in the game's card order, discard and stock top first.
export function deal(game, players, seed) {
  const deck = new SplitMix64(seed).shuffled();
  const hands = Array.from({ length: players }, () => []);
  if (game === "president") {
    deck.forEach((card, i) => hands[i % players].push(card));
    return { hands: hands.map((h) => inOrder(game, h)) };
  }
  // Rummy: from seat 0 (the first seat); Gin Rummy: from the non-dealer, seat 1 (seat 0 deals).
  const size = game === "gin-rummy" ? 10 : players === 2 ? 7 : 10;
  const start = game === "gin-rummy" ? 1 : 0;
  for (let i = 0; i < size * players; i++) hands[(start + i) % players].push(deck[i]);
  const dealt = size * players;
  return { hands: hands.map((h) => inOrder(game, h)), discard: [deck[dealt]], stock: deck.slice(dealt + 1) };
}

function check(vectors) {
  const problems = [];
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  for (const v of vectors) {
    const g = new SplitMix64(v.seed);
    const outputs = v.outputs.map(() => g.next().toString(16).padStart(16, "0"));
    if (!same(outputs, v.outputs)) problems.push(`seed ${v.seed}: outputs ${outputs.join(" ")}`);
    const shuffler = new SplitMix64(v.seed);
    if (!same(shuffler.shuffled(), v.deck)) problems.push(`seed ${v.seed}: the first shuffle differs`);
    if (!same(shuffler.shuffled(), v.next_deck)) problems.push(`seed ${v.seed}: the second shuffle differs`);
    for (const d of v.deals) {
      const mine = deal(d.game, d.players, v.seed);
      for (const key of Object.keys(mine)) {
        if (!same(mine[key], d[key])) problems.push(`seed ${v.seed}: ${d.game} with ${d.players} players: ${key} differs`);
      }
    }
  }
  return problems;
}

// Only under Node.js, and only when run as the program: a browser never reaches the imports.
if (globalThis.process?.versions?.node) {
  const { pathToFileURL } = await import("node:url");
  if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
    const { readFileSync } = await import("node:fs");
    const file = process.argv[2];
    if (!file) {
      process.stderr.write("usage: node seeded.js spec/seeded-deal-vectors.json\n");
      process.exit(2);
    }
    const { vectors } = JSON.parse(readFileSync(file, "utf8"));
    const problems = check(vectors);
    for (const p of problems) process.stdout.write(p + "\n");
    const deals = vectors.reduce((n, v) => n + v.deals.length, 0);
    process.stdout.write(problems.length ? `${problems.length} difference(s)\n`
      : `${vectors.length} seeds, ${deals} deals: every vector matches\n`);
    process.exit(problems.length ? 1 : 0);
  }
}
