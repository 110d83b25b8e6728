// The page's status line: an aria-live region that screen readers announce.

export class StatusLine {
  constructor(element) {
    this.element = element;
    this.timer = null;
  }

  // kind: "info", "working", "error" or "ok". A message with a timeout clears itself.
  show(message, { kind = "info", timeout = 0 } = {}) {
    clearTimeout(this.timer);
    this.element.textContent = message;
    this.element.dataset.kind = kind;
    if (timeout) this.timer = setTimeout(() => this.clear(), timeout);
  }

  clear() {
    clearTimeout(this.timer);
    this.element.textContent = "";
    delete this.element.dataset.kind;
  }
}
