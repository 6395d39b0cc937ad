// The GM dashboard: reads the views once, then follows the campaign's live feed.
// Every feed entry triggers a refresh of the vitals and the board (both committed
// to Redis together with the entry, so they already include it); the entry itself
// goes straight into the log. No framework and no CDN: the tables have no internet.
"use strict";

const campaignId = location.pathname.split("/")[2];
const key = new URLSearchParams(location.search).get("key") || "";
const LOG_LENGTH = 60;
const LOW_FRACTION = 1 / 3; // a bar "slips into the yellow" at a third of its maximum

const $ = (id) => document.getElementById(id);
let encounterId = null;
let lastSeen = 0; // the newest notification id the page shows
let refreshTimer = null;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === "class") node.className = value;
    else node.setAttribute(name, value);
  }
  for (const child of children) node.append(child);
  return node;
}

async function read(path) {
  const response = await fetch(path, { headers: { authorization: `Bearer ${key}` } });
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw new Error(body.message || `${response.status} ${response.statusText}`);
  }
  return response.json();
}

function bar(name, track) {
  const max = track.max || 1;
  const fraction = Math.max(0, Math.min(1, track.current / max));
  const state = track.current < 0 ? "out" : track.current <= max * LOW_FRACTION ? "low" : "ok";
  return el("div", { class: "track" },
    el("span", {}, name),
    el("div", { class: `bar ${state}`, "data-track": name, "data-current": track.current },
      el("div", { class: "fill", style: `width: ${(fraction * 100).toFixed(1)}%` })),
    el("span", { class: "value" }, `${track.current} / ${track.max ?? "?"}`));
}

function chips(conditions) {
  return el("div", { class: "chips" },
    ...conditions.map((c) => el("span", { class: "chip", "data-condition": c }, c.replaceAll("_", " "))));
}

function stateLine(state) {
  const shown = Object.entries(state || {}).filter(([, v]) => v !== false && v !== null && v !== 0);
  return el("div", { class: "state" }, shown.map(([k, v]) => (v === true ? k : `${k}: ${JSON.stringify(v)}`)).join(" · "));
}

function renderVitals(vitals) {
  $("campaign-name").textContent = vitals.name || "Skald";
  $("campaign-facts").textContent = `${vitals.ruleset} · day ${vitals.day}`;
  const cards = vitals.characters.map((c) =>
    el("article", { class: "card", "data-character-id": c.id },
      el("h3", {}, c.name, el("span", { class: "where" }, c.encounter ? "in combat" : "")),
      ...Object.entries(c.tracks).map(([name, track]) => bar(name, track)),
      chips(c.conditions),
      stateLine(c.state)));
  $("vitals").replaceChildren(...cards);
  const open = vitals.encounters.filter((e) => e.open);
  const chosen = open.length ? open[open.length - 1] : vitals.encounters[vitals.encounters.length - 1];
  encounterId = chosen ? chosen.id : null;
  showLag(vitals.projection);
}

function renderBoard(board) {
  $("board-title").textContent = `Encounter: ${board.name}`;
  $("board-caption").textContent = `round ${board.round}${board.ended ? " · ended" : ""} · ${board.actions} actions`;
  const sides = {};
  for (const c of board.combatants) (sides[c.side] ||= []).push(c);
  $("sides").replaceChildren(...Object.entries(sides).map(([side, members]) =>
    el("div", { class: "side" }, el("h3", {}, side),
      ...members.map((c) => el("article", { class: "card", "data-combatant-id": c.id },
        el("h3", {}, c.name, el("span", { class: "rank" }, `rank ${c.rank}`)),
        ...Object.entries(c.tracks).map(([name, track]) => bar(name, track)),
        chips(c.conditions),
        stateLine(c.state))))));
  $("last-actions").replaceChildren(...board.last_actions.slice().reverse().map((a) =>
    el("li", { class: a.status }, `#${a.number} (round ${a.round}) ${a.summary}`)));
}

function logLine(entry) {
  const dice = (entry.rolls || []).map((r) => `${r.name} ${r.dice}: [${r.faces.join(", ")}]`).join("  ");
  const when = new Date(entry.time).toLocaleTimeString();
  return el("li", { "data-entry-id": entry.id, value: entry.seq },
    entry.summary,
    el("div", { class: "meta" }, `${when} · ${entry.by || entry.actor || "—"} · ${entry.type}`),
    ...(dice ? [el("div", { class: "dice" }, dice)] : []));
}

function addToLog(entry) {
  if (document.querySelector(`#log-entries [data-entry-id="${entry.id}"]`)) return; // already shown
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
  renderVitals(await read(`/campaigns/${campaignId}/vitals`));
  if (encounterId) renderBoard(await read(`/campaigns/${campaignId}/encounters/${encounterId}/board`));
}

function refreshSoon() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => refresh().catch(showError), 30); // one refresh per burst
}

function showError(error) {
  $("board-caption").textContent = `Could not read the views: ${error.message}`;
}

async function loadLog() {
  const head = await read(`/campaigns/${campaignId}/audit?limit=1`);
  const offset = Math.max(0, head.total - LOG_LENGTH);
  const page = await read(`/campaigns/${campaignId}/audit?offset=${offset}&limit=${LOG_LENGTH}`);
  page.entries.forEach(addToLog);
  return page.projection.position;
}

function follow(after) {
  const params = new URLSearchParams({ key, after: String(after) });
  const feed = new EventSource(`/campaigns/${campaignId}/feed?${params}`);
  const connection = $("connection");
  feed.onopen = () => { connection.dataset.state = "live"; connection.textContent = "live"; };
  feed.onerror = () => { connection.dataset.state = "lost"; connection.textContent = "reconnecting…"; };
  feed.addEventListener("entry", (message) => {
    addToLog(JSON.parse(message.data));
    refreshSoon();
  });
  feed.addEventListener("reset", () => {
    // The feed no longer reaches back to what we had: start again from the views.
    $("log-entries").replaceChildren();
    loadLog().then(refresh).catch(showError);
  });
}

async function start() {
  await refresh();
  const position = await loadLog();
  follow(Math.min(position, lastSeen));
}

start().catch(showError);
