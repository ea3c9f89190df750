// Slots: what shows in a slot, present something with a priority, dismiss it, and watch changes live (API.md §11).
import { get, post, request } from "./api.js";
import { h, field, pretty, parseJSONField, parseWholeNumberField, Status } from "./dom.js";
import { Tail } from "./tail.js";

export const slotsView = {
  build(section) {
    const slot = h("input", { id: "slot-name", name: "slot", value: "home", pattern: "[A-Za-z0-9_.:\\-]{1,128}", required: true, autocomplete: "off" });
    const status = new Status("slot");
    const current = h("div", { id: "slot-current", class: "card" });
    const log = h("ol", { id: "slot-log", class: "events", reversed: true });
    const watchButton = h("button", { type: "button", id: "slot-watch" }, "Watch");
    let tail = null;

    // The slot a request is for is named when it is made: the card's buttons act on the slot the card shows, whatever
    // is typed in the field since.
    const slotPath = (name) => `/v1/slots/${encodeURIComponent(name)}`;

    const load = async (name = slot.value.trim()) => {
      const answer = await status.run(() => get(slotPath(name)), `Loading slot ${name}…`);
      if (answer) render(name, answer.current);
    };

    const render = (name, showing) => {
      current.replaceChildren(
        h("h3", {}, `Slot ${name}`),
        showing
          ? h("div", { dataset: { current: showing.id, slot: name } },
            h("p", {}, "Showing ", h("strong", { id: "slot-current-id" }, showing.id), ` at priority ${showing.priority}, since ${new Date(showing.since).toLocaleString()}, until ${new Date(showing.expires).toLocaleString()}.`),
            h("pre", {}, pretty(showing.payload)),
            h("button", { type: "button", class: "danger", id: "slot-dismiss", onclick: () => dismiss(name, showing.id) }, `Dismiss ${showing.id}`))
          : h("p", { class: "empty", id: "slot-empty" }, "Nothing is showing in this slot."));
    };

    const dismiss = async (name, id) => {
      const done = await status.run(() => request("DELETE", `${slotPath(name)}/present/${encodeURIComponent(id)}`), "Dismissing…");
      if (done) await load(name);
      // `not_current`: something else shows now; show it, keeping the error in view.
      else if (status.lastError?.code === "not_current") {
        await get(slotPath(name)).then((answer) => render(name, answer.current), () => current.replaceChildren());
      }
    };

    const slotForm = h("form", { class: "toolbar", id: "slot-form" }, field("Slot", slot), h("button", { type: "submit" }, "Show"), watchButton);
    slotForm.addEventListener("submit", (event) => {
      event.preventDefault();
      load();
    });

    watchButton.addEventListener("click", async () => {
      if (tail?.running) {
        tail.pause();
        watchButton.textContent = "Watch";
        return;
      }
      const watched = slot.value.trim();
      await tail?.stop();
      // The built-in type, by name: watching is a read (a new pattern per slot would register a type, a write).
      tail = new Tail([{ name: "slotChanged" }], {
        onEvents: (events, missed) => {
          // The subscription hears every slot's changes; a drop may have been this slot's.
          if (missed) log.prepend(h("li", { class: "event", dataset: { reason: "missed" } }, `${missed} change${missed === 1 ? "" : "s"} of some slot may have been missed; showing the slot as it is now.`));
          events = events.filter((event) => event.params?.slot === watched);
          if (!events.length) {
            if (missed) load(watched);
            return;
          }
          for (const event of events) {
            const extra = event.extra || {};
            log.prepend(h("li", { class: "event", dataset: { reason: extra.reason } }, `${new Date(event.time).toLocaleTimeString()} ${extra.reason}${extra.current ? `: ${extra.current.id} (priority ${extra.current.priority})` : ""}${extra.replaced ? (extra.current ? `, replacing ${extra.replaced.id}` : `: ${extra.replaced.id} ended`) : ""}`));
          }
          load(watched);
        },
        onState: (text, error) => {
          status[error ? "error" : "ok"](error || `Watching ${watched}: ${text}`);
          // A watch stopped by an error (a 429, a sign-in cancelled) has ended: the button starts another.
          watchButton.textContent = tail?.running ? "Stop watching" : "Watch";
        },
      });
      watchButton.textContent = "Stop watching";
      tail.start();
    });

    const presentStatus = new Status("present");
    const id = h("input", { id: "present-id", name: "id", placeholder: "spring-sale", required: true, autocomplete: "off" });
    const priority = h("input", { id: "present-priority", name: "priority", type: "number", value: "10", step: "1", required: true });
    const ttl = h("input", { id: "present-ttl", name: "ttl", type: "number", value: "3600", min: "1", max: "86400" });
    const payload = h("textarea", { id: "present-payload", name: "payload", rows: 3, placeholder: '{"title": "Spring sale"}' });
    const presentForm = h("form", { id: "present-form", class: "card" },
      h("h3", {}, "Present"),
      h("p", { class: "muted" }, "Shows when the slot is empty or the priority is strictly higher than what shows now."),
      h("div", { class: "grid" }, field("Id", id), field("Priority", priority), field("Seconds to show", ttl)),
      field("Payload JSON", payload),
      h("div", { class: "buttons" }, h("button", { type: "submit", id: "present-submit" }, "Present")),
      presentStatus.element);
    presentForm.addEventListener("submit", async (event) => {
      event.preventDefault();
      const name = slot.value.trim();
      let body;
      try {
        body = { id: id.value.trim(), priority: parseWholeNumberField(priority.value, "Priority"), payload: parseJSONField(payload.value, "Payload", null) };
        if (ttl.value) body.ttl = parseWholeNumberField(ttl.value, "Seconds to show");
      } catch (error) {
        presentStatus.error(error);
        return;
      }
      const answer = await presentStatus.run(() => post(`${slotPath(name)}/present`, body), "Presenting…");
      if (!answer) return;
      presentStatus.ok(answer.presented
        ? `Presented${answer.replaced ? `, replacing ${answer.replaced.id}` : ""}.`
        : `Not presented: ${answer.current.id} shows at priority ${answer.current.priority}, which is not lower.`);
      await load(name);
    });

    section.append(
      h("h2", {}, "Slots"),
      h("p", { class: "lead" }, "One presentation at a time per slot; the highest priority wins."),
      slotForm, status.element, current, presentForm, h("h3", {}, "Changes while watching"), log);
    this.load = load;
    // Left (another view, a sign-out): watching ends; the Watch button starts it again.
    this.hide = () => {
      if (tail?.running) {
        tail.pause();
        watchButton.textContent = "Watch";
      }
    };
  },
  show() {
    this.load?.();
  },
};
