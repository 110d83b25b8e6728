// The puzzle page: start a puzzle, play it with keys or touch, record every action.
//
// Actions go to the server one at a time through the shared AttemptSession
// (puzzle-session.js). What the page does on its own is built from recorded actions
// too: redo sends the entry, erasure or candidate marks the undo took back; filling
// every candidate and clearing a written number from its row and column send
// candidate marks; restart sends erasures.

import { ApiError, request } from "../../games/js/api.js";
import { ensurePlayer, watchConsentChoice } from "../../games/js/consent.js";
import { puzzlesApi } from "./puzzle-api.js";
import { Grid } from "./puzzle-grid.js";
import { brokenRules, explainHint, peers } from "./puzzle-rules.js";
import { AttemptSession, Clock, formatTime } from "./puzzle-session.js";

const $ = (id) => document.getElementById(id);
const kinds = JSON.parse($("pz-kinds").textContent);
const setup = $("pz-setup");
const game = $("pz-game");
const solvedCard = $("pz-solved");
const overCard = $("pz-over");
const message = $("pz-message");
const announce = $("pz-announce");
const pad = $("pz-pad");
const pencilButton = game.querySelector('[data-tool="pencil"]');
const highlightBox = $("pz-highlight");
const HIGHLIGHT_KEY = "puzzles.highlight";
const touch = window.matchMedia("(pointer: coarse)").matches || navigator.maxTouchPoints > 0;

let grid = null;
let pencil = false;
let hint = null;
// One thing the player does may be several actions (a number and the marks it clears,
// every candidate, a restart): each action sent carries its group (a page-only,
// non-enumerable payload field), and undo and redo take back or do again a whole group.
let groupCount = 0;
let undoGroups = []; // { id, count } of the actions the engine can still undo
let redoStack = []; // per undone group, what its undos took back: [{ cell, entry, marks }]
const newGroup = () => (groupCount += 1);
const clock = new Clock($("pz-timer"));
// The engine names lines from 0 ("row 0"); the page counts from 1.
const lineName = (unit) => unit.replace(/\d+/, (k) => String(Number(k) + 1));
const HINT_TEXT = {
  single_candidate: (h) => `Row ${h.cell[0] + 1}, column ${h.cell[1] + 1} can only hold ${h.value}.`,
  single_place: (h) => `In ${lineName(h.unit)}, ${h.value} fits only at row ${h.cell[0] + 1}, column ${h.cell[1] + 1}.`,
  no_candidate: (h) => `Row ${h.cell[0] + 1}, column ${h.cell[1] + 1} has no possible number left: something is wrong.`,
  // Hints of the technique ladder carry their own text (cells named (row, column) from 1):
  // the first step and the number it leads to; every step is listed under the message.
  technique: (h) => {
    const more = h.steps.length - 1;
    const rest = more ? ` (${more} more step${more === 1 ? "" : "s"} below.)` : "";
    return `${h.steps[0].text}${rest}${h.then ? ` ${h.then}` : ""}`;
  },
  wrong_entry: (h) => h.text,
  stuck: (h) => h.text,
};
const applyRow = $("pz-hint-apply-row");

function say(text) {
  message.textContent = text;
}

function tell(text) {
  announce.textContent = text;
}

const session = new AttemptSession({
  say,
  onAnswer: answered,
  onReload: () => {
    redoStack = [];
    undoGroups = [];
    show();
  },
  onFailure: (error) => {
    say(error instanceof ApiError ? error.message : error.message || "Something went wrong.");
  },
});
const current = () => session.attempt;

function kindInfo(name) {
  return kinds.find((k) => k.kind === name) || kinds[0];
}

// The menus offer, per size, only the levels the generator was measured to deliver
// (GET /api/v1/puzzles/levels/; the page gets the same table with its kinds).
function offeredSizes(info) {
  return Object.keys(info.offered || {})
    .map(Number)
    .sort((a, b) => a - b);
}

function fillChoices({ keepSize = false } = {}) {
  const info = kindInfo($("pz-kind").value);
  const select = $("pz-size");
  const sizes = offeredSizes(info);
  const before = Number(select.value);
  const size = keepSize && sizes.includes(before) ? before : sizes.includes(info.default_size) ? info.default_size : sizes[0];
  select.replaceChildren(...sizes.map((n) => new Option(`${n} \u00d7 ${n}`, String(n), n === size, n === size)));
  fillLevels();
}

function fillLevels() {
  const info = kindInfo($("pz-kind").value);
  const offer = (info.offered || {})[$("pz-size").value] || { levels: [], any: false };
  const levels = $("pz-difficulty");
  const chosen = levels.value;
  levels.replaceChildren();
  if (offer.any) levels.append(new Option("any", ""));
  for (const level of offer.levels) levels.append(new Option(level, level, false, level === chosen));
}

// A menu changed: the player asks for what the menus say, not for an ID typed or
// opened from a link before.
function menusChanged() {
  $("pz-id").value = "";
}

function highlighting() {
  return highlightBox.checked;
}

function broken() {
  const attempt = current();
  return highlighting() ? brokenRules(attempt.puzzle, attempt.state.entries) : new Map();
}

function show() {
  const attempt = current();
  grid.show(attempt.state, {
    broken: broken(),
    hint: hint && Array.isArray(hint.cell) ? hint : null,
    solution: attempt.status === "abandoned" ? attempt.solution : null,
  });
  markHintCells();
  game.querySelector('[data-tool="redo"]').disabled = redoStack.length === 0;
}

// A ladder hint outlines the cells its first step looks at and marks those it removes from.
function markHintCells() {
  for (const cell of $("pz-board").querySelectorAll(".pz-hint-cause, .pz-hint-removes")) {
    cell.classList.remove("pz-hint-cause", "pz-hint-removes");
  }
  if (!hint || hint.kind !== "technique") return;
  for (const [r, c] of hint.cells || []) grid.cells[r]?.[c]?.classList.add("pz-hint-cause");
  for (const { cell } of hint.removes || []) grid.cells[cell[0]]?.[cell[1]]?.classList.add("pz-hint-removes");
}

// The candidate marks a ladder hint removes that the player has marked: [{ cell, value }].
function marksToRemove() {
  if (!hint || hint.kind !== "technique") return [];
  const { entries, marks } = current().state;
  const found = [];
  for (const { cell, values } of hint.removes || []) {
    const [r, c] = cell;
    if (entries[r][c]) continue;
    for (const value of values) if (marks[r][c] & (1 << (value - 1))) found.push({ cell: [r, c], value });
  }
  return found;
}

function showApply() {
  applyRow.hidden = !session.active || marksToRemove().length === 0;
  const steps = $("pz-hint-steps");
  const list = $("pz-hint-steps-list");
  const many = hint && hint.kind === "technique" && hint.steps.length > 1;
  steps.hidden = !many;
  list.replaceChildren(
    ...(many ? hint.steps : []).map((step) => {
      const item = document.createElement("li");
      item.textContent = step.text;
      return item;
    }),
  );
}

// Takes the hint's removals off the player's marks: one group, undone at once.
function applyHint() {
  const removals = marksToRemove();
  if (!removals.length) return;
  const group = newGroup();
  redoStack = [];
  const kept = hint;
  sendManyIn(
    group,
    removals.map(({ cell, value }) => ({ kind: "candidate", payload: { cell, value } })),
  );
  session.later(() => {
    hint = kept;
    show();
    applyRow.hidden = true;
    say(`${removals.length} candidate mark${removals.length === 1 ? "" : "s"} removed.`);
  });
}

// The puzzle's ID during play (its description: no seed, no answer), to copy or link.
function showLiveId(attempt) {
  const box = $("pz-live-id");
  const id = attempt.puzzle_id;
  box.hidden = !id;
  if (!id) return;
  $("pz-live-id-text").textContent = id;
  $("pz-live-id-link").href = `${location.pathname}?id=${encodeURIComponent(id)}`;
}

async function copyLiveId() {
  const id = $("pz-live-id-text").textContent;
  try {
    await navigator.clipboard.writeText(id);
    say("Puzzle ID copied.");
  } catch {
    // No clipboard (an insecure page, a refused permission): select the ID to copy by hand.
    const range = document.createRange();
    range.selectNodeContents($("pz-live-id-text"));
    window.getSelection().removeAllRanges();
    window.getSelection().addRange(range);
    say("Select and copy the puzzle ID shown.");
  }
}

function buildPad(size) {
  pad.replaceChildren();
  for (let v = 1; v <= size; v += 1) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button pz-digit";
    button.textContent = String(v);
    button.dataset.value = String(v);
    pad.append(button);
  }
}

// A puzzle's ID: kind, size, level asked for and seed ("kenken-5-hard-1234"): the
// arguments that generate it again. The API gives the seed once the attempt has ended
// (before, it would give the answer away), so a finished puzzle shows its ID and a link
// that opens the same puzzle. The page picks the seed of a new puzzle itself, below
// 2^53, so that JavaScript reads it exactly; the level asked for is remembered in the
// browser ("any" when none was).
const LEVEL_ASKED = "puzzles.asked.";
const puzzleId = (attempt) => {
  const level = localStorage.getItem(LEVEL_ASKED + attempt.id) || attempt.difficulty;
  return `${attempt.kind}-${attempt.size}-${level}-${attempt.seed}`;
};

function newSeed() {
  const [high, low] = crypto.getRandomValues(new Uint32Array(2));
  return (high % 2 ** 21) * 2 ** 32 + low; // 53 random bits
}

function readId(text) {
  // The kind may hold a hyphen itself ("futoshiki-adjacent").
  const match = /^([a-z]+(?:-[a-z]+)?)-(\d+)-([a-z]+)-(\d+)$/.exec(text.trim().toLowerCase());
  if (!match) return null;
  const [, kind, size, difficulty, seed] = match;
  const info = kinds.find((k) => k.kind === kind);
  if (!info || Number(size) < info.min_size || Number(size) > info.max_size) return null;
  return { kind, size: Number(size), difficulty: difficulty === "any" ? "" : difficulty, seed: Number(seed) };
}

function showShare(attempt) {
  for (const share of document.querySelectorAll(".pz-share")) {
    share.hidden = !Number.isSafeInteger(attempt.seed);
    if (share.hidden) continue;
    const id = puzzleId(attempt);
    share.querySelector(".pz-share-id").textContent = id;
    share.querySelector(".pz-share-link").href = `${location.pathname}?id=${encodeURIComponent(id)}`;
  }
}

function finished() {
  const attempt = current();
  game.classList.add("pz-ended");
  showShare(attempt);
  if (attempt.status === "solved") {
    clock.stop(attempt.solve_seconds || 0);
    $("pz-solved-text").textContent = `You solved this ${kindInfo(attempt.kind).title} (${attempt.size} \u00d7 ${attempt.size}, ${attempt.difficulty}) in ${formatTime(attempt.solve_seconds || 0)}.`;
    solvedCard.hidden = false;
    $("pz-solved-title").focus();
  } else {
    clock.stop();
    say("");
    overCard.hidden = false;
    $("pz-over-title").focus();
  }
}

function open(data) {
  session.attempt = data;
  history.replaceState(null, "", `#${data.id}`);
  setup.hidden = true;
  solvedCard.hidden = true;
  overCard.hidden = true;
  game.hidden = false;
  game.classList.remove("pz-ended");
  hint = null;
  applyRow.hidden = true;
  $("pz-hint-steps").hidden = true;
  redoStack = [];
  undoGroups = [];
  showLiveId(data);
  $("pz-title").textContent = `${kindInfo(data.kind).title} ${data.size} \u00d7 ${data.size} \u00b7 ${data.difficulty}`;
  grid = new Grid($("pz-board"), {
    kind: data.kind,
    size: data.size,
    puzzle: data.puzzle,
    onMark: (value) => write(value),
  });
  buildPad(data.size);
  setPencil(false);
  say("");
  tell("");
  show();
  if (data.status === "active") {
    clock.start(data.started_at);
    grid.select(0, 0, true);
  } else {
    finished();
  }
}

function setPencil(on) {
  pencil = on;
  pencilButton.setAttribute("aria-pressed", String(on));
  $("pz-mode-label").textContent = on ? "Candidates" : "Pen";
  game.classList.toggle("pz-pencil", on);
}

const cellName = ([r, c]) => `Row ${r + 1}, column ${c + 1}`;

// What the player hears after an entry or an erasure: the cell, and the rules it breaks.
function announceCell(cell) {
  const attempt = current();
  const value = attempt.state.entries[cell[0]][cell[1]];
  const reasons = highlighting() ? brokenRules(attempt.puzzle, attempt.state.entries).get(`${cell[0]},${cell[1]}`) || [] : [];
  const twice = reasons.map((text) => text.replace(/^(\d+) repeated in/, "$1 twice in"));
  tell([`${cellName(cell)}: ${value || "empty"}`, ...twice].join("; "));
}

function answered(kind, result, { payload, before }) {
  const attempt = current();
  if (kind === "hint") {
    hint = result.hint;
    if (hint && hint.text) {
      say(HINT_TEXT[hint.kind] ? HINT_TEXT[hint.kind](hint) : hint.text);
    } else if (hint) {
      // Why, from the simple reasons the page can read off the grid (as in
      // "the 3 minus cage on 2 cells can only be 1,4"), when they cover the hint.
      const hintForPage = { ...hint, unit: hint.unit ? lineName(hint.unit) : hint.unit };
      const why = explainHint(attempt.puzzle, attempt.state.entries, hintForPage);
      say(`${HINT_TEXT[hint.kind](hint)}${why ? ` Why: ${why}.` : ""}`);
    } else {
      say("No hint: the grid is full.");
    }
    show();
    showApply();
    const focus = hint && (Array.isArray(hint.cell) ? hint.cell : hint.cells?.[0]);
    if (focus) grid.select(focus[0], focus[1], true);
  } else {
    hint = null;
    applyRow.hidden = true;
    $("pz-hint-steps").hidden = true;
    if (kind === "undo" && result.cell) {
      const [r, c] = result.cell;
      payload.taken?.push({ cell: [r, c], entry: before.entries[r][c], marks: before.marks[r][c] });
    } else if (kind !== "undo") {
      const top = undoGroups.at(-1);
      if (top && top.id === payload.group) top.count += 1;
      else undoGroups.push({ id: payload.group, count: 1 });
    }
    if (kind !== "candidate") say("");
    show();
    if (kind === "entry" || kind === "erase" || kind === "undo") announceCell(payload.cell || result.cell);
  }
  if (attempt.status !== "active") finished();
}

function sendIn(group, kind, payload) {
  Object.defineProperty(payload, "group", { value: group, enumerable: false });
  return session.send(kind, payload);
}

// Many actions of one group ([{ kind, payload }]) in one request.
function sendManyIn(group, items) {
  for (const { payload } of items) {
    Object.defineProperty(payload, "group", { value: group, enumerable: false });
  }
  return session.sendMany(items);
}

// Actions the player chose (not a redo): the redo stack no longer applies.
function act(kind, payload, group = newGroup()) {
  redoStack = [];
  return sendIn(group, kind, payload);
}

// Candidate marks of `value` in the cell's row and column are taken off once it is written.
function clearPeers(cell, value, group) {
  session.later(() => {
    const attempt = current();
    if (!session.active || attempt.state.entries[cell[0]][cell[1]] !== value) return;
    const bit = 1 << (value - 1);
    const items = [];
    for (const [r, c] of peers(attempt.puzzle, attempt.size, cell[0], cell[1])) {
      if (!attempt.state.entries[r][c] && attempt.state.marks[r][c] & bit) {
        items.push({ kind: "candidate", payload: { cell: [r, c], value } });
      }
    }
    sendManyIn(group, items);
  });
}

function write(value) {
  const attempt = current();
  const [r, c] = grid.selected;
  if (grid.isGiven(r, c)) {
    say("That number is given.");
    return;
  }
  if (attempt.state.entries[r][c] !== value) {
    const group = newGroup();
    act("entry", { cell: [r, c], value }, group);
    clearPeers([r, c], value, group);
  }
}

function enter(value) {
  const [r, c] = grid.selected;
  if (pencil && !grid.isGiven(r, c)) act("candidate", { cell: [r, c], value });
  else write(value);
}

function erase() {
  const [r, c] = grid.selected;
  if (!grid.isGiven(r, c) && current().state.entries[r][c]) act("erase", { cell: [r, c] });
}

// Takes back the last group of actions (one undo when the page knows none: after a reload).
function undo() {
  const group = undoGroups.pop();
  const taken = [];
  redoStack.push(taken);
  // One request for the whole group. Each undo notes the state before its batch, which
  // is the state before the group was taken back: what redo restores.
  const items = [];
  for (let i = 0; i < (group ? group.count : 1); i += 1) {
    const payload = {};
    Object.defineProperty(payload, "taken", { value: taken, enumerable: false });
    items.push({ kind: "undo", payload });
  }
  session.sendMany(items);
}

// Does again what the last undo took back, after the actions still queued.
function redo() {
  session.later(() => {
    const taken = redoStack.pop();
    if (!taken || !taken.length) {
      say("Nothing to redo.");
      return;
    }
    const group = newGroup();
    const state = current().state;
    const entries = state.entries.map((row) => [...row]);
    const marks = state.marks.map((row) => [...row]);
    // The undos took back the group's actions last first: do them again first first.
    const items = [];
    for (const item of [...taken].reverse()) {
      const [r, c] = item.cell;
      if (entries[r][c] !== item.entry) {
        if (item.entry) items.push({ kind: "entry", payload: { cell: [r, c], value: item.entry } });
        else items.push({ kind: "erase", payload: { cell: [r, c] } });
        entries[r][c] = item.entry;
      }
      for (let v = 1; v <= current().size; v += 1) {
        const bit = 1 << (v - 1);
        if ((marks[r][c] & bit) !== (item.marks & bit)) {
          items.push({ kind: "candidate", payload: { cell: [r, c], value: v } });
        }
      }
      marks[r][c] = item.marks;
    }
    sendManyIn(group, items);
    const [r, c] = taken[taken.length - 1].cell;
    grid.select(r, c, true);
  });
}

// Every empty cell gets the candidates its row and column leave (marks only added).
function fillCandidates() {
  const attempt = current();
  const n = attempt.size;
  const { entries, marks } = attempt.state;
  const group = newGroup();
  redoStack = [];
  const items = [];
  for (let r = 0; r < n; r += 1) {
    for (let c = 0; c < n; c += 1) {
      if (entries[r][c]) continue;
      const taken = new Set(peers(attempt.puzzle, n, r, c).map(([pr, pc]) => entries[pr][pc]));
      for (let v = 1; v <= n; v += 1) {
        if (!taken.has(v) && !(marks[r][c] & (1 << (v - 1)))) {
          items.push({ kind: "candidate", payload: { cell: [r, c], value: v } });
        }
      }
    }
  }
  sendManyIn(group, items);
  session.later(() => say("Every candidate left by the rows and columns is marked."));
}

function restart() {
  if (!window.confirm("Start this puzzle again? Every number you wrote is erased.")) return;
  const attempt = current();
  const group = newGroup();
  redoStack = [];
  const items = [];
  attempt.state.entries.forEach((row, r) =>
    row.forEach((value, c) => {
      if (value && !grid.isGiven(r, c)) items.push({ kind: "erase", payload: { cell: [r, c] } });
    }),
  );
  sendManyIn(group, items);
  session.later(() => say("Started again."));
}

function giveUp() {
  if (!window.confirm("Give up and see the solution? This attempt ends.")) return;
  session.giveUp().then(() => {
    show();
    finished();
  });
}

function tool(name) {
  if (name === "erase") erase();
  else if (name === "pencil") setPencil(!pencil);
  else if (name === "undo") undo();
  else if (name === "redo") redo();
  else if (name === "fill") fillCandidates();
  else if (name === "hint") session.send("hint");
  else if (name === "restart") restart();
  else if (name === "giveup") giveUp();
  else if (name === "print") window.print();
}

const MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
const KEYS = { p: "pencil", u: "undo", y: "redo", f: "fill", h: "hint" };
let pendingOne = false; // a "1" typed on a grid beyond 9 x 9, waiting for a second digit

function onKey(event) {
  if (game.hidden || !grid || !session.active) return;
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement) return;
  if (event.altKey || event.metaKey) return;
  const key = event.key;
  if (event.ctrlKey) {
    const lower = key.toLowerCase();
    if (lower === "z" || lower === "y") {
      tool(lower === "y" || event.shiftKey ? "redo" : "undo");
      event.preventDefault();
    }
    return;
  }
  // Grids beyond 9 x 9: "1" waits for a second digit ("1" then "2" is 12); any other
  // key writes the 1 first (Enter only that).
  if (pendingOne) {
    pendingOne = false;
    if (/^[0-9]$/.test(key) && 10 + Number(key) <= current().size) {
      enter(10 + Number(key));
      event.preventDefault();
      return;
    }
    enter(1);
    if (key === "Enter") {
      event.preventDefault();
      return;
    }
  }
  if (MOVES[key]) {
    grid.move(...MOVES[key]);
    event.preventDefault();
  } else if (key === "1" && current().size > 9) {
    pendingOne = true;
    say(`1\u2026 (a second digit for 10 to ${current().size}; Enter for 1)`);
    event.preventDefault();
  } else if (/^[1-9]$/.test(key) && Number(key) <= current().size) {
    enter(Number(key));
    event.preventDefault();
  } else if (key === "Backspace" || key === "Delete" || key === "0") {
    erase();
    event.preventDefault();
  } else if (KEYS[key.toLowerCase()]) {
    tool(KEYS[key.toLowerCase()]);
  }
}

// A level offered comes for at least 19 seeds in 20: a miss is tried again with a new seed.
const MENU_TRIES = 3;
const PROGRESS_AFTER_MS = 1000;

async function startFromMenus(kind, size, difficulty) {
  for (let i = 0; i < MENU_TRIES; i += 1) {
    try {
      return await puzzlesApi.start({ kind, size, difficulty, seed: newSeed() });
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== "level_not_reached") throw error;
    }
  }
  throw new Error(`No ${difficulty ? `${difficulty} ` : ""}puzzle of this size could be made just now. Try again, or pick another level or size.`);
}

async function startFromId(wanted) {
  try {
    return await puzzlesApi.start(wanted);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "level_not_reached") throw error;
    throw new Error(`This puzzle ID asks for a ${wanted.difficulty} puzzle that its number does not give. Empty the Puzzle ID box and pick a level from the menus instead.`);
  }
}

// A wait over a second shows that the puzzle is being made.
function showProgress() {
  const progress = $("pz-progress");
  const timer = setTimeout(() => {
    progress.hidden = false;
  }, PROGRESS_AFTER_MS);
  return () => {
    clearTimeout(timer);
    progress.hidden = true;
  };
}

async function startNew(event) {
  event?.preventDefault();
  const button = $("pz-start");
  const form = $("pz-new");
  button.disabled = true;
  delete form.dataset.error;
  say("");
  let done = () => {};
  try {
    // Unanswered: the question is asked, and this start runs again once it is answered.
    await ensurePlayer(startNew);
    done = showProgress();
    const typed = $("pz-id").value.trim();
    if (typed.includes(":")) {
      // A described puzzle (kind:size:description): the server reads and checks it.
      const data = await request("POST", "puzzles/from-id/", { id: typed });
      localStorage.setItem(LEVEL_ASKED + data.id, data.difficulty);
      open(data);
      return;
    }
    const wanted = typed ? readId(typed) : null;
    if (typed && !wanted) throw new Error(`"${typed}" is not a puzzle ID such as kenken-5-hard-1234 or kenken:5:eNp\u2026`);
    const asked = wanted ? wanted.difficulty : $("pz-difficulty").value;
    const data = wanted
      ? await startFromId(wanted)
      : await startFromMenus($("pz-kind").value, Number($("pz-size").value), asked);
    localStorage.setItem(LEVEL_ASKED + data.id, asked || "any");
    open(data);
    if (asked && data.difficulty !== asked) say(`No ${asked} puzzle could be made: this one is ${data.difficulty}.`);
  } catch (error) {
    form.dataset.error = error.message || "Could not start.";
  } finally {
    done();
    button.disabled = false;
  }
}

function backToSetup() {
  solvedCard.hidden = true;
  overCard.hidden = true;
  game.hidden = true;
  setup.hidden = false;
  history.replaceState(null, "", location.pathname);
  $("pz-id").value = "";
  $("pz-kind").focus();
}

$("pz-help").textContent = touch ? $("pz-help").dataset.touch : $("pz-help").dataset.keys;
highlightBox.checked = localStorage.getItem(HIGHLIGHT_KEY) !== "off";
highlightBox.addEventListener("change", () => {
  localStorage.setItem(HIGHLIGHT_KEY, highlightBox.checked ? "on" : "off");
  if (current()) show();
});
$("pz-kind").addEventListener("change", () => {
  menusChanged();
  fillChoices();
});
$("pz-size").addEventListener("change", () => {
  menusChanged();
  fillLevels();
});
$("pz-difficulty").addEventListener("change", menusChanged);
$("pz-hint-apply").addEventListener("click", () => {
  if (session.active) applyHint();
});
$("pz-live-id-copy").addEventListener("click", copyLiveId);
$("pz-new").addEventListener("submit", startNew);
$("pz-again").addEventListener("click", backToSetup);
$("pz-over-again").addEventListener("click", backToSetup);
pad.addEventListener("click", (event) => {
  const button = event.target.closest("[data-value]");
  if (button && session.active) enter(Number(button.dataset.value));
});
game.querySelector(".pz-tools").addEventListener("click", (event) => {
  const button = event.target.closest("[data-tool]");
  if (button && session.active) tool(button.dataset.tool);
});
document.addEventListener("keydown", onKey);
watchConsentChoice($("consent-checkbox"), $("consent-change"));
fillChoices();

// A shared link (?id=kenken-5-hard-1234) fills in the puzzle's ID.
const sharedId = new URLSearchParams(location.search).get("id");
if (sharedId) {
  $("pz-id").value = sharedId;
  const wanted = readId(sharedId);
  if (wanted) {
    $("pz-kind").value = wanted.kind;
    fillChoices();
    $("pz-size").value = String(wanted.size);
    fillLevels();
    $("pz-difficulty").value = wanted.difficulty;
  }
  $("pz-start").focus();
}

// Resume the attempt named in the address (#<id>) after a reload.
const resumeId = location.hash.slice(1);
if (/^[0-9a-f-]{36}$/.test(resumeId) && document.body.dataset.hasPlayer === "true") {
  puzzlesApi.get(resumeId).then(open, () => history.replaceState(null, "", location.pathname));
}

// For tests and curious players: the page's current attempt.
window.puzzlePage = { current, settled: () => session.settled() };
