// The combat panel: the ruleset's actions for the selected combatant (forms from each
// action's published parameter schema, panel.js), Parry and Dodge beside Hit, and the
// shortcuts' way in (openFor).
import { $, el } from "/static/skald.js";
import { label, panelEntries, selfTargeted, shortcuts } from "/static/rulesets.js";
import { actionPanel } from "/static/panel.js";
import { showResult } from "/static/gmlog.js";
import { whoseTurn } from "/static/fight.js";
import { declare } from "/static/gmboard.js";
import { clearMessage, live, page, pendingOf, refresh, select, showError } from "/static/gmpage.js";

// The attack the panel's Parry/Dodge answer: the one waiting on the selected combatant,
// else the oldest one waiting.
function answering() {
  const waiting = pendingOf(live());
  return waiting.find((x) => x.defender === page.selected) || waiting[0] || null;
}

function panelButton(entry, id) {
  const ruleset = page.ruleset;
  if (entry.startsWith("declare:")) {
    const choice = entry.slice(8);
    const exchange = answering();
    const open = exchange && (exchange.choices || []).includes(choice);
    const names = Object.fromEntries(page.encounter.combatants.map((c) => [c.id, c.name]));
    return el("button", { type: "button", class: "secondary", "data-panel-declare": choice,
      disabled: !open, title: open ? `${names[exchange.defender]}: ${choice}` : "no attack waits for a defence",
      onclick: () => declare(exchange, choice) }, label(ruleset, choice));
  }
  const action = page.ruleset.actions[entry];
  return el("button", { type: "button", "data-kind": entry, title: action.description,
    "aria-keyshortcuts": keyOf(entry),
    onclick: () => { clearMessage(); panel.open(entry, id); } }, label(ruleset, entry));
}

export function renderPanel() {
  const enc = live();
  const who = enc && enc.combatants.find((c) => c.id === page.selected);
  // Whose turn it is leads the caption, whoever the GM picked to act.
  const turn = enc ? whoseTurn(enc) : "";
  if (!who) {
    panel.close();
    const hint = page.encounter && page.encounter.ended
      ? "The encounter has ended." : page.selected ? "Between fights: the GM's changes below."
        : "Pick a combatant on the board.";
    $("panel-caption").textContent = turn ? `${turn}. ${hint}` : hint;
    $("action-buttons").replaceChildren();
    return;
  }
  $("panel-caption").textContent = `${turn} · ${who.name} acts`;
  $("action-buttons").replaceChildren(...panelEntries(page.ruleset)
    .map((entry) => panelButton(entry, who.id)));
}

export const panel = actionPanel({
  context: () => page,
  done: async (response) => {
    // The form folds away once it is done: the answer (or the defender's choices) stands
    // right under the panel's buttons, Parry and Dodge beside Hit.
    panel.close();
    showResult(response, { declare, words: (c) => label(page.ruleset, c) });
    await refresh();
    $("panel-section").scrollIntoView({ block: "start" });
  },
  fail: (error) => showError(error),
  gm: true,
});

// The key the ruleset gives an action, if any (rulesets.js `shortcuts`).
function keyOf(kind) {
  const found = Object.entries(shortcuts(page.ruleset)).find(([, action]) => action === kind);
  return found ? found[0] : null;
}

// Who a key's action opens for: the selected combatant for an action done to the one who
// acts (a hit taken), else whoever's turn it is.
const forWhom = (kind) => {
  const turn = (page.encounter.turn || {}).current;
  return selfTargeted(page.ruleset, kind) ? page.selected || turn : turn || page.selected;
};

// The ruleset's keys for its actions, each with the words the keyboard list shows.
export function actionKeys() {
  return Object.entries(shortcuts(page.ruleset)).filter(([, kind]) => page.ruleset.actions[kind])
    .map(([key, kind]) => ({
      key,
      run: () => openFor(kind, forWhom(kind)),
      words: `${label(page.ruleset, kind)}, ${selfTargeted(page.ruleset, kind)
        ? "on the selected combatant" : "for whoever's turn it is"}`,
    }));
}

// A shortcut opens an action for a combatant, as a click on the card and the button would.
export function openFor(kind, id) {
  if (!live() || !id || !page.ruleset.actions[kind]) return;
  if (page.selected !== id) select(id);
  clearMessage();
  panel.open(kind, id);
  document.querySelector("#action-fields select, #action-fields input")?.focus();
}
