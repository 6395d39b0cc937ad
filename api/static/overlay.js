// The stream overlay (/overlay), an OBS browser source: whose turn, the party's bars, the
// foes by descriptor and the live log, read with a viewer key. Flags after '#' beside the
// key: transparent=1 (no background, for laying over video) and layout=party,foes,log,turn
// (the parts to show; all by default). Stable ids and classes for custom CSS: README and
// docs/table.md.
import { $, client, el, follow, session, signInForm } from "/static/skald.js";
import { describe } from "/static/log.js";
import { card, fightOf, sides, turnStrip, whoseTurn } from "/static/fight.js";

const LOG_LENGTH = 5;
// The GM's bookkeeping is not the story a stream follows: keys issued or revoked, the
// turn order set or moved by hand (the turn strip shows the order), a marker taken off
// (its chip goes). Blows, turns, markers placed and expiring, track changes and
// corrections stay.
const BOOKKEEPING_TYPES = new Set(["Campaign.KeyIssued", "Campaign.KeyRevoked", "Encounter.OrderSet"]);
const BOOKKEEPING_KINDS = new Set(["unmark"]);
// How far back the first page reads, so that LOG_LENGTH lines of story are likely there.
const LOOK_BACK = 40;

export function isBookkeeping(entry) {
  const kind = ((entry.data || {}).record || {}).kind; // a table record's (Encounter.TableRecorded)
  return BOOKKEEPING_TYPES.has(entry.type) || BOOKKEEPING_KINDS.has(kind);
}
const FLAGS = "skald.overlay";
const PARTS = ["turn", "party", "foes", "log"];
let api = null;
let names = {};
let refreshTimer = null;

// Read before session() takes the key out of the address; kept for a reload (OBS's refresh).
function flags() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const saved = JSON.parse(sessionStorage.getItem(FLAGS) || "{}");
  const chosen = {
    transparent: fragment.has("transparent") ? fragment.get("transparent") === "1" : !!saved.transparent,
    layout: fragment.get("layout") || saved.layout || PARTS.join(","),
  };
  sessionStorage.setItem(FLAGS, JSON.stringify(chosen));
  return chosen;
}

function apply(chosen) {
  document.body.classList.toggle("transparent", chosen.transparent);
  const shown = new Set(chosen.layout.split(",").map((part) => part.trim()));
  document.body.dataset.layout = [...shown].join(" ");
  for (const part of document.querySelectorAll(".overlay-part")) part.hidden = !shown.has(part.dataset.part);
}

async function refresh() {
  const { campaign, encounter } = await fightOf(api);
  const fighting = encounter && !encounter.ended ? encounter : null;
  names = Object.fromEntries(campaign.characters.map((c) => [c.id, c.name]));
  const { party, foes } = sides(campaign, fighting);
  const pcs = fighting ? party : campaign.characters.filter((c) => !c.npc);
  $("vitals").replaceChildren(...pcs.map((c) => card(c, fighting)));
  $("overlay-foes").replaceChildren(...foes.map((c) => card(c, fighting)));
  $("overlay-turn").replaceChildren(...(fighting ? [
    el("p", { class: "whose-turn" }, whoseTurn(fighting)), turnStrip(fighting)] : []));
}

function add(entry) {
  const log = $("log-entries");
  if (isBookkeeping(entry) || log.querySelector(`[data-entry-id="${entry.id}"]`)) return;
  log.prepend(el("li", { "data-entry-id": entry.id }, describe(entry, names)));
  while (log.children.length > LOG_LENGTH) log.lastChild.remove();
}

async function start() {
  apply(flags());
  let current = session();
  if (!current.key) current = await signInForm($("sign-in-slot"), "Overlay (viewer key)");
  api = client(current);
  const me = await api.get("me");
  if (me.role !== "viewer") {
    // A stream is public: a GM or player key on it could be read off the screen's URL bar
    // or the tool's settings. Refuse, and say which key to use.
    $("vitals").hidden = false;
    $("vitals").replaceChildren(el("p", { class: "error" }, "The overlay takes a viewer key: " +
      "issue one with POST /campaigns/{id}/keys {\"role\": \"viewer\"}."));
    return;
  }
  await refresh();
  const head = await api.get("audit?limit=1");
  const page = await api.get(`audit?offset=${Math.max(0, head.total - LOOK_BACK)}&limit=${LOOK_BACK}`);
  page.entries.forEach(add);
  follow(api, page.projection.position, {
    entry: (entry) => { add(entry); clearTimeout(refreshTimer); refreshTimer = setTimeout(refresh, 40); },
    reset: refresh,
    state: (state) => { $("connection").dataset.state = state; },
  });
}

start();
