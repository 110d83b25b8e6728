// The play page: one game against the server, from the first board to the replay.
//
// The server is the referee: it plays every move, runs the noise and decides
// when the game is over. This page shows its boards, sends the player's moves
// (each with the step number it was made at, so a resent move is never played
// twice), lets the player look back in time, and after the game shows the
// spanning group and a replay.

import { ApiError, api, withRetry } from "./api.js";
import { BoardView, changedCells } from "./board.js";
import { ensurePlayer, playerContext } from "./consent.js";
import { StatusLine } from "./status.js";
import { VARIANT_NAMES, VARIANT_SHORT_NAMES, spokenFor, symbolFor } from "./symbols.js";

const STORAGE_GAME = "decodoku.game"; // {id, moves: [{index, from, to, value, note}]}
const STORAGE_PREFS = "decodoku.prefs"; // {size, variant, mode}
const NOISE_DELAY_MS = 380;
const REPLAY_INTERVAL_MS = 650;
const SLOW_REQUEST_MS = 500;
const MOVE_TRIES = 4;

const $ = (id) => document.getElementById(id);
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

// -- reading the server's boards ----------------------------------------------

// One character per cell: 0-9 the value; while a Phi-Lambda game is active the
// server sends L (a 5) and P (any other number). P becomes 1, which the board
// draws as Phi: the page never knows, and never needs, the hidden number.
function cellValue(char) {
  if (char >= "0" && char <= "9") return Number(char);
  if (char === "L") return 5;
  if (char === "P") return 1;
  return 0;
}

function parseBoard(view) {
  const values = [];
  for (const row of view.rows) for (const char of row) values.push(cellValue(char));
  const labels = view.groups ? view.groups.flat() : null;
  return { values, labels, step: view.step, t: view.t };
}

function readJSON(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null");
  } catch {
    return null;
  }
}

function writeJSON(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private browsing may refuse storage; resuming then relies on the server's list.
  }
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const AXIS_TEXT = {
  top_bottom: "from the top edge to the bottom edge",
  left_right: "from the left edge to the right edge",
  both: "across the grid both ways",
};

const DIRECTION_TEXT = { "-1,0": "up", "1,0": "down", "0,-1": "left", "0,1": "right" };

class PlayPage {
  constructor() {
    this.status = new StatusLine($("status"));
    this.board = new BoardView($("board"), {
      onMove: (from, to) => this.makeMove(from, to),
      onLongPress: () => this.enterHistory(),
      onHalfTap: (side) => (side === "left" ? this.historyBack() : this.historyForward()),
      onSwipe: () => this.returnToPresent(),
      onHint: (message) => this.status.show(message, { timeout: 4000 }),
    });
    this.game = null; // the latest public view of the game
    this.current = null; // the present board {values, labels}
    this.moves = []; // [{index, from, to, value, note}]
    this.view = "present"; // "present", "history" or "finished"
    this.historyStep = 0;
    this.historyCache = new Map();
    this.historyToken = 0;
    this.pending = null; // a move waiting for the server's answer
    this.busy = false;
    this.retryAction = null;
    this.replay = null; // {boards, index, timer}
    this.confirmingNewGame = false;
    this.bindControls();
  }

  // -- set-up ------------------------------------------------------------------

  bindControls() {
    $("back-button").addEventListener("click", () =>
      this.view === "history" ? this.historyBack() : this.enterHistory(),
    );
    $("forward-button").addEventListener("click", () => this.historyForward());
    $("present-button").addEventListener("click", () => this.returnToPresent());
    $("retry-button").addEventListener("click", () => this.retry());
    $("setup-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.onNewGame();
    });
    $("setup-form").addEventListener("change", () => this.resetNewGameConfirmation());
    $("play-again").addEventListener("click", () => this.startGame(this.prefs()));
    $("replay-first").addEventListener("click", () => this.showReplay(0));
    $("replay-prev").addEventListener("click", () => this.showReplay(this.replay.index - 1));
    $("replay-next").addEventListener("click", () => this.showReplay(this.replay.index + 1));
    $("replay-last").addEventListener("click", () => this.showReplay(this.replay.boards.length - 1));
    $("replay-play").addEventListener("click", () => this.toggleAutoplay());
    $("replay-slider").addEventListener("input", (event) =>
      this.showReplay(Number(event.target.value), { fromSlider: true }),
    );
    $("move-list").addEventListener("click", (event) => this.onMoveListClick(event));
    $("move-list").addEventListener("submit", (event) => this.onNoteSubmit(event));
    window.addEventListener("online", () => {
      if (this.retryAction) {
        this.status.show("Back online. Sending again…", { kind: "working" });
        this.retry();
      }
    });
    window.addEventListener("offline", () =>
      this.status.show("You are offline. Your next move will wait for the connection.", {
        kind: "error",
      }),
    );
  }

  prefs() {
    const form = $("setup-form");
    return {
      size: Number(form.elements.size.value),
      variant: form.elements.variant.value,
      mode: form.elements.mode.value,
    };
  }

  applyPrefs(prefs) {
    if (!prefs) return;
    const form = $("setup-form");
    if (prefs.size && [...form.elements.size.options].some((o) => Number(o.value) === prefs.size)) {
      form.elements.size.value = String(prefs.size);
    }
    for (const name of ["variant", "mode"]) {
      const input = [...form.elements[name]].find((i) => i.value === prefs[name]);
      if (input) input.checked = true;
    }
  }

  async start() {
    this.applyPrefs(readJSON(STORAGE_PREFS));
    if (!playerContext().hasPlayer) {
      this.showOverlay("Choose your game, decide about research consent, and press Start game.");
      this.board.setSize(this.prefs().size);
      this.renderCounters();
      return;
    }
    await this.run(() => this.resumeOrStart(), "Loading your game…");
  }

  // Resume the active game of this browser, or any active game of the player, or start one.
  async resumeOrStart() {
    const saved = readJSON(STORAGE_GAME);
    if (saved && saved.id) {
      try {
        const game = await withRetry(() => api.getGame(saved.id));
        if (!game.game_over) {
          this.moves = Array.isArray(saved.moves) ? saved.moves : [];
          await this.showGame(game);
          this.status.show("Welcome back: your game continues.", { timeout: 4000 });
          return;
        }
      } catch (error) {
        if (!(error instanceof ApiError) || error.retryable) throw error;
        // The game is gone or belongs to another player: look at the player's list.
      }
    }
    const list = await withRetry(() => api.listGames(1));
    const active = (list.results || []).find((game) => game.status === "active");
    if (active) {
      this.moves = [];
      await this.showGame(await withRetry(() => api.getGame(active.id)));
      this.status.show("Welcome back: your game continues.", { timeout: 4000 });
      return;
    }
    await this.createGame(this.prefs());
  }

  // -- running server calls with feedback ---------------------------------------

  // Run `action` with a status message if it is slow; on failure offer Retry.
  async run(action, workingMessage) {
    if (this.busy) return;
    this.busy = true;
    const slow = setTimeout(() => this.status.show(workingMessage, { kind: "working" }), SLOW_REQUEST_MS);
    try {
      await action();
      if (this.status.element.dataset.kind === "working") this.status.clear();
      this.clearRetry();
    } catch (error) {
      this.fail(error, () => this.run(action, workingMessage));
    } finally {
      clearTimeout(slow);
      this.busy = false;
    }
  }

  fail(error, retryAction) {
    const message = error instanceof ApiError ? error.message : String(error);
    if (retryAction && (!(error instanceof ApiError) || error.retryable)) {
      this.retryAction = retryAction;
      $("retry-button").hidden = false;
      this.status.show(`${message} Press Retry to try again.`, { kind: "error" });
    } else {
      this.status.show(message, { kind: "error" });
    }
  }

  clearRetry() {
    this.retryAction = null;
    $("retry-button").hidden = true;
  }

  retry() {
    const action = this.retryAction;
    this.clearRetry();
    if (action) action();
  }

  // -- starting games -------------------------------------------------------------

  onNewGame() {
    const active = this.game && !this.game.game_over;
    if (active && this.game.step > 0 && !this.confirmingNewGame) {
      this.confirmingNewGame = true;
      $("new-game").textContent = "End this game and start";
      const help = $("new-game-help");
      help.textContent = `Your current game (score ${this.game.score}) will end. Press again to confirm.`;
      help.hidden = false;
      return;
    }
    this.startGame(this.prefs());
  }

  resetNewGameConfirmation() {
    this.confirmingNewGame = false;
    $("new-game").textContent = this.game ? "New game" : "Start game";
    $("new-game-help").hidden = true;
  }

  startGame(prefs) {
    this.run(async () => {
      await withRetry(() => ensurePlayer($("consent-checkbox")));
      const slot = $("consent-slot");
      if (slot) slot.hidden = true;
      if (this.game && !this.game.game_over) {
        try {
          await withRetry(() => api.abandon(this.game.id));
        } catch (error) {
          if (!(error instanceof ApiError) || error.retryable) throw error;
        }
      }
      await this.createGame(prefs);
    }, "Starting a new game…");
  }

  async createGame(prefs) {
    writeJSON(STORAGE_PREFS, prefs);
    const game = await withRetry(() => api.createGame(prefs));
    this.moves = [];
    await this.showGame(game);
    this.status.show(`New ${game.rules.size} × ${game.rules.size} game. Good luck!`, { timeout: 3000 });
  }

  // -- showing the present ---------------------------------------------------------

  // Show a game from its public view. A finished game loads its replay: await it.
  showGame(game) {
    this.stopAutoplay();
    this.game = game;
    this.current = parseBoard(game.board);
    this.historyCache = new Map();
    this.view = "present";
    this.pending = null;
    this.replay = null;
    this.resetNewGameConfirmation();
    this.hideOverlay();
    $("gameover").hidden = true;
    $("replaybar").hidden = true;
    $("timebar").hidden = false;
    $("hud").hidden = false;
    $("lookback-banner").hidden = true;
    $("board-frame").classList.remove("is-history", "is-finished");
    this.board.setLabel(
      `Board, ${game.rules.size} by ${game.rules.size}, ${VARIANT_NAMES[game.rules.variant]}`,
    );
    this.renderTags();
    if (game.game_over) return this.finishGame();
    this.remember();
    this.drawPresent();
    this.renderMoves();
    return Promise.resolve();
  }

  get showsGroups() {
    return Boolean(this.game && (this.game.mode === "practice" || this.game.game_over));
  }

  drawPresent(options = {}) {
    this.board.render(this.current, {
      variant: this.game.rules.variant,
      showGroups: this.showsGroups,
      ...options,
    });
    this.board.setMode(this.pending || this.game.game_over ? "locked" : "play");
    this.renderCounters();
    this.updateTimebar();
  }

  renderCounters() {
    const game = this.game;
    const perRound = game ? game.rules.moves_per_round : 5;
    $("score").textContent = String(game ? game.score : 0);
    $("round").textContent = String(game ? game.round : 0);
    const over = Boolean(game && game.game_over);
    const left = game && !over && game.moves_until_noise !== null ? game.moves_until_noise : perRound;
    $("moves-left").textContent = over ? "–" : String(left);
    $("moves-left").nextElementSibling.hidden = over;
    $("moves-left").closest(".hud-item").classList.toggle("is-urgent", !over && left === 1);
  }

  renderTags() {
    const game = this.game;
    const tags = [
      `${game.rules.size} × ${game.rules.size}`,
      VARIANT_SHORT_NAMES[game.rules.variant],
      game.mode === "practice" ? "Practice" : "Normal",
    ];
    $("game-tags").replaceChildren(
      ...tags.map((text) => {
        const span = document.createElement("span");
        span.className = "tag";
        span.textContent = text;
        return span;
      }),
    );
  }

  showOverlay(text) {
    $("board-overlay-text").textContent = text;
    $("board-overlay").hidden = false;
  }

  hideOverlay() {
    $("board-overlay").hidden = true;
  }

  remember() {
    if (!this.game || this.game.game_over) return;
    writeJSON(STORAGE_GAME, { id: this.game.id, moves: this.moves.slice(-500) });
  }

  // -- moves ---------------------------------------------------------------------

  makeMove(from, to) {
    if (!this.game || this.game.game_over || this.view !== "present" || this.pending || this.busy) {
      return;
    }
    const size = this.game.rules.size;
    const fromIndex = from[0] * size + from[1];
    if (!this.current.values[fromIndex]) return;
    this.pending = {
      from,
      to,
      step: this.game.step,
      before: this.current,
      body: { step: this.game.step, from, to, client_time: new Date().toISOString() },
    };
    // Show the move at once; the server's answer confirms it (and brings the noise).
    this.current = this.locallyMoved(this.current, from, to);
    this.drawPresent({ moved: to[0] * size + to[1] });
    this.sendPendingMove();
  }

  // The board right after a move, before any noise: the source empties and the
  // destination takes `toValue` (computed here for Z10 when not given).
  locallyMoved(board, from, to, toValue = null) {
    const size = this.game.rules.size;
    const src = from[0] * size + from[1];
    const dst = to[0] * size + to[1];
    const values = board.values.slice();
    const moved = values[src];
    values[dst] = toValue !== null ? toValue : (values[dst] + moved) % 10;
    values[src] = 0;
    let labels = null;
    if (board.labels) {
      labels = board.labels.slice();
      labels[dst] = values[dst] ? labels[dst] || labels[src] : 0;
      labels[src] = 0;
    }
    return { values, labels };
  }

  async sendPendingMove() {
    const pending = this.pending;
    if (!pending) return;
    this.clearRetry();
    const slow = setTimeout(
      () => this.status.show("Sending your move…", { kind: "working" }),
      SLOW_REQUEST_MS,
    );
    let result;
    try {
      result = await withRetry(() => api.move(this.game.id, pending.body), {
        tries: MOVE_TRIES,
        onWait: (error, tryNumber, delay) => {
          clearTimeout(slow);
          this.status.show(
            `${error.message} Sending move ${pending.step + 1} again in ${Math.round(delay / 100) / 10} s ` +
              `(try ${tryNumber + 1} of ${MOVE_TRIES})…`,
            { kind: "error" },
          );
        },
      });
    } catch (error) {
      clearTimeout(slow);
      this.moveFailed(error);
      return;
    }
    clearTimeout(slow);
    if (this.status.element.dataset.kind) this.status.clear();
    await this.applyMoveResult(result);
  }

  moveFailed(error) {
    const pending = this.pending;
    if (error instanceof ApiError && error.retryable) {
      // Keep the move: Retry sends it again with the same step number, which the
      // server recognises if an earlier attempt did arrive.
      this.retryAction = () => this.sendPendingMove();
      $("retry-button").hidden = false;
      this.status.show(
        `${error.message} Your move is kept and has not been counted twice. Press Retry to send it.`,
        { kind: "error" },
      );
      return;
    }
    this.pending = null;
    if (error instanceof ApiError && (error.code === "stale_step" || error.code === "game_over")) {
      this.status.show("This game moved on elsewhere; here is its latest board.", { kind: "info" });
      this.run(async () => {
        await this.showGame(await withRetry(() => api.getGame(this.game.id)));
      }, "Loading…");
      return;
    }
    this.current = pending.before;
    this.drawPresent();
    this.status.show(error.message || "That move is not allowed.", { kind: "error", timeout: 6000 });
  }

  async applyMoveResult(result) {
    const pending = this.pending;
    const size = this.game.rules.size;
    const move = result.move;
    const dst = move.to[0] * size + move.to[1];
    const finalBoard = parseBoard(result.board);
    const afterMove = this.locallyMoved(pending.before, move.from, move.to, cellValue(move.to_value_after));
    if (this.shouldShowTwoStages(result)) {
      // First the move as the server played it, then the noise that followed.
      this.current = afterMove;
      this.board.render(afterMove, {
        variant: this.game.rules.variant,
        showGroups: this.shouldShowGroupsAfter(result),
        moved: dst,
      });
      if (!reducedMotion.matches) await sleep(NOISE_DELAY_MS);
    }
    const changed = new Set(result.noise.map((c) => c.row * size + c.col));
    if (result.noise_rounds > 0) {
      for (const i of changedCells(afterMove.values, finalBoard.values)) changed.add(i);
    }
    this.game = result.game;
    this.current = finalBoard;
    this.pending = null;
    this.moves.push({
      index: move.index,
      from: move.from,
      to: move.to,
      value: move.value,
      note: move.note || "",
    });
    this.historyCache.set(result.step, finalBoard);
    this.remember();
    this.renderMoves();
    if (result.game_over) {
      this.drawPresent({ moved: dst });
      this.status.show("Game over!", { kind: "info" });
      await this.run(() => this.finishGame(), "Loading the replay…");
      return;
    }
    this.drawPresent({ changed: result.noise_rounds > 0 ? [...changed] : null, moved: dst });
    if (result.noise_rounds > 0) this.announceNoise(result, changed.size);
  }

  shouldShowTwoStages(result) {
    return result.noise_rounds > 0 || result.game_over || result.jumped_from !== null;
  }

  shouldShowGroupsAfter() {
    return this.game.mode === "practice";
  }

  announceNoise(result, count) {
    const round = this.game.round;
    const jumped = result.jumped_from !== null ? " The board was empty, so the clock jumped ahead." : "";
    this.status.show(
      `Noise round ${round}: ${count} ${count === 1 ? "square" : "squares"} changed.${jumped}`,
      { timeout: 5000 },
    );
    const hud = $("round").closest(".hud-item");
    hud.classList.remove("is-bumped");
    void hud.offsetWidth;
    hud.classList.add("is-bumped");
  }

  // -- back in time ---------------------------------------------------------------

  enterHistory() {
    if (!this.game || this.game.game_over || this.view !== "present") return;
    if (this.pending) {
      this.status.show("Wait for your move to arrive before looking back.", { timeout: 3000 });
      return;
    }
    if (this.game.step === 0) {
      this.status.show("There are no earlier boards yet: make a move first.", { timeout: 3000 });
      return;
    }
    this.view = "history";
    this.board.setMode("history");
    $("hud").hidden = true;
    $("board-frame").classList.add("is-history");
    this.showHistoryStep(this.game.step - 1);
  }

  historyBack() {
    if (this.view !== "history") return;
    if (this.historyStep > 0) this.showHistoryStep(this.historyStep - 1);
  }

  historyForward() {
    if (this.view !== "history") return;
    if (this.historyStep + 1 >= this.game.step) this.returnToPresent();
    else this.showHistoryStep(this.historyStep + 1);
  }

  async showHistoryStep(step) {
    this.historyStep = step;
    const token = ++this.historyToken;
    this.updateTimebar();
    let board = this.historyCache.get(step);
    if (!board) {
      $("lookback-banner").textContent = "Looking back…";
      $("lookback-banner").hidden = false;
      try {
        board = parseBoard(await withRetry(() => api.history(this.game.id, step)));
      } catch (error) {
        if (token === this.historyToken) {
          this.fail(error, () => this.view === "history" && this.showHistoryStep(step));
        }
        return;
      }
      this.historyCache.set(step, board);
    }
    if (token !== this.historyToken || this.view !== "history") return;
    this.board.render(board, { variant: this.game.rules.variant, showGroups: this.shouldShowGroupsAfter() });
    const banner = $("lookback-banner");
    banner.textContent =
      step === 0
        ? `Looking back: the first board (now at move ${this.game.step})`
        : `Looking back: after move ${step} of ${this.game.step}`;
    banner.hidden = false;
    this.updateTimebar();
  }

  returnToPresent() {
    if (this.view !== "history") return;
    this.historyToken += 1;
    this.view = "present";
    $("board-frame").classList.remove("is-history");
    $("lookback-banner").hidden = true;
    $("hud").hidden = false;
    this.drawPresent();
    this.status.show("Back to the present: your move.", { timeout: 2500 });
  }

  updateTimebar() {
    const history = this.view === "history";
    const canLook = Boolean(this.game && !this.game.game_over && this.game.step > 0 && !this.pending);
    $("back-button").disabled = history ? this.historyStep === 0 : !canLook;
    $("back-button").setAttribute("aria-label", history ? "Back one move" : "Look back one move");
    $("forward-button").disabled = !history;
    $("present-button").disabled = !history;
    $("timebar-label").textContent = history
      ? `Move ${this.historyStep} of ${this.game.step}`
      : "Back in time";
    $("timebar").classList.toggle("is-active", history);
  }

  // -- the end of the game -----------------------------------------------------------

  async finishGame() {
    const game = await withRetry(() => api.getGame(this.game.id));
    this.game = game;
    writeJSON(STORAGE_GAME, null);
    this.view = "finished";
    this.current = parseBoard(game.board);
    this.board.setMode("view");
    $("board-frame").classList.remove("is-history");
    $("board-frame").classList.add("is-finished");
    $("lookback-banner").hidden = true;
    $("timebar").hidden = true;
    this.renderCounters();
    this.renderGameOver(game);
    this.movesFromEvents(game.events);
    this.renderMoves();
    this.setupReplay(game);
    this.resetNewGameConfirmation();
    this.loadPersonalBest(game);
    $("gameover-title").focus();
  }

  renderGameOver(game) {
    const loss = game.loss;
    $("final-score").textContent = String(game.score);
    if (game.status === "abandoned") {
      $("gameover-title").textContent = "Game ended";
      $("gameover-reason").textContent = "You ended this game before a group spanned the grid.";
    } else {
      $("gameover-title").textContent = "Game over";
      $("gameover-reason").textContent = loss
        ? `A group reached ${AXIS_TEXT[loss.axis] || "across the grid"} after ${game.step} ` +
          `${game.step === 1 ? "move" : "moves"}. It is outlined on the board.`
        : "A group spanned the grid.";
    }
    $("gameover").hidden = false;
  }

  async loadPersonalBest(game) {
    const best = $("best-score");
    best.textContent = "…";
    try {
      let top = null;
      let page = 1;
      // The list is newest first; a few pages cover any ordinary player.
      for (; page <= 5; page += 1) {
        const list = await withRetry(() => api.listGames(page));
        for (const other of list.results || []) {
          if (other.status !== "lost" || other.rules.key !== game.rules.key) continue;
          if (top === null || other.score > top) top = other.score;
        }
        if (!list.next) break;
      }
      if (top === null) top = game.score;
      best.textContent = String(top);
      const isBest = game.status === "lost" && game.score >= top;
      $("gameover").classList.toggle("is-best", isBest);
      best.title = `Best score at ${game.rules.size} × ${game.rules.size}, ${VARIANT_NAMES[game.rules.variant]}`;
      if (isBest && game.score > 0) {
        this.status.show(`Game over after scoring ${game.score}: a new personal best!`);
      } else {
        this.status.show(`Game over. Score ${game.score}; your best is ${top}.`);
      }
    } catch {
      best.textContent = "–";
    }
  }

  movesFromEvents(events) {
    if (!Array.isArray(events)) return;
    const notes = new Map(this.moves.map((m) => [m.index, m.note]));
    this.moves = events
      .filter((e) => e.kind === "move")
      .map((e) => ({
        index: e.index,
        from: [e.from_row, e.from_col],
        to: [e.to_row, e.to_col],
        value: String(e.value),
        note: e.note ?? notes.get(e.index) ?? "",
      }));
  }

  setupReplay(game) {
    const boards = (game.replay || []).map(parseBoard);
    if (!boards.length) boards.push(this.current);
    this.replay = { boards, index: boards.length - 1, timer: null, spanning: game.loss ? game.loss.group : null };
    const slider = $("replay-slider");
    slider.max = String(boards.length - 1);
    slider.value = String(boards.length - 1);
    $("replaybar").hidden = false;
    this.showReplay(boards.length - 1);
  }

  showReplay(index, { fromSlider = false } = {}) {
    const replay = this.replay;
    if (!replay) return;
    const last = replay.boards.length - 1;
    const target = Math.max(0, Math.min(last, index));
    const previous = replay.boards[replay.index];
    const board = replay.boards[target];
    const stepped = Math.abs(target - replay.index) === 1;
    replay.index = target;
    this.board.render(board, {
      variant: this.game.rules.variant,
      showGroups: true,
      spanning: replay.spanning,
      changed: stepped && !fromSlider ? changedCells(previous.values, board.values) : null,
    });
    $("replay-slider").value = String(target);
    $("replay-label").textContent =
      target === 0 ? `First board (of ${last} moves)` : `After move ${target} of ${last} · score ${board.t}`;
    $("replay-first").disabled = target === 0;
    $("replay-prev").disabled = target === 0;
    $("replay-next").disabled = target === last;
    $("replay-last").disabled = target === last;
    this.highlightMove(target);
    if (target === last && replay.timer) this.stopAutoplay();
  }

  toggleAutoplay() {
    if (this.replay.timer) {
      this.stopAutoplay();
      return;
    }
    if (this.replay.index >= this.replay.boards.length - 1) this.showReplay(0);
    $("replay-play").setAttribute("aria-pressed", "true");
    $("replay-play").textContent = "Pause";
    this.replay.timer = setInterval(() => this.showReplay(this.replay.index + 1), REPLAY_INTERVAL_MS);
  }

  stopAutoplay() {
    if (this.replay && this.replay.timer) clearInterval(this.replay.timer);
    if (this.replay) this.replay.timer = null;
    $("replay-play").setAttribute("aria-pressed", "false");
    $("replay-play").textContent = "Auto-play";
  }

  // -- the move list and notes ------------------------------------------------------

  describeMove(move) {
    const variant = this.game.rules.variant;
    const key = `${move.to[0] - move.from[0]},${move.to[1] - move.from[1]}`;
    const value = cellValue(String(move.value ?? ""));
    const what = value ? symbolFor(value, variant) : "Number";
    const spoken = value ? spokenFor(value, variant) : "a number";
    return {
      text: `${what} ${DIRECTION_TEXT[key] || "moved"} from row ${move.from[0] + 1}, column ${move.from[1] + 1}`,
      spoken: `Move ${move.index}: ${spoken} ${DIRECTION_TEXT[key] || "moved"} from row ${move.from[0] + 1}, column ${move.from[1] + 1}`,
    };
  }

  renderMoves() {
    const list = $("move-list");
    const count = $("moves-count");
    const moves = this.moves;
    const made = this.game ? this.game.step : 0;
    count.textContent = String(made);
    count.dataset.moves = String(made);
    const items = moves.map((move) => this.moveItem(move));
    // Moves of a resumed normal game that this browser did not see: notes still work.
    const known = new Set(moves.map((m) => m.index));
    for (let index = 1; index <= made; index += 1) {
      if (!known.has(index)) items.push(this.moveItem({ index, from: null, to: null, note: "" }));
    }
    items.sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index));
    list.replaceChildren(...items);
    list.scrollTop = list.scrollHeight;
  }

  moveItem(move) {
    const item = document.createElement("li");
    item.className = "move";
    item.dataset.index = String(move.index);
    const line = document.createElement("div");
    line.className = "move-line";
    const number = document.createElement("span");
    number.className = "move-number";
    number.textContent = String(move.index);
    const text = document.createElement("span");
    text.className = "move-text";
    if (move.from) {
      const described = this.describeMove(move);
      text.textContent = described.text;
      item.setAttribute("aria-label", described.spoken);
    } else {
      text.textContent = "Move made earlier";
    }
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button button-small note-button";
    button.dataset.action = "note";
    button.textContent = move.note ? "Edit note" : "Add note";
    button.setAttribute("aria-label", `${move.note ? "Edit the note on" : "Add a note to"} move ${move.index}`);
    line.append(number, text, button);
    item.append(line);
    if (move.note) {
      const note = document.createElement("p");
      note.className = "move-note";
      note.textContent = move.note;
      item.append(note);
    }
    return item;
  }

  highlightMove(step) {
    for (const item of $("move-list").children) {
      item.classList.toggle("is-current", Number(item.dataset.index) === step);
    }
    const current = $("move-list").querySelector(".is-current");
    if (current) current.scrollIntoView({ block: "nearest" });
  }

  onMoveListClick(event) {
    const button = event.target.closest("button");
    if (!button) return;
    const item = button.closest("li.move");
    const index = Number(item.dataset.index);
    if (button.dataset.action === "note") this.openNoteForm(item, index);
    if (button.dataset.action === "cancel-note") this.renderMoves();
  }

  openNoteForm(item, index) {
    if (item.querySelector("form")) return;
    const move = this.moves.find((m) => m.index === index) || { note: "" };
    const form = document.createElement("form");
    form.className = "note-form";
    form.dataset.index = String(index);
    const id = `note-${index}`;
    const label = document.createElement("label");
    label.htmlFor = id;
    label.className = "visually-hidden";
    label.textContent = `Why did you make move ${index}?`;
    const area = document.createElement("textarea");
    area.id = id;
    area.name = "note";
    area.rows = 2;
    area.maxLength = 2000;
    area.placeholder = "Why I made this move…";
    area.value = move.note || "";
    const actions = document.createElement("div");
    actions.className = "note-actions";
    const save = document.createElement("button");
    save.type = "submit";
    save.className = "button button-small button-primary";
    save.textContent = "Save note";
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "button button-small";
    cancel.dataset.action = "cancel-note";
    cancel.textContent = "Cancel";
    actions.append(save, cancel);
    form.append(label, area, actions);
    item.querySelector(".note-button").hidden = true;
    item.append(form);
    area.focus();
  }

  async onNoteSubmit(event) {
    event.preventDefault();
    const form = event.target;
    const index = Number(form.dataset.index);
    const note = form.elements.note.value;
    const save = form.querySelector("button[type=submit]");
    save.disabled = true;
    save.textContent = "Saving…";
    try {
      await withRetry(() => api.note(this.game.id, index, note));
    } catch (error) {
      save.disabled = false;
      save.textContent = "Save note";
      this.fail(error, null);
      return;
    }
    let move = this.moves.find((m) => m.index === index);
    if (!move) {
      move = { index, from: null, to: null, note: "" };
      this.moves.push(move);
    }
    move.note = note;
    this.remember();
    this.renderMoves();
    if (this.replay) this.highlightMove(this.replay.index);
    this.status.show(note ? `Note saved on move ${index}.` : `Note removed from move ${index}.`, {
      timeout: 3000,
    });
  }
}

const page = new PlayPage();
page.start();
