// The stream overlay: everyone's tracks and chips and the live log, on a transparent
// page a streaming tool lays over video. A viewer key is all it needs (and all it takes).
import { $, bar, chips, client, el, follow, session, signInForm } from "/static/skald.js";
import { describe } from "/static/log.js";

const LOG_LENGTH = 8;
let api = null;
let names = {};
let refreshTimer = null;

async function refresh() {
  const vitals = await api.get("vitals");
  names = Object.fromEntries(vitals.characters.map((c) => [c.id, c.name]));
  $("vitals").replaceChildren(...vitals.characters.map((c) =>
    el("article", { class: "card", "data-character-id": c.id }, el("h3", {}, c.name),
      Object.entries(c.tracks).map(([name, t]) => bar(name, t.current, t.max)), chips(c.conditions))));
}

function add(entry) {
  const log = $("log-entries");
  if (log.querySelector(`[data-entry-id="${entry.id}"]`)) return;
  log.prepend(el("li", { "data-entry-id": entry.id }, describe(entry, names)));
  while (log.children.length > LOG_LENGTH) log.lastChild.remove();
}

async function start() {
  let current = session();
  if (!current.key) current = await signInForm($("sign-in-slot"), "Overlay (viewer key)");
  api = client(current);
  const me = await api.get("me");
  if (me.role !== "viewer") {
    // A stream is public: a GM or player key on it could be read off the screen's URL bar
    // or the tool's settings. Refuse, and say which key to use.
    $("vitals").replaceChildren(el("p", { class: "error" }, "The overlay takes a viewer key: " +
      "issue one with POST /campaigns/{id}/keys {\"role\": \"viewer\"}."));
    return;
  }
  await refresh();
  const head = await api.get("audit?limit=1");
  const page = await api.get(`audit?offset=${Math.max(0, head.total - LOG_LENGTH)}&limit=${LOG_LENGTH}`);
  page.entries.forEach(add);
  follow(api, page.projection.position, {
    entry: (entry) => { add(entry); clearTimeout(refreshTimer); refreshTimer = setTimeout(refresh, 40); },
    reset: refresh,
    state: (state) => { $("connection").dataset.state = state; },
  });
}

start();
