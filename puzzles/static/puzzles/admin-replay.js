// Step-through replay of a puzzle attempt on its admin page. The step controls are
// games/admin-replay-steps.js, loaded first.
//
// The grid is drawn with its clues, as the puzzle page draws them: KenKen cages (a thick
// edge where a cage ends, the target and operation in its first cell) and Futoshiki's signs
// (< > between neighbours in a row, ∧ ∨ between neighbours in a column) or, for Adjacent
// Futoshiki, the bars between neighbours one apart (| in a row, — in a column). Futoshiki tables have a thin row and
// column between the cells for the signs.
import { barMarks, cageSides } from "./js/puzzle-rules.js";

const root = document.getElementById("pz-replay");
const data = JSON.parse(document.getElementById("pz-replay-data").textContent);
const output = root.querySelector("output");
const table = root.querySelector("table");
const body = root.querySelector("tbody");
const note = root.querySelector(".pz-replay-action");
const last = data.grids.length - 1;
const n = data.size;
const puzzle = data.puzzle || {};
const futoshiki = data.kind === "futoshiki" || data.kind === "futoshiki-adjacent";
const OP_LABEL = { "+": "+", "-": "\u2212", x: "\u00d7", "/": "\u00f7", "=": "" };

function describe(action) {
  if (!action) return "Before the first action.";
  const parts = [`#${action.step} ${action.kind}`, JSON.stringify(action.payload)];
  if (action.technique) parts.push(`technique: ${action.technique}`);
  if (action.correct === false) parts.push("(wrong value)");
  parts.push(`at ${(action.elapsed_ms / 1000).toFixed(1)} s`);
  return parts.join(" ");
}

// "r,c" -> the cage's number, and the label of each cage's first cell (top row, then left).
function cages() {
  const owner = new Map();
  const labels = new Map();
  (puzzle.cages || []).forEach((cage, number) => {
    for (const [r, c] of cage.cells) owner.set(`${r},${c}`, number);
    const [r, c] = [...cage.cells].sort((a, b) => a[0] - b[0] || a[1] - b[1])[0];
    labels.set(`${r},${c}`, `${cage.target}${OP_LABEL[cage.op] ?? cage.op}`);
  });
  return { owner, labels };
}

// "r,c,h" (the sign right of r,c) or "r,c,v" (below it) -> the sign drawn there.
function signs() {
  const found = new Map();
  for (const rel of puzzle.relations || []) {
    let [a, b, op] = [rel.a, rel.b, rel.op];
    if (b[0] < a[0] || (b[0] === a[0] && b[1] < a[1])) {
      [a, b] = [b, a];
      op = op === "<" ? ">" : "<";
    }
    const vertical = a[1] === b[1];
    const text = vertical ? (op === "<" ? "\u2227" : "\u2228") : op;
    found.set(`${a[0]},${a[1]},${vertical ? "v" : "h"}`, text);
  }
  if (data.kind === "futoshiki-adjacent") {
    // A bar across the track: upright between row neighbours, flat between column ones.
    for (const [r, c, dir] of barMarks(puzzle)) {
      found.set(`${r},${c},${dir}`, dir === "h" ? "|" : "\u2014");
    }
  }
  return found;
}

// The table once: its value cells (valueCells[r][c]) and, for Futoshiki, the sign cells.
function build() {
  const { owner, labels } = cages();
  const signMap = futoshiki ? signs() : new Map();
  const valueCells = [];
  table.classList.toggle("pz-replay-futoshiki", futoshiki);
  table.classList.toggle("pz-replay-cages", owner.size > 0);
  body.replaceChildren();
  const lines = futoshiki ? 2 * n - 1 : n;
  for (let i = 0; i < lines; i += 1) {
    const tr = document.createElement("tr");
    const r = futoshiki ? i / 2 : i;
    if (Number.isInteger(r)) valueCells.push([]);
    for (let j = 0; j < lines; j += 1) {
      const c = futoshiki ? j / 2 : j;
      const td = document.createElement("td");
      if (Number.isInteger(r) && Number.isInteger(c)) {
        const key = `${r},${c}`;
        if (owner.size) {
          for (const side of cageSides(owner, n, r, c)) td.classList.add(`pz-cage-${side}`);
        }
        if (labels.has(key)) {
          const label = document.createElement("span");
          label.className = "pz-cage-label";
          label.textContent = labels.get(key);
          td.append(label);
        }
        const value = document.createElement("span");
        value.className = "pz-value";
        td.append(value);
        td.classList.add("pz-cell");
        valueCells[valueCells.length - 1].push(td);
      } else {
        // A track between cells: a sign between two cells of a row (h) or a column (v).
        td.className = "pz-track";
        const key = Number.isInteger(r)
          ? `${r},${Math.floor(c)},h`
          : Number.isInteger(c)
            ? `${Math.floor(r)},${c},v`
            : null;
        if (key && signMap.has(key)) {
          td.classList.add("pz-sign");
          td.textContent = signMap.get(key);
        }
      }
      tr.append(td);
    }
    body.append(tr);
  }
  return valueCells;
}

const valueCells = build();

function render(step) {
  const grid = data.grids[step];
  const before = step > 0 ? data.grids[step - 1] : grid;
  grid.forEach((row, r) => {
    row.forEach((value, c) => {
      const td = valueCells[r][c];
      td.querySelector(".pz-value").textContent = value ? String(value) : "";
      td.classList.toggle("pz-changed", before[r][c] !== value);
      td.classList.toggle("pz-wrong", Boolean(value && value !== data.solution[r][c]));
      td.classList.toggle("pz-given", Boolean(data.grids[0][r][c]));
    });
  });
  output.textContent = `step ${step} of ${last}`;
  note.textContent = describe(data.actions[step - 1]);
}

window.replaySteps({ root, count: data.grids.length, start: last, render });
