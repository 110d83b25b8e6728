// What the KenKen/Futoshiki page and the 2mino page share: the clock, and the sending of
// an attempt's actions in order, each with the attempt's step: one at a time, or many in
// one request (a batch, recorded one step each) when one gesture makes many.
//
// A lost answer is retried with the same step (the server answers a retry from its
// record); a 409 (stale_step) means the page is behind, so the attempt is fetched again.

import { ApiError, withRetry } from "../../games/js/api.js";
import { puzzlesApi } from "./puzzle-api.js";

export function formatTime(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// The time since the attempt started, shown in `element` every second.
export class Clock {
  constructor(element) {
    this.element = element;
    this.interval = null;
  }

  start(startedAt) {
    this.stop();
    const started = Date.parse(startedAt);
    const tick = () => {
      this.element.textContent = formatTime((Date.now() - started) / 1000);
    };
    tick();
    this.interval = setInterval(tick, 1000);
  }

  // Stops the clock; with `seconds`, shows that time (a solved attempt's).
  stop(seconds = null) {
    clearInterval(this.interval);
    this.interval = null;
    if (seconds !== null) this.element.textContent = formatTime(seconds);
  }
}

// The attempt being played and its queue of actions.
//   say(text): a message to the player;
//   onAnswer(kind, result, { payload, before }): the action was recorded (`this.attempt`
//     is the attempt after it, `before` its state before);
//   onReload(): the attempt was fetched again after a stale step;
//   onFailure(error): the action was refused or could not be sent.
// The most actions the server takes in one batch (puzzles.services.MAX_BATCH_ACTIONS).
const MAX_BATCH = 1000;

export class AttemptSession {
  constructor({ say, onAnswer, onReload, onFailure }) {
    this.say = say;
    this.onAnswer = onAnswer;
    this.onReload = onReload;
    this.onFailure = onFailure;
    this.attempt = null;
    this.queue = Promise.resolve();
  }

  get active() {
    return Boolean(this.attempt) && this.attempt.status === "active";
  }

  // Runs `task` after every action queued before it.
  later(task) {
    this.queue = this.queue.then(task);
    return this.queue;
  }

  send(kind, payload = {}) {
    if (!this.active) return this.queue;
    return this.later(async () => {
      if (!this.active) return;
      const before = this.attempt.state;
      const body = { step: this.attempt.step, kind, payload, client_time: new Date().toISOString() };
      try {
        const answer = await withRetry(() => puzzlesApi.act(this.attempt.id, body), {
          onWait: () => this.say("Connection problem, trying again\u2026"),
        });
        this.attempt = answer.attempt;
        this.onAnswer(kind, answer.action.result || {}, { payload, before });
      } catch (error) {
        await this.failed(error);
      }
    });
  }

  // Many actions ([{ kind, payload }]) in batches of at most MAX_BATCH, each batch all
  // or nothing; onAnswer is called for every action recorded (`before`: the state
  // before its batch).
  sendMany(items) {
    if (!this.active || !items.length) return this.queue;
    return this.later(async () => {
      for (let start = 0; start < items.length && this.active; start += MAX_BATCH) {
        const chunk = items.slice(start, start + MAX_BATCH);
        const before = this.attempt.state;
        const clientTime = new Date().toISOString();
        const body = {
          step: this.attempt.step,
          actions: chunk.map(({ kind, payload }) => ({ kind, payload, client_time: clientTime })),
        };
        try {
          const answer = await withRetry(() => puzzlesApi.actMany(this.attempt.id, body), {
            onWait: () => this.say("Connection problem, trying again\u2026"),
          });
          this.attempt = answer.attempt;
          answer.actions.forEach((action, i) => {
            this.onAnswer(chunk[i].kind, action.result || {}, { payload: chunk[i].payload, before });
          });
        } catch (error) {
          await this.failed(error);
          return;
        }
      }
    });
  }

  async failed(error) {
    if (error instanceof ApiError && error.code === "stale_step") {
      this.attempt = await puzzlesApi.get(this.attempt.id);
      this.onReload();
      this.say("The page was behind; it has been brought up to date.");
    } else {
      this.onFailure(error);
    }
  }

  // Ends the attempt (give up) after the queued actions.
  giveUp() {
    return this.later(async () => {
      if (!this.active) return;
      this.attempt = await puzzlesApi.finish(this.attempt.id);
    });
  }

  // Resolves once every queued action is done, including those queued meanwhile.
  async settled() {
    let seen;
    do {
      seen = this.queue;
      await seen;
    } while (seen !== this.queue);
  }
}
