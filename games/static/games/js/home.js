// The home page: the consent choice and the Play button.

import { withRetry } from "./api.js";
import { ensurePlayer, watchConsentChoice } from "./consent.js";
import { StatusLine } from "./status.js";

const button = document.getElementById("play-button");
const checkbox = document.getElementById("consent-checkbox");
const status = new StatusLine(document.getElementById("home-status"));

watchConsentChoice(checkbox, document.getElementById("consent-change"));

button.addEventListener("click", async () => {
  button.disabled = true;
  status.show("Getting a board ready…", { kind: "working" });
  try {
    await withRetry(() => ensurePlayer(checkbox), {
      onWait: () => status.show("The server is not answering; trying again…", { kind: "working" }),
    });
    window.location.assign(button.dataset.playUrl || "/play/");
  } catch (error) {
    status.show(`Could not start: ${error.message} Please try again.`, { kind: "error" });
    button.disabled = false;
  }
});
