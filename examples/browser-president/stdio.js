#!/usr/bin/env node
// The same engine as the page, under Node.js over stdio (spec/protocol.md): one JSON message per
// line in, one answer per line out, logs on stderr. The kit's benchmark times the page against it.
//
//   cardverse-conformance run --game president --engine-cmd "node examples/browser-president/stdio.js"

import readline from "node:readline";
import { pathToFileURL } from "node:url";
import { createEngine } from "./protocol.js";

// Answers every line of stdin in order and exits after stop or at the end of stdin. console.warn
// and console.log go to stderr, so stdout carries answers only.
export function serveStdio(engine) {
  console.log = console.warn;
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  let queue = Promise.resolve(); // handle is async: answers leave in the order the lines came
  lines.on("line", (line) => {
    queue = queue.then(async () => {
      process.stdout.write((await engine.handle(line)) + "\n");
      if (line.includes('"stop"') && isStop(line)) lines.close();
    });
  });
  lines.on("close", () => queue.then(() => process.exit(0)));
}

function isStop(line) {
  try {
    return JSON.parse(line).cmd === "stop";
  } catch {
    return false; // not JSON: handle has answered it with an error
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  serveStdio(createEngine({ name: "browser-president-example", version: "0.1.0" }));
}
