// The GM screen: the roster and the board, turn order, the ruleset's combat panel
// (forms from each action's published parameter schema), table dice by roll name,
// corrections with a reason and their diff, encounter set-up, quick NPCs and days.
import { $, ApiError, bar, chips, client, el, follow, session, signIn, signInForm } from "/static/skald.js";
import { label, TEMPLATES } from "/static/rulesets.js";
import { actionPanel } from "/static/panel.js";
import { gmTools } from "/static/gmtools.js";

const page = { api: null, campaign: null, ruleset: null, encounter: null, chosen: null,
  selected: null };
let refreshTimer = null;

function showError(error, where = "result") {
  const box = $(where);
  box.replaceChildren(el("p", { class: "error", role: "alert" },
    error instanceof ApiError ? `${error.status}: ${error.message}` : String(error.message || error)));
}

function combatantCard(c, maxima, extra = {}) {
  return el("article", { class: `card${page.selected === c.id ? " selected" : ""}`,
    "data-combatant-id": c.id, "data-character-id": c.id, ...extra },
    el("h3", {}, c.name, el("span", { class: "where" }, extra.where || "")),
    Object.entries(c.tracks).map(([name, value]) => bar(name, value, (c.maxima || maxima)[name])),
    chips(c.conditions));
}

// -- the roster and the set-up forms --------------------------------------------------------

function renderRoster() {
  const { campaign } = page;
  $("campaign-name").textContent = campaign.name;
  $("campaign-facts").textContent = `${campaign.ruleset} · day ${campaign.day}`;
  const onBoard = new Set((page.encounter && !page.encounter.ended)
    ? page.encounter.combatants.map((c) => c.id) : []);
  $("roster").replaceChildren(...campaign.characters.filter((c) => !onBoard.has(c.id)).map((c) => {
    const card = combatantCard(c, c.maxima, { where: c.in_encounter ? "in a fight" : "" });
    card.addEventListener("click", () => select(c.id));
    return card;
  }));
  const free = campaign.characters.filter((c) => !c.in_encounter);
  $("setup-rows").replaceChildren(...free.map((c) => el("div", { class: "setup-row" },
    el("input", { type: "checkbox", "data-character": c.id, "aria-label": `bring ${c.name}` }),
    el("span", {}, c.name),
    el("input", { "data-side": c.id, value: "party", "aria-label": "side" }),
    el("input", { "data-rank": c.id, type: "number", min: 1, max: 9, value: 1, "aria-label": "rank" }))));
  const from = $("npc-from");
  const previous = from.value;
  from.replaceChildren(
    ...Object.keys(TEMPLATES[campaign.ruleset] || {}).map((name) => el("option", { value: `t:${name}` }, name)),
    ...campaign.characters.map((c) => el("option", { value: `c:${c.id}` }, `copy of ${c.name}`)));
  if (previous) from.value = previous;
  if (!$("npc-sheet").value) fillNpcSheet();
  $("days-plans").replaceChildren(...campaign.characters.map((c) => el("label", {},
    `${c.name}'s plan (JSON)`, el("input", { "data-plan": c.id, value: "{}" }))));
}

function fillNpcSheet() {
  const choice = $("npc-from").value || "";
  const sheet = choice.startsWith("t:")
    ? TEMPLATES[page.campaign.ruleset][choice.slice(2)]
    : (page.campaign.characters.find((c) => c.id === choice.slice(2)) || {}).sheet;
  $("npc-sheet").value = JSON.stringify(sheet || {}, null, 1);
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
    await refresh();
  } catch (error) { showError(error); }
}

async function addNpc(event) {
  event.preventDefault();
  try {
    await page.api.post("characters", { name: $("npc-name").value,
      sheet: JSON.parse($("npc-sheet").value) });
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
    await refresh();
  } catch (error) { showError(error); }
}

// -- the board -------------------------------------------------------------------------------

function renderBoard() {
  const enc = page.encounter;
  const picker = $("encounter-picker");
  picker.replaceChildren(...page.campaign.encounters.slice().reverse().map((e) =>
    el("option", { value: e.id, selected: enc && e.id === enc.id }, `${e.name}${e.open ? "" : " (ended)"}`)));
  if (!enc) { $("board-caption").textContent = "No encounter yet: start one from the roster."; return; }
  const names = Object.fromEntries(enc.combatants.map((c) => [c.id, c.name]));
  const turn = enc.turn || {};
  $("board-title").textContent = `Encounter: ${enc.name}`;
  $("board-caption").textContent = `round ${enc.round}` +
    (turn.current ? ` · ${names[turn.current]}'s turn` : "") + (enc.ended ? " · ended" : "");
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
  for (const id of ["next-turn", "next-round", "end-encounter"]) $(id).disabled = enc.ended;
}

// The turn order: whose turn it is, and the GM's order (set from the board, changed
// with the arrows, saved as a recorded event).
function renderOrder(enc, names, turn) {
  const order = (turn.order || []).map((o) => (typeof o === "string" ? o : o.id));
  const draft = order.length ? order : enc.combatants.map((c) => c.id);
  const move = (i, by) => {
    const next = draft.slice();
    [next[i], next[i + by]] = [next[i + by], next[i]];
    saveOrder(next);
  };
  $("turn-order").replaceChildren(
    ...draft.map((id, i) => el("span", { class: id === turn.current ? "current" : "", "data-turn": id },
      names[id] || id,
      i > 0 && !enc.ended ? el("button", { type: "button", class: "secondary", title: "earlier",
        "data-earlier": id, onclick: () => move(i, -1) }, "↑") : null)),
    !order.length && !enc.ended ? el("button", { type: "button", id: "set-order",
      onclick: () => saveOrder(draft) }, "Start turns in this order") : null);
}

async function saveOrder(order) {
  try {
    const response = await fetch(`${page.api.base}/encounters/${page.encounter.id}/order`, {
      method: "PUT", headers: { ...page.api.headers, "content-type": "application/json" },
      body: JSON.stringify({ order }) });
    const body = await response.json();
    if (!response.ok) throw new ApiError(response.status, body);
    await refresh();
  } catch (error) { showError(error); }
}

function renderPending(enc, names) {
  const pending = (enc.exchanges || []).filter((x) => x.status === "pending");
  $("pending").replaceChildren(...pending.map((x) => el("div", { class: "exchange",
    "data-exchange": x.number },
    x.summary || `${names[x.actor] || "?"} → ${names[x.defender] || "?"}`,
    el("div", { class: "caption" }, `waiting for ${x.awaiting || "the defender"}`),
    el("div", { class: "row wrap" },
      (x.choices || []).map((choice) => el("button", { type: "button", class: "secondary",
        "data-declare": choice, onclick: () => declare(x, choice) },
        choice === "none" ? "No defence" : `${names[x.defender] || "Defender"}: ${choice}`)),
      el("button", { type: "button", class: "danger", "data-withdraw": x.number,
        onclick: () => withdraw(x) }, "Withdraw")))));
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
    await refresh();
  } catch (error) { showError(error); }
}

function renderActions(enc) {
  $("actions").replaceChildren(...enc.actions.slice().reverse().map((a) => el("li",
    { class: a.status, "data-action-number": a.number, value: a.number },
    el("details", { open: a.number === enc.actions.length && a.status === "active" },
      el("summary", {}, `round ${a.round}: ${a.summary}`,
        a.status !== "active" ? el("em", {}, ` (${a.status})`) : null),
      el("ol", { class: "narrative" }, (a.narrative || []).map((line) => el("li", {}, line)))),
    !enc.ended && a.status === "active" ? el("div", { class: "row" },
      el("button", { type: "button", class: "secondary", "data-void": a.number, onclick: () => correct("void", a) }, "Void"),
      el("button", { type: "button", class: "secondary", "data-reroll": a.number, onclick: () => correct("reroll", a) }, "Reroll"),
      el("button", { type: "button", class: "secondary", "data-rewind": a.number, onclick: () => correct("rewind", a) }, "Rewind to before")) : null)));
}

function askReason(title) {
  const dialog = $("reason-dialog");
  $("reason-title").textContent = title;
  $("reason-input").value = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      resolve(dialog.returnValue === "ok" && $("reason-input").value.trim()
        ? $("reason-input").value.trim() : null);
    }, { once: true });
  });
}

async function correct(kind, action) {
  const reason = await askReason(`${kind} action #${action.number}: ${action.summary}`);
  if (reason === null) return;
  const path = `encounters/${page.encounter.id}`;
  try {
    const done = kind === "rewind"
      ? await page.api.post(`${path}/rewind`, { reason, to_version: action.version - 1 })
      : await page.api.post(`${path}/actions/${action.number}/${kind}`, { reason });
    showDiff(kind, action, done.report || []);
    await refresh();
  } catch (error) { showError(error); }
}

function showDiff(kind, action, report) {
  $("result").replaceChildren(el("div", { class: "diff", "data-correction": kind },
    el("p", { class: "summary" }, `${kind} of #${action.number} recorded`),
    el("ul", {}, report.map((r) => el("li", {},
      `#${r.number} ${r.status}: ${r.before || ""}${r.after ? ` → ${r.after}` : ""}${r.why ? ` (${r.why})` : ""}`)))));
}

function showResult(response) {
  if (response.status === "pending" && response.exchange) {
    $("result").replaceChildren(el("div", { "data-pending": response.exchange.number },
      el("p", { class: "summary" }, response.exchange.summary),
      el("p", { class: "caption" }, `Waiting for ${response.exchange.awaiting}.`)));
    return;
  }
  const action = response.action || response;
  $("result").replaceChildren(el("div", { "data-result": action.number || "" },
    el("p", { class: "summary" }, action.summary || ""),
    el("ol", { class: "narrative" }, (action.narrative || []).map((line) => el("li", {}, line)))));
}

// -- the combat panel ------------------------------------------------------------------------

function select(id) {
  page.selected = id;
  renderRoster();
  renderBoard();
  const enc = page.encounter;
  const who = enc && enc.combatants.find((c) => c.id === id);
  const tools = gmTools({ page, id, refresh, show: (error) => showError(error) });
  $("gm-tools-slot").replaceChildren(tools);
  if (!who || enc.ended) {
    $("panel-caption").textContent = "Between fights: the GM's changes below.";
    $("action-buttons").replaceChildren();
    return;
  }
  $("panel-caption").textContent = `${who.name} acts`;
  $("action-buttons").replaceChildren(...Object.keys(page.ruleset.actions).map((kind) =>
    el("button", { type: "button", "data-kind": kind, title: page.ruleset.actions[kind].description,
      onclick: () => panel.open(kind, id) }, label(page.campaign.ruleset, kind))));
}

const panel = actionPanel({
  context: () => page,
  done: async (response) => { showResult(response); await refresh(); },
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
}

function refreshSoon() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => refresh().catch((e) => showError(e)), 40);
}

async function turnStep(path) {
  try {
    await page.api.post(`encounters/${page.encounter.id}/${path}`, {});
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
      // Shown once: the server keeps only the key's hash.
      slot.replaceChildren(el("div", { class: "sign-in", id: "new-campaign-key" },
        el("h2", {}, `${created.name} is ready`),
        el("p", {}, "Your GM key, shown this once: keep it somewhere safe."),
        el("code", { id: "gm-key-once" }, created.gm_key),
        el("p", { class: "caption" }, `Campaign id: ${created.id}`),
        el("button", { type: "button", id: "new-campaign-open", onclick: () => {
          slot.replaceChildren(); resolve(session());
        } }, "Open the GM screen")));
    });
    slot.append(form);
  });
}

async function start() {
  let current = session();
  if (!current.key) {
    const slot = $("sign-in-slot");
    const signedIn = signInForm(slot, "Open the GM screen");
    current = await Promise.race([signedIn, newCampaignForm(slot)]);
    slot.replaceChildren();
  }
  page.api = client(current);
  $("encounter-picker").addEventListener("change", (e) => { page.chosen = e.target.value; refreshSoon(); });
  $("setup-form").addEventListener("submit", startEncounter);
  $("npc-form").addEventListener("submit", addNpc);
  $("npc-from").addEventListener("change", fillNpcSheet);
  $("days-form").addEventListener("submit", advanceDays);
  $("next-turn").addEventListener("click", () => turnStep("turn"));
  $("next-round").addEventListener("click", () => turnStep("round"));
  $("end-encounter").addEventListener("click", async () => {
    if ((await askReason("End the encounter? (say why, e.g. 'foes fled')")) === null) return;
    await turnStep("end");
  });
  await refresh();
  const audit = await page.api.get("audit?limit=1");
  follow(page.api, audit.projection.position, {
    entry: refreshSoon,
    reset: refreshSoon,
    state: (state) => { $("connection").dataset.state = state;
      $("connection").textContent = state === "live" ? "live" : "reconnecting…"; },
  });
}

start().catch((e) => showError(e));
