// Sending the player's moves. A move shows at once; the server's answer
// confirms it and brings the noise. Every move carries the step number it was
// made at, so a move sent again (automatically, or by Retry) is never played twice.

import { ApiError, api, withRetry } from "./api.js";
import { changedCells } from "./board.js";
import {
  $,
  SLOW_REQUEST_MS,
  cellValue,
  locallyMoved,
  onBoard,
  parseBoard,
  sleep,
} from "./play-common.js";

const NOISE_DELAY_MS = 380;
const MOVE_TRIES = 4;
// A move with no answer after this long is said to be still waiting; after
// MOVE_TIMEOUT_MS it is sent again (the step number makes that safe).
const STILL_WAITING_MS = 2500;
const MOVE_TIMEOUT_MS = 8000;

const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

export class MoveSender {
  constructor(page) {
    this.page = page;
    this.pending = null; // a move waiting for the server's answer
  }

  reset() {
    this.pending = null;
  }

  makeMove(from, to) {
    const page = this.page;
    if (!page.game || page.game.game_over || page.view !== "present" || this.pending || page.busy) {
      return;
    }
    const size = page.game.rules.size;
    const fromIndex = from[0] * size + from[1];
    if (!page.current.values[fromIndex]) return;
    this.pending = {
      from,
      to,
      step: page.game.step,
      before: page.current,
      body: { step: page.game.step, from, to, client_time: new Date().toISOString() },
    };
    // Show the move at once; the server's answer confirms it (and brings the noise).
    page.current = locallyMoved(page.current, size, from, to, null, page.modulus);
    page.drawPresent({ moved: onBoard(to, size) ? to[0] * size + to[1] : null });
    this.send();
  }

  async send() {
    const page = this.page;
    const pending = this.pending;
    if (!pending) return;
    page.clearRetry();
    const slow = setTimeout(
      () => page.status.show("Sending your move…", { kind: "working" }),
      SLOW_REQUEST_MS,
    );
    let waiting = null;
    const stillWaiting = (tryNumber) => {
      clearTimeout(waiting);
      waiting = setTimeout(() => {
        const again = Math.round((MOVE_TIMEOUT_MS - STILL_WAITING_MS) / 1000);
        page.status.show(
          `Still waiting for the server's answer to move ${pending.step + 1}` +
            (tryNumber < MOVE_TRIES ? `; it will be sent again in ${again} s if none comes.` : "."),
          { kind: "working" },
        );
      }, STILL_WAITING_MS);
    };
    let result;
    try {
      result = await withRetry((tryNumber) => {
        stillWaiting(tryNumber);
        return api.move(page.game.id, pending.body, { timeout: MOVE_TIMEOUT_MS });
      }, {
        tries: MOVE_TRIES,
        onWait: (error, tryNumber, delay) => {
          clearTimeout(slow);
          clearTimeout(waiting);
          page.status.show(
            `${error.message} Sending move ${pending.step + 1} again in ${Math.round(delay / 100) / 10} s ` +
              `(try ${tryNumber + 1} of ${MOVE_TRIES})…`,
            { kind: "error" },
          );
        },
      });
    } catch (error) {
      clearTimeout(slow);
      clearTimeout(waiting);
      this.failed(error);
      return;
    }
    clearTimeout(slow);
    clearTimeout(waiting);
    if (page.status.element.dataset.kind) page.status.clear();
    await this.apply(result);
  }

  failed(error) {
    const page = this.page;
    const pending = this.pending;
    if (error instanceof ApiError && error.retryable) {
      // Keep the move: Retry sends it again with the same step number, which the
      // server recognises if an earlier attempt did arrive.
      page.offerRetry(() => this.send());
      page.status.show(
        `${error.message} Your move is kept and has not been counted twice. Press Retry to send it.`,
        { kind: "error" },
      );
      return;
    }
    this.pending = null;
    if (error instanceof ApiError && (error.code === "stale_step" || error.code === "game_over")) {
      page.status.show("This game moved on elsewhere; here is its latest board.", { kind: "info" });
      page.run(async () => {
        await page.showGame(await withRetry(() => api.getGame(page.game.id)));
      }, "Loading…");
      return;
    }
    page.current = pending.before;
    page.drawPresent();
    page.status.show(error.message || "That move is not allowed.", { kind: "error", timeout: 6000 });
  }

  async apply(result) {
    const page = this.page;
    const pending = this.pending;
    const size = page.game.rules.size;
    const move = result.move;
    // A planar game's move off the board leaves no cell to flash.
    const dst = onBoard(move.to, size) ? move.to[0] * size + move.to[1] : null;
    const finalBoard = parseBoard(result.board);
    const afterMove = locallyMoved(
      pending.before,
      size,
      move.from,
      move.to,
      cellValue(String(move.to_value_after)),
      page.modulus,
    );
    if (result.noise_rounds > 0 || result.game_over || result.jumped_from !== null) {
      // First the move as the server played it, then the noise that followed.
      page.current = afterMove;
      page.board.render(afterMove, {
        variant: page.game.rules.variant,
        showGroups: page.groupsShownInPlay(),
        moved: dst,
      });
      if (!reducedMotion.matches) await sleep(NOISE_DELAY_MS);
    }
    const changed = new Set(result.noise.map((c) => c.row * size + c.col));
    if (result.noise_rounds > 0) {
      for (const i of changedCells(afterMove.values, finalBoard.values)) changed.add(i);
    }
    page.game = result.game;
    page.current = finalBoard;
    this.pending = null;
    page.moveList.add({
      index: move.index,
      from: move.from,
      to: move.to,
      value: move.value,
      note: move.note || "",
    });
    page.history.remember(result.step, finalBoard);
    page.remember();
    page.moveList.render();
    if (result.game_over) {
      page.drawPresent({ moved: dst });
      page.status.show(page.isPlanar ? "The board is clean!" : "Game over!", { kind: "info" });
      await page.run(() => page.finishGame(), "Loading the replay…");
      return;
    }
    page.drawPresent({ changed: result.noise_rounds > 0 ? [...changed] : null, moved: dst });
    page.announce(`${page.moveList.describe(move).spoken}. ${page.hudText()}`);
    if (result.noise_rounds > 0) this.announceNoise(result, changed.size);
  }

  announceNoise(result, count) {
    const round = this.page.game.round;
    const jumped = result.jumped_from !== null ? " The board was empty, so the clock jumped ahead." : "";
    this.page.status.show(
      `Noise round ${round}: ${count} ${count === 1 ? "square" : "squares"} changed.${jumped}`,
      { timeout: 5000 },
    );
    const hud = $("round").closest(".hud-item");
    hud.classList.remove("is-bumped");
    void hud.offsetWidth;
    hud.classList.add("is-bumped");
  }
}
