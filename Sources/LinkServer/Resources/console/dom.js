// Small DOM helpers: elements from tags and attributes, status lines, JSON formatting. No innerHTML anywhere.

/** Creates an element: h("p", {class: "x", onclick: fn}, "text", child). */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") element.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(element.dataset, value);
    else if (value === true) element.setAttribute(key, "");
    else element.setAttribute(key, String(value));
  }
  append(element, children);
  return element;
}

/**
 * The class of a table cell's text that may be very long (a pattern, a glob, a path): `long` past `over`
 * characters, so that it wraps anywhere instead of widening the table; short texts keep their natural breaks.
 */
export const wrapping = (text, over = 48) => (String(text).length > over ? "long" : undefined);

/** Creates an SVG element. */
export function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) element.setAttribute(key, String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
}

/** A labelled control: <label>Text <input …></label>, with an optional hint below. */
export function field(label, control, hint) {
  return h("label", { class: "field" }, h("span", { class: "label" }, label), control, hint ? h("small", {}, hint) : null);
}

/** Pretty JSON for <pre>. */
export function pretty(value) {
  return JSON.stringify(value, null, 2);
}

/**
 * Parses a JSON text field; an empty field gives `fallback`. Throws a readable error naming the field. A number the
 * page cannot send as written is refused rather than changed: a whole number past 2^53 (JavaScript keeps the nearest
 * double: 9007199254740993 would be sent as …992) or one too large for a double (1e400 would be sent as null).
 */
export function parseJSONField(text, name, fallback = undefined) {
  if (text.trim() === "") return fallback;
  let inexact = null;
  let parsed;
  try {
    parsed = JSON.parse(text, (key, value, context) => {
      const source = context?.source;
      if (typeof value === "number" && inexact === null
          && (!Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value)
            && (source === undefined || /^-?\d+$/.test(source))))) {
        inexact = source ?? String(value);
      }
      return value;
    });
  } catch (error) {
    throw new Error(`${name} is not valid JSON: ${error.message}`);
  }
  if (inexact !== null) {
    throw new Error(`${name} holds ${inexact}, a number a page cannot send exactly (whole numbers up to 9007199254740991 either way): write it as a string, or send it with the API.`);
  }
  return parsed;
}

/**
 * The first number in `value` (as a page read it) that is not the one the server sent: a whole number past 2^53
 * comes out rounded. `undefined` when there is none.
 */
export function roundedNumber(value) {
  if (typeof value === "number") return Number.isInteger(value) && !Number.isSafeInteger(value) ? value : undefined;
  if (value && typeof value === "object") {
    for (const item of Object.values(value)) {
      const found = roundedNumber(item);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * Reads a whole-number field; throws a readable error naming the field. A number past 2^53 cannot be sent exactly
 * from a page (the service would be sent another one, or refuse it as out of range), so it is refused here.
 */
export function parseWholeNumberField(text, name) {
  const digits = text.trim();
  const number = Number(digits);
  // Digits only: `Number` also reads `0x10`, `1e3` and `.5`.
  if (!/^-?\d+$/.test(digits) || !Number.isSafeInteger(number)) {
    throw new Error(`${name} must be a whole number written in digits, at most 9007199254740991 either way.`);
  }
  return number;
}

/**
 * A status line for one request: shows "Loading…", then clears or shows the error. Every view uses one per
 * request so that a slow or failed call is never a blank area.
 */
export class Status {
  constructor(name) {
    this.element = h("div", { class: "status", role: "status", "aria-live": "polite", dataset: { status: name } });
  }

  loading(text = "Loading…") {
    this.lastError = null;
    this.element.setAttribute("role", "status");
    this.element.className = "status loading";
    this.element.replaceChildren(h("span", { class: "spinner", "aria-hidden": "true" }), text);
  }

  ok(text = "") {
    // An error before was announced at once (`alert`); what follows is announced politely again.
    this.element.setAttribute("role", "status");
    this.element.className = text ? "status ok" : "status";
    this.element.replaceChildren(text);
  }

  error(error) {
    this.lastError = error;
    this.element.className = "status error";
    this.element.setAttribute("role", "alert");
    this.element.replaceChildren(...describeError(error));
  }

  /** Runs `work` with loading and error states; returns its result, or undefined after an error. */
  async run(work, loadingText) {
    this.loading(loadingText);
    try {
      const result = await work();
      this.ok();
      return result;
    } catch (error) {
      this.error(error);
      return undefined;
    }
  }
}

/** Nodes explaining an error: the API's code and message, its details, and what to do for a 401. */
export function describeError(error) {
  const nodes = [];
  if (error && error.code === "network") {
    // No answer: there is no status to show ("0 network").
    nodes.push(h("strong", { class: "code" }, "No answer"), " ", error.message || "");
  } else if (error && error.code) {
    nodes.push(h("strong", { class: "code" }, `${error.status} ${error.code}`), " ", error.message || "");
    if (error.code === "unauthorized") {
      nodes.push(" ", h("button", { type: "button", class: "link", onclick: () => document.dispatchEvent(new Event("console:signin")) }, "Sign in with a token"));
    }
    if (error.details && Object.keys(error.details).length) {
      nodes.push(h("details", {}, h("summary", {}, "Details"), h("pre", {}, pretty(error.details))));
    }
  } else {
    nodes.push(h("strong", {}, "Error: "), error && error.message ? error.message : String(error));
  }
  return nodes;
}

/** Today and 29 days back as YYYY-MM-DD (UTC), the server's default statistics range. */
export function lastDays(count) {
  const to = new Date();
  const from = new Date(to.getTime() - (count - 1) * 86400000);
  return { from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) };
}
