// Who plays in this browser (issue 27): a guest (a name chosen once per browser: POST
// /api/guests) or an account (sign up, log in, log out). Either way the session lives in an
// HttpOnly cookie the server sets: the page never sees it and asks the server who it is
// (GET /api/session). The guest's name is also kept in localStorage, to offer it again should
// the guest's session be gone.

import { el, clear } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./net.js";

const GUEST_KEY = "rulebox.guest";
const NAME_RE = /^[\p{L}\p{N}_-]{3,20}$/u;

let account = null; // {name, guest} while this browser has a session
let asked = false;
const listeners = new Set();

/** The guest name this browser chose (null until chosen). */
export function guestName() {
  try { return localStorage.getItem(GUEST_KEY) || null; } catch { return null; }
}

/** The name of this browser's session (an account's or a guest's), or null. */
export function myName() {
  return account ? account.name : null;
}

/** True while an account (not a guest) is logged in here: rated games need one. */
export function loggedIn() { return !!(account && !account.guest); }

/** Call fn whenever the account or the guest name changes. */
export function onIdentity(fn) { listeners.add(fn); return () => listeners.delete(fn); }

function changed() { for (const fn of listeners) { try { fn(); } catch (e) { console.error(e); } } }

/** Ask the server once which account this browser's cookie belongs to. */
export async function whoAmI(force = false) {
  if (asked && !force) return account;
  asked = true;
  const before = JSON.stringify(account);
  try {
    const r = await api("GET", "/api/session");
    account = r && r.name ? { name: r.name, guest: !!r.guest } : null;
  } catch { account = null; }
  if (JSON.stringify(account) !== before) changed(); // what was drawn before the answer
  return account;
}

/** A name's shape as the server takes it (3-20 letters, digits, _ or -); the server decides. */
export function nameProblem(name) {
  if (!NAME_RE.test(name)) return t("A name has 3 to 20 letters, digits, _ or -.");
  return null;
}

/**
 * A session to play under: the one this browser has, or (asked once) a guest's: the dialog
 * offers the guest name chosen before. Resolves to the name, or null when the dialog was closed.
 */
export async function ensureName() {
  await whoAmI();
  if (myName()) return myName();
  return openAccountDialog("guest");
}

// --- the dialog: guest name, log in, sign up ---------------------------------------------------

function dialogShell() {
  let dlg = document.getElementById("account-dialog");
  if (!dlg) {
    dlg = el("dialog", { id: "account-dialog", class: "account-dialog", "aria-labelledby": "account-title" });
    document.body.append(dlg);
  }
  return dlg;
}

/** The account dialog on one of its tabs ("guest", "login", "signup"); resolves to a name or null. */
export function openAccountDialog(tab = "login") {
  const dlg = dialogShell();
  return new Promise((resolve) => {
    let done = false;
    const finish = (name) => {
      if (done) return;
      done = true;
      if (dlg.open) dlg.close();
      resolve(name);
    };
    dlg.onclose = () => finish(null);
    const draw = (which) => {
      const tabs = el("div", { class: "account-tabs", role: "tablist" },
        ...[["guest", t("Play as a guest")], ["login", t("Log in")], ["signup", t("Sign up")]]
          .map(([k, label]) => {
            const b = el("button", { type: "button", role: "tab", class: `account-tab${k === which ? " on" : ""}`,
              "aria-selected": k === which ? "true" : "false", "data-tab": k }, label);
            b.addEventListener("click", () => draw(k));
            return b;
          }));
      const err = el("p", { class: "account-error", id: "account-error", role: "alert" });
      const nameIn = el("input", { id: "account-name", name: "username", autocomplete: "username", maxlength: 20,
        required: "", spellcheck: "false", "aria-describedby": "account-name-help", value: which === "guest" ? guestName() : null });
      const fields = [el("label", { class: "account-field" }, el("span", {}, t("Name")), nameIn),
        el("small", { id: "account-name-help", class: "muted" }, t("3 to 20 letters, digits, _ or -"))];
      let pass = null;
      if (which !== "guest") {
        pass = el("input", { id: "account-password", type: "password", minlength: which === "signup" ? 8 : null, required: "",
          autocomplete: which === "signup" ? "new-password" : "current-password" });
        fields.push(el("label", { class: "account-field" }, el("span", {}, t("Password")), pass));
        if (which === "signup") fields.push(el("small", { class: "muted" }, t("at least 8 characters")));
      }
      const submit = el("button", { class: "btn primary", type: "submit", id: "account-submit" },
        which === "guest" ? t("Choose this name") : which === "login" ? t("Log in") : t("Create the account"));
      const cancel = el("button", { class: "btn", type: "button", id: "account-cancel" }, t("Cancel"));
      cancel.addEventListener("click", () => finish(null));
      const form = el("form", { class: "account-form", method: "dialog" }, ...fields, err, el("div", { class: "actions" }, submit, cancel));
      form.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        const name = nameIn.value.trim();
        const problem = nameProblem(name);
        if (problem && which !== "login") { err.textContent = problem; nameIn.focus(); return; }
        submit.disabled = true;
        try {
          let r;
          if (which === "guest") r = await api("POST", "/api/guests", { name });
          else if (which === "login") r = await api("POST", "/api/session", { name, password: pass.value });
          else r = await api("POST", "/api/players", { name, password: pass.value });
          account = { name: r.name || name, guest: !!r.guest };
          if (account.guest) { try { localStorage.setItem(GUEST_KEY, account.name); } catch { /* private mode */ } }
          asked = true;
          changed();
          finish(myName());
        } catch (e) {
          err.textContent = e.message;
        } finally {
          submit.disabled = false;
        }
      });
      const note = which === "guest" ? el("p", { class: "muted" }, t("A guest plays casual games under a name kept in this browser. Rated games need an account.")) : "";
      clear(dlg).append(el("h2", { id: "account-title" }, which === "guest" ? t("Your name") : which === "login" ? t("Log in") : t("Sign up")), tabs, note, form);
      nameIn.focus();
    };
    draw(tab);
    if (!dlg.open) dlg.showModal();
  });
}

/** Log out: the server forgets the session and clears its cookie. */
export async function logOut() {
  try { await api("DELETE", "/api/session"); } catch { /* already gone */ }
  account = null;
  changed();
}

/** The header's corner: the name (a link to the player page), Log in / Sign up or Log out. */
export function identityBox() {
  const box = el("div", { class: "identity", id: "identity" });
  const draw = () => {
    const name = myName();
    const parts = [];
    if (name) {
      parts.push(el("a", { class: "identity-name", id: "identity-name", href: `/#/player/${encodeURIComponent(name)}` }, name));
      if (account.guest) parts.push(el("span", { class: "identity-kind" }, t("guest")));
    }
    if (loggedIn()) {
      const out = el("button", { class: "btn small-btn", type: "button", id: "logout-btn" }, t("Log out"));
      out.addEventListener("click", logOut);
      parts.push(out);
    } else {
      const login = el("button", { class: "btn small-btn", type: "button", id: "login-btn" }, t("Log in"));
      login.addEventListener("click", () => openAccountDialog("login"));
      const signup = el("button", { class: "btn small-btn", type: "button", id: "signup-btn" }, t("Sign up"));
      signup.addEventListener("click", () => openAccountDialog("signup"));
      parts.push(login, signup);
    }
    clear(box).append(...parts);
  };
  draw();
  const off = onIdentity(() => { if (!box.isConnected) { off(); return; } draw(); });
  whoAmI().then(draw);
  return box;
}
