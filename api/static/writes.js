// One way for the pages to write (issue 36). Every write a page makes goes through here:
//
// - `press(control, task)` runs what one press of a control means (a button, or a form
//   and its submit buttons): the control is disabled until it is done, a second press
//   meanwhile (a double-click, Enter twice) joins the first instead of doing it again,
//   and whatever goes wrong is said next to the control, in view, for a screen reader
//   too (role=alert), in the API's own words (its RFC 9457-style `message`).
// - `write(api, method, path, body)` sends one request with an `Idempotency-Key`, one key
//   per intent: the same request (method, address, body) sent again before an answer came
//   back is the same intent and carries the same key, so the server answers it from its
//   record instead of doing it twice; once an answer has come (done or refused), the next
//   press is a new intent with a new key. A change of a track by -1/+1 is sent as "set to"
//   the value the GM saw minus or plus one: each press its own intent, never applied twice.
// - A form (or the fields a press reads) goes back to its defaults once the API took the
//   write (`reset`), so the next submit is not the last one again by accident (an enrolled
//   PC's "PC" and player's name kept: the next enrolment gave that player a second key); a
//   refusal keeps every value typed, the API's words beside the control.
import { ApiError, el, request } from "/static/skald.js";

// Intents sent but not answered, by request: a lost answer keeps its key for the retry.
const unanswered = new Map();

export class LostAnswer extends Error {
  constructor() {
    super("no answer came back (the connection dropped): press again to ask again; " +
      "it is sent as the same request, so it is done once");
    this.lost = true;
  }
}

// `key`: a press that makes several requests (enrol "3 x Goblin") keys each itself, so a
// retry of the whole press after a lost answer repeats none of them (see `batchKeys`).
export async function write(api, method, path, body, { key } = {}) {
  const url = path.startsWith("/") ? path : `${api.base}/${path}`;
  const asked = `${method} ${url} ${body === undefined ? "" : JSON.stringify(body)}`;
  let intent = key ? { key } : unanswered.get(asked);
  if (!intent) {
    intent = { key: crypto.randomUUID() };
    unanswered.set(asked, intent);
  }
  const headers = { ...api.headers, "idempotency-key": intent.key };
  try {
    const data = await request(url, { method, headers, body });
    unanswered.delete(asked);
    return data;
  } catch (error) {
    if (!(error instanceof ApiError)) throw new LostAnswer(); // a retry reuses its key
    unanswered.delete(asked); // refused: answered, so the next press is a new intent
    throw error;
  }
}

// The keys of a press of several requests: the nth request's key is the batch's and n.
// The batch is kept on the control while an answer is missing (a retry reuses it) and
// dropped once the press is done or refused (the next press is a new intent).
export async function batchKeys(control, run) {
  control.dataset.batch ||= crypto.randomUUID();
  const batch = control.dataset.batch;
  try {
    const result = await run((n) => `${batch}-${n}`);
    delete control.dataset.batch;
    return result;
  } catch (error) {
    if (!(error instanceof LostAnswer)) delete control.dataset.batch;
    throw error;
  }
}

// What a control's press runs now (a second press joins it) and the controls it disables.
const running = new WeakMap();

function buttonsOf(control) {
  if (control instanceof HTMLFormElement) {
    return [...control.querySelectorAll("button, input[type=submit]")];
  }
  return [control];
}

// The message next to a control: after a form's last button, else right after the control.
function messageSlot(control) {
  const anchor = control instanceof HTMLFormElement
    ? buttonsOf(control).at(-1) || control.lastElementChild : control;
  let slot = anchor && anchor.nextElementSibling;
  if (slot && slot.dataset.writeMessage !== undefined) return slot;
  slot = el("span", { class: "write-message", "data-write-message": "", "aria-live": "polite" });
  if (anchor) anchor.after(slot); else control.append(slot);
  return slot;
}

export function clearProblem(control) {
  const anchor = control instanceof HTMLFormElement ? buttonsOf(control).at(-1) : control;
  const slot = anchor && anchor.nextElementSibling;
  if (slot && slot.dataset.writeMessage !== undefined) slot.replaceChildren();
}

// What went wrong, in the API's words: "409: ..." (data-problem: the status, or "lost").
export function problem(error, tag = "span") {
  const text = error instanceof ApiError ? `${error.status}: ${error.message}`
    : String((error && error.message) || error);
  return el(tag, { class: "error", role: "alert",
    "data-problem": error instanceof ApiError ? String(error.status) : error && error.lost ? "lost" : "" },
  text);
}

export function sayProblem(control, error) {
  const slot = messageSlot(control);
  slot.replaceChildren(problem(error));
  slot.scrollIntoView({ block: "nearest" });
}

// A button a page enables or disables by its state (the encounter ended, nothing to
// undo): said here, so a press under way keeps it disabled and leaves it as said after.
const pressing = new WeakSet();
export function enable(button, on) {
  button.dataset.off = on ? "" : "off";
  if (!pressing.has(button)) button.disabled = !on;
}

// A double-click is one press, however quick the first was. The control is off while its
// press is under way, but a quick press (the bestiary's Enrol: one write, one read) can be
// done before the second click of a double-click comes (a GM's two clicks are 100-200 ms
// apart; a loaded machine spread Playwright's up to 165 ms), and that click pressed again:
// a new intent, a new key, recorded twice. So the browser's second (third...) click of a
// multi-click (its `detail`) on a button does nothing when the click that began it pressed
// a control, even one drawn again since (a track's -1 on a card the press redrew).
let clickPressed = false; // whether the click that began this multi-click pressed a control
addEventListener("click", (event) => {
  if (event.detail <= 1) {
    clickPressed = false; // a first click (or Enter, Space: detail 0) begins anew
    return;
  }
  const target = event.target instanceof Element ? event.target : null;
  if (clickPressed && target && target.closest("button, input[type=submit], input[type=button]")) {
    event.preventDefault();
    event.stopImmediatePropagation();
  }
}, true);

// How many presses are under way, on the page's root (data-writing): what a test (or a
// style) may wait on.
let underWay = 0;
function presses(by) {
  underWay += by;
  if (underWay) document.documentElement.dataset.writing = String(underWay);
  else delete document.documentElement.dataset.writing;
}

// A failure the task has said itself (the action form's result box, with its "Allow it"):
// the press failed (nothing is reset) and press says nothing more.
export class Said extends Error {
  constructor(cause) {
    super(String((cause && cause.message) || cause));
    this.cause = cause;
  }
}

// The fields under `roots` (a form, a fieldset, a field, or a list of them).
function fieldsOf(roots) {
  return [roots].flat().filter(Boolean).flatMap((root) => (root.matches("input, select, textarea")
    ? [root] : [...root.querySelectorAll("input, select, textarea")]))
    .filter((f) => !["submit", "button", "file"].includes(f.type));
}

// What a field holds now, to tell whether it was changed while a press was under way.
function stateOf(field) {
  if (field instanceof HTMLSelectElement) {
    return [...field.selectedOptions].map((o) => o.value).join("\n"); // its options may be drawn anew
  }
  return field.type === "checkbox" || field.type === "radio" ? String(field.checked) : field.value;
}

// Every field under `roots` back to the value it was drawn with (its default: the page
// draws a field's default as its attribute), except a field marked data-keep (a standing
// choice, such as the action form's server or table dice) and, given `typed` (what each
// field held when the press began), a field changed since: typed while the write was on
// its way, it is the next entry, not this one.
export function resetFields(roots, typed = null) {
  for (const field of fieldsOf(roots)) {
    if (field.closest("[data-keep]")) continue;
    if (typed && typed.has(field) && typed.get(field) !== stateOf(field)) continue;
    if (field instanceof HTMLSelectElement) {
      const options = [...field.options];
      if (field.multiple) options.forEach((o) => { o.selected = o.defaultSelected; });
      else field.selectedIndex = Math.max(0, options.findLastIndex((o) => o.defaultSelected));
    } else if (field.type === "checkbox" || field.type === "radio") {
      field.checked = field.defaultChecked;
    } else {
      field.value = field.defaultValue;
    }
  }
}

// Run one press of `control`. Resolves to the task's result, or to undefined when it failed
// (the failure is then said next to the control) or when it joined a press under way.
// `where`: an element that says this control's problems (the GM tools' result box, right
// above them) instead of a message slot beside the control.
// `reset`: what goes back to its defaults once the task is done (the API took the write):
// a form, a fieldset, fields (a list), or true for the control itself (a form); then
// `redraw()` draws again what the page draws from those fields (the enrolment's sheet from
// its starter). A field changed while the write was on its way keeps what was typed in
// it. A failure resets nothing: what was typed stays, to be put right.
export function press(control, task, { where, reset, redraw } = {}) {
  clickPressed = true;
  if (!control) return Promise.resolve(task()).catch((error) => { console.error(error); });
  const under = running.get(control);
  if (under) return under.then(() => undefined);
  const buttons = buttonsOf(control);
  const before = buttons.map((b) => b.disabled);
  buttons.forEach((b) => { b.disabled = true; pressing.add(b); });
  clearProblem(control);
  const resets = reset === true ? control : reset;
  const typed = resets ? new Map(fieldsOf(resets).map((f) => [f, stateOf(f)])) : null;
  const done = (async () => {
    try {
      let result;
      try {
        result = await task();
      } catch (error) {
        if (!(error instanceof Said)) {
          if (where) where.replaceChildren(problem(error, "p")); else sayProblem(control, error);
        }
        return undefined;
      }
      if (resets) {
        resetFields(resets, typed);
        if (redraw) redraw();
      }
      return result;
    } finally {
      running.delete(control);
      buttons.forEach((b, n) => {
        pressing.delete(b);
        b.disabled = b.dataset.off !== undefined ? b.dataset.off === "off" : before[n];
      });
    }
  })();
  running.set(control, done);
  presses(+1);
  done.finally(() => presses(-1));
  return done;
}

// A form's submit, as one press of the form: done, the form goes back to its defaults
// (`reset: false` keeps it, for a form the task replaces; `redraw` as for press).
export function onSubmit(form, task, { reset = true, ...options } = {}) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    press(form, () => task(event), { ...options, reset: reset && form });
  });
}
