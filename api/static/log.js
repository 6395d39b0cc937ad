// How the pages word audit entries for people: names, not ids or event class names.
"use strict";

function tracksText(tracks) {
  return Object.entries(tracks || {}).map(([k, v]) => `${k.replaceAll("_", " ")} ${v}`).join(", ");
}

export function describe(entry, names) {
  const data = entry.data || {};
  const who = (id) => names[id] || "someone";
  switch (entry.type) {
    case "Campaign.CharacterHealed": {
      const after = (data.tracks || {})[data.character_id];
      return `Day ${data.day}: ${who(data.character_id)} rests and heals (${tracksText(after)})`;
    }
    case "Campaign.KeyIssued":
      return `The GM issued a ${data.role} key${data.label ? ` (${data.label})` : ""}`;
    case "Campaign.KeyRevoked":
      return "The GM revoked a key";
    case "Campaign.WoundMarked":
      return `${who(data.character_id)}: ${String(data.wound).replaceAll("_", " ")} ` +
        `${data.present ? "marked" : "treated"} (${data.reason})`;
    default: {
      const correction = data.correction;
      if (correction && correction.kind) {
        const what = { void: "voided", reroll: "rerolled", rewind: "rewound to version" }[correction.kind]
          || correction.kind;
        const target = correction.number ?? correction.to_version;
        return `GM ${what} ${correction.number ? `action #${target}` : target}: ${correction.reason}`;
      }
      return entry.summary;
    }
  }
}

// The log lines a correction strikes out: "encounter:number" -> status.
export function struckBy(entry) {
  const correction = (entry.data || {}).correction;
  if (!correction || !entry.encounter_id) return [];
  const out = [];
  if (correction.kind === "void") out.push([`${entry.encounter_id}:${correction.number}`, "voided"]);
  if (correction.kind === "reroll") out.push([`${entry.encounter_id}:${correction.number}`, "rerolled"]);
  for (const item of correction.report || []) {
    if (item.status === "voided" || item.status === "superseded") {
      out.push([`${entry.encounter_id}:${item.number}`, item.status]);
    }
  }
  return out;
}
