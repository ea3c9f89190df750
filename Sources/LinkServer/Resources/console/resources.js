// Resources: list, create, edit (with revision conflicts shown) and delete (API.md §4).
import { get, request, query } from "./api.js";
import { h, field, pretty, parseJSONField, roundedNumber, Status, wrapping } from "./dom.js";

export const resourcesView = {
  build(section) {
    const status = new Status("resources");
    const table = h("div", { id: "resource-list" });
    let resources = [];

    const load = async () => {
      const answer = await status.run(() => get("/v1/resources"), "Loading resources…");
      if (answer) render(answer);
    };

    const render = (answer) => {
      resources = answer.resources;
      if (!resources.length) {
        table.replaceChildren(h("p", { class: "empty" }, "No resources yet. Create one below."));
        return;
      }
      table.replaceChildren(h("div", { class: "table-wrap" }, h("table", {},
        h("thead", {}, h("tr", {}, ["Path", "Name", "Revision", "Value", ""].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, resources.map((resource) => h("tr", { dataset: { path: resource.path } },
          h("td", {}, h("code", { class: wrapping(resource.path) }, resource.path)),
          h("td", { class: wrapping(resource.name || "") }, resource.name || "—"),
          h("td", { class: "revision" }, String(resource.revision)),
          h("td", {}, h("code", { class: "value" }, "compute" in resource ? `compute: ${JSON.stringify(resource.compute)}` : JSON.stringify(resource.value))),
          h("td", { class: "buttons" },
            h("button", { type: "button", onclick: () => edit(resource), "aria-label": `Edit ${resource.path}` }, "Edit"),
            h("button", { type: "button", class: "danger", onclick: () => remove(resource), "aria-label": `Delete ${resource.path}` }, "Delete"))))))));
    };

    const remove = async (resource) => {
      if (!confirm(`Delete the resource ${resource.path}?`)) return;
      const done = await status.run(
        () => request("DELETE", `/v1/resources${query({ path: resource.path })}`, { headers: { "If-Match": `"${resource.revision}"` } }),
        `Deleting ${resource.path}…`);
      if (done) {
        await load();
        status.ok(`Deleted ${resource.path}.`);
      } else if (status.lastError?.code === "revision_mismatch" || status.lastError?.code === "no_match") {
        // Changed or deleted behind the console's back: show the list as it is now, keeping the error in view.
        await get("/v1/resources").then(render, () => {});
      }
    };

    // Create.
    const createStatus = new Status("resource-create");
    const path = h("input", { id: "resource-path", name: "path", placeholder: "/flags/:platform", autocomplete: "off" });
    const name = h("input", { id: "resource-name", name: "name", placeholder: "flags", autocomplete: "off" });
    const kind = h("select", { id: "resource-kind", name: "kind" }, h("option", { value: "value" }, "A JSON value"), h("option", { value: "compute" }, "Computed (JSONLogic)"));
    const value = h("textarea", { id: "resource-value", name: "value", rows: 3, placeholder: '{"newCheckout": true}' });
    const onExists = h("select", { id: "resource-onexists", name: "onExists" }, ["fail", "keep", "replace"].map((v) => h("option", { value: v }, v)));
    const createForm = h("form", { id: "resource-form", class: "card" },
      h("h3", {}, "Create a resource"),
      h("div", { class: "grid" }, field("Path pattern", path), field("Name (optional)", name), field("Kind", kind), field("If it exists", onExists)),
      field("Value or rule (JSON)", value),
      h("div", { class: "buttons" }, h("button", { type: "submit", id: "resource-submit" }, "Create")),
      createStatus.element);
    createForm.addEventListener("submit", async (event) => {
      event.preventDefault();
      const body = { path: path.value.trim(), onExists: onExists.value };
      try {
        if (!body.path) throw new Error("Enter a path pattern, such as /flags/:platform.");
        if (name.value.trim()) body.name = name.value.trim();
        const parsed = parseJSONField(value.value, kind.value === "value" ? "The value" : "The rule");
        if (parsed === undefined) throw new Error("Enter a JSON value (null is a value).");
        body[kind.value] = parsed;
      } catch (error) {
        createStatus.error(error);
        return;
      }
      const reply = await createStatus.run(() => request("POST", "/v1/resources", { body }), "Creating…");
      if (reply) {
        const answer = reply.json;
        // 201: created; 200: one was there, kept (only its name may change) or replaced (API.md §4).
        createStatus.ok(reply.status === 201
          ? `Created ${answer.path} at revision ${answer.revision}.`
          : body.onExists === "keep"
            ? `Kept the resource already at ${answer.path} (revision ${answer.revision}).`
            : `Replaced ${answer.path}: now at revision ${answer.revision}.`);
        createForm.reset();
        await load();
      }
    });

    // Edit, with the revision it was loaded at: someone else's change in between is a conflict to resolve.
    const editStatus = new Status("resource-edit");
    const editing = { resource: null };
    const editTitle = h("h3", { id: "resource-edit-title" }, "Edit");
    const editValue = h("textarea", { id: "resource-edit-value", name: "editValue", rows: 5 });
    const conflict = h("div", { id: "resource-conflict", class: "conflict", role: "alert", hidden: true });
    const saveButton = h("button", { type: "submit", id: "resource-save" }, "Save");
    const editForm = h("form", { id: "resource-edit-form", class: "card", hidden: true },
      editTitle, field("Value (JSON)", editValue), conflict,
      h("div", { class: "buttons" },
        saveButton,
        h("button", { type: "button", onclick: () => (editForm.hidden = true) }, "Close")),
      editStatus.element);

    const edit = (resource) => {
      editing.resource = resource;
      const computed = "compute" in resource;
      editTitle.textContent = `Edit ${resource.path} (revision ${resource.revision}${computed ? ", computed" : ""})`;
      const content = computed ? resource.compute : resource.value;
      editValue.value = pretty(content);
      conflict.hidden = true;
      // A whole number past 2^53 reached the page rounded: saving would write the rounded one over it.
      const rounded = roundedNumber(content);
      saveButton.disabled = rounded !== undefined;
      if (rounded !== undefined) {
        editStatus.error(new Error(`This value holds a whole number past 2^53, shown here rounded (${rounded}): a page cannot keep it exactly, so it is not saved from here. Change it with the API.`));
      } else editStatus.ok();
      editForm.hidden = false;
      editValue.focus();
    };

    const save = async (force) => {
      const resource = editing.resource;
      let parsed;
      try {
        parsed = parseJSONField(editValue.value, "The value");
        if (parsed === undefined) throw new Error("Enter a JSON value (null is a value).");
      } catch (error) {
        editStatus.error(error);
        return;
      }
      const body = { path: resource.path, ["compute" in resource ? "compute" : "value"]: parsed };
      if (!force) body.ifRevision = resource.revision;
      editStatus.loading("Saving…");
      try {
        const answer = await request("PATCH", "/v1/resources", { body }).then((r) => r.json);
        editStatus.ok(`Saved: ${answer.path} is at revision ${answer.revision}.`);
        conflict.hidden = true;
        editing.resource = answer;
        editTitle.textContent = `Edit ${answer.path} (revision ${answer.revision}${"compute" in answer ? ", computed" : ""})`;
        await load();
      } catch (error) {
        if (error.code !== "revision_mismatch") {
          editStatus.error(error);
          return;
        }
        editStatus.ok();
        const latest = await get("/v1/resources").then((a) => a.resources.find((r) => r.path === resource.path)).catch(() => null);
        conflict.replaceChildren(
          h("strong", {}, "Conflict: someone changed this resource after you opened it."),
          h("p", {}, `You edited revision ${resource.revision}; the server now has revision ${latest ? latest.revision : "unknown"}. Your change was not saved.`),
          latest ? h("p", {}, "Their value: ", h("code", {}, JSON.stringify("compute" in latest ? latest.compute : latest.value))) : null,
          h("div", { class: "buttons" },
            latest ? h("button", { type: "button", id: "conflict-reload", onclick: () => edit(latest) }, "Load their version") : null,
            h("button", { type: "button", class: "danger", id: "conflict-overwrite", onclick: () => save(true) }, "Overwrite with mine")));
        conflict.hidden = false;
        await load();
      }
    };
    editForm.addEventListener("submit", (event) => {
      event.preventDefault();
      save(false);
    });

    section.append(
      h("h2", {}, "Resources"),
      h("p", { class: "lead" }, "Values the apps read by location or name, such as feature flags. Each change bumps a revision."),
      h("div", { class: "toolbar" }, h("button", { type: "button", id: "resources-refresh", onclick: load }, "Refresh")),
      status.element, table, editForm, createForm);
    this.load = load;
  },
  show() {
    this.load?.();
  },
};
