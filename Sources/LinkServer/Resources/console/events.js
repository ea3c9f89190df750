// Events: a live tail of the event bus (long-poll, pausable) and a form to emit one.
import { auth, post } from "./api.js";
import { h, field, pretty, parseJSONField, Status, describeError } from "./dom.js";
import { Tail } from "./tail.js";

const limit = 200;

/**
 * Keeps the newest `limit` events and the notices among them. Notices are not counted: one drawn below a backlog
 * larger than the list was the first row trimmed, so it was never seen.
 */
function trimList(list) {
  const events = list.querySelectorAll(":scope > li.event");
  for (let index = events.length - 1; index >= limit; index--) events[index].remove();
  const notices = list.querySelectorAll(":scope > li.missed");
  for (let index = notices.length - 1; index >= 20; index--) notices[index].remove();
}

export const eventsView = {
  build(section) {
    const state = h("div", { id: "tail-state", class: "status", role: "status" }, "Not started");
    const list = h("ol", { id: "event-list", class: "events", reversed: true });
    const empty = h("p", { class: "empty", id: "event-empty" }, "No events yet. Clicks on the links listener and slot changes appear here as they happen.");
    const patterns = h("input", { id: "tail-patterns", name: "patterns", value: "", placeholder: "/seek/:progress, /orders/*rest", autocomplete: "off" });
    const pause = h("button", { type: "button", id: "tail-pause" }, "Pause");
    let tail = null;
    // Stopped by a 401 whose sign-in was cancelled: a sign-in later starts it again (see `resume`).
    let stoppedForToken = false;
    const trim = () => trimList(list);

    const start = async () => {
      const events = [{ name: "linkClick" }, { name: "slotChanged" }];
      for (const path of patterns.value.split(",").map((p) => p.trim()).filter(Boolean)) events.push({ path });
      await tail?.stop();
      tail = new Tail(events, {
        onEvents: (received, missed) => {
          empty.hidden = true;
          // Newest first; a notice of events dropped goes below this answer's events (they were older).
          for (const event of received) list.prepend(renderEvent(event));
          if (missed) {
            const notice = h("li", { class: "missed" }, `${missed} older events were dropped before they were read.`);
            list.insertBefore(notice, list.children[received.length] ?? null);
          }
          trim();
        },
        onGap: () => {
          empty.hidden = true;
          list.prepend(h("li", { class: "missed gap" }, "The subscription was lost (it expired, or the service lost its data) and a new one made: events in between are not shown."));
          trim();
        },
        onState: (text, error) => {
          state.className = error ? "status error" : "status";
          state.replaceChildren(text, ...(error ? [" — ", ...describeError(error)] : []));
          // The button says what it will do: a tail stopped by an error, or paused by leaving the view, resumes.
          pause.textContent = tail?.running ? "Pause" : "Resume";
          // Stopped for want of a token: signing in (which shows the view again) starts it again.
          stoppedForToken = !tail?.running && error?.code === "unauthorized";
        },
      });
      pause.textContent = "Pause";
      tail.start();
    };

    pause.addEventListener("click", () => {
      if (!tail) return;
      if (tail.running) {
        tail.pause();
        pause.textContent = "Resume";
      } else {
        tail.start();
        pause.textContent = "Pause";
      }
    });

    const subscribeForm = h("form", { class: "toolbar", id: "tail-form" },
      field("Also watch these event patterns (comma-separated; new ones need the admin token)", patterns),
      h("button", { type: "submit" }, "Watch"), pause);
    subscribeForm.addEventListener("submit", (event) => {
      event.preventDefault();
      start();
    });

    // Emit.
    const emitStatus = new Status("emit");
    const loc = h("input", { id: "emit-location", name: "loc", placeholder: "/seek/42", autocomplete: "off" });
    const extra = h("textarea", { id: "emit-extra", name: "extra", rows: 2, placeholder: '{"source": "console"}' });
    const emitForm = h("form", { id: "emit-form", class: "card" },
      h("h3", {}, "Emit an event"),
      h("div", { class: "grid" }, field("Location", loc, "Must match a registered event type."), field("Extra JSON (optional)", extra)),
      h("div", { class: "buttons" }, h("button", { type: "submit", id: "emit-submit" }, "Emit")),
      emitStatus.element);
    emitForm.addEventListener("submit", async (event) => {
      event.preventDefault();
      let body;
      try {
        if (!loc.value.trim()) throw new Error("Enter a location, such as /seek/42.");
        body = { loc: loc.value.trim() };
        const value = parseJSONField(extra.value, "Extra");
        if (value !== undefined) body.extra = value;
      } catch (error) {
        emitStatus.error(error);
        return;
      }
      const answer = await emitStatus.run(() => post("/v1/events/emit", body), "Emitting…");
      if (answer) emitStatus.ok(`Event ${answer.seq} delivered to ${answer.delivered} subscription${answer.delivered === 1 ? "" : "s"}.`);
    });

    section.append(
      h("h2", {}, "Events"),
      h("p", { class: "lead" }, "A live tail of clicks (linkClick), slot changes (slotChanged) and any patterns you add, newest first."),
      subscribeForm, state, empty, list, emitForm);
    this.start = start;
    this.started = false;
    // Left (another view, a sign-out): the tail pauses, its subscription queueing meanwhile; shown again, it goes on.
    let pausedByLeaving = false;
    this.hide = () => {
      if (tail?.running) {
        tail.pause();
        pausedByLeaving = true;
      }
    };
    this.resume = () => {
      if ((pausedByLeaving || (stoppedForToken && auth.token)) && tail) {
        pausedByLeaving = false;
        stoppedForToken = false;
        tail.start();
      }
    };
  },
  show() {
    if (!this.started) {
      this.started = true;
      this.start();
    } else this.resume();
  },
};

function renderEvent(event) {
  const time = new Date(event.time).toLocaleTimeString();
  const summary = event.name === "linkClick" && event.extra
    ? `${event.extra.decision} · ${event.extra.platform}${event.extra.bot ? ` (${event.extra.bot} bot)` : ""} · ${event.extra.location}`
    : event.name === "slotChanged" && event.extra
      ? `${event.params.slot}: ${event.extra.reason}${event.extra.current ? ` → ${event.extra.current.id}` : ""}`
      : event.location;
  return h("li", { class: "event", dataset: { seq: event.seq, name: event.name || "" } },
    h("details", {},
      h("summary", {}, h("span", { class: "badge" }, event.name || event.pattern), " ", h("span", { class: "event-summary" }, summary), " ", h("time", { datetime: event.time }, time), h("span", { class: "muted" }, ` #${event.seq}`)),
      h("pre", {}, pretty(event))));
}
