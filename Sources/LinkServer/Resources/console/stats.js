// Clicks: statistics per day as an SVG chart drawn here, a platform breakdown and the top routes (API.md §8).
import { get, query } from "./api.js";
import { h, svg, field, Status, lastDays, wrapping } from "./dom.js";

const series = [
  { key: "clicks", label: "Clicks", className: "bar-clicks" },
  { key: "opens", label: "App opens", className: "bar-opens" },
  { key: "bots", label: "Bots", className: "bar-bots" },
];

/** A stacked bar per day; every bar carries a <title> that screen readers and tooltips read. */
export function dayChart(byDay) {
  const width = 720, height = 220, left = 36, bottom = 24, top = 8;
  const max = Math.max(1, ...byDay.map((d) => d.clicks + d.opens + d.bots));
  const step = (width - left - 20) / Math.max(1, byDay.length);
  const barWidth = Math.max(2, step * 0.7);
  const scale = (value) => (value / max) * (height - top - bottom);
  const ticks = [0, Math.ceil(max / 2), max].filter((v, i, all) => all.indexOf(v) === i);
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", id: "day-chart", role: "img", "aria-label": "Clicks, app opens and bots per day" },
    ticks.map((tick) => {
      const y = height - bottom - scale(tick);
      return [svg("line", { x1: left, x2: width, y1: y, y2: y, class: "grid-line" }), svg("text", { x: left - 6, y: y + 4, class: "axis", "text-anchor": "end" }, String(tick))];
    }),
    byDay.map((day, index) => {
      const x = left + index * step + (step - barWidth) / 2;
      let y = height - bottom;
      const total = day.clicks + day.opens + day.bots;
      const group = svg("g", { class: "day", "data-day": day.day, "data-total": total },
        svg("title", {}, `${day.day}: ${day.clicks} clicks, ${day.opens} app opens, ${day.bots} bots`));
      for (const s of series) {
        if (!day[s.key]) continue;
        const barHeight = scale(day[s.key]);
        y -= barHeight;
        group.append(svg("rect", { x, y, width: barWidth, height: barHeight, class: s.className, "data-series": s.key, "data-value": day[s.key] }));
      }
      if (index % Math.ceil(byDay.length / 6) === 0 || index === byDay.length - 1) {
        group.append(svg("text", { x: x + barWidth / 2, y: height - 6, class: "axis", "text-anchor": "middle" }, day.day.slice(5)));
      }
      return group;
    }));
  return chart;
}

function platformBars(byPlatform) {
  const entries = Object.entries(byPlatform).filter((e) => e[1] > 0).sort((a, b) => b[1] - a[1]);
  if (!entries.length) return h("p", { class: "empty" }, "No person clicks on routes in this range.");
  const max = Math.max(...entries.map((e) => e[1]));
  const rowHeight = 26, width = 360;
  return svg("svg", { viewBox: `0 0 ${width} ${entries.length * rowHeight}`, class: "chart platforms", id: "platform-chart", role: "img", "aria-label": "People by platform" },
    entries.map(([platform, count], index) => svg("g", { "data-platform": platform, "data-value": count },
      svg("title", {}, `${platform}: ${count}`),
      svg("text", { x: 0, y: index * rowHeight + 17, class: "axis" }, platform),
      svg("rect", { x: 80, y: index * rowHeight + 4, height: 18, width: Math.max(2, (count / max) * (width - 130)), class: `bar-${platform}` }),
      svg("text", { x: 86 + (count / max) * (width - 130), y: index * rowHeight + 17, class: "axis" }, String(count)))));
}

export const statsView = {
  build(section) {
    const status = new Status("stats");
    const range = lastDays(30);
    const route = h("input", { id: "stats-route", name: "route", placeholder: "all routes", list: "stats-route-names", autocomplete: "off" });
    const names = h("datalist", { id: "stats-route-names" });
    const from = h("input", { id: "stats-from", name: "from", type: "date", value: range.from });
    const to = h("input", { id: "stats-to", name: "to", type: "date", value: range.to });
    const output = h("div", { id: "stats-result" });
    const form = h("form", { id: "stats-form", class: "toolbar" },
      field("Route name", route), names, field("From (UTC)", from), field("To (UTC)", to),
      h("button", { type: "submit", id: "stats-submit" }, "Show"));

    const load = async () => {
      const answer = await status.run(() => get(`/v1/stats/clicks${query({ route: route.value.trim(), from: from.value, to: to.value })}`), "Loading statistics…");
      // After an error the previous chart is not this query's: it goes.
      if (!answer) return output.replaceChildren();
      const totals = [["clicks", "Clicks"], ["opens", "App opens"], ["bots", "Bots"], ["unmatched", "Unmatched"]];
      output.replaceChildren(
        h("p", { class: "muted" }, `${answer.from} to ${answer.to} (UTC)${route.value.trim() ? `, route ${route.value.trim()}` : ", all routes"}.`),
        h("ul", { class: "totals", id: "stats-totals" }, totals.map(([key, label]) => h("li", { dataset: { total: key } }, h("span", { class: "number" }, String(answer[key])), h("span", {}, label)))),
        h("div", { class: "card" }, h("h3", {}, "Per day"),
          h("ul", { class: "legend" }, series.map((s) => h("li", {}, h("span", { class: `swatch ${s.className}` }), s.label))),
          h("div", { class: "chart-wrap" }, dayChart(answer.byDay))),
        h("div", { class: "columns" },
          h("div", { class: "card" }, h("h3", {}, "People by platform"), platformBars(answer.byPlatform)),
          h("div", { class: "card" }, h("h3", {}, "Top routes"), topRoutes(answer.routes))));
    };
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      load();
    });
    section.append(
      h("h2", {}, "Clicks"),
      h("p", { class: "lead" }, "How often links were tapped: people's clicks, opens reported by the apps, and bots. A click shows here within 2 seconds."),
      form, status.element, output);
    this.load = load;
    this.route = route;
    this.names = names;
  },
  show(parameters) {
    if (parameters.has("route")) this.route.value = parameters.get("route");
    get("/v1/routes").then((answer) => this.names.replaceChildren(...answer.routes.filter((r) => r.name).map((r) => h("option", { value: r.name }))), () => {});
    this.load();
  },
};

function topRoutes(routes) {
  if (!routes.length) return h("p", { class: "empty" }, "No clicks on routes in this range.");
  return h("div", { class: "table-wrap" }, h("table", { id: "top-routes" },
    h("thead", {}, h("tr", {}, ["Route", "Clicks", "Opens", "Bots"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, routes.slice(0, 20).map((r) => h("tr", { dataset: { route: r.name || r.pattern } },
      h("td", { class: wrapping(`${r.pattern} ${r.name || ""}`) }, h("code", {}, r.pattern), r.name ? ` ${r.name}` : ""), h("td", {}, String(r.clicks)), h("td", {}, String(r.opens)), h("td", {}, String(r.bots)))))));
}
