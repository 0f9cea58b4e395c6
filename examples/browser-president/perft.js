// Protocol 1.1's counting request: every line of legal play below a position counted here, on
// copies, so the kit's perft goes at this engine's own speed; the position itself is left as it was.

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
export function perft(position, depth) {
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
