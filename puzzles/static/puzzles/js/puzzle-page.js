// The puzzle page: start a puzzle, play it with keys or touch, record every action.
//
// Actions are sent one at a time, in order, each with the attempt's step. A
// lost answer is retried with the same step (the server answers a retry from
// its record); a 409 means the page is behind, so it reloads the attempt.

import { ApiError, withRetry } from "../../games/js/api.js";
import { ensurePlayer, watchConsentChoice } from "../../games/js/consent.js";
import { puzzlesApi } from "./puzzle-api.js";
import { Grid } from "./puzzle-grid.js";

const $ = (id) => document.getElementById(id);
const kinds = JSON.parse($("pz-kinds").textContent);
const setup = $("pz-setup");
const game = $("pz-game");
const solvedCard = $("pz-solved");
const message = $("pz-message");
const pad = $("pz-pad");
const timer = $("pz-timer");
const pencilButton = game.querySelector('[data-tool="pencil"]');

let attempt = null;
let grid = null;
let pencil = false;
let queue = Promise.resolve();
let clock = null;
const HINT_TEXT = {
  single_candidate: (h) => `Row ${h.cell[0] + 1}, column ${h.cell[1] + 1} can only hold ${h.value}.`,
  single_place: (h) => `In ${h.unit}, ${h.value} fits only at row ${h.cell[0] + 1}, column ${h.cell[1] + 1}.`,
  no_candidate: (h) => `Row ${h.cell[0] + 1}, column ${h.cell[1] + 1} has no possible number left: something is wrong.`,
};

function kindInfo(name) {
  return kinds.find((k) => k.kind === name) || kinds[0];
}

function fillSizes() {
  const info = kindInfo($("pz-kind").value);
  const select = $("pz-size");
  select.replaceChildren();
  for (let n = info.min_size; n <= info.max_size; n += 1) {
    const option = new Option(`${n} \u00d7 ${n}`, String(n), n === info.default_size, n === info.default_size);
    select.append(option);
  }
}

function say(text) {
  message.textContent = text;
}

function formatTime(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
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

function buildPad(size) {
  pad.replaceChildren();
  for (let v = 1; v <= size; v += 1) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button pz-digit";
    button.textContent = String(v);
    button.dataset.value = String(v);
    button.setAttribute("aria-label", `Number ${v}`);
    pad.append(button);
  }
}

function show(extra = {}) {
  grid.show(attempt.state, { ...extra, solution: attempt.status === "abandoned" ? attempt.solution : null });
}

function finished() {
  clearInterval(clock);
  if (attempt.status === "solved") {
    timer.textContent = formatTime(attempt.solve_seconds || 0);
    $("pz-solved-text").textContent = `You solved this ${kindInfo(attempt.kind).title} (${attempt.size} \u00d7 ${attempt.size}, ${attempt.difficulty}) in ${formatTime(attempt.solve_seconds || 0)}.`;
    solvedCard.hidden = false;
    $("pz-solved-title").focus();
  } else {
    say("You gave up: the solution is shown in grey.");
  }
}

function open(data) {
  attempt = data;
  history.replaceState(null, "", `#${attempt.id}`);
  setup.hidden = true;
  solvedCard.hidden = true;
  game.hidden = false;
  $("pz-title").textContent = `${kindInfo(attempt.kind).title} ${attempt.size} \u00d7 ${attempt.size} \u00b7 ${attempt.difficulty}`;
  grid = new Grid($("pz-board"), { kind: attempt.kind, size: attempt.size, puzzle: attempt.puzzle });
  buildPad(attempt.size);
  setPencil(false);
  say("");
  show();
  if (attempt.status === "active") {
    startClock();
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

async function reload() {
  attempt = await puzzlesApi.get(attempt.id);
  show();
}

function send(kind, payload = {}) {
  if (!attempt || attempt.status !== "active") return queue;
  queue = queue.then(async () => {
    if (attempt.status !== "active") return;
    const body = { step: attempt.step, kind, payload, client_time: new Date().toISOString() };
    try {
      const answer = await withRetry(() => puzzlesApi.act(attempt.id, body), {
        onWait: () => say("Connection problem, trying again\u2026"),
      });
      attempt = answer.attempt;
      const result = answer.action.result || {};
      if (kind === "hint") {
        const hint = result.hint;
        say(hint ? HINT_TEXT[hint.kind](hint) : "No simple hint here: look for pairs or try the cages and signs.");
        show({ hint });
        if (hint) grid.select(hint.cell[0], hint.cell[1], true);
      } else if (kind === "check") {
        const wrong = result.wrong || [];
        say(wrong.length ? `${wrong.length} number${wrong.length > 1 ? "s are" : " is"} wrong.` : `No mistakes so far (${result.filled} filled).`);
        show({ wrong });
      } else {
        if (kind !== "candidate") say("");
        show();
      }
      if (attempt.status !== "active") finished();
    } catch (error) {
      if (error instanceof ApiError && error.code === "stale_step") {
        await reload();
        say("The page was behind; it has been brought up to date.");
      } else if (error instanceof ApiError && error.status === 422) {
        say(error.message);
      } else {
        say(error.message || "Something went wrong.");
      }
    }
  });
  return queue;
}

function enter(value) {
  const [r, c] = grid.selected;
  if (grid.isGiven(r, c)) {
    say("That number is given.");
    return;
  }
  if (pencil) {
    send("candidate", { cell: [r, c], value });
  } else if (attempt.state.entries[r][c] !== value) {
    send("entry", { cell: [r, c], value });
  }
}

function erase() {
  const [r, c] = grid.selected;
  if (!grid.isGiven(r, c) && attempt.state.entries[r][c]) send("erase", { cell: [r, c] });
}

function tool(name) {
  if (name === "erase") erase();
  else if (name === "pencil") setPencil(!pencil);
  else if (name === "undo") send("undo");
  else if (name === "hint") send("hint");
  else if (name === "check") send("check");
  else if (name === "giveup") {
    queue = queue.then(async () => {
      attempt = await puzzlesApi.finish(attempt.id);
      show();
      finished();
    });
  }
}

const MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

function onKey(event) {
  if (game.hidden || !grid || !attempt || attempt.status !== "active") return;
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement) return;
  if (event.altKey || event.metaKey) return;
  const key = event.key;
  if (event.ctrlKey) {
    if (key === "z") {
      send("undo");
      event.preventDefault();
    }
    return;
  }
  if (MOVES[key]) {
    grid.move(...MOVES[key]);
    event.preventDefault();
  } else if (/^[1-9]$/.test(key) && Number(key) <= attempt.size) {
    enter(Number(key));
    event.preventDefault();
  } else if (key === "Backspace" || key === "Delete" || key === "0") {
    erase();
    event.preventDefault();
  } else if (key === "p" || key === "P") {
    setPencil(!pencil);
  } else if (key === "u" || key === "U") {
    send("undo");
  } else if (key === "h" || key === "H") {
    send("hint");
  } else if (key === "c" || key === "C") {
    send("check");
  }
}

async function startNew(event) {
  event?.preventDefault();
  const button = $("pz-start");
  button.disabled = true;
  say("");
  try {
    await ensurePlayer($("consent-checkbox"));
    open(
      await puzzlesApi.start({
        kind: $("pz-kind").value,
        size: Number($("pz-size").value),
        difficulty: $("pz-difficulty").value,
      }),
    );
  } catch (error) {
    setup.querySelector(".pz-new").dataset.error = error.message || "Could not start.";
  } finally {
    button.disabled = false;
  }
}

$("pz-kind").addEventListener("change", fillSizes);
$("pz-new").addEventListener("submit", startNew);
$("pz-again").addEventListener("click", () => {
  solvedCard.hidden = true;
  game.hidden = true;
  setup.hidden = false;
  history.replaceState(null, "", location.pathname);
});
pad.addEventListener("click", (event) => {
  const button = event.target.closest("[data-value]");
  if (button) enter(Number(button.dataset.value));
});
game.querySelector(".pz-tools").addEventListener("click", (event) => {
  const button = event.target.closest("[data-tool]");
  if (button) tool(button.dataset.tool);
});
document.addEventListener("keydown", onKey);
watchConsentChoice($("consent-checkbox"), $("consent-change"));
fillSizes();

// Resume the attempt named in the address (#<id>) after a reload.
const resumeId = location.hash.slice(1);
if (/^[0-9a-f-]{36}$/.test(resumeId) && document.body.dataset.hasPlayer === "true") {
  puzzlesApi.get(resumeId).then(open, () => history.replaceState(null, "", location.pathname));
}

// For tests and curious players: the page's current attempt.
window.puzzlePage = { current: () => attempt, settled: () => queue };
