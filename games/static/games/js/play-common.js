// What the play page's modules share: element lookup, timing, and boards as the
// page holds them (read from the server's views, and moved locally).

export const SLOW_REQUEST_MS = 500;

export const $ = (id) => document.getElementById(id);

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// One character per cell: 0-9 the value; while a Phi-Lambda game is active the
// server sends L (a 5) and P (any other number). P becomes 1, which the board
// draws as Phi: the page never knows, and never needs, the hidden number.
export function cellValue(char) {
  if (char >= "0" && char <= "9") return Number(char);
  if (char === "L") return 5;
  if (char === "P") return 1;
  return 0;
}

export function parseBoard(view) {
  const values = [];
  for (const row of view.rows) for (const char of row) values.push(cellValue(char));
  const labels = view.groups ? view.groups.flat() : null;
  return { values, labels, step: view.step, t: view.t };
}

// Whether `cell` ([row, col]) is on a board of `size`: a planar game's moves may leave
// it through a side (column -1 or `size`).
export function onBoard(cell, size) {
  return cell[0] >= 0 && cell[1] >= 0 && cell[0] < size && cell[1] < size;
}

// The board right after a move, before any noise: the source empties and the
// destination takes `toValue` (computed here, mod `modulus`, when not given). A move
// off the board (a planar game's side) only empties the source.
export function locallyMoved(board, size, from, to, toValue = null, modulus = 10) {
  const src = from[0] * size + from[1];
  const values = board.values.slice();
  const moved = values[src];
  values[src] = 0;
  let labels = board.labels ? board.labels.slice() : null;
  if (labels) labels[src] = 0;
  if (!onBoard(to, size)) return { values, labels };
  const dst = to[0] * size + to[1];
  values[dst] = toValue !== null ? toValue : (values[dst] + moved) % modulus;
  if (labels) labels[dst] = values[dst] ? board.labels[dst] || board.labels[src] : 0;
  return { values, labels };
}

/** How fast automatic replay steps (ms between boards), on the play page and the shared page. */
export const REPLAY_INTERVAL_MS = 650;

/**
 * Show replay step ``target`` of ``last`` on the replay controls (slider, label, buttons);
 * ``score`` is the score after that step, or null where there is no score to show (a planar
 * game counts moves, which the label already gives). The play page and the shared page use
 * the same ids.
 */
export function showReplayControls(target, last, score) {
  $("replay-slider").value = String(target);
  const scored = score === null || score === undefined ? "" : ` · score ${score}`;
  $("replay-label").textContent =
    target === 0 ? `First board (of ${last} moves)` : `After move ${target} of ${last}${scored}`;
  $("replay-first").disabled = target === 0;
  $("replay-prev").disabled = target === 0;
  $("replay-next").disabled = target === last;
  $("replay-last").disabled = target === last;
}

// How many separate pieces (side by side, row or column) the cells of `group` form on a
// board of `labels`. A group keeps its id when the numbers that joined its parts are
// cleared, so the group that spanned the grid may be drawn in several pieces.
export function groupPieces(labels, group) {
  if (!labels || group === null || group === undefined) return 0;
  const n = Math.round(Math.sqrt(labels.length));
  const seen = new Set();
  let pieces = 0;
  labels.forEach((label, start) => {
    if (label !== group || seen.has(start)) return;
    pieces += 1;
    const stack = [start];
    seen.add(start);
    while (stack.length) {
      const i = stack.pop();
      const r = Math.floor(i / n);
      const c = i % n;
      const around = [];
      if (r > 0) around.push(i - n);
      if (r < n - 1) around.push(i + n);
      if (c > 0) around.push(i - 1);
      if (c < n - 1) around.push(i + 1);
      for (const j of around) {
        if (labels[j] === group && !seen.has(j)) {
          seen.add(j);
          stack.push(j);
        }
      }
    }
  });
  return pieces;
}

// The caption under a finished board when the outlined group is drawn in pieces, which
// would otherwise look like several groups ("" when it is in one piece: the card's own
// "It is outlined on the board" says enough).
export function spanningLegend(labels, group) {
  const pieces = groupPieces(labels, group);
  if (pieces < 2) return "";
  return (
    `The outlined red squares, in ${pieces} pieces, are one group: the group that spanned ` +
    "the grid. A group stays joined after the numbers between its parts are cleared, so " +
    "its pieces still count together."
  );
}
