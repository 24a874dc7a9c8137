// The levers' and keys' contacts: each closes its GPIO to ground (the boards' ACTIVE_LOW with
// the RP2040's pull-ups), and chatters as it closes and as it opens.

/** The edges of one contact change at `atNs`: the line to `closed`, chattering for
 *  `bounceMs` (a bounce every 0.5 ms, the line back to the old level for the first half of
 *  each), ending at the new level. Each edge is [ns, high]. */
export function contactEdges(atNs, closed, bounceMs) {
  const settled = !closed; // active low: closed is low
  const edges = [];
  const periodNs = 500_000;
  const bounces = Math.floor((bounceMs * 1e6) / periodNs);
  for (let i = 0; i < bounces; i++) {
    edges.push([atNs + i * periodNs, settled]);
    edges.push([atNs + i * periodNs + periodNs / 2, !settled]);
  }
  edges.push([atNs + bounces * periodNs, settled]);
  return edges;
}

/** A press: the contact closes at `atNs`, stays closed for `holdMs`, then opens. */
export function pressEdges(atNs, holdMs, bounceMs) {
  return [
    ...contactEdges(atNs, true, bounceMs),
    ...contactEdges(atNs + holdMs * 1e6, false, bounceMs),
  ];
}
