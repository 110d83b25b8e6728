// Back in time: while a game is under way the player can step through its
// earlier boards (asked of the server once each, then kept) and return to the present.

import { api, withRetry } from "./api.js";
import { $, parseBoard } from "./play-common.js";

export class History {
  constructor(page) {
    this.page = page;
    this.step = 0; // the board shown while looking back
    this.cache = new Map(); // step -> board
    this.token = 0; // the latest request; older answers are dropped
  }

  reset() {
    this.cache = new Map();
  }

  remember(step, board) {
    this.cache.set(step, board);
  }

  enter() {
    const page = this.page;
    if (!page.game || page.game.game_over || page.view !== "present") return;
    if (page.sender.pending) {
      page.status.show("Wait for your move to arrive before looking back.", { timeout: 3000 });
      return;
    }
    if (page.game.step === 0) {
      page.status.show("There are no earlier boards yet: make a move first.", { timeout: 3000 });
      return;
    }
    page.view = "history";
    page.board.setMode("history");
    $("hud").hidden = true;
    $("board-frame").classList.add("is-history");
    this.show(page.game.step - 1);
  }

  back() {
    if (this.page.view !== "history") return;
    if (this.step > 0) this.show(this.step - 1);
  }

  forward() {
    if (this.page.view !== "history") return;
    if (this.step + 1 >= this.page.game.step) this.returnToPresent();
    else this.show(this.step + 1);
  }

  async show(step) {
    const page = this.page;
    this.step = step;
    const token = ++this.token;
    this.updateTimebar();
    let board = this.cache.get(step);
    if (!board) {
      $("lookback-banner").textContent = "Looking back…";
      $("lookback-banner").hidden = false;
      try {
        board = parseBoard(await withRetry(() => api.history(page.game.id, step)));
      } catch (error) {
        if (token === this.token) {
          page.fail(error, () => page.view === "history" && this.show(step));
        }
        return;
      }
      this.cache.set(step, board);
    }
    if (token !== this.token || page.view !== "history") return;
    page.board.render(board, { variant: page.game.rules.variant, showGroups: page.groupsShownInPlay() });
    const banner = $("lookback-banner");
    banner.textContent =
      step === 0
        ? `Looking back: the first board (now at move ${page.game.step})`
        : `Looking back: after move ${step} of ${page.game.step}`;
    banner.hidden = false;
    this.updateTimebar();
  }

  returnToPresent() {
    const page = this.page;
    if (page.view !== "history") return;
    this.token += 1;
    page.view = "present";
    $("board-frame").classList.remove("is-history");
    $("lookback-banner").hidden = true;
    $("hud").hidden = false;
    page.drawPresent();
    page.status.show("Back to the present: your move.", { timeout: 2500 });
  }

  updateTimebar() {
    const page = this.page;
    const history = page.view === "history";
    const canLook = Boolean(page.game && !page.game.game_over && page.game.step > 0 && !page.sender.pending);
    $("back-button").disabled = history ? this.step === 0 : !canLook;
    $("back-button").setAttribute("aria-label", history ? "Back one move" : "Look back one move");
    $("forward-button").disabled = !history;
    $("present-button").disabled = !history;
    $("timebar-label").textContent = history
      ? `Move ${this.step} of ${page.game.step}`
      : "Back in time";
    $("timebar").classList.toggle("is-active", history);
  }
}
