// The turn order: whose turn it is, and the GM's order (set from the board, changed by
// dragging a chip onto another's place or with the arrows, which the keyboard reaches;
// saved as a recorded event); a rolled initiative with the table's dice (RULINGS T1).
import { $, el } from "/static/skald.js";
import { clearMessage, page, refresh, turnStep } from "/static/gmpage.js";
import { press, write } from "/static/writes.js";

// What the chips show now: a refresh that changes none of it leaves them in place, so a
// drag under way is not cut short by a live update replacing the chip being dragged.
let shown = "";

export function renderOrder(enc, names, turn) {
  const order = (turn.order || []).map((o) => (typeof o === "string" ? o : o.id));
  const draft = order.length ? order : enc.combatants.map((c) => c.id);
  const now = JSON.stringify([enc.id, enc.ended, draft, order.length, turn.current,
    turn.initiative || {}, draft.map((id) => names[id])]);
  if (now === shown && $("turn-order").childElementCount) return;
  shown = now;
  const move = (i, by, control) => {
    if (!order.length) {
      const next = draft.slice();
      [next[i], next[i + by]] = [next[i + by], next[i]];
      saveOrder(next, control);
      return;
    }
    turnStep("order/move", { combatant: draft[i], direction: by < 0 ? "up" : "down" }, control);
  };
  const rolled = turn.initiative || {};
  const arrows = (id, i) => enc.ended ? [] : [
    i > 0 ? el("button", { type: "button", class: "secondary", title: `${names[id]} earlier`,
      "aria-label": `${names[id]} earlier`, "data-earlier": id, onclick: (event) => move(i, -1, event.currentTarget) }, "↑")
      : null,
    i < draft.length - 1 ? el("button", { type: "button", class: "secondary",
      title: `${names[id]} later`, "aria-label": `${names[id]} later`, "data-later": id,
      onclick: (event) => move(i, 1, event.currentTarget) }, "↓") : null];
  const chip = (id, i) => {
    const node = el("span", { class: id === turn.current ? "current" : "", "data-turn": id },
      names[id] || id, rolled[id] !== undefined ? el("small", { "data-initiative": id },
        ` ${rolled[id]}`) : null, ...arrows(id, i));
    if (!enc.ended) droppable(node, id, draft);
    return node;
  };
  $("turn-order").replaceChildren(...draft.map(chip),
    ...(!order.length && !enc.ended ? [el("button", { type: "button", id: "set-order",
      onclick: (event) => saveOrder(draft, event.currentTarget) }, "Start turns in this order")]
      : []));
}

// A chip dropped on another takes its place, the chips between move along one; the new
// order is recorded in one go (PUT .../order), however far the chip went.
function droppable(node, id, draft) {
  node.draggable = true;
  node.addEventListener("dragstart", (event) => {
    event.dataTransfer.setData("text/plain", id);
    event.dataTransfer.effectAllowed = "move";
  });
  node.addEventListener("dragover", (event) => {
    event.preventDefault(); // a drop is allowed here
    node.classList.add("drop-target");
  });
  node.addEventListener("dragleave", () => node.classList.remove("drop-target"));
  node.addEventListener("drop", (event) => {
    event.preventDefault();
    node.classList.remove("drop-target");
    const moved = event.dataTransfer.getData("text/plain");
    if (moved && moved !== id && draft.includes(moved)) saveOrder(placed(draft, moved, id), node);
  });
}

function placed(order, moved, onto) {
  const next = order.filter((x) => x !== moved);
  next.splice(order.indexOf(onto), 0, moved);
  return next;
}

function saveOrder(order, control) {
  return press(control, async () => {
    await write(page.api, "PUT", `encounters/${page.encounter.id}/order`, { order });
    clearMessage();
    await refresh();
  });
}

// T1: "table dice accepted". With a rolled initiative, one field per combatant present
// for the faces the table rolled (the campaign's initiative dice, e.g. 1d20, as the
// campaign's options say); Roll initiative sends them (POST .../initiative {dice}), and
// with an `each_round` initiative Next round does too (POST .../round {dice}: the new
// round's roll, docs/table.md); the server rolls the fields left empty. Drawn again only
// when the combatants change: a live update must not wipe the faces the GM is typing.
let diceFor = "";

export function renderInitiativeDice(enc, initiative) {
  const box = $("initiative-dice");
  box.hidden = !(enc && initiative.mode === "roll");
  if (box.hidden) return;
  $("initiative-dice-caption").textContent = initiative.each_round
    ? "Type each combatant's faces, then Roll initiative, or Next round for the new " +
      "round's roll; a field left empty is rolled by the server."
    : "Type each combatant's faces, then Roll initiative; a field left empty is rolled by the server.";
  const present = enc.combatants.filter((c) => c.present !== false);
  const dice = initiative.dice || "1d20";
  const identity = JSON.stringify([enc.id, dice, present.map((c) => [c.id, c.name])]);
  if (identity === diceFor) return;
  diceFor = identity;
  const typed = Object.fromEntries([...box.querySelectorAll("[data-initiative-die]")]
    .map((input) => [input.dataset.initiativeDie, input.value]));
  // What was typed is the field's value, not its default: a reset empties it.
  const field = (c) => Object.assign(el("input", { "data-initiative-die": c.id,
    inputmode: "numeric", placeholder: "server rolls" }), { value: typed[c.id] || "" });
  $("initiative-dice-rows").replaceChildren(...present.map((c) => el("label", {},
    `${c.name} (${dice})`, field(c))));
}

// The faces typed, by combatant id (a field left empty: none, the server rolls it).
function typedInitiative() {
  const fields = [...document.querySelectorAll("#initiative-dice [data-initiative-die]")];
  const dice = {};
  for (const input of fields) {
    const faces = input.value.split(/[\s,]+/).filter(Boolean).map((v) => parseInt(v, 10));
    if (faces.length) dice[input.dataset.initiativeDie] = faces;
  }
  return { fields, dice };
}

// Rolled, the fields are emptied (writes.js's reset): the next roll is a new one. Refused
// (a face off the die), they keep what was typed.
export function rollInitiative(control) {
  const { fields, dice } = typedInitiative();
  if (!page.encounter || page.encounter.ended) return Promise.resolve();
  return press(control, async () => {
    await write(page.api, "POST", `encounters/${page.encounter.id}/initiative`,
      Object.keys(dice).length ? { dice } : {});
    clearMessage();
    await refresh();
  }, { reset: fields });
}

// Next round: with an `each_round` initiative, the new round's roll takes the table's faces
// typed (in one request, POST .../round {dice}); without faces, or without that option, it
// sends no body (dice for a round that rolls none would be refused).
export function nextRound(control) {
  const initiative = ((page.campaign && page.campaign.options) || {}).initiative || {};
  const rolls = initiative.mode === "roll" && initiative.each_round;
  const { fields, dice } = rolls ? typedInitiative() : { fields: [], dice: {} };
  return turnStep("round", Object.keys(dice).length ? { dice } : undefined, control,
    { reset: fields });
}
