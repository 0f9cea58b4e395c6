#!/usr/bin/env node
// A CardVerse engine adapter in Node.js: the engine protocol (spec/protocol.md) on stdin/stdout.
// One JSON object per line each way; logs go to stderr, never stdout. Standard library only.
//
//   cardverse-conformance smoke --engine-cmd "node examples/node-president/engine.js"
//   cardverse-conformance run --game president --engine-cmd "node examples/node-president/engine.js"
//   cardverse-conformance perft --game president --seed 2 --players 4 --depth 4 --engine-cmd "node ..."
"use strict";

const readline = require("readline");
const { President } = require("./president");

const PROTOCOL = 1;
let game = null;

const handlers = {
  hello: () => ({
    protocol: PROTOCOL, name: "node-president-example", version: "0.1.0", perft: true,
    games: { president: { rule_versions: ["1.1.0"], options: ["revolution", "rounds"] } },
  }),
  start: ({ setup }) => {
    if (setup.game !== "president") throw new Error(`this engine only plays president, not ${setup.game}`);
    game = new President(setup);
    return { result: null };
  },
  legal_actions: () => ({ result: current().legalActions() }),
  apply: ({ seat, action }) => {
    const reason = current().apply(seat, action);
    return reason === null ? { accepted: true } : { accepted: false, reason };
  },
  state: () => ({ result: current().state() }),
  observation: ({ seat }) => ({ result: current().observation(seat) }),
  // protocol 1.1: every line of legal play counted here, on copies; the game held is left as it was
  perft: ({ fork, setup, depth }) => {
    if (setup === undefined && fork !== 0) throw new Error(`no game ${fork}: this engine makes no copies (no fork)`);
    return { result: perft(setup === undefined ? current() : new President(setup), depth) };
  },
  stop: () => { game = null; return { result: null }; },
};

// A deep copy that keeps each object's class (the game, its generator), Sets and BigInts.
function copied(value) {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(copied);
  if (value instanceof Set) return new Set([...value].map(copied));
  const copy = Object.create(Object.getPrototypeOf(value));
  for (const [key, field] of Object.entries(value)) copy[key] = copied(field);
  return copy;
}

function child(position, seat, action) {
  const next = copied(position);
  const reason = next.apply(seat, action);
  if (reason !== null) throw new Error(`legal_actions lists ${JSON.stringify(action)}, but apply refused it (${reason})`);
  return next;
}

function walk(position, depth, counts, level) {
  const legal = position.legalActions();
  counts[level] += legal.length;
  if (depth === 1 || legal.length === 0) return;
  const seat = position.state().to_act;
  for (const action of legal) walk(child(position, seat, action), depth - 1, counts, level + 1);
}

// counts[d - 1]: the positions d plies below; divide: each legal action with the positions depth - 1 below it.
function perft(position, depth) {
  const legal = position.legalActions();
  const counts = [legal.length, ...new Array(depth - 1).fill(0)];
  if (depth === 1 || legal.length === 0) return { counts, divide: legal.map((action) => ({ action, nodes: 1 })) };
  const seat = position.state().to_act;
  const divide = legal.map((action) => {
    const below = new Array(depth - 1).fill(0);
    walk(child(position, seat, action), depth - 1, below, 0);
    below.forEach((nodes, level) => { counts[level + 1] += nodes; });
    return { action, nodes: below[below.length - 1] };
  });
  return { counts, divide };
}

function current() {
  if (game === null) throw new Error("no game in progress: send start first");
  return game;
}

function answer(message) {
  const seq = Number.isInteger(message.seq) ? { seq: message.seq } : {};
  const handler = handlers[message.cmd];
  if (!handler) return { ...seq, error: `unknown cmd ${JSON.stringify(message.cmd)}` };
  try {
    return { ...seq, ...handler(message) };
  } catch (error) { // an engine error is an answer, never a crash, and never a refusal
    process.stderr.write(`${error.stack}\n`);
    return { ...seq, error: `${error.name}: ${error.message}` };
  }
}

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch (error) {
    process.stdout.write(JSON.stringify({ error: `not a JSON line: ${error.message}` }) + "\n");
    return;
  }
  process.stdout.write(JSON.stringify(answer(message)) + "\n");
  if (message.cmd === "stop") lines.close();
});
lines.on("close", () => process.exit(0));
