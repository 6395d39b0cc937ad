// What the pages know about each ruleset beyond its published schemas: the names the
// seeds give to the panel's buttons and a starting sheet for a quick NPC. Forms
// themselves come from each action's published parameter schema, so a new action
// shows up with no page code (under its own name).
"use strict";

export const LABELS = {
  "stamina-body": { attack: "Hit", take_hit: "Damage (Take-hit)", recover: "Recover",
    treat_wound: "Treat wound", mark_wound: "Mark wound" },
  margin: { attack: "Attack", cast: "Cast", defend: "Defend", riposte: "Riposte", ward: "Ward" },
  d20: { attack: "Attack", shove: "Shove", grapple: "Grapple", maintain: "Maintain",
    escape: "Escape", throw: "Throw", release: "Release", stand_up: "Stand up",
    defensive_stance: "Defensive stance", trip: "Trip" },
};

export function label(ruleset, kind) {
  return (LABELS[ruleset] || {})[kind] || kind.replaceAll("_", " ");
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
