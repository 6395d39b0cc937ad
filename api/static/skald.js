// What every Skald page shares: the key, requests, the live feed, forms from schemas.
// No framework, no build step and no CDN: the tables often have no internet.
//
// The key never goes into a URL's query (browsers send URLs on in Referer and servers
// log them): a link may carry it in the fragment (#key=..., which browsers never
// send), the page moves it to sessionStorage at once and sends it as a bearer header.
"use strict";

const STORE = "skald.session";
// The campaigns this browser holds keys for (the GM screen's switcher): kept until the
// GM signs out of one. The page's strict policy runs no script but this server's.
const KEYRING = "skald.keyring";

export const $ = (id) => document.getElementById(id);

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== undefined && child !== null && child !== false) node.append(child);
  }
  return node;
}

// -- the session: campaign id and key ------------------------------------------------

export function session() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const saved = JSON.parse(sessionStorage.getItem(STORE) || "{}");
  const fromLink = { campaign: fragment.get("campaign"), key: fragment.get("key") };
  const fromPath = location.pathname.match(/^\/campaigns\/([0-9a-f-]{36})\//);
  const current = {
    campaign: fromLink.campaign || (fromPath && fromPath[1]) || saved.campaign || "",
    key: fromLink.key || saved.key || "",
  };
  if (fromLink.key || fromLink.campaign) {
    sessionStorage.setItem(STORE, JSON.stringify(current));
    if (current.campaign && current.key) remember(current.campaign, current.key);
    history.replaceState(null, "", location.pathname); // the key leaves the address bar
  }
  return current;
}

export function signIn(campaign, key) {
  sessionStorage.setItem(STORE, JSON.stringify({ campaign: campaign.trim(), key: key.trim() }));
  remember(campaign.trim(), key.trim());
}

// Signing out forgets this tab's campaign and, unless `keep`, its key in this browser.
export function signOut({ keep = false } = {}) {
  const { campaign } = JSON.parse(sessionStorage.getItem(STORE) || "{}");
  sessionStorage.removeItem(STORE);
  if (campaign && !keep) localStorage.setItem(KEYRING,
    JSON.stringify(keyring().filter((k) => k.campaign !== campaign)));
}

export function keyring() {
  try { return JSON.parse(localStorage.getItem(KEYRING) || "[]"); } catch { return []; }
}

// One entry per campaign: a newer key (or a name learnt later) replaces the older one.
export function remember(campaign, key, name) {
  const known = keyring();
  const old = known.find((k) => k.campaign === campaign) || {};
  const entry = { campaign, key: key || old.key, name: name || old.name || campaign.slice(0, 8) };
  localStorage.setItem(KEYRING,
    JSON.stringify([entry, ...known.filter((k) => k.campaign !== campaign)]));
}

// A sign-in form for a page opened without a session; resolves once signed in.
export function signInForm(container, title) {
  return new Promise((resolve) => {
    const campaign = el("input", { id: "sign-in-campaign", required: true, autocomplete: "off",
      placeholder: "campaign id" });
    const key = el("input", { id: "sign-in-key", type: "password", required: true,
      autocomplete: "off", placeholder: "skald_…" });
    const form = el("form", { id: "sign-in", class: "sign-in" },
      el("h2", {}, title),
      el("label", {}, "Campaign ", campaign),
      el("label", {}, "Key ", key),
      el("button", { type: "submit" }, "Open"),
      el("p", { class: "caption" }, "The key stays in this tab (sessionStorage) and is sent " +
        "only as a header, never in an address."));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      signIn(campaign.value, key.value);
      form.remove();
      resolve(session());
    });
    container.replaceChildren(form);
  });
}

// -- requests --------------------------------------------------------------------------

export class ApiError extends Error {
  constructor(status, body) {
    super(body.message || body.detail || `${status}`);
    this.status = status;
    this.body = body;
  }
}

// The one place a page calls fetch for the API: `request(url, { method, headers, body,
// as })` sends one request (a body as JSON) and answers the answer's JSON, or with
// `as: "text"` its text (an SVG drawn by the server); a refusal throws an ApiError
// carrying the API's problem (RFC 9457: its `message`), and a request that never got
// an answer rejects as fetch does (writes.js tells the GM it was lost).
export async function request(url, { method = "GET", headers = {}, body, as = "json" } = {}) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(url, init);
  if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => ({})));
  return as === "text" ? response.text() : response.json().catch(() => ({}));
}

// A campaign's client: its key in the authorization header, paths under the campaign.
// `options.as`: what the answer is read as (see `request`).
export function client(current) {
  const headers = { authorization: `Bearer ${current.key}` };
  const base = `/campaigns/${current.campaign}`;
  const url = (path) => (path.startsWith("/") ? path : `${base}/${path}`);
  return {
    base,
    get: (path, options = {}) => request(url(path), { ...options, headers }),
    post: (path, body = {}, options = {}) =>
      request(url(path), { ...options, method: "POST", headers, body }),
    headers,
  };
}

// -- the live feed ---------------------------------------------------------------------
// EventSource cannot send a header, so the feed is read with fetch and parsed here
// (text/event-stream: blank-line separated blocks of "field: value" lines).

export function follow(api, after, handlers) {
  let last = String(after);
  let stopped = false;
  async function once() {
    const response = await fetch(`${api.base}/feed?after=${encodeURIComponent(last)}`, {
      headers: { ...api.headers, accept: "text/event-stream", "last-event-id": last },
    });
    if (!response.ok || !response.body) throw new Error(`feed answered ${response.status}`);
    handlers.state && handlers.state("live");
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value.replace(/\r\n/g, "\n");
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const message = { event: "message", data: [] };
        for (const line of block.split("\n")) {
          if (!line || line.startsWith(":")) continue;
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (field === "data") message.data.push(text);
          else if (field === "event") message.event = text;
          else if (field === "id") message.id = text;
        }
        if (message.id) last = message.id;
        const handler = handlers[message.event];
        if (handler && message.data.length) handler(JSON.parse(message.data.join("\n")));
      }
    }
  }
  (async () => {
    let wait = 250;
    while (!stopped) {
      try {
        await once();
        wait = 250;
      } catch (error) {
        handlers.state && handlers.state("lost");
      }
      if (stopped) break;
      handlers.state && handlers.state("reconnecting");
      await new Promise((r) => setTimeout(r, wait));
      wait = Math.min(wait * 2, 5000);
    }
  })();
  return () => { stopped = true; };
}

// -- shared pieces of pages ------------------------------------------------------------

export const LOW_FRACTION = 1 / 3; // a bar "slips into the yellow" at a third of its maximum

// `edit`, when given, makes the number a button and puts -1/+1 beside it (the GM screen
// edits a track from them: edit.open(name, current, button), edit.step(name, current, by,
// button)).
export function bar(name, current, max, edit) {
  const top = max || 1;
  const fraction = Math.max(0, Math.min(1, current / top));
  const state = current <= 0 ? "out" : current <= top * LOW_FRACTION ? "low" : "ok";
  // Below zero the bar is empty (red, as at zero) and its number says how far below: a
  // full bar read as full health from across the table.
  // (Set through the CSSOM: the policy refuses style attributes, not script-set styles.)
  const fill = el("div", { class: "fill" });
  fill.style.width = `${(fraction * 100).toFixed(1)}%`;
  return el("div", { class: "track" },
    el("span", { class: "track-name" }, name.replaceAll("_", " ")),
    el("div", { class: `bar ${state}`, "data-track": name, "data-current": current }, fill),
    edit ? el("span", { class: "value edit" },
      el("button", { type: "button", class: "step", "data-step-track": name, "data-by": -1,
        "aria-label": `${name.replaceAll("_", " ")} minus one`, onclick: (event) => {
          event.stopPropagation(); edit.step(name, current, -1, event.currentTarget);
        } }, "−"),
      el("button", { type: "button", class: "link", "data-edit-track": name,
        title: `set ${name.replaceAll("_", " ")} to…`, onclick: (event) => {
          event.stopPropagation(); edit.open(name, current, event.currentTarget);
        } }, `${current} / ${max ?? "?"}`),
      el("button", { type: "button", class: "step", "data-step-track": name, "data-by": 1,
        "aria-label": `${name.replaceAll("_", " ")} plus one`, onclick: (event) => {
          event.stopPropagation(); edit.step(name, current, 1, event.currentTarget);
        } }, "+"))
      : el("span", { class: "value" }, `${current} / ${max ?? "?"}`));
}

// A ruleset's counters beside the tracks (a fatigue, a luck: /rulesets publishes
// them as `counters`, each with what it is), as the state this key may read has them:
// nothing where it has none (an NPC's, for a player).
export function counters(state, published) {
  const shown = Object.keys(published || {}).filter((name) =>
    typeof (state || {})[name] === "number");
  if (!shown.length) return null;
  return el("p", { class: "counters" }, shown.map((name) => el("span", { class: "counter",
    "data-counter": name, "data-value": state[name], title: published[name] },
  `${name.replaceAll("_", " ")} ${state[name]}`)));
}

// The ratings a ruleset's presentation names (`ratings`: an HR bonus, an AC...), each
// read from a character view's `derived` by its dotted path, under the seed's name: a
// number, or a rating's `value` (its terms as the title, its situational terms beside it,
// and one entry per weapon where it has `by_weapon`). Nothing where the view has none: an
// NPC's `derived` comes to a player empty (T3), and the page shows only the player's own.
const signedNumber = (value, signed) => (signed && value >= 0 ? `+${value}` : `${value}`);

export function ratings(derived, shown) {
  const entries = [];
  for (const { rating, label, signed } of shown || []) {
    const found = rating.split(".").reduce((at, key) => (at && typeof at === "object" ? at[key]
      : undefined), derived || {});
    const value = typeof found === "number" ? found : found && found.value;
    if (typeof value !== "number") continue;
    const terms = (found.terms || []).map((t) => `${t.name} ${signedNumber(t.value, true)}`);
    const beside = (found.situational || []).map((t) => `${signedNumber(t.value, true)} ${t.name}`);
    entries.push(el("div", { class: "rating", "data-rating": rating, title: terms.join(", ") || null },
      el("dt", {}, label),
      el("dd", {}, el("span", { class: "rating-value" }, signedNumber(value, signed)),
        beside.length ? el("small", {}, ` (${beside.join(", ")})`) : null)));
    for (const one of Array.isArray(found.by_weapon) ? found.by_weapon : []) {
      entries.push(el("div", { class: "rating", "data-rating": rating, "data-weapon": one.weapon },
        el("dt", {}, `${label} with ${one.weapon}`),
        el("dd", {}, el("span", { class: "rating-value" }, signedNumber(one.value, signed)))));
    }
  }
  return entries.length ? el("dl", { class: "ratings", "aria-label": "ratings" }, entries) : null;
}

// A chip's colour says what kind of state it is: out of the fight (red), a wound
// (amber), anything else the ruleset or the GM marks (neutral).
const OUT_OF_THE_FIGHT = new Set(["stunned", "unconscious", "down", "cannot_act"]);
const WOUNDS = new Set(["piercing_wound", "broken_bones", "severe_bruising", "wounded"]);

export function chipKind(condition) {
  return OUT_OF_THE_FIGHT.has(condition) ? "out" : WOUNDS.has(condition) ? "wound" : "state";
}

export function chips(conditions, extra = []) {
  return el("div", { class: "chips" },
    conditions.map((c) => el("span", { class: `chip ${chipKind(c)} ${c}`, "data-condition": c,
      "data-chip": chipKind(c) }, c.replaceAll("_", " "))),
    extra.map(({ name, kind, title, text }) => el("span", { class: `chip ${kind}`, "data-chip": kind,
      "data-marker": name, title }, text || name)));
}

// -- forms from an action's published parameter schema ---------------------------------

function resolveRef(schema, root) {
  if (schema && schema.$ref) return root.$defs[schema.$ref.split("/").pop()];
  if (schema && schema.anyOf) {
    const real = schema.anyOf.filter((s) => s.type !== "null");
    if (real.length === 1) return { ...resolveRef(real[0], root), nullable: true,
      description: schema.description, default: schema.default, title: schema.title };
  }
  return schema;
}

// One input per property; a property that takes a combatant id is a select of the
// `combatants`. Optional fields start empty ("—", or the default as a placeholder): a
// field left alone is left out of the request, so the server's own default (or the rule
// that waits for the defender) applies. `gm` false leaves out the GM's calls. `choices`
// maps a property to [value, label] pairs to pick from (e.g. the sheet's weapons);
// `titles` gives a property the ruleset's own words.
export function schemaFields(schema, combatants, { gm = true, choices = {}, titles = {} } = {}) {
  const root = schema;
  const required = new Set(schema.required || []);
  const fields = [];
  for (const [name, raw] of Object.entries(schema.properties || {})) {
    const prop = resolveRef(raw, root) || {};
    if (!gm && (raw["x-gm-call"] || prop["x-gm-call"])) continue;
    const id = `param-${name}`;
    const label = (titles[name] || raw.title || prop.title || name).replaceAll("_", " ");
    const hint = raw.description || prop.description || "";
    let input;
    const isCombatant = /(^|_)(target|defender|actor|attacker|holder|who|victim|ally)s?$/.test(name);
    if (choices[name] && prop.type === "string") {
      input = el("select", { id, name },
        choices[name].map(([value, text]) => el("option", { value }, text)));
    } else if (isCombatant && prop.type === "string") {
      input = el("select", { id, name },
        required.has(name) ? null : el("option", { value: "" }, "—"),
        combatants.map((c) => el("option", { value: c.id }, `${c.name} (${c.side})`)));
    } else if (isCombatant && prop.type === "array") {
      input = el("select", { id, name, multiple: true, "data-kind": "array" },
        combatants.map((c) => el("option", { value: c.id }, `${c.name} (${c.side})`)));
    } else if (prop.enum) {
      // What leaving it unset does: the schema's words for it (an attack left to wait for
      // the defender's answer), else its default.
      const leftOut = raw["x-left-out"] || prop["x-left-out"];
      const unset = leftOut ? `— (${leftOut})`
        : prop.default !== undefined ? `— (default: ${prop.default})` : "—";
      input = el("select", { id, name },
        required.has(name) ? null : el("option", { value: "" }, unset),
        prop.enum.map((v) => el("option", { value: v }, String(v))));
    } else if (prop.type === "boolean") {
      input = el("input", { id, name, type: "checkbox", "data-kind": "boolean",
        checked: prop.default === true });
    } else if (prop.type === "integer" || prop.type === "number") {
      input = el("input", { id, name, type: "number", "data-kind": prop.type,
        min: prop.minimum, max: prop.maximum, step: prop.type === "integer" ? 1 : "any",
        placeholder: prop.default ?? "" });
    } else if (prop.type === "string") {
      input = el("input", { id, name, type: "text", placeholder: prop.default ?? "" });
    } else {
      input = el("input", { id, name, type: "text", "data-kind": "json",
        placeholder: "JSON", value: prop.default !== undefined ? JSON.stringify(prop.default) : "" });
    }
    const inline = prop.type === "boolean" ? " inline" : "";
    fields.push(el("label", { class: `field${inline}`, title: hint, "data-param": name },
      el("span", {}, label, required.has(name) ? " *" : ""), input,
      hint ? el("small", {}, hint) : null));
  }
  return fields;
}

export function readFields(container) {
  const params = {};
  for (const input of container.querySelectorAll("[name]")) {
    const kind = input.dataset.kind;
    if (kind === "boolean") { if (input.checked) params[input.name] = true; continue; }
    if (kind === "array") {
      const chosen = [...input.selectedOptions].map((o) => o.value);
      if (chosen.length) params[input.name] = chosen;
      continue;
    }
    if (input.value === "") continue;
    if (kind === "integer") params[input.name] = parseInt(input.value, 10);
    else if (kind === "number") params[input.name] = Number(input.value);
    else if (kind === "json") params[input.name] = JSON.parse(input.value);
    else params[input.name] = input.value;
  }
  return params;
}

export function narrative(action) {
  const lines = action.narrative && action.narrative.length ? action.narrative : [action.summary];
  return el("ol", { class: "narrative" }, lines.map((line) => el("li", {}, line)));
}
