// Enrolling from the GM screen: a starter sheet, a bestiary entry or a copy of a character
// filled into the form the ruleset's sheet schema makes; NPC or PC (a PC's player gets a
// key at once); "3 x Goblin" enrols Goblin 1, Goblin 2 and Goblin 3. The form's sheet can
// be saved to the bestiary (bestiary.js) under its name.
import { $ } from "/static/skald.js";
import { batchKeys, onSubmit, press, write } from "/static/writes.js";
import { templates } from "/static/rulesets.js";
import { names, sheetForm } from "/static/sheetform.js";

export function enrolForm({ page, refresh, show, keys, bestiary }) {
  const from = $("enrol-from");
  const starters = templates(page.ruleset);
  let form = null;

  function options() {
    const previous = from.value;
    from.replaceChildren(...Object.keys(starters).map((name) => new Option(name, `t:${name}`)),
      ...bestiary.entries().map((e) => new Option(`bestiary: ${e.name}`, `b:${e.id}`)),
      ...page.campaign.characters.map((c) => new Option(`copy of ${c.name}`, `c:${c.id}`)),
      new Option("empty sheet", "e:"));
    if (previous) from.value = previous;
  }

  function fill() {
    const choice = from.value || "";
    const copied = page.campaign.characters.find((c) => c.id === choice.slice(2));
    const saved = bestiary.entries().find((e) => e.id === choice.slice(2));
    const sheet = choice.startsWith("t:") ? starters[choice.slice(2)]
      : saved ? saved.sheet : copied ? copied.sheet : {};
    $("enrol-name").value = choice.startsWith("t:") ? choice.slice(2).replace(/ \(.*\)$/, "")
      : saved ? saved.name : copied ? copied.name : "";
    form = sheetForm(page.ruleset.sheet_schema, sheet || {});
    $("enrol-sheet").replaceChildren(form.node);
  }

  // One press enrols them all ("3 x Goblin"), each its own request (and key).
  async function enrol() {
    const count = Math.max(1, parseInt($("enrol-count").value, 10) || 1);
    const pc = document.querySelector("input[name=enrol-kind]:checked").value === "pc";
    const player = $("enrol-player").value.trim();
    const sheet = form.read();
    await batchKeys($("enrol-form"), async (key) => {
      for (const [n, name] of names($("enrol-name").value.trim(), count).entries()) {
        // T3: an NPC's numbers are hidden from players; a PC carries its player's name.
        const made = await write(page.api, "POST", "characters", { name, sheet, npc: !pc,
          ...(pc && player ? { player } : {}) }, { key: key(n) });
        await refresh();
        if (pc && player) await keys.issue("player", made.id, player, key(`${n}-key`));
      }
    });
    $("result").replaceChildren();
    options(); // the roster's copies; the form then goes back to its defaults (writes.js)
  }

  function saveToBestiary() {
    press($("enrol-save"), () => bestiary.save($("enrol-name").value.trim(), form.read()));
  }

  options();
  fill();
  bestiary.changed(options);
  from.addEventListener("change", fill);
  // Done, the form is as first drawn (the first starter, NPC, no player): the next
  // enrolment is not this one again (a PC's player given a second key). Refused, it stays.
  onSubmit($("enrol-form"), enrol, { redraw: fill });
  $("enrol-save").addEventListener("click", saveToBestiary);
  $("ruleset-docs").href = `/rulesets/${page.campaign.ruleset}`;
}
