// The tutorial: a few scripted boards played entirely in the browser.
//
// Each step sets up a small board and either explains something or waits for
// the player to do it. Moves follow the real rules (numbers add up modulo 10,
// groups merge); the noise is scripted so that every player sees the same thing.

import { BoardView, changedCells } from "./board.js";
import { StatusLine } from "./status.js";

const $ = (id) => document.getElementById(id);
const N = 4;
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

// A board from rows of [value, group] pairs written as "7a" (value 7 in group
// a) or "." for an empty cell.
function board(rows) {
  const values = [];
  const labels = [];
  for (const row of rows) {
    for (const cell of row.split(" ")) {
      if (cell === ".") {
        values.push(0);
        labels.push(0);
      } else {
        values.push(Number(cell[0]));
        labels.push(cell.charCodeAt(1) - 96);
      }
    }
  }
  return { values, labels };
}

function spanningGroup({ labels }) {
  const at = (r, c) => labels[r * N + c];
  for (let i = 0; i < N; i += 1) {
    for (let j = 0; j < N; j += 1) {
      if (at(0, i) && at(0, i) === at(N - 1, j)) return at(0, i);
      if (at(i, 0) && at(i, 0) === at(j, N - 1)) return at(i, 0);
    }
  }
  return null;
}

function applyMove(state, [fr, fc], [tr, tc]) {
  const values = state.values.slice();
  const labels = state.labels.slice();
  const src = fr * N + fc;
  const dst = tr * N + tc;
  const moved = labels[src];
  if (values[dst] && labels[dst] !== moved) {
    // The groups merge: the destination's id survives.
    const survivor = labels[dst];
    for (let i = 0; i < labels.length; i += 1) if (labels[i] === moved) labels[i] = survivor;
  } else if (!values[dst]) {
    labels[dst] = moved;
  }
  values[dst] = (values[dst] + values[src]) % 10;
  values[src] = 0;
  labels[src] = 0;
  if (!values[dst]) labels[dst] = 0;
  return { values, labels };
}

const STEPS = [
  {
    title: "The grid",
    text: [
      "Decodoku is played on a square grid. Each square is empty or holds a number from 1 to 9.",
      "Numbers are born in pairs on neighbouring squares, and each pair adds up to 10: here a 3 and a 7, and a 2 and an 8.",
    ],
    board: board(["2a . . .", "8a . . .", ". 3b 7b .", ". . . ."]),
  },
  {
    title: "Your first move",
    text: [
      "Move a number onto a neighbour (up, down, left or right) and the two add up, keeping only the last digit: 3 + 7 = 10 leaves 0, so both disappear.",
    ],
    task: "Drag the 3 onto the 7. You can also click the 3 and then the 7, or use the arrow keys and Shift + arrow.",
    board: board(["2a . . .", "8a . . .", ". 3b 7b .", ". . . ."]),
    done: (state) => state.values[2 * N + 1] === 0 && state.values[2 * N + 2] === 0,
    success: "Gone! Clearing numbers is how you fight the noise.",
  },
  {
    title: "Numbers that do not cancel",
    text: [
      "Not every move clears the squares: 4 + 5 = 9, so moving the 4 onto the 5 leaves a 9. Moving onto an empty square simply moves the number.",
      "Numbers that were born together, or that you combined, form a group. Every group adds up to a multiple of 10, so a group can always be cleared completely.",
    ],
    task: "Clear the whole board. Hint: the 4, 5 and 1 belong together.",
    board: board([". . . .", ". 4c 5c .", ". . 1c .", ". . . ."]),
    done: (state) => state.values.every((v) => v === 0),
    // Praise that counts: the fewest moves is 2 (the 4 onto the 5, then the 1 onto the 9).
    success: (moves) =>
      moves <= 2
        ? `Board cleared in ${moves} moves, the fewest possible. Well done!`
        : `Board cleared in ${moves} moves. Well done! It can be done in 2: the 4 onto the 5 makes a 9, then the 1 onto the 9.`,
  },
  {
    title: "Noise",
    text: [
      "You never get the board to yourself for long. After every five moves comes a round of noise: new pairs appear, and numbers already on the board get changed.",
      "The counter above the grid shows how many moves are left before the next round.",
    ],
    task: "Press “Let the noise in” to watch a round of noise arrive.",
    board: board([". . . .", ". . . .", ". . 6d .", ". . 4d ."]),
    movesLeft: 1,
    // Four errors: three new pairs (1 and 9, 2 and 8, 5 and 5) and one that hits
    // the 6 and the new 2, turning both into 9s and merging their groups.
    noise: board([". 1e . .", ". 9e . .", ". . 9d 9d", "5g 5g 4d 8d"]),
  },
  {
    title: "What ends the game",
    text: [
      "Groups are hidden in a real game: you only see the numbers and have to guess which ones belong together. Here they are coloured.",
      "When one group touches two opposite edges of the grid, top and bottom or left and right, the game is over. The noise has just made the outlined group reach from the top to the bottom.",
      "After noise you always get one more move to save the game.",
    ],
    task: "Break the span: move a number of the outlined group so that the group no longer touches both edges.",
    board: board([". 1h . .", ". 4h . .", ". 2h . 3i", ". 3h . 7i"]),
    spanning: true,
    done: (state) => spanningGroup(state) === null,
    success: "Saved! The group no longer reaches across. In a real game, the next noise round would now begin.",
  },
  {
    title: "Ready to play",
    text: [
      "Your score is the number of moves you survive. The noise is a little stronger than five moves can undo, so every game ends eventually: the aim is to hold out as long as you can.",
      "Stuck? Long-press the grid (or press ◀) to look back at earlier boards, then return to the present to play on.",
      "In the Φ and Λ variant the numbers are hidden: a 5 shows as Λ and every other number as Φ.",
    ],
    board: board(["2a 8a . .", ". . 5b .", ". . 5b .", ". . . ."]),
    last: true,
  },
];

class Tutorial {
  constructor() {
    this.status = new StatusLine($("status"));
    this.view = new BoardView($("board"), {
      onMove: (from, to) => this.onMove(from, to),
      onHint: (message) => this.status.show(message, { timeout: 4000 }),
    });
    this.index = 0;
    this.state = null;
    this.moves = 0;
    this.finished = new Set(); // steps whose task was done once: Next stays open on a revisit
    $("tutorial-next").addEventListener("click", () => this.next());
    $("tutorial-back").addEventListener("click", () => this.go(this.index - 1));
    $("tutorial-reset").addEventListener("click", () => this.go(this.index));
  }

  get step() {
    return STEPS[this.index];
  }

  go(index) {
    this.index = Math.max(0, Math.min(STEPS.length - 1, index));
    const step = this.step;
    this.state = { values: step.board.values.slice(), labels: step.board.labels.slice() };
    this.moves = 0;
    this.completed = !step.done && !step.noise;
    this.noiseDone = false;
    $("tutorial-progress").textContent = `Step ${this.index + 1} of ${STEPS.length}`;
    $("tutorial-title").textContent = step.title;
    const text = $("tutorial-text");
    text.replaceChildren(
      ...step.text.map((paragraph) => {
        const p = document.createElement("p");
        p.textContent = paragraph;
        return p;
      }),
    );
    const task = $("tutorial-task");
    task.hidden = !step.task;
    task.textContent = step.task || "";
    task.classList.remove("is-done");
    $("tutorial-back").disabled = this.index === 0;
    $("tutorial-reset").hidden = !step.done;
    $("tutorial-play").hidden = !step.last;
    $("tutorial-next").hidden = Boolean(step.last);
    $("tutorial-next").textContent = step.noise ? "Let the noise in" : "Next";
    this.status.clear();
    this.draw();
    this.updateNext();
    this.keepInView();
  }

  next() {
    const step = this.step;
    if (step.noise && !this.noiseDone) {
      this.runNoise();
      return;
    }
    this.go(this.index + 1);
    $("tutorial-title").focus({ preventScroll: true });
  }

  // On a narrow screen the step's card sits below the board: scroll just enough for its
  // text and buttons to show, with the counters above the board when there is room, and
  // never so far that the board's top leaves the screen.
  keepInView() {
    const hud = document.querySelector(".tutorial .hud").getBoundingClientRect();
    const board = $("board").getBoundingClientRect();
    const card = document.querySelector(".tutorial-card").getBoundingClientRect();
    if (card.top < board.bottom) return; // side by side: both are in view already
    const needed = card.bottom + 8 - window.innerHeight;
    const most = (needed > hud.top - 8 ? board.top : hud.top) - 8;
    const by = Math.min(Math.max(needed, 0), most);
    if (Math.abs(by) < 1) return;
    window.scrollTo({ top: Math.max(0, window.scrollY + by), behavior: "instant" });
  }

  draw(options = {}) {
    const step = this.step;
    const showGroups = this.index >= 4;
    const spanning = step.spanning ? spanningGroup(this.state) : null;
    this.view.render(this.state, {
      variant: "z10",
      showGroups,
      spanning,
      ...options,
    });
    this.view.setMode(step.done && !this.completed ? "play" : "view");
    const left = step.movesLeft !== undefined && !this.noiseDone ? step.movesLeft : 5 - (this.moves % 5);
    $("tutorial-moves").textContent = String(this.moves);
    $("tutorial-moves-left").textContent = String(left);
  }

  updateNext() {
    const button = $("tutorial-next");
    button.disabled = Boolean(this.step.done && !this.completed && !this.finished.has(this.index));
  }

  onMove(from, to) {
    const step = this.step;
    if (!step.done || this.completed) return;
    this.state = applyMove(this.state, from, to);
    this.moves += 1;
    const dst = to[0] * N + to[1];
    if (step.done(this.state)) {
      this.completed = true;
      this.finished.add(this.index);
      const task = $("tutorial-task");
      const success = typeof step.success === "function" ? step.success(this.moves) : step.success;
      task.textContent = success;
      task.classList.add("is-done");
      this.status.show(success);
      this.draw({ moved: dst });
      this.updateNext();
      $("tutorial-next").focus({ preventScroll: true });
      this.keepInView();
      return;
    }
    this.draw({ moved: dst });
  }

  runNoise() {
    const before = this.state.values;
    this.state = { values: this.step.noise.values.slice(), labels: this.step.noise.labels.slice() };
    this.noiseDone = true;
    this.completed = true;
    const changed = changedCells(before, this.state.values);
    this.draw({ changed });
    this.status.show(`Noise! ${changed.length} squares changed. Noise also hit the 6: it is a 9 now.`);
    const task = $("tutorial-task");
    task.textContent = "That was one round of noise. Numbers that flashed are new or changed.";
    task.classList.add("is-done");
    $("tutorial-next").textContent = "Next";
    this.keepInView();
    if (!reducedMotion.matches) $("board").classList.add("is-shaking");
    setTimeout(() => $("board").classList.remove("is-shaking"), 500);
  }
}

new Tutorial().go(0);
