// The web client's messages: the same gettext catalogue as the Python side (rulebox.i18n),
// loaded as JSON from /api/i18n/<lang>. The English text is the message id.
//
//   import { t, tn } from "./i18n.js";
//   t("Your turn")                                  // "Du bist am Zug" in German
//   t("{name} resigned", { name })                  // named placeholders, filled after translation
//   tn("{n} move", "{n} moves", n, { n })           // plural forms by the language's rule
//
// Both calls must have literal strings as their first arguments: `pybabel extract` reads them
// (keywords t and tn:1,2, babel.cfg) into the catalogue.

export const LANGUAGES = { en: "English", de: "Deutsch", ru: "Русский" };
const STORE_KEY = "rulebox.lang";

let lang = "en";
let messages = {};

function pluralIndex(code, n) {
  n = Math.abs(Math.trunc(Number(n) || 0));
  if (code === "ru") {
    if (n % 10 === 1 && n % 100 !== 11) return 0;
    if (n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 10 || n % 100 >= 20)) return 1;
    return 2;
  }
  return n === 1 ? 0 : 1;
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

/** The message in the current language, its {placeholders} filled from params. */
export function t(msgid, params) {
  const tr = messages[msgid];
  return fill(typeof tr === "string" && tr ? tr : msgid, params);
}

/** The plural form of singular/plural for n in the current language. */
export function tn(singular, plural, n, params) {
  const forms = messages[singular];
  let text;
  if (Array.isArray(forms) && forms.length) {
    text = forms[Math.min(pluralIndex(lang, n), forms.length - 1)] || (n === 1 ? singular : plural);
  } else {
    text = pluralIndex("en", n) === 0 ? singular : plural;
  }
  return fill(text, { n, ...(params || {}) });
}

/** The language in use ("en", "de" or "ru"). */
export function currentLang() { return lang; }

/** The language this browser asked for: the switch's stored choice, then the browser's own. */
export function preferredLang() {
  let stored = null;
  try { stored = localStorage.getItem(STORE_KEY); } catch { stored = null; }
  if (stored && stored in LANGUAGES) return stored;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = String(tag).toLowerCase().split(/[-_]/)[0];
    if (code in LANGUAGES) return code;
  }
  return "en";
}

/** Load the catalogue of code (default: the preferred language) and use it. */
export async function loadLang(code) {
  code = code && code in LANGUAGES ? code : preferredLang();
  if (code === "en") {
    messages = {};
  } else {
    try {
      const res = await fetch(`/api/i18n/${code}`, { headers: { Accept: "application/json" } });
      const data = await res.json();
      messages = data.messages || {};
    } catch {
      messages = {};
      code = "en";
    }
  }
  lang = code;
  document.documentElement.lang = code;
  return code;
}

/** Remember code as this browser's choice (the header's switch) and load it. */
export async function chooseLang(code) {
  try { localStorage.setItem(STORE_KEY, code); } catch { /* private mode: not remembered */ }
  return loadLang(code);
}

/** The header the server reads to answer errors in the player's language. */
export function langHeader() { return { "Accept-Language": lang }; }
