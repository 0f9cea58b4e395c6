// President's easy computer player (P-7.1): the lowest legal combination, decided from the view
// alone (spec/players.md). The tie-breaks are the clauses president.easy-lowest-follow,
// president.easy-never-passes, president.easy-lowest-lead and president.easy-gives-lowest.

const ORDER = "3456789TJQKA2"; // the normal order, low to high
const SUITS = "CDHS";

// Card lists compared card by card in canonical order (the normal order, then suit).
const canonical = (card) => ORDER.indexOf(card[0]) * 4 + SUITS.indexOf(card[1]);
function compareCards(a, b) {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return canonical(a[i]) - canonical(b[i]);
  }
  return a.length - b.length;
}
const lowestBy = (actions, cards) => actions.reduce((best, a) => (compareCards(cards(a), cards(best)) < 0 ? a : best));

export function chooseEasy(view) {
  const legal = view.legal;
  const gives = legal.filter((a) => "give" in a);
  if (gives.length) return lowestBy(gives, (a) => a.give); // the exchange: the lowest cards in the normal order
  const plays = legal.filter((a) => "play" in a);
  if (!plays.length) return legal[0]; // a pass is all there is
  const reversed = view.observation.order === "reversed";
  const strength = (a) => {
    const position = ORDER.indexOf(a.play[0][0]);
    return reversed ? ORDER.length - 1 - position : position;
  };
  const lowest = Math.min(...plays.map(strength));
  const candidates = plays.filter((a) => strength(a) === lowest);
  if (!view.observation.trick.length) { // leading: all the cards of that rank together
    return candidates.reduce((best, a) => (a.play.length > best.play.length ? a : best));
  }
  return lowestBy(candidates, (a) => a.play);
}
