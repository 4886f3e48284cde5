// The table around the board (issue 17): the browser's seats (tokens), settings, clocks, the
// tab's title and favicon, a beep, copying a link. No rules and no drawing of boards here.

import { t } from "./i18n.js";

// --- the seats this browser holds -----------------------------------------------------------
// A game's tokens are kept in localStorage under "rulebox:<id>" as a list, one slot per seat
// (null where this browser has no seat). Only a link's #t= fragment or a game this page created
// writes them; opening a game to watch (#watch) never does.

const KEY = /^rulebox:([A-Za-z0-9]+)$/;

/** The stored tokens of a game (a list with null slots), or null when it has none. */
export function storedTokens(gameId) {
  try {
    const v = JSON.parse(localStorage.getItem(`rulebox:${gameId}`) || "null");
    return Array.isArray(v) ? v.map((x) => (typeof x === "string" && x ? x : null)) : null;
  } catch { return null; }
}

/** Keep tokens for a game (nothing is written when no slot holds one). */
export function storeTokens(gameId, tokens) {
  if (!tokens || !tokens.some((x) => x)) return;
  localStorage.setItem(`rulebox:${gameId}`, JSON.stringify(tokens));
  localStorage.setItem(`rulebox:${gameId}:at`, String(Date.now()));
}

/**
 * The tokens a page of a game acts with. The link's fragment (#t=TOKEN, #t=,TOKEN1 or
 * #t=TOK0,TOK1 for hot-seat) adds seats to the stored ones, slot by slot; #watch (the lobby's
 * links) changes nothing stored, so a game of yours opened from "Watch a game" keeps your seat.
 */
export function tokensFor(gameId, hash) {
  return seatsFromLink(gameId, hash).tokens;
}

/**
 * The tokens a page acts with, and the seats the link offers that this browser must be asked
 * about first (`asks`: [{slot, token}]): a link to another seat of a game where this browser
 * already plays one (one's own invite link for the opponent, opened in the same browser) is
 * not taken silently; only a link that adds nothing or gives a seat to a browser without one is
 * stored at once (issue 28).
 */
export function seatsFromLink(gameId, hash) {
  const saved = storedTokens(gameId);
  const frag = new URLSearchParams((hash || "").replace(/^#/, ""));
  if (!frag.has("t")) return { tokens: saved || [], asks: [] };
  const given = frag.get("t").split(",").map((x) => x || null);
  const held = (saved || []).some((x) => x);
  const asks = [];
  const merged = given.map((x, i) => {
    const before = (saved && saved[i]) || null;
    if (x && !before && held) { asks.push({ slot: i, token: x }); return null; }
    return x || before;
  });
  if (saved) for (let i = given.length; i < saved.length; i++) merged[i] = saved[i];
  storeTokens(gameId, merged);
  return { tokens: merged, asks };
}

/** Take seats a link offered (after the player said yes). */
export function takeSeats(gameId, asks) {
  const tokens = storedTokens(gameId) || [];
  for (const { slot, token } of asks) {
    while (tokens.length <= slot) tokens.push(null);
    tokens[slot] = token;
  }
  storeTokens(gameId, tokens);
  return tokens;
}

/** Every game this browser holds a seat of, newest first (at most limit). */
export function myGames(limit = 50) {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const m = (localStorage.key(i) || "").match(KEY);
    if (!m) continue;
    const tokens = storedTokens(m[1]);
    if (!tokens || !tokens.some((x) => x)) continue;
    const at = Number(localStorage.getItem(`rulebox:${m[1]}:at`) || 0);
    out.push({ id: m[1], token: tokens.find((x) => x), tokens, at });
  }
  out.sort((a, b) => b.at - a.at);
  return out.slice(0, limit);
}

// --- settings ---------------------------------------------------------------------------------

const SETTINGS = "rulebox.settings";
const DEFAULTS = { sound: false, confirm: false };

/** The player's settings: sound (off by default) and confirm move (off by default). */
export function settings() {
  try { return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(SETTINGS) || "{}") }; } catch { return { ...DEFAULTS }; }
}

/** Change one setting. */
export function setSetting(name, value) {
  const s = settings();
  s[name] = value;
  try { localStorage.setItem(SETTINGS, JSON.stringify(s)); } catch { /* private mode */ }
}

// --- clocks -------------------------------------------------------------------------------------

/** Seconds as a clock shows them: 4:05, 1:02:03, 2d 3h, and tenths under ten seconds. */
export function formatClock(seconds) {
  const s = Math.max(0, seconds);
  if (s >= 86400) {
    const d = Math.floor(s / 86400);
    const h = Math.floor((s % 86400) / 3600);
    return t("{d}d {h}h", { d, h });
  }
  if (s < 10) return s.toFixed(1);
  const whole = Math.floor(s);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const sec = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/**
 * Seconds left per seat now: remaining[running] counted down from the server's time of the
 * payload (skew: the browser's clock minus the server's, measured when the payload came).
 */
export function clockNow(clock, receivedAt, now = Date.now()) {
  if (!clock || !Array.isArray(clock.remaining)) return null;
  const left = clock.remaining.map(Number);
  if (clock.running !== null && clock.running !== undefined && left[clock.running] !== undefined) {
    left[clock.running] = Math.max(0, left[clock.running] - (now - receivedAt) / 1000);
  }
  return left;
}

/** The time controls offered at creation: [value, label] ("" is none). */
export function timeControls() {
  return [["", t("no clock")], ["3+2", t("3 min + 2 s")], ["5+3", t("5 min + 3 s")],
    ["15+10", t("15 min + 10 s")], ["1d", t("1 day a move")], ["3d", t("3 days a move")]];
}

// --- the tab: title, favicon, a beep ------------------------------------------------------------

const ICON = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='3' fill='%23a0522d'/%3E%3Ccircle cx='8' cy='8' r='4' fill='%23f6e7b0'/%3E";
const DOT = "%3Ccircle cx='12.5' cy='3.5' r='3.5' fill='%2322c55e' stroke='%23fff' stroke-width='1'/%3E";

/** The favicon: with a green dot while it is the player's turn. */
export function setFavicon(turn) {
  let link = document.querySelector("link[rel='icon']");
  if (!link) { link = document.createElement("link"); link.rel = "icon"; document.head.append(link); }
  const href = `${ICON}${turn ? DOT : ""}%3C/svg%3E`;
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
  link.dataset.turn = turn ? "1" : "0";
}

let audio = null;

/** A short two-tone beep (WebAudio, no file); silent where audio is not allowed yet. */
export function beep() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const now = audio.currentTime;
    for (const [f, at] of [[660, 0], [880, 0.12]]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = f;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(0.15, now + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.11);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + at);
      osc.stop(now + at + 0.12);
    }
    window.rulebox_beeps = (window.rulebox_beeps || 0) + 1;
  } catch { /* no audio here */ }
}

/** Copy text to the clipboard; falls back to selecting an input holding it. */
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (input) { input.focus(); input.select(); }
    try { return document.execCommand("copy"); } catch { return false; }
  }
}

/** A rule ID such as [COL-12] or (CR-9) taken out of a text meant for people. */
export function withoutRuleIds(text) {
  return String(text || "").replace(/\s*[[(]?\b[A-Z0-9]{2,4}-\d+[a-z]?\b[\])]?/g, "").replace(/\s+([,.:;])/g, "$1").trim();
}

/** The rule IDs of a text ([COL-12] -> COL-12). */
export function ruleIds(text) {
  return [...String(text || "").matchAll(/\b[A-Z0-9]{2,4}-\d+[a-z]?\b/g)].map((m) => m[0]);
}

/** A short example of a game's notation, from the catalogue's notation help ("Ra1", "B2-C2"). */
export function notationExample(help) {
  for (const line of String(help || "").split("\n")) {
    const m = line.match(/^\s{2,}(\S+(?: \S+)*?)\s{2,}\S/);
    if (m && m[1].length <= 24) return m[1];
  }
  return "";
}
