// The turn order: whose turn it is, and the GM's order (set from the board, changed
// with the arrows, saved as a recorded event).
import { $, ApiError, el } from "/static/skald.js";
import { clearMessage, page, refresh, showError, turnStep } from "/static/gmpage.js";

export function renderOrder(enc, names, turn) {
  const order = (turn.order || []).map((o) => (typeof o === "string" ? o : o.id));
  const draft = order.length ? order : enc.combatants.map((c) => c.id);
  const move = (i, by) => {
    if (!order.length) {
      const next = draft.slice();
      [next[i], next[i + by]] = [next[i + by], next[i]];
      saveOrder(next);
      return;
    }
    turnStep("order/move", { combatant: draft[i], direction: by < 0 ? "up" : "down" });
  };
  const rolled = turn.initiative || {};
  const arrows = (id, i) => enc.ended ? [] : [
    i > 0 ? el("button", { type: "button", class: "secondary", title: `${names[id]} earlier`,
      "aria-label": `${names[id]} earlier`, "data-earlier": id, onclick: () => move(i, -1) }, "↑") : null,
    i < draft.length - 1 ? el("button", { type: "button", class: "secondary",
      title: `${names[id]} later`, "aria-label": `${names[id]} later`, "data-later": id,
      onclick: () => move(i, 1) }, "↓") : null];
  $("turn-order").replaceChildren(
    ...draft.map((id, i) => el("span", { class: id === turn.current ? "current" : "", "data-turn": id },
      names[id] || id, rolled[id] !== undefined ? el("small", { "data-initiative": id },
        ` ${rolled[id]}`) : null, ...arrows(id, i))),
    ...(!order.length && !enc.ended ? [el("button", { type: "button", id: "set-order",
      onclick: () => saveOrder(draft) }, "Start turns in this order")] : []));
}

async function saveOrder(order) {
  try {
    const response = await fetch(`${page.api.base}/encounters/${page.encounter.id}/order`, {
      method: "PUT", headers: { ...page.api.headers, "content-type": "application/json" },
      body: JSON.stringify({ order }) });
    const body = await response.json();
    if (!response.ok) throw new ApiError(response.status, body);
    clearMessage();
    await refresh();
  } catch (error) { showError(error); }
}
