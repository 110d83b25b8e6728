// The planar family on the play page: the board with its sides, moves off the
// board, and the picture of the net chain once the board is clean.
//
// A planar board's left and right sides are open: a number in the first or the
// last column may leave the board through them (to column -1 or L). The top and
// the bottom are closed; a move through them is sent anyway, so that the player
// reads the server's own refusal. The chain picture sums every error of the
// noise and every move on the edge it used, mod d; the charge it carries across
// the left side is the game's logical outcome (docs/rules.md, the planar family).

import { BoardView } from "./board.js";
import { onBoard } from "./play-common.js";

const SVG = "http://www.w3.org/2000/svg";
const DRAG_FRACTION = 0.35;
const SIDE_NAMES = { left: "left", right: "right", top: "top", bottom: "bottom" };

function mod(value, modulus) {
  return ((value % modulus) + modulus) % modulus;
}

// The cell just outside `index` in `direction`, or null when the neighbour is on the board.
function outsideOf(size, index, [dr, dc]) {
  const cell = [Math.floor(index / size) + dr, (index % size) + dc];
  return onBoard(cell, size) ? null : cell;
}

/**
 * The board of either family. For a planar game (``setPlanar(true)``) it draws the
 * four sides around the grid and reports moves off the board as ``onMove(from, to)``
 * with ``to`` outside the grid; otherwise it is the original game's board.
 */
export class PlanarBoardView extends BoardView {
  constructor(element, callbacks = {}) {
    super(element, callbacks);
    this.planar = false;
    this.frame = element.parentElement;
    this.sides = {};
    for (const side of Object.keys(SIDE_NAMES)) {
      const strip = document.createElement("div");
      strip.className = `planar-side planar-side-${side}`;
      strip.dataset.side = side;
      strip.hidden = true;
      this.frame.append(strip);
      this.sides[side] = strip;
    }
    this.frame.addEventListener("click", (event) => {
      const exit = event.target.closest(".planar-exit");
      if (exit) this.onExit(exit);
    });
  }

  setPlanar(planar) {
    this.planar = Boolean(planar);
    this.frame.classList.toggle("is-planar", this.planar);
    for (const strip of Object.values(this.sides)) strip.hidden = !this.planar;
    this.buildSides();
  }

  setSize(size) {
    const changed = size !== this.size;
    super.setSize(size);
    if (changed) this.buildSides();
  }

  // One exit per row on the open sides (each a drop target beside its row), one bar
  // on each closed side.
  buildSides() {
    const n = this.size;
    this.frame.style.setProperty("--n", String(n));
    for (const [side, strip] of Object.entries(this.sides)) {
      const open = side === "left" || side === "right";
      const exits = [];
      for (let r = 0; r < (open ? n : 1); r += 1) {
        const exit = document.createElement("button");
        exit.type = "button";
        exit.className = `planar-exit ${open ? "is-open" : "is-closed"}`;
        exit.dataset.side = side;
        exit.tabIndex = -1; // the keyboard moves with Shift + arrow keys
        if (open) {
          exit.dataset.row = String(r);
          exit.setAttribute("aria-label", `Open ${side} side, row ${r + 1}`);
          exit.textContent = side === "left" ? "‹" : "›";
        } else {
          exit.setAttribute("aria-label", `Closed ${side} side`);
          exit.textContent = "closed";
        }
        exits.push(exit);
      }
      strip.replaceChildren(...exits);
    }
  }

  exitFor(cell) {
    const [r, c] = cell;
    if (c < 0) return this.sides.left.children[r] || null;
    if (c >= this.size) return this.sides.right.children[r] || null;
    return (r < 0 ? this.sides.top : this.sides.bottom).firstElementChild;
  }

  markExit(cell) {
    for (const exit of this.frame.querySelectorAll(".planar-exit.is-drop-target")) {
      exit.classList.remove("is-drop-target");
    }
    if (cell) this.exitFor(cell)?.classList.add("is-drop-target");
  }

  // Where a drag from `p.index` leaves the board, or null (still on it, or too short).
  dragOutside(p) {
    const cellSize = this.element.getBoundingClientRect().width / this.size;
    if (Math.max(Math.abs(p.dx), Math.abs(p.dy)) < cellSize * DRAG_FRACTION) return null;
    const direction =
      Math.abs(p.dx) >= Math.abs(p.dy) ? [0, Math.sign(p.dx)] : [Math.sign(p.dy), 0];
    return outsideOf(this.size, p.index, direction);
  }

  requestOutside(index, cell) {
    this.select(null);
    this.markExit(null);
    if (this.callbacks.onMove) this.callbacks.onMove(this.cellAt(index), cell);
  }

  onPointerMove(event) {
    super.onPointerMove(event);
    const p = this.pointer;
    if (!this.planar || !p || p.done || this.mode !== "play" || !this.values[p.index]) return;
    this.markExit(this.dragOutside(p));
  }

  onPointerUp(event) {
    const p = this.pointer;
    if (this.planar && p && p.id === event.pointerId && !p.done && this.mode === "play") {
      const outside = this.values[p.index]
        ? this.dragOutside({ ...p, dx: event.clientX - p.x, dy: event.clientY - p.y })
        : null;
      if (outside) {
        clearTimeout(p.timer);
        this.pointer = null;
        this.resetDragVisuals(p);
        this.requestOutside(p.index, outside);
        return;
      }
    }
    this.markExit(null);
    super.onPointerUp(event);
  }

  cancelPointer() {
    this.markExit(null);
    super.cancelPointer();
  }

  onKeyDown(event) {
    const direction = {
      ArrowUp: [-1, 0],
      ArrowDown: [1, 0],
      ArrowLeft: [0, -1],
      ArrowRight: [0, 1],
    }[event.key];
    if (this.planar && direction && event.shiftKey && this.mode === "play") {
      const outside = outsideOf(this.size, this.focusIndex, direction);
      if (outside && this.values[this.focusIndex]) {
        event.preventDefault();
        this.requestOutside(this.focusIndex, outside);
        return;
      }
    }
    super.onKeyDown(event);
  }

  // A click on a side: move the selected number through it. A closed side is tried
  // too; the server says why it refuses.
  onExit(exit) {
    if (!this.planar || this.mode !== "play") return;
    const side = exit.dataset.side;
    const selected = this.selected;
    if (selected === null) {
      this.hint(
        side === "left" || side === "right"
          ? `Pick a number in the ${side === "left" ? "first" : "last"} column, then this side.`
          : "Pick a number first, then a side.",
      );
      return;
    }
    const [r, c] = this.cellAt(selected);
    const target = {
      left: [r, -1],
      right: [r, this.size],
      top: [-1, c],
      bottom: [this.size, c],
    }[side];
    const edgeCell = { left: c === 0, right: c === this.size - 1, top: r === 0, bottom: r === this.size - 1 };
    if (!edgeCell[side]) {
      this.hint(
        side === "left" || side === "right"
          ? `Only a number in the ${side === "left" ? "first" : "last"} column can leave through the ${side} side.`
          : `Only a number next to the ${side} side could reach it.`,
      );
      return;
    }
    this.requestOutside(selected, target);
  }
}

/**
 * The net chain after ``step`` moves: every error of the noise and every move, summed
 * on the edge it used, mod ``modulus`` (``layer`` "noise" or "moves": one of the two
 * alone). Edges are keyed "h,r,k" (the horizontal edge of row r left of column k;
 * k = 0 is the left side, k = size the right side) and "v,r,c" (between (r, c) and
 * (r + 1, c)); a value is the charge carried rightwards or downwards. ``charge`` is
 * the value carried across the left side.
 */
export function netChain(events, { size, modulus, step = Infinity, layer = "net" }) {
  const edges = new Map();
  const add = ([r1, c1], [r2, c2], amount) => {
    // `amount` travels from (r1, c1) to (r2, c2), two neighbouring cells (or a side).
    let key;
    let signed;
    if (r1 === r2) {
      key = `h,${r1},${Math.max(c1, c2)}`;
      signed = c2 > c1 ? amount : -amount;
    } else {
      key = `v,${Math.min(r1, r2)},${c1}`;
      signed = r2 > r1 ? amount : -amount;
    }
    edges.set(key, mod((edges.get(key) || 0) + signed, modulus));
  };
  for (const event of events || []) {
    if (event.kind === "noise" && layer !== "moves") {
      // The first cell gains a, the second loses it: a travels from the second to the first.
      add([event.row2, event.col2], [event.row1, event.col1], event.a);
    } else if (event.kind === "move" && event.index <= step && layer !== "noise") {
      add([event.from_row, event.from_col], [event.to_row, event.to_col], event.value);
    }
  }
  for (const [key, value] of edges) if (!value) edges.delete(key);
  let charge = 0;
  for (let r = 0; r < size; r += 1) charge += edges.get(`h,${r},0`) || 0;
  return { edges, charge: mod(charge, modulus) };
}

/** The chain picture: an SVG over the board frame, drawn from the cells' own boxes. */
export class ChainPicture {
  constructor(board) {
    this.board = board;
    this.svg = document.createElementNS(SVG, "svg");
    this.svg.classList.add("chain-picture");
    this.svg.setAttribute("aria-hidden", "true");
    this.svg.setAttribute("hidden", ""); // an SVG element has no hidden property
    board.frame.append(this.svg);
    this.last = null;
    window.addEventListener("resize", () => {
      if (this.last) this.draw(...this.last);
    });
  }

  clear() {
    this.last = null;
    this.svg.setAttribute("hidden", "");
    this.svg.replaceChildren();
    this.board.frame.classList.remove("has-chain", "is-logical-error", "is-chain-partial");
  }

  // Draw `chain` (netChain's answer) on a board of `size`; `failed` colours it as a
  // logical error.
  draw(chain, { size, modulus, failed }) {
    this.last = [chain, { size, modulus, failed }];
    const frame = this.board.frame.getBoundingClientRect();
    const cells = this.board.cells;
    if (!cells.length) return;
    const box = (r, c) => cells[r * size + c].getBoundingClientRect();
    const first = box(0, 0);
    const pitch = size > 1 ? box(0, 1).left - first.left : first.width;
    const centre = (r, c) => {
      // Column -1 and column `size` are the sides, a pitch outside the grid.
      const inside = Math.min(Math.max(c, 0), size - 1);
      const b = box(r, inside);
      const shift = c < 0 ? -pitch : c >= size ? pitch : 0;
      return [b.left + b.width / 2 + shift - frame.left, b.top + b.height / 2 - frame.top];
    };
    this.svg.setAttribute("width", String(frame.width));
    this.svg.setAttribute("height", String(frame.height));
    this.svg.setAttribute("viewBox", `0 0 ${frame.width} ${frame.height}`);
    const parts = [];
    const width = Math.max(3, first.width * 0.16);
    for (const [key, value] of chain.edges) {
      const [kind, a, b] = key.split(",");
      const r = Number(a);
      const k = Number(b);
      const [from, to] = kind === "h" ? [centre(r, k - 1), centre(r, k)] : [centre(r, k), centre(r + 1, k)];
      const line = document.createElementNS(SVG, "line");
      line.setAttribute("x1", String(from[0]));
      line.setAttribute("y1", String(from[1]));
      line.setAttribute("x2", String(to[0]));
      line.setAttribute("y2", String(to[1]));
      line.setAttribute("stroke-width", String(width));
      line.classList.add("chain-edge");
      const side = kind === "h" && (k === 0 || k === size);
      if (side) line.classList.add("is-side");
      line.dataset.edge = key;
      line.dataset.value = String(value);
      parts.push(line);
      if (modulus > 2) parts.push(this.label(from, to, value, modulus, kind, first.width));
    }
    this.svg.replaceChildren(...parts);
    this.svg.removeAttribute("hidden");
    this.board.frame.classList.add("has-chain");
    this.board.frame.classList.toggle("is-logical-error", Boolean(failed));
  }

  // The value on an edge, as the smaller of its two readings with an arrow: 7 rightwards
  // is 3 leftwards mod 10.
  label([x1, y1], [x2, y2], value, modulus, kind, cell) {
    const forward = value <= modulus - value;
    const shown = forward ? value : modulus - value;
    const arrow = kind === "h" ? (forward ? "→" : "←") : forward ? "↓" : "↑";
    const text = document.createElementNS(SVG, "text");
    text.setAttribute("x", String((x1 + x2) / 2));
    text.setAttribute("y", String((y1 + y2) / 2));
    text.setAttribute("font-size", String(Math.max(10, cell * 0.3)));
    text.classList.add("chain-label");
    text.textContent = `${shown}${arrow}`;
    return text;
  }
}

/** The sentence under a clean board: what the chain shows, and the logical outcome. */
export function outcomeText({ charge, failed }, modulus, edges) {
  if (!edges) {
    return (
      "Your moves retraced the noise on every edge: the net chain (every error and every move " +
      `summed on its edge, mod ${modulus}) is empty, so it cannot join the two sides: no logical error.`
    );
  }
  if (failed) {
    return (
      `The lines are the net chain: every error and every move summed on its edge, mod ${modulus}. ` +
      `It carries a charge of ${charge} across the left side, so it joins the left side to the ` +
      "right side: a logical error. The noise and your corrections together flipped the encoded value."
    );
  }
  return (
    `The lines are the net chain: every error and every move summed on its edge, mod ${modulus}. ` +
    "It carries no charge across the left side, so it does not join the left side to the right " +
    "side: no logical error. Your corrections undid the noise."
  );
}

/** The setup form's planar fields, shown when the planar family is chosen. */
export function showFamilyFields(form) {
  const planar = form.elements.family.value === "planar";
  for (const part of form.querySelectorAll("[data-family]")) {
    part.hidden = part.dataset.family !== (planar ? "planar" : "original");
  }
}

// What each layer of the chain picture shows, for the caption under its choice.
export const LAYER_TEXT = {
  net: "The net chain: the errors and your moves summed on every edge.",
  moves: "Your moves: the path of every number you moved, summed on every edge.",
  noise: "The noise: the errors of the first board, each on its edge.",
};
