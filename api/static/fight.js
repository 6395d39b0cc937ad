// What players and the audience see of a fight (RULINGS T3): the server sends each NPC's
// tracks as a descriptor ("hurt") unless the campaign shows NPCs' numbers, so these only
// draw what came. Shared by the player's page, the table display and the overlay.
// Stable ids and classes (docs/pages.md) let a stream's custom CSS restyle them.
import { bar, chips, el } from "/static/skald.js";

// The campaign and its open fight, as this key may read them.
export async function fightOf(api) {
  const campaign = await api.get(api.base);
  const open = (campaign.encounters || []).filter((e) => e.open);
  const encounter = open.length ? await api.get(`encounters/${open[open.length - 1].id}`) : null;
  return { campaign, encounter };
}

// The GM's markers on one combatant (RULINGS T2), each with the rounds it has left.
export function markerChips(encounter, id) {
  const standing = encounter ? (encounter.markers || []).filter((m) => m.target === id) : [];
  return el("div", { class: "chips markers" }, standing.map((m) => el("span", {
    class: "chip marker", "data-marker": m.name, title: m.note || null },
  m.rounds_left ? `${m.name} (${m.rounds_left} ${m.rounds_left === 1 ? "round" : "rounds"} left)`
    : m.name)));
}

// One combatant or character: its bars when the key sees numbers, else its descriptor;
// its conditions, and its markers when the fight is given.
export function card(who, encounter, maxima) {
  const tracks = who.tracks || {};
  const bars = Object.entries(tracks).map(([name, value]) => typeof value === "object"
    ? bar(name, value.current, value.max) : bar(name, value, (maxima || who.maxima || {})[name]));
  return el("article", { class: "card skald-card", "data-character-id": who.id,
    "data-side": who.side || null },
  el("h3", {}, who.name),
  who.descriptor ? el("p", { class: "descriptor", "data-descriptor": who.descriptor },
    who.descriptor) : bars,
  chips(who.conditions || []),
  encounter ? markerChips(encounter, who.id) : null);
}

// The initiative strip: whose turn it is, in order (the combatants, when none is set).
export function turnStrip(encounter) {
  const turn = encounter.turn || {};
  const order = turn.order && turn.order.length ? turn.order
    : encounter.combatants.filter((c) => c.present !== false).map((c) => ({ id: c.id, name: c.name }));
  return el("ol", { class: "turn-order skald-turn-order", "aria-label": "turn order" },
    order.map((entry) => el("li", { class: entry.id === turn.current ? "current" : null,
      "data-combatant-id": entry.id, "aria-current": entry.id === turn.current ? "true" : null },
    entry.name)));
}

export function whoseTurn(encounter) {
  const turn = encounter.turn || {};
  return turn.current_name ? `Round ${encounter.round} · ${turn.current_name}'s turn`
    : `Round ${encounter.round}`;
}

// Party and foes, as the campaign tells PCs from NPCs ("npc": true).
export function sides(campaign, encounter) {
  const npc = new Set(campaign.characters.filter((c) => c.npc).map((c) => c.id));
  const present = encounter ? encounter.combatants.filter((c) => c.present !== false) : [];
  return {
    party: present.filter((c) => !npc.has(c.id)),
    foes: present.filter((c) => npc.has(c.id)),
  };
}

// The fight's log as this key may read it, newest first.
export function logItems(encounter, count) {
  return encounter.actions.slice(-count).reverse().map((a) =>
    el("li", { "data-action": a.number, class: a.status !== "active" ? a.status : null },
      a.summary));
}
