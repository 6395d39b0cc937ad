// Keys from the GM screen: player keys (per character) and viewer keys issued and
// revoked; each new key shown once as a link with the key after '#' (never in a query),
// a copy button and a QR code the server draws offline (a viewer key: a link to the
// table display and one to the stream overlay with its flags). And the campaigns this browser
// holds keys for: switch, sign out, open another with a key.
import { $, ApiError, el, keyring, request, signIn, signOut } from "/static/skald.js";
import { press, resetFields, write } from "/static/writes.js";

// The address every link and QR code carries: the one the server advertises to the
// table's network (skald serve --lan), whatever address this page was opened at (a GM
// screen at localhost must not hand a phone a localhost link); a server that advertises
// none is reached at this page's own. Asked once; a failed ask is asked again next time.
let advertised = null;
export function publicOrigin() {
  advertised ||= request("/server")
    // A server that answers with a refusal advertises none (kept, as an answer).
    .catch((error) => { if (error instanceof ApiError) return {}; throw error; })
    .then((server) => server.public_url || location.origin)
    .catch(() => { advertised = null; return location.origin; });
  return advertised;
}

export function linkFor(origin, path, campaign, key) {
  return `${origin}${path}#campaign=${campaign}&key=${key}`;
}

// Copies the text; where the clipboard is refused (an http page on a LAN address), the
// text is selected so the GM can copy it by hand.
// `text` is the text, or a function answering it as it is now (a link redrawn since).
export function copyButton(text, target, id) {
  const button = el("button", { type: "button", class: "secondary", id, onclick: async () => {
    try {
      await navigator.clipboard.writeText(typeof text === "function" ? text() : text);
      button.textContent = "Copied";
    } catch {
      getSelection().selectAllChildren(target);
      button.textContent = "Selected: copy it";
    }
  } }, "Copy");
  return button;
}

async function qrImage(api, link, alt) {
  const svg = await api.post("keys/qr", { link }, { as: "text" });
  // A data: image (the page's policy allows no blob: and no inline markup from elsewhere).
  return el("img", { class: "qr", alt, width: 192, height: 192,
    src: `data:image/svg+xml;base64,${btoa(svg)}` });
}

// One link of a card: the link, a copy button and, with `api`, its QR code; `set` puts
// another link in its place (the overlay's flags changed) and redraws the code.
function linkBlock({ id, api, alt }) {
  const code = el("code", { class: "once", "data-once": id });
  const copy = copyButton(() => code.textContent, code, `${id}-copy`);
  const qr = el("div", { class: "qr-slot" });
  let drawing = 0;
  function set(link) {
    code.textContent = link;
    copy.textContent = "Copy";
    if (!api) return;
    const mine = ++drawing; // a slower, older drawing never replaces a newer one
    qrImage(api, link, alt)
      .then((img) => { if (mine === drawing) qr.replaceChildren(img); })
      .catch((error) => {
        if (mine === drawing) qr.replaceChildren(el("p", { class: "error" }, `QR: ${error.message}`));
      });
  }
  return { node: el("div", { class: "stack" }, code, el("div", { class: "row wrap" }, copy), qr), set };
}

// A secret shown this once: the link (or the key), a copy button and, with `api`, a QR code.
export function onceCard({ id, title, note, secret, api, alt }) {
  const shown = linkBlock({ id, api, alt: alt || "QR code of the link" });
  shown.set(secret);
  return el("div", { class: "sign-in once-card", id }, el("h3", {}, title), el("p", {}, note),
    shown.node);
}

// What the overlay may show (overlay.js reads them after '#': layout=turn,party,foes,log).
const OVERLAY_PARTS = [["turn", "Whose turn"], ["party", "The party"], ["foes", "The foes"],
  ["log", "The log"]];

// A viewer key, shown this once as its two pages' links: the table display (/table) for a
// TV or a projector, and the stream overlay (/overlay) with its flags after '#', each with
// a copy button and a QR code.
function viewerCard(api, campaign, key, origin) {
  const table = linkBlock({ id: "key-table", api, alt: "QR code of the table display's link" });
  const overlay = linkBlock({ id: "key-overlay", api, alt: "QR code of the stream overlay's link" });
  const transparent = el("input", { type: "checkbox", id: "overlay-transparent", checked: true });
  const parts = OVERLAY_PARTS.map(([part]) =>
    el("input", { type: "checkbox", "data-overlay-part": part, checked: true }));
  function overlayLink() {
    const shown = parts.filter((box) => box.checked).map((box) => box.dataset.overlayPart);
    return `${linkFor(origin, "/overlay", campaign, key)}` +
      `&transparent=${transparent.checked ? 1 : 0}&layout=${shown.join(",")}`;
  }
  for (const box of [transparent, ...parts]) {
    box.addEventListener("change", () => {
      if (!parts.some((part) => part.checked)) box.checked = true; // at least one part
      overlay.set(overlayLink());
    });
  }
  table.set(linkFor(origin, "/table", campaign, key));
  overlay.set(overlayLink());
  return el("div", { class: "sign-in once-card", id: "key-once" },
    el("h3", {}, "A viewer key for the table and the stream"),
    el("p", {}, "Shown this once: open a link on the screen that shows it, or scan its code. " +
      "The key is after '#', so it never reaches a server log."),
    el("h4", {}, "Table display (a TV or a projector)"), table.node,
    el("h4", {}, "Stream overlay (an OBS browser source)"),
    el("fieldset", { class: "row wrap overlay-flags" }, el("legend", {}, "The overlay shows"),
      el("label", {}, transparent, " a transparent background"),
      ...parts.map((box, n) => el("label", {}, box, ` ${OVERLAY_PARTS[n][1].toLowerCase()}`))),
    overlay.node);
}

export function keysBox({ page, show }) {
  const list = el("ul", { id: "key-list", class: "keys" });
  const issued = el("div", { id: "key-issued" });
  const who = el("select", { id: "key-character" });
  const labelInput = el("input", { id: "key-label", maxlength: 120, placeholder: "e.g. Ana" });
  let names = {};

  async function load() {
    // The roster as it is now (characters enrolled since the screen opened included).
    names = Object.fromEntries(page.campaign.characters.map((c) => [c.id, c.name]));
    const chosen = who.value;
    who.replaceChildren(...page.campaign.characters.map((c) =>
      el("option", { value: c.id, selected: c.id === chosen }, c.name)));
    const keys = await page.api.get("keys");
    list.replaceChildren(...keys.filter((k) => k.role !== "gm").map((k) => el("li",
      { "data-key-id": k.id, class: k.revoked ? "voided" : "" },
      `${k.role}${k.characters.length ? `: ${k.characters.map((c) => names[c] || c).join(", ")}` : ""}` +
        `${k.label ? ` (${k.label})` : ""}${k.revoked ? " — revoked" : ""}`,
      k.revoked ? null : el("button", { type: "button", class: "danger", "data-revoke": k.id,
        onclick: (event) => press(event.currentTarget, () => revoke(k)) }, "Revoke"))));
  }

  // `key`: the Idempotency-Key of a key issued as part of another press (enrolling a PC).
  async function issue(role, key) {
    const body = { role, label: labelInput.value.trim() };
    if (role === "player") body.characters = [who.value];
    const made = await write(page.api, "POST", "keys", body, { key });
    resetFields(labelInput); // issued: the next key is not labelled for this player too
    const origin = await publicOrigin();
    if (role === "viewer") {
      issued.replaceChildren(viewerCard(page.api, page.campaign.id, made.key, origin));
    } else {
      const whom = names[who.value];
      issued.replaceChildren(onceCard({ id: "key-once", api: page.api,
        secret: linkFor(origin, "/play", page.campaign.id, made.key),
        title: `A player key for ${whom}`, alt: `QR code of ${whom}'s link`,
        note: "Shown this once: send the link or let them scan the code. The key is after " +
          "'#', so it never reaches a server log." }));
    }
    await load();
  }

  async function revoke(key) {
    await write(page.api, "DELETE", `keys/${key.id}`);
    await load();
  }

  const box = el("details", { id: "keys-box", class: "box" },
    el("summary", {}, "Keys: invite players and viewers"),
    el("div", { class: "stack" },
      el("label", {}, "Character", who),
      el("label", {}, "Label (the player's name)", labelInput),
      el("div", { class: "row wrap" },
        el("button", { type: "button", id: "issue-player",
          onclick: (event) => press(event.currentTarget, () => issue("player")) }, "Player key"),
        el("button", { type: "button", class: "secondary", id: "issue-viewer",
          onclick: (event) => press(event.currentTarget, () => issue("viewer")) },
        "Viewer key (table, overlay)"))),
    issued, list);
  box.addEventListener("toggle", () => { if (box.open) load().catch(show); });
  return { box, issue: async (role, characterId, label, key) => {
    await load();
    box.open = true;
    who.value = characterId;
    labelInput.value = label || "";
    return issue(role, key);
  } };
}

// The header's campaign controls: switch among the campaigns this browser holds keys for,
// open another with a key, sign out.
export function campaignMenu(current) {
  const known = keyring();
  const switcher = el("select", { id: "campaign-switcher", "aria-label": "campaign" },
    known.map((k) => el("option", { value: k.campaign, selected: k.campaign === current.campaign },
      k.name)));
  switcher.addEventListener("change", () => {
    const chosen = known.find((k) => k.campaign === switcher.value);
    signIn(chosen.campaign, chosen.key);
    location.reload();
  });
  return el("span", { class: "row wrap campaign-menu" },
    known.length > 1 ? switcher : null,
    el("button", { type: "button", class: "secondary", id: "open-other", onclick: () => {
      signOut({ keep: true });
      location.reload();
    } }, "Another campaign"),
    el("button", { type: "button", class: "secondary", id: "sign-out", onclick: () => {
      signOut();
      location.reload();
    } }, "Sign out"));
}
