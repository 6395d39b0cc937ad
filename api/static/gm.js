// The GM screen: the roster and the board (gmboard.js, gmorder.js), the ruleset's combat
// panel (gmcombat.js), set-up (gmsetup.js), the GM's changes (gmtools.js), corrections with
// a reason and their diff (gmlog.js), keys for players and viewers (keys.js), enrolling
// (enrol.js), the bestiary (bestiary.js), the campaign's options and their preview
// (gmrules.js) and the keyboard (gmkeys.js). State and reads are shared in gmpage.js.
import { $, client, follow, remember, session, signInForm } from "/static/skald.js";
import { gmTools } from "/static/gmtools.js";
import { campaignMenu, keysBox } from "/static/keys.js";
import { enrolForm } from "/static/enrol.js";
import { bestiaryBox } from "/static/bestiary.js";
import { savedEncountersBox } from "/static/saved.js";
import { keyRows, shortcuts, themeToggle } from "/static/gmkeys.js";
import { askReason } from "/static/gmlog.js";
import { renderBoard, renderRoster, undoLast } from "/static/gmboard.js";
import { nextRound, rollInitiative } from "/static/gmorder.js";
import { actionKeys, panel, renderPanel } from "/static/gmcombat.js";
import { advanceDays, newCampaignForm, startEncounter } from "/static/gmsetup.js";
import { page, refresh, refreshSoon, showError, turnStep, wire } from "/static/gmpage.js";
import { onSubmit } from "/static/writes.js";
import { renderRules, wireRules } from "/static/gmrules.js";

let bestiary = null;

function draw() {
  renderRoster();
  renderBoard();
  renderPanel();
  renderRules(page);
}

function select(id) {
  page.selected = id;
  renderRoster();
  renderBoard();
  panel.close();
  renderPanel();
  $("gm-tools-slot").replaceChildren(gmTools({ page, id, refresh, show: showError, bestiary }));
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
  onSubmit($("setup-form"), startEncounter);
  onSubmit($("days-form"), advanceDays);
  wireRules(page);
  // Steps without a body (next turn, previous, next round) send none; the others `{}`.
  const step = (path, id, body) => () => turnStep(path, body, $(id));
  $("next-turn").addEventListener("click", step("turn", "next-turn"));
  $("prev-turn").addEventListener("click", step("turn/previous", "prev-turn"));
  $("delay-turn").addEventListener("click", step("turn/delay", "delay-turn", {}));
  $("roll-initiative").addEventListener("click", () => rollInitiative($("roll-initiative")));
  $("next-round").addEventListener("click", () => nextRound($("next-round")));
  $("undo-last").addEventListener("click", undoLast);
  $("end-encounter").addEventListener("click", async () => {
    const reason = await askReason("End the encounter? (say why, e.g. 'foes fled')");
    if (reason === null) return;
    await turnStep("end", { reason }, $("end-encounter"));
  });
  await refresh();
  remember(current.campaign, current.key, page.campaign.name);
  $("campaign-menu").replaceChildren(campaignMenu(current));
  const keys = keysBox({ page, show: showError });
  $("keys-slot").replaceChildren(keys.box);
  bestiary = bestiaryBox({ page, refresh, show: showError });
  savedEncountersBox({ page, bestiary, refresh, show: showError });
  enrolForm({ page, refresh, show: showError, keys, bestiary });
  // The ruleset's own keys first (its attack on h...), then the engine's, which win.
  const actionKeyList = actionKeys();
  $("shortcuts-list").insertBefore(keyRows(actionKeyList), $("shortcut-undo"));
  shortcuts({
    ...Object.fromEntries(actionKeyList.map(({ key, run }) => [key, run])),
    n: step("turn", "next-turn"),
    p: step("turn/previous", "prev-turn"),
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

wire({ draw, select });
start().catch((e) => showError(e));
