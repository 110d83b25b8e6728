// The move list and the player's notes: every move of the game, described in
// words, each with a note the player may add or edit to say why they made it.

import { api, withRetry } from "./api.js";
import { $, cellValue } from "./play-common.js";
import { spokenFor, symbolFor } from "./symbols.js";

// The least height of the move list while a note is written: room for the note's box.
const NOTE_BOX_MIN_PX = 120;
const DIRECTION_TEXT = { "-1,0": "up", "1,0": "down", "0,-1": "left", "0,1": "right" };

export class MoveList {
  constructor(page) {
    this.page = page;
    this.moves = []; // [{index, from, to, value, note}]
  }

  set(moves) {
    this.moves = moves;
  }

  add(move) {
    this.moves.push(move);
  }

  // The moves of a finished game from its events, keeping notes only this browser knew.
  fromEvents(events) {
    if (!Array.isArray(events)) return;
    const notes = new Map(this.moves.map((m) => [m.index, m.note]));
    this.moves = events
      .filter((e) => e.kind === "move")
      .map((e) => ({
        index: e.index,
        from: [e.from_row, e.from_col],
        to: [e.to_row, e.to_col],
        value: String(e.value),
        note: e.note ?? notes.get(e.index) ?? "",
      }));
  }

  describe(move) {
    // A finished game reveals the numbers behind Phi and Lambda.
    const variant = this.page.game.game_over ? "z10" : this.page.game.rules.variant;
    const key = `${move.to[0] - move.from[0]},${move.to[1] - move.from[1]}`;
    const value = cellValue(String(move.value ?? ""));
    const what = value ? symbolFor(value, variant) : "Number";
    const spoken = value ? spokenFor(value, variant) : "a number";
    const size = this.page.game.rules.size;
    if (move.to[1] < 0 || move.to[1] >= size) {
      // A planar game's move off the board through its left or right side.
      const side = move.to[1] < 0 ? "left" : "right";
      const where = `from row ${move.from[0] + 1} off the board through the ${side} side`;
      return { text: `${what} ${where}`, spoken: `Move ${move.index}: ${spoken} ${where}` };
    }
    return {
      text: `${what} ${DIRECTION_TEXT[key] || "moved"} from row ${move.from[0] + 1}, column ${move.from[1] + 1}`,
      spoken: `Move ${move.index}: ${spoken} ${DIRECTION_TEXT[key] || "moved"} from row ${move.from[0] + 1}, column ${move.from[1] + 1}`,
    };
  }

  render() {
    const list = $("move-list");
    list.style.height = ""; // a note's box, if one was open, is gone with the redraw
    const count = $("moves-count");
    const moves = this.moves;
    const made = this.page.game ? this.page.game.step : 0;
    count.textContent = String(made);
    count.dataset.moves = String(made);
    const items = moves.map((move) => this.item(move));
    // Moves of a resumed normal game that this browser did not see: notes still work.
    const known = new Set(moves.map((m) => m.index));
    for (let index = 1; index <= made; index += 1) {
      if (!known.has(index)) items.push(this.item({ index, from: null, to: null, note: "" }));
    }
    items.sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index));
    list.replaceChildren(...items);
    list.scrollTop = list.scrollHeight;
  }

  item(move) {
    const item = document.createElement("li");
    item.className = "move";
    item.dataset.index = String(move.index);
    const line = document.createElement("div");
    line.className = "move-line";
    const number = document.createElement("span");
    number.className = "move-number";
    number.textContent = String(move.index);
    const text = document.createElement("span");
    text.className = "move-text";
    if (move.from) {
      const described = this.describe(move);
      text.textContent = described.text;
      item.setAttribute("aria-label", described.spoken);
    } else {
      text.textContent = "Move made earlier";
    }
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button button-small note-button";
    button.dataset.action = "note";
    button.textContent = move.note ? "Edit note" : "Add note";
    // The accessible name starts with the visible text (WCAG 2.5.3, label in name).
    button.setAttribute("aria-label", `${move.note ? "Edit note on" : "Add note to"} move ${move.index}`);
    line.append(number, text, button);
    item.append(line);
    if (move.note) {
      const note = document.createElement("p");
      note.className = "move-note";
      note.textContent = move.note;
      item.append(note);
    }
    return item;
  }

  highlight(step) {
    for (const item of $("move-list").children) {
      item.classList.toggle("is-current", Number(item.dataset.index) === step);
    }
    const list = $("move-list");
    const current = list.querySelector(".is-current");
    if (!current) return;
    // Scroll the list only: scrollIntoView would scroll the page too, and the board with it.
    const outer = list.getBoundingClientRect();
    const inner = current.getBoundingClientRect();
    if (inner.top < outer.top) list.scrollTop -= outer.top - inner.top;
    else if (inner.bottom > outer.bottom) list.scrollTop += inner.bottom - outer.bottom;
  }

  onClick(event) {
    const button = event.target.closest("button");
    if (!button) return;
    const item = button.closest("li.move");
    const index = Number(item.dataset.index);
    if (button.dataset.action === "note") this.openNoteForm(item, index);
    if (button.dataset.action === "cancel-note") {
      const list = $("move-list");
      list.style.height = "";
      const listTop = list.scrollTop;
      this.render();
      list.scrollTop = listTop;
      const again = list.querySelector(`li.move[data-index="${index}"] .note-button`);
      if (again) again.focus({ preventScroll: true });
      if (this.pageTop !== undefined) window.scrollTo({ top: this.pageTop, behavior: "instant" });
    }
  }

  openNoteForm(item, index) {
    if (item.querySelector("form")) return;
    const move = this.moves.find((m) => m.index === index) || { note: "" };
    const form = document.createElement("form");
    form.className = "note-form";
    form.dataset.index = String(index);
    const id = `note-${index}`;
    const label = document.createElement("label");
    label.htmlFor = id;
    label.className = "visually-hidden";
    label.textContent = `Why did you make move ${index}?`;
    const area = document.createElement("textarea");
    area.id = id;
    area.name = "note";
    area.rows = 2;
    area.maxLength = 2000;
    area.placeholder = "Why I made this move…";
    area.value = move.note || "";
    const actions = document.createElement("div");
    actions.className = "note-actions";
    const save = document.createElement("button");
    save.type = "submit";
    save.className = "button button-small button-primary";
    save.textContent = "Save note";
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "button button-small";
    cancel.dataset.action = "cancel-note";
    cancel.textContent = "Cancel";
    actions.append(save, cancel);
    form.append(label, area, actions);
    item.querySelector(".note-button").hidden = true;
    // Where the page was: saving or cancelling the note goes back there, so that
    // the board is where the player left it (typing may scroll the page on a phone).
    this.pageTop = window.scrollY;
    // Writing a note leaves the page (and the board) where it is: the list keeps its
    // height (at least room for the note's box) and scrolls within itself to show the
    // box; focusing the box the usual way would scroll the whole page.
    const list = $("move-list");
    const height = list.getBoundingClientRect().height;
    list.style.height = `${Math.max(height, NOTE_BOX_MIN_PX)}px`;
    item.append(form);
    area.focus({ preventScroll: true });
    const outer = list.getBoundingClientRect();
    const inner = form.getBoundingClientRect();
    if (inner.bottom > outer.bottom) list.scrollTop += inner.bottom - outer.bottom;
    if (inner.top < outer.top) list.scrollTop -= outer.top - inner.top;
    window.scrollTo({ top: this.pageTop, behavior: "instant" });
  }

  async onNoteSubmit(event) {
    const page = this.page;
    event.preventDefault();
    const form = event.target;
    const index = Number(form.dataset.index);
    const note = form.elements.note.value;
    const save = form.querySelector("button[type=submit]");
    save.disabled = true;
    save.textContent = "Saving…";
    try {
      await withRetry(() => api.note(page.game.id, index, note));
    } catch (error) {
      save.disabled = false;
      save.textContent = "Save note";
      page.fail(error, null);
      return;
    }
    let move = this.moves.find((m) => m.index === index);
    if (!move) {
      move = { index, from: null, to: null, note: "" };
      this.moves.push(move);
    }
    move.note = note;
    page.remember();
    // Redraw the list where it was, and leave the page (and the board) where it was.
    const list = $("move-list");
    list.style.height = "";
    const listTop = list.scrollTop;
    const pageTop = this.pageTop ?? window.scrollY;
    this.render();
    list.scrollTop = listTop;
    if (page.replay.state) this.highlight(page.replay.state.index);
    const again = list.querySelector(`li.move[data-index="${index}"] .note-button`);
    if (again) again.focus({ preventScroll: true });
    window.scrollTo({ top: pageTop, behavior: "instant" });
    page.status.show(note ? `Note saved on move ${index}.` : `Note removed from move ${index}.`, {
      timeout: 3000,
    });
  }
}
