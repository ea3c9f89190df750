// The console's entry point: the view router (one view per URL fragment), the sign-in dialog, the token state.
import { auth } from "./api.js";
import { routesView } from "./routes.js";
import { tryView } from "./try.js";
import { statsView } from "./stats.js";
import { resourcesView } from "./resources.js";
import { eventsView } from "./events.js";
import { slotsView } from "./slots.js";
import { associationView } from "./association.js";
import { qrView } from "./qr.js";

const views = {
  routes: routesView, try: tryView, stats: statsView, resources: resourcesView,
  events: eventsView, slots: slotsView, association: associationView, qr: qrView,
};
const built = new Set();

/** Shows the view named by the fragment (`#try?url=/promo`), building it on first use. */
function show() {
  const [name, paramText] = location.hash.slice(1).split("?");
  // Own names only: `#constructor` or `#__proto__` named an inherited property and blanked the page.
  const view = Object.hasOwn(views, name) ? name : "routes";
  const parameters = new URLSearchParams(paramText || "");
  for (const key of Object.keys(views)) {
    const section = document.getElementById(`view-${key}`);
    section.hidden = key !== view;
    // A view left stops its live tail (resumed when shown again): no poll runs where nobody looks.
    if (key !== view && built.has(key)) views[key].hide?.();
  }
  for (const link of document.querySelectorAll("nav a")) {
    if (link.dataset.view === view) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  const section = document.getElementById(`view-${view}`);
  document.title = `${section.dataset.title} · LinkServer console`;
  if (!built.has(view)) {
    built.add(view);
    views[view].build(section);
  }
  views[view].show?.(parameters);
}

/** The sign-in dialog: resolves to the token entered, or null when cancelled. */
function ask(reason) {
  const dialog = document.getElementById("login");
  const form = document.getElementById("login-form");
  const input = document.getElementById("login-token");
  const error = document.getElementById("login-error");
  document.getElementById("login-reason").textContent =
    reason || "Enter the admin token (or the read token to look only).";
  error.hidden = true;
  input.value = "";
  return new Promise((resolve) => {
    const finish = (token) => {
      form.removeEventListener("submit", onSubmit);
      cancel.removeEventListener("click", onCancel);
      dialog.removeEventListener("cancel", onCancel);
      if (dialog.open) dialog.close();
      if (token) auth.token = token;
      resolve(token);
    };
    const onSubmit = (event) => {
      event.preventDefault();
      const token = input.value.trim();
      if (!token) {
        error.textContent = "Enter a token, or cancel.";
        error.hidden = false;
        return;
      }
      // A header carries printable ASCII only: a pasted zero-width space or a letter such as ø would make every
      // request fail in the browser, before it reaches the server.
      const stray = token.match(/[^\x20-\x7E]/u);
      if (stray) {
        error.textContent = `A token is written in printable ASCII; this one holds U+${stray[0].codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}. Paste it again, or cancel.`;
        error.hidden = false;
        return;
      }
      finish(token);
    };
    const onCancel = (event) => {
      event.preventDefault();
      finish(null);
    };
    const cancel = document.getElementById("login-cancel");
    form.addEventListener("submit", onSubmit);
    cancel.addEventListener("click", onCancel);
    dialog.addEventListener("cancel", onCancel);
    dialog.showModal();
    input.focus();
  });
}

function showTokenState() {
  const signedIn = Boolean(auth.token);
  document.getElementById("auth-state").textContent = signedIn ? "Signed in with a token" : "No token";
  document.getElementById("auth-button").textContent = signedIn ? "Sign out" : "Sign in";
}

auth.ask = ask;
// Signing in shows the view again, so that what a 401 kept from it loads.
const signIn = () => ask().then((token) => token && show());
document.getElementById("auth-button").addEventListener("click", () => {
  if (auth.token) {
    // Signed out: the live tails stop with the token (a tail's next poll would only ask for it again).
    for (const key of built) views[key].hide?.();
    auth.token = null;
  } else signIn();
});
// The skip link moves the focus to the content; it leaves the fragment, which names the view, alone.
document.querySelector("a.skip").addEventListener("click", (event) => {
  event.preventDefault();
  document.getElementById("main").focus();
});
document.addEventListener("console:signin", signIn);
document.addEventListener("console:token", showTokenState);
window.addEventListener("hashchange", show);
showTokenState();
show();
