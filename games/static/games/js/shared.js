// The public replay page of a shared game: anybody with the link steps through
// the boards of a finished game. It asks the public API for the replay only
// (GET /api/v1/shared/<token>/), which holds no player, notes or seed.

import { api, withRetry } from "./api.js";
import { BoardView, changedCells } from "./board.js";
import { REPLAY_INTERVAL_MS, parseBoard, showReplayControls, spanningLegend } from "./play-common.js";
import { StatusLine } from "./status.js";

const $ = (id) => document.getElementById(id);

class SharedReplay {
  constructor(root) {
    this.token = root.dataset.token;
    this.status = new StatusLine($("status"));
    this.board = new BoardView($("board"));
    this.board.setMode("view");
    this.boards = [];
    this.index = 0;
    this.timer = null;
    this.spanning = null;
    this.variant = root.dataset.variant;
    $("replay-first").addEventListener("click", () => this.show(0));
    $("replay-prev").addEventListener("click", () => this.show(this.index - 1));
    $("replay-next").addEventListener("click", () => this.show(this.index + 1));
    $("replay-last").addEventListener("click", () => this.show(this.boards.length - 1));
    $("replay-play").addEventListener("click", () => this.toggleAutoplay());
    $("replay-slider").addEventListener("input", (event) =>
      this.show(Number(event.target.value), { fromSlider: true }),
    );
    $("share-copy").addEventListener("click", () => this.copyLink());
  }

  async load() {
    this.status.show("Loading the replay…", { kind: "working" });
    try {
      const game = await withRetry(() => api.shared(this.token));
      this.boards = (game.replay || []).map(parseBoard);
      if (!this.boards.length && game.board) this.boards.push(parseBoard(game.board));
      this.spanning = game.loss && game.loss.group !== undefined ? game.loss.group : null;
      this.variant = game.rules.variant;
      const final = this.boards[this.boards.length - 1];
      const legend = final ? spanningLegend(final.labels, this.spanning) : "";
      $("board-legend").textContent = legend;
      $("board-legend").hidden = !legend;
      $("replay-slider").max = String(Math.max(0, this.boards.length - 1));
      this.status.clear();
      this.show(this.boards.length - 1);
    } catch (error) {
      this.status.show(`The replay could not be loaded: ${error.message}`, { kind: "error" });
    }
  }

  show(index, { fromSlider = false } = {}) {
    if (!this.boards.length) return;
    const last = this.boards.length - 1;
    const target = Math.max(0, Math.min(last, index));
    const previous = this.boards[this.index];
    const board = this.boards[target];
    const stepped = Math.abs(target - this.index) === 1;
    this.index = target;
    // The game is over: every number is revealed, also in Phi-Lambda games.
    this.board.render(board, {
      variant: this.variant,
      reveal: true,
      showGroups: true,
      spanning: this.spanning,
      changed: stepped && !fromSlider && previous ? changedCells(previous.values, board.values) : null,
    });
    showReplayControls(target, last, board.t);
    if (target === last && this.timer) this.stop();
  }

  toggleAutoplay() {
    if (this.timer) {
      this.stop();
      return;
    }
    if (this.index >= this.boards.length - 1) this.show(0);
    $("replay-play").setAttribute("aria-pressed", "true");
    $("replay-play").textContent = "Pause";
    this.timer = setInterval(() => this.show(this.index + 1), REPLAY_INTERVAL_MS);
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
    $("replay-play").setAttribute("aria-pressed", "false");
    $("replay-play").textContent = "Auto-play";
  }

  async copyLink() {
    const url = $("share-copy").dataset.copy;
    try {
      await navigator.clipboard.writeText(url);
      this.status.show("Link copied.", { timeout: 3000 });
    } catch {
      this.status.show(`Copy this link: ${url}`, { timeout: 8000 });
    }
  }
}

const root = $("shared-app");
if (root) new SharedReplay(root).load();
