#!/usr/bin/env node
// A CardVerse engine adapter in Node.js: the engine protocol (spec/protocol.md) on stdin/stdout.
// One JSON object per line each way; logs go to stderr, never stdout. Standard library only.
//
//   cardverse-conformance smoke --engine-cmd "node examples/node-president/engine.js"
//   cardverse-conformance run --game president --engine-cmd "node examples/node-president/engine.js"
"use strict";

const readline = require("readline");
const { President } = require("./president");

const PROTOCOL = 1;
let game = null;

const handlers = {
  hello: () => ({
    protocol: PROTOCOL, name: "node-president-example", version: "0.1.0",
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
  stop: () => { game = null; return { result: null }; },
};

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
