// Advancing the calendar (docs/calendar.md): how many days, the plan for everyone and
// each character's own, as `POST .../days` takes them ({days, default, characters}).
// The plan's fields come from the schema the ruleset publishes (`day_plan_schema` of
// /rulesets/{id}); a ruleset without daily rules publishes none: no plan is asked for.
import { $, el } from "/static/skald.js";

const words = (name) => name.replaceAll("_", " ");

// One input per field of the plan. For everyone: the field's value, its default first.
// For a character: "as everyone" (left out of the request) or a value of its own.
function planField(name, prop, { own, id }) {
  const label = words(prop.title || name);
  const hint = prop.description || "";
  let input;
  if (prop.enum) {
    input = el("select", { id, "data-plan-field": name },
      own ? el("option", { value: "" }, "— as everyone") : null,
      prop.enum.map((value) => el("option", { value, selected: !own && value === prop.default },
        words(String(value)))));
  } else if (prop.type === "boolean") {
    // A character's yes/no may also be "as everyone": a select, not a checkbox.
    input = own
      ? el("select", { id, "data-plan-field": name, "data-kind": "boolean" },
        el("option", { value: "" }, "— as everyone"),
        el("option", { value: "true" }, "yes"), el("option", { value: "false" }, "no"))
      : el("input", { id, type: "checkbox", "data-plan-field": name, "data-kind": "boolean",
        checked: prop.default === true });
  } else if (prop.type === "integer" || prop.type === "number") {
    input = el("input", { id, type: "number", "data-plan-field": name, "data-kind": prop.type,
      min: prop.minimum, max: prop.maximum, placeholder: prop.default ?? "" });
  } else {
    input = el("input", { id, "data-plan-field": name, placeholder: prop.default ?? "" });
  }
  return el("label", { class: prop.type === "boolean" && !own ? "inline" : "", title: hint },
    `${label} `, input);
}

function readPlan(container) {
  const plan = {};
  for (const input of container.querySelectorAll("[data-plan-field]")) {
    const name = input.dataset.planField;
    if (input.type === "checkbox") { plan[name] = input.checked; continue; }
    if (input.value === "") continue;
    if (input.dataset.kind === "boolean") plan[name] = input.value === "true";
    else if (input.dataset.kind === "integer") plan[name] = parseInt(input.value, 10);
    else if (input.dataset.kind === "number") plan[name] = Number(input.value);
    else plan[name] = input.value;
  }
  return plan;
}

let drawnFor = "";

// Drawn again only when the ruleset or the characters change: a refresh from the feed
// must not undo the plan the GM is choosing.
export function renderDays(page) {
  const schema = page.ruleset.day_plan_schema;
  const characters = page.campaign.characters;
  const identity = JSON.stringify([page.campaign.ruleset, characters.map((c) => [c.id, c.name])]);
  if (identity === drawnFor) return;
  drawnFor = identity;
  const fields = Object.entries((schema && schema.properties) || {});
  if (!fields.length) {
    $("days-default").replaceChildren(el("p", { class: "caption", "data-no-plan": "" },
      "This ruleset's days take no plan: the calendar only moves on."));
    $("days-plans").replaceChildren();
    return;
  }
  $("days-default").replaceChildren(el("fieldset", { class: "row wrap", "data-plan-for": "" },
    el("legend", {}, "Plan for everyone"),
    fields.map(([name, prop]) => planField(name, prop, { own: false, id: `days-default-${name}` }))));
  // (Fieldsets, not folded: the box itself is the GM's one fold.)
  $("days-plans").replaceChildren(...characters.map((c) => el("fieldset",
    { class: "row wrap plan", "data-plan-for": c.id },
    el("legend", {}, `${c.name}'s own plan`),
    fields.map(([name, prop]) =>
      planField(name, prop, { own: true, id: `days-plan-${c.id}-${name}` })))));
}

// The request the form says: a character's plan only where it differs from everyone's.
export function daysRequest() {
  const body = { days: parseInt($("days-count").value, 10) };
  const everyone = $("days-default").querySelector("[data-plan-for]");
  if (!everyone) return body;
  body.default = readPlan(everyone);
  const characters = {};
  for (const box of $("days-plans").querySelectorAll("[data-plan-for]")) {
    const plan = readPlan(box);
    if (Object.keys(plan).length) characters[box.dataset.planFor] = plan;
  }
  if (Object.keys(characters).length) body.characters = characters;
  return body;
}
