// App association: the two files the operating systems read (API.md §7), with the routes the devices would
// send elsewhere than LinkServer does (shadowed components) and case-insensitive routes Android cannot honour.
import { get } from "./api.js";
import { h, pretty, Status, wrapping } from "./dom.js";

const segments = (pattern) => pattern.split("/").filter(Boolean);
const kind = (segment) => (segment.startsWith(":") ? 1 : segment.startsWith("*") ? 2 : 0);
/** A segment decoded (`summer%20sale` → `summer sale`); one that does not decode as itself. */
const decoded = (segment) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** The route LinkServer picks for a path: at each segment a literal beats a parameter beats a catch-all. */
export function serverMatch(routes, path) {
  // Patterns are written in their canonical form (`/é`, `/summer%20sale`), paths as sent (`/%C3%A9`): both are
  // compared decoded, as the server does.
  const parts = segments(path).map(decoded);
  let best = null;
  let bestKinds = null;
  for (const route of routes) {
    const pattern = segments(route.pattern);
    const kinds = [];
    let ok = true;
    for (let index = 0; index < pattern.length && ok; index++) {
      const segment = pattern[index];
      kinds.push(kind(segment));
      if (kind(segment) === 2) {
        ok = parts.length > index;
        break;
      }
      if (index >= parts.length) ok = false;
      else if (kind(segment) === 0) {
        const literal = decoded(segment);
        ok = route.caseInsensitive ? literal.toLowerCase() === parts[index].toLowerCase() : literal === parts[index];
      }
      if (ok && index === pattern.length - 1 && parts.length !== pattern.length) ok = false;
    }
    if (!pattern.length) ok = parts.length === 0;
    if (!ok) continue;
    if (!bestKinds || compareKinds(kinds, bestKinds) < 0) {
      best = route;
      bestKinds = kinds;
    }
  }
  return best;
}

function compareKinds(a, b) {
  for (let index = 0; index < Math.min(a.length, b.length); index++) if (a[index] !== b[index]) return a[index] - b[index];
  return 0;
}

/** A platform glob as a regular expression: `?` one character, `*` any run (both also match `/`). */
function globRegex(glob, caseSensitive) {
  const body = [...glob].map((c) => (c === "?" ? "." : c === "*" ? ".*" : c.replace(/[.+^${}()|[\]\\/]/g, "\\$&"))).join("");
  return new RegExp(`^${body}$`, caseSensitive ? "" : "i");
}

/**
 * A path segment percent-encoded as the server writes a glob's literal (AssociationComponent.glob): RFC 3986's
 * segment characters stay (`&`, `=`, `+`, `:`, `@`…), `*` is `%2A`. encodeURIComponent also escaped `& = + $ , ; :
 * @`, so a sample missed its own component and was flagged as shadowed by a later catch-all.
 */
export function encodeSegment(text) {
  return encodeURIComponent(text)
    .replace(/\*/g, "%2A")
    .replace(/%(24|26|2B|2C|3B|3D|3A|40)/g, (escape) => decodeURIComponent(escape));
}

/** Whether two patterns can both match one path up to `end` (each segment a parameter or the same literal). */
function sharePrefix(a, b, end) {
  for (let index = 0; index < end; index++) {
    if (b[index] === undefined || kind(b[index]) === 2) return false;
    if (kind(a[index]) === 0 && kind(b[index]) === 0 && decoded(a[index]) !== decoded(b[index])) return false;
  }
  return true;
}

/**
 * Concrete paths of a route, with parameters filled by "x" or by literals other routes have at that position. A
 * catch-all takes one segment or more: besides "x", the rest of every route that shares its prefix (and that rest
 * after one more segment), so `/docs/x/y/edit` is tried for `/docs/*path` beside `/docs/:a/edit`. At most 40 paths
 * (120 with a catch-all's), each prefix keeping its share of the tails.
 */
function samples(route, routes) {
  const pattern = segments(route.pattern);
  let paths = [[]];
  pattern.forEach((segment, index) => {
    // Literals decoded, then each path encoded once, as a browser sends it (a pattern's `%20` is not sent `%2520`).
    const literals = routes.map((r) => segments(r.pattern)[index]).filter((s) => s && kind(s) === 0).map(decoded);
    let tails = kind(segment) === 0 ? [[decoded(segment)]] : ["x", ...new Set(literals)].map((value) => [value]);
    let limit = 40;
    if (kind(segment) === 2) {
      const rests = routes
        .filter((r) => r !== route)
        .map((r) => segments(r.pattern))
        .filter((other) => other.length > index && sharePrefix(pattern, other, index))
        .map((other) => other.slice(index).map((s) => (kind(s) === 0 ? decoded(s) : "x")));
      const seen = new Set();
      // The other routes' rests first: they are what a device's earlier component may catch.
      tails = [...rests, ...rests.map((rest) => ["x", ...rest]), ...tails].filter((tail) => {
        const key = JSON.stringify(tail);
        return !seen.has(key) && seen.add(key);
      });
      limit = 120;
      tails = tails.slice(0, Math.max(2, Math.floor(limit / paths.length)));
    }
    paths = paths.flatMap((path) => tails.map((tail) => [...path, ...tail])).slice(0, limit);
  });
  return paths.map((path) => `/${path.map(encodeSegment).join("/")}`);
}

/** Per component, the routes whose links a device would send by this component's rule although LinkServer would not. */
export function shadowing(components, routes, caseKey) {
  const flags = new Map();
  const comment = (component) => component.comment ?? component.comments;
  // Each glob compiled once, not once per sample.
  const globs = components.map((c) => ({ component: c, regex: globRegex(c["/"], caseKey ? c[caseKey] !== false : true) }));
  for (const route of routes) {
    const label = route.name || route.pattern;
    for (const path of samples(route, routes)) {
      if (serverMatch(routes, path) !== route) continue;
      const first = globs.find((g) => g.regex.test(path))?.component;
      if (!first || comment(first) === label) continue;
      const list = flags.get(label) || [];
      if (!list.some((f) => f.by === comment(first))) list.push({ by: comment(first), path, exclude: Boolean(first.exclude) });
      flags.set(label, list);
    }
  }
  return flags;
}

/** A glob's path in another case, as a link a person could type (`/Shop` → `/SHOP`, `/SHOP` → `/shop`). */
function otherCase(glob) {
  const upper = glob.toUpperCase();
  return upper !== glob ? upper : glob.toLowerCase();
}

function componentTable(id, components, flags, notes) {
  const comment = (component) => component.comment ?? component.comments;
  return h("div", { class: "table-wrap" }, h("table", { id },
    h("thead", {}, h("tr", {}, ["#", "Glob", "Route", "Opens the app", "Notes"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, components.map((component, index) => {
      const label = comment(component);
      const shadowed = flags.get(label) || [];
      const extra = notes(component);
      return h("tr", { class: shadowed.length || extra.length ? "flagged" : "", dataset: { route: label || "" } },
        h("td", {}, String(index + 1)),
        h("td", {}, h("code", { class: wrapping(component["/"]) }, component["/"])),
        h("td", { class: wrapping(label || "") }, label || "—"),
        h("td", {}, component.exclude ? "no (excluded)" : "yes"),
        h("td", { class: "notes" },
          shadowed.map((f) => h("div", { class: "flag shadowed" }, `Shadowed: ${f.path} reaches LinkServer's ${label}, but devices apply ${f.by} (${f.exclude ? "stays in the browser" : "opens the app"}) first.`)),
          extra.map((text) => h("div", { class: "flag" }, text))));
    }))));
}

export const associationView = {
  build(section) {
    const status = new Status("association");
    const output = h("div", { id: "association-result" });
    const load = async () => {
      const answer = await status.run(() => Promise.all([get("/v1/links/association-files"), get("/v1/routes")]), "Loading the files…");
      if (!answer) return;
      const [files, { routes }] = answer;
      const caseInsensitive = new Set(routes.filter((r) => r.caseInsensitive).map((r) => r.name || r.pattern));
      const parts = [];
      if (files.apple) {
        const details = files.apple.body.applinks.details[0];
        const components = details.components;
        parts.push(h("div", { class: "card", id: "apple-file" },
          h("h3", {}, "apple-app-site-association (iOS)"),
          h("p", { class: "muted" }, `${files.apple.bytes} bytes of Apple's 131072 · ETag ${files.apple.etag} · app IDs ${details.appIDs.join(", ")}. Served at /.well-known/apple-app-site-association on the links listener.`),
          componentTable("apple-components", components, shadowing(components, routes, "caseSensitive"), (c) => (c.caseSensitive === false ? ["Case-insensitive on iOS."] : [])),
          h("details", {}, h("summary", {}, "The file"), h("pre", {}, pretty(files.apple.body)))));
      } else {
        parts.push(h("div", { class: "card", id: "apple-file" }, h("h3", {}, "apple-app-site-association (iOS)"), h("p", { class: "empty" }, "No iOS app is configured (links.apps.ios), so this file is not served.")));
      }
      if (files.android) {
        const statement = files.android.body[0];
        const components = statement.relation_extensions["delegate_permission/common.handle_all_urls"].dynamic_app_link_components;
        parts.push(h("div", { class: "card", id: "android-file" },
          h("h3", {}, "assetlinks.json (Android)"),
          h("p", { class: "muted" }, `${files.android.bytes} bytes · ETag ${files.android.etag} · package ${statement.target.package_name}. Dynamic rules act on Android 15 and later only.`),
          componentTable("android-components", components, shadowing(components, routes, null),
            (c) => (caseInsensitive.has(c.comments) ? [`Case-insensitive in LinkServer, but Android matches case-sensitively: ${otherCase(c["/"])} will not open the app.`] : [])),
          h("details", {}, h("summary", {}, "The file"), h("pre", {}, pretty(files.android.body)))));
      } else {
        parts.push(h("div", { class: "card", id: "android-file" }, h("h3", {}, "assetlinks.json (Android)"), h("p", { class: "empty" }, "No Android app is configured (links.apps.android), so this file is not served.")));
      }
      output.replaceChildren(...parts);
    };
    section.append(
      h("h2", {}, "App association"),
      h("p", { class: "lead" }, "The files iOS and Android fetch to decide which links open the app. Devices test components in order and stop at the first match."),
      h("div", { class: "toolbar" }, h("button", { type: "button", id: "association-refresh", onclick: load }, "Refresh")),
      status.element, output);
    this.load = load;
  },
  show() {
    this.load?.();
  },
};
