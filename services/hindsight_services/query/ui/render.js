// What the page shows for memories, search results and one memory's provenance.
// Pure functions from API data to DOM nodes (built with h(), so all text is escaped).

import { badge, h, num, time } from "./dom.js";

const PATH_ORDER = ["vector", "bm25"];
const TITLES = { episodic: "Turn", semantic: "Memory", summary: "Summary" };

/** The link that opens a memory in the detail panel. */
export function memoryHref(id) {
  return `#memory=${encodeURIComponent(id)}`;
}

function meta(item) {
  const parts = [
    item.speaker && h("span", { class: "speaker" }, item.speaker),
    item.occurred_at && time(item.occurred_at),
    item.session && h("span", {}, "session ", h("code", {}, item.session)),
    item.user && h("span", {}, "user ", h("code", {}, item.user)),
  ].filter(Boolean);
  return h("span", { class: "item-meta" }, parts.flatMap((p, i) => (i ? [" · ", p] : [p])));
}

function tags(list) {
  return (list ?? []).length ? h("span", { class: "tags" }, list.map((t) => badge(t, "tag"))) : null;
}

/**
 * One memory in a list. With `rank` (search results) it also explains the score:
 * the fused score and each path's rank and score.
 */
export function memoryItem(item, { rank = null } = {}) {
  const link = h(
    "a",
    { class: "item", href: memoryHref(item.id), "data-id": item.id },
    h(
      "span",
      { class: "item-head" },
      rank !== null && h("span", { class: "rank" }, `#${rank}`),
      badge(item.type),
      item.kind && badge(item.kind, "kind"),
      item.key && h("code", { class: "key" }, item.key),
      tags(item.tags),
    ),
    h("span", { class: "item-content" }, item.content),
    meta(item),
  );
  return h("li", { class: "item-row", "data-type": item.type }, link, rank !== null && explain(item));
}

/** Why a search result ranks where it does: fused score, then each path's rank and score. */
export function explain(item) {
  const ranks = item.ranks ?? {};
  const scores = item.scores ?? {};
  const others = Object.keys({ ...ranks, ...scores }).filter((p) => !PATH_ORDER.includes(p)).sort();
  const paths = [...PATH_ORDER, ...others].map((path) =>
    path in ranks
      ? h(
          "li",
          { class: "path", "data-path": path },
          `${path} `,
          h("strong", {}, `#${ranks[path]}`),
          h("span", { class: "path-score" }, ` score ${num(scores[path])}`),
        )
      : h("li", { class: "path miss", "data-path": path, title: `not found by ${path}` }, `${path} —`),
  );
  return h(
    "ul",
    { class: "explain", "aria-label": "How this result was found" },
    h("li", { class: "fused" }, "fused ", h("strong", {}, num(item.score))),
    paths,
  );
}

function fact(label, value) {
  if (value === null || value === undefined || value === "" || (Array.isArray(value) && !value.length)) {
    return [];
  }
  return [h("dt", {}, label), h("dd", {}, value)];
}

/** One source turn (provenance), marked when it is the memory being shown. */
export function sourceTurn(turn, { current = false } = {}) {
  const bits = [
    h("strong", { class: "speaker" }, turn.speaker),
    turn.role && h("span", { class: "role" }, ` (${turn.role})`),
    " · ",
    time(turn.occurred_at),
    turn.session && [" · session ", h("code", {}, turn.session)],
    turn.external_id && [" · external id ", h("code", { class: "external-id" }, turn.external_id)],
  ];
  return h(
    "li",
    { class: current ? "turn current" : "turn", "aria-current": current ? "true" : null, "data-id": turn.id },
    h("p", { class: "turn-meta" }, bits),
    h("blockquote", { class: "turn-content" }, turn.content),
    !current && h("a", { class: "open-turn", href: memoryHref(turn.id) }, "Open this turn"),
  );
}

/** Consolidation's links between memories (older values, merges), each opening that memory. */
function memoryLinks(ids) {
  return ids.map((id, i) => [i ? ", " : "", h("a", { href: memoryHref(id) }, h("code", {}, id))]);
}

function reinforced(memory) {
  const times = `${memory.reinforced_count} time${memory.reinforced_count === 1 ? "" : "s"}`;
  return memory.last_reinforced_at ? [times, ", last ", time(memory.last_reinforced_at)] : times;
}

/**
 * The detail panel for GET /v1/memories/{id}: the memory, then its provenance (the turns
 * it came from). For a turn, `sessionTurns` (oldest first) shows the conversation around it.
 */
export function memoryDetail({ memory, sources }, { sessionTurns = null, sessionTruncated = false } = {}) {
  const title = TITLES[memory.type] ?? "Memory";
  const confidence =
    typeof memory.confidence === "number" ? `${Math.round(memory.confidence * 100)}%` : null;
  const nodes = [
    h("h2", { id: "detail-title", tabindex: "-1" }, title),
    h("blockquote", { class: "detail-content" }, memory.content),
    h(
      "dl",
      { class: "facts" },
      fact("Type", badge(memory.type)),
      fact("Kind", memory.kind && badge(memory.kind, "kind")),
      fact("Key", memory.key && h("code", {}, memory.key)),
      fact("Confidence", confidence),
      fact("Reinforced", memory.reinforced_count > 0 ? reinforced(memory) : null),
      fact("Pinned", memory.pinned ? "yes: never forgotten by a forgetting pass" : null),
      fact("Replaces", memoryLinks(memory.supersedes ?? [])),
      fact("Replaced by", memoryLinks(memory.superseded_by ? [memory.superseded_by] : [])),
      fact("Merged into", memoryLinks(memory.merged_into ? [memory.merged_into] : [])),
      fact("Merged from", memoryLinks(memory.merged_from ?? [])),
      fact("Tags", tags(memory.tags)),
      fact("Time", time(memory.occurred_at)),
      fact("Session", memory.session && h("code", { class: "session" }, memory.session)),
      fact("User", memory.user && h("code", {}, memory.user)),
      fact("Speaker", memory.speaker),
      fact("ID", h("code", { class: "memory-id" }, memory.id)),
    ),
  ];

  const count = sources.length;
  const lead =
    memory.type === "episodic"
      ? "This turn as it was recorded."
      : `Learned from ${count} turn${count === 1 ? "" : "s"}.`;
  const missing = (memory.provenance?.event_ids ?? []).filter((id) => !sources.some((s) => s.id === id));
  nodes.push(
    h(
      "section",
      { class: "provenance", "aria-labelledby": "provenance-title" },
      h("h3", { id: "provenance-title" }, "Provenance"),
      h("p", { class: "muted" }, count ? lead : "None of the turns it came from are available."),
      count > 0 &&
        h("ol", { class: "sources" }, sources.map((s) => sourceTurn(s, { current: s.id === memory.id }))),
      missing.length > 0 &&
        h(
          "p",
          { class: "muted" },
          `${missing.length} source event${missing.length === 1 ? " is" : "s are"} no longer available: `,
          missing.map((id, i) => [i ? ", " : "", h("code", {}, id)]),
        ),
      missing.length > 0 &&
        (memory.provenance?.external_ids ?? []).length > 0 &&
        h(
          "p",
          { class: "muted" },
          "Its external ids: ",
          memory.provenance.external_ids.map((id, i) => [i ? ", " : "", h("code", {}, id)]),
        ),
    ),
  );

  if (sessionTurns) {
    nodes.push(
      h(
        "section",
        { class: "session-turns", "aria-labelledby": "session-title" },
        h("h3", { id: "session-title" }, "Session ", h("code", {}, memory.session)),
        sessionTruncated && h("p", { class: "muted" }, `Showing the last ${sessionTurns.length} turns.`),
        h(
          "ol",
          { class: "conversation" },
          sessionTurns.map((t) => sourceTurn(t, { current: t.id === memory.id })),
        ),
      ),
    );
  }
  return nodes;
}
