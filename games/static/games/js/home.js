// The home page: the research question and the Play button.

import { setUpConsentChoice, withConsent } from "./consent.js";

const button = document.getElementById("play-button");

setUpConsentChoice();

// Play before the question is answered asks it; the answer then leads on to the game.
button.addEventListener("click", () => {
  withConsent(() => window.location.assign(button.dataset.playUrl || "/play/"));
});
