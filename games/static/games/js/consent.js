// The research question and the player behind this browser's session.
//
// The server renders what it knows into <body>: the current consent version,
// whether the session already has a player, which consent that player gave and
// whether they answered the question at all. Every page that starts a game shows
// the question (games/_consent.html) before its Play button until it is
// answered; the answer (yes or no) is recorded at once, creating the player the
// first time. A later change keeps the same player (their games and bests stay
// theirs); the games started from then on carry the new choice.

import { ApiError, api, withRetry } from "./api.js";

export function playerContext() {
  const data = document.body.dataset;
  return {
    consentVersion: data.consentVersion,
    hasPlayer: data.hasPlayer === "true",
    playerConsent: data.playerConsent || null,
    consentDecided: data.consentDecided === "true",
  };
}

// Raised when a game would start before the research question is answered.
export class ConsentChoiceNeeded extends Error {
  constructor() {
    super("Please answer the question about research use of your games first.");
    this.name = "ConsentChoiceNeeded";
  }
}

const $ = (id) => document.getElementById(id);
// Actions waiting for the answer (a Play pressed first): run once it is recorded.
let waiting = [];

// Record the answer: a new player the first time, the same player's consent afterwards.
async function recordChoice(yes) {
  const context = playerContext();
  const consent = yes ? context.consentVersion : null;
  if (context.hasPlayer) {
    try {
      await api.setConsent(consent);
    } catch (error) {
      // The session no longer has a player (it expired): start a new one.
      if (!(error instanceof ApiError) || error.status !== 401) throw error;
      await api.createPlayer(consent);
    }
  } else {
    await api.createPlayer(consent);
  }
  const data = document.body.dataset;
  data.hasPlayer = "true";
  data.playerConsent = consent || "";
  data.consentDecided = "true";
}

function say(text) {
  const status = $("consent-status");
  if (status) status.textContent = text;
}

function showAnswer() {
  const yes = Boolean(playerContext().playerConsent);
  $("consent-answer").textContent = yes ? "yes" : "no";
  $("consent-yes").setAttribute("aria-pressed", String(yes));
  $("consent-no").setAttribute("aria-pressed", String(!yes));
  $("consent-ask").hidden = true;
  $("consent-summary").hidden = false;
  $("consent-change").setAttribute("aria-expanded", "false");
  $("consent").classList.add("is-decided");
}

async function choose(yes) {
  const buttons = [$("consent-yes"), $("consent-no")];
  for (const button of buttons) button.disabled = true;
  say("Saving your answer…");
  try {
    await withRetry(() => recordChoice(yes), {
      onWait: () => say("The server is not answering; trying again…"),
    });
  } catch (error) {
    say(`Your answer was not saved: ${error.message} Please try again.`);
    return;
  } finally {
    for (const button of buttons) button.disabled = false;
  }
  showAnswer();
  say(yes ? "Saved: your games may be used for research." : "Saved: your games stay on this site.");
  // The answer button is hidden now: keep the keyboard where the answer is shown.
  $("consent-change").focus();
  const actions = waiting;
  waiting = [];
  for (const action of actions) action();
  document.dispatchEvent(new CustomEvent("consent:chosen"));
}

// Wire the question's buttons (once per page).
export function setUpConsentChoice() {
  const box = $("consent");
  if (!box || box.dataset.ready) return;
  box.dataset.ready = "true";
  $("consent-yes").addEventListener("click", () => choose(true));
  $("consent-no").addEventListener("click", () => choose(false));
  $("consent-change").addEventListener("click", () => {
    $("consent-ask").hidden = false;
    $("consent-summary").hidden = true;
    $("consent-change").setAttribute("aria-expanded", "true");
    say("");
    const current = playerContext().playerConsent ? $("consent-yes") : $("consent-no");
    current.focus();
  });
}

// Bring the question into view and to the keyboard; ``then`` runs once it is answered.
export function askForConsent(then) {
  setUpConsentChoice();
  // A start pressed twice before the answer still starts once.
  if (then && !waiting.includes(then)) waiting.push(then);
  const box = $("consent");
  if (!box) return;
  $("consent-ask").hidden = false;
  box.scrollIntoView({ block: "center" });
  say("Choose yes or no first; your game starts right after.");
  $("consent-yes").focus();
}

// Run ``action`` now if the question is answered, or right after the answer.
export function withConsent(action) {
  if (playerContext().consentDecided) {
    action();
    return;
  }
  askForConsent(action);
}

// The pages that wired the old checkbox call this; the question needs no note now.
export function watchConsentChoice() {
  setUpConsentChoice();
}

// Make sure the session has a player who answered the research question before a
// game starts. The answer itself makes the player; until it is given this asks
// for it and throws ConsentChoiceNeeded, so no game starts unasked. ``then`` (the
// start that was pressed) runs again right after the answer, so the player need
// not press it twice; callers from before pass something else, which is ignored.
export async function ensurePlayer(then) {
  if (playerContext().consentDecided) return false;
  askForConsent(typeof then === "function" ? then : undefined);
  throw new ConsentChoiceNeeded();
}
