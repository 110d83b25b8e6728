// The research consent and the player behind this browser's session.
//
// The server renders what it knows into <body>: the current consent version,
// whether the session already has a player and which consent that player gave.
// A player's consent cannot be changed afterwards, so a different choice
// creates a new player, whose games from then on carry the new choice.

import { api } from "./api.js";

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

export function needsNewPlayer(checkbox, context = playerContext()) {
  if (!context.hasPlayer) return true;
  if (!checkbox) return false;
  return chosenConsent(checkbox, context) !== context.playerConsent;
}

// Show the "this starts a new player record" note while the box differs from
// what the existing player agreed to.
export function watchConsentChoice(checkbox, note, context = playerContext()) {
  if (!checkbox || !note) return;
  const update = () => {
    note.hidden = !context.hasPlayer || !needsNewPlayer(checkbox, context);
  };
  checkbox.addEventListener("change", update);
  update();
}

// Make sure the session has a player with the chosen consent. Returns true
// when a player was created.
export async function ensurePlayer(checkbox) {
  const context = playerContext();
  if (!needsNewPlayer(checkbox, context)) return false;
  const consent = chosenConsent(checkbox, context);
  await api.createPlayer(consent);
  document.body.dataset.hasPlayer = "true";
  document.body.dataset.playerConsent = consent || "";
  return true;
}
