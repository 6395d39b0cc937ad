// Saved encounters (issue 36, docs/table.md): a named group of the bestiary's foes (how
// many of each entry, at which rank), saved once and set up again in one action: the
// server enrols them (numbered on: Goblin 4-6 after Goblin 1-3) and opens a new encounter
// with them and every PC not already in a fight, in one write. Every write is one press of
// its button (writes.js): one Idempotency-Key per intent, the button off while it is under
// way, a refusal said beside it.
import { $, el } from "/static/skald.js";
import { enable, press, write } from "/static/writes.js";

export function savedEncountersBox({ page, bestiary, refresh, show }) {
  let saved = [];
  const pick = $("saved-encounter");
  const say = (text) => $("saved-message").replaceChildren(el("p", { class: "caption" }, text));
  const fail = (error) => show(error, "saved-message");

  // One row per bestiary entry: how many of it (0: none) and their rank. Drawn again
  // whenever the bestiary is (re)loaded (opening the box reloads it), in place: the rows of
  // the entries still there stay as they are, so what the GM typed stays, and so does the
  // field they are typing in (a row drawn anew took the focus away mid-number, and the
  // keys typed after it went nowhere). A renamed entry's row is drawn anew, its numbers kept.
  function line(entry, count = 0, rank = 1) {
    return el("div", { class: "row wrap", "data-saved-line": entry.id, "data-name": entry.name },
      el("label", {}, `${entry.name} ×`, el("input", { type: "number", min: 0, max: 20,
        value: count, "data-count": entry.id, "aria-label": `how many ${entry.name}` })),
      el("label", {}, "rank", el("input", { type: "number", min: 1, max: 20,
        value: rank, "data-rank": entry.id, "aria-label": `${entry.name}'s rank` })));
  }

  function renderLines() {
    const box = $("saved-lines");
    if (!box.querySelector("legend")) {
      box.prepend(el("legend", {}, "Foes to save: how many, and their rank"));
    }
    const rows = new Map([...box.querySelectorAll("[data-saved-line]")]
      .map((row) => [row.dataset.savedLine, row]));
    const entries = bestiary.entries();
    const still = new Set(entries.map((e) => e.id));
    for (const [id, row] of rows) if (!still.has(id)) row.remove();
    let before = box.querySelector("legend");
    for (const entry of entries) {
      let row = rows.get(entry.id);
      if (row && row.dataset.name !== entry.name) {
        const renamed = line(entry, row.querySelector("[data-count]").value,
          row.querySelector("[data-rank]").value);
        row.replaceWith(renamed);
        row = renamed;
      }
      row ||= line(entry);
      if (before.nextElementSibling !== row) before.after(row); // only a new row moves
      before = row;
    }
  }

  function render() {
    const chosen = pick.value;
    pick.replaceChildren(...saved.map((s) => el("option", { value: s.id, selected: s.id === chosen },
      `${s.name}: ${s.foes.map((f) => `${f.count} × ${f.name}`).join(", ")}`)));
    enable($("saved-setup"), saved.length > 0);
    enable($("saved-remove"), saved.length > 0);
    $("saved-empty").hidden = saved.length > 0;
  }

  async function load() {
    saved = await page.api.get(`${page.api.base}/saved-encounters`);
    render();
  }

  async function save() {
    const foes = bestiary.entries().map((e) => ({ entry_id: e.id,
      count: parseInt(document.querySelector(`#saved-lines [data-count="${e.id}"]`).value, 10) || 0,
      rank: parseInt(document.querySelector(`#saved-lines [data-rank="${e.id}"]`).value, 10) || 1 }))
      .filter((line) => line.count > 0);
    const made = await write(page.api, "POST", "saved-encounters", { name: $("saved-name").value, foes });
    await load();
    pick.value = made.id;
    say(`${made.name} saved.`);
  }

  // The party is every PC not in a fight, as the page knows them when Set up is pressed.
  // A set-up whose answer was lost is asked again as it was (the same request, so the same
  // key): the fight it may have opened has taken the party, and a party read again would
  // make it another request, set up twice.
  let lost = null;
  async function setUp() {
    const chosen = saved.find((s) => s.id === pick.value);
    if (!chosen) return;
    const party = page.campaign.characters.filter((c) => !c.npc && !c.in_encounter)
      .map((c) => ({ character_id: c.id }));
    const request = lost && lost.id === chosen.id ? lost
      : { id: chosen.id, body: { combatants: party } };
    let fight;
    try {
      fight = await write(page.api, "POST", `saved-encounters/${request.id}/setup`, request.body);
      lost = null;
    } catch (error) {
      lost = error.lost ? request : null;
      throw error;
    }
    say(`${fight.name} set up: ${fight.combatants.map((c) => c.name).join(", ")}.`);
    page.chosen = fight.id;
    await refresh();
  }

  async function remove() {
    const chosen = saved.find((s) => s.id === pick.value);
    if (!chosen) return;
    await write(page.api, "DELETE", `saved-encounters/${chosen.id}`);
    await load();
    say(`${chosen.name} removed.`);
  }

  // Set up is the form's submit (its first button); a refusal is said beside it.
  $("saved-form").addEventListener("submit", (event) => {
    event.preventDefault();
    press($("saved-setup"), setUp);
  });
  // Saved, the foes' lines and the name go back to none (writes.js); refused, they stay.
  $("saved-save").addEventListener("click", () => press($("saved-save"), save,
    { reset: [$("saved-lines"), $("saved-name")] }));
  $("saved-remove").addEventListener("click", () => press($("saved-remove"), remove));
  bestiary.changed(() => { renderLines(); load().catch(fail); });
  renderLines();
  load().catch(fail);
}
