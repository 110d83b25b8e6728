// The Decodoku puzzle page: draw links between cells, see each group's sum, answer the corner.
//
// Every step goes to the puzzles API in order, each with the attempt's step:
// link, unlink, check, answer; giving up finishes the attempt. A link is drawn
// at once and sent behind the others; a refused step reloads the attempt from
// the server. Link numbers are the engine's (docs/decodoku-puzzles.md): the
// horizontal links row by row first, then the vertical ones.

import { ApiError, request, withRetry } from "../../games/js/api.js";
import { ensurePlayer, watchConsentChoice } from "../../games/js/consent.js";

const MOD = 10;
const $ = (id) => document.getElementById(id);
const app = $("dk-app");
const setup = $("dk-setup");
const game = $("dk-game");
const doneCard = $("dk-done");
const boardEl = $("dk-board");
const message = $("dk-message");
const timer = $("dk-timer");
const linksCount = $("dk-links");
const number = app.dataset.number === "" ? null : Number(app.dataset.number);

let attempt = null;
let board = null; // { n, values, linkEls: [], cellEls: [] }
let links = new Set();
let step = 0;
let queue = Promise.resolve();
let clock = null;
let cursor = 0; // the cell with the keyboard focus
let flagged = new Set(); // cells of groups a check found unbalanced

const api = {
  start: () => request("POST", "puzzles/", number === null ? { kind: "decodoku" } : { kind: "decodoku", number }),
  get: (id) => request("GET", `puzzles/${id}/`),
  act: (id, body) => request("POST", `puzzles/${id}/actions/`, body),
  finish: (id) => request("POST", `puzzles/${id}/finish/`, {}),
};

function say(text) {
  message.textContent = text;
}

// --- the board's geometry -----------------------------------------------------

function linkNumber(a, b) {
  const n = board.n;
  const [p, q] = a < b ? [a, b] : [b, a];
  if (q === p + 1 && p % n !== n - 1) return Math.floor(p / n) * (n - 1) + (p % n);
  if (q === p + n) return n * (n - 1) + p;
  return null;
}

function linkCells(link) {
  const n = board.n;
  const horizontal = n * (n - 1);
  if (link < horizontal) {
    const row = Math.floor(link / (n - 1));
    const cell = row * n + (link % (n - 1));
    return [cell, cell + 1];
  }
  const cell = link - horizontal;
  return [cell, cell + n];
}

function groups() {
  const parent = board.values.map((_, i) => i);
  const root = (x) => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  };
  for (const link of links) {
    const [a, b] = linkCells(link).map(root);
    if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
  }
  const found = new Map();
  board.values.forEach((_, cell) => {
    const r = root(cell);
    if (!found.has(r)) found.set(r, []);
    found.get(r).push(cell);
  });
  const corners = [0, board.n * board.n - 1];
  return [...found.values()].map((cells) => ({
    cells,
    sum: cells.reduce((s, c) => s + board.values[c], 0) % MOD,
    corners: corners.filter((c) => cells.includes(c)),
  }));
}

// --- drawing ---------------------------------------------------------------------

function build(definition) {
  const n = definition.size;
  const grid = definition.grid;
  board = { n, values: [...grid].map((ch) => (ch === "?" ? 0 : Number(ch))), linkEls: [], cellEls: [] };
  boardEl.replaceChildren();
  boardEl.style.setProperty("--n", n);
  const tracks = Array(n).fill("var(--cell-size)").join(" var(--gap) ");
  boardEl.style.gridTemplateColumns = tracks;
  boardEl.style.gridTemplateRows = tracks;
  for (let cell = 0; cell < n * n; cell += 1) {
    const row = Math.floor(cell / n);
    const col = cell % n;
    const el = document.createElement("button");
    el.type = "button";
    el.className = "dk-cell";
    el.dataset.cell = cell;
    el.tabIndex = cell === cursor ? 0 : -1;
    el.style.gridRow = 2 * row + 1;
    el.style.gridColumn = 2 * col + 1;
    const hidden = cell === 0 || cell === n * n - 1;
    if (hidden) el.classList.add("dk-corner");
    // What is seen is hidden from screen readers; they read the sentence of the last span.
    el.innerHTML =
      `<span class="dk-value" aria-hidden="true">${hidden ? "?" : grid[cell]}</span>` +
      '<span class="dk-badge" aria-hidden="true"></span><span class="visually-hidden dk-said"></span>';
    boardEl.append(el);
    board.cellEls.push(el);
  }
  const total = 2 * n * (n - 1);
  for (let link = 0; link < total; link += 1) {
    const [a, b] = linkCells(link);
    const el = document.createElement("button");
    el.type = "button";
    el.tabIndex = -1;
    el.dataset.link = link;
    const horizontal = b === a + 1;
    el.className = `dk-link ${horizontal ? "dk-link-h" : "dk-link-v"}`;
    const [ra, ca] = [Math.floor(a / n), a % n];
    el.style.gridRow = horizontal ? 2 * ra + 1 : 2 * ra + 2;
    el.style.gridColumn = horizontal ? 2 * ca + 2 : 2 * ca + 1;
    el.setAttribute(
      "aria-label",
      `Link between row ${ra + 1} column ${ca + 1} and row ${Math.floor(b / n) + 1} column ${(b % n) + 1}`,
    );
    boardEl.append(el);
    board.linkEls.push(el);
  }
  render();
}

function cellName(cell) {
  return `Row ${Math.floor(cell / board.n) + 1}, column ${(cell % board.n) + 1}`;
}

function render() {
  board.linkEls.forEach((el, link) => {
    const on = links.has(link);
    el.classList.toggle("dk-on", on);
    el.setAttribute("aria-pressed", on ? "true" : "false");
  });
  const last = board.n * board.n - 1;
  for (const group of groups()) {
    const first = group.cells[0];
    const joined = group.corners.length === 2;
    const single = group.cells.length === 1;
    const done = !group.corners.length && group.sum === 0 && !single;
    const open = !group.corners.length && group.sum !== 0 && !single;
    const need = (MOD - group.sum) % MOD;
    for (const cell of group.cells) {
      const el = board.cellEls[cell];
      el.classList.toggle("dk-done", done);
      el.classList.toggle("dk-open", open);
      el.classList.toggle("dk-sink", group.corners.length > 0 && !single);
      el.classList.toggle("dk-bad", flagged.has(cell));
      const badge = el.querySelector(".dk-badge");
      let text = "";
      let label = `${cellName(cell)}: ${cell === 0 || cell === last ? "hidden corner" : board.values[cell]}`;
      if (cell === 0 || cell === last) {
        text = joined ? "any" : `=${need}`;
        label += joined ? ", its group holds both corners: any value fits" : `, its group needs ${need} here`;
      } else if (cell === first && !single && !group.corners.length) {
        text = `Σ${group.sum}`;
      }
      if (!single) {
        label += group.corners.length
          ? ", in a group with a hidden corner"
          : `, in a group of ${group.cells.length} cells adding up to ${group.sum} mod 10${done ? ", done" : ""}`;
      }
      badge.textContent = text;
      el.querySelector(".dk-said").textContent = label;
    }
  }
  linksCount.textContent = `${links.size} ${links.size === 1 ? "link" : "links"}`;
}

function formatTime(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function startClock() {
  clearInterval(clock);
  const started = Date.parse(attempt.started_at);
  const tick = () => {
    timer.textContent = formatTime((Date.now() - started) / 1000);
  };
  tick();
  clock = setInterval(tick, 1000);
}

// --- the attempt -------------------------------------------------------------------

function open(data) {
  attempt = data;
  step = data.step;
  links = new Set(data.state.links);
  flagged = new Set();
  history.replaceState(null, "", `${location.pathname}#${data.id}`);
  setup.hidden = true;
  build(data.puzzle);
  if (data.status !== "active") {
    finished(data, null);
    return;
  }
  game.hidden = false;
  doneCard.hidden = true;
  startClock();
  say("");
}

async function reload() {
  open(await api.get(attempt.id));
}

function send(kind, payload = {}) {
  const id = attempt.id;
  const run = async () => {
    const body = { step, kind, payload, client_time: new Date().toISOString() };
    try {
      const answer = await withRetry(() => api.act(id, body), {
        onWait: () => say("Connection lost, trying again…"),
      });
      step = answer.attempt.step;
      attempt = answer.attempt;
      return answer;
    } catch (error) {
      if (error instanceof ApiError && [409, 422].includes(error.status)) {
        await reload();
        say(error.message);
        return null;
      }
      say(error.message || "Could not reach the server.");
      throw error;
    }
  };
  const result = queue.then(run, run);
  queue = result.catch(() => null);
  return result;
}

function toggle(link) {
  if (!attempt || attempt.status !== "active" || link === null) return;
  const on = links.has(link);
  if (on) links.delete(link);
  else links.add(link);
  flagged = new Set();
  render();
  const [a] = linkCells(link);
  const group = groups().find((g) => g.cells.includes(a));
  const sum = group.corners.length ? "holds a hidden corner" : `adds up to ${group.sum} mod 10`;
  say(`${on ? "Removed the" : "Drew a"} link; the group of ${cellName(a).toLowerCase()} ${sum}.`);
  send(on ? "unlink" : "link", { link });
}

async function check() {
  const answer = await send("check");
  if (!answer) return;
  const result = answer.action.result;
  flagged = new Set(result.unbalanced.flat());
  render();
  if (result.valid) {
    const values = result.answers;
    say(
      values.length === MOD
        ? "The links explain the board; the two corners share a group, so any top-left value fits."
        : `The links explain the board: the top-left value is ${values[0]}.`,
    );
    if (values.length === 1) $("dk-value").value = String(values[0]);
  } else {
    const count = result.unbalanced.length;
    say(`${count} ${count === 1 ? "group does" : "groups do"} not add up to a multiple of 10 (marked in red).`);
  }
}

function finished(data, result) {
  attempt = data;
  clearInterval(clock);
  game.hidden = false;
  doneCard.hidden = false;
  const title = $("dk-done-title");
  const text = $("dk-done-text");
  $("dk-compare").href = `/puzzles/decodoku/attempt/${data.id}/compare/`;
  const solution = data.solution || {};
  if (data.status === "solved") {
    title.textContent = "Answered";
    const used = result ? result.links : data.state.links.length;
    const parts = [`You answered ${data.state.answer} with ${used} links; the fewest that explain the board: ${solution.minimum}.`];
    if (solution.corners) {
      const right = data.state.answer === solution.corners[0];
      const what = solution.corners_source === "published" ? "the published top-left value" : "the true top-left value";
      parts.push(right ? `That is ${what}.` : `${what[0].toUpperCase()}${what.slice(1)} was ${solution.corners[0]}.`);
    }
    text.textContent = parts.join(" ");
  } else {
    title.textContent = "Given up";
    // The board now shows one explanation with the fewest links, in place of the player's.
    const best = Array.isArray(solution.explanation) ? solution.explanation : [];
    links = new Set(best);
    flagged = new Set();
    boardEl.classList.toggle("dk-best", best.length > 0);
    render();
    say("");
    text.textContent = best.length
      ? `The board shows the fewest links that explain it: ${solution.minimum}, giving the top-left value ${solution.corner}.`
      : `The fewest links that explain the board: ${solution.minimum}, giving the top-left value ${solution.corner}.`;
  }
  for (const el of game.querySelectorAll(".dk-tools button, .dk-answer button, .dk-answer select")) el.disabled = true;
  title.focus();
}

// What the server's check would say of the links drawn: the groups without a hidden corner
// that do not add up to a multiple of 10, and the top-left values the links allow.
function linkVerdict() {
  const all = groups();
  const unbalanced = all.filter((group) => !group.corners.length && group.sum !== 0);
  const first = all.find((group) => group.cells.includes(0));
  const answers = first.corners.length === 2 ? [...Array(MOD).keys()] : [(MOD - first.sum) % MOD];
  return { valid: unbalanced.length === 0, unbalanced, answers };
}

async function answer(event) {
  event.preventDefault();
  if (!attempt || attempt.status !== "active") return;
  const value = Number($("dk-value").value);
  // An answer the links cannot give is not sent: the page says why at once.
  const verdict = linkVerdict();
  if (!verdict.valid) {
    flagged = new Set(verdict.unbalanced.flatMap((group) => group.cells));
    render();
    const count = verdict.unbalanced.length;
    say(
      `Not yet: ${count} ${count === 1 ? "group does" : "groups do"} not add up to a multiple of 10 (marked in red). Link every number into a group that does, or into a group with a hidden corner, then answer.`,
    );
    return;
  }
  if (!verdict.answers.includes(value)) {
    say(`Your links give the top-left value ${verdict.answers[0]}, not ${value}: choose ${verdict.answers[0]}, or change the links.`);
    return;
  }
  const done = await send("answer", { value });
  if (done && done.attempt.status !== "active") finished(done.attempt, done.action.result);
}

async function giveUp() {
  if (!window.confirm("Give up and see the fewest links that explain the board? This attempt ends.")) return;
  await queue;
  const ended = await withRetry(() => api.finish(attempt.id));
  finished(ended, null);
}

async function clearAll() {
  for (const link of [...links].sort((a, b) => a - b)) toggle(link);
}

function tool(name) {
  if (!attempt || attempt.status !== "active") return;
  if (name === "check") check();
  else if (name === "clear") clearAll();
  else if (name === "giveup") giveUp();
}

// --- input: pointer, touch, keys ----------------------------------------------------

function focusCell(cell) {
  board.cellEls[cursor].tabIndex = -1;
  cursor = cell;
  board.cellEls[cell].tabIndex = 0;
  board.cellEls[cell].focus();
}

const STEPS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

boardEl.addEventListener("keydown", (event) => {
  const move = STEPS[event.key];
  const cellEl = event.target.closest(".dk-cell");
  if (!move || !cellEl) return;
  event.preventDefault();
  const cell = Number(cellEl.dataset.cell);
  const row = Math.floor(cell / board.n) + move[0];
  const col = (cell % board.n) + move[1];
  if (row < 0 || col < 0 || row >= board.n || col >= board.n) return;
  const next = row * board.n + col;
  if (event.shiftKey) toggle(linkNumber(cell, next));
  focusCell(next);
});

document.addEventListener("keydown", (event) => {
  if (game.hidden || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest("select, input, textarea")) return;
  if (event.key === "c" || event.key === "C") tool("check");
});

let drag = null; // the cell a drag started from (or last went through)
boardEl.addEventListener("pointerdown", (event) => {
  const cellEl = event.target.closest(".dk-cell");
  if (!cellEl || event.button !== 0) return;
  drag = Number(cellEl.dataset.cell);
  cursor = drag;
  boardEl.setPointerCapture?.(event.pointerId);
});
boardEl.addEventListener("pointermove", (event) => {
  if (drag === null) return;
  const el = document.elementFromPoint(event.clientX, event.clientY)?.closest?.(".dk-cell");
  if (!el) return;
  const cell = Number(el.dataset.cell);
  if (cell === drag) return;
  const link = linkNumber(drag, cell);
  if (link !== null) toggle(link);
  drag = cell;
});
const endDrag = () => {
  drag = null;
};
boardEl.addEventListener("pointerup", endDrag);
boardEl.addEventListener("pointercancel", endDrag);
boardEl.addEventListener("click", (event) => {
  const el = event.target.closest(".dk-link");
  if (el) toggle(Number(el.dataset.link));
});

async function start() {
  const button = $("dk-start");
  button.disabled = true;
  $("dk-start-error").textContent = "";
  try {
    // Unanswered: the question is asked, and this start runs again once it is answered.
    await ensurePlayer(start);
    open(await api.start());
    board.cellEls[cursor].focus();
  } catch (error) {
    $("dk-start-error").textContent = error.message || "Could not start.";
  } finally {
    button.disabled = false;
  }
}

$("dk-start").addEventListener("click", start);
$("dk-answer").addEventListener("submit", answer);
game.querySelector(".dk-tools").addEventListener("click", (event) => {
  const button = event.target.closest("[data-tool]");
  if (button) tool(button.dataset.tool);
});
watchConsentChoice($("consent-checkbox"), $("consent-change"));

const resumeId = location.hash.slice(1);
if (/^[0-9a-f-]{36}$/.test(resumeId) && document.body.dataset.hasPlayer === "true") {
  api.get(resumeId).then(
    (data) => {
      const same = data.kind === "decodoku" && (number === null ? data.puzzle.number === undefined : data.puzzle.numbers?.includes(number));
      if (same) open(data);
      else history.replaceState(null, "", location.pathname);
    },
    () => history.replaceState(null, "", location.pathname),
  );
}

// For tests and curious players: the page's current attempt and its links.
window.decodokuPage = { current: () => attempt, links: () => [...links].sort((a, b) => a - b), settled: () => queue };
