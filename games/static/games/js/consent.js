// The research consent and the player behind this browser's session.
//
// The server renders what it knows into <body>: the current consent version,
// whether the session already has a player and which consent that player gave.
// A different choice changes the consent of the same player (their games and
// bests stay theirs); the games started from then on carry the new choice.

import { ApiError, api } from "./api.js";

export function playerContext() {
  const data = document.body.dataset;
  return {
    consentVersion: data.consentVersion,
    hasPlayer: data.hasPlayer === "true",
    playerConsent: data.playerConsent || null,
  };
}

// The consent version to send for the checkbox's state (null: no consent).
export function chosenConsent(checkbox, context = playerContext()) {
  return checkbox && checkbox.checked ? context.consentVersion : null;
}

export function consentDiffers(checkbox, context = playerContext()) {
  if (!context.hasPlayer || !checkbox) return false;
  return chosenConsent(checkbox, context) !== context.playerConsent;
}

// Show the "this applies to the games you start from now on" note while the
// box differs from what the existing player agreed to.
export function watchConsentChoice(checkbox, note, context = playerContext()) {
  if (!checkbox || !note) return;
  const update = () => {
    note.hidden = !consentDiffers(checkbox, context);
  };
  checkbox.addEventListener("change", update);
  update();
}

// Make sure the session has a player with the chosen consent: create one the
// first time, change the consent of the same player afterwards. Returns true
// when a player was created.
export async function ensurePlayer(checkbox) {
  const context = playerContext();
  const consent = chosenConsent(checkbox, context);
  let created = false;
  if (context.hasPlayer) {
    if (!consentDiffers(checkbox, context)) return false;
    try {
      await api.setConsent(consent);
    } catch (error) {
      // The session no longer has a player (it expired): start a new one.
      if (!(error instanceof ApiError) || error.status !== 401) throw error;
      await api.createPlayer(consent);
      created = true;
    }
  } else {
    await api.createPlayer(consent);
    created = true;
  }
  document.body.dataset.hasPlayer = "true";
  document.body.dataset.playerConsent = consent || "";
  return created;
}
