// The GM screen's record: the reason dialog, corrections (void, reroll, rewind) with the
// diff they made, and what an action or a waiting attack says in the result box.
import { $, el } from "/static/skald.js";
import { write } from "/static/writes.js";

export function askReason(title, prefilled = "") {
  const dialog = $("reason-dialog");
  $("reason-title").textContent = title;
  $("reason-input").value = prefilled;
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      resolve(dialog.returnValue === "ok" && $("reason-input").value.trim()
        ? $("reason-input").value.trim() : null);
    }, { once: true });
  });
}

// A correction with its reason, then its diff in the result box.
export async function correct(page, kind, action, reason) {
  const path = `encounters/${page.encounter.id}`;
  const done = kind === "rewind"
    ? await write(page.api, "POST", `${path}/rewind`, { reason, to_version: action.version - 1 })
    : await write(page.api, "POST", `${path}/actions/${action.number}/${kind}`, { reason });
  showDiff(kind, action, reason, done.report || []);
}

function showDiff(kind, action, reason, report) {
  $("result").replaceChildren(el("div", { class: "diff", "data-correction": kind },
    el("p", { class: "summary" }, `${kind} of #${action.number} recorded: ${reason}`),
    el("ul", {}, report.map((r) => el("li", {},
      `#${r.number} ${r.status}: ${r.before || ""}${r.after ? ` → ${r.after}` : ""}${r.why ? ` (${r.why})` : ""}`)))));
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
