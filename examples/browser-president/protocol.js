// The engine protocol (spec/protocol.md) over the President module: one message's text in, its
// answer's text out, exactly the JSON lines an adapter reads and writes on stdio. The page hands
// `handle` to the kit as window.cardverseEngine.handle (kit.js); stdio.js feeds it stdin lines.

import { President } from "./president.js";
import { chooseEasy } from "./easy.js";
import { perft } from "./perft.js";

export const PROTOCOL = 1;
const IN_BATCH = new Set(["start", "legal_actions", "apply", "state", "observation", "choose", "perft"]);
const PLAYERS = { easy: chooseEasy };

// An engine holding one game at a time. `Game` is the rules (a subclass may change one rule);
// `levels` the computer players it declares (none: the harness skips the players' fixtures).
export function createEngine({ name, version, Game = President, levels = ["easy"] } = {}) {
  let game = null;
  const current = () => {
    if (game === null) throw new Error("no game in progress: send start first");
    return game;
  };
  const handlers = {
    hello: () => {
      const president = { rule_versions: ["1.1.0"], options: ["revolution", "rounds"] };
      if (levels.length) president.players = { levels: levels.slice(), interface: "view" };
      return { protocol: PROTOCOL, name, version, batch: true, perft: true, games: { president } };
    },
    start: ({ setup }) => {
      if (setup.game !== "president") throw new Error(`this engine only plays president, not ${setup.game}`);
      game = new Game(setup);
      return { result: null };
    },
    legal_actions: () => ({ result: current().legalActions() }),
    apply: ({ seat, action }) => {
      const reason = current().apply(seat, action);
      return reason === null ? { accepted: true } : { accepted: false, reason };
    },
    state: () => ({ result: current().state() }),
    observation: ({ seat }) => ({ result: current().observation(seat) }),
    // protocol 1.1: counted here on copies; this engine makes no copies itself (no fork), so fork 0 or a setup
    perft: ({ fork, setup, depth }) => {
      if (setup === undefined && fork !== 0) throw new Error(`no game ${fork}: this engine makes no copies (no fork)`);
      return { result: perft(setup === undefined ? current() : new Game(setup), depth) };
    },
    choose: ({ view }) => {
      if (!levels.includes(view.level) || !PLAYERS[view.level]) throw new Error(`no ${view.level} player here`);
      return { result: PLAYERS[view.level](view) };
    },
    batch: ({ requests }) => ({
      answers: requests.map((inner) => (IN_BATCH.has(inner.cmd) ? answer(inner)
        : { ...seqOf(inner), error: `a batch holds no ${JSON.stringify(inner.cmd)} request` })),
    }),
    stop: () => { game = null; return { result: null }; },
  };

  function answer(message) {
    const handler = Object.hasOwn(handlers, message?.cmd) ? handlers[message.cmd] : null;
    if (!handler) return { ...seqOf(message), error: `unknown cmd ${JSON.stringify(message?.cmd)}` };
    try {
      return { ...seqOf(message), ...handler(message) };
    } catch (error) { // an engine error is an answer, never a crash, and never a refusal
      console.warn(error.stack); // a warning, not an error: a page logging errors fails its scenario
      return { ...seqOf(message), error: `${error.name}: ${error.message}` };
    }
  }

  // One message's JSON text in, the answer's JSON text out (a Promise, as the page's global promises).
  async function handle(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch (error) {
      return JSON.stringify({ error: `not a JSON message: ${error.message}` });
    }
    return JSON.stringify(answer(message));
  }

  return { handle, answer };
}

const seqOf = (message) => (Number.isInteger(message?.seq) ? { seq: message.seq } : {});
