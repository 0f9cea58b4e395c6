// Card faces as SVG, drawn in the page: the same shapes as the kit's rule book (harness/book/cards_svg.py),
// so every machine draws the suits alike (no font glyphs) and a screen reader hears "queen of hearts".

const SVG = "http://www.w3.org/2000/svg";
const RANKS = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };
const SUITS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const PATHS = {
  H: "M10 18 C4 13 1 10 1 6 C1 3 3.5 1 6 1 C7.8 1 9.2 2 10 3.6 C10.8 2 12.2 1 14 1 C16.5 1 19 3 19 6 C19 10 16 13 10 18 Z",
  D: "M10 1 L17.5 10 L10 19 L2.5 10 Z",
  S: "M10 1 C4 6.5 1 9 1 12.2 C1 14.8 3.2 16.5 5.6 16.5 C7.2 16.5 8.4 15.8 9.2 14.6 L8 19 L12 19 L10.8 14.6 " +
     "C11.6 15.8 12.8 16.5 14.4 16.5 C16.8 16.5 19 14.8 19 12.2 C19 9 16 6.5 10 1 Z",
  C: "M10 1.2 A4.2 4.2 0 0 1 13.6 7.6 A4.2 4.2 0 1 1 11 14.4 L12.2 19 L7.8 19 L9 14.4 A4.2 4.2 0 1 1 6.4 7.6 " +
     "A4.2 4.2 0 0 1 10 1.2 Z",
};

export const cardName = (card) => `${RANKS[card[0]] ?? card[0]} of ${SUITS[card[1]]}`;

function node(name, attributes, children = []) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  element.append(...children);
  return element;
}

function corner(rank, path, size) {
  return [node("text", { x: 5, y: 17, "font-size": size }, [rank]),
    node("path", { transform: "translate(5.5 20) scale(0.5)", d: path })];
}

// One face, 60x84 drawn at the size the stylesheet gives it; decorative: the button or figure around it names it.
export function cardSvg(card) {
  const rank = card[0] === "T" ? "10" : card[0];
  const path = PATHS[card[1]];
  const size = rank === "10" ? 13 : 15;
  const ink = "DH".includes(card[1]) ? "#c0162c" : "#1b1b1f";
  return node("svg", { viewBox: "0 0 60 84", class: "face", "aria-hidden": "true", focusable: "false" }, [
    node("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 5, fill: "#fffdf8", stroke: "#6b6b73", "stroke-width": 1.5 }),
    node("g", { fill: ink, "font-family": "DejaVu Sans, Verdana, Arial, sans-serif", "font-weight": 700 }, [
      ...corner(rank, path, size),
      node("path", { transform: "translate(17 29) scale(1.3)", d: path }),
      node("g", { transform: "rotate(180 30 42)" }, corner(rank, path, size)),
    ]),
  ]);
}
