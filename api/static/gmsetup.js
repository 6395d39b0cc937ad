// Setting up: a new encounter from the roster, days advanced with each character's plan,
// and a new campaign for a table that has none yet (its GM key shown once).
import { $, el, remember, request, session, signIn } from "/static/skald.js";
import { linkFor, onceCard, publicOrigin } from "/static/keys.js";
import { initiativeFields } from "/static/rulesets.js";
import { daysRequest } from "/static/gmdays.js";
import { clearMessage, page, refresh } from "/static/gmpage.js";
import { onSubmit, write } from "/static/writes.js";

// Both are a form's submit, pressed through writes.js (onSubmit): a failure is said there.
export async function startEncounter() {
  const combatants = [...document.querySelectorAll("#setup-rows [data-character]:checked")]
    .map((box) => ({ character_id: box.dataset.character,
      // Left empty: the server's default (foes for an NPC, the party for a PC).
      side: document.querySelector(`[data-side="${box.dataset.character}"]`).value.trim() ||
        undefined,
      rank: parseInt(document.querySelector(`[data-rank="${box.dataset.character}"]`).value, 10) || 1 }));
  const started = await write(page.api, "POST", "encounters",
    { name: $("setup-name").value, combatants });
  page.chosen = started.id;
  $("setup-box").open = false;
  clearMessage();
  await refresh();
}

export async function advanceDays() {
  $("days-message").replaceChildren();
  const done = await write(page.api, "POST", "days", daysRequest());
  $("days-message").replaceChildren(el("p", { class: "caption", "data-day": done.day },
    `Day ${done.day}: ${done.days_advanced} day(s) passed.`));
  clearMessage();
  await refresh();
}

// A table with no campaign yet starts here: name, ruleset and initiative, and the GM key
// shown once.
export function newCampaignForm(slot) {
  return new Promise((resolve) => {
    const name = el("input", { id: "new-campaign-name", required: true,
      placeholder: "The Sunken Crown" });
    const ruleset = el("select", { id: "new-campaign-ruleset" });
    // T1: the GM orders the turns, or each combatant rolls 1d20 plus a field of the sheet.
    const initiative = el("select", { id: "new-campaign-initiative" },
      el("option", { value: "manual" }, "the GM orders the turns"),
      el("option", { value: "roll" }, "rolled: 1d20 + a sheet field"));
    const add = el("select", { id: "new-campaign-initiative-add" });
    const addLabel = el("label", { hidden: true }, "Added to the roll ", add);
    // Each ruleset as /rulesets publishes it, by id (its initiative fields).
    const published = new Map();
    const fields = () => {
      add.replaceChildren(el("option", { value: "" }, "— (nothing)"),
        ...initiativeFields(published.get(ruleset.value)).map((f) => el("option", { value: f }, f)));
      addLabel.hidden = initiative.value !== "roll";
    };
    ruleset.addEventListener("change", fields);
    initiative.addEventListener("change", fields);
    // The rulesets arrive after the form is shown: a Create clicked before them waits for
    // them (it had posted an empty ruleset, refused with a 422).
    const loaded = request("/rulesets").then((all) => {
      for (const r of all) published.set(r.id, r);
      ruleset.replaceChildren(...all.map((r) => el("option", { value: r.id }, `${r.title}`)));
      fields();
    });
    loaded.catch(() => {});  // answered where it is awaited, on Create
    const form = el("form", { id: "new-campaign", class: "sign-in" },
      el("h2", {}, "…or start a new campaign"),
      el("label", {}, "Name ", name), el("label", {}, "Ruleset ", ruleset),
      el("label", {}, "Initiative ", initiative), addLabel,
      el("button", { type: "submit", id: "new-campaign-create" }, "Create"));
    onSubmit(form, async () => {
      try {
        await loaded;
      } catch {
        throw new Error("the rulesets could not be loaded: reload the page");
      }
      const options = initiative.value === "roll"
        ? { initiative: { mode: "roll", dice: "1d20", ...(add.value ? { add: add.value } : {}) } }
        : {};
      // No key yet: a campaign is created without one.
      const created = await write({ base: "", headers: {} }, "POST", "/campaigns",
        { name: name.value, ruleset: ruleset.value, options });
      signIn(created.id, created.gm_key);
      remember(created.id, created.gm_key, created.name);
      // Shown once: the server keeps only the key's hash.
      const card = onceCard({ id: "new-campaign-key", title: `${created.name} is ready`,
        secret: linkFor(await publicOrigin(), "/gm", created.id, created.gm_key),
        note: "Your GM link, with the GM key after '#', shown this once: keep it somewhere safe." });
      card.append(el("p", { class: "caption" }, "The key alone: ",
        el("code", { id: "gm-key-once", class: "once" }, created.gm_key)),
      el("button", { type: "button", id: "new-campaign-open", onclick: () => {
        slot.replaceChildren(); resolve(session());
      } }, "Open the GM screen"));
      slot.replaceChildren(card);
    }, { redraw: fields });
    slot.append(form);
  });
}
