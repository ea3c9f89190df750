// QR code: any link as an SVG drawn inline (fetched with the token, so it works when reads need one), with
// downloads as SVG or PNG (API.md §10).
import { request, query } from "./api.js";
import { h, field, Status } from "./dom.js";

export const qrView = {
  build(section) {
    const url = h("input", { id: "qr-url", name: "url", placeholder: "https://links.example.com/promo/SPRING", required: true, autocomplete: "off" });
    const size = h("input", { id: "qr-size", name: "size", type: "number", min: "64", max: "2048", value: "512" });
    const ecc = h("select", { id: "qr-ecc", name: "ecc" }, [["L", "L (7 %)"], ["M", "M (15 %)"], ["Q", "Q (25 %)"], ["H", "H (30 %)"]].map(([v, t]) => h("option", { value: v, selected: v === "M" }, t)));
    const status = new Status("qr");
    const picture = h("div", { id: "qr-image", class: "qr" });
    const downloads = h("div", { class: "buttons", id: "qr-downloads", hidden: true });
    const parameters = () => ({ url: url.value.trim(), size: size.value, ecc: ecc.value });

    // The downloads are of the code drawn, whatever the fields hold since.
    const download = async (drawn, format) => {
      const answer = await status.run(() => request("GET", `/v1/qr${query({ ...drawn, format })}`, { as: "blob" }), `Making the ${format.toUpperCase()}…`);
      if (!answer) return;
      const link = h("a", { href: URL.createObjectURL(answer.blob), download: `qr-code.${format}` });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    };

    // A request that fails takes the previous code away: it is not the link asked for.
    const clear = () => {
      picture.replaceChildren();
      downloads.replaceChildren();
      downloads.hidden = true;
    };

    const show = async () => {
      if (!url.value.trim()) {
        clear();
        status.error(new Error("Enter a URL or a location such as /promo/SPRING."));
        return;
      }
      const drawn = parameters();
      const answer = await status.run(() => request("GET", `/v1/qr${query({ ...drawn, format: "svg" })}`, { as: "text" }), "Drawing…");
      if (!answer) return clear();
      const parsed = new DOMParser().parseFromString(answer.text, "image/svg+xml").documentElement;
      if (parsed.nodeName !== "svg") {
        clear();
        status.error(new Error("The server's SVG could not be read."));
        return;
      }
      parsed.setAttribute("role", "img");
      parsed.setAttribute("aria-label", `QR code for ${drawn.url}`);
      const caption = drawn.url.startsWith("/") ? `${drawn.url} on the first links host` : drawn.url;
      picture.replaceChildren(document.importNode(parsed, true), h("p", { class: "muted", id: "qr-caption" }, caption));
      downloads.replaceChildren(
        h("button", { type: "button", id: "qr-download-png", onclick: () => download(drawn, "png") }, "Download PNG"),
        h("button", { type: "button", id: "qr-download-svg", onclick: () => download(drawn, "svg") }, "Download SVG"));
      downloads.hidden = false;
    };

    const form = h("form", { id: "qr-form", class: "toolbar" }, field("Link", url), field("Size (px)", size), field("Error correction", ecc), h("button", { type: "submit", id: "qr-submit" }, "Show QR code"));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      show();
    });
    section.append(
      h("h2", {}, "QR code"),
      h("p", { class: "lead" }, "A QR code for any link. A bare location such as /promo/SPRING uses the first links host."),
      form, status.element, picture, downloads);
    this.url = url;
    this.showCode = show;
  },
  show(parameters) {
    if (parameters.has("url")) {
      this.url.value = parameters.get("url");
      this.showCode();
    }
  },
};
