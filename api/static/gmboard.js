// The board: the roster's cards and the encounter's (tracks editable from their number,
// conditions and the GM's markers as chips), the attacks waiting for a defence, and the
// actions with their corrections (void, reroll, rewind; undo last), in an open fight and
// in an ended one (there after the API's preview of what the correction carries).
import { $, bar, chips, counters, el } from "/static/skald.js";
import { label } from "/static/rulesets.js";
import { askReason, confirmPreview, correct, previewCorrection, rerollDiceFields, showResult,
  typedRerollDice } from "/static/gmlog.js";
import { renderInitiativeDice, renderOrder } from "/static/gmorder.js";
import { renderDays } from "/static/gmdays.js";
import { clearMessage, live, page, pendingOf, refresh, select, showError } from "/static/gmpage.js";
import { enable, press, write } from "/static/writes.js";

// What a correction is called on its button and in its preview's title.
const CORRECTIONS = { void: "Void", reroll: "Reroll", rewind: "Rewind to before" };

// A record has something to reroll when it is one of the ruleset's actions (as /rulesets
// publishes them) that rolled dice: the table's records (initiative, turns, markers) and
// the GM's changes (tracks, sheets, joins) are voided or rewound, never rerolled, and an
// action that rolled nothing (a posture) has nothing to roll again.
const rerollable = (a) => Boolean(page.ruleset.actions[a.kind]) && (a.rolls || []).length > 0;
const TURN_BUTTONS = ["roll-initiative", "prev-turn", "next-turn", "delay-turn", "next-round",
  "end-encounter", "undo-last"];

function editTrack(c) {
  return { open: (track, current, control) => trackDialog(c, track, current, control),
    step: (track, current, by, control) => stepTrack(c, track, current, by, control) };
}

// `extra.edit` false: the numbers shown are not the character's now (an ended fight's
// last), so they are not edited from (a -1 sends "set to" the number seen minus one).
function combatantCard(c, maxima, extra = {}) {
  const enc = live();
  const posture = c.state && c.state.posture;
  const markers = enc && posture && posture.round === enc.round
    ? [{ name: posture.kind, kind: "posture", title: `${posture.kind} this round` }] : [];
  // The GM's markers (T2): neutral chips, with the rounds left.
  for (const m of (enc && enc.markers) || []) {
    if (m.target !== c.id) continue;
    const left = m.rounds_left === null ? "" : ` · ${m.rounds_left}`;
    markers.push({ name: m.name, kind: "marker", text: `${m.name}${left}`,
      title: `${m.note ? `${m.note}; ` : ""}${m.rounds_left === null ? "until removed"
        : `${m.rounds_left} round(s) left, counted at the ${m.at} of ${m.watch_name}'s turn`}` });
  }
  return el("article", { class: `card${page.selected === c.id ? " selected" : ""}`,
    "data-combatant-id": c.id, "data-character-id": c.id },
    el("h3", {}, c.name, el("span", { class: "where" }, extra.where || "")),
    Object.entries(c.tracks).map(([name, value]) => bar(name, value, (c.maxima || maxima)[name],
      extra.edit === false ? undefined : editTrack(c))),
    counters(c.state, page.ruleset.counters),
    chips(c.conditions, markers));
}

export function renderRoster() {
  const { campaign } = page;
  $("campaign-name").textContent = campaign.name;
  $("campaign-facts").textContent = `${campaign.ruleset} · day ${campaign.day}`;
  const onBoard = new Set(live() ? page.encounter.combatants.map((c) => c.id) : []);
  $("roster").replaceChildren(...campaign.characters.filter((c) => !onBoard.has(c.id)).map((c) => {
    // In another fight (one still open while the GM looks at an ended one): as that fight
    // has them, which owns their tracks until it ends (the campaign's entry waits).
    const fighting = page.elsewhere[c.id];
    const now = fighting ? { ...c, tracks: fighting.tracks, conditions: fighting.conditions,
      state: fighting.state } : c;
    const card = combatantCard(now, c.maxima, { where: c.in_encounter ? "in a fight" : "" });
    card.addEventListener("click", () => select(c.id));
    return card;
  }));
  const free = campaign.characters.filter((c) => !c.in_encounter);
  const typed = setupTyped();
  $("setup-rows").replaceChildren(...free.map((c) => el("div", { class: "setup-row" },
    el("input", { type: "checkbox", "data-character": c.id, "aria-label": `bring ${c.name}` }),
    el("span", {}, c.name),
    // An NPC (the bestiary's foes) comes as a foe, a PC with the party, as other trackers do.
    el("input", { "data-side": c.id, value: c.npc ? "foes" : "party",
      "aria-label": `${c.name}'s side` }),
    el("input", { "data-rank": c.id, type: "number", min: 1, max: 9, value: 1,
      "aria-label": `${c.name}'s rank` }))));
  keepTyped(typed);
  renderDays(page);
}

// What the GM has ticked and typed in the set-up rows. A live update (a character
// enrolled, a day passed, anything the feed brings) draws the rows again, and must not
// undo a tick or a side typed a moment before: a fight was started with one combatant
// that way, the other's tick wiped by an update that came between tick and Start.
function setupTyped() {
  const typed = new Map();
  for (const row of document.querySelectorAll("#setup-rows .setup-row")) {
    const [box, , side, rank] = row.children;
    typed.set(box.dataset.character, { checked: box.checked, side: side.value, rank: rank.value });
  }
  return typed;
}

function keepTyped(typed) {
  for (const row of document.querySelectorAll("#setup-rows .setup-row")) {
    const [box, , side, rank] = row.children;
    const was = typed.get(box.dataset.character);
    if (!was) continue; // a character new to the rows: as drawn
    box.checked = was.checked;
    side.value = was.side;
    rank.value = was.rank;
  }
}

export function renderBoard() {
  const enc = page.encounter;
  const picker = $("encounter-picker");
  picker.replaceChildren(...page.campaign.encounters.slice().reverse().map((e) =>
    el("option", { value: e.id, selected: enc && e.id === enc.id }, `${e.name}${e.open ? "" : " (ended)"}`)));
  for (const id of TURN_BUTTONS) enable($(id), Boolean(live()));
  const initiative = (page.campaign.options || {}).initiative || {};
  $("roll-initiative").hidden = initiative.mode !== "roll";
  renderInitiativeDice(live(), initiative);
  if (!enc) {
    $("board-caption").textContent = "No encounter yet: start one from the roster.";
    return;
  }
  const names = Object.fromEntries(enc.combatants.map((c) => [c.id, c.name]));
  const turn = enc.turn || {};
  $("board-title").textContent = `Encounter: ${enc.name}`;
  const passed = (turn.skipped || []).map((x) => x.why).join("; ");
  $("board-caption").textContent = `round ${enc.round}` +
    (turn.current ? ` · ${names[turn.current]}'s turn` : "") +
    (passed && !enc.ended ? ` · passed over: ${passed}` : "") +
    (enc.ended ? ` · ended${enc.end_reason ? `: ${enc.end_reason}` : ""}` : "");
  renderOrder(enc, names, turn);
  const sides = {};
  for (const c of enc.combatants) (sides[c.side] ||= []).push(c);
  $("sides").replaceChildren(...Object.entries(sides).map(([side, members]) =>
    el("div", { class: "side" }, el("h3", {}, side), members.map((c) => {
      const card = combatantCard(c, c.maxima, { where: `rank ${c.rank}`, edit: !enc.ended });
      card.addEventListener("click", () => select(c.id));
      return card;
    }))));
  renderPending(enc, names);
  renderActions(enc);
  enable($("undo-last"), Boolean(live() && lastActive(enc)));
}

function renderPending(enc, names) {
  // The dice the GM typed for an answer stay through a live update (drawn again below).
  const typed = typedDice("#pending [data-declare-dice]", "declareDice");
  $("pending").replaceChildren(...pendingOf(enc).map((x) => el("div", { class: "exchange",
    "data-exchange": x.number },
    x.summary || `${names[x.actor] || "?"} → ${names[x.defender] || "?"}`,
    // The GM answering for an NPC needs what the player's page shows its player: the hit
    // score a parry or dodge must reach (seed 001, S3).
    x.shown && x.shown.hit_score !== undefined
      ? el("p", { class: "hit-score", "data-hit-score": x.shown.hit_score },
        `Hit score ${x.shown.hit_score}` + (x.shown.hit && x.shown.hit.note
          ? ` (${x.shown.hit.note})` : "")) : null,
    el("div", { class: "caption" }, `waiting for ${x.awaiting || "the defender"}`),
    // The table's dice for the answer the GM gives for the defender (an NPC's parry, as a
    // player types theirs on /play); left empty, the server rolls.
    el("label", { class: "field" }, el("span", {}, `${names[x.defender] || "Defender"}'s dice ` +
      "(table dice; empty: the server rolls)"),
    el("input", { "data-declare-dice": x.number, inputmode: "numeric", placeholder: "3 3 3",
      value: typed.get(String(x.number)) || "" })),
    el("div", { class: "row wrap" },
      (x.choices || []).map((choice) => el("button", { type: "button", class: "secondary",
        "data-declare": choice, onclick: (event) => declare(x, choice, event.currentTarget) },
        `${names[x.defender] || "Defender"}: ${label(page.ruleset, choice)}`)),
      el("button", { type: "button", class: "danger", "data-withdraw": x.number,
        onclick: (event) => withdraw(x, event.currentTarget) }, "Withdraw")))));
  if (typed.focused) document.querySelector(`#pending [data-declare-dice="${typed.focused}"]`)?.focus();
  // A "waiting for" message whose exchange has been answered (here or on a phone) gives
  // way to what the answer did.
  const waiting = document.querySelector("#result [data-pending]");
  if (waiting) {
    const settled = (enc.exchanges || []).find((x) => String(x.number) === waiting.dataset.pending);
    if (settled && settled.status !== "pending") {
      const action = enc.actions.find((a) => a.number === settled.action);
      if (action) showResult(action); else clearMessage();
    }
  }
}

// What was typed in the inputs `selector` finds, by their data-`key` (a redraw keeps it),
// and which of them had the focus (`focused`), to give it back.
function typedDice(selector, key) {
  const inputs = [...document.querySelectorAll(selector)];
  const typed = new Map(inputs.filter((input) => input.value.trim())
    .map((input) => [input.dataset[key], input.value]));
  typed.focused = (inputs.find((input) => input === document.activeElement) || { dataset: {} })
    .dataset[key];
  return typed;
}

const faces = (text) => text.split(/[\s,]+/).filter(Boolean).map((v) => parseInt(v, 10));

// The answer, with the table's dice typed for it in the waiting attack's box (named as
// the roll preview names them: "Goblin 1's parry"); none for "no defence".
export function declare(exchange, choice, control) {
  const typed = document.querySelector(`#pending [data-declare-dice="${exchange.number}"]`);
  const body = { choice };
  if (typed && typed.value.trim() && choice !== "none") {
    const who = page.encounter.combatants.find((c) => c.id === exchange.defender);
    body.dice = { [`${who ? who.name : "defender"}'s ${choice}`]: faces(typed.value) };
  }
  return press(control, async () => {
    const done = await write(page.api, "POST",
      `encounters/${page.encounter.id}/exchanges/${exchange.number}/declare`, body);
    showResult(done);
    await refresh();
  });
}

async function withdraw(exchange, control) {
  const reason = await askReason("Withdraw this attack?");
  if (reason === null) return;
  await press(control, async () => {
    await write(page.api, "POST",
      `encounters/${page.encounter.id}/exchanges/${exchange.number}/withdraw`, { reason });
    clearMessage();
    await refresh();
  });
}

function renderActions(enc) {
  const fix = (kind, a) => el("button", { type: "button", class: "secondary",
    [`data-${kind}`]: a.number, onclick: (event) => runCorrection(kind, a, event.currentTarget) },
  CORRECTIONS[kind]);
  $("actions").replaceChildren(...enc.actions.slice().reverse().map((a) => el("li",
    { class: a.status, "data-action-number": a.number, value: a.number },
    el("details", { open: a.number === enc.actions.length && a.status === "active" },
      el("summary", {}, `round ${a.round}: ${a.summary}`,
        a.status !== "active" ? el("em", {}, ` (${a.status})`) : null),
      el("ol", { class: "narrative" }, (a.narrative || []).map((line) => el("li", {}, line)))),
    a.status === "active" ? el("div", { class: "row" },
      fix("void", a), rerollable(a) ? fix("reroll", a) : null, fix("rewind", a))
      : null)));
}

// A correction with its reason. In an open fight it is recorded at once (the fight is
// put right in itself). In an ended one it is carried through the campaign (the tracks
// handed back, later days healed, later fights), so the GM first sees what it changes,
// as the API's preview works it out, and records it or not. (The API previews an open
// fight's correction too, but not as it is made: a reroll there rolls new dice when it
// is recorded, and a void's tracks are the fight's, not the roster's the preview lists.)
//
// A reroll's reason dialog takes the table's new dice too (left empty: the server rolls).
async function runCorrection(kind, action, control) {
  const enc = page.encounter;
  const extra = kind === "reroll" ? await rerollDiceFields(page, action, enc.id) : [];
  const reason = await askReason(`${kind} action #${action.number}: ${action.summary}`, "",
    extra);
  if (reason === null) return;
  const dice = kind === "reroll" ? typedRerollDice() : {};
  if (!enc.ended) {
    await press(control, async () => {
      await correct(page, kind, action, reason, enc.id, dice);
      await refresh();
    });
    return;
  }
  const preview = await press(control,
    () => previewCorrection(page, kind, action, reason, enc.id, dice));
  if (!preview) return;
  const title = `${CORRECTIONS[kind]} #${action.number} of ${enc.name} (ended): what it changes`;
  const recorded = await confirmPreview(title, preview,
    () => correct(page, kind, action, reason, enc.id, dice));
  if (recorded) await refresh().catch((error) => showError(error));
}

const lastActive = (enc) => enc.actions.slice().reverse().find((a) => a.status === "active");

// One click: the last action voided, the reason written for the GM (still on record).
// An undo whose answer was lost is asked again for the same action (the same request, so
// the same key): the server may have voided it, and the last standing one is another.
export function undoLast() {
  const control = $("undo-last");
  return press(control, async () => {
    await refresh(); // the last action as the server has it, not as this page last drew it
    const enc = live();
    const unanswered = enc && enc.actions.find((a) => String(a.number) === control.dataset.undoing);
    const action = unanswered || (enc && lastActive(enc));
    if (!action) return;
    control.dataset.undoing = action.number;
    try {
      await correct(page, "void", action, `undo: #${action.number} entered by mistake (GM screen)`);
    } catch (error) {
      if (!error.lost) delete control.dataset.undoing;
      throw error;
    }
    delete control.dataset.undoing;
    await refresh();
  });
}

// A track's -1/+1: one press, one change, sent as "set to" the value the GM saw moved by
// one, so a request sent twice cannot move it twice.
function stepTrack(c, track, current, by, control) {
  return press(control, async () => {
    await write(page.api, "POST", `characters/${c.id}/tracks`, { set: { [track]: current + by },
      reason: `GM's call: ${c.name}'s ${track.replaceAll("_", " ")} ${current} → ${current + by}` });
    clearMessage();
    await refresh();
  });
}

async function trackDialog(c, track, current, control) {
  const dialog = $("track-dialog");
  $("track-title").textContent = `${c.name}: ${track.replaceAll("_", " ")} (now ${current})`;
  $("track-mode").value = "adjust";
  $("track-amount").value = "";
  $("track-reason").value = `GM's call: ${c.name}'s ${track.replaceAll("_", " ")}`;
  dialog.showModal();
  $("track-amount").focus();
  const ok = await new Promise((resolve) =>
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true }));
  const amount = parseInt($("track-amount").value, 10);
  const reason = $("track-reason").value.trim();
  if (!ok || Number.isNaN(amount) || !reason) return;
  await press(control, async () => {
    await write(page.api, "POST", `characters/${c.id}/tracks`,
      { [$("track-mode").value]: { [track]: amount }, reason });
    clearMessage();
    await refresh();
  });
}
