// The combat panel shared by the GM screen and the player's page: one form per
// action, built from the action's published parameter schema; the dice either rolled
// by the server or typed in from the table under the names the roll preview gives;
// the odds beside it before anything is rolled.
import { $, ApiError, el, readFields, schemaFields } from "/static/skald.js";
import { label, panelTitle, paramTitles, selfTargeted } from "/static/rulesets.js";
import { onSubmit, press, Said, write } from "/static/writes.js";

// What the actor's sheet offers for a parameter that names a piece of it: weapons
// first (the first is chosen), then the schema's default (e.g. unarmed) last.
function sheetChoices(schema, sheet) {
  const choices = {};
  const props = schema.properties || {};
  const names = (list) => (Array.isArray(list) ? list.map((item) => item.name).filter(Boolean) : []);
  for (const [param, list] of [["weapon", names(sheet.weapons)], ["spell", names(sheet.spells)]]) {
    const prop = props[param];
    if (!prop || !list.length) continue;
    const fallback = prop.default;
    const optional = prop.anyOf && fallback == null && !(schema.required || []).includes(param);
    choices[param] = [...(optional ? [["", "—"]] : []), ...list.map((n) => [n, n]),
      ...(typeof fallback === "string" && !list.includes(fallback) ? [[fallback, fallback]] : [])];
  }
  return choices;
}

// Who may be chosen as a target: the others, or the actor first for what is done to them.
function targets(ruleset, kind, combatants, actor) {
  const self = combatants.filter((c) => c.id === actor);
  const others = combatants.filter((c) => c.id !== actor && c.present !== false);
  return selfTargeted(ruleset, kind) ? [...self, ...others] : others;
}

function faces(text) {
  return text.split(/[\s,]+/).filter(Boolean).map((v) => parseInt(v, 10));
}

export function actionPanel({ context, done, fail, gm = false }) {
  let kind = null;
  let actor = null;
  let previewTimer = null;

  function mode() {
    const checked = document.querySelector("input[name=dice-mode]:checked");
    return checked ? checked.value : "server";
  }

  function body() {
    return { kind, actor, params: readFields($("action-fields")) };
  }

  // The latest preview asked: an older answer arriving late draws nothing.
  let previews = 0;

  // One input per roll the preview names. Each answer is drawn in place: a roll still
  // named keeps its input, what was typed in it and the focus; rolls no longer named go,
  // new ones come in order (a roll whose line changed is drawn anew, what was typed in it
  // kept). Copying the faces typed into new inputs (7e4e76b) still took the focus from the
  // one typing: keys typed after the answer went nowhere, and Playwright's fill (a select,
  // then the typing: two steps) lost them all when an answer came between the two.
  // #dice-fields' data-preview counts the answers drawn (what a test may wait on).
  let drawn = 0;
  function rollField(roll) {
    const text = `${roll.name}: ${roll.count}d${roll.sides}` + (roll.when ? ` (only ${roll.when})` : "");
    return el("label", { class: "field", "data-roll-name": roll.name, "data-text": text },
      el("span", {}, text),
      el("input", { "data-roll": roll.name, inputmode: "numeric",
        placeholder: Array(roll.count).fill("·").join(" ") }));
  }

  function drawRolls(box, rolls) {
    const had = new Map([...box.querySelectorAll("[data-roll-name]")]
      .map((field) => [field.dataset.rollName, field]));
    const fields = rolls.map((roll) => {
      const field = had.get(roll.name);
      const fresh = rollField(roll);
      return field && field.dataset.text === fresh.dataset.text ? field : fresh;
    });
    const keep = new Set(fields);
    for (const child of [...box.children]) if (!keep.has(child)) child.remove();
    let before = null;
    for (const field of fields) {
      const typed = had.get(field.dataset.rollName);
      if (typed && typed !== field) {
        field.querySelector("input").value = typed.querySelector("input").value;
      }
      const next = before ? before.nextElementSibling : box.firstElementChild;
      if (next !== field) {
        if (before) before.after(field); else box.prepend(field);
      }
      before = field;
    }
  }

  async function preview() {
    const { api, encounter } = context();
    const box = $("dice-fields");
    const mine = ++previews;
    if (mode() !== "table") { box.replaceChildren(); return; }
    try {
      const rolls = await api.post(`encounters/${encounter.id}/preview`, body());
      if (mine !== previews) return;
      drawRolls(box, [...(rolls.rolls || []), ...(rolls.may_follow || [])]);
    } catch (error) {
      if (mine !== previews) return;
      // No preview for this action (or not yet): name the rolls by hand (what was typed
      // by hand stays).
      const free = document.getElementById("dice-free");
      box.replaceChildren(free ? free.closest("label") : el("label", { class: "field" },
        el("span", {}, "Table dice: one roll per line, 'roll name: faces'"),
        el("textarea", { id: "dice-free", rows: 3, placeholder: "damage: 2 4 6" })),
      el("small", { class: "caption" }, error instanceof ApiError ? error.message : ""));
    }
    box.dataset.preview = String(++drawn);
  }

  // The latest odds asked (or the box cleared since): an older answer arriving late,
  // for a defense or a target changed since, draws nothing. #odds' data-answered counts
  // the answers come back, drawn or not (what a test may wait on).
  let asks = 0;
  let answered = 0;

  async function odds() {
    const { api, encounter } = context();
    const box = $("odds");
    const mine = ++asks;
    let found;
    try {
      found = await api.post(`encounters/${encounter.id}/odds`, body());
    } catch (error) {
      box.dataset.answered = String(++answered);
      if (mine !== asks) return;
      // Not every request has odds (a missing target, a pool too large to count):
      // say why in one line rather than show stale bars.
      box.replaceChildren(error instanceof ApiError && error.status !== 404
        ? el("p", { class: "caption", "data-odds": "none" }, `Odds: ${error.message}`) : "");
      return;
    }
    box.dataset.answered = String(++answered);
    if (mine !== asks) return;
    const row = (name, chance, attrs = {}) => {
      const fill = el("div", { class: "fill" });
      fill.style.width = `${(chance.decimal * 100).toFixed(1)}%`;
      return el("div", { class: "odd", title: chance.probability, ...attrs },
        el("span", {}, name.replaceAll("_", " ")), el("div", { class: "bar" }, fill),
        el("span", {}, `${(chance.decimal * 100).toFixed(1)}%`));
    };
    const resultsOf = (odds) => Array.isArray(odds.results)
      ? odds.results.map((r) => [r.result || r.name, r]) : Object.entries(odds.results || {});
    // The harm and the conditions an answer (or an action) leads to.
    const harmOf = (odds, prefix = "") => [
      ...(odds.damage || []).filter((d) => d.at_least_one.decimal > 0).map((d) =>
        // The chance of losing any of a track, and the mean loss: "Thrain: health ≥ 1" read
        // as the chance Thrain stays standing.
        row(`${d.name} loses ≥ 1 ${d.track} (mean loss ${d.mean.decimal.toFixed(2)})`, d.at_least_one,
          { [`data-${prefix}damage`]: `${d.combatant}:${d.track}` })),
      ...(odds.conditions || []).filter((c) => c.gained.decimal > 0).map((c) =>
        row(`${c.name}: ${c.condition}`, c.gained, { [`data-${prefix}condition-odds`]: c.condition })),
    ];
    const results = resultsOf(found);
    // RULINGS T3a: odds that would tell a foe's hidden numbers are the GM's; the API
    // answers none (and says why) rather than a chance a player may not read.
    if (found.withheld && !results.length) {
      box.replaceChildren(el("p", { class: "caption", "data-odds": "withheld" },
        "No odds: they would tell a foe's hidden numbers."));
      return;
    }
    const waits = found.awaits;
    if (!waits) {
      box.replaceChildren(el("h3", {}, "Odds before the dice"),
        ...results.map(([name, chance]) => row(name, chance, { "data-outcome": name })),
        ...harmOf(found));
      return;
    }
    // Seed 001 S3: left to the defender, the attack waits for their answer when it hits.
    // What it does then is each answer's: the hit first, then every answer side by side
    // (none for a reader who may not see the defender's numbers: T3a).
    const { ruleset } = context();
    const words = (choice) => label(ruleset, choice);
    const answers = Object.entries(found.answers || {});
    box.replaceChildren(el("h3", {}, "Odds before the dice"),
      ...results.map(([name, chance]) => row(name === "hit" ? `hit: ${waits.name} answers` : name,
        chance, { "data-outcome": name })),
      el("p", { class: "caption", "data-odds": "awaits" }, answers.length
        ? `${waits.name} answers a hit: ${waits.choices.map(words).join(", ")}. Each answer's odds:`
        : `${waits.name} answers a hit: ${waits.choices.map(words).join(", ")}; what each leads to ` +
          "would tell their hidden numbers."),
      ...(answers.length ? [el("div", { class: "answers" }, answers.map(([choice, odds]) =>
        el("section", { "data-answer": choice },
          el("h4", {}, `If ${waits.name}: ${words(choice)}`),
          ...resultsOf(odds).map(([name, chance]) => row(name, chance, { "data-answer-outcome": name })),
          ...harmOf(odds, "answer-"))))] : []));
  }

  // The required parameters the GM has not filled in yet (a take-hit's damage class):
  // no roll or odds can be worked out without them, and a request without them is one
  // the API refuses, so none is sent until they are there.
  function missing() {
    const { ruleset } = context();
    const given = body().params;
    return (ruleset.actions[kind].params.required || []).filter((name) => !(name in given));
  }

  // An action was just recorded by this form (see refreshAside).
  let justDone = false;

  function refreshAside() {
    clearTimeout(previewTimer);
    // Not once the form has closed: there is no action to ask about (a request with no
    // kind is not one the API takes).
    previewTimer = setTimeout(() => {
      if (!kind) return;
      const unfilled = missing();
      if (unfilled.length) {
        asks++; // an answer still on its way is for what the form no longer holds
        $("dice-fields").replaceChildren();
        $("odds").replaceChildren(el("p", { class: "caption", "data-odds": "unfilled" },
          `Odds once ${unfilled.map((name) => name.replaceAll("_", " ")).join(", ")} filled in.`));
        return;
      }
      preview();
      // Just recorded: the form is drawn again for the next action, and its odds are not
      // asked for an actor who has now acted (a 409 and a console error on every press);
      // they are asked again once the form changes.
      if (justDone) {
        justDone = false;
        asks++;
        $("odds").replaceChildren();
      } else {
        odds();
      }
    }, 120);
  }

  function tableDice() {
    if (mode() !== "table") return undefined;
    const dice = {};
    for (const input of document.querySelectorAll("#dice-fields [data-roll]")) {
      if (input.value.trim()) dice[input.dataset.roll] = faces(input.value);
    }
    const free = document.getElementById("dice-free");
    if (free) {
      for (const line of free.value.split("\n")) {
        const [name, values] = line.split(":");
        if (name && values) dice[name.trim()] = faces(values);
      }
    }
    return dice;
  }

  // The GM's "Roll hidden" (T3: an NPC's action, its dice shown to others only as its
  // outcome): on the GM screen's form only, offered for an NPC actor, sent only ticked.
  function hiddenBox() {
    const box = gm ? form.querySelector("input[name=hidden]") : null;
    return box && box.closest("label") ? box : null;
  }

  function offerHidden(npc) {
    const box = hiddenBox();
    if (!box) return;
    box.checked = false;
    box.closest("label").hidden = !npc;
  }

  // One press of Roll it (writes.js): a double-click records once, a lost answer is asked
  // again with the same key. A refusal is said under the button.
  async function submit() {
    const { api, encounter } = context();
    const request = { ...body() };
    const dice = tableDice();
    if (dice && Object.keys(dice).length) request.dice = dice;
    const hidden = hiddenBox();
    if (hidden && hidden.checked && !hidden.closest("label").hidden) request.hidden = true;
    try {
      await done(await write(api, "POST", `encounters/${encounter.id}/actions`, request));
      justDone = true;
    } catch (error) {
      // Said in the result box, right under the form (a lost answer too: press again).
      fail(error);
      // Out of turn, or a second action this round: the GM may allow it, with a reason.
      if (gm && error instanceof ApiError && error.status === 409) {
        const allow = el("button", { type: "button", id: "override", onclick: () => press(allow,
          async () => {
            const reason = $("override-reason").value.trim();
            if (!reason) throw new Error("say why the GM allows it");
            await done(await write(api, "POST", `encounters/${encounter.id}/actions`,
              { ...request, override_reason: reason }));
            justDone = true;
          }) }, "Allow it (GM)");
        $("result").append(el("div", { class: "row" },
          el("input", { id: "override-reason", placeholder: "why the GM allows it" }), allow));
      }
      throw new Said(error); // refused: said above, and what was typed stays
    }
  }

  const form = $("action-form");
  // Done, the form goes back to its defaults (its parameters as first drawn, no dice typed,
  // the dice mode kept: data-keep) and its rolls and odds are asked again for them.
  onSubmit(form, submit, { redraw: refreshAside });
  // The parameters and the dice mode decide the rolls and the odds; typing the dice
  // themselves must not rebuild the dice inputs under the GM's fingers.
  const decides = (event) => !$("dice-fields").contains(event.target) &&
    event.target.name !== "hidden" && refreshAside();
  form.addEventListener("change", decides);
  form.addEventListener("input", decides);

  return {
    // The encounter ended or the actor left: no stale form stays open.
    close() {
      clearTimeout(previewTimer);
      justDone = false;
      kind = null;
      actor = null;
      form.hidden = true;
      offerHidden(false); // a submit done, or the form put away: unticked for the next
      $("action-fields").replaceChildren();
      $("dice-fields").replaceChildren();
      $("odds").replaceChildren();
    },
    open(newKind, newActor) {
      const { ruleset, encounter, campaign } = context();
      justDone = false;
      kind = newKind;
      actor = newActor;
      form.hidden = false;
      form.dataset.kind = kind;
      // Not the last action's dice and odds: a field typed into before this action's
      // preview came back was wiped by it (and its dice were never sent).
      previews += 1;
      $("dice-fields").replaceChildren();
      $("odds").replaceChildren();
      const schema = ruleset.actions[kind].params;
      const character = campaign.characters.find((c) => c.id === actor);
      const title = panelTitle(ruleset, kind);
      $("action-fields").replaceChildren(el("h3", {}, title),
        el("p", { class: "caption" }, ruleset.actions[kind].description),
        ...schemaFields(schema, targets(ruleset, kind, encounter.combatants, actor), {
          gm, choices: sheetChoices(schema, (character && character.sheet) || {}),
          titles: paramTitles(ruleset) }));
      $("action-submit").textContent = `${label(ruleset, kind)}!`;
      offerHidden(Boolean(character && character.npc));
      refreshAside();
    },
  };
}
