// Drawing a KenKen or Futoshiki grid: cells, cage outlines and labels, signs.
//
// The board is an ARIA grid: one role="row" element per row (display: contents, so the
// cells stay items of the CSS grid) holding its role="gridcell" cells. A cell's name
// says its place, its number, its cage clue, the Futoshiki signs that touch it and the
// rules it breaks; the drawn clue, signs and candidates are hidden from assistive
// technology, since the name (a visually hidden text in the cell) says them.
//
// KenKen boards are N x N cells. Futoshiki boards have a thin track between
// cells where the signs sit (Adjacent Futoshiki: the bars between neighbours one
// apart), so their CSS grid is (2N - 1) x (2N - 1). Values above 9 are written in
// full ("10", "11"), in a smaller type.

import { barMarks, cageSides, cageText, signTexts } from "./puzzle-rules.js";

export const OP_LABEL = { "+": "+", "-": "\u2212", x: "\u00d7", "/": "\u00f7", "=": "" };

function cageOwners(puzzle) {
  const owner = new Map();
  (puzzle.cages || []).forEach((cage, number) => {
    for (const [r, c] of cage.cells) owner.set(`${r},${c}`, number);
  });
  return owner;
}

function firstCell(cells) {
  return [...cells].sort((a, b) => a[0] - b[0] || a[1] - b[1])[0];
}

// The sign between two neighbouring cells, seen from the top-left one.
function signs(puzzle) {
  const found = new Map();
  for (const rel of puzzle.relations || []) {
    let [a, b, op] = [rel.a, rel.b, rel.op];
    if (b[0] < a[0] || (b[0] === a[0] && b[1] < a[1])) {
      [a, b] = [b, a];
      op = op === "<" ? ">" : "<";
    }
    const vertical = a[1] === b[1];
    const text = vertical ? (op === "<" ? "\u2227" : "\u2228") : op;
    found.set(`${a[0]},${a[1]},${vertical ? "v" : "h"}`, { text, op });
  }
  return found;
}

export class Grid {
  constructor(element, { kind, size, puzzle, onSelect, onMark }) {
    this.onMark = onMark;
    this.element = element;
    this.kind = kind;
    this.size = size;
    this.puzzle = puzzle;
    this.onSelect = onSelect;
    this.cells = [];
    this.selected = [0, 0];
    this.chosen = false; // whether the player has chosen a cell yet
    this.givens = new Set((puzzle.givens || []).map(([r, c]) => `${r},${c}`));
    this.build();
  }

  build() {
    const n = this.size;
    const el = this.element;
    el.replaceChildren();
    // Both Futoshiki kinds share the layout with tracks ("pz-futoshiki").
    const futoshiki = this.kind === "futoshiki" || this.kind === "futoshiki-adjacent";
    // KenKen with multiplication only draws its cages as KenKen does ("pz-kenken").
    const kenken = this.kind === "kenken-multiply";
    el.className = `pz-board pz-${this.kind}${futoshiki ? " pz-futoshiki" : ""}${kenken ? " pz-kenken" : ""}${n > 9 ? " pz-wide-values" : ""}`;
    el.style.setProperty("--n", String(n));
    // Cells alternate with the thin tracks that hold Futoshiki's signs.
    const tracks = futoshiki
      ? `repeat(${n - 1}, var(--cell-size) var(--gap)) var(--cell-size)`
      : `repeat(${n}, var(--cell-size))`;
    el.style.gridTemplateColumns = tracks;
    el.style.gridTemplateRows = tracks;
    const owner = cageOwners(this.puzzle);
    const labels = new Map();
    (this.puzzle.cages || []).forEach((cage) => {
      const [r, c] = firstCell(cage.cells);
      labels.set(`${r},${c}`, `${cage.target}${OP_LABEL[cage.op] ?? cage.op}`);
    });
    const signMap = futoshiki ? signs(this.puzzle) : new Map();
    this.cageTexts = new Map();
    for (const cage of this.puzzle.cages || []) {
      for (const [r, c] of cage.cells) this.cageTexts.set(`${r},${c}`, cageText(cage));
    }
    this.signTexts = signTexts(this.puzzle);
    for (let r = 0; r < n; r += 1) {
      const row = [];
      const rowEl = document.createElement("div");
      rowEl.className = "pz-row";
      rowEl.setAttribute("role", "row");
      el.append(rowEl);
      for (let c = 0; c < n; c += 1) {
        const cell = document.createElement("div");
        cell.className = "pz-cell";
        cell.setAttribute("role", "gridcell");
        cell.tabIndex = -1;
        cell.dataset.r = String(r);
        cell.dataset.c = String(c);
        if (futoshiki) {
          cell.style.gridRow = String(2 * r + 1);
          cell.style.gridColumn = String(2 * c + 1);
        }
        const key = `${r},${c}`;
        if (owner.size) {
          for (const side of cageSides(owner, n, r, c)) cell.classList.add(`pz-edge-${side}`);
        }
        if (labels.has(key)) {
          const label = document.createElement("span");
          label.className = "pz-cage-label";
          label.setAttribute("aria-hidden", "true");
          label.textContent = labels.get(key);
          cell.append(label);
        }
        if (this.givens.has(key)) cell.classList.add("pz-given");
        const value = document.createElement("span");
        value.className = "pz-value";
        const marks = document.createElement("span");
        marks.className = "pz-marks";
        marks.setAttribute("aria-hidden", "true");
        marks.style.setProperty("--cols", String(Math.ceil(Math.sqrt(n))));
        value.setAttribute("aria-hidden", "true");
        // The cell's name comes from this text (its content), not from an aria-label,
        // which would have to repeat the drawn clue word for word.
        const name = document.createElement("span");
        name.className = "visually-hidden pz-name";
        cell.append(value, marks, name);
        cell.addEventListener("click", (event) => {
          // A candidate of the selected cell, clicked: write it.
          const mark = event.target.closest(".pz-marks > span");
          // Only once the player chose the cell (not the one selected at the start).
          const wasSelected = this.chosen && this.selected[0] === r && this.selected[1] === c;
          this.select(r, c, true);
          this.chosen = true;
          if (mark && wasSelected && mark.textContent && this.onMark) this.onMark(Number(mark.textContent));
        });
        rowEl.append(cell);
        row.push(cell);
      }
      this.cells.push(row);
    }
    // Adjacent Futoshiki: a bar across the track between two neighbours one apart.
    for (const [r, c, dir] of barMarks(this.puzzle)) {
      const bar = document.createElement("div");
      bar.className = `pz-bar pz-bar-${dir}`;
      bar.setAttribute("aria-hidden", "true");
      bar.style.gridRow = String(dir === "v" ? 2 * r + 2 : 2 * r + 1);
      bar.style.gridColumn = String(dir === "v" ? 2 * c + 1 : 2 * c + 2);
      el.append(bar);
    }
    for (const [key, sign] of signMap) {
      const [r, c, dir] = key.split(",");
      const mark = document.createElement("div");
      mark.className = `pz-sign pz-sign-${dir}`;
      mark.textContent = sign.text;
      mark.setAttribute("aria-hidden", "true");
      const rr = Number(r);
      const cc = Number(c);
      mark.style.gridRow = String(dir === "v" ? 2 * rr + 2 : 2 * rr + 1);
      mark.style.gridColumn = String(dir === "v" ? 2 * cc + 1 : 2 * cc + 2);
      el.append(mark);
    }
    this.select(0, 0, false);
  }

  select(r, c, focus) {
    const n = this.size;
    const [pr, pc] = this.selected;
    this.cells[pr][pc].classList.remove("pz-selected");
    this.cells[pr][pc].tabIndex = -1;
    this.selected = [Math.max(0, Math.min(n - 1, r)), Math.max(0, Math.min(n - 1, c))];
    const cell = this.cells[this.selected[0]][this.selected[1]];
    cell.classList.add("pz-selected");
    cell.tabIndex = 0;
    if (focus) cell.focus();
    if (this.onSelect) this.onSelect(this.selected);
  }

  move(dr, dc) {
    this.chosen = true;
    this.select(this.selected[0] + dr, this.selected[1] + dc, true);
  }

  isGiven(r, c) {
    return this.givens.has(`${r},${c}`);
  }

  // The cell's accessible name; `broken` lists the rules it breaks.
  cellName(r, c, value, marks, broken) {
    const key = `${r},${c}`;
    const parts = [`Row ${r + 1}, column ${c + 1}: ${value || "empty"}${this.givens.has(key) ? " (given)" : ""}`];
    if (this.cageTexts.has(key)) parts.push(this.cageTexts.get(key));
    for (const text of this.signTexts.get(key) || []) parts.push(text);
    if (!value && marks.length) parts.push(`candidates ${marks.join(" ")}`);
    for (const text of broken) parts.push(text);
    return parts.join("; ");
  }

  show(state, { broken = new Map(), hint = null, solution = null } = {}) {
    const n = this.size;
    for (let r = 0; r < n; r += 1) {
      for (let c = 0; c < n; c += 1) {
        const cell = this.cells[r][c];
        const value = state.entries[r][c];
        const shown = value || (solution ? solution[r][c] : 0);
        cell.querySelector(".pz-value").textContent = shown ? String(shown) : "";
        cell.classList.toggle("pz-revealed", !value && Boolean(solution));
        const marksEl = cell.querySelector(".pz-marks");
        marksEl.replaceChildren();
        const marks = [];
        if (!value) {
          const mask = state.marks[r][c];
          for (let v = 1; v <= n; v += 1) {
            const m = document.createElement("span");
            if (mask & (1 << (v - 1))) {
              m.textContent = String(v);
              marks.push(v);
            }
            marksEl.append(m);
          }
        }
        const reasons = broken.get(`${r},${c}`) || [];
        cell.classList.toggle("pz-conflict", reasons.length > 0);
        cell.classList.toggle("pz-hinted", Boolean(hint && hint.cell[0] === r && hint.cell[1] === c));
        cell.querySelector(".pz-name").textContent = this.cellName(r, c, shown, marks, reasons);
      }
    }
  }
}
