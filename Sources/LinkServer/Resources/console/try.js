// Try a link: resolve a URL or a route name with parameters and context, draw the redirect chain step by step,
// and show what the links listener would do with a click from a chosen platform (API.md §7).
import { get, post, query } from "./api.js";
import { h, field, pretty, parseJSONField, Status, describeError } from "./dom.js";

const decisionText = {
  redirect: "Redirect", preview: "Link preview page (for a preview bot)", landing: "Landing page (App Store with copy to clipboard)",
  intent: "Android intent page (in-app browser)", platform_check: "Platform check page (Safari on a Mac or an iPad)",
  not_found: "Not found", expired: "Expired",
};

/**
 * The steps of a resolution: where it started, every redirect, and the route matched, noted on the step whose
 * location it matched (the last one; a step of its own only when the resolution's location reads otherwise).
 */
export function chainSteps(resolution) {
  const steps = [];
  const redirects = resolution.redirects || [];
  steps.push({ kind: "start", location: redirects.length ? redirects[0].from : resolution.location });
  for (const redirect of redirects) {
    steps.push({ kind: "redirect", location: redirect.to, note: `rule ${redirect.rule} of ${redirect.route || "an unnamed route"}` });
  }
  const matched = `matched ${resolution.route.pattern}${resolution.route.name ? ` (${resolution.route.name})` : ""}`;
  const last = steps[steps.length - 1];
  if (last.location === resolution.location) {
    last.kind = `${last.kind} match`;
    last.note = last.note ? `${last.note}, then ${matched}` : matched;
  } else {
    steps.push({ kind: "match", location: resolution.location, note: matched });
  }
  return steps;
}

function drawChain(steps, failed, id = "chain") {
  return h("ol", { class: "chain", id, "aria-label": "Redirect chain" },
    steps.map((step, index) => h("li", { class: `step ${step.kind}`, dataset: { kind: step.kind } },
      h("span", { class: "step-number", "aria-hidden": "true" }, String(index + 1)),
      h("div", {},
        h("code", { class: "step-location" }, step.location),
        step.note ? h("div", { class: "step-note" }, step.note) : null)),
    failed ? h("li", { class: "step failed", dataset: { kind: "failed" } }, h("span", { class: "step-number", "aria-hidden": "true" }, "✕"), h("div", {}, failed)) : null));
}

export const tryView = {
  build(section) {
    const mode = h("select", { id: "try-mode", name: "mode" }, h("option", { value: "url" }, "A URL or location"), h("option", { value: "name" }, "A route name and parameters"));
    const url = h("input", { id: "try-url", name: "url", placeholder: "https://links.example.com/promo/SPRING or /promo/SPRING", autocomplete: "off" });
    const name = h("input", { id: "try-name", name: "name", placeholder: "promo", autocomplete: "off" });
    const params = h("textarea", { id: "try-params", name: "params", rows: 2, placeholder: '{"code": "SPRING"}' });
    const queryField = h("textarea", { id: "try-query", name: "query", rows: 2, placeholder: '{"utm_source": "mail"}' });
    const context = h("textarea", { id: "try-context", name: "context", rows: 3, placeholder: '{"loggedIn": true}' });
    const platform = h("select", { id: "try-platform", name: "platform" },
      ["ios", "android", "desktop", "ambiguous"].map((p) => h("option", { value: p }, { ios: "iPhone / iPad (iOS)", android: "Android", desktop: "Desktop browser", ambiguous: "Safari on a Mac (ambiguous)" }[p])));
    const bot = h("select", { id: "try-bot", name: "bot" }, h("option", { value: "" }, "A person"), h("option", { value: "preview" }, "A link-preview bot (Slack, iMessage…)"), h("option", { value: "crawler" }, "A crawler"));
    const byURL = h("div", { class: "grid" }, field("URL or location", url));
    const byName = h("div", { class: "grid", hidden: true },
      field("Route name", name), field("Parameters (JSON object)", params), field("Query (JSON object)", queryField));
    mode.addEventListener("change", () => {
      byURL.hidden = mode.value !== "url";
      byName.hidden = mode.value !== "name";
    });
    const status = new Status("try");
    const output = h("div", { id: "try-result", class: "result" });
    const form = h("form", { id: "try-form", class: "card" },
      field("Resolve", mode), byURL, byName,
      h("div", { class: "grid" },
        field("Context JSON (optional)", context, "What the app would send, seen by redirect rules as context."),
        field("Clicked on", platform), field("Clicked by", bot)),
      h("div", { class: "buttons" }, h("button", { type: "submit", id: "try-submit" }, "Try it")),
      status.element);

    const run = async () => {
      let body;
      try {
        const contextValue = parseJSONField(context.value, "Context");
        if (mode.value === "url") {
          if (!url.value.trim()) throw new Error("Enter a URL or a location such as /promo/SPRING.");
          body = { url: url.value.trim() };
        } else {
          if (!name.value.trim()) throw new Error("Enter a route name.");
          body = { name: name.value.trim(), params: parseJSONField(params.value, "Parameters", {}), query: parseJSONField(queryField.value, "Query", {}) };
        }
        if (contextValue !== undefined) body.context = contextValue;
      } catch (error) {
        // The answer shown before is not this input's: it goes, as a failed request's would.
        output.replaceChildren();
        status.error(error);
        return;
      }
      status.loading("Resolving…");
      output.replaceChildren();
      const resolutionPart = h("div", { class: "card", id: "try-resolution" }, h("h3", {}, "In the app: the resolution"));
      const decisionPart = h("div", { class: "card", id: "try-decision" }, h("h3", {}, "On the links listener: the click"));
      output.append(resolutionPart, decisionPart);
      const [resolution, decision] = await Promise.allSettled([
        post("/v1/resolve", body),
        (async () => {
          const location = body.url ?? (await post("/v1/locate", { name: body.name, params: body.params, query: body.query })).location;
          return get(`/v1/links/decision${query({ url: location, platform: platform.value, bot: bot.value })}`);
        })(),
      ]);
      status.ok();
      if (resolution.status === "fulfilled") resolutionPart.append(...renderResolution(resolution.value));
      else resolutionPart.append(...renderFailure(resolution.reason));
      if (decision.status === "fulfilled") decisionPart.append(...renderDecision(decision.value).filter(Boolean));
      else decisionPart.append(h("div", { class: "status error", role: "alert" }, ...describeError(decision.reason)));
    };
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      run();
    });
    section.append(
      h("h2", {}, "Try a link"),
      h("p", { class: "lead" }, "Where does a link go? Enter it as people see it, pick who taps it, and read every step."),
      form, output);
    this.fields = { url, mode, byURL, byName, run };
  },
  show(parameters) {
    const value = parameters.get("url");
    if (value && this.fields) {
      this.fields.mode.value = "url";
      this.fields.byURL.hidden = false;
      this.fields.byName.hidden = true;
      this.fields.url.value = value;
      this.fields.url.focus();
    }
  },
};

function renderResolution(resolution) {
  const rows = [
    ["Route", `${resolution.route.pattern}${resolution.route.name ? ` (${resolution.route.name})` : ""}`],
    ["Location", resolution.location],
    ["Parameters", Object.keys(resolution.params || {}).length ? pretty(resolution.params) : "none"],
    ["Destination", resolution.destination === undefined ? "none" : pretty(resolution.destination)],
  ];
  if (resolution.presentation) rows.push(["Presentation", resolution.presentation]);
  return [
    h("p", { class: "outcome ok", id: "try-outcome" }, resolution.redirects?.length ? `Resolved after ${resolution.redirects.length} redirect${resolution.redirects.length === 1 ? "" : "s"}.` : "Resolved directly."),
    drawChain(chainSteps(resolution)),
    h("dl", { class: "facts" }, rows.map(([key, value]) => [h("dt", {}, key), h("dd", {}, value.includes("\n") ? h("pre", {}, value) : h("code", {}, value))])),
    h("details", {}, h("summary", {}, "The whole answer"), h("pre", {}, pretty(resolution))),
  ];
}

function renderFailure(error) {
  const details = error.details || {};
  const nodes = [];
  if (error.code === "redirect_loop" || error.code === "redirect_limit") {
    const chain = details.chain || [];
    nodes.push(h("p", { class: "outcome error", id: "try-outcome" }, error.code === "redirect_loop" ? "The redirects go round in a loop." : `More than ${details.limit} redirects.`));
    nodes.push(drawChain(chain.map((location, index) => ({ kind: index ? "redirect" : "start", location })), error.message));
  } else if (error.code === "intercepted") {
    nodes.push(h("p", { class: "outcome error", id: "try-outcome" }, `Blocked by rule ${details.rule} of ${details.route || "an unnamed route"}.`));
    nodes.push(drawChain([{ kind: "start", location: details.location }], "intercepted: the app shows nothing"));
  } else if (error.code === "no_match") {
    nodes.push(h("p", { class: "outcome error", id: "try-outcome" }, "No route matches this link."));
  }
  nodes.push(h("div", { class: "status error", role: "alert" }, ...describeError(error)));
  return nodes;
}

function renderDecision(answer) {
  const target = answer.target
    ? h("a", { href: answer.target, rel: "noreferrer noopener", target: "_blank", id: "decision-target" }, answer.target)
    : h("span", { id: "decision-target" }, "none");
  return [
    h("p", { class: `outcome ${["not_found", "expired"].includes(answer.decision) ? "error" : "ok"}`, id: "decision" , dataset: { decision: answer.decision } },
      `${decisionText[answer.decision] || answer.decision} · HTTP ${answer.status}`),
    h("dl", { class: "facts" },
      h("dt", {}, "Decision"), h("dd", {}, h("code", {}, answer.decision)),
      h("dt", {}, "Sent to"), h("dd", {}, target),
      h("dt", {}, "Platform"), h("dd", {}, answer.platform),
      h("dt", {}, "Bot"), h("dd", {}, answer.bot === false ? "no (a person)" : answer.bot)),
    // The click is resolved with its own context (`context.click`: platform, bot, language), so its rules may
    // take it elsewhere than the app's resolution above.
    answer.resolution
      ? h("div", { id: "decision-chain" },
        h("p", {}, answer.resolution.redirects?.length
          ? `The click's way, with its own context (${answer.resolution.redirects.length} redirect${answer.resolution.redirects.length === 1 ? "" : "s"}):`
          : "The click's way, with its own context: resolved directly."),
        drawChain(chainSteps(answer.resolution), null, "click-chain"))
      : null,
    h("p", { class: "muted" }, "Nothing is counted when you try a link here."),
  ];
}
