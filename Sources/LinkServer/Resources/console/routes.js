// Routes: the route tree with each definition (config routes read-only), registering and deleting routes.
import { get, post, request, query } from "./api.js";
import { h, field, pretty, parseJSONField, Status } from "./dom.js";

/** Segments of a pattern: "/users/:id" → ["users", ":id"]. */
const segments = (pattern) => pattern.split("/").filter(Boolean);

/** Nests each route under its parent, as it was defined (`parent`, the parent's full pattern); a route whose parent
 * is not in the list (filtered out) is shown at the top. Siblings by pattern. So what a delete removes (a route and
 * the routes under it) is what the tree shows under it. */
export function routeTree(routes) {
  const sorted = [...routes].sort((a, b) => segments(a.pattern).length - segments(b.pattern).length || a.pattern.localeCompare(b.pattern));
  const nodes = new Map(sorted.map((route) => [route.pattern, { route, children: [] }]));
  const roots = [];
  for (const node of nodes.values()) {
    const parent = node.route.parent != null ? nodes.get(node.route.parent) : undefined;
    (parent && parent !== node ? parent.children : roots).push(node);
  }
  return roots;
}

export const routesView = {
  build(section) {
    const status = new Status("routes");
    const list = h("div", { class: "tree", id: "route-tree" });
    const filter = h("input", { type: "search", id: "route-filter", placeholder: "/promo or a name" });
    const count = h("p", { class: "muted", id: "route-count" });
    let routes = [];

    const render = () => {
      const needle = filter.value.trim().toLowerCase();
      const shown = needle
        ? routes.filter((r) => r.pattern.toLowerCase().includes(needle) || (r.name || "").toLowerCase().includes(needle))
        : routes;
      count.textContent = `${routes.length} route${routes.length === 1 ? "" : "s"}${needle ? `, ${shown.length} shown` : ""}`;
      if (!shown.length) {
        list.replaceChildren(h("p", { class: "empty" }, routes.length ? "No route matches the filter." : "No routes yet. Register one below."));
        return;
      }
      list.replaceChildren(renderNodes(routeTree(shown)));
    };

    const renderNodes = (nodes) => h("ul", {}, nodes.map((node) => h("li", {}, renderRoute(node.route), node.children.length ? renderNodes(node.children) : null)));

    const renderRoute = (route) => {
      const definition = {};
      for (const key of Object.keys(route)) if (!["pattern", "source"].includes(key)) definition[key] = route[key];
      const readOnly = route.source === "config";
      const sample = route.pattern.replace(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g, (_, name) => name);
      return h("details", { class: "route", dataset: { pattern: route.pattern, name: route.name || "" } },
        h("summary", {},
          h("code", { class: "pattern" }, route.pattern),
          route.name ? h("span", { class: "name" }, route.name) : null,
          readOnly ? h("span", { class: "badge readonly", title: "Loaded from config/routes.json; change it there" }, "config · read-only") : h("span", { class: "badge" }, "api"),
          route.link ? h("span", { class: "badge link" }, "link") : null,
          route.redirect?.length ? h("span", { class: "badge" }, `${route.redirect.length} rule${route.redirect.length === 1 ? "" : "s"}`) : null),
        h("pre", { class: "definition" }, pretty(definition)),
        h("div", { class: "buttons" },
          h("a", { class: "button", href: `#try?url=${encodeURIComponent(sample)}`, "aria-label": `Try ${route.pattern}` }, "Try it"),
          route.name ? h("a", { class: "button", href: `#stats?route=${encodeURIComponent(route.name)}`, "aria-label": `Clicks of ${route.name}` }, "Clicks") : null,
          h("a", { class: "button", href: `#qr?url=${encodeURIComponent(sample)}`, "aria-label": `QR code for ${route.pattern}` }, "QR code"),
          readOnly ? null : h("button", { type: "button", class: "danger", onclick: () => remove(route), "aria-label": `Delete ${route.pattern}` }, "Delete")));
    };

    const load = async () => {
      const answer = await status.run(() => get("/v1/routes"), "Loading routes…");
      if (answer) {
        routes = answer.routes;
        render();
      }
    };

    const remove = async (route) => {
      if (!confirm(`Delete ${route.pattern} and the routes under it?`)) return;
      const done = await status.run(() => request("DELETE", `/v1/routes${query({ pattern: route.pattern })}`), `Deleting ${route.pattern}…`);
      if (done) {
        // After the reload, whose status line would clear the message.
        await load();
        status.ok(`Deleted ${route.pattern}.`);
      }
    };

    // Registering: simple fields for the common case, or a whole definition as JSON.
    const formStatus = new Status("route-form");
    const path = h("input", { name: "path", id: "route-path", placeholder: "/promo/:code", autocomplete: "off" });
    const name = h("input", { name: "name", id: "route-name", placeholder: "promo", autocomplete: "off" });
    const destination = h("textarea", { name: "destination", id: "route-destination", rows: 2, placeholder: '{"screen": "Promo"}' });
    const ios = h("input", { name: "ios", id: "route-ios", type: "url", placeholder: "https://apps.apple.com/app/id123?pt=1&ct={code}" });
    const android = h("input", { name: "android", id: "route-android", type: "url", placeholder: "https://play.google.com/store/apps/details?id=com.example.app" });
    const desktop = h("input", { name: "desktop", id: "route-desktop", type: "url", placeholder: "https://www.example.com/promo/{code}" });
    const full = h("textarea", { name: "definition", id: "route-json", rows: 6, placeholder: '{"path": "/promo/:code", "name": "promo", "routes": [...]}' });
    const form = h("form", { id: "route-form", class: "card" },
      h("h3", {}, "Register a route"),
      h("div", { class: "grid" },
        field("Path pattern", path, "Literal segments, :parameters, a final *rest."),
        field("Name (optional)", name),
        field("Destination JSON (optional)", destination),
        field("iOS target (optional)", ios),
        field("Android target (optional)", android),
        field("Desktop / web target (optional)", desktop)),
      h("details", {}, h("summary", {}, "Or write the whole definition as JSON"), field("Definition JSON (used instead of the fields above)", full)),
      h("div", { class: "buttons" }, h("button", { type: "submit", id: "route-submit" }, "Register route")),
      formStatus.element);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      let definition;
      try {
        definition = parseJSONField(full.value, "The definition");
        if (!definition) {
          if (!path.value.trim()) throw new Error("Enter a path pattern, such as /promo/:code.");
          definition = { path: path.value.trim() };
          if (name.value.trim()) definition.name = name.value.trim();
          const value = parseJSONField(destination.value, "Destination");
          if (value !== undefined) definition.destination = value;
          const link = {};
          if (ios.value.trim()) link.ios = ios.value.trim();
          if (android.value.trim()) link.android = android.value.trim();
          if (desktop.value.trim()) link.desktop = desktop.value.trim();
          if (Object.keys(link).length) definition.link = link;
        }
      } catch (error) {
        formStatus.error(error);
        return;
      }
      const answer = await formStatus.run(() => post("/v1/routes", definition), "Registering…");
      if (answer) {
        formStatus.ok(`Registered ${answer.registered.map((r) => r.pattern).join(", ")}.`);
        form.reset();
        await load();
      }
    });

    filter.addEventListener("input", render);
    section.append(
      h("h2", {}, "Routes"),
      h("p", { class: "lead" }, "Every route the server matches, nested as they were defined. Open one to see its definition."),
      h("div", { class: "toolbar" }, field("Filter", filter), h("button", { type: "button", id: "routes-refresh", onclick: load }, "Refresh")),
      status.element, count, list, form);
    this.load = load;
  },
  show() {
    this.load?.();
  },
};
