// What the pages show of a ruleset beyond its published schemas, read from what the
// ruleset itself publishes (GET /rulesets/{id}: `presentation`): the names its seed gives
// the panel's buttons, the panel's order, starter sheets for a quick NPC, the sheet fields
// a rolled initiative may add. Forms themselves come from each action's published
// parameter schema, so a new action, or a new ruleset, shows up with no page code (each
// action under its own name). Every helper takes the ruleset as /rulesets publishes it.
"use strict";

const shown = (ruleset) => (ruleset && ruleset.presentation) || {};

export function label(ruleset, kind) {
  const labels = shown(ruleset).labels || {};
  if (kind === "none" && !labels.none) return "No defence";
  return labels[kind] || kind.replaceAll("_", " ");
}

// A panel's title where the ruleset names it apart from its button (the Damage button
// that opens the Take-hit panel).
export function panelTitle(ruleset, kind) {
  return (shown(ruleset).panel_titles || {})[kind] || label(ruleset, kind);
}

// Parameters under the ruleset's own words, by parameter name.
export const paramTitles = (ruleset) => shown(ruleset).param_titles || {};

// The panel's entries for a ruleset: its own order first (a "declare:" entry answers the
// attack that waits for a defence), then any action it leaves out (a new action shows up
// with no page code). Actions the server records by itself (a round's bleeding) are not
// buttons.
export function panelEntries(ruleset) {
  const actions = ruleset.actions;
  const hidden = new Set(shown(ruleset).server_recorded || []);
  const order = (shown(ruleset).panel || []).filter((e) => e.startsWith("declare:") || e in actions);
  const rest = Object.keys(actions).filter((k) => !order.includes(k) && !hidden.has(k));
  return [...order, ...rest];
}

// Actions done to the one who acts as often as to another (the hit landed on them, their
// own wound): their target list offers the actor first.
export const selfTargeted = (ruleset, kind) => (shown(ruleset).self_targeted || []).includes(kind);

// T1: the sheet fields a rolled initiative may add (the options' published schema;
// tests/unit/test_page_templates.py keeps them equal).
export const initiativeFields = (ruleset) => shown(ruleset).initiative_add || [];

// The GM screen's keys that open an action's form, by key letter ("h": its attack), as
// the ruleset publishes them; each opens for whoever's turn it is, or for the selected
// combatant where the action is done to the one who acts (a hit taken).
export const shortcuts = (ruleset) => shown(ruleset).shortcuts || {};

// Starter sheets by name, each one its ruleset accepts (tests/unit/test_page_templates.py).
export const templates = (ruleset) => shown(ruleset).templates || {};
