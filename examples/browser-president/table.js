// The table a person plays at: seat 0 against three easy players, on the same President module
// the kit checks (president.js) and the same easy player that answers the kit's choose (easy.js).

import { President } from "./president.js";
import { chooseEasy } from "./easy.js";
import { cardName, cardSvg } from "./cards.js";

const SEATS = 4;
const OPTIONS = { revolution: true, rounds: 3 };
const SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
// Long enough to follow the computer players' moves; index.html?pause=0 plays them at once.
const BOT_PAUSE_MS = Number(new URLSearchParams(location.search).get("pause") ?? 600);
const $ = (id) => document.getElementById(id);

let game, seed, history, selected, timer;

function newGame() {
  clearTimeout(timer);
  seed = crypto.getRandomValues(new Uint32Array(1))[0];
  game = new President({ game: "president", rule_version: "1.1.0", options: OPTIONS, seed, players: SEATS });
  history = [];
  selected = new Set();
  $("log").replaceChildren();
  note(`A new game (seed ${seed}).`);
  advance();
}

const shown = (card) => card[0].replace("T", "10") + SYMBOLS[card[1]];
const who = (seat) => (seat === 0 ? "You" : `Seat ${seat}`);
const describe = (action) => ("pass" in action ? "pass" : `${"give" in action ? "give" : "play"} ${(action.play || action.give).map(shown).join(" ")}`);

function note(text) {
  const item = document.createElement("li");
  item.textContent = text;
  $("log").prepend(item);
}

// A card drawn as SVG; named for a screen reader (the picture itself is silent).
function cardElement(card, tag = "span") {
  const element = document.createElement(tag);
  element.className = "card";
  element.title = shown(card);
  element.dataset.card = card;
  element.setAttribute("aria-label", cardName(card));
  if (tag === "span") element.setAttribute("role", "img");
  element.append(cardSvg(card));
  return element;
}

// The trick as it lies: each play with who made it, oldest first, the last one marked as the one to beat;
// then who has passed in this trick.
function trickElements(state) {
  const plays = state.trick.map((p, i) => {
    const figure = document.createElement("figure");
    figure.className = "play" + (i === state.trick.length - 1 ? " last" : "");
    const caption = document.createElement("figcaption");
    caption.textContent = who(p.seat) + (i === state.trick.length - 1 ? " (to beat)" : "");
    const cards = document.createElement("div");
    cards.className = "cards";
    cards.append(...p.cards.map((c) => cardElement(c)));
    figure.append(caption, cards);
    return figure;
  });
  const passed = state.passed.filter((seat) => !state.finished.includes(seat));
  if (passed.length) {
    const note = document.createElement("p");
    note.className = "passed";
    note.textContent = `Passed: ${passed.map(who).join(", ")}`;
    plays.push(note);
  }
  if (!plays.length) {
    const empty = document.createElement("p");
    empty.className = "empty";
    empty.textContent = "No cards on the table: the next player leads.";
    plays.push(empty);
  }
  return plays;
}

// The kit's view of a seat (spec/players.md); the history holds the plays and passes of the round
// (easy reads none of it, so the gives, which only two seats see, are left out).
function viewOf(seat) {
  return { game: "president", rule_version: "1.1.0", options: OPTIONS, seat, level: "easy", seed,
    observation: game.observation(seat), history: history.slice(), legal: game.legalActions() };
}

function play(seat, action) {
  const round = game.state().round;
  const reason = game.apply(seat, action);
  if (reason !== null) return reason;
  note(`${who(seat)}: ${describe(action)}`);
  if (!("give" in action)) history.push({ seat, action });
  const state = game.state();
  if (state.round !== round || state.phase === "game-over") {
    const results = state.round_results[state.round_results.length - 1];
    note(`Round over: ${results.finishing_order.map((s) => `${who(s)} (${results.titles[s]})`).join(", ")}.`);
    history = [];
  }
  return null;
}

// The computer players move one at a time, paused, until it is your turn or the game is over.
function advance() {
  selected.clear();
  render();
  const state = game.state();
  if (state.phase === "game-over" || state.phase === "round-over" || state.to_act === 0) return;
  timer = setTimeout(() => {
    play(state.to_act, chooseEasy(viewOf(state.to_act)));
    advance();
  }, BOT_PAUSE_MS);
}

// Your selection as an action, if it is one of your legal actions.
function selectedAction(state, legal) {
  const cards = state.hands[0].filter((c) => selected.has(c));
  const kind = state.phase === "exchange" ? "give" : "play";
  return legal.find((a) => kind in a && a[kind].length === cards.length && a[kind].every((c, i) => c === cards[i]));
}

function render() {
  const state = game.state();
  const mine = state.phase !== "game-over" && state.to_act === 0;
  const legal = mine ? game.legalActions() : [];
  $("seats").replaceChildren(...[1, 2, 3].map((seat) => {
    const box = document.createElement("div");
    box.className = "seat" + (state.to_act === seat ? " to-act" : "");
    const status = state.finished.includes(seat) ? "out" : state.passed.includes(seat) ? "passed" : "";
    box.textContent = `${who(seat)}: ${state.hand_sizes[seat]} cards, ${state.scores[seat]} points ${status}`;
    return box;
  }));
  $("order").textContent = state.order === "reversed" ? "(revolution: the order is reversed)" : "";
  $("trick").replaceChildren(...trickElements(state));
  $("you").className = mine ? "to-act" : "";
  $("you").textContent = `Your hand (${state.scores[0]} points)`;
  $("hand").replaceChildren(...state.hands[0].map((card) => {
    const button = cardElement(card, "button");
    button.type = "button";
    button.setAttribute("aria-pressed", String(selected.has(card)));
    button.addEventListener("click", () => {
      if (selected.has(card)) selected.delete(card); else selected.add(card);
      render();
    });
    return button;
  }));
  const action = mine && selectedAction(state, legal);
  $("act").textContent = state.phase === "exchange" ? "Give" : "Play";
  $("act").disabled = !action;
  $("pass").disabled = !legal.some((a) => "pass" in a);
  if (state.phase === "game-over") {
    const { finishing_order: order, scores } = state.game_result;
    $("status").textContent = `Game over: ${order.map((s) => `${who(s)} ${scores[s]}`).join(", ")}.`;
  } else if (mine) {
    const give = state.phase === "exchange" ? `Give ${legal[0].give.length} card(s) of your choice.` : "";
    $("status").textContent = give || (state.trick.length ? "Beat the last play, or pass." : "Lead any cards of one rank.");
  } else {
    $("status").textContent = `${who(state.to_act)} is thinking...`;
  }
}

$("act").addEventListener("click", () => {
  const state = game.state();
  const action = selectedAction(state, game.legalActions());
  if (action && play(0, action) === null) advance();
});
$("pass").addEventListener("click", () => {
  if (play(0, { pass: true }) === null) advance();
});
$("again").addEventListener("click", newGame);
newGame();
