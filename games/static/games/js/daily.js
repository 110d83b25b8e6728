// The daily challenge page: the consent choice and the button that starts today's game.

import { ApiError, request, withRetry } from "./api.js";
import { ensurePlayer, watchConsentChoice } from "./consent.js";
import { StatusLine } from "./status.js";

const button = document.getElementById("daily-play");
const checkbox = document.getElementById("consent-checkbox");
const status = new StatusLine(document.getElementById("daily-status"));
const playUrl = button.dataset.playUrl || "/play/";

watchConsentChoice(checkbox, document.getElementById("consent-change"));

function openGame(gameId) {
  window.location.assign(`${playUrl}?game=${encodeURIComponent(gameId)}`);
}

button.addEventListener("click", async () => {
  button.disabled = true;
  status.show("Getting today's board ready…", { kind: "working" });
  try {
    await withRetry(() => ensurePlayer(checkbox), {
      onWait: () => status.show("The server is not answering; trying again…", { kind: "working" }),
    });
    const game = await request("POST", "daily/");
    openGame(game.id);
  } catch (error) {
    if (error instanceof ApiError && error.code === "daily_already_played" && error.data?.error?.game_id) {
      status.show("You have already played today's challenge; opening your game…", { kind: "working" });
      openGame(error.data.error.game_id);
      return;
    }
    status.show(`Could not start: ${error.message} Please try again.`, { kind: "error" });
    button.disabled = false;
  }
});
