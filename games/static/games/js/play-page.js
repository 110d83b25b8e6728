// The play page's controller: one game against the server, from the first
// board to the replay. It holds the game as the server last described it and
// wires the board and the page's controls to the parts that do the work:
// sending moves (play-sender.js), looking back in time (play-history.js), the
// replay (play-replay.js) and the move list with its notes (play-notes.js).
//
// The server is the referee: it plays every move, runs the noise and decides
// when the game is over.

import { ApiError, api, request, withRetry } from "./api.js";
import { playerContext, setUpConsentChoice, withConsent } from "./consent.js";
import { $, SLOW_REQUEST_MS, parseBoard, spanningLegend } from "./play-common.js";
import { History } from "./play-history.js";
import { MoveList } from "./play-notes.js";
import {
  ChainPicture,
  LAYER_TEXT,
  PlanarBoardView,
  netChain,
  outcomeText,
  showFamilyFields,
} from "./play-planar.js";
import { Replay } from "./play-replay.js";
import { MoveSender } from "./play-sender.js";
import { ShareBox } from "./play-share.js";
import { StatusLine } from "./status.js";
import { VARIANT_NAMES, VARIANT_SHORT_NAMES } from "./symbols.js";

// {id, moves: [{index, from, to, value, note}]} for a game under way; {id, finished: true}
// for the game that just ended, shown again (its card, its replay) until the player
// starts a new one.
const STORAGE_GAME = "decodoku.game";
// {family, size, variant, mode, planarSize, modulus, errorRate}
const STORAGE_PREFS = "decodoku.prefs";

const AXIS_TEXT = {
  top_bottom: "from the top edge to the bottom edge",
  left_right: "from the left edge to the right edge",
  both: "across the grid both ways",
};

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

export class PlayPage {
  constructor() {
    this.status = new StatusLine($("status"));
    this.board = new PlanarBoardView($("board"), {
      onMove: (from, to) => this.sender.makeMove(from, to),
      onLongPress: () => this.history.enter(),
      onHalfTap: (side) => (side === "left" ? this.history.back() : this.history.forward()),
      onSwipe: () => this.history.returnToPresent(),
      onHint: (message) => this.status.show(message, { timeout: 4000 }),
    });
    this.game = null; // the latest public view of the game
    this.current = null; // the present board {values, labels}
    this.view = "present"; // "present", "history" or "finished"
    this.busy = false;
    this.retryAction = null;
    this.confirmingNewGame = false;
    this.sender = new MoveSender(this);
    this.history = new History(this);
    this.replay = new Replay(this);
    this.moveList = new MoveList(this);
    this.shareBox = new ShareBox(this);
    this.chain = new ChainPicture(this.board);
    this.bindControls();
  }

  // A game of the planar family (one noise round, open left and right sides).
  get isPlanar() {
    return Boolean(this.game && this.game.rules.family === "planar");
  }

  // The values' modulus d: 10 in the original game.
  get modulus() {
    return (this.game && this.game.rules.modulus) || 10;
  }

  // -- set-up ------------------------------------------------------------------

  bindControls() {
    $("back-button").addEventListener("click", () =>
      this.view === "history" ? this.history.back() : this.history.enter(),
    );
    $("forward-button").addEventListener("click", () => this.history.forward());
    $("present-button").addEventListener("click", () => this.history.returnToPresent());
    $("retry-button").addEventListener("click", () => this.retry());
    $("setup-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.onNewGame();
    });
    $("setup-form").addEventListener("change", () => {
      this.resetNewGameConfirmation();
      showFamilyFields($("setup-form"));
      if (!this.game) this.previewBoard();
    });
    $("chain-layers").addEventListener("change", () => this.onReplayStep(this.chainStep));
    $("daily-planar-form").addEventListener("submit", (event) => {
      // The server starts the day's board for the browser's player: the research
      // question is answered first (answering it makes the player).
      event.preventDefault();
      withConsent(() =>
        this.run(async () => {
          // A game under way stays as it is (My games lists it); the page opens the day's board.
          writeJSON(STORAGE_GAME, null);
          $("daily-planar-form").submit();
        }, "Opening today’s planar board…"),
      );
    });
    setUpConsentChoice();
    $("play-again").addEventListener("click", () => this.startGame(this.prefs()));
    $("replay-first").addEventListener("click", () => this.replay.first());
    $("replay-prev").addEventListener("click", () => this.replay.previous());
    $("replay-next").addEventListener("click", () => this.replay.next());
    $("replay-last").addEventListener("click", () => this.replay.last());
    $("replay-play").addEventListener("click", () => this.replay.toggleAutoplay());
    $("replay-slider").addEventListener("input", (event) =>
      this.replay.show(Number(event.target.value), { fromSlider: true }),
    );
    // Escape leaves back-in-time from anywhere on the page (the board's own Escape only
    // drops a selection, which looking back never has).
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.view === "history") {
        event.preventDefault();
        this.history.returnToPresent();
      }
    });
    $("move-list").addEventListener("click", (event) => this.moveList.onClick(event));
    $("move-list").addEventListener("submit", (event) => this.moveList.onNoteSubmit(event));
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
      family: form.elements.family.value,
      size: Number(form.elements.size.value),
      variant: form.elements.variant.value,
      mode: form.elements.mode.value,
      planarSize: Number(form.elements.planar_size.value),
      modulus: Number(form.elements.modulus.value),
      errorRate: form.elements.error_rate.value,
    };
  }

  applyPrefs(prefs) {
    if (!prefs) return;
    const form = $("setup-form");
    const choose = (select, value) => {
      if ([...select.options].some((o) => o.value === String(value))) select.value = String(value);
    };
    if (prefs.size) choose(form.elements.size, prefs.size);
    if (prefs.planarSize) choose(form.elements.planar_size, prefs.planarSize);
    if (prefs.errorRate) choose(form.elements.error_rate, prefs.errorRate);
    for (const name of ["family", "variant", "mode", "modulus"]) {
      const input = [...form.elements[name]].find((i) => i.value === String(prefs[name]));
      if (input) input.checked = true;
    }
    showFamilyFields(form);
  }

  // The menu follows the game shown, so that "Play again" plays the same kind of game.
  formFromGame(game) {
    const rules = game.rules;
    if (rules.family === "planar") {
      const rate = [...$("error-rate-select").options].find(
        (o) => Number(o.value) === Number(rules.error_rate),
      );
      this.applyPrefs({
        family: "planar",
        planarSize: rules.size,
        modulus: rules.modulus,
        errorRate: rate ? rate.value : undefined,
      });
    } else if (rules.variant === "z10" || rules.variant === "phi_lambda") {
      this.applyPrefs({ family: "original", size: rules.size, variant: rules.variant, mode: game.mode });
    }
  }

  // Before the first game: an empty board of the chosen family and size.
  previewBoard() {
    const prefs = this.prefs();
    const planar = prefs.family === "planar";
    this.board.setPlanar(planar);
    this.board.setSize(planar ? prefs.planarSize : prefs.size);
  }

  async start() {
    this.applyPrefs(readJSON(STORAGE_PREFS));
    const context = playerContext();
    if (!context.consentDecided) {
      this.showOverlay("Answer the question about research use of your games, choose your game, and press Start game.");
      this.previewBoard();
      this.renderCounters();
      if (context.hasPlayer) {
        // A player from before the question was asked: once answered, their game comes back.
        document.addEventListener("consent:chosen", () => this.run(() => this.resumeOrStart(), "Loading your game…"), {
          once: true,
        });
      }
      return;
    }
    await this.run(() => this.resumeOrStart(), "Loading your game…");
    // Arriving from Play (or a link to a game under way): the board is what the page is for.
    if (this.game && !this.game.game_over) this.board.setFocus(this.board.focusIndex);
  }

  // Resume the active game of this browser, or any active game of the player, or start one.
  async resumeOrStart() {
    // A link from "My games" names the game to resume or replay.
    const linked = new URLSearchParams(window.location.search).get("game");
    if (linked) {
      try {
        const game = await withRetry(() => api.getGame(linked));
        this.moveList.set([]);
        await this.showGame(game);
        return;
      } catch (error) {
        if (!(error instanceof ApiError) || error.retryable) throw error;
        this.status.show("That game was not found among yours.", { timeout: 4000 });
      }
    }
    const saved = readJSON(STORAGE_GAME);
    if (saved && saved.id) {
      try {
        const game = await withRetry(() => api.getGame(saved.id));
        if (!game.game_over) {
          this.moveList.set(Array.isArray(saved.moves) ? saved.moves : []);
          await this.showGame(game);
          this.status.show("Welcome back: your game continues.", { timeout: 4000 });
          return;
        }
        // The last game ended here: show its end again, never a new game unasked.
        this.moveList.set([]);
        await this.showGame(game);
        return;
      } catch (error) {
        if (!(error instanceof ApiError) || error.retryable) throw error;
        // The game is gone or belongs to another player: look at the player's list.
      }
    }
    const list = await withRetry(() => api.listGames(1));
    const games = list.results || [];
    const active = games.find((game) => game.status === "active");
    if (active) {
      this.moveList.set([]);
      await this.showGame(await withRetry(() => api.getGame(active.id)));
      this.status.show("Welcome back: your game continues.", { timeout: 4000 });
      return;
    }
    // The player's newest game has ended (in this browser or another): show its end.
    const newest = games.find((game) => game.source !== "legacy_upload");
    if (newest) {
      this.moveList.set([]);
      await this.showGame(await withRetry(() => api.getGame(newest.id)));
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
      this.offerRetry(retryAction);
      this.status.show(`${message} Press Retry to try again.`, { kind: "error" });
    } else {
      this.status.show(message, { kind: "error" });
    }
  }

  offerRetry(action) {
    this.retryAction = action;
    $("retry-button").hidden = false;
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
    withConsent(() => this.startGameNow(prefs));
  }

  startGameNow(prefs) {
    this.run(async () => {
      for (const note of document.querySelectorAll(".setup-options-note")) note.hidden = true;
      // The menu came first for a new visitor on a narrow screen; the board does now.
      $("play-app").classList.remove("is-new");
      if (this.game && !this.game.game_over) {
        try {
          await withRetry(() => api.abandon(this.game.id));
        } catch (error) {
          if (!(error instanceof ApiError) || error.retryable) throw error;
        }
      }
      await this.createGame(prefs);
      // The player asked for this game: take them to the board, not back to <body>.
      this.board.setFocus(this.board.focusIndex);
    }, "Starting a new game…");
  }

  // Say something to screen readers without showing it (a polite live region): the
  // move just played and the counters after it.
  announce(text) {
    const region = $("announcer");
    region.textContent = "";
    // A new text node after a frame, so that a repeated sentence is announced again.
    requestAnimationFrame(() => {
      region.textContent = text;
    });
  }

  hudText() {
    const game = this.game;
    if (!game) return "";
    const left = game.moves_until_noise;
    const noise = left === null || left === undefined ? "" : `, noise in ${left} ${left === 1 ? "move" : "moves"}`;
    return `Score ${game.score}${noise}, round ${game.round}.`;
  }

  async createGame(prefs) {
    writeJSON(STORAGE_PREFS, prefs);
    const game = await withRetry(() =>
      prefs.family === "planar"
        ? request("POST", "games/", {
            family: "planar",
            size: prefs.planarSize,
            modulus: prefs.modulus,
            error_rate: Number(prefs.errorRate),
          })
        : api.createGame(prefs),
    );
    this.moveList.set([]);
    await this.showGame(game);
    this.revealBoard();
    const n = game.rules.size;
    this.status.show(
      this.isPlanar
        ? `New planar ${n} × ${n} board. Clear it; numbers may leave through the left and right sides.`
        : `New ${n} × ${n} game. Good luck!`,
      { timeout: 3000 },
    );
  }

  // Scroll the counters, the board and the bar under it into view when any part is out
  // of it (a phone, after "New game" pressed below the board, or at the end of a game).
  revealBoard() {
    const top = $("hud").hidden ? $("board-frame") : $("hud");
    const bar = $("replaybar").hidden ? $("timebar") : $("replaybar");
    const first = top.getBoundingClientRect().top;
    const last = (bar.hidden ? $("board-frame") : bar).getBoundingClientRect().bottom;
    if (first >= 0 && last <= window.innerHeight) return;
    window.scrollTo({ top: Math.max(0, window.scrollY + first - 8), behavior: "instant" });
  }

  // -- showing the present ---------------------------------------------------------

  // Show a game from its public view. A finished game loads its replay: await it.
  showGame(game) {
    this.replay.stop();
    this.game = game;
    this.current = parseBoard(game.board);
    this.history.reset();
    this.view = "present";
    this.sender.reset();
    this.replay.clear();
    this.resetNewGameConfirmation();
    this.hideOverlay();
    $("gameover").hidden = true;
    $("replaybar").hidden = true;
    $("timebar").hidden = false;
    $("hud").hidden = false;
    $("lookback-banner").hidden = true;
    $("board-legend").hidden = true;
    $("board-legend").classList.remove("is-planar-outcome", "is-logical-error");
    $("board-frame").classList.remove("is-history", "is-finished");
    this.board.setPlanar(this.isPlanar);
    this.formFromGame(game);
    this.chain.clear();
    this.chainStep = 0;
    $("chain-layers").hidden = true;
    $("chain-layer-text").hidden = true;
    document.querySelector('input[name="chain_layer"][value="net"]').checked = true;
    $("numbers-left-item").hidden = !this.isPlanar;
    $("moves-left-item").hidden = this.isPlanar;
    $("round-item").hidden = this.isPlanar;
    $("score-label").textContent = this.isPlanar ? "Moves" : "Score";
    const n = game.rules.size;
    this.board.setLabel(
      this.isPlanar
        ? `Planar board, ${n} by ${n}, numbers mod ${this.modulus}; the left and right sides are open`
        : `Board, ${n} by ${n}, ${VARIANT_NAMES[game.rules.variant]}`,
    );
    this.renderTags();
    if (game.game_over) return this.finishGame();
    this.remember();
    this.drawPresent();
    this.moveList.render();
    return Promise.resolve();
  }

  get showsGroups() {
    return Boolean(this.game && (this.game.mode === "practice" || this.game.game_over));
  }

  // Whether boards shown during play (after a move, looking back) colour the groups.
  groupsShownInPlay() {
    return this.game.mode === "practice";
  }

  drawPresent(options = {}) {
    this.board.render(this.current, {
      variant: this.game.rules.variant,
      showGroups: this.showsGroups,
      ...options,
    });
    this.board.setMode(this.sender.pending || this.game.game_over ? "locked" : "play");
    this.renderCounters();
    this.history.updateTimebar();
  }

  renderCounters() {
    const game = this.game;
    const perRound = game ? game.rules.moves_per_round : 5;
    $("score").textContent = String(game ? game.score : 0);
    if (this.isPlanar && this.current) {
      $("numbers-left").textContent = String(this.current.values.filter(Boolean).length);
    }
    $("round").textContent = String(game ? game.round : 0);
    const over = Boolean(game && game.game_over);
    const left = game && !over && game.moves_until_noise !== null ? game.moves_until_noise : perRound;
    $("moves-left").textContent = over ? "–" : String(left);
    $("moves-left").nextElementSibling.textContent = left === 1 ? " move" : " moves";
    $("moves-left").nextElementSibling.hidden = over;
    $("moves-left").closest(".hud-item").classList.toggle("is-urgent", !over && left === 1);
  }

  renderTags() {
    const game = this.game;
    const tags = this.isPlanar
      ? [
          `Planar ${game.rules.size} × ${game.rules.size}`,
          `d = ${game.rules.modulus}`,
          `p = ${game.rules.error_rate}`,
        ]
      : [
          `${game.rules.size} × ${game.rules.size}`,
          VARIANT_SHORT_NAMES[game.rules.variant],
          game.mode === "practice" ? "Practice" : "Normal",
        ];
    // The daily challenge: the same noise for every player of that (UTC) day.
    if (game.daily_date) {
      tags.push(`${this.isPlanar ? "Daily planar board" : "Daily challenge"} ${game.daily_date}`);
    }
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
    writeJSON(STORAGE_GAME, { id: this.game.id, moves: this.moveList.moves.slice(-500) });
  }

  // -- the end of the game -----------------------------------------------------------

  async finishGame() {
    const game = await withRetry(() => api.getGame(this.game.id));
    this.game = game;
    writeJSON(STORAGE_GAME, { id: game.id, finished: true });
    this.view = "finished";
    this.current = parseBoard(game.board);
    this.board.setMode("view");
    $("board-frame").classList.remove("is-history");
    $("board-frame").classList.add("is-finished");
    $("lookback-banner").hidden = true;
    $("timebar").hidden = true;
    this.renderCounters();
    this.renderGameOver(game);
    this.moveList.fromEvents(game.events);
    this.moveList.render();
    this.replay.setup(game);
    this.resetNewGameConfirmation();
    this.shareBox.setup(game);
    if (this.isPlanar && game.outcome) {
      this.status.show(
        `Board clean after ${game.step} ${game.step === 1 ? "move" : "moves"}: ` +
          (game.outcome.failed ? "a logical error." : "no logical error."),
      );
    } else if (this.isPlanar) {
      this.status.show("Game ended before the board was clean.");
    } else {
      this.loadPersonalBest(game);
    }
    // The card follows the replay controls: focus it, with the board in view and then the
    // card too (on a phone the card sits below the board: it scrolls up into view).
    $("gameover-title").focus({ preventScroll: true });
    this.revealBoard();
    this.revealCard($("gameover"));
  }

  // Scroll just enough for the card to be on screen (its top first, when it is taller
  // than the screen). The board stays whole on screen when the card's result and buttons
  // fit under it; only when they do not does the board's top give way to the card.
  revealCard(card) {
    const box = card.getBoundingClientRect();
    const below = box.bottom + 8 - window.innerHeight;
    if (below <= 0 && box.top >= 0) return;
    let by = box.top < 0 ? box.top - 8 : Math.min(below, box.top - 8);
    const actions = card.querySelector(".gameover-actions");
    if (by > 0 && actions) {
      const keepBoard = $("hud").hidden ? $("board-frame") : $("hud");
      const room = keepBoard.getBoundingClientRect().top - 8;
      const forButtons = actions.getBoundingClientRect().bottom + 8 - window.innerHeight;
      if (forButtons <= room) by = Math.max(forButtons, Math.min(by, room));
    }
    window.scrollTo({ top: Math.max(0, window.scrollY + by), behavior: "instant" });
  }

  renderGameOver(game) {
    const loss = game.loss;
    $("final-score").textContent = String(game.score);
    $("final-score-label").textContent = this.isPlanar ? "Moves" : "Score";
    $("best-score-item").hidden = this.isPlanar;
    $("gameover").classList.remove("is-best", "is-logical-error", "is-logical-success");
    if (this.isPlanar) {
      this.renderPlanarOutcome(game);
      return;
    }
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
    const legend = spanningLegend(this.current.labels, loss ? loss.group : null);
    $("board-legend").textContent = legend;
    $("board-legend").hidden = !legend;
    if (game.rules.variant === "phi_lambda" && !game.partially_observed) {
      $("gameover-reason").textContent += " The numbers behind Φ and Λ are shown now.";
    }
    $("gameover").hidden = false;
  }

  // A planar game's end: the charge across the left side, and the chain that carried it.
  renderPlanarOutcome(game) {
    const outcome = game.outcome;
    const legend = $("board-legend");
    this.showCompareLink(game);
    if (game.status === "abandoned" || !outcome) {
      $("gameover-title").textContent = "Game ended";
      $("gameover-reason").textContent =
        "You ended this game before the board was clean: it has no logical outcome.";
      $("gameover-odds").hidden = true;
      legend.hidden = true;
      $("gameover").hidden = false;
      return;
    }
    const d = this.modulus;
    $("gameover-title").textContent = outcome.failed ? "Board clean: a logical error" : "Board clean: no logical error";
    $("gameover-reason").textContent = outcome.failed
      ? `A charge of ${outcome.charge} (mod ${d}) crossed the left side: the errors and your moves ` +
        "together join the left side to the right side."
      : `No charge (0 mod ${d}) crossed the left side: the errors and your moves together do not ` +
        "join the two sides.";
    // The class odds from the first board, in the server's words (none beyond the exact
    // computation's reach).
    $("gameover-odds").textContent = outcome.odds_text || "";
    $("gameover-odds").hidden = !outcome.odds_text;
    $("gameover").classList.add(outcome.failed ? "is-logical-error" : "is-logical-success");
    const size = game.rules.size;
    const net = netChain(game.events, { size, modulus: d });
    legend.textContent = outcomeText(outcome, d, net.edges.size);
    $("chain-layers").hidden = false;
    $("chain-layer-text").hidden = false;
    legend.classList.add("is-planar-outcome");
    legend.classList.toggle("is-logical-error", outcome.failed);
    legend.hidden = false;
    $("gameover").hidden = false;
  }

  // A normal planar game that ended is played again by the decoders when it is research
  // data: its end links to that comparison, whose address the page names (another app's).
  // Without the player's research consent there is no comparison, so no link to one.
  showCompareLink(game) {
    const base = $("play-app").dataset.compareUrl;
    const link = $("gameover-compare-link");
    const consents = Boolean(playerContext().playerConsent);
    const show = Boolean(base) && game.mode === "normal" && consents;
    $("gameover-compare").hidden = !show;
    if (show) link.href = `${base}${encodeURIComponent(game.id)}/`;
  }

  // The replay shows a step of a finished planar game: the chain of the moves so far.
  onReplayStep(step) {
    if (!this.isPlanar || !this.game || !this.game.game_over || !this.game.outcome) {
      this.chain.clear();
      return;
    }
    this.chainStep = step;
    const size = this.game.rules.size;
    const frame = $("board-frame");
    const chosen = document.querySelector('input[name="chain_layer"]:checked');
    const layer = chosen ? chosen.value : "net";
    const chain = netChain(this.game.events, { size, modulus: this.modulus, step, layer });
    // Only the last step's net chain is closed; anything else is drawn without a verdict.
    const verdict = layer === "net" && step >= this.game.step;
    this.chain.draw(chain, {
      size,
      modulus: this.modulus,
      failed: verdict && this.game.outcome.failed,
    });
    frame.classList.toggle("is-chain-partial", !verdict);
    frame.dataset.chainLayer = layer;
    frame.dataset.chargeShown = String(chain.charge);
    frame.dataset.chainStep = String(step);
    $("chain-layer-text").textContent = LAYER_TEXT[layer];
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
          // Practice games (groups shown) never count as the best of a normal game.
          if (other.status !== "lost" || other.rules.key !== game.rules.key) continue;
          if (other.mode !== game.mode) continue;
          if (top === null || other.score > top) top = other.score;
        }
        if (!list.next) break;
      }
      if (top === null) top = game.score;
      best.textContent = String(top);
      const isBest = game.status === "lost" && game.score >= top;
      $("gameover").classList.toggle("is-best", isBest);
      best.title =
        `Best score at ${game.rules.size} × ${game.rules.size}, ${VARIANT_NAMES[game.rules.variant]}` +
        (game.mode === "practice" ? ", practice" : "");
      if (isBest && game.score > 0) {
        this.status.show(`Game over after scoring ${game.score}: a new personal best!`);
      } else {
        this.status.show(`Game over. Score ${game.score}; your best is ${top}.`);
      }
    } catch {
      best.textContent = "–";
    }
    // The message above the card may have pushed it down: bring it back into view, unless
    // the player has moved on since (focus elsewhere, or another game).
    if (this.view === "finished" && document.activeElement === $("gameover-title")) {
      this.revealCard($("gameover"));
    }
  }
}
