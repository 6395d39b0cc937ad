// The GM screen's shared state: what the page has read (campaign, ruleset, encounter,
// selection), its messages, and the reads and turn steps every part of the screen asks
// for. The parts draw themselves; gm.js wires them here once (wire), so a part can ask
// for a fresh read or a selection without importing the others.
import { $ } from "/static/skald.js";
import { press, problem, write } from "/static/writes.js";

export const page = { api: null, campaign: null, ruleset: null, encounter: null, chosen: null,
  selected: null, elsewhere: {} };
const parts = { draw: () => {}, select: () => {} };
let refreshTimer = null;

export function wire({ draw, select }) {
  parts.draw = draw;
  parts.select = select;
}

export const select = (id) => parts.select(id);

export function showError(error, where = "result") {
  $(where).replaceChildren(problem(error, "p"));
  $(where).scrollIntoView({ block: "nearest" });
}

// A success leaves no stale message behind (an old error, a settled "waiting for").
export function clearMessage() {
  $("result").replaceChildren();
}

// What is open on the board now, or null (none yet, or it has ended).
export const live = () => (page.encounter && !page.encounter.ended ? page.encounter : null);
export const pendingOf = (enc) => (enc ? (enc.exchanges || []).filter((x) => x.status === "pending") : []);

// Reads overlap (a press's own, the live feed's, the encounter picker's), and their
// answers may come back in any order: each read draws only if no read asked after it has
// drawn already, so an older answer never paints over a newer one (the GM picked the
// second fight while a read of the first was on its way: it came back last and drew the
// first again, the picker with it).
let asked = 0;
let drawn = 0;

export async function refresh() {
  const mine = ++asked;
  const campaign = await page.api.get(page.api.base);
  const ruleset = page.ruleset || await page.api.get(`/rulesets/${campaign.ruleset}`);
  const encounters = campaign.encounters;
  const open = encounters.filter((e) => e.open);
  const id = page.chosen || (open.length ? open[open.length - 1].id
    : encounters.length ? encounters[encounters.length - 1].id : null);
  // The latest actions only: a long fight's whole record is a paged read.
  const head = id ? await page.api.get(`encounters/${id}?limit=1`) : null;
  const encounter = head && head.actions_total > 1
    ? await page.api.get(`encounters/${id}?offset=${Math.max(0, head.actions_total - 100)}&limit=100`)
    : head;
  // The open fights not on the board (the GM picked another encounter): their combatants
  // as each has them, for the roster's cards (an open fight owns its combatants' tracks;
  // the campaign's entry for them waits for its end).
  const elsewhere = {};
  for (const other of open.filter((e) => e.id !== id)) {
    const fight = await page.api.get(`encounters/${other.id}?limit=1`);
    for (const c of fight.combatants) if (c.present !== false) elsewhere[c.id] = c;
  }
  if (mine < drawn) return; // a newer read has drawn already: this answer is older
  drawn = mine;
  Object.assign(page, { campaign, ruleset, encounter, elsewhere });
  parts.draw();
}

export function refreshSoon() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => refresh().catch((e) => showError(e)), 40);
}

// A step of the table (next turn, a round, the order, the end) pressed on `control`;
// `options` as writes.js's press takes them (the fields it resets once done).
export function turnStep(path, body, control, options) {
  if (!live()) return Promise.resolve();
  return press(control, async () => {
    await write(page.api, "POST", `encounters/${page.encounter.id}/${path}`, body);
    clearMessage();
    await refresh();
  }, options);
}
