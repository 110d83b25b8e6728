// The upload page: files can be dropped onto the form as well as chosen; the form
// itself is an ordinary multipart form. A player who has not answered the research
// question yet (or a browser with no player at all) is asked first, as on Play: the
// answer makes the player, and the form appears right after it.

import { setUpConsentChoice } from "./consent.js";

const drop = document.getElementById("upload-drop");
const input = document.getElementById("upload-input");
const chosen = document.getElementById("upload-chosen");
const hint = document.getElementById("upload-drop-hint");

function listChosen() {
  chosen.replaceChildren(
    ...[...input.files].map((file) => {
      const item = document.createElement("li");
      item.textContent = `${file.name} (${Math.max(1, Math.round(file.size / 1024))} KB)`;
      return item;
    }),
  );
}

if (drop && input) {
  hint.hidden = false;
  input.addEventListener("change", listChosen);
  for (const name of ["dragenter", "dragover"]) {
    drop.addEventListener(name, (event) => {
      event.preventDefault();
      drop.classList.add("is-dragging");
    });
  }
  for (const name of ["dragleave", "drop"]) {
    drop.addEventListener(name, () => drop.classList.remove("is-dragging"));
  }
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    if (!event.dataTransfer || !event.dataTransfer.files.length) return;
    input.files = event.dataTransfer.files;
    listChosen();
  });
}

const section = document.getElementById("upload-section");
const note = document.getElementById("upload-consent-note");
setUpConsentChoice();
document.addEventListener("consent:chosen", () => {
  if (!section.hidden) return;
  section.hidden = false;
  if (note) note.hidden = true;
  // The player came here to upload: carry on to the form they were waiting for.
  input.focus();
});

const report = document.getElementById("report-title");
if (report) report.focus({ preventScroll: false });
