// The GM screen's keyboard and its theme: single-letter shortcuts (never while typing in
// a field or with a dialog open), '?' for their list; a light theme for a projector
// that follows the system unless the GM picks one (kept in this browser).
import { $, el } from "/static/skald.js";

const THEME = "skald.theme";

function typing(target) {
  return target instanceof HTMLElement && (target.isContentEditable
    || ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName));
}

// The keyboard list's rows for the ruleset's own keys ({key, words} each).
export function keyRows(list) {
  const rows = document.createDocumentFragment();
  for (const { key, words } of list) rows.append(el("dt", {}, key), el("dd", {}, words));
  return rows;
}

export function shortcuts(actions) {
  const list = $("shortcuts-dialog");
  const toggle = () => (list.open ? list.close() : list.showModal());
  $("shortcuts-button").addEventListener("click", toggle);
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    if (event.key === "?") { event.preventDefault(); toggle(); return; }
    if (document.querySelector("dialog[open]")) return;
    const act = actions[event.key];
    if (!act) return;
    event.preventDefault();
    act();
  });
}

export function themeToggle(button) {
  const apply = (theme) => {
    if (theme) document.documentElement.dataset.theme = theme;
    const light = theme ? theme === "light" : matchMedia("(prefers-color-scheme: light)").matches;
    button.textContent = light ? "Dark theme" : "Light theme";
    button.dataset.light = String(light);
  };
  apply(localStorage.getItem(THEME));
  button.addEventListener("click", () => {
    const light = button.dataset.light === "true";
    const theme = light ? "dark" : "light";
    localStorage.setItem(THEME, theme);
    apply(theme);
  });
}
