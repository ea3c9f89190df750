// A long-poll subscription (API.md §5): subscribe, poll with the cursor, re-subscribe when the server forgot
// the subscription, back off after errors, pause and resume.
import { post, request } from "./api.js";

export class Tail {
  /**
   * `events`: the subscription's `events` array; `onEvents(events, missed)`; `onGap()` when a lost subscription was
   * replaced (events in between are not delivered); `onState(text, error)`, with `running` already updated.
   */
  constructor(events, { onEvents, onGap, onState }) {
    this.events = events;
    this.onEvents = onEvents;
    this.onGap = onGap;
    this.onState = onState;
    this.id = null;
    this.cursor = 0;
    this.running = false;
    this.controller = null;
    // Each start begins a new generation; a loop of an older one (asleep in its back-off, or waiting on its
    // subscribe, when paused) ends as soon as it wakes, so one tail never runs two loops that would release each
    // other's polls (API.md §5) many times a second.
    this.generation = 0;
    // Stopped for good (its subscription deleted): a subscribe still under way is deleted when it answers.
    this.stopped = false;
    // The subscription was lost (`subscription_not_found`): the next one made is reported as a gap.
    this.lost = false;
  }

  async start() {
    if (this.running || this.stopped) return;
    this.running = true;
    this.generation += 1;
    this.loop(this.generation);
  }

  /** Stops polling; the subscription keeps queueing on the server until its ttl, so a resume loses nothing. */
  pause() {
    this.running = false;
    this.generation += 1;
    this.controller?.abort();
    this.onState("Paused");
  }

  async stop() {
    this.stopped = true;
    this.pause();
    if (this.id) await this.forget(this.id);
    this.id = null;
  }

  /** Deletes a subscription on the server, quietly (it expires at its ttl anyway). */
  forget(id) {
    return request("DELETE", `/v1/events/subscriptions/${encodeURIComponent(id)}`, { retryOn401: false }).catch(() => {});
  }

  async loop(generation) {
    const live = () => this.running && this.generation === generation;
    let backoff = 1000;
    while (live()) {
      try {
        if (!this.id) {
          this.onState("Subscribing…");
          const answer = await post("/v1/events/subscriptions", { events: this.events, ttl: 300 });
          // A subscription made for a loop that was paused meanwhile, or after another loop's, is not kept: it
          // is deleted rather than left to queue events until its ttl.
          if (this.id || this.stopped || !live()) {
            if (answer.id !== this.id) this.forget(answer.id);
            if (!live()) return;
          } else {
            this.id = answer.id;
            this.cursor = answer.cursor;
            if (this.lost) {
              this.lost = false;
              this.onGap?.();
            }
          }
        }
        this.onState("Live: waiting for events");
        const controller = new AbortController();
        this.controller = controller;
        const answer = await request("GET", `/v1/events/subscriptions/${encodeURIComponent(this.id)}?after=${this.cursor}&wait=25`, { signal: controller.signal }).then((r) => r.json);
        // An answer that arrives after a pause is not shown nor acknowledged: the next poll gets its events again.
        if (!live()) return;
        this.cursor = answer.cursor;
        if (answer.events.length || answer.missed) this.onEvents(answer.events, answer.missed);
        backoff = 1000;
      } catch (error) {
        if (!live()) return;
        if (error.name === "AbortError") continue;
        if (error.code === "subscription_not_found") {
          this.id = null;
          this.lost = true;
          continue;
        }
        // What retrying cannot mend (a sign-in cancelled, a pattern refused, too many subscriptions) stops the
        // tail, saying so; it said "Retrying" for ever.
        if (error.code === "unauthorized" || error.status === 400 || error.status === 429) {
          this.running = false;
          this.onState("Stopped", error);
          return;
        }
        this.onState(`Retrying in ${backoff / 1000} s`, error);
        await new Promise((resolve) => setTimeout(resolve, backoff));
        // At most 10 s between tries: someone is watching, and a restarted server is back in seconds.
        backoff = Math.min(backoff * 2, 10000);
      }
    }
  }
}
