// The table display (/table): a TV or projector at the table, read with a viewer key.
// The turn order and whose turn it is, the party's bars, the foes by descriptor, the last
// roll large and each combatant's conditions and markers. No controls: it only shows.
import { $, client, el, follow, session, signInForm } from "/static/skald.js";
import { card, fightOf, sides, turnStrip, whoseTurn } from "/static/fight.js";

let api = null;
let refreshTimer = null;

function lastRoll(encounter) {
  const rolled = encounter.actions.filter((a) => a.status === "active" && (a.rolls || []).length);
  const last = rolled[rolled.length - 1]; // a GM's record (a marker) rolls nothing
  if (!last) return [el("p", { class: "caption" }, "No roll yet.")];
  return [
    el("p", { class: "dice" }, (last.rolls || []).map((roll) => el("span", { class: "roll",
      "data-roll": roll.name }, `${roll.name}: ${roll.faces.join(" ")} = ${roll.total}`))),
    el("p", { class: "summary", "data-action": last.number }, last.summary),
  ];
}

async function refresh() {
  const { campaign, encounter } = await fightOf(api);
  $("campaign-name").textContent = campaign.name;
  const fighting = encounter && !encounter.ended;
  $("whose-turn").textContent = fighting ? `${encounter.name} · ${whoseTurn(encounter)}`
    : "No fight under way.";
  $("initiative").replaceChildren(...(fighting ? [turnStrip(encounter)] : []));
  const { party, foes } = sides(campaign, fighting ? encounter : null);
  $("party").replaceChildren(...party.map((c) => card(c, fighting ? encounter : null)));
  $("foes").replaceChildren(...foes.map((c) => card(c, fighting ? encounter : null)));
  $("last-roll").replaceChildren(...(fighting ? lastRoll(encounter) : []));
}

async function start() {
  let current = session();
  if (!current.key) current = await signInForm($("sign-in-slot"), "Table display (viewer key)");
  api = client(current);
  const me = await api.get("me");
  if (me.role !== "viewer") {
    // The screen faces the whole table: a GM's or player's key would show what they see.
    $("whose-turn").textContent = "The table display takes a viewer key: issue one with " +
      "POST /campaigns/{id}/keys {\"role\": \"viewer\"}.";
    return;
  }
  await refresh();
  const head = await api.get("audit?limit=1");
  follow(api, head.projection.position, {
    entry: () => { clearTimeout(refreshTimer); refreshTimer = setTimeout(refresh, 40); },
    reset: refresh,
    state: (state) => { $("connection").dataset.state = state; },
  });
}

start();
