// The GM screen's record: the reason dialog, corrections (void, reroll, rewind) with the
// diff they made, the preview of a correction of an ended fight before it is recorded,
// and what an action or a waiting attack says in the result box.
import { $, el } from "/static/skald.js";
import { clearProblem, enable, press, write } from "/static/writes.js";

// `extra`: more fields the question needs (a reroll's table dice), shown under the reason.
export function askReason(title, prefilled = "", extra = []) {
  const dialog = $("reason-dialog");
  $("reason-title").textContent = title;
  $("reason-input").value = prefilled;
  $("reason-extra").replaceChildren(...extra);
  // Escape closes a dialog without touching its returnValue: the last OK must not stand.
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      resolve(dialog.returnValue === "ok" && $("reason-input").value.trim()
        ? $("reason-input").value.trim() : null);
    }, { once: true });
  });
}

// A correction's request (void, reroll or rewind to before the action), or its preview's;
// a reroll's with the table's new dice, by roll name, where the GM typed them (the server
// rolls the others).
function correctionRequest(encounterId, kind, action, reason, preview, dice = {}) {
  const path = `encounters/${encounterId}`;
  const tail = preview ? "/preview" : "";
  const typed = kind === "reroll" && Object.keys(dice).length ? { dice } : {};
  return kind === "rewind"
    ? [`${path}/rewind${tail}`, { reason, to_version: action.version - 1 }]
    : [`${path}/actions/${action.number}/${kind}${tail}`, { reason, ...typed }];
}

// A correction with its reason, then its diff in the result box.
export async function correct(page, kind, action, reason, encounterId = page.encounter.id,
  dice = {}) {
  const [path, body] = correctionRequest(encounterId, kind, action, reason, false, dice);
  const done = await write(page.api, "POST", path, body);
  showDiff(kind, action, reason, done.report || []);
}

// What a correction would change through the whole campaign, as the API works it out
// (docs/corrections.md, "Preview first"); nothing is written.
export function previewCorrection(page, kind, action, reason, encounterId = page.encounter.id,
  dice = {}) {
  const [path, body] = correctionRequest(encounterId, kind, action, reason, true, dice);
  return page.api.post(path, body);
}

const words = (name) => String(name).replaceAll("_", " ");
// "stamina 2, body 10 (piercing wound)": tracks, then the named counters (those that
// moved), then conditions when there are any.
const stateText = ({ tracks, counters, conditions }, named = []) => [
  ...Object.entries(tracks || {}).map(([track, value]) => `${words(track)} ${value}`),
  ...named.filter((name) => typeof (counters || {})[name] === "number")
    .map((name) => `${words(name)} ${counters[name]}`),
].join(", ") + (conditions && conditions.length ? ` (${conditions.map(words).join(", ")})` : "");

// A row's before → after: its tracks, and of the counters the ruleset publishes beside
// them (a fatigue, a luck: in the preview since issue 39) those that moved, so a row
// whose tracks stay says what did change ("health 14, luck 0 → health 14, luck 1").
function changeText(before, after) {
  const was = before.counters || {};
  const now = after.counters || {};
  const moved = [...new Set([...Object.keys(was), ...Object.keys(now)])]
    .filter((name) => was[name] !== now[name]);
  return `${stateText(before, moved)} → ${stateText(after, moved)}`;
}

// Where a step of the campaign happened (the walk's steps: docs/corrections.md).
function stepWhere(step) {
  if (step.kind === "encounter") return `after ${step.encounter}`;
  if (step.kind === "heal") return `day ${step.day}'s heal`;
  if (step.kind === "wound") return `wound ${words(step.wound)}`;
  return `${step.kind}${step.reason ? ` (${step.reason})` : ""}`;
}

// The preview's lines, as the API gives them: each action whose outcome changes (in any
// encounter), each character's step that changes (a fight's end, a day's heal, a GM
// change), then each character whose tracks or counters now change; before → after.
export function previewLines(preview) {
  return [
    ...(preview.actions || []).map((a) => el("li", { "data-preview-action": a.number,
      "data-encounter-id": a.encounter_id || "" },
    `${a.encounter ? `${a.encounter} ` : ""}#${a.number} ${a.status}: ${a.before || ""}` +
      `${a.after ? ` → ${a.after}` : ""}${a.why ? ` (${a.why})` : ""}`)),
    ...(preview.steps || []).map((s) => el("li", { "data-preview-step": s.kind,
      "data-character-id": s.character_id },
    `${stepWhere(s)}, ${s.name}: ${changeText(s.before, s.after)}`)),
    ...Object.entries(preview.characters || {}).map(([id, c]) => el("li",
      { "data-preview-character": id },
      `${c.name} now: ${changeText(c.before, c.after)}`)),
  ];
}

// What "Record it" runs for the preview on show (null: none shown), and whether it is
// under way.
let recording = null;
let writing = false;

function wirePreview(dialog, form, ok) {
  if (dialog.dataset.wired) return;
  dialog.dataset.wired = "yes";
  // Record it: one press (writes.js). The dialog stays open while the correction is
  // written (a second click joins the first) and closes once it is recorded; a refusal
  // is said beside the button, the dialog still open to read it and cancel.
  form.addEventListener("submit", (event) => {
    if (!event.submitter || event.submitter.value !== "ok") return; // Cancel: closed, nothing sent
    event.preventDefault();
    const record = recording;
    if (!record) return;
    press(ok, async () => {
      writing = true;
      try {
        await record();
      } finally {
        writing = false;
      }
      recording = null;
      dialog.close("ok");
    });
  });
  // Escape cancels, except while the correction is being written (it is on its way).
  dialog.addEventListener("cancel", (event) => { if (writing) event.preventDefault(); });
}

// Show a correction's preview; "Record it" runs `record` (which writes the correction),
// Cancel or Escape writes nothing. Resolves to true once recorded, false if not.
export function confirmPreview(title, preview, record) {
  const dialog = $("preview-dialog");
  const ok = $("preview-ok");
  wirePreview(dialog, $("preview-form"), ok);
  $("preview-title").textContent = title;
  $("preview-message").textContent = preview.message;
  $("preview-lines").replaceChildren(...previewLines(preview));
  clearProblem(ok);
  // A correction that changes nothing is refused by the API (409): nothing to record.
  enable(ok, !preview.changes_nothing);
  recording = record;
  dialog.returnValue = "";
  dialog.showModal();
  // The least destructive choice has the focus: Enter does not record unread.
  $("preview-cancel").focus();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      recording = null;
      resolve(dialog.returnValue === "ok");
    }, { once: true });
  });
}

// The report lists every action after the corrected one: those it moved, line by line;
// those it left as they were, counted (a line "X → X" for each read as a change).
function showDiff(kind, action, reason, report) {
  const moved = report.filter((r) => r.status !== "unchanged");
  const same = report.length - moved.length;
  $("result").replaceChildren(el("div", { class: "diff", "data-correction": kind },
    el("p", { class: "summary" }, `${kind} of #${action.number} recorded: ${reason}`),
    el("ul", {}, moved.map((r) => el("li", {},
      `#${r.number} ${r.status}: ${r.before || ""}${r.after ? ` → ${r.after}` : ""}${r.why ? ` (${r.why})` : ""}`))),
    same ? el("p", { class: "caption", "data-unchanged": same },
      `${same} later action${same === 1 ? "" : "s"} as before`) : null));
}

// A waiting attack shows the defender's choices right under the button that made it
// (`declare(exchange, choice)` answers for them, as Parry/Dodge in the panel do).
export function showResult(response, { declare, words = (c) => c } = {}) {
  if (response.status === "pending" && response.exchange) {
    const x = response.exchange;
    $("result").replaceChildren(el("div", { "data-pending": x.number },
      el("p", { class: "summary" }, x.summary),
      el("p", { class: "caption" }, `Waiting for ${x.awaiting}.`),
      declare ? el("div", { class: "row wrap" }, (x.choices || []).map((choice) =>
        el("button", { type: "button", class: "secondary", "data-result-declare": choice,
          onclick: () => declare(x, choice) }, words(choice)))) : null));
    return;
  }
  const action = response.action || response;
  $("result").replaceChildren(el("div", { "data-result": action.number || "" },
    el("p", { class: "summary" }, action.summary || ""),
    el("ol", { class: "narrative" }, (action.narrative || []).map((line) => el("li", {}, line)))));
}

// A reroll at a table that rolls its own dice: one field per roll the reroll takes or may
// take, named and sized as the API works them out from the action as it was resolved (its
// round, the state it met: GET .../actions/{n}/reroll/rolls), never from the fight as it
// stands now, whose pools may have changed since. A field left empty is rolled by the
// server. An action that rolls nothing: no fields. No answer: no fields, and why.
export async function rerollDiceFields(page, action, encounterId = page.encounter.id) {
  let rolls;
  try {
    rolls = await page.api.get(`encounters/${encounterId}/actions/${action.number}/reroll/rolls`);
  } catch (error) {
    return [el("p", { class: "caption", id: "reroll-dice-unread" },
      `The rolls of this reroll could not be read (${error.message}); the server rolls them.`)];
  }
  const named = [...(rolls.rolls || []), ...(rolls.may_follow || [])];
  if (!named.length) return [];
  return [el("fieldset", { class: "stack", id: "reroll-dice" },
    el("legend", {}, "The table's new dice (left empty: the server rolls)"),
    named.map((roll) => el("label", { class: "field", "data-roll-name": roll.name },
      el("span", {}, `${roll.name}: ${roll.count}d${roll.sides}` +
        (roll.when ? ` (only ${roll.when})` : "")),
      el("input", { "data-reroll-die": roll.name, inputmode: "numeric",
        placeholder: Array(roll.count).fill("·").join(" ") }))))];
}

// The faces typed into those fields, by roll name.
export function typedRerollDice() {
  const dice = {};
  for (const input of document.querySelectorAll("#reroll-dice [data-reroll-die]")) {
    const faces = input.value.split(/[\s,]+/).filter(Boolean).map((v) => parseInt(v, 10));
    if (faces.length) dice[input.dataset.rerollDie] = faces;
  }
  return dice;
}
