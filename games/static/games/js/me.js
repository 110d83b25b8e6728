// My games: the Copy button beside the recovery code. Without a clipboard (or
// without permission) the code is selected so that the player can copy it.

const button = document.getElementById("recovery-copy");
const code = document.getElementById("recovery-code");
const status = document.getElementById("recovery-copy-status");

if (button && code) {
  button.hidden = false;
  button.addEventListener("click", async () => {
    const text = code.textContent.trim();
    try {
      await navigator.clipboard.writeText(text);
      status.textContent = "Copied.";
    } catch {
      const range = document.createRange();
      range.selectNodeContents(code);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      status.textContent = "Selected: copy it with your device's copy command.";
    }
  });
}
