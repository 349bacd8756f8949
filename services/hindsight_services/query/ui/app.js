// The page: whose memories (tenant, user), search, timeline with filters, and one memory
// with its provenance. State lives in the form controls, localStorage (tenant, user),
// sessionStorage (the API key, when the server requires one) and the URL hash (#memory=<id>, so an opened memory can be linked and the Back button works).

import { API_KEY_ITEM, ApiError, getMemory, listMemories, memoryAction, recall } from "./api.js";
import { append, h, replace } from "./dom.js";
import { memoryDetail, memoryItem } from "./render.js";

const PAGE_SIZE = 20;
const SESSION_TURNS = 100;
const STORED = ["tenant", "user"];

const $ = (id) => document.getElementById(id);
const ui = {
  scope: $("scope-form"),
  tenant: $("tenant"),
  user: $("user"),
  apiKey: $("api-key"),
  search: $("search-form"),
  query: $("query"),
  k: $("k"),
  filters: $("filter-form"),
  kind: $("kind"),
  key: $("key"),
  tag: $("tag"),
  error: $("error"),
  listTitle: $("list-title"),
  status: $("status"),
  results: $("results"),
  more: $("more"),
  detail: $("detail"),
};

// One in-flight request per area: a newer search or page load aborts the older one, so a
// slow answer never overwrites a newer one.
const inflight = { list: null, detail: null };
let timelineOffset = null; // the next page's offset, or null at the end
let rerun = () => loadTimeline();

function begin(area) {
  inflight[area]?.abort();
  inflight[area] = new AbortController();
  return inflight[area].signal;
}

function scope() {
  return { tenant: ui.tenant.value.trim(), user: ui.user.value.trim() };
}

function checked(form, name) {
  return [...form.querySelectorAll(`input[name="${name}"]:checked`)].map((box) => box.value);
}

// ---- messages --------------------------------------------------------------------------

function showError(what, error) {
  if (error?.name === "AbortError") return; // superseded by a newer request
  const problems = error instanceof ApiError ? error.problems : [];
  const code = error instanceof ApiError && error.status ? `HTTP ${error.status} ${error.code}`.trim() : "";
  replace(
    ui.error,
    h("p", {}, h("strong", {}, `${what}: `), error?.message ?? String(error)),
    problems.length > 0 &&
      h(
        "ul",
        { class: "problems" },
        problems.map((p) => h("li", {}, h("code", {}, p.field || "(request)"), ": ", p.message)),
      ),
    code && h("p", { class: "muted" }, code),
  );
  ui.error.hidden = false;
}

function clearError() {
  ui.error.hidden = true;
  ui.error.replaceChildren();
}

function busy(on) {
  ui.results.setAttribute("aria-busy", on ? "true" : "false");
  for (const button of document.querySelectorAll("#search-form button, #filter-form button[type=submit]")) {
    button.disabled = on;
  }
}

function scopeText() {
  const { tenant, user } = scope();
  return `${user ? `user ${user}` : "all users"}${tenant ? ` in tenant ${tenant}` : ""}`;
}

// ---- search ----------------------------------------------------------------------------

async function runSearch() {
  const query = ui.query.value.trim();
  if (!query) {
    ui.query.focus();
    return;
  }
  const types = checked(ui.search, "search-type");
  const k = Number.parseInt(ui.k.value, 10);
  rerun = runSearch;
  const signal = begin("list");
  clearError();
  busy(true);
  ui.listTitle.textContent = `Search results for “${query}”`;
  ui.status.textContent = "Searching…";
  ui.more.hidden = true;
  try {
    const answer = await recall({ ...scope(), query, k: Number.isNaN(k) ? 10 : k, types }, signal);
    replace(ui.results, answer.items.map((item, i) => memoryItem(item, { rank: i + 1 })));
    const n = answer.items.length;
    ui.status.textContent = n
      ? `${n} result${n === 1 ? "" : "s"} for ${scopeText()}, best first.`
      : `Nothing found for ${scopeText()}.`;
  } catch (e) {
    if (signal.aborted) return;
    ui.results.replaceChildren();
    ui.status.textContent = "Search failed.";
    showError("Search failed", e);
  } finally {
    if (!signal.aborted) busy(false);
  }
}

// ---- timeline --------------------------------------------------------------------------

function timelineFilters(offset) {
  return {
    ...scope(),
    type: checked(ui.filters, "timeline-type"),
    include: checked(ui.filters, "timeline-include"),
    kind: ui.kind.value,
    key: ui.key.value.trim(),
    tag: ui.tag.value.trim(),
    limit: PAGE_SIZE,
    offset,
  };
}

async function loadTimeline({ more = false } = {}) {
  rerun = () => loadTimeline();
  const offset = more ? timelineOffset ?? 0 : 0;
  const filters = timelineFilters(offset);
  const signal = begin("list");
  clearError();
  busy(true);
  ui.listTitle.textContent = "Timeline";
  ui.status.textContent = more ? "Loading more…" : "Loading…";
  if (!filters.type.length) {
    ui.results.replaceChildren();
    ui.more.hidden = true;
    ui.status.textContent = "Choose at least one type to show.";
    busy(false);
    return;
  }
  try {
    const page = await listMemories(filters, signal);
    const rows = page.items.map((item) => memoryItem(item));
    if (more) append(ui.results, rows);
    else replace(ui.results, rows);
    timelineOffset = page.next_offset ?? null;
    ui.more.hidden = timelineOffset === null;
    const n = ui.results.children.length;
    const narrowed = filters.kind || filters.key || filters.tag ? " matching the filters" : "";
    ui.status.textContent = n
      ? `${n} ${n === 1 ? "memory" : "memories"}${narrowed} for ${scopeText()}, newest first${
          timelineOffset === null ? "." : "; more below."
        }`
      : `No memories${narrowed} for ${scopeText()}.`;
    if (more && rows.length) rows[0].querySelector("a")?.focus();
  } catch (e) {
    if (signal.aborted) return;
    ui.status.textContent = "Loading the timeline failed.";
    showError("Loading the timeline failed", e);
  } finally {
    if (!signal.aborted) busy(false);
  }
}

// ---- detail ----------------------------------------------------------------------------

function openedId() {
  const match = /^#memory=(.+)$/.exec(location.hash);
  return match ? decodeURIComponent(match[1]) : null;
}

function markSelected(id) {
  for (const link of ui.results.querySelectorAll("a.item")) {
    if (link.dataset.id === id) link.setAttribute("aria-current", "true");
    else link.removeAttribute("aria-current");
  }
}

function asTurn(item) {
  return { ...item, external_id: item.provenance?.external_ids?.[0] ?? null };
}

function closeDetail() {
  inflight.detail?.abort();
  markSelected(null);
  replace(
    ui.detail,
    h("h2", { id: "detail-title", tabindex: "-1" }, "Details"),
    h("p", { class: "muted" }, "Open a memory to see what it says and the turns it came from."),
  );
}

async function openMemory(id) {
  const signal = begin("detail");
  const { tenant, user } = scope();
  markSelected(id);
  ui.detail.setAttribute("aria-busy", "true");
  try {
    const detail = await getMemory(id, tenant, signal, checked(ui.filters, "timeline-include"));
    let sessionTurns = null;
    let sessionTruncated = false;
    if (detail.memory.type === "episodic") {
      // A turn's context is its session: the conversation around it, oldest first.
      const page = await listMemories(
        {
          tenant,
          user: detail.memory.user || user,
          session: detail.memory.session,
          type: "episodic",
          limit: SESSION_TURNS,
        },
        signal,
      );
      sessionTurns = page.items.map(asTurn).reverse();
      sessionTruncated = page.next_offset !== null;
    }
    replace(ui.detail, memoryDetail(detail, { sessionTurns, sessionTruncated }));
    const close = h("button", { type: "button", class: "close" }, "Close");
    close.addEventListener("click", () => {
      history.pushState(null, "", location.pathname + location.search);
      closeDetail();
    });
    const heading = ui.detail.querySelector("h2");
    const head = h("div", { class: "detail-head" });
    heading.replaceWith(head);
    head.append(heading, ...lifecycleButtons(detail.memory, user), close);
    heading.focus({ preventScroll: true });
    ui.detail.scrollIntoView({ block: "nearest" });
  } catch (e) {
    if (signal.aborted) return;
    replace(
      ui.detail,
      h("h2", { id: "detail-title", tabindex: "-1" }, "Details"),
      h("p", { class: "muted" }, "This memory could not be opened."),
    );
    showError("Opening the memory failed", e);
  } finally {
    if (!signal.aborted) ui.detail.setAttribute("aria-busy", "false");
  }
}

// Pin / Unpin a semantic memory (a pinned one is never forgotten by a forgetting pass), and
// Restore a forgotten one (the timeline lists them with "forgotten" ticked, for an admin key).
// The event is durable when the call answers; the projections apply it a moment later, so
// the page polls until they show the change (at most ~10 s), then opens the memory again.
const APPLIED = { pin: (m) => m.pinned, unpin: (m) => !m.pinned, restore: (m) => m.type !== "forgotten" };

async function reopenWhenApplied(action, id) {
  for (let i = 0; i < 20; i++) {
    await new Promise((done) => setTimeout(done, 500));
    try {
      if (APPLIED[action]((await getMemory(id, scope().tenant)).memory)) break;
    } catch {
      // a failed poll: try again
    }
  }
  openMemory(id);
}

function lifecycleButtons(memory, user) {
  const actions =
    memory.type === "semantic" ? [memory.pinned ? "unpin" : "pin"] : memory.type === "forgotten" ? ["restore"] : [];
  return actions.map((action) => {
    const label = action[0].toUpperCase() + action.slice(1);
    const button = h("button", { type: "button", class: "secondary", "data-action": action }, label);
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        await memoryAction(action, memory.id, { tenant: scope().tenant, user: memory.user || user });
        button.textContent = `${label} recorded`;
        await reopenWhenApplied(action, memory.id);
      } catch (e) {
        button.disabled = false;
        showError(`${label} failed`, e);
      }
    });
    return button;
  });
}

function syncDetailWithHash() {
  const id = openedId();
  if (id) openMemory(id);
  else if (!location.hash) closeDetail(); // other fragments (the skip link) leave it open
}

// ---- wiring ----------------------------------------------------------------------------

function remember() {
  try {
    for (const name of STORED) localStorage.setItem(`hindsight.${name}`, ui[name].value.trim());
    sessionStorage.setItem(API_KEY_ITEM, ui.apiKey.value.trim());
  } catch {
    // Storage can be unavailable (private windows, disabled cookies): nothing to remember then.
  }
}

function restore() {
  for (const name of STORED) {
    try {
      ui[name].value = localStorage.getItem(`hindsight.${name}`) ?? "";
    } catch {
      ui[name].value = "";
    }
  }
  try {
    ui.apiKey.value = sessionStorage.getItem(API_KEY_ITEM) ?? "";
  } catch {
    ui.apiKey.value = "";
  }
}

function onSubmit(form, action) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    action();
  });
}

function start() {
  restore();
  for (const name of [...STORED, "apiKey"]) ui[name].addEventListener("change", remember);
  onSubmit(ui.scope, () => {
    remember();
    rerun();
  });
  onSubmit(ui.search, runSearch);
  onSubmit(ui.filters, () => loadTimeline());
  ui.filters.addEventListener("reset", () => setTimeout(() => loadTimeline(), 0));
  ui.more.addEventListener("click", () => loadTimeline({ more: true }));
  ui.results.addEventListener("click", (event) => {
    const link = event.target.closest("a.item");
    // Same hash again: the browser fires no hashchange, so open it here.
    if (link && link.hash === location.hash) {
      event.preventDefault();
      openMemory(link.dataset.id);
    }
  });
  window.addEventListener("hashchange", syncDetailWithHash);
  loadTimeline();
  syncDetailWithHash();
}

start();
