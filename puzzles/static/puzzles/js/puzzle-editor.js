// "Make your own": enter a KenKen (cages) or a Futoshiki (givens and signs), check it on
// the server (solutions: none, one or many, and its level), play it, save it to a file or
// load one. The file is the definition the API takes, with "format" and "version".
import { ensurePlayer } from "../../games/js/consent.js";
import { request } from "../../games/js/api.js";
import { OP_LABEL } from "./puzzle-grid.js";

const FORMAT = "decodoku-lab-puzzle";
const VERSION = 1;
// The kinds and sizes the editor draws.
const SIZES = { kenken: [3, 9], "kenken-multiply": [3, 9], futoshiki: [4, 9], "futoshiki-adjacent": [4, 9] };
// Cages (the KenKen kinds) or givens (the Futoshiki kinds); signs or bars between cells.
const hasCages = (kind) => kind === "kenken" || kind === "kenken-multiply";
const hasBars = (kind) => kind === "futoshiki-adjacent";
// The kinds and sizes a puzzle file may hold (as the API takes them): a file the editor
// does not draw (a sub-kind, a grid above 9 x 9) is checked and played as it is.
const FILE_SIZES = {
  kenken: [3, 9],
  "kenken-multiply": [3, 9],
  futoshiki: [4, 10],
  "futoshiki-adjacent": [4, 16],
};
const TITLES = {
  kenken: "KenKen",
  "kenken-multiply": "KenKen (multiplication only)",
  futoshiki: "Futoshiki",
  "futoshiki-adjacent": "Adjacent Futoshiki",
};
const FILE_MAX_BYTES = 100_000;
const $ = (id) => document.getElementById(id);
const key = (r, c) => `${r},${c}`;

const state = {
  kind: "kenken",
  size: 4,
  cages: [], // {cells: [[r, c]], op, target}
  givens: new Map(), // "r,c" -> value
  relations: [], // {a: [r, c], b: [r, c], op}
  bars: [], // {a: [r, c], b: [r, c]}: a and b are one apart (Adjacent Futoshiki)
  selected: new Set(),
  checked: null, // the definition (as text) last checked with one solution
  file: null, // a loaded puzzle the editor does not draw: its definition, used as it is
};

function definition() {
  if (state.file) return { ...state.file };
  const base = { kind: state.kind, size: state.size };
  if (hasCages(state.kind)) {
    const cages = state.cages.map((cage) => ({ ...cage, cells: cage.cells.map((c) => [...c]) }));
    return state.kind === "kenken" ? { ...base, cages } : { ...base, cages, operations: ["x"] };
  }
  const givens = [...state.givens].map(([k, v]) => [...k.split(",").map(Number), v]);
  if (hasBars(state.kind)) {
    return { ...base, givens, bars: state.bars.map((bar) => ({ a: [...bar.a], b: [...bar.b] })), mode: "adjacent" };
  }
  return { ...base, givens, relations: state.relations.map((rel) => ({ ...rel })) };
}

// The cage's label as play draws it (48\u00d7, 3\u2212, 2\u00f7).
function clue(cage) {
  return `${cage.target}${OP_LABEL[cage.op] ?? cage.op}`;
}

function cageOf(r, c) {
  return state.cages.findIndex((cage) => cage.cells.some(([a, b]) => a === r && b === c));
}

function signBetween(a, b) {
  const found = state.relations.find(
    (rel) => rel.a[0] === a[0] && rel.a[1] === a[1] && rel.b[0] === b[0] && rel.b[1] === b[1],
  );
  return found ? found.op : "";
}

function barBetween(a, b) {
  const same = (x, y) => x[0] === y[0] && x[1] === y[1];
  return state.bars.some((bar) => (same(bar.a, a) && same(bar.b, b)) || (same(bar.a, b) && same(bar.b, a)));
}

function cellLabel(r, c) {
  const where = `Row ${r + 1}, column ${c + 1}`;
  if (hasBars(state.kind)) {
    const given = state.givens.get(key(r, c));
    return [
      `${given || ""}`,
      where,
      given ? `given ${given}` : "empty",
      barBetween([r, c], [r, c + 1]) && "one apart from the cell to its right",
      barBetween([r, c], [r + 1, c]) && "one apart from the cell below",
    ]
      .filter(Boolean)
      .join(", ");
  }
  if (hasCages(state.kind)) {
    const n = cageOf(r, c);
    if (n < 0) return `${where}, in no cage`;
    return `${where}, cage ${n + 1}: ${clue(state.cages[n])}`;
  }
  const given = state.givens.get(key(r, c));
  const right = signBetween([r, c], [r, c + 1]);
  const below = signBetween([r, c], [r + 1, c]);
  // The name starts with what the cell shows (a given, then its signs' characters).
  const shown = `${given || ""}${right}${below === "<" ? "\u2227" : below === ">" ? "\u2228" : ""}`;
  return [
    shown,
    where,
    given ? `given ${given}` : "empty",
    right && `${right} the cell to its right`,
    below && `${below} the cell below`,
  ]
    .filter(Boolean)
    .join(", ");
}

function render() {
  const grid = $("pz-make-grid");
  grid.replaceChildren();
  const note = $("pz-make-file-note");
  grid.hidden = Boolean(state.file);
  note.hidden = !state.file;
  if (state.file) {
    const { kind, size } = state.file;
    note.textContent = `From the file: a ${size} \u00d7 ${size} ${TITLES[kind]}, which this editor does not draw. Check and Play use it as it is; Empty grid starts a new one here.`;
    $("pz-make-kenken-tools").hidden = true;
    $("pz-make-futoshiki-tools").hidden = true;
    $("pz-make-play").disabled = state.checked !== JSON.stringify(definition());
    return;
  }
  grid.style.setProperty("--n", String(state.size));
  grid.dataset.kind = state.kind;
  for (let r = 0; r < state.size; r += 1) {
    for (let c = 0; c < state.size; c += 1) {
      const cell = document.createElement("button");
      cell.type = "button";
      cell.className = "pz-make-cell";
      cell.dataset.cell = key(r, c);
      cell.setAttribute("aria-pressed", String(state.selected.has(key(r, c))));
      cell.setAttribute("aria-label", cellLabel(r, c));
      if (hasCages(state.kind)) {
        const n = cageOf(r, c);
        if (n >= 0) {
          cell.classList.add("pz-make-caged");
          cell.style.setProperty("--hue", String((n * 67) % 360));
          const cage = state.cages[n];
          const [fr, fc] = cage.cells.reduce((a, b) => (a[0] * 10 + a[1] <= b[0] * 10 + b[1] ? a : b));
          if (fr === r && fc === c) cell.textContent = clue(cage);
        }
        if (c + 1 < state.size && cageOf(r, c + 1) !== n) cell.classList.add("pz-make-edge-right");
        if (r + 1 < state.size && cageOf(r + 1, c) !== n) cell.classList.add("pz-make-edge-below");
      } else {
        const given = state.givens.get(key(r, c));
        const bars = hasBars(state.kind);
        const right = bars ? (barBetween([r, c], [r, c + 1]) ? "|" : "") : signBetween([r, c], [r, c + 1]);
        const below = bars ? (barBetween([r, c], [r + 1, c]) ? "\u2014" : "") : signBetween([r, c], [r + 1, c]);
        const value = document.createElement("span");
        value.textContent = given ? String(given) : "";
        cell.append(value);
        if (right) {
          const sign = document.createElement("span");
          sign.className = "pz-make-sign-right";
          sign.textContent = right;
          cell.append(sign);
        }
        if (below) {
          const sign = document.createElement("span");
          sign.className = "pz-make-sign-below";
          sign.textContent = bars ? below : below === "<" ? "\u2227" : "\u2228";
          cell.append(sign);
        }
      }
      grid.append(cell);
    }
  }
  $("pz-make-kenken-tools").hidden = !hasCages(state.kind);
  $("pz-make-futoshiki-tools").hidden = hasCages(state.kind);
  // A product-only KenKen takes x cages (and = for one cell); Adjacent has bars, not signs.
  for (const option of $("pz-make-op").options) option.disabled = state.kind === "kenken-multiply" && option.value !== "x";
  if (state.kind === "kenken-multiply") $("pz-make-op").value = "x";
  const bars = hasBars(state.kind);
  $("pz-make-sign-label").hidden = bars;
  $("pz-make-sign").hidden = bars;
  $("pz-make-bar").hidden = !bars;
  $("pz-make-where-text").textContent = bars ? "Bar with the cell" : "Sign with the cell";
  $("pz-make-play").disabled = state.checked !== JSON.stringify(definition());
}

function fillSizes() {
  const select = $("pz-make-size");
  const [low, high] = SIZES[state.kind];
  select.replaceChildren();
  for (let n = low; n <= high; n += 1) select.append(new Option(`${n} \u00d7 ${n}`, String(n)));
  state.size = Math.min(Math.max(state.size, low), high);
  select.value = String(state.size);
}

function reset({ kind = state.kind, size = state.size } = {}) {
  state.file = null;
  state.kind = kind;
  state.size = size;
  state.cages = [];
  state.givens = new Map();
  state.relations = [];
  state.bars = [];
  state.selected.clear();
  $("pz-make-kind").value = kind;
  fillSizes();
  say("");
  render();
}

function say(text, { error = false } = {}) {
  const verdict = $("pz-make-verdict");
  verdict.textContent = text;
  verdict.classList.toggle("pz-make-error", error);
}

function edited() {
  state.checked = null;
  say("");
  render();
}

function selectedCells() {
  return [...state.selected].map((k) => k.split(",").map(Number));
}

function makeCage() {
  const cells = selectedCells();
  const target = Number($("pz-make-target").value);
  if (!cells.length) return say("Select the cells of the cage first.", { error: true });
  if (!Number.isInteger(target) || target < 1) return say("Give the cage a target of 1 or more.", { error: true });
  const op = cells.length === 1 ? "=" : $("pz-make-op").value;
  // A cell belongs to one cage: the cages it was in are taken apart.
  const taken = new Set(cells.map(([r, c]) => cageOf(r, c)).filter((n) => n >= 0));
  state.cages = state.cages.filter((_, n) => !taken.has(n));
  state.cages.push({ cells, op, target });
  state.selected.clear();
  edited();
}

function removeCages() {
  const taken = new Set(selectedCells().map(([r, c]) => cageOf(r, c)).filter((n) => n >= 0));
  state.cages = state.cages.filter((_, n) => !taken.has(n));
  state.selected.clear();
  edited();
}

function giveNumber() {
  const value = Number($("pz-make-value").value);
  if (!Number.isInteger(value) || value < 0 || value > state.size) {
    return say(`A given is 1 to ${state.size} (0 empties the cell).`, { error: true });
  }
  for (const [r, c] of selectedCells()) {
    if (value) state.givens.set(key(r, c), value);
    else state.givens.delete(key(r, c));
  }
  state.selected.clear();
  edited();
}

// The selected cell and its neighbour on the chosen side, or null (and a message).
function selectedPair(what) {
  const cells = selectedCells();
  if (cells.length !== 1) {
    say(`Select one cell, then set its ${what}.`, { error: true });
    return null;
  }
  const [r, c] = cells[0];
  const below = $("pz-make-sign-where").value === "below";
  const other = below ? [r + 1, c] : [r, c + 1];
  if (other[0] >= state.size || other[1] >= state.size) {
    say("That cell has no neighbour on that side.", { error: true });
    return null;
  }
  return [[r, c], other];
}

// Puts a bar between the selected cell and its neighbour, or takes it away.
function toggleBar() {
  const pair = selectedPair("bar");
  if (!pair) return;
  const [cell, other] = pair;
  if (barBetween(cell, other)) {
    const same = (x, y) => x[0] === y[0] && x[1] === y[1];
    state.bars = state.bars.filter(
      (bar) => !((same(bar.a, cell) && same(bar.b, other)) || (same(bar.a, other) && same(bar.b, cell))),
    );
  } else {
    state.bars.push({ a: cell, b: other });
  }
  edited();
}

function setSign() {
  const pair = selectedPair("sign");
  if (!pair) return;
  const [[r, c], other] = pair;
  const op = $("pz-make-sign-op").value;
  const same = (x, y) => x[0] === y[0] && x[1] === y[1];
  state.relations = state.relations.filter(
    (rel) => !((same(rel.a, [r, c]) && same(rel.b, other)) || (same(rel.b, [r, c]) && same(rel.a, other))),
  );
  if (op) state.relations.push({ a: [r, c], b: other, op });
  edited();
}

// What "no solution" means for each kind: what the player can change.
const NO_SOLUTION = {
  kenken: "No solution: some cage cannot hold.",
  "kenken-multiply": "No solution: some cage cannot hold.",
  futoshiki: "No solution: some given or sign cannot hold.",
  "futoshiki-adjacent":
    "No solution: two neighbours without a bar may never differ by 1, and these bars and givens leave no way to fill the grid. Put a bar between the cells that differ by 1.",
};

// What narrows a puzzle with more than one solution down, per kind.
const TO_ADD = {
  kenken: "split a cage or change its target",
  "kenken-multiply": "split a cage or change its target",
  futoshiki: "add a given or a sign",
  "futoshiki-adjacent": "add a given or a bar",
};

const VERDICTS = {
  one: (body) => `One solution: a good puzzle, level ${body.level} (${body.level_rank} of 5).`,
  none: () => NO_SOLUTION[state.kind] || NO_SOLUTION.futoshiki,
  many: () => `More than one solution: ${TO_ADD[state.kind] || TO_ADD.futoshiki}.`,
  unknown: (body) => `Undecided: the checker stopped after ${body.max_nodes} search steps.`,
};

async function check() {
  const button = $("pz-make-check");
  button.disabled = true;
  say("Checking\u2026");
  try {
    await ensurePlayer($("consent-checkbox"));
    const sent = definition();
    const body = await request("POST", "puzzles/check/", sent);
    state.checked = body.solutions === "one" ? JSON.stringify(sent) : null;
    say(VERDICTS[body.solutions](body));
    $("pz-make-verdict").dataset.solutions = body.solutions;
  } catch (error) {
    state.checked = null;
    say(error.message || "Could not check the puzzle.", { error: true });
  } finally {
    button.disabled = false;
    render();
  }
}

async function play() {
  try {
    await ensurePlayer($("consent-checkbox"));
    const attempt = await request("POST", "puzzles/own/", definition());
    // The page opens the attempt named after # in its address.
    location.hash = attempt.id;
    location.reload();
  } catch (error) {
    say(error.message || "Could not start the puzzle.", { error: true });
  }
}

const FILE_FIELDS = ["kind", "size", "cages", "operations", "givens", "relations", "bars", "mode"];

function download(puzzle) {
  const data = { format: FORMAT, version: VERSION };
  for (const field of FILE_FIELDS) if (field in puzzle) data[field] = puzzle[field];
  const text = JSON.stringify(data, null, 1);
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  link.download = `${puzzle.kind}-${puzzle.size}x${puzzle.size}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

function save() {
  download(definition());
}

// The puzzle being played (its attempt is named after # in the address), as a file.
async function saveAttemptPuzzle() {
  const button = $("pz-file-save");
  try {
    const attempt = await request("GET", `puzzles/${location.hash.slice(1)}/`);
    const sizes = FILE_SIZES[attempt.kind];
    // A file this page could not read back is not offered.
    if (!sizes || attempt.size < sizes[0] || attempt.size > sizes[1]) {
      button.textContent = "Puzzle files hold KenKen, Futoshiki and their variants only";
      button.disabled = true;
      return;
    }
    download({ ...attempt.puzzle, kind: attempt.kind, size: attempt.size });
  } catch (error) {
    button.textContent = `Save this puzzle as a file (${error.message || "failed"})`;
  }
}

function followGame() {
  const game = $("pz-game");
  const file = $("pz-file");
  if (!game || !file) return;
  // Shown with the game; saveAttemptPuzzle says when a puzzle cannot go in a file.
  const show = () => {
    file.hidden = game.hidden;
  };
  new MutationObserver(show).observe(game, { attributes: true, attributeFilter: ["hidden"] });
  show();
  $("pz-file-save").addEventListener("click", saveAttemptPuzzle);
}

function readFile(data) {
  if (!data || typeof data !== "object" || data.format !== FORMAT) {
    throw new Error(`Not a puzzle file (its "format" is not "${FORMAT}").`);
  }
  if (data.version !== VERSION) throw new Error(`This page reads puzzle files of version ${VERSION}.`);
  if (!(data.kind in FILE_SIZES)) {
    throw new Error("A puzzle file holds a KenKen, a Futoshiki or one of their variants.");
  }
  const [low, high] = FILE_SIZES[data.kind];
  if (!Number.isInteger(data.size) || data.size < low || data.size > high) {
    throw new Error(`A ${data.kind} is ${low} to ${high} cells wide.`);
  }
  const drawn = SIZES[data.kind];
  if (!drawn || data.size > drawn[1]) {
    // Not drawn here: the server checks every field when the puzzle is checked.
    reset();
    state.file = {};
    for (const field of FILE_FIELDS) if (field in data) state.file[field] = data[field];
    return;
  }
  reset({ kind: data.kind, size: data.size });
  if (hasCages(data.kind)) {
    state.cages = Array.isArray(data.cages) ? data.cages : [];
  } else {
    if (hasBars(data.kind)) state.bars = Array.isArray(data.bars) ? data.bars : [];
    for (const given of Array.isArray(data.givens) ? data.givens : []) {
      if (Array.isArray(given) && given.length === 3) state.givens.set(key(given[0], given[1]), given[2]);
    }
    state.relations = Array.isArray(data.relations) ? data.relations : [];
  }
}

async function load(event) {
  const [file] = event.target.files;
  event.target.value = "";
  if (!file) return;
  try {
    if (file.size > FILE_MAX_BYTES) throw new Error("The file is too large for a puzzle.");
    readFile(JSON.parse(await file.text()));
  } catch (error) {
    say(error instanceof SyntaxError ? "The file is not JSON." : error.message, { error: true });
    return;
  }
  render();
  await check();
}

function toggleCell(event) {
  const cell = event.target.closest("[data-cell]");
  if (!cell) return;
  const k = cell.dataset.cell;
  if (state.selected.has(k)) state.selected.delete(k);
  else state.selected.add(k);
  render();
  $("pz-make-grid").querySelector(`[data-cell="${k}"]`)?.focus();
}

export function setUpEditor() {
  if (!$("pz-make")) return;
  $("pz-make-kind").addEventListener("change", (e) => reset({ kind: e.target.value }));
  $("pz-make-size").addEventListener("change", (e) => reset({ size: Number(e.target.value) }));
  $("pz-make-clear").addEventListener("click", () => reset());
  $("pz-make-grid").addEventListener("click", toggleCell);
  $("pz-make-cage").addEventListener("click", makeCage);
  $("pz-make-uncage").addEventListener("click", removeCages);
  $("pz-make-give").addEventListener("click", giveNumber);
  $("pz-make-sign").addEventListener("click", setSign);
  $("pz-make-bar").addEventListener("click", toggleBar);
  $("pz-make-check").addEventListener("click", check);
  $("pz-make-play").addEventListener("click", play);
  $("pz-make-save").addEventListener("click", save);
  $("pz-make-load").addEventListener("change", load);
  reset();
  followGame();
}

setUpEditor();
