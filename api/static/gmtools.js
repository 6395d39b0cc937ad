// The GM's changes for the selected character: adjust or set tracks, amend the sheet
// (the sheet's own form: only the fields changed are sent) or save it to the bestiary,
// and the encounter's cast (leave, move rank, reinforcements). Each needs a reason,
// which stays on record; the server refuses what the ruleset would not accept.
import { el } from "/static/skald.js";
import { onSubmit, press, write } from "/static/writes.js";
import { changes, sheetForm } from "/static/sheetform.js";
import { entryName } from "/static/bestiary.js";

export function gmTools({ page, id, refresh, show, bestiary }) {
  let character = page.campaign.characters.find((c) => c.id === id);
  const enc = page.encounter && !page.encounter.ended ? page.encounter : null;
  const inFight = enc && enc.combatants.some((c) => c.id === id && c.present !== false);
  // Its tracks, then the ruleset's counters (a fatigue, a luck), which the track
  // route sets and adjusts as tracks.
  const tracks = [...Object.keys(character ? character.maxima : {}),
    ...Object.keys(page.ruleset.counters || {})];
  const reason = (key) => el("label", {}, "Reason (kept on record)",
    el("input", { "data-reason": key, required: true, maxlength: 500 }));
  // Each form's submit is one press (writes.js); done, the form goes back to its defaults.
  // Said in the result box right above the tools (where the screen says what went wrong).
  const said = { where: document.getElementById("result") };
  const submit = (form, task, redraw) => onSubmit(form, task, { ...said, redraw });
  const post = async (path, body, method = "POST") => {
    await write(page.api, method, path, body);
    document.getElementById("result").replaceChildren();
    await refresh();
  };
  const value = (form, name) => form.querySelector(`[name="${name}"]`).value;

  const adjust = el("form", { class: "stack", id: "gm-adjust" },
    el("div", { class: "row wrap" },
      el("label", {}, "Track",
        el("select", { name: "track" }, tracks.map((t) => el("option", { value: t }, t.replaceAll("_", " "))))),
      el("label", {}, "How", el("select", { name: "mode" },
        el("option", { value: "adjust" }, "adjust by"), el("option", { value: "set" }, "set to"))),
      el("label", {}, "Amount", el("input", { name: "amount", type: "number", required: true }))),
    reason("adjust"), el("button", { type: "submit" }, "Change the track"));
  submit(adjust, () => {
    const amount = parseInt(value(adjust, "amount"), 10);
    return post(`characters/${id}/tracks`, { [value(adjust, "mode")]: { [value(adjust, "track")]: amount },
      reason: adjust.querySelector("[data-reason]").value });
  });

  // The server checks the amended sheet and says what it refuses (novalidate: its words).
  let sheet = character ? sheetForm(page.ruleset.sheet_schema, character.sheet) : null;
  // The sheet as the form holds it (amended or not) saved as a bestiary entry: "Goblin 2"
  // under "Goblin", which it updates if the bestiary has one.
  const kept = character ? entryName(character.name) : "";
  const known = bestiary && bestiary.entries().some((e) => e.name.toLowerCase() === kept.toLowerCase());
  const save = sheet && bestiary ? el("button", { type: "button", class: "secondary",
    id: "gm-bestiary-save", onclick: (event) => {
      const button = event.currentTarget;
      press(button, () => bestiary.save(kept, sheet.read()), said);
    } }, known ? `Update ${kept} in the bestiary` : `Save to the bestiary as ${kept}`) : null;
  const amend = el("form", { class: "stack", id: "gm-amend", novalidate: true },
    el("h3", {}, "Amend the sheet"), sheet ? sheet.node : null,
    reason("amend"), el("div", { class: "row wrap" },
      el("button", { type: "submit" }, "Amend the sheet"), save));
  // Amended, the sheet's form is drawn again from the sheet as it now stands.
  const amended = () => {
    const now = page.campaign.characters.find((c) => c.id === id);
    if (!now || !sheet) return;
    const drawn = sheetForm(page.ruleset.sheet_schema, now.sheet);
    sheet.node.replaceWith(drawn.node);
    [character, sheet] = [now, drawn];
  };
  submit(amend, () => post(`characters/${id}/sheet`,
    { changes: changes(character.sheet, sheet.read()),
      reason: amend.querySelector("[data-reason]").value }), amended);

  const cast = [];
  if (inFight) {
    // A marker (T2): a name, a note, and how long (rounds counted at a turn's start or end).
    const standing = (enc.markers || []).filter((m) => m.target === id);
    const mark = el("form", { class: "stack", id: "gm-mark" }, el("h3", {}, "Markers"),
      el("ul", { class: "keys" }, standing.map((m) => el("li", { "data-marker-number": m.number },
        `${m.name}${m.rounds_left === null ? "" : ` (${m.rounds_left} left)`}`,
        el("button", { type: "button", class: "secondary", "data-unmark": m.number,
          onclick: (event) => remove(m, event.currentTarget) }, "Remove")))),
      el("div", { class: "row wrap" },
        el("label", {}, "Marker", el("input", { name: "marker", required: true, maxlength: 40,
          list: "marker-names" })),
        el("datalist", { id: "marker-names" }, ["prone", "hidden", "blessed", "on fire"]
          .map((n) => el("option", { value: n }))),
        el("label", {}, "Rounds", el("input", { name: "rounds", type: "number", min: 1, max: 100 })),
        el("label", {}, "Counted at", el("select", { name: "at" },
          el("option", { value: "end" }, "end of turn"), el("option", { value: "start" }, "start of turn"))),
        el("label", {}, "Whose turn", el("select", { name: "watch" },
          enc.combatants.map((c) => el("option", { value: c.id, selected: c.id === id }, c.name))))),
      el("label", {}, "Note", el("input", { name: "note", maxlength: 200 })),
      el("button", { type: "submit", class: "secondary" }, "Add marker"));
    const remove = (m, button) => press(button,
      () => post(`encounters/${enc.id}/markers/${m.number}`, undefined, "DELETE"), said);
    submit(mark, () => {
      const rounds = parseInt(value(mark, "rounds"), 10);
      return post(`encounters/${enc.id}/markers`, { target: id, name: value(mark, "marker"),
        ...(value(mark, "note") ? { note: value(mark, "note") } : {}),
        ...(Number.isNaN(rounds) ? {} : { rounds, watch: value(mark, "watch"), at: value(mark, "at") }) });
    });
    cast.push(mark);
    const move = el("form", { class: "row wrap", id: "gm-move" },
      el("label", {}, "Rank", el("input", { name: "rank", type: "number", min: 1, max: 20, required: true })),
      reason("move"), el("button", { type: "submit", class: "secondary" }, "Move to rank"));
    submit(move, () =>
      post(`encounters/${enc.id}/combatants/${id}/move`,
        { rank: parseInt(value(move, "rank"), 10), reason: move.querySelector("[data-reason]").value }));
    const leave = el("form", { class: "row wrap", id: "gm-leave" }, reason("leave"),
      el("button", { type: "submit", class: "danger" }, "Leaves the fight"));
    submit(leave, () => post(`encounters/${enc.id}/combatants/${id}/leave`,
      { reason: leave.querySelector("[data-reason]").value }));
    cast.push(move, leave);
  } else if (enc && character && !character.in_encounter) {
    const join = el("form", { class: "row wrap", id: "gm-join" },
      el("label", {}, "Side", el("input", { name: "side", required: true,
        value: character.npc ? "foes" : "party" })),
      reason("join"), el("button", { type: "submit", class: "secondary" }, "Joins the fight"));
    submit(join, () => post(`encounters/${enc.id}/combatants`,
      { character_id: id, side: value(join, "side"),
        reason: join.querySelector("[data-reason]").value }));
    cast.push(join);
  }
  return el("details", { class: "box", id: "gm-tools" },
    el("summary", {}, `GM changes: ${character ? character.name : ""}`), adjust, amend, ...cast);
}
