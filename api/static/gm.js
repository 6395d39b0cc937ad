// The GM screen: the roster and the board, turn order, the ruleset's combat panel
// (forms from each action's published parameter schema), table dice by roll name,
// corrections with a reason and their diff, quick fixes (undo last, a track edited from
// its number), keys for players and viewers, and the keyboard (gmkeys.js).
import { $, ApiError, bar, chips, client, el, follow, remember, session, signIn, signInForm }
  from "/static/skald.js";
import { label, panelEntries } from "/static/rulesets.js";
import { actionPanel } from "/static/panel.js";
import { gmTools } from "/static/gmtools.js";
import { campaignMenu, keysBox, linkFor, onceCard } from "/static/keys.js";
import { enrolForm } from "/static/enrol.js";
import { shortcuts, themeToggle } from "/static/gmkeys.js";
import { askReason, correct, showResult } from "/static/gmlog.js";

const page = { api: null, campaign: null, ruleset: null, encounter: null, chosen: null,
  selected: null };
let refreshTimer = null;
let keys = null;

function showError(error, where = "result") {
  $(where).replaceChildren(el("p", { class: "error", role: "alert" },
    error instanceof ApiError ? `${error.status}: ${error.message}` : String(error.message || error)));
}

// A success leaves no stale message behind (an old error, a settled "waiting for").
function clearMessage() {
  $("result").replaceChildren();
}

// What is open on the board now, or null (none yet, or it has ended).
const live = () => (page.encounter && !page.encounter.ended ? page.encounter : null);
// The table's own records (docs/table.md): voided or rewound, never rerolled.
const TABLE_RECORDS = new Set(["initiative", "turn", "mark", "unmark", "expire"]);
const TURN_BUTTONS = ["roll-initiative", "prev-turn", "next-turn", "delay-turn", "next-round",
  "end-encounter", "undo-last"];

function editTrack(c) {
  return (track, current) => trackDialog(c, track, current);
}

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
    Object.entries(c.tracks).map(([name, value]) =>
      bar(name, value, (c.maxima || maxima)[name], editTrack(c))),
    chips(c.conditions, markers));
}

// -- the roster and the set-up forms --------------------------------------------------------

function renderRoster() {
  const { campaign } = page;
  $("campaign-name").textContent = campaign.name;
  $("campaign-facts").textContent = `${campaign.ruleset} · day ${campaign.day}`;
  const onBoard = new Set(live() ? page.encounter.combatants.map((c) => c.id) : []);
  $("roster").replaceChildren(...campaign.characters.filter((c) => !onBoard.has(c.id)).map((c) => {
    const card = combatantCard(c, c.maxima, { where: c.in_encounter ? "in a fight" : "" });
    card.addEventListener("click", () => select(c.id));
    return card;
  }));
  const free = campaign.characters.filter((c) => !c.in_encounter);
  $("setup-rows").replaceChildren(...free.map((c) => el("div", { class: "setup-row" },
    el("input", { type: "checkbox", "data-character": c.id, "aria-label": `bring ${c.name}` }),
    el("span", {}, c.name),
    el("input", { "data-side": c.id, value: "party", "aria-label": `${c.name}'s side` }),
    el("input", { "data-rank": c.id, type: "number", min: 1, max: 9, value: 1,
      "aria-label": `${c.name}'s rank` }))));
  $("days-plans").replaceChildren(...campaign.characters.map((c) => el("label", {},
    `${c.name}'s plan (JSON)`, el("input", { "data-plan": c.id, value: "{}" }))));
}

async function startEncounter(event) {
  event.preventDefault();
  const combatants = [...document.querySelectorAll("#setup-rows [data-character]:checked")]
    .map((box) => ({ character_id: box.dataset.character,
      side: document.querySelector(`[data-side="${box.dataset.character}"]`).value || "party",
      rank: parseInt(document.querySelector(`[data-rank="${box.dataset.character}"]`).value, 10) || 1 }));
  try {
    const started = await page.api.post("encounters", { name: $("setup-name").value, combatants });
    page.chosen = started.id;
    $("setup-box").open = false;
    clearMessage();
    await refresh();
  } catch (error) { showError(error); }
}

async function advanceDays(event) {
  event.preventDefault();
  try {
    // A plan that is not JSON is said so (showError), like the server's refusals.
    const plans = {};
    for (const input of document.querySelectorAll("#days-plans [data-plan]")) {
      const plan = JSON.parse(input.value || "{}");
      if (Object.keys(plan).length) plans[input.dataset.plan] = plan;
    }
    await page.api.post("days", { days: parseInt($("days-count").value, 10),
      default: JSON.parse($("days-default").value || "{}"), plans });
    clearMessage();
    await refresh();
  } catch (error) { showError(error); }
}

// -- the board -------------------------------------------------------------------------------

function renderBoard() {
  const enc = page.encounter;
  const picker = $("encounter-picker");
  picker.replaceChildren(...page.campaign.encounters.slice().reverse().map((e) =>
    el("option", { value: e.id, selected: enc && e.id === enc.id }, `${e.name}${e.open ? "" : " (ended)"}`)));
  for (const id of TURN_BUTTONS) $(id).disabled = !live();
  const initiative = (page.campaign.options || {}).initiative || {};
  $("roll-initiative").hidden = initiative.mode !== "roll";
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
      const card = combatantCard(c, c.maxima, { where: `rank ${c.rank}` });
      card.addEventListener("click", () => select(c.id));
      return card;
    }))));
  renderPending(enc, names);
  renderActions(enc);
  $("undo-last").disabled = !live() || !lastActive(enc);
}

// The turn order: whose turn it is, and the GM's order (set from the board, changed
// with the arrows, saved as a recorded event).
function renderOrder(enc, names, turn) {
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

const pendingOf = (enc) => (enc ? (enc.exchanges || []).filter((x) => x.status === "pending") : []);

function renderPending(enc, names) {
  $("pending").replaceChildren(...pendingOf(enc).map((x) => el("div", { class: "exchange",
    "data-exchange": x.number },
    x.summary || `${names[x.actor] || "?"} → ${names[x.defender] || "?"}`,
    el("div", { class: "caption" }, `waiting for ${x.awaiting || "the defender"}`),
    el("div", { class: "row wrap" },
      (x.choices || []).map((choice) => el("button", { type: "button", class: "secondary",
        "data-declare": choice, onclick: () => declare(x, choice) },
        `${names[x.defender] || "Defender"}: ${label(page.campaign.ruleset, choice)}`)),
      el("button", { type: "button", class: "danger", "data-withdraw": x.number,
        onclick: () => withdraw(x) }, "Withdraw")))));
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

async function declare(exchange, choice) {
  try {
    const done = await page.api.post(
      `encounters/${page.encounter.id}/exchanges/${exchange.number}/declare`, { choice });
    showResult(done);
    await refresh();
  } catch (error) { showError(error); }
}

async function withdraw(exchange) {
  const reason = await askReason("Withdraw this attack?");
  if (reason === null) return;
  try {
    await page.api.post(`encounters/${page.encounter.id}/exchanges/${exchange.number}/withdraw`,
      { reason });
    clearMessage();
    await refresh();
  } catch (error) { showError(error); }
}

function renderActions(enc) {
  const fix = (kind, a, text) => el("button", { type: "button", class: "secondary",
    [`data-${kind}`]: a.number, onclick: () => runCorrection(kind, a) }, text);
  $("actions").replaceChildren(...enc.actions.slice().reverse().map((a) => el("li",
    { class: a.status, "data-action-number": a.number, value: a.number },
    el("details", { open: a.number === enc.actions.length && a.status === "active" },
      el("summary", {}, `round ${a.round}: ${a.summary}`,
        a.status !== "active" ? el("em", {}, ` (${a.status})`) : null),
      el("ol", { class: "narrative" }, (a.narrative || []).map((line) => el("li", {}, line)))),
    !enc.ended && a.status === "active" ? el("div", { class: "row" },
      fix("void", a, "Void"), TABLE_RECORDS.has(a.kind) ? null : fix("reroll", a, "Reroll"),
      fix("rewind", a, "Rewind to before"))
      : null)));
}

async function runCorrection(kind, action, reason) {
  try {
    await correct(page, kind, action, reason);
    await refresh();
  } catch (error) { showError(error); }
}

const lastActive = (enc) => enc.actions.slice().reverse().find((a) => a.status === "active");

// One click: the last action voided, the reason written for the GM (still on record).
async function undoLast() {
  await refresh(); // the last action as the server has it, not as this page last drew it
  const enc = live();
  const action = enc && lastActive(enc);
  if (!action) return;
  await runCorrection("void", action, `undo: #${action.number} entered by mistake (GM screen)`);
}

async function trackDialog(c, track, current) {
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
  try {
    await page.api.post(`characters/${c.id}/tracks`,
      { [$("track-mode").value]: { [track]: amount }, reason });
    clearMessage();
    await refresh();
  } catch (error) { showError(error); }
}

// -- the combat panel ------------------------------------------------------------------------

// The attack the panel's Parry/Dodge answer: the one waiting on the selected combatant,
// else the oldest one waiting.
function answering() {
  const waiting = pendingOf(live());
  return waiting.find((x) => x.defender === page.selected) || waiting[0] || null;
}

function panelButton(entry, id) {
  const ruleset = page.campaign.ruleset;
  if (entry.startsWith("declare:")) {
    const choice = entry.slice(8);
    const exchange = answering();
    const open = exchange && (exchange.choices || []).includes(choice);
    const names = Object.fromEntries(page.encounter.combatants.map((c) => [c.id, c.name]));
    return el("button", { type: "button", class: "secondary", "data-panel-declare": choice,
      disabled: !open, title: open ? `${names[exchange.defender]}: ${choice}` : "no attack waits for a defence",
      onclick: () => declare(exchange, choice) }, label(ruleset, choice));
  }
  const action = page.ruleset.actions[entry];
  return el("button", { type: "button", "data-kind": entry, title: action.description,
    "aria-keyshortcuts": { attack: "h", take_hit: "d" }[entry] || null,
    onclick: () => { clearMessage(); panel.open(entry, id); } }, label(ruleset, entry));
}

function renderPanel() {
  const enc = live();
  const who = enc && enc.combatants.find((c) => c.id === page.selected);
  if (!who) {
    panel.close();
    $("panel-caption").textContent = page.encounter && page.encounter.ended
      ? "The encounter has ended." : page.selected ? "Between fights: the GM's changes below."
        : "Pick a combatant on the board.";
    $("action-buttons").replaceChildren();
    return;
  }
  $("panel-caption").textContent = `${who.name} acts`;
  $("action-buttons").replaceChildren(...panelEntries(page.campaign.ruleset, page.ruleset.actions)
    .map((entry) => panelButton(entry, who.id)));
}

function select(id) {
  page.selected = id;
  renderRoster();
  renderBoard();
  panel.close();
  renderPanel();
  $("gm-tools-slot").replaceChildren(gmTools({ page, id, refresh, show: showError }));
}

const panel = actionPanel({
  context: () => page,
  done: async (response) => {
    // The form folds away once it is done: the answer (or the defender's choices) stands
    // right under the panel's buttons, Parry and Dodge beside Hit.
    panel.close();
    showResult(response, { declare, words: (c) => label(page.campaign.ruleset, c) });
    await refresh();
    $("panel-section").scrollIntoView({ block: "start" });
  },
  fail: (error) => showError(error),
  gm: true,
});

// -- refresh and start -----------------------------------------------------------------------

async function refresh() {
  page.campaign = await page.api.get(page.api.base);
  if (!page.ruleset) page.ruleset = await page.api.get(`/rulesets/${page.campaign.ruleset}`);
  const encounters = page.campaign.encounters;
  const open = encounters.filter((e) => e.open);
  const id = page.chosen || (open.length ? open[open.length - 1].id
    : encounters.length ? encounters[encounters.length - 1].id : null);
  // The latest actions only: a long fight's whole record is a paged read.
  const head = id ? await page.api.get(`encounters/${id}?limit=1`) : null;
  page.encounter = head && head.actions_total > 1
    ? await page.api.get(`encounters/${id}?offset=${Math.max(0, head.actions_total - 100)}&limit=100`)
    : head;
  renderRoster();
  renderBoard();
  renderPanel();
}

function refreshSoon() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => refresh().catch((e) => showError(e)), 40);
}

async function turnStep(path, body = {}) {
  if (!live()) return;
  try {
    await page.api.post(`encounters/${page.encounter.id}/${path}`, body);
    clearMessage();
    await refresh();
  } catch (error) { showError(error); }
}

// A table with no campaign yet starts here: name and ruleset, and the GM key shown once.
function newCampaignForm(slot) {
  return new Promise((resolve) => {
    const name = el("input", { id: "new-campaign-name", required: true,
      placeholder: "The Sunken Crown" });
    const ruleset = el("select", { id: "new-campaign-ruleset" });
    fetch("/rulesets").then((r) => r.json()).then((all) => ruleset.replaceChildren(
      ...all.map((r) => el("option", { value: r.id }, `${r.title}`))));
    const form = el("form", { id: "new-campaign", class: "sign-in" },
      el("h2", {}, "…or start a new campaign"),
      el("label", {}, "Name ", name), el("label", {}, "Ruleset ", ruleset),
      el("button", { type: "submit", id: "new-campaign-create" }, "Create"));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const response = await fetch("/campaigns", { method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: name.value, ruleset: ruleset.value }) });
      const created = await response.json();
      if (!response.ok) {
        form.append(el("p", { class: "error", role: "alert" }, created.message || response.statusText));
        return;
      }
      signIn(created.id, created.gm_key);
      remember(created.id, created.gm_key, created.name);
      // Shown once: the server keeps only the key's hash.
      const card = onceCard({ id: "new-campaign-key", title: `${created.name} is ready`,
        secret: linkFor("/gm", created.id, created.gm_key),
        note: "Your GM link, with the GM key after '#', shown this once: keep it somewhere safe." });
      card.append(el("p", { class: "caption" }, "The key alone: ",
        el("code", { id: "gm-key-once", class: "once" }, created.gm_key)),
      el("button", { type: "button", id: "new-campaign-open", onclick: () => {
        slot.replaceChildren(); resolve(session());
      } }, "Open the GM screen"));
      slot.replaceChildren(card);
    });
    slot.append(form);
  });
}

async function start() {
  themeToggle($("theme-toggle"));
  // A key link pasted into this tab's address bar changes only the fragment: no load
  // happens by itself, so the screen reloads to take the link's campaign and key.
  addEventListener("hashchange", () => { if (location.hash.includes("key=")) location.reload(); });
  let current = session();
  if (!current.key) {
    const slot = $("sign-in-slot");
    const signedIn = signInForm(slot, "Open the GM screen");
    current = await Promise.race([signedIn, newCampaignForm(slot)]);
    slot.replaceChildren();
  }
  page.api = client(current);
  $("campaign-menu").replaceChildren(campaignMenu(current));
  $("encounter-picker").addEventListener("change", (e) => { page.chosen = e.target.value; refreshSoon(); });
  $("setup-form").addEventListener("submit", startEncounter);
  $("days-form").addEventListener("submit", advanceDays);
  $("next-turn").addEventListener("click", () => turnStep("turn"));
  $("prev-turn").addEventListener("click", () => turnStep("turn/previous"));
  $("delay-turn").addEventListener("click", () => turnStep("turn/delay"));
  $("roll-initiative").addEventListener("click", () => turnStep("initiative"));
  $("next-round").addEventListener("click", () => turnStep("round"));
  $("undo-last").addEventListener("click", undoLast);
  $("end-encounter").addEventListener("click", async () => {
    const reason = await askReason("End the encounter? (say why, e.g. 'foes fled')");
    if (reason === null) return;
    await turnStep("end", { reason });
  });
  await refresh();
  remember(current.campaign, current.key, page.campaign.name);
  $("campaign-menu").replaceChildren(campaignMenu(current));
  keys = keysBox({ page, show: showError });
  $("keys-slot").replaceChildren(keys.box);
  enrolForm({ page, refresh, show: showError, keys });
  shortcuts({
    n: () => turnStep("turn"),
    p: () => turnStep("turn/previous"),
    h: () => openFor("attack", (page.encounter.turn || {}).current || page.selected),
    d: () => openFor("take_hit", page.selected || (page.encounter.turn || {}).current),
    u: undoLast,
  });
  const audit = await page.api.get("audit?limit=1");
  follow(page.api, audit.projection.position, {
    entry: refreshSoon,
    reset: refreshSoon,
    state: (state) => { $("connection").dataset.state = state;
      $("connection").textContent = state === "live" ? "live" : "reconnecting…"; },
  });
}

// A shortcut opens an action for a combatant (whoever's turn it is for a hit, the
// selected one for damage taken), as a click on the card and the button would.
function openFor(kind, id) {
  if (!live() || !id || !page.ruleset.actions[kind]) return;
  if (page.selected !== id) select(id);
  clearMessage();
  panel.open(kind, id);
  document.querySelector("#action-fields select, #action-fields input")?.focus();
}

start().catch((e) => showError(e));
