// A small client for the play API (/api/v1/). Every call goes to this server only.
//
// Errors come back as ApiError. `retryable` is true for a lost connection, a
// timeout and server-side failures, the cases where sending the same request
// again is both safe (moves carry their step number) and likely to help.

const BASE = "/api/v1";
const TIMEOUT_MS = 15000;

export class ApiError extends Error {
  constructor({ status = 0, code = "network_error", message = "", network = false, data = null }) {
    super(message || code);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.network = network;
    this.data = data;
  }

  get retryable() {
    return this.network || this.status >= 500 || this.status === 408 || this.status === 429;
  }
}

function readCookie(name) {
  for (const part of document.cookie.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return "";
}

function csrfToken() {
  // The cookie is read on every request: logging in rotates the token.
  return readCookie("csrftoken");
}

export async function request(method, path, body = undefined, { timeout = TIMEOUT_MS } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET" && method !== "HEAD") headers["X-CSRFToken"] = csrfToken();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeout);
  let response;
  try {
    response = await fetch(path.startsWith("/") ? path : `${BASE}/${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
      cache: "no-store",
      signal: controller.signal,
    });
  } catch (error) {
    const timedOut = error && error.name === "AbortError";
    throw new ApiError({
      network: true,
      code: timedOut ? "timeout" : "network_error",
      message: timedOut ? "The server did not answer in time." : "The connection to the server was lost.",
    });
  } finally {
    clearTimeout(timer);
  }
  let data = null;
  const text = await response.text().catch(() => "");
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    const error = (data && data.error) || {};
    throw new ApiError({
      status: response.status,
      code: error.code || `http_${response.status}`,
      message: error.message || describeStatus(response.status),
      data,
    });
  }
  return data;
}

function describeStatus(status) {
  if (status === 401 || status === 403) return "You are not signed in as a player.";
  if (status === 404) return "Not found.";
  if (status >= 500) return "The server ran into a problem.";
  return `The server answered ${status}.`;
}

export const api = {
  createPlayer: (consentVersion) =>
    request("POST", "players/", { consent_version: consentVersion || null }),
  setConsent: (consentVersion) =>
    request("POST", "me/consent/", { consent_version: consentVersion || null }),
  createGame: ({ size, variant, mode }) => request("POST", "games/", { size, variant, mode }),
  listGames: (page = 1) => request("GET", `games/?page=${page}`),
  getGame: (id) => request("GET", `games/${id}/`),
  move: (id, body, options = {}) => request("POST", `games/${id}/moves/`, body, options),
  abandon: (id) => request("POST", `games/${id}/abandon/`, {}),
  history: (id, step) => request("GET", `games/${id}/history/?step=${step}`),
  note: (id, index, note) => request("POST", `games/${id}/moves/${index}/note/`, { note }),
  share: (id) => request("POST", `games/${id}/share/`, {}),
  unshare: (id) => request("DELETE", `games/${id}/share/`),
  shared: (token) => request("GET", `shared/${encodeURIComponent(token)}/`),
};

// Retry `attempt` with exponential backoff while its error is retryable.
// `onWait(error, tryNumber, delayMs)` is called before each pause.
export async function withRetry(attempt, { tries = 4, baseDelay = 500, onWait = () => {} } = {}) {
  let lastError;
  for (let n = 1; n <= tries; n += 1) {
    try {
      return await attempt(n);
    } catch (error) {
      lastError = error;
      if (!(error instanceof ApiError) || !error.retryable || n === tries) throw error;
      const delay = baseDelay * 2 ** (n - 1);
      onWait(error, n, delay);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
  throw lastError;
}
