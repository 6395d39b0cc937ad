// A character sheet as a form, generated from the ruleset's published sheet schema
// (GET /rulesets/{id}: sheet_schema): labels, bounds and hints from the schema, lists
// (weapons, armour, spells) as repeated groups. Enrolment (with starter sheets, PC or
// NPC, and multi-add: "3 x Goblin" makes Goblin 1-3) and amendment both use it.
import { el } from "/static/skald.js";

// A schema's name or title in words: "hit_dice" -> "hit dice", "ArmorItem" -> "Armor Item"
// (its button had read "Add armoritem").
const words = (name) => name.replaceAll("_", " ").replace(/([a-z])([A-Z])/g, "$1 $2");

function resolve(schema, root) {
  if (schema && schema.$ref) return resolve(root.$defs[schema.$ref.split("/").pop()], root);
  if (schema && schema.anyOf) {
    const real = schema.anyOf.filter((s) => s.type !== "null");
    if (real.length === 1) return { ...resolve(real[0], root), nullable: true,
      title: schema.title, description: schema.description, default: schema.default };
  }
  return schema || {};
}

let serial = 0;

// One field for a value of `schema`: { node, read } where read() answers the value, or
// undefined for an optional field left empty (the server's default applies).
function field(name, raw, root, value, required) {
  const schema = resolve(raw, root);
  const title = `${words(raw.title || schema.title || name)}${required ? " *" : ""}`;
  const hint = raw.description || schema.description || "";
  const id = `sheet-${name}-${serial++}`;
  if (schema.type === "object" && schema.properties) {
    const group = objectFields(schema, root, value || {});
    return { node: el("fieldset", { class: "stack", "data-sheet-field": name },
      el("legend", {}, title), group.nodes), read: group.read };
  }
  if (schema.type === "array" && schema.items) {
    const item = resolve(schema.items, root);
    const entries = [];
    const holder = el("div", { class: "stack" });
    const add = (v) => {
      const one = item.type === "object" ? objectFields(item, root, v || {}) : null;
      const single = one ? null : field(`${name}-item`, schema.items, root, v, true);
      const entry = el("fieldset", { class: "stack entry" }, el("legend", {}, words(item.title || name)),
        one ? one.nodes : single.node,
        el("button", { type: "button", class: "secondary", onclick: () => {
          entries.splice(entries.indexOf(record), 1); entry.remove();
        } }, "Remove"));
      const record = { read: one ? one.read : single.read };
      entries.push(record);
      holder.append(entry);
    };
    for (const v of value || []) add(v);
    return { node: el("fieldset", { class: "stack", "data-sheet-field": name }, el("legend", {}, title),
      hint ? el("small", { class: "caption" }, hint) : null, holder,
      el("button", { type: "button", class: "secondary", "data-add": name, onclick: () => add() },
        `Add ${words(item.title || name).toLowerCase()}`)),
    read: () => (entries.length || required ? entries.map((e) => e.read()) : undefined) };
  }
  let input;
  if (schema.enum) {
    input = el("select", { id }, required ? null : el("option", { value: "" }, "—"),
      schema.enum.map((v) => el("option", { value: v, selected: v === value }, String(v))));
  } else if (schema.type === "boolean") {
    input = el("input", { id, type: "checkbox", checked: value === true });
  } else if (schema.type === "integer" || schema.type === "number") {
    input = el("input", { id, type: "number", min: schema.minimum, max: schema.maximum,
      step: schema.type === "integer" ? 1 : "any", required: required || null,
      value: value ?? "", placeholder: schema.default ?? "" });
  } else if (schema.type === "string") {
    input = el("input", { id, type: "text", maxlength: schema.maxLength, required: required || null,
      value: value ?? "", placeholder: schema.default ?? "" });
  } else {
    input = el("input", { id, type: "text", placeholder: "JSON",
      value: value === undefined ? "" : JSON.stringify(value) });
  }
  input.dataset.sheet = name;
  const read = () => {
    if (schema.type === "boolean") return input.checked ? true : (value === undefined ? undefined : false);
    if (input.value === "") return undefined;
    if (schema.type === "integer") return parseInt(input.value, 10);
    if (schema.type === "number") return Number(input.value);
    if (schema.enum || schema.type === "string") return input.value;
    return JSON.parse(input.value);
  };
  return { node: el("label", { class: `field${schema.type === "boolean" ? " inline" : ""}`,
    for: id, title: hint }, el("span", {}, title), input, hint ? el("small", {}, hint) : null), read };
}

function objectFields(schema, root, value) {
  const required = new Set(schema.required || []);
  const parts = Object.entries(schema.properties || {}).map(([name, raw]) =>
    [name, field(name, raw, root, value[name], required.has(name))]);
  return { nodes: parts.map(([, part]) => part.node), read: () => {
    const out = {};
    for (const [name, part] of parts) {
      const v = part.read();
      if (v !== undefined) out[name] = v;
    }
    return out;
  } };
}

// The whole sheet: { node, read() -> the sheet }.
export function sheetForm(schema, sheet = {}) {
  const group = objectFields(schema, schema, sheet);
  return { node: el("div", { class: "stack sheet-form" }, group.nodes), read: group.read };
}

// "Goblin" x 3 -> Goblin 1, Goblin 2, Goblin 3; one keeps its name.
export function names(base, count) {
  return count > 1 ? Array.from({ length: count }, (_, i) => `${base} ${i + 1}`) : [base];
}

// What an amendment changes: the top-level fields whose value differs.
export function changes(before, after) {
  const out = {};
  for (const [name, value] of Object.entries(after)) {
    if (JSON.stringify(before[name]) !== JSON.stringify(value)) out[name] = value;
  }
  return out;
}
