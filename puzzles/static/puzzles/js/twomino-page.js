// The 2mino page: start a board, draw bars with mouse, touch or keys, record every action.
//
// Actions go to the server one at a time through the shared AttemptSession
// (puzzle-session.js, as on the KenKen page). A toggled bar is drawn at once and the
// board is redrawn from the server's answer (which pairs are formed, their counts).
// A toggle undoes itself, so undo sends the toggles that take back the last toggle or
// reset again: they are recorded like any other.

import { ensurePlayer, watchConsentChoice } from "../../games/js/consent.js";
import { puzzlesApi } from "./puzzle-api.js";
import { AttemptSession, Clock, formatTime } from "./puzzle-session.js";

const $ = (id) => document.getElementById(id);
const setup = $("tm-setup");
const game = $("tm-game");
const solvedCard = $("tm-solved");
const boardEl = $("tm-board");
const sampleEl = $("tm-sample");
const message = $("tm-message");
const LONG_PRESS_MS = 500;
const PICTURES_KEY = "puzzles.2mino.pictures";
// Symbols 0..11 as pictures (the option "Pictures"), with the names read out.
const PICTURES = [
  ["\u25cf", "circle"],
  ["\u25b2", "triangle"],
  ["\u25a0", "square"],
  ["\u25c6", "diamond"],
  ["\u2605", "star"],
  ["\u2665", "heart"],
  ["\u263e", "moon"],
  ["\u271a", "cross"],
  ["\u2600", "sun"],
  ["\u2663", "clover"],
  ["\u266a", "note"],
  ["\u2691", "flag"],
];

let board = null; // { rows, cols, grid, locked: Set, bars: Map key -> element }
let undoBars = []; // the bars each toggle or reset changed, for undo: lists of keys
const clock = new Clock($("tm-timer"));
const picturesBox = $("tm-pictures");
let highlighted = null; // "x-y"
let cursor = null; // key of the bar with the keyboard cursor

const key = (a, b) => {
  const [p, q] = a[0] < b[0] || (a[0] === b[0] && a[1] <= b[1]) ? [a, b] : [b, a];
  return `${p[0]},${p[1]},${q[0]},${q[1]}`;
};
const pairName = (x, y) => (x <= y ? `${x}-${y}` : `${y}-${x}`);

function say(text) {
  message.textContent = text;
}

const session = new AttemptSession({
  say,
  onAnswer: answered,
  onReload: () => {
    undoBars = [];
    show();
  },
  onFailure: (error) => {
    show();
    say(error.message || "Something went wrong.");
  },
});
const current = () => session.attempt;

// How a symbol is drawn and read: a digit, or a picture with its name.
const pictures = () => picturesBox.checked;
const glyph = (symbol) => (pictures() && PICTURES[symbol] ? PICTURES[symbol][0] : String(symbol));
const spoken = (symbol) => (pictures() && PICTURES[symbol] ? PICTURES[symbol][1] : String(symbol));

function drawSymbols() {
  if (!board) return;
  for (let r = 0; r < board.rows; r += 1) {
    for (let c = 0; c < board.cols; c += 1) board.cells[r][c].textContent = glyph(board.grid[r][c]);
  }
  for (const [k, button] of board.bars) {
    const [a, b] = barCells(k);
    const sa = spoken(board.grid[a[0]][a[1]]);
    const sb = spoken(board.grid[b[0]][b[1]]);
    button.setAttribute(
      "aria-label",
      `Bar between row ${a[0] + 1} column ${a[1] + 1} (${sa}) and row ${b[0] + 1} column ${b[1] + 1} (${sb})${board.locked.has(k) ? ", locked" : ""}`,
    );
  }
  for (const button of sampleEl.children) {
    const [x, y] = button.dataset.pair.split("-").map(Number);
    button.querySelectorAll(".tm-symbol").forEach((span, i) => {
      span.textContent = glyph(i === 0 ? button.dataset.high : button.dataset.low);
    });
    button.querySelector(".tm-pair-name").textContent = `pair ${spoken(x)} and ${spoken(y)}`;
  }
  boardEl.classList.toggle("tm-pictures", pictures());
  sampleEl.classList.toggle("tm-pictures", pictures());
}

// The tidy layout of every pair, as the engine lays it out before shuffling.
function sampleTiles(size) {
  const pairs = [];
  for (let high = 0; high < size; high += 1) for (let low = 0; low <= high; low += 1) pairs.push([high, low]);
  const tiles = [];
  if (size % 2 === 0) {
    for (let r = 0; r <= size; r += 1) for (let c = 0; c < size; c += 2) tiles.push([[r, c], [r, c + 1]]);
  } else {
    for (let r = 0; r <= size; r += 2) for (let c = 0; c < size; c += 1) tiles.push([[r, c], [r + 1, c]]);
  }
  return tiles.map((cells, i) => ({ cells, pair: pairs[i] }));
}

function buildBoard() {
  const puzzle = current().puzzle;
  const rows = puzzle.rows;
  const cols = puzzle.cols;
  board = { rows, cols, grid: puzzle.grid, locked: new Set(), bars: new Map(), cells: [] };
  for (const b of puzzle.locked_bars) board.locked.add(key(b.a, b.b));
  const layout = game.querySelector(".tm-layout");
  layout.style.setProperty("--rows", String(rows));
  layout.style.setProperty("--cols", String(cols));
  boardEl.replaceChildren();
  for (let r = 0; r < rows; r += 1) {
    board.cells.push([]);
    for (let c = 0; c < cols; c += 1) {
      const cell = document.createElement("div");
      cell.className = "tm-cell";
      cell.dataset.r = String(r);
      cell.dataset.c = String(c);
      cell.setAttribute("aria-hidden", "true"); // the bars name their two cells
      cell.style.setProperty("--row", String(r));
      boardEl.append(cell);
      board.cells[r].push(cell);
    }
  }
  const addBar = (a, b, horizontal) => {
    const button = document.createElement("button");
    const k = key(a, b);
    button.type = "button";
    button.className = `tm-bar ${horizontal ? "tm-h" : "tm-v"}`;
    button.dataset.bar = k;
    button.tabIndex = -1;
    const x = horizontal ? a[1] + 0.5 : a[1] + 1;
    const y = horizontal ? a[0] + 1 : a[0] + 0.5;
    button.dataset.x = String(x);
    button.dataset.y = String(y);
    button.style.setProperty("left", `calc(var(--cell) * ${x})`);
    button.style.setProperty("top", `calc(var(--cell) * ${y})`);
    const locked = board.locked.has(k);
    button.classList.toggle("tm-locked", locked);
    button.classList.toggle("tm-on", locked);
    boardEl.append(button);
    board.bars.set(k, button);
  };
  for (let r = 0; r < rows; r += 1) {
    for (let c = 0; c < cols; c += 1) {
      if (c + 1 < cols) addBar([r, c], [r, c + 1], false);
      if (r + 1 < rows) addBar([r, c], [r + 1, c], true);
    }
  }
  sampleEl.replaceChildren();
  for (const tile of sampleTiles(current().size)) {
    const [a, b] = tile.cells;
    const button = document.createElement("button");
    button.type = "button";
    const vertical = a[1] === b[1];
    button.className = `tm-pair${vertical ? " tm-vertical" : ""}`;
    button.dataset.pair = pairName(tile.pair[0], tile.pair[1]);
    button.style.setProperty("grid-row", `${a[0] + 1} / span ${vertical ? 2 : 1}`);
    button.style.setProperty("grid-column", `${a[1] + 1} / span ${vertical ? 1 : 2}`);
    [button.dataset.high, button.dataset.low] = tile.pair.map(String);
    // The button's name is its content: the symbols drawn (hidden from assistive
    // technology) and a visually hidden text that names the pair and its state.
    for (const symbol of tile.pair) {
      const span = document.createElement("span");
      span.className = "tm-symbol";
      span.setAttribute("aria-hidden", "true");
      span.textContent = String(symbol);
      button.append(span);
    }
    const name = document.createElement("span");
    name.className = "visually-hidden tm-pair-name";
    const status = document.createElement("span");
    status.className = "visually-hidden tm-pair-status";
    button.append(name, status);
    sampleEl.append(button);
  }
  drawSymbols();
  setCursor(firstFreeBar(), false);
}

function firstFreeBar() {
  for (const [k] of board.bars) if (!board.locked.has(k)) return k;
  return board.bars.keys().next().value;
}

function setCursor(k, focus = true) {
  if (cursor && board.bars.get(cursor)) {
    board.bars.get(cursor).tabIndex = -1;
    board.bars.get(cursor).classList.remove("tm-cursor");
  }
  cursor = k;
  const button = board.bars.get(k);
  button.tabIndex = 0;
  button.classList.add("tm-cursor");
  if (focus) button.focus();
}

function show() {
  const state = current().state;
  const drawn = new Set(state.bars.map(([r1, c1, r2, c2]) => key([r1, c1], [r2, c2])));
  for (const [k, button] of board.bars) {
    button.classList.toggle("tm-on", board.locked.has(k) || drawn.has(k));
    button.setAttribute("aria-pressed", String(board.locked.has(k) || drawn.has(k)));
  }
  for (const row of board.cells) for (const cell of row) cell.classList.remove("tm-formed", "tm-repeated");
  const counts = state.counts;
  for (const [r1, c1, r2, c2] of state.formed) {
    const name = pairName(board.grid[r1][c1], board.grid[r2][c2]);
    const repeated = counts[name] > 1;
    for (const [r, c] of [[r1, c1], [r2, c2]]) {
      board.cells[r][c].classList.add(repeated ? "tm-repeated" : "tm-formed");
    }
  }
  let found = 0;
  for (const button of sampleEl.children) {
    const n = counts[button.dataset.pair] || 0;
    button.classList.toggle("tm-found", n === 1);
    button.classList.toggle("tm-repeated", n > 1);
    button.querySelector(".tm-pair-status").textContent = `: ${n === 0 ? "not found" : n === 1 ? "found" : `found ${n} times`}`;
    if (n >= 1) found += 1;
  }
  $("tm-found").textContent = `${found} / ${sampleEl.children.length} pairs`;
  game.querySelector('[data-tool="undo"]').disabled = undoBars.length === 0;
  highlight(highlighted, false);
}

// Highlight a pair: its tile on the sample board and every place on the board it may lie.
function highlight(name, toggle = true) {
  if (toggle && name === highlighted) name = null;
  highlighted = name;
  for (const button of sampleEl.children) button.classList.toggle("tm-hl", button.dataset.pair === name);
  for (const row of board.cells) for (const cell of row) cell.classList.remove("tm-hl");
  if (!name) return;
  const [x, y] = name.split("-").map(Number);
  for (let r = 0; r < board.rows; r += 1) {
    for (let c = 0; c < board.cols; c += 1) {
      for (const [r2, c2] of [[r, c + 1], [r + 1, c]]) {
        if (r2 >= board.rows || c2 >= board.cols) continue;
        if (board.locked.has(key([r, c], [r2, c2]))) continue;
        if (pairName(board.grid[r][c], board.grid[r2][c2]) === name) {
          board.cells[r][c].classList.add("tm-hl");
          board.cells[r2][c2].classList.add("tm-hl");
        }
      }
    }
  }
  say(`Pair ${spoken(x)}-${spoken(y)}: the highlighted cells show where it may lie.`);
}

function barCells(k) {
  const [r1, c1, r2, c2] = k.split(",").map(Number);
  return [
    [r1, c1],
    [r2, c2],
  ];
}

function highlightBar(k) {
  const [a, b] = barCells(k);
  highlight(pairName(board.grid[a[0]][a[1]], board.grid[b[0]][b[1]]), false);
}

function clearMarks() {
  for (const row of board.cells) for (const cell of row) cell.classList.remove("tm-hint");
  for (const [, button] of board.bars) button.classList.remove("tm-wrong");
}

function finished() {
  const attempt = current();
  if (attempt.status === "solved") {
    clock.stop(attempt.solve_seconds || 0);
    // The victory effect: the found pairs light up row after row (they stay lit, unmoving, under reduced motion).
    boardEl.classList.add("tm-victory");
    const pairs = sampleEl.children.length;
    $("tm-solved-text").textContent =
      `You found all ${pairs} pairs of this ${attempt.size}-symbol board in ${formatTime(attempt.solve_seconds || 0)}.`;
    solvedCard.hidden = false;
    $("tm-solved-title").focus();
  } else {
    clock.stop();
    say("You gave up.");
  }
}

function open(data) {
  session.attempt = data;
  const attempt = data;
  undoBars = [];
  boardEl.classList.remove("tm-victory");
  history.replaceState(null, "", `#${attempt.id}`);
  setup.hidden = true;
  solvedCard.hidden = true;
  game.hidden = false;
  highlighted = null;
  $("tm-title").textContent = `2mino \u00b7 ${attempt.size} symbols \u00b7 ${attempt.difficulty}`;
  buildBoard();
  say("");
  show();
  if (attempt.status === "active") clock.start(attempt.started_at);
  else finished();
}

function describeHint(hint) {
  if (!hint) return "No hint: every pair of a tiling that agrees with your bars is already found.";
  const [a, b] = [hint.a, hint.b];
  const where = `row ${a[0] + 1} column ${a[1] + 1} and row ${b[0] + 1} column ${b[1] + 1}`;
  if (hint.kind === "forced") return `The pair ${hint.pair[0]}-${hint.pair[1]} can only lie at ${where}.`;
  if (hint.kind === "tiling") return `Try the pair ${hint.pair[0]}-${hint.pair[1]} at ${where}.`;
  return `No cutting agrees with your bars: the bar between ${where} is in the way.`;
}

function answered(kind, result, { payload, before }) {
  const attempt = current();
  clearMarks();
  if (kind === "toggle" && !payload.undoing) undoBars.push([key(payload.a, payload.b)]);
  if (kind === "reset") {
    undoBars.push(before.bars.map(([r1, c1, r2, c2]) => key([r1, c1], [r2, c2])));
  }
  show();
  if (kind === "hint") {
    const hint = result.hint;
    say(describeHint(hint));
    if (hint && hint.kind === "wrong_bar") board.bars.get(key(hint.a, hint.b))?.classList.add("tm-wrong");
    else if (hint) for (const [r, c] of [hint.a, hint.b]) board.cells[r][c].classList.add("tm-hint");
  } else if (kind === "toggle") {
    const name = (pair) => pair.map(spoken).join("-");
    const twice = (result.formed || []).find((d) => (attempt.state.counts[pairName(...d.pair)] || 0) > 1);
    if (twice) say(`The pair ${name(twice.pair)} is found more than once.`);
    else if ((result.formed || []).length) say(`Found ${result.formed.map((d) => name(d.pair)).join(", ")}.`);
  } else if (kind === "reset") {
    say("Every bar you drew is off again.");
  }
  if (attempt.status !== "active") finished();
}

function send(kind, payload = {}) {
  return session.send(kind, payload);
}

// Takes back the last toggle or reset by toggling its bars again.
function undo() {
  const bars = undoBars.pop();
  if (!bars) {
    say("Nothing to undo.");
    return;
  }
  for (const k of bars) {
    const [a, b] = barCells(k);
    sendUndoToggle(a, b);
  }
  session.later(() => {
    show();
    say("Undone.");
  });
}

// `undoing` is not enumerable: it stays on the page, the payload sent is a toggle's own.
function sendUndoToggle(a, b) {
  const payload = { a, b };
  Object.defineProperty(payload, "undoing", { value: true, enumerable: false });
  session.send("toggle", payload);
}

function toggle(k) {
  if (!session.active) return;
  if (board.locked.has(k)) {
    say("That bar is locked: it is part of the puzzle.");
    return;
  }
  setCursor(k, false);
  const button = board.bars.get(k);
  button.classList.toggle("tm-on"); // drawn at once; the answer redraws the board
  const [a, b] = barCells(k);
  send("toggle", { a, b });
}

function problem() {
  const counts = current().state.counts;
  const names = [...sampleEl.children].map((b) => b.dataset.pair);
  const doubled = names.find((n) => (counts[n] || 0) > 1);
  if (doubled) return `Not solved: the pair ${doubled} is found ${counts[doubled]} times.`;
  const missing = names.find((n) => !counts[n]);
  return missing ? `Not solved: the pair ${missing} is missing.` : "";
}

function tool(name) {
  if (name === "hint") send("hint");
  else if (name === "undo") undo();
  else if (name === "reset") send("reset");
  else if (name === "check") {
    // The page knows every pair's count: it names the first pair found twice or more, else
    // the first missing one (as the API's check does). A solved board ends by itself.
    session.later(() => say(problem() || "Every pair is found once."));
  } else if (name === "giveup") {
    if (!window.confirm("Give up this board? This attempt ends.")) return;
    session.giveUp().then(() => {
      show();
      finished();
    });
  }
}

// Keyboard: the cursor moves to the nearest bar in the arrow's direction.
const DIRECTIONS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

function moveCursor(dx, dy) {
  const here = board.bars.get(cursor);
  const x0 = Number(here.dataset.x);
  const y0 = Number(here.dataset.y);
  let best = null;
  for (const [k, button] of board.bars) {
    const along = (Number(button.dataset.x) - x0) * dx + (Number(button.dataset.y) - y0) * dy;
    if (along <= 0) continue;
    const across = Math.abs((Number(button.dataset.x) - x0) * dy + (Number(button.dataset.y) - y0) * dx);
    const score = along + 2 * across;
    if (best === null || score < best[0]) best = [score, k];
  }
  if (best) setCursor(best[1]);
}

function onKey(event) {
  if (game.hidden || !board || !session.active) return;
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement) return;
  if (event.altKey || event.metaKey) return;
  if (event.ctrlKey) {
    if (event.key.toLowerCase() === "z") {
      undo();
      event.preventDefault();
    }
    return;
  }
  const onBar = target instanceof HTMLElement && target.classList.contains("tm-bar");
  if (DIRECTIONS[event.key]) {
    if (!onBar) setCursor(cursor);
    else moveCursor(...DIRECTIONS[event.key]);
    event.preventDefault();
  } else if ((event.key === " " || event.key === "Enter") && onBar) {
    toggle(cursor);
    event.preventDefault();
  } else if (event.key === "p" || event.key === "P") {
    highlightBar(cursor);
  } else if (event.key === "h" || event.key === "H") {
    send("hint");
  } else if (event.key === "c" || event.key === "C") {
    tool("check");
  } else if (event.key === "u" || event.key === "U") {
    undo();
  }
}

// Pointer: a click or tap toggles; a right click or a long press highlights the bar's pair.
let press = null;
boardEl.addEventListener("pointerdown", (event) => {
  const button = event.target.closest(".tm-bar");
  if (!button || event.button !== 0) return;
  const k = button.dataset.bar;
  press = { k, long: false, timer: setTimeout(() => {
    press.long = true;
    highlightBar(k);
  }, LONG_PRESS_MS) };
});
const endPress = () => {
  if (press) clearTimeout(press.timer);
};
boardEl.addEventListener("pointerup", endPress);
boardEl.addEventListener("pointercancel", () => {
  endPress();
  press = null;
});
boardEl.addEventListener("click", (event) => {
  const button = event.target.closest(".tm-bar");
  if (!button) return;
  const wasLong = press && press.long && press.k === button.dataset.bar;
  press = null;
  if (wasLong || event.detail === 0) return; // keyboard "clicks" are handled in onKey
  toggle(button.dataset.bar);
});
boardEl.addEventListener("contextmenu", (event) => {
  const button = event.target.closest(".tm-bar");
  if (!button) return;
  event.preventDefault();
  if (press && press.long) return; // the long press already highlighted it
  highlightBar(button.dataset.bar);
});
sampleEl.addEventListener("click", (event) => {
  const button = event.target.closest(".tm-pair");
  if (button) highlight(button.dataset.pair);
});

async function startNew(event) {
  event?.preventDefault();
  const button = $("tm-start");
  button.disabled = true;
  delete $("tm-new").dataset.error;
  try {
    // Unanswered: the question is asked, and this start runs again once it is answered.
    await ensurePlayer(startNew);
    open(
      await puzzlesApi.start({
        kind: "2mino",
        size: Number($("tm-size").value),
        difficulty: $("tm-difficulty").value,
      }),
    );
  } catch (error) {
    $("tm-new").dataset.error = error.message || "Could not start.";
  } finally {
    button.disabled = false;
  }
}

const touch = window.matchMedia("(pointer: coarse)").matches || navigator.maxTouchPoints > 0;
$("tm-help").textContent = touch ? $("tm-help").dataset.touch : $("tm-help").dataset.keys;
$("tm-new").addEventListener("submit", startNew);
// Per size, only the levels measured to come quickly (GET /api/v1/puzzles/levels/).
const offered = JSON.parse($("tm-offered").textContent);
$("tm-size").addEventListener("change", () => {
  const select = $("tm-difficulty");
  const chosen = select.value;
  const levels = offered[$("tm-size").value] || [];
  select.replaceChildren(...levels.map((level) => new Option(level, level, false, level === chosen)));
});
picturesBox.checked = localStorage.getItem(PICTURES_KEY) === "on";
picturesBox.addEventListener("change", () => {
  localStorage.setItem(PICTURES_KEY, picturesBox.checked ? "on" : "off");
  drawSymbols();
  if (current()) show();
});
$("tm-again").addEventListener("click", () => {
  solvedCard.hidden = true;
  game.hidden = true;
  setup.hidden = false;
  history.replaceState(null, "", location.pathname);
});
game.querySelector(".tm-tools").addEventListener("click", (event) => {
  const button = event.target.closest("[data-tool]");
  if (button) tool(button.dataset.tool);
});
document.addEventListener("keydown", onKey);
watchConsentChoice($("consent-checkbox"), $("consent-change"));

const resumeId = location.hash.slice(1);
if (/^[0-9a-f-]{36}$/.test(resumeId) && document.body.dataset.hasPlayer === "true") {
  puzzlesApi.get(resumeId).then(
    (data) => (data.kind === "2mino" ? open(data) : history.replaceState(null, "", location.pathname)),
    () => history.replaceState(null, "", location.pathname),
  );
}

// For tests and curious players: the page's current attempt.
window.twominoPage = { current, settled: () => session.settled() };
