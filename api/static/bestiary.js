// The campaign's bestiary (issue 23, docs/table.md): sheets the GM saved, enrolled again
// as a numbered pack of NPCs ("3 x Goblin" -> Goblin 1, Goblin 2, Goblin 3, numbered by the
// server on from the campaign's highest). A sheet is saved from the enrolment form or from
// a character's amendment form (save); the server validates it with the ruleset's sheet
// model and names a bad field.
import { $, ApiError, el } from "/static/skald.js";

export function bestiaryBox({ page, refresh, show }) {
  let entries = [];
  const listeners = [];
  const pick = $("bestiary-entry");
  const say = (text) => $("bestiary-message").replaceChildren(el("p", { class: "caption" }, text));
  const fail = (error) => show(error, "bestiary-message");

  async function send(method, path, body) {
    const init = { method, headers: { ...page.api.headers } };
    if (body !== undefined) {
      init.headers["content-type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(`${page.api.base}/bestiary${path}`, init);
    const answer = await response.json();
    if (!response.ok) throw new ApiError(response.status, answer);
    return answer;
  }

  function render() {
    const chosen = pick.value;
    pick.replaceChildren(...entries.map((e) =>
      el("option", { value: e.id, selected: e.id === chosen }, e.name)));
    $("bestiary-enrol").disabled = $("bestiary-remove").disabled = !entries.length;
    $("bestiary-empty").hidden = entries.length > 0;
    for (const listener of listeners) listener();
  }

  async function load() {
    entries = await send("GET", "");
    render();
  }

  // Saved under its name: a new entry, or the entry of that name (any case) changed.
  async function save(name, sheet) {
    $("bestiary-box").open = true;
    try {
      const same = entries.find((e) => e.name.toLowerCase() === name.trim().toLowerCase());
      const saved = same ? await send("PUT", `/${same.id}`, { name: same.name, sheet })
        : await send("POST", "", { name, sheet });
      await load();
      pick.value = saved.id;
      say(`${saved.name} ${same ? "updated in" : "saved to"} the bestiary.`);
    } catch (error) { fail(error); }
  }

  async function enrol(event) {
    event.preventDefault();
    try {
      const made = await page.api.post(`bestiary/${pick.value}/enrol`,
        { count: parseInt($("bestiary-count").value, 10) || 1 });
      say(`Enrolled ${made.map((c) => c.name).join(", ")}.`);
      $("result").replaceChildren();
      await refresh();
    } catch (error) { fail(error); }
  }

  async function remove() {
    const entry = entries.find((e) => e.id === pick.value);
    if (!entry) return;
    try {
      await send("DELETE", `/${entry.id}`);
      await load();
      say(`${entry.name} removed from the bestiary.`);
    } catch (error) { fail(error); }
  }

  $("bestiary-form").addEventListener("submit", enrol);
  $("bestiary-remove").addEventListener("click", remove);
  $("bestiary-box").addEventListener("toggle", () => {
    if ($("bestiary-box").open) load().catch(fail);
  });
  load().catch(fail);
  return {
    save,
    entries: () => entries,
    changed: (listener) => listeners.push(listener),
  };
}

// A character's name as a bestiary entry's: "Goblin 2" was enrolled from "Goblin".
export const entryName = (name) => name.replace(/ [1-9][0-9]*$/, "");
