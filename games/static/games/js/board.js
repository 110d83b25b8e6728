// The board: drawing the grid and turning pointer and keyboard input into moves.
//
// BoardView knows nothing about the server. It draws a board given as
// row-major values (and, when they may be shown, group ids), and reports what
// the player does through callbacks:
//   onMove(from, to)      a number is moved; cells are [row, col], 0-based
//   onLongPress()         the grid was held down (enters "back in time")
//   onHalfTap(side)       a tap on the "left" or "right" half while looking back
//   onSwipe(direction)    a swipe while looking back
//   onHint(message)       a short explanation after an action that did nothing
//
// Input modes: "play" (moves allowed), "locked" (nothing happens: a move is
// being sent), "history" (looking back: taps and swipes step through time)
// and "view" (a finished game: only the keyboard cursor moves).

import { groupHue, spokenFor, symbolFor } from "./symbols.js";

const LONG_PRESS_MS = 600;
const TAP_SLOP_PX = 10;
const DRAG_FRACTION = 0.35;
const SWIPE_PX = 40;

const DIRECTIONS = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

export class BoardView {
  constructor(element, callbacks = {}) {
    this.element = element;
    this.callbacks = callbacks;
    this.size = 0;
    this.cells = [];
    this.values = [];
    this.variant = "z10";
    this.mode = "locked";
    this.focusIndex = 0;
    this.selected = null;
    this.pointer = null;
    this.element.addEventListener("pointerdown", (e) => this.onPointerDown(e));
    this.element.addEventListener("pointermove", (e) => this.onPointerMove(e));
    this.element.addEventListener("pointerup", (e) => this.onPointerUp(e));
    this.element.addEventListener("pointercancel", () => this.cancelPointer());
    this.element.addEventListener("lostpointercapture", () => this.cancelPointer());
    this.element.addEventListener("keydown", (e) => this.onKeyDown(e));
    this.element.addEventListener("contextmenu", (e) => e.preventDefault());
    window.addEventListener("resize", () => this.updateScrollable());
    this.element.addEventListener("focusin", (e) => {
      const cell = e.target.closest(".cell");
      if (cell) this.setFocus(Number(cell.dataset.index), { move: false });
    });
  }

  // -- building and drawing ----------------------------------------------------

  setSize(size) {
    if (size === this.size) return;
    this.size = size;
    this.element.replaceChildren();
    this.element.style.setProperty("--n", String(size));
    this.element.setAttribute("aria-rowcount", String(size));
    this.element.setAttribute("aria-colcount", String(size));
    this.cells = [];
    for (let r = 0; r < size; r += 1) {
      const row = document.createElement("div");
      row.setAttribute("role", "row");
      row.className = "board-row";
      for (let c = 0; c < size; c += 1) {
        const cell = document.createElement("div");
        cell.className = "cell";
        cell.setAttribute("role", "gridcell");
        cell.tabIndex = -1;
        cell.dataset.index = String(r * size + c);
        cell.dataset.row = String(r);
        cell.dataset.col = String(c);
        const face = document.createElement("span");
        face.className = "cell-face";
        face.setAttribute("aria-hidden", "true");
        cell.append(face);
        row.append(cell);
        this.cells.push(cell);
      }
      this.element.append(row);
    }
    this.focusIndex = Math.min(this.focusIndex, size * size - 1);
    this.selected = null;
    this.updateTabStop();
    this.updateScrollable();
  }

  // Whether the grid is wider than its frame (cells keep 24 px): touch then pans it.
  updateScrollable() {
    const frame = this.element.parentElement;
    if (!frame) return;
    const scrollable = this.element.offsetWidth > frame.clientWidth + 1;
    frame.classList.toggle("is-scrollable", scrollable);
    this.element.classList.toggle("is-scrollable", scrollable);
  }

  // board: {values: number[], labels?: number[] | null}
  // options: variant, showGroups, spanning (a group id or null), changed
  // (cell indices to flash), moved (the cell a number just arrived in), reveal
  // (a finished game: show the numbers themselves, also behind Phi and Lambda).
  render(board, options = {}) {
    const { variant = this.variant, showGroups = false, spanning = null } = options;
    const shown = options.reveal ? "z10" : variant;
    const changed = options.changed || null;
    this.setSize(Math.round(Math.sqrt(board.values.length)));
    this.values = board.values.slice();
    this.variant = variant;
    const labels = board.labels || null;
    const n = this.size;
    this.element.dataset.variant = variant;
    this.element.dataset.revealed = String(Boolean(options.reveal));
    this.element.classList.toggle("shows-groups", Boolean(showGroups && labels));
    this.element.classList.toggle("has-spanning", spanning !== null && spanning !== undefined);
    this.cells.forEach((cell, i) => {
      const value = this.values[i];
      const face = cell.firstChild;
      const symbol = symbolFor(value, shown);
      if (face.textContent !== symbol) face.textContent = symbol;
      cell.classList.toggle("is-empty", !value);
      cell.classList.toggle("is-lambda", shown === "phi_lambda" && value === 5);
      const label = labels ? labels[i] : 0;
      if (showGroups && labels && label) {
        cell.style.setProperty("--hue", String(groupHue(label)));
        cell.classList.add("has-group");
        cell.dataset.group = String(label);
      } else {
        cell.style.removeProperty("--hue");
        cell.classList.remove("has-group");
        delete cell.dataset.group;
      }
      const inSpan = spanning !== null && spanning !== undefined && labels && label === spanning;
      cell.classList.toggle("is-spanning", Boolean(inSpan));
      const row = Math.floor(i / n) + 1;
      const col = (i % n) + 1;
      let text = `row ${row} column ${col}: ${spokenFor(value, shown)}`;
      if (showGroups && labels && label) text += `, group ${label}`;
      if (inSpan) text += ", spanning group";
      cell.setAttribute("aria-label", text);
    });
    this.flash(changed, "is-changed");
    this.flash(options.moved === undefined || options.moved === null ? null : [options.moved], "is-moved");
    this.element.dataset.changed = String(changed ? changed.length : 0);
    if (this.selected !== null && !this.values[this.selected]) this.select(null);
  }

  // Restart the CSS animation of `className` on the given cells; clear it elsewhere.
  flash(indices, className) {
    const wanted = new Set(indices || []);
    this.cells.forEach((cell, i) => {
      if (cell.classList.contains(className)) cell.classList.remove(className);
      if (wanted.has(i)) {
        void cell.offsetWidth; // restart the animation
        cell.classList.add(className);
      }
    });
  }

  setMode(mode) {
    this.mode = mode;
    this.element.dataset.mode = mode;
    if (mode !== "play") this.select(null);
    this.element.setAttribute("aria-readonly", mode === "play" ? "false" : "true");
  }

  setLabel(text) {
    this.element.setAttribute("aria-label", text);
  }

  // -- focus and selection -----------------------------------------------------

  updateTabStop() {
    this.cells.forEach((cell, i) => {
      cell.tabIndex = i === this.focusIndex ? 0 : -1;
    });
  }

  setFocus(index, { move = true } = {}) {
    if (index < 0 || index >= this.cells.length) return;
    this.focusIndex = index;
    this.updateTabStop();
    if (move) this.cells[index].focus();
  }

  select(index) {
    if (this.selected !== null && this.cells[this.selected]) {
      this.cells[this.selected].classList.remove("is-selected");
      this.cells[this.selected].removeAttribute("aria-selected");
    }
    this.selected = index;
    if (index !== null) {
      this.cells[index].classList.add("is-selected");
      this.cells[index].setAttribute("aria-selected", "true");
    }
  }

  cellAt(index) {
    return [Math.floor(index / this.size), index % this.size];
  }

  neighbour(index, [dr, dc]) {
    const [r, c] = this.cellAt(index);
    const nr = r + dr;
    const nc = c + dc;
    if (nr < 0 || nc < 0 || nr >= this.size || nc >= this.size) return null;
    return nr * this.size + nc;
  }

  areNeighbours(a, b) {
    const [ar, ac] = this.cellAt(a);
    const [br, bc] = this.cellAt(b);
    return Math.abs(ar - br) + Math.abs(ac - bc) === 1;
  }

  requestMove(from, to) {
    this.select(null);
    if (this.callbacks.onMove) this.callbacks.onMove(this.cellAt(from), this.cellAt(to));
  }

  hint(message) {
    if (this.callbacks.onHint) this.callbacks.onHint(message);
  }

  // Click or Enter on a cell: select a number, then a neighbour to move it there.
  activate(index) {
    if (this.mode !== "play") return;
    const sel = this.selected;
    if (sel === null) {
      if (this.values[index]) this.select(index);
      else this.hint("That square is empty: pick a number to move.");
    } else if (sel === index) {
      this.select(null);
    } else if (this.areNeighbours(sel, index)) {
      this.requestMove(sel, index);
    } else if (this.values[index]) {
      this.select(index);
    } else {
      this.select(null);
      this.hint("A number can only move to one of its four neighbours.");
    }
  }

  // -- keyboard ----------------------------------------------------------------

  onKeyDown(event) {
    if (!this.cells.length) return;
    const direction = DIRECTIONS[event.key];
    if (direction) {
      event.preventDefault();
      const target = this.neighbour(this.focusIndex, direction);
      if (event.shiftKey) {
        if (this.mode !== "play") return;
        if (!this.values[this.focusIndex]) {
          this.hint("There is no number here to move.");
          return;
        }
        if (target === null) {
          this.hint("Numbers cannot leave the grid.");
          return;
        }
        const from = this.focusIndex;
        this.setFocus(target);
        this.requestMove(from, target);
        return;
      }
      if (target !== null) this.setFocus(target);
      return;
    }
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.activate(this.focusIndex);
    } else if (event.key === "Escape") {
      this.select(null);
    } else if (event.key === "Home") {
      event.preventDefault();
      this.setFocus(this.focusIndex - (this.focusIndex % this.size));
    } else if (event.key === "End") {
      event.preventDefault();
      this.setFocus(this.focusIndex - (this.focusIndex % this.size) + this.size - 1);
    }
  }

  // -- pointer: drag, click, long press, taps and swipes -------------------------

  onPointerDown(event) {
    if (event.pointerType === "mouse" && event.button !== 0) return;
    const cell = event.target.closest(".cell");
    if (!cell || this.pointer) return;
    const index = Number(cell.dataset.index);
    this.pointer = {
      id: event.pointerId,
      index,
      x: event.clientX,
      y: event.clientY,
      dx: 0,
      dy: 0,
      target: null,
      done: false,
      timer: setTimeout(() => this.onLongPressTimer(), LONG_PRESS_MS),
    };
    try {
      this.element.setPointerCapture(event.pointerId);
    } catch {
      // The pointer may already be gone; the move handler copes without capture.
    }
    if (this.mode === "play" && this.values[index]) cell.classList.add("is-pressed");
    this.setFocus(index, { move: false });
  }

  onLongPressTimer() {
    const p = this.pointer;
    if (!p || p.done) return;
    if (Math.hypot(p.dx, p.dy) > TAP_SLOP_PX) return;
    p.done = true;
    this.resetDragVisuals();
    if (this.callbacks.onLongPress) this.callbacks.onLongPress();
  }

  dragTarget(p) {
    const cellSize = this.element.getBoundingClientRect().width / this.size;
    if (Math.max(Math.abs(p.dx), Math.abs(p.dy)) < cellSize * DRAG_FRACTION) return null;
    const direction =
      Math.abs(p.dx) >= Math.abs(p.dy) ? [0, Math.sign(p.dx)] : [Math.sign(p.dy), 0];
    return this.neighbour(p.index, direction);
  }

  onPointerMove(event) {
    const p = this.pointer;
    if (!p || p.id !== event.pointerId || p.done) return;
    p.dx = event.clientX - p.x;
    p.dy = event.clientY - p.y;
    if (Math.hypot(p.dx, p.dy) > TAP_SLOP_PX) clearTimeout(p.timer);
    if (this.mode !== "play" || !this.values[p.index]) return;
    const target = this.dragTarget(p);
    if (target !== p.target) {
      if (p.target !== null) this.cells[p.target].classList.remove("is-drop-target");
      if (target !== null) this.cells[target].classList.add("is-drop-target");
      p.target = target;
    }
    // Let the number follow the finger along one axis, at most one cell.
    const cellSize = this.element.getBoundingClientRect().width / this.size;
    const horizontal = Math.abs(p.dx) >= Math.abs(p.dy);
    const shift = Math.max(-cellSize, Math.min(cellSize, horizontal ? p.dx : p.dy));
    const face = this.cells[p.index].firstChild;
    face.style.transform = horizontal ? `translateX(${shift}px)` : `translateY(${shift}px)`;
    this.cells[p.index].classList.add("is-dragging");
  }

  onPointerUp(event) {
    const p = this.pointer;
    if (!p || p.id !== event.pointerId) return;
    clearTimeout(p.timer);
    this.pointer = null;
    this.resetDragVisuals(p);
    if (p.done) return;
    p.dx = event.clientX - p.x;
    p.dy = event.clientY - p.y;
    const distance = Math.hypot(p.dx, p.dy);
    if (this.mode === "history") {
      if (distance > SWIPE_PX) {
        if (this.callbacks.onSwipe) this.callbacks.onSwipe(p.dx < 0 ? "left" : "right");
      } else if (this.callbacks.onHalfTap) {
        const box = this.element.getBoundingClientRect();
        this.callbacks.onHalfTap(event.clientX < box.left + box.width / 2 ? "left" : "right");
      }
      return;
    }
    if (this.mode !== "play") return;
    const target = this.values[p.index] ? this.dragTarget(p) : null;
    if (target !== null) {
      this.requestMove(p.index, target);
    } else if (distance <= TAP_SLOP_PX) {
      this.activate(p.index);
    } else if (this.values[p.index]) {
      this.hint("Drag a number onto a neighbour to move it; numbers cannot leave the grid.");
    }
  }

  cancelPointer() {
    if (!this.pointer) return;
    clearTimeout(this.pointer.timer);
    this.resetDragVisuals(this.pointer);
    this.pointer = null;
  }

  resetDragVisuals(p = this.pointer) {
    if (!p) return;
    const cell = this.cells[p.index];
    if (cell) {
      cell.classList.remove("is-pressed", "is-dragging");
      cell.firstChild.style.transform = "";
    }
    if (p.target !== null && this.cells[p.target]) {
      this.cells[p.target].classList.remove("is-drop-target");
    }
  }
}

// Apply a move to plain values (Z10 arithmetic), as the server will: the
// destination becomes (destination + source) mod 10 and the source empties.
export function applyMove(values, size, [fr, fc], [tr, tc]) {
  const next = values.slice();
  const from = fr * size + fc;
  const to = tr * size + tc;
  next[to] = (next[to] + next[from]) % 10;
  next[from] = 0;
  return next;
}

// Indices whose value differs between two boards of the same size.
export function changedCells(before, after) {
  const changed = [];
  if (!before || before.length !== after.length) return changed;
  for (let i = 0; i < after.length; i += 1) if (before[i] !== after[i]) changed.push(i);
  return changed;
}
