// The campaign's bestiary (issue 23, docs/table.md): sheets the GM saved, enrolled again
// as a numbered pack of NPCs ("3 x Goblin" -> Goblin 1, Goblin 2, Goblin 3, numbered by the
// server on from the campaign's highest). A sheet is saved from the enrolment form or from
// a character's amendment form (save); the server validates it with the ruleset's sheet
// model and names a bad field.
import { $, el } from "/static/skald.js";
import { enable, onSubmit, press, write } from "/static/writes.js";

export function bestiaryBox({ page, refresh, show }) {
  let entries = [];
  const listeners = [];
  const pick = $("bestiary-entry");
  const say = (text) => $("bestiary-message").replaceChildren(el("p", { class: "caption" }, text));
  const fail = (error) => show(error, "bestiary-message");

  const send = (method, path, body) => write(page.api, method, `bestiary${path}`, body);

  function render() {
    const chosen = pick.value;
    pick.replaceChildren(...entries.map((e) =>
      el("option", { value: e.id, selected: e.id === chosen }, e.name)));
    enable($("bestiary-enrol"), entries.length > 0);
    enable($("bestiary-remove"), entries.length > 0);
    $("bestiary-empty").hidden = entries.length > 0;
    for (const listener of listeners) listener();
  }

  async function load() {
    entries = await page.api.get(`${page.api.base}/bestiary`);
    render();
  }

  // Saved under its name: a new entry, or the entry of that name (any case) changed. The
  // caller presses it (writes.js): a failure is said next to its button.
  // A save whose answer was lost is sent again as it was (the same key): the entry it may
  // have made must not turn the retry into an update.
  let lost = null;
  async function save(name, sheet) {
    $("bestiary-box").open = true;
    const same = entries.find((e) => e.name.toLowerCase() === name.trim().toLowerCase());
    const asked = same ? ["PUT", `/${same.id}`, { name: same.name, sheet }]
      : ["POST", "", { name, sheet }];
    const request = lost && lost[3] === JSON.stringify([name, sheet]) ? lost : asked;
    let saved;
    try {
      saved = await send(request[0], request[1], request[2]);
      lost = null;
    } catch (error) {
      lost = error.lost ? [...request.slice(0, 3), JSON.stringify([name, sheet])] : null;
      throw error;
    }
    await load();
    pick.value = saved.id;
    say(`${saved.name} ${request[0] === "PUT" ? "updated in" : "saved to"} the bestiary.`);
  }

  async function enrol() {
    const made = await send("POST", `/${pick.value}/enrol`,
      { count: parseInt($("bestiary-count").value, 10) || 1 });
    say(`Enrolled ${made.map((c) => c.name).join(", ")}.`);
    $("result").replaceChildren();
    await refresh();
  }

  async function remove() {
    const entry = entries.find((e) => e.id === pick.value);
    if (!entry) return;
    await send("DELETE", `/${entry.id}`);
    await load();
    say(`${entry.name} removed from the bestiary.`);
  }

  onSubmit($("bestiary-form"), enrol);
  $("bestiary-remove").addEventListener("click", () => press($("bestiary-remove"), remove));
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
