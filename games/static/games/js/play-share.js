// Sharing a finished game from the game-over card: the player chooses to make
// a public replay page (an unguessable link), then copies the share text or
// hands it to the device's share sheet (Web Share API, where there is one).

import { api, withRetry } from "./api.js";
import { $ } from "./play-common.js";

export class ShareBox {
  constructor(page) {
    this.page = page;
    this.link = null; // {url, text} while the game is shared
    $("share-button").addEventListener("click", () => this.share());
    $("share-copy").addEventListener("click", () => this.copy());
    $("share-native").addEventListener("click", () => this.native());
    $("share-stop").addEventListener("click", () => this.stop());
  }

  // A finished game: offer to share it (or show its link if it already is).
  setup(game) {
    this.link = null;
    $("share-panel").hidden = true;
    $("share-button").hidden = false;
    $("share-button").disabled = false;
    if (game.share_token) this.share();
  }

  async share() {
    const game = this.page.game;
    if (!game || !game.game_over) return;
    $("share-button").disabled = true;
    try {
      this.link = await withRetry(() => api.share(game.id));
    } catch (error) {
      $("share-button").disabled = false;
      this.page.fail(error, null);
      return;
    }
    game.share_token = this.link.share_token;
    $("share-text").textContent = this.link.text;
    $("share-link").href = this.link.url;
    $("share-button").hidden = true;
    $("share-native").hidden = typeof navigator.share !== "function";
    $("share-panel").hidden = false;
  }

  async copy() {
    if (!this.link) return;
    try {
      await navigator.clipboard.writeText(this.link.text);
      this.page.status.show("Copied: paste it anywhere.", { timeout: 3000 });
    } catch {
      // No clipboard permission: select the text so that the player can copy it.
      const range = document.createRange();
      range.selectNodeContents($("share-text"));
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      this.page.status.show("Select and copy the text above.", { timeout: 5000 });
    }
  }

  async native() {
    if (!this.link || typeof navigator.share !== "function") return;
    try {
      await navigator.share({ title: "Decodoku", text: this.link.text, url: this.link.url });
    } catch {
      // The player closed the share sheet: nothing to do.
    }
  }

  async stop() {
    const game = this.page.game;
    if (!game) return;
    try {
      await withRetry(() => api.unshare(game.id));
    } catch (error) {
      this.page.fail(error, null);
      return;
    }
    game.share_token = null;
    this.setup(game);
    this.page.status.show("The game is no longer shared; its link stopped working.", { timeout: 4000 });
  }
}
