// The campaign's options and the house-rule preview (issue 38, docs/corrections.md
// "House rules"): the options as the campaign has them, each one changeable here, and
// "Preview under these options" asks the server what the ended fights would have come
// to under the changed ones (POST .../rules/preview). It writes nothing, so it is the
// page's read client that asks, not writes.js; the answer is shown in a dialog, read-only.
import { $, el } from "/static/skald.js";
import { press } from "/static/writes.js";

const words = (name) => name.replaceAll("_", " ");

// One input per option, typed by the value the campaign has: yes/no a checkbox, a number
// a number, anything else (a word, the initiative's settings) its JSON.
function optionField(name, value) {
  const id = `rules-option-${name}`;
  let input;
  if (typeof value === "boolean") {
    input = el("input", { id, type: "checkbox", "data-option": name, "data-kind": "boolean",
      checked: value });
  } else if (typeof value === "number") {
    input = el("input", { id, type: "number", "data-option": name, "data-kind": "number",
      value: String(value) });
  } else {
    input = el("input", { id, "data-option": name, "data-kind": "json",
      value: JSON.stringify(value) });
  }
  return el("label", { class: typeof value === "boolean" ? "inline" : "" }, `${words(name)} `, input);
}

// The options that differ from the campaign's: all the preview needs.
function changedOptions(options) {
  const changed = {};
  for (const input of document.querySelectorAll("#rules-options [data-option]")) {
    const name = input.dataset.option;
    let value;
    if (input.dataset.kind === "boolean") value = input.checked;
    else if (input.dataset.kind === "number") value = input.value === "" ? null : Number(input.value);
    else {
      try {
        value = JSON.parse(input.value);
      } catch {
        throw new Error(`${words(name)}: not a value the page can read (JSON)`);
      }
    }
    if (JSON.stringify(value) !== JSON.stringify(options[name])) changed[name] = value;
  }
  return changed;
}

const tracksText = (tracks) => (tracks
  ? Object.entries(tracks).map(([k, v]) => `${k} ${v}`).join(", ") : "—");

function actionLine(action) {
  const head = `#${action.number} ${words(action.kind)}: `;
  const lines = [el("li", { "data-rules-action": action.number, "data-status": action.status },
    action.status === "needs_dice"
      ? `${head}${action.before} — ${action.why}`
      : action.status === "voided"
        ? `${head}${action.before} → no longer happens (${action.why})`
        : `${head}${action.before} → ${action.after}`)];
  for (const t of action.tracks) {
    lines.push(el("li", { class: "caption", "data-rules-tracks": t.id },
      `${t.name}: ${tracksText(t.before)} → ${tracksText(t.after)}`));
  }
  return lines;
}

function fightSection(fight) {
  const ends = Object.values(fight.tracks).map((t) =>
    el("li", { class: "caption" }, `${t.name} ends with ${tracksText(t.after)} (was ${tracksText(t.before)})`));
  return el("section", { "data-rules-fight": fight.encounter_id },
    el("h4", {}, fight.encounter),
    el("ul", { class: "preview-lines" }, fight.actions.flatMap(actionLine), ends));
}

function showPreview(answer) {
  const changedFights = answer.fights.filter((f) => f.actions.length);
  const asked = Object.keys(answer.changed_options).map(words).join(", ") || "none changed";
  $("rules-message").textContent =
    `Options: ${asked}. ${answer.fights_replayed} ended fight(s), ${answer.actions_replayed} ` +
    `action(s) replayed on their recorded dice: ` +
    (changedFights.length ? `${changedFights.length} fight(s) would have come out otherwise.`
      : "nothing would have come out otherwise.");
  $("rules-fights").replaceChildren(...changedFights.map(fightSection));
  const dialog = $("rules-dialog");
  dialog.showModal();
  $("rules-close").focus();
}

let drawnFor = "";

// Drawn again only when the campaign's options change: a refresh from the feed must not
// undo what the GM is trying.
export function renderRules(page) {
  const options = page.campaign.options || {};
  const identity = JSON.stringify(options);
  if (identity === drawnFor) return;
  drawnFor = identity;
  $("rules-options").replaceChildren(...Object.entries(options)
    .map(([name, value]) => optionField(name, value)));
}

export function wireRules(page) {
  const button = $("rules-preview");
  button.addEventListener("click", () => press(button, async () => {
    const changed = changedOptions(page.campaign.options || {});
    showPreview(await page.api.post(`rules/preview`, { options: changed }));
  }));
}
