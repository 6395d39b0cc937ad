// The GM screen's webhooks: list, add (the secret is shown once), send a test event,
// disable or enable, delete, and each webhook's delivery log. A module of its own: the
// GM screen only gives it a slot (#webhooks-slot) and the session it signed in with.
import { $, ApiError, client, el, session } from "/static/skald.js";
import { onSubmit, press, write } from "/static/writes.js";

const EVENT_TYPES_HINT = "all events (or e.g. Encounter.ActionResolved, Encounter.TurnAdvanced)";

function problem(error) {
  return el("p", { class: "error", role: "alert" },
    error instanceof ApiError ? `${error.status}: ${error.message}` : String(error.message || error));
}

function deliveryLog(log) {
  if (!log.deliveries.length) return el("p", { class: "caption" }, "No deliveries yet.");
  return el("table", { class: "deliveries" },
    el("caption", {}, `Delivered through position ${log.delivered_through}; ` +
      `${log.failures_in_a_row} failed attempt(s) in a row`),
    el("thead", {}, el("tr", {}, ["position", "event", "outcome", "attempts", "status", "last error"]
      .map((name) => el("th", { scope: "col" }, name)))),
    el("tbody", {}, log.deliveries.map((d) => el("tr", { "data-outcome": d.outcome },
      el("td", {}, String(d.position)), el("td", {}, d.type), el("td", {}, d.outcome),
      el("td", {}, String(d.attempts)), el("td", {}, d.status_code === null ? "" : String(d.status_code)),
      el("td", {}, d.last_error || "")))));
}

function row(api, hook, render) {
  const logBox = el("div", { class: "delivery-log" });
  const act = (method, path, body) => (event) => press(event.currentTarget, async () => {
    await write(api, method, `webhooks${path}`, body);
    await render();
  });
  const showLog = async () => {
    try { logBox.replaceChildren(deliveryLog(await api.get(`webhooks/${hook.id}/deliveries`))); }
    catch (error) { logBox.replaceChildren(problem(error)); }
  };
  const button = (text, handler, cls = "secondary") => {
    const b = el("button", { type: "button", class: cls, "data-webhook-action": text.toLowerCase() }, text);
    b.addEventListener("click", handler);
    return b;
  };
  return el("li", { "data-webhook-id": hook.id, "data-enabled": String(hook.enabled) },
    el("span", { class: "url" }, hook.url),
    el("span", { class: "caption" }, ` ${hook.format} · ${hook.role} · ` +
      (hook.events.length ? hook.events.join(", ") : "all events") +
      (hook.enabled ? "" : ` · disabled: ${hook.disabled_reason}`)),
    el("div", { class: "row wrap" },
      button("Test", act("POST", `/${hook.id}/test`)),
      hook.enabled
        ? button("Disable", act("POST", `/${hook.id}/disable`, { reason: "disabled on the GM screen" }))
        : button("Enable", act("POST", `/${hook.id}/enable`)),
      button("Log", showLog),
      button("Delete", act("DELETE", `/${hook.id}`), "danger")),
    logBox);
}

function mount(api) {
  const list = el("ul", { id: "webhook-list", class: "webhooks" });
  const secret = el("div", { id: "webhook-secret", "aria-live": "polite" });
  const url = el("input", { id: "webhook-url", type: "url", required: true,
    placeholder: "https://…", autocomplete: "off" });
  const format = el("select", { id: "webhook-format" },
    el("option", { value: "json" }, "JSON (Standard Webhooks)"), el("option", { value: "discord" }, "Discord"));
  // Whose view the deliveries take: a viewer's (the API's default, spoiler-safe for a
  // stream or a Discord channel the players read), a player's, or the GM's (every number).
  const role = el("select", { id: "webhook-role" },
    el("option", { value: "viewer" }, "Viewer's view (redacted)"),
    el("option", { value: "player" }, "Player's view (redacted)"),
    el("option", { value: "gm" }, "GM's view (everything)"));
  const events = el("input", { id: "webhook-events", placeholder: EVENT_TYPES_HINT });
  const form = el("form", { id: "webhook-form", class: "stack" },
    el("label", {}, "URL ", url), el("label", {}, "Format ", format),
    el("label", {}, "View ", role), el("label", {}, "Events ", events),
    el("button", { type: "submit", id: "webhook-add" }, "Add webhook"));

  async function render() {
    try {
      const hooks = await api.get("webhooks");
      list.replaceChildren(...hooks.map((hook) => row(api, hook, render)));
    } catch (error) { list.replaceChildren(problem(error)); }
  }
  onSubmit(form, async () => {
    const body = { url: url.value, format: format.value, role: role.value,
      events: events.value.split(",").map((t) => t.trim()).filter(Boolean) };
    secret.replaceChildren();
    const made = await write(api, "POST", "webhooks", body);
    secret.replaceChildren(el("p", {}, "Secret (shown once; the receiver verifies with it): ",
      el("code", { "data-secret": made.id }, made.secret)));
    await render(); // then the form is back to its defaults (writes.js)
  });
  $("webhooks-slot").replaceChildren(form, secret, list);
  return render();
}

// The GM screen signs in first (a form when the page was opened without a key): wait for it.
function whenSignedIn() {
  return new Promise((resolve) => {
    const look = () => {
      const current = session();
      if (current.key && current.campaign) resolve(current);
      else setTimeout(look, 500);
    };
    look();
  });
}

if ($("webhooks-slot")) {
  whenSignedIn().then((current) => mount(client(current)));
}
