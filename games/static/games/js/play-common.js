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

// The board right after a move, before any noise: the source empties and the
// destination takes `toValue` (computed here for Z10 when not given).
export function locallyMoved(board, size, from, to, toValue = null) {
  const src = from[0] * size + from[1];
  const dst = to[0] * size + to[1];
  const values = board.values.slice();
  const moved = values[src];
  values[dst] = toValue !== null ? toValue : (values[dst] + moved) % 10;
  values[src] = 0;
  let labels = null;
  if (board.labels) {
    labels = board.labels.slice();
    labels[dst] = values[dst] ? labels[dst] || labels[src] : 0;
    labels[src] = 0;
  }
  return { values, labels };
}

/** How fast automatic replay steps (ms between boards), on the play page and the shared page. */
export const REPLAY_INTERVAL_MS = 650;

/**
 * Show replay step ``target`` of ``last`` on the replay controls (slider, label, buttons);
 * ``score`` is the score after that step. The play page and the shared page use the same ids.
 */
export function showReplayControls(target, last, score) {
  $("replay-slider").value = String(target);
  $("replay-label").textContent =
    target === 0 ? `First board (of ${last} moves)` : `After move ${target} of ${last} · score ${score}`;
  $("replay-first").disabled = target === 0;
  $("replay-prev").disabled = target === 0;
  $("replay-next").disabled = target === last;
  $("replay-last").disabled = target === last;
}
