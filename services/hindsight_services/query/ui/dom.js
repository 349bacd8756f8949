// Building DOM nodes safely. Every piece of text goes in as a text node (never through
// innerHTML), so content from memories, speakers or error messages can never become markup.

/**
 * Create an element. `attrs` become attributes (`class` and `text` are shortcuts;
 * null, undefined and false are left out); children are nodes or strings (strings
 * become text nodes); nested arrays are flattened, null and false skipped.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.toLowerCase().startsWith("on")) {
      throw new Error(`h(): use addEventListener, not the ${name} attribute`);
    }
    if (name === "class") el.className = value;
    else if (name === "text") el.textContent = String(value);
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

/** Append nodes or strings (as text nodes) to `el`. */
export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** Replace everything inside `el` with `children`. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

/** A `<time>` showing an ISO-8601 instant as "2024-05-01 10:00 UTC". */
export function time(iso) {
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return h("span", { text: iso ?? "" });
  const shown = when.toISOString().slice(0, 16).replace("T", " ") + " UTC";
  return h("time", { datetime: when.toISOString(), title: when.toString() }, shown);
}

/** A score for people: three significant digits below 1, two decimals above ("0.0328", "2.1"). */
export function num(value) {
  if (typeof value !== "number" || !Number.isFinite(value)) return "—";
  return String(Number(Math.abs(value) >= 1 ? value.toFixed(2) : value.toPrecision(3)));
}

/** A small label such as a type or kind. */
export function badge(text, variant = text) {
  return h("span", { class: `badge badge-${String(variant).replace(/[^a-z0-9-]/gi, "")}` }, text);
}
