// What the conformance kit talks to: window.cardverseEngine.handle(messageText) -> Promise<answerText>,
// one protocol message in and its answer out (spec/protocol.md, "Page"). Its game is its own: the
// table a person plays at (table.js) is another game, untouched by the kit's messages.

import { createEngine } from "./protocol.js";

const engine = createEngine({ name: "browser-president-example", version: "0.1.0" });
window.cardverseEngine = { handle: engine.handle };
