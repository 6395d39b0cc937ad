// Enrolling from the GM screen: a starter sheet (or a copy of a character) filled into
// the form the ruleset's sheet schema makes; NPC or PC (a PC's player gets a key at
// once); "3 x Goblin" enrols Goblin 1, Goblin 2 and Goblin 3.
import { $ } from "/static/skald.js";
import { TEMPLATES } from "/static/rulesets.js";
import { names, sheetForm } from "/static/sheetform.js";

export function enrolForm({ page, refresh, show, keys }) {
  const from = $("enrol-from");
  const starters = TEMPLATES[page.campaign.ruleset] || {};
  let form = null;

  function options() {
    const previous = from.value;
    from.replaceChildren(...Object.keys(starters).map((name) => new Option(name, `t:${name}`)),
      ...page.campaign.characters.map((c) => new Option(`copy of ${c.name}`, `c:${c.id}`)),
      new Option("empty sheet", "e:"));
    if (previous) from.value = previous;
  }

  function fill() {
    const choice = from.value || "";
    const copied = page.campaign.characters.find((c) => c.id === choice.slice(2));
    const sheet = choice.startsWith("t:") ? starters[choice.slice(2)]
      : copied ? copied.sheet : {};
    $("enrol-name").value = choice.startsWith("t:") ? choice.slice(2).replace(/ \(.*\)$/, "")
      : copied ? copied.name : "";
    form = sheetForm(page.ruleset.sheet_schema, sheet || {});
    $("enrol-sheet").replaceChildren(form.node);
  }

  async function enrol(event) {
    event.preventDefault();
    const count = Math.max(1, parseInt($("enrol-count").value, 10) || 1);
    const pc = document.querySelector("input[name=enrol-kind]:checked").value === "pc";
    const player = $("enrol-player").value.trim();
    try {
      const sheet = form.read();
      for (const name of names($("enrol-name").value.trim(), count)) {
        // T3: an NPC's numbers are hidden from players; a PC carries its player's name.
        const made = await page.api.post("characters", { name, sheet, npc: !pc,
          ...(pc && player ? { player } : {}) });
        await refresh();
        if (pc && player) await keys.issue("player", made.id, player);
      }
      $("enrol-count").value = 1;
      $("result").replaceChildren();
      options();
    } catch (error) { show(error); }
  }

  options();
  fill();
  from.addEventListener("change", fill);
  $("enrol-form").addEventListener("submit", enrol);
  $("ruleset-docs").href = `/rulesets/${page.campaign.ruleset}`;
}
