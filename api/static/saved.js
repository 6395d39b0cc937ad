// Saved encounters (issue 36, docs/table.md): a named group of the bestiary's foes (how
// many of each entry, at which rank), saved once and set up again in one action: the
// server enrols them (numbered on: Goblin 4-6 after Goblin 1-3) and opens a new encounter
// with them and every PC not already in a fight, in one write. A press of Set up is one
// intent: its Idempotency-Key is reused by a second click while the first is in flight.
import { $, ApiError, el } from "/static/skald.js";

export function savedEncountersBox({ page, bestiary, refresh, show }) {
  let saved = [];
  const pick = $("saved-encounter");
  const say = (text) => $("saved-message").replaceChildren(el("p", { class: "caption" }, text));
  const fail = (error) => show(error, "saved-message");

  async function send(method, path, body, key) {
    const init = { method, headers: { ...page.api.headers } };
    if (key) init.headers["idempotency-key"] = key;
    if (body !== undefined) {
      init.headers["content-type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(`${page.api.base}/saved-encounters${path}`, init);
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new ApiError(response.status, answer);
    return answer;
  }

  // One row per bestiary entry: how many of it (0: none) and their rank. Redrawn whenever
  // the bestiary is (re)loaded, keeping what the GM typed for the entries still there.
  function renderLines() {
    const typed = (kind, id, otherwise) =>
      document.querySelector(`#saved-lines [data-${kind}="${id}"]`)?.value ?? otherwise;
    $("saved-lines").replaceChildren(el("legend", {}, "Foes to save: how many, and their rank"),
      ...bestiary.entries().map((e) => el("div", { class: "row wrap", "data-saved-line": e.id },
        el("label", {}, `${e.name} ×`, el("input", { type: "number", min: 0, max: 20,
          value: typed("count", e.id, 0), "data-count": e.id, "aria-label": `how many ${e.name}` })),
        el("label", {}, "rank", el("input", { type: "number", min: 1, max: 20,
          value: typed("rank", e.id, 1), "data-rank": e.id, "aria-label": `${e.name}'s rank` })))));
  }

  function render() {
    const chosen = pick.value;
    pick.replaceChildren(...saved.map((s) => el("option", { value: s.id, selected: s.id === chosen },
      `${s.name}: ${s.foes.map((f) => `${f.count} × ${f.name}`).join(", ")}`)));
    $("saved-setup").disabled = $("saved-remove").disabled = !saved.length;
    $("saved-empty").hidden = saved.length > 0;
  }

  async function load() {
    saved = await send("GET", "");
    render();
  }

  async function save() {
    const foes = bestiary.entries().map((e) => ({ entry_id: e.id,
      count: parseInt(document.querySelector(`#saved-lines [data-count="${e.id}"]`).value, 10) || 0,
      rank: parseInt(document.querySelector(`#saved-lines [data-rank="${e.id}"]`).value, 10) || 1 }))
      .filter((line) => line.count > 0);
    const button = $("saved-save");
    button.disabled = true;
    try {
      const made = await send("POST", "", { name: $("saved-name").value, foes }, crypto.randomUUID());
      await load();
      pick.value = made.id;
      say(`${made.name} saved.`);
    } catch (error) { fail(error); } finally { button.disabled = false; }
  }

  let pressed = null; // the Set up press in flight: a second click is the same intent
  async function setUp(event) {
    event.preventDefault();
    const chosen = saved.find((s) => s.id === pick.value);
    if (!chosen) return;
    if (pressed) return;
    pressed = crypto.randomUUID();
    $("saved-setup").disabled = true;
    try {
      const party = page.campaign.characters.filter((c) => !c.npc && !c.in_encounter)
        .map((c) => ({ character_id: c.id }));
      const fight = await send("POST", `/${chosen.id}/setup`, { combatants: party }, pressed);
      say(`${fight.name} set up: ${fight.combatants.map((c) => c.name).join(", ")}.`);
      page.chosen = fight.id;
      await refresh();
    } catch (error) { fail(error); } finally {
      pressed = null;
      $("saved-setup").disabled = !saved.length;
    }
  }

  async function remove() {
    const chosen = saved.find((s) => s.id === pick.value);
    if (!chosen) return;
    try {
      await send("DELETE", `/${chosen.id}`, undefined, crypto.randomUUID());
      await load();
      say(`${chosen.name} removed.`);
    } catch (error) { fail(error); }
  }

  $("saved-form").addEventListener("submit", setUp);
  $("saved-save").addEventListener("click", save);
  $("saved-remove").addEventListener("click", remove);
  bestiary.changed(() => { renderLines(); load().catch(fail); });
  renderLines();
  load().catch(fail);
}
