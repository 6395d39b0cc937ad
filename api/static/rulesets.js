// What the pages know about each ruleset beyond its published schemas: the names the
// seeds give to the panel's buttons and a starting sheet for a quick NPC. Forms
// themselves come from each action's published parameter schema, so a new action
// shows up with no page code (under its own name).
"use strict";

export const LABELS = {
  "stamina-body": { attack: "Hit", take_hit: "Damage", recover: "Recover",
    stabilise: "Stabilise", treat_wound: "Treat wound", mark_wound: "Mark wound",
    parry: "Parry", dodge: "Dodge", none: "No defence" },
  margin: { attack: "Attack", cast: "Cast", defend: "Defend", riposte: "Riposte", ward: "Ward" },
  d20: { attack: "Attack", shove: "Shove", grapple: "Grapple", maintain: "Maintain",
    escape: "Escape", throw: "Throw", release: "Release", stand_up: "Stand up",
    defensive_stance: "Defensive stance", trip: "Trip" },
};

// A panel's title where the seed names it apart from its button (seed 001: the Damage
// button opens the Take-hit panel), and parameters under the seed's own words.
export const PANEL_TITLES = { "stamina-body": { take_hit: "Take-hit" } };
export const PARAM_TITLES = {
  "stamina-body": { ignore_shield: "Ignore shield", ignore_armour: "Ignore armour",
    set_weapon: "Set weapon", extra_strength: "Use extra strength" },
};

// The combat panel's buttons in the seed's order; a "declare:" entry answers the attack
// that waits for a defence (seed 001: Parry and Dodge next to Hit, Damage and Recover).
// Actions the server records by itself (the round's bleeding) are not buttons.
export const PANEL = {
  "stamina-body": ["attack", "declare:parry", "declare:dodge", "take_hit", "recover",
    "stabilise", "treat_wound", "mark_wound"],
};
export const SERVER_RECORDED = { "stamina-body": ["bleed"] };

// T1: the sheet fields a rolled initiative may add, per ruleset (the options' published
// schema; tests/unit/test_page_templates.py keeps them equal).
export const INITIATIVE_ADD = {
  "stamina-body": ["dodge", "parry", "st", "con", "unarmed_skill"],
  margin: ["grace", "might", "vigor", "aether", "melee", "marksmanship", "evasion", "guard",
    "abjuration", "luck"],
  d20: ["dexterity", "strength", "constitution", "wisdom", "level"],
};

// Actions done to the one who acts as often as to another (the hit landed on them, their
// own wound): their target list offers the actor first.
export const SELF_TARGETED = { "stamina-body": ["take_hit", "treat_wound", "mark_wound"] };

export function label(ruleset, kind) {
  if (kind === "none" && !(LABELS[ruleset] || {}).none) return "No defence";
  return (LABELS[ruleset] || {})[kind] || kind.replaceAll("_", " ");
}

// The panel's entries for a ruleset: its own order first, then any action it leaves
// out (a new action shows up with no page code).
export function panelEntries(ruleset, actions) {
  const hidden = new Set(SERVER_RECORDED[ruleset] || []);
  const order = (PANEL[ruleset] || []).filter((e) => e.startsWith("declare:") || e in actions);
  const rest = Object.keys(actions).filter((k) => !order.includes(k) && !hidden.has(k));
  return [...order, ...rest];
}

// Each sheet is checked against its ruleset by a unit test (tests/unit/test_page_templates.py).
export const TEMPLATES = {
  "stamina-body": {
    "Goblin (template)": { st: 9, con: 10, parry: 10, dodge: 10, stamina_max: 10, body_max: 8,
      weapons: [{ name: "club", damage_class: 2, damage_type: "impact", skill: 11 }] },
    "Soldier (template)": { st: 12, con: 12, parry: 12, dodge: 10, stamina_max: 12, body_max: 10,
      armour_resilience: 2,
      weapons: [{ name: "spear", damage_class: 3, damage_type: "piercing", skill: 12 }] },
  },
  margin: {
    "Orc (template)": { might: 3, grace: 1, vigor: 2, aether: 0, melee: 2, race: "orc",
      weapons: [{ name: "axe", attribute: "might", skill: "melee", category: "melee",
        base_damage: 3, per_margin: 1, damage_type: "slash" }] },
  },
  d20: {
    "Bandit (template)": { strength: 12, dexterity: 12, constitution: 12, wisdom: 10, level: 1,
      hp: 10, save_vs_death_ray: 12, armor: "leather",
      weapons: [{ name: "short sword", damage: "1d6" }] },
  },
};
