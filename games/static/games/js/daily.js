// The daily challenge page: the research question and the button that starts today's game.

import { ApiError, request } from "./api.js";
import { setUpConsentChoice, withConsent } from "./consent.js";
import { StatusLine } from "./status.js";

const button = document.getElementById("daily-play");
const status = new StatusLine(document.getElementById("daily-status"));
const playUrl = button.dataset.playUrl || "/play/";

setUpConsentChoice();

function openGame(gameId) {
  window.location.assign(`${playUrl}?game=${encodeURIComponent(gameId)}`);
}

// Play before the question is answered asks it; the answer then leads on to the game.
button.addEventListener("click", () => withConsent(startToday));

async function startToday() {
  button.disabled = true;
  status.show("Getting today's board ready…", { kind: "working" });
  try {
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
}
