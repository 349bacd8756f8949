// The HTTP API as the page uses it: one function per call, errors as ApiError.
// The page is served by the gateway itself, so every path is relative to its origin.

const TIMEOUT_MS = 30_000;
// The API key lives in sessionStorage: it is sent with every call from this tab and
// forgotten when the tab closes (never in localStorage, never in the URL).
export const API_KEY_ITEM = "hindsight.apiKey";

function apiKey() {
  try {
    return sessionStorage.getItem(API_KEY_ITEM) ?? "";
  } catch {
    return ""; // storage unavailable: no key to send
  }
}

/** A failed call: `message` says what went wrong, `problems` which fields and why. */
export class ApiError extends Error {
  constructor(message, { status = 0, code = "", problems = [] } = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.problems = problems;
  }
}

/** Query parameters without the empty ones; arrays become repeated parameters. */
export function params(values) {
  const out = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v !== null && v !== undefined && v !== "") out.append(name, String(v));
    }
  }
  return out;
}

function withTimeout(signal) {
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  return signal && AbortSignal.any ? AbortSignal.any([signal, timeout]) : signal ?? timeout;
}

async function call(method, path, { query, body, signal } = {}) {
  const qs = query ? params(query).toString() : "";
  const init = { method, headers: { accept: "application/json" }, signal: withTimeout(signal) };
  const key = apiKey();
  if (key) init.headers.authorization = `Bearer ${key}`;
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(qs ? `${path}?${qs}` : path, init);
  } catch (e) {
    if (signal?.aborted) throw e; // superseded by a newer request: not an error to show
    const why = e?.name === "TimeoutError" ? `no answer within ${TIMEOUT_MS / 1000} s` : e.message;
    throw new ApiError(`Could not reach Hindsight (${why}). Is the server running?`);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = data?.error;
    if (error && typeof error.message === "string") {
      throw new ApiError(error.message, {
        status: response.status,
        code: error.code ?? "",
        problems: Array.isArray(error.problems) ? error.problems : [],
      });
    }
    const detail = text.trim().slice(0, 300) || response.statusText;
    throw new ApiError(`HTTP ${response.status}: ${detail}`, { status: response.status });
  }
  if (data === null) throw new ApiError(`${method} ${path}: the answer was not JSON`);
  return data;
}

/** POST /v1/recall → {items}. */
export function recall({ tenant, user, query, k, types }, signal) {
  const body = { query, k, types };
  if (tenant) body.tenant = tenant;
  if (user) body.user = user;
  return call("POST", "/v1/recall", { body, signal });
}

/** GET /v1/memories → {items, next_offset}, newest first. */
export function listMemories(filters, signal) {
  return call("GET", "/v1/memories", { query: filters, signal });
}

/** GET /v1/memories/{id} → {memory, sources}; include ["forgotten"] opens a forgotten one (admin). */
export function getMemory(id, tenant, signal, include = []) {
  return call("GET", `/v1/memories/${encodeURIComponent(id)}`, { query: { tenant, include }, signal });
}

/** POST /v1/memories/{id}:pin | :unpin | :restore → {events}: the event is durable. */
export function memoryAction(action, id, { tenant, user }, signal) {
  const body = { user };
  if (tenant) body.tenant = tenant;
  return call("POST", `/v1/memories/${encodeURIComponent(id)}:${action}`, { body, signal });
}
