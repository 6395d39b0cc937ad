// The player's page: their character's tracks, chips and ratings, whose turn it is, the
// declarations the table waits for from them, and their own actions on their turn. A key
// granted several characters plays one at a time: a switcher picks which (kept in the tab).
import { $, ApiError, bar, chips, client, counters, el, follow, ratings, session, signInForm }
  from "/static/skald.js";
import { label } from "/static/rulesets.js";
import { actionPanel } from "/static/panel.js";
import { card, logItems, markerChips, sides, turnStrip } from "/static/fight.js";
import { press, problem, write } from "/static/writes.js";

const LOG_LENGTH = 12;
const CHOSEN = "skald.play.character";

const page = { api: null, me: null, campaign: null, ruleset: null, encounter: null, chosen: null };
let refreshTimer = null;

function showError(error) {
  $("result").replaceChildren(problem(error, "p"));
  $("result").scrollIntoView({ block: "nearest" });
}

// The key's characters, in the campaign's order of enrolment (the key holds them as a set).
function myCharacters() {
  const mine = new Set(page.me.characters);
  return page.campaign.characters.filter((c) => mine.has(c.id));
}

// The character played: the one picked last in this tab, else the first enrolled.
function chosenCharacter() {
  const mine = myCharacters();
  const kept = sessionStorage.getItem(CHOSEN);
  return mine.find((c) => c.id === kept) || mine[0] || null;
}

function choose(characterId) {
  sessionStorage.setItem(CHOSEN, characterId);
  $("action-form").hidden = true; // a form begun for the other character is not theirs
  refresh().catch(showError);
}

// One button per character of the key, the played one pressed; each says when it is that
// character's turn or an attack on them waits for an answer. Only for several characters.
function renderSwitcher(turn, waiting) {
  const mine = myCharacters();
  const switcher = $("switcher");
  switcher.hidden = mine.length < 2;
  switcher.replaceChildren(...(mine.length < 2 ? [] : mine.map((c) => {
    const notes = [turn.current === c.id ? "turn" : "", waiting.some((x) => x.defender === c.id)
      ? "defend" : ""].filter(Boolean);
    const chosen = c.id === page.chosen;
    return el("button", { type: "button", class: chosen ? "" : "secondary", "data-switch": c.id,
      "aria-pressed": chosen ? "true" : "false", onclick: () => { if (!chosen) choose(c.id); } },
    [c.name, ...notes].join(" · "));
  })));
}

function render() {
  const mine = new Set(page.me.characters);
  const { campaign, encounter } = page;
  $("campaign-name").textContent = campaign.name;
  const live = new Map((encounter ? encounter.combatants : []).map((c) => [c.id, c]));
  $("mine").replaceChildren(...campaign.characters.filter((c) => c.id === page.chosen).map((c) => {
    const now = live.get(c.id) || c;
    return el("article", { class: "card", "data-character-id": c.id },
      el("h3", {}, c.name),
      Object.entries(now.tracks).map(([name, value]) => bar(name, value, (now.maxima || c.maxima)[name])),
      counters(now.state, page.ruleset.counters),
      chips(now.conditions), markerChips(encounter, c.id),
      // Their own ratings, as the ruleset names them (an HR bonus, an AC...): the
      // numbers they play with. Only the played character's: the key's own (T3).
      ratings(c.derived, (page.ruleset.presentation || {}).ratings));
  }));
  const names = Object.fromEntries((encounter ? encounter.combatants : []).map((c) => [c.id, c.name]));
  const turn = (encounter && encounter.turn) || {};
  const fighting = encounter && !encounter.ended;
  $("turn").textContent = fighting ? `${encounter.name}, round ${encounter.round}`
    + (turn.current ? ` · ${names[turn.current]}'s turn` : "") : "No fight under way.";
  $("order").replaceChildren(...(fighting ? [turnStrip(encounter)] : []));
  const { foes } = sides(campaign, fighting ? encounter : null);
  $("foes").replaceChildren(...foes.map((c) => card(c, encounter)));
  $("log").replaceChildren(...(encounter ? logItems(encounter, LOG_LENGTH) : []));
  const waiting = encounter ? (encounter.exchanges || []).filter((x) => mine.has(x.defender)
    && x.status === "pending") : [];
  // The dice a player is typing stay through a live update (the GM acting meanwhile): an
  // answer pressed after a redraw had gone without them, rolled by the server instead.
  const inputs = [...document.querySelectorAll("#pending [data-declare-dice]")];
  const typed = new Map(inputs.map((input) => [input.dataset.declareDice, input.value]));
  const focused = inputs.find((input) => input === document.activeElement);
  $("pending").replaceChildren(...waiting.map((x) => el("div", { class: "exchange",
    "data-exchange": x.number },
    `${names[x.actor] || "Someone"} attacks ${names[x.defender]}: your answer?`,
    hitScore(x),
    el("label", { class: "field" }, el("span", {}, "My dice (leave empty: the server rolls)"),
      el("input", { "data-declare-dice": x.number, inputmode: "numeric", placeholder: "3 3 3",
        value: typed.get(String(x.number)) || "" })),
    el("div", { class: "stack" }, (x.choices || []).map((choice) => el("div", { class: "row wrap" },
      el("button", { type: "button", "data-declare": choice,
        onclick: (event) => declare(x, choice, event.currentTarget) },
        choice === "none" ? "No defence" : choice[0].toUpperCase() + choice.slice(1)),
      el("span", { class: "answer-odds", "data-answer-odds": choice })))))));
  if (focused) {
    document.querySelector(`#pending [data-declare-dice="${focused.dataset.declareDice}"]`)?.focus();
  }
  // Odds are a help, not a must; an attack the GM rolled hidden has none to give (they
  // would tell its hit: the API answers 403), so none are asked.
  waiting.filter((x) => !x.hidden).forEach((x) => answerOdds(x).catch(() => {}));
  settleWaiting(encounter);
  followResult(encounter);
  renderSwitcher(fighting ? turn : {}, waiting);
  const played = fighting ? encounter.combatants.find((c) => c.id === page.chosen) : null;
  const acting = played && (!turn.current || turn.current === played.id) ? played : null;
  $("panel-caption").textContent = panelCaption(encounter, names, acting);
  if (!acting) $("action-form").hidden = true; // the form comes back on their turn
  renderOpponents(played);
  // Drawn again with the fight: what they said for last round ("has already acted in
  // round 1") is not what they say now.
  if ($("attack-odds-against").value && $("attack-odds-against").closest("details").open) {
    attackOdds();
  }
  $("action-buttons").replaceChildren(...(acting ? Object.entries(page.ruleset.actions)
    .filter(([, a]) => !a.gm_only)
    .map(([kind, a]) => el("button", { type: "button", "data-kind": kind, title: a.description,
      onclick: () => panel.open(kind, acting.id) }, label(page.ruleset, kind))) : []));
}

// The panel's caption names whose turn it is and the round ("Kara's turn · round 2"), and
// then what the table waits for: an answer to an attack (anyone's, "waiting for Bran's
// declaration (...)"), the played character acting, or the player switching to another of
// their characters whose turn it is. Drawn on every live update.
function panelCaption(encounter, names, acting) {
  if (!encounter || encounter.ended) return "Waiting for the fight.";
  const turn = encounter.turn || {};
  const whose = turn.current ? `${turn.current_name || names[turn.current]}'s turn · round ${encounter.round}`
    : `Round ${encounter.round}`;
  const waiting = (encounter.exchanges || []).filter((x) => x.status === "pending");
  if (waiting.length) return `${whose} · waiting for ${waiting.map((x) => x.awaiting).join(", ")}`;
  if (acting) return `${whose} · ${acting.name} acts`;
  const other = turn.current !== page.chosen && page.me.characters.includes(turn.current)
    ? names[turn.current] : null;
  return other ? `${whose}: switch to ${other} to act.` : whose;
}

// The character view's odds: each of my attacks against the opponent I pick.
function renderOpponents(acting) {
  const select = $("attack-odds-against");
  const foes = page.encounter ? page.encounter.combatants.filter((c) =>
    acting && c.side !== acting.side) : [];
  const chosen = select.value;
  select.replaceChildren(el("option", { value: "" }, "—"),
    ...foes.map((c) => el("option", { value: c.id, selected: c.id === chosen }, c.name)));
  select.dataset.acting = acting ? acting.id : "";
}

// The results that mean the attack did what it set out to (a double success is a success
// too, going further); each row's figure is their chance together.
const SUCCEEDS = new Set(["hit", "success", "double_success"]);

async function attackOdds() {
  const select = $("attack-odds-against");
  const box = $("attack-odds");
  if (!select.value || !select.dataset.acting) { box.replaceChildren(); return; }
  try {
    const found = await page.api.get(`encounters/${page.encounter.id}/combatants/` +
      `${select.dataset.acting}/odds?against=${encodeURIComponent(select.value)}`);
    const rows = found.attacks.map((attack) => {
      if (!attack.odds) return el("p", { class: "caption" }, `${attack.label}: ${attack.refused}`);
      // RULINGS T3a: a chance that would tell a foe's hidden numbers (its defenses, its AC)
      // is the GM's. The API gives no results then: no bar at 0%, which reads as "cannot hit".
      if (attack.odds.withheld && !attack.odds.results.length) {
        return el("p", { class: "caption", "data-attack": attack.label, "data-odds": "withheld" },
          `${attack.label}: no odds, they would tell ${found.against_name}'s hidden numbers`);
      }
      const wins = attack.odds.results.filter((r) => SUCCEEDS.has(r.result));
      const chance = wins.reduce((sum, r) => sum + r.decimal, 0);
      const shown = `${(chance * 100).toFixed(1)}%`;
      const fill = el("div", { class: "fill" });
      fill.style.width = shown;
      return el("div", { class: "odd", "data-attack": attack.label,
        title: wins.map((r) => `${r.result.replaceAll("_", " ")} ${r.probability}`).join(" + ") },
      el("span", {}, attack.label), el("div", { class: "bar" }, fill), el("span", {}, shown));
    });
    // Results that stand without the foe's hidden numbers (a chance to hit from the
    // attacker's own skill): what the foe's defense then makes of it is the GM's (T3a),
    // and the rows' labels say so.
    const partial = found.attacks.some((a) => a.odds && a.odds.withheld && a.odds.results.length);
    box.replaceChildren(...rows, ...(partial ? [el("p", { class: "caption", "data-odds": "partial" },
      `${found.against_name}'s defenses are the GM's: a hit may still be stopped.`)] : []));
  } catch (error) {
    box.replaceChildren(el("p", { class: "caption" }, error.message));
  }
}

// Beside each answer, the odds API's exact fractions of its results, the hit standing.
async function answerOdds(exchange) {
  const found = await page.api.get(`encounters/${page.encounter.id}/exchanges/${exchange.number}/odds`);
  for (const [choice, odds] of Object.entries(found.answers)) {
    const slot = document.querySelector(
      `[data-exchange="${exchange.number}"] [data-answer-odds="${choice}"]`);
    if (!slot) continue;
    slot.replaceChildren(...odds.results.map((r) => el("span", { class: "chance",
      "data-result": r.result, "data-probability": r.probability, title: `${(r.decimal * 100).toFixed(1)}%` },
    `${r.result.replaceAll("_", " ")} ${r.probability}`)));
  }
}

function declare(exchange, choice, control) {
  const typed = document.querySelector(`[data-declare-dice="${exchange.number}"]`);
  const faces = typed ? typed.value.split(/[\s,]+/).filter(Boolean).map((v) => parseInt(v, 10)) : [];
  const body = { choice };
  if (faces.length && choice !== "none") {
    // The roll's human name, as the roll preview gives it: "Bran's parry".
    const who = page.encounter.combatants.find((c) => c.id === exchange.defender);
    body.dice = { [`${who ? who.name : "defender"}'s ${choice}`]: faces };
  }
  return press(control, async () => {
    const done = await write(page.api, "POST",
      `encounters/${page.encounter.id}/exchanges/${exchange.number}/declare`, body);
    showResult(done.action || done);
    await refresh();
  });
}

// My attack's "waiting for" gives way to what it did once the defender has answered.
function settleWaiting(encounter) {
  const waiting = document.querySelector("#result [data-pending]");
  if (!waiting || !encounter) return;
  const settled = (encounter.exchanges || []).find((x) => String(x.number) === waiting.dataset.pending);
  if (!settled || settled.status === "pending") return;
  const action = encounter.actions.find((a) => a.number === settled.action);
  if (action) showResult(action); else $("result").replaceChildren();
}

// The fight the result box speaks of.
let resultFight = null;

// What the result box says of an action the GM has since voided, rerolled or rewound
// ("Bran recovers 6 Stamina", now 0) gives way to what the record says now.
function followResult(encounter) {
  const shown = document.querySelector("#result [data-result]");
  if (!shown || !encounter || resultFight !== encounter.id) return;
  const action = (encounter.actions || []).find((a) => String(a.number) === shown.dataset.result);
  const said = shown.querySelector(".summary");
  if (action && said && said.textContent !== summaryOf(action)) showResult(action);
}

// The hit score an attack waiting for its answer must be met by (seed 001, S3), as its
// defender answers it and its attacker waits: none where the exchange shows none.
function hitScore(x) {
  return x.shown && x.shown.hit_score !== undefined
    ? el("p", { class: "hit-score", "data-hit-score": x.shown.hit_score },
      `Hit score ${x.shown.hit_score}`) : null;
}

// An action's summary, and what became of it when it no longer stands ("voided").
const summaryOf = (action) => (action.status && action.status !== "active"
  ? `${action.summary || ""} (${action.status})` : action.summary || "");

function showResult(action) {
  resultFight = page.encounter ? page.encounter.id : null;
  // An attack that waits for its defender's answer says so (the board follows the answer).
  if (action.status === "pending" && action.exchange) {
    const x = action.exchange;
    $("result").replaceChildren(el("div", { "data-pending": x.number },
      el("p", { class: "summary" }, x.summary || ""),
      // The attacker's own hit score, which their defender (or the GM answering for an
      // NPC) is shown to answer (seed 001, S3): the player waits knowing it too.
      hitScore(x),
      el("p", { class: "caption" }, `Waiting for ${x.awaiting || "the defender"}.`)));
    return;
  }
  $("result").replaceChildren(el("div", { "data-result": action.number || "" },
    el("p", { class: "summary" }, summaryOf(action)),
    el("ol", { class: "narrative" }, (action.narrative || []).map((line) => el("li", {}, line)))));
}

const panel = actionPanel({
  context: () => page,
  done: async (response) => { showResult(response.action || response); await refresh(); },
  fail: showError,
});

async function refresh() {
  page.campaign = await page.api.get(page.api.base);
  if (!page.ruleset) page.ruleset = await page.api.get(`/rulesets/${page.campaign.ruleset}`);
  const chosen = chosenCharacter();
  page.chosen = chosen ? chosen.id : null;
  // The played character's fight; else one another of the key's characters is in.
  const fighting = chosen && chosen.in_encounter ? chosen
    : myCharacters().find((c) => c.in_encounter);
  page.encounter = fighting ? await page.api.get(`encounters/${fighting.in_encounter}`) : null;
  // What the result box says is of the fight it was said in: still readable once that
  // fight has ended, gone once another begins (the last fight's blow, its tracks since
  // corrected, read as this fight's).
  if (page.encounter && resultFight && page.encounter.id !== resultFight) {
    $("result").replaceChildren();
    resultFight = null;
  }
  render();
}

function refreshSoon() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => refresh().catch(showError), 40);
}

async function start() {
  let current = session();
  if (!current.key) current = await signInForm($("sign-in-slot"), "Open my character");
  page.api = client(current);
  page.me = await page.api.get("me");
  $("attack-odds-against").addEventListener("change", attackOdds);
  await refresh();
  const audit = await page.api.get("audit?limit=1");
  follow(page.api, audit.projection.position, {
    entry: refreshSoon, reset: refreshSoon,
    state: (state) => { $("connection").dataset.state = state;
      $("connection").textContent = state === "live" ? "live" : "reconnecting…"; },
  });
}

start().catch(showError);
