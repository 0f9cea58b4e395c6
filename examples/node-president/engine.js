#!/usr/bin/env node
// A CardVerse engine in Node.js: President, with one rule left out on purpose. The rules are the
// ES module of ../browser-president/ (president.js, seeded.js), spoken over stdio by its
// protocol.js and stdio.js; this file changes one rule of it and declares no computer players.
//
//   cardverse-conformance smoke --engine-cmd "node examples/node-president/engine.js"
//   cardverse-conformance run --game president --engine-cmd "node examples/node-president/engine.js"
//   cardverse-conformance perft --game president --seed 2 --players 4 --depth 4 --engine-cmd "node ..."

import { President } from "../browser-president/president.js";
import { createEngine } from "../browser-president/protocol.js";
import { serveStdio } from "../browser-president/stdio.js";

// DELIBERATELY INCOMPLETE: rule P-3.3 "a play of equal rank is not allowed" (clause
// president.equal-rank-refused) is left out. This engine accepts an equal-rank play, and lists
// equal-rank plays among the legal actions (both ask tooLow), so the conformance report shows
// exactly that rule's fixtures failing.
class LeavesOutEqualRank extends President {
  tooLow(rank, last) { // LEFT OUT: P-3.3 refuses an equal rank with equal-rank; this engine lets it through
    return this.strength(rank) < this.strength(last) ? "rank-too-low" : null;
  }
}

serveStdio(createEngine({ name: "node-president-example", version: "0.1.0", Game: LeavesOutEqualRank, levels: [] }));
