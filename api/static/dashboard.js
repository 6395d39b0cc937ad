// The GM dashboard: reads the views once, then follows the campaign's live feed.
// Every feed entry triggers a refresh of the vitals and the board (both committed
// to Redis together with the entry, so they already include it); the entry itself
// goes straight into the log.
import { $, bar, chips, client, el, follow, session, signInForm } from "/static/skald.js";
import { describe, struckBy } from "/static/log.js";

const LOG_LENGTH = 60;

let api = null;
let chosenEncounter = null; // the encounter the GM picked; null: the newest open one
let shownEncounter = null;
let lastSeen = 0; // the newest notification id the page shows
let refreshTimer = null;
let names = {}; // character and combatant ids to names, for the log
const struck = new Map(); // "encounter:number" -> status, from corrections

// One character or combatant: its bars where this key reads its numbers; an NPC read
// with a player's or a viewer's key comes with no numbers but its descriptor ("hurt",
// RULINGS T3), which stands in their place. The GM's key reads every number.
function card(c, maxima, { where, ...attrs }) {
  return el("article", { class: "card", ...attrs },
    el("h3", {}, c.name, el("span", { class: "where" }, where || "")),
    c.descriptor ? el("p", { class: "descriptor", "data-descriptor": c.descriptor }, c.descriptor)
      : Object.entries(c.tracks).map(([name, track]) => typeof track === "number"
        ? bar(name, track, maxima[name]) : bar(name, track.current, track.max)),
    chips(c.conditions));
}

function renderVitals(vitals) {
  $("campaign-name").textContent = vitals.name || "Skald";
  $("campaign-facts").textContent = `${vitals.ruleset} · day ${vitals.day}`;
  for (const c of vitals.characters) names[c.id] = c.name;
  const encounters = vitals.encounters;
  const picker = $("encounter-picker");
  const wanted = chosenEncounter || picker.value;
  picker.replaceChildren(...encounters.slice().reverse().map((e) =>
    el("option", { value: e.id, selected: e.id === wanted }, `${e.name}${e.open ? "" : " (ended)"}`)));
  const open = encounters.filter((e) => e.open);
  const fallback = open.length ? open[open.length - 1] : encounters[encounters.length - 1];
  shownEncounter = chosenEncounter || (fallback ? fallback.id : null);
  if (shownEncounter) picker.value = shownEncounter;
  // The roster shows who is not on the board being shown; the board shows the rest.
  const onBoard = new Set(vitals.characters.filter((c) => c.encounter === shownEncounter)
    .map((c) => c.id));
  const roster = vitals.characters.filter((c) => !onBoard.has(c.id));
  $("vitals").replaceChildren(...roster.map((c) => card(c, {}, {
    "data-character-id": c.id, where: c.encounter ? "in another fight" : "" })));
  if (!roster.length) $("vitals").append(el("p", { class: "caption" }, "Everyone is on the board."));
  showLag(vitals.projection);
}

function renderBoard(board) {
  $("board-title").textContent = `Encounter: ${board.name}`;
  const turn = board.turn && board.turn.current ? ` · ${names[board.turn.current] || "?"}'s turn` : "";
  $("board-caption").textContent =
    `round ${board.round}${turn}${board.ended ? " · ended" : ""} · ${board.actions} actions`;
  const sides = {};
  for (const c of board.combatants) {
    names[c.id] = c.name;
    (sides[c.side] ||= []).push(c);
  }
  $("sides").replaceChildren(...Object.entries(sides).map(([side, members]) =>
    el("div", { class: "side" }, el("h3", {}, side),
      members.map((c) => card(c, {}, { "data-combatant-id": c.id, "data-character-id": c.id,
        where: `rank ${c.rank}` })))));
  $("last-actions").replaceChildren(...board.last_actions.slice().reverse().map((a) =>
    el("li", { class: a.status }, `#${a.number} (round ${a.round}) ${a.summary}`)));
}

function logLine(entry) {
  const dice = (entry.rolls || []).map((r) => `${r.name} ${r.dice}: [${r.faces.join(", ")}]`).join("  ");
  const when = new Date(entry.time).toLocaleTimeString();
  const status = entry.encounter_id && entry.number
    ? struck.get(`${entry.encounter_id}:${entry.number}`) : null;
  return el("li", { "data-entry-id": entry.id, value: entry.seq, class: status || null,
    "data-action": entry.encounter_id && entry.number ? `${entry.encounter_id}:${entry.number}` : null },
    // The entry's number as text, not a list marker: a marker of five digits was drawn
    // outside the list's padding and clipped.
    el("span", { class: "seq" }, `#${entry.seq}`), describe(entry, names),
    el("div", { class: "meta" }, `${when} · ${entry.attributed || entry.by || "—"} · ${entry.type}`),
    dice ? el("div", { class: "dice" }, dice) : null);
}

function addToLog(entry) {
  if (document.querySelector(`#log-entries [data-entry-id="${entry.id}"]`)) return; // already shown
  for (const [action, status] of struckBy(entry)) {
    struck.set(action, status);
    for (const line of document.querySelectorAll(`#log-entries [data-action="${action}"]`)) {
      line.className = status;
    }
  }
  const log = $("log-entries");
  log.prepend(logLine(entry));
  while (log.children.length > LOG_LENGTH) log.lastChild.remove();
}

function showLag(projection) {
  lastSeen = Math.max(lastSeen, projection.position);
  $("lag").textContent = `views at event ${projection.position} of ${projection.store}` +
    (projection.behind ? ` (${projection.behind} behind)` : " (up to date)");
}

async function refresh() {
  renderVitals(await api.get("vitals"));
  if (shownEncounter) renderBoard(await api.get(`encounters/${shownEncounter}/board`));
}

function refreshSoon() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => refresh().catch(showError), 30); // one refresh per burst
}

function showError(error) {
  $("board-caption").textContent = `Could not read the views: ${error.message}`;
}

async function loadLog() {
  const head = await api.get("audit?limit=1");
  const offset = Math.max(0, head.total - LOG_LENGTH);
  const page = await api.get(`audit?offset=${offset}&limit=${LOG_LENGTH}`);
  page.entries.forEach(addToLog);
  return page.projection.position;
}

function showConnection(state) {
  const connection = $("connection");
  connection.dataset.state = state;
  connection.textContent = state === "live" ? "live" : "reconnecting…";
}

async function start() {
  let current = session();
  if (!current.key) current = await signInForm($("sign-in-slot"), "Open the dashboard");
  api = client(current);
  $("encounter-picker").addEventListener("change", (event) => {
    chosenEncounter = event.target.value;
    refresh().catch(showError);
  });
  await refresh();
  const position = await loadLog();
  follow(api, Math.min(position, lastSeen), {
    entry: (entry) => { addToLog(entry); refreshSoon(); },
    reset: () => {
      // The feed no longer reaches back to what we had: start again from the views.
      $("log-entries").replaceChildren();
      loadLog().then(refresh).catch(showError);
    },
    state: showConnection,
  });
}

start().catch(showError);
