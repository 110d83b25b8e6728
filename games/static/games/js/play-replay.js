// The replay of a finished game: every board from the first to the last, with
// the spanning group outlined, stepped through by hand or played automatically.

import { changedCells } from "./board.js";
import { $, REPLAY_INTERVAL_MS, parseBoard, showReplayControls } from "./play-common.js";

export class Replay {
  constructor(page) {
    this.page = page;
    this.state = null; // {boards, index, timer, spanning} once a game has finished
  }

  clear() {
    this.state = null;
  }

  setup(game) {
    const boards = (game.replay || []).map(parseBoard);
    if (!boards.length) boards.push(this.page.current);
    this.state = { boards, index: boards.length - 1, timer: null, spanning: game.loss ? game.loss.group : null };
    const slider = $("replay-slider");
    slider.max = String(boards.length - 1);
    slider.value = String(boards.length - 1);
    $("replaybar").hidden = false;
    this.show(boards.length - 1);
  }

  first() {
    this.show(0);
  }

  previous() {
    this.show(this.state.index - 1);
  }

  next() {
    this.show(this.state.index + 1);
  }

  last() {
    this.show(this.state.boards.length - 1);
  }

  show(index, { fromSlider = false } = {}) {
    const replay = this.state;
    if (!replay) return;
    const last = replay.boards.length - 1;
    const target = Math.max(0, Math.min(last, index));
    const previous = replay.boards[replay.index];
    const board = replay.boards[target];
    const stepped = Math.abs(target - replay.index) === 1;
    replay.index = target;
    this.page.board.render(board, {
      variant: this.page.game.rules.variant,
      reveal: true, // the game is over: Phi and Lambda show their numbers
      showGroups: true,
      spanning: replay.spanning,
      changed: stepped && !fromSlider ? changedCells(previous.values, board.values) : null,
    });
    // A planar game's counter says Moves: the move number is all there is to say.
    showReplayControls(target, last, this.page.isPlanar ? null : board.t);
    this.page.moveList.highlight(target);
    // A planar game draws its chain up to this step over the board.
    if (this.page.onReplayStep) this.page.onReplayStep(board.step ?? target);
    if (target === last && replay.timer) this.stop();
  }

  toggleAutoplay() {
    if (this.state.timer) {
      this.stop();
      return;
    }
    if (this.state.index >= this.state.boards.length - 1) this.show(0);
    $("replay-play").setAttribute("aria-pressed", "true");
    $("replay-play").textContent = "Pause";
    this.state.timer = setInterval(() => this.show(this.state.index + 1), REPLAY_INTERVAL_MS);
  }

  stop() {
    if (this.state && this.state.timer) clearInterval(this.state.timer);
    if (this.state) this.state.timer = null;
    $("replay-play").setAttribute("aria-pressed", "false");
    $("replay-play").textContent = "Auto-play";
  }
}
