// The table between people (issue 27): the chat (the players' channel; spectators have their
// own), muting a player, takebacks asked and answered, the abandonment claim when an opponent
// is gone past the grace period, and the spectator count. Messages are shown as text only.

import { el, clear } from "./dom.js";
import { t, tn } from "./i18n.js";
import { api } from "./net.js";
import { ensureName } from "./people.js";

const MAX_CHAT = 500;
const MUTE_KEY = "rulebox.muted";

let ctx = null; // {id, token(), state(), accept(payload), toast(msg), myName(), refresh()}
let claimTimer = null;
let messages = [];
let seen = new Set();

function muted() {
  try { return new Set(JSON.parse(localStorage.getItem(MUTE_KEY) || "[]")); } catch { return new Set(); }
}

function setMuted(name, on) {
  const m = muted();
  if (on) m.add(name); else m.delete(name);
  try { localStorage.setItem(MUTE_KEY, JSON.stringify([...m])); } catch { /* private mode */ }
}

/** The chat panel and the table's people controls, built once per game page. */
export function talkPanels(hooks) {
  ctx = hooks;
  clearTimeout(claimTimer);
  messages = [];
  seen = new Set();
  const input = el("input", { id: "chat-input", maxlength: MAX_CHAT, autocomplete: "off", "aria-label": t("Message"), placeholder: t("Message") });
  const form = el("form", { class: "chat-form", id: "chat-form" }, input, el("button", { class: "btn", type: "submit", id: "chat-send" }, t("Send")));
  form.addEventListener("submit", (ev) => { ev.preventDefault(); sendChat(input); });
  return {
    people: el("div", { class: "people-box", id: "people-box" },
      el("p", { class: "spectator-count", id: "spectator-count", "aria-live": "polite" }),
      el("div", { class: "takeback-box", id: "takeback-box" }),
      el("div", { class: "abandon-box", id: "abandon-box", role: "status" })),
    chat: el("section", { class: "chat", id: "chat", "aria-labelledby": "chat-h" },
      el("h3", { id: "chat-h" }, t("Chat")),
      el("ol", { class: "chat-log", id: "chat-log", role: "log", "aria-live": "polite" }),
      form),
  };
}

async function sendChat(input) {
  const text = input.value.trim();
  if (!text) return;
  if (text.length > MAX_CHAT) { ctx.toast(t("A message has at most {n} characters.", { n: MAX_CHAT })); return; }
  // a spectator writes under a session (a guest name or an account)
  if (!ctx.token() && !(await ensureName())) return;
  try {
    const r = await api("POST", `/api/games/${ctx.id}/chat`, { text }, ctx.token() || undefined);
    input.value = "";
    if (r && r.message) addMessages([r.message]);
  } catch (e) { ctx.toast(e.message); }
}

/** Messages from the server (the socket's `chat` messages or the game's stored chat). */
export function addMessages(list) {
  for (const m of list || []) {
    const key = m.id ?? `${m.at}:${m.name}:${m.text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    messages.push(m);
  }
  messages.sort((a, b) => (a.id ?? a.at ?? 0) - (b.id ?? b.at ?? 0));
  drawChat();
}

/** The stored chat of the game (after a reload or a reconnection). */
export async function loadChat() {
  try {
    const r = await api("GET", `/api/games/${ctx.id}/chat`, undefined, ctx.token());
    addMessages(r.messages || []);
  } catch { /* the socket brings new ones */ }
}

function drawChat() {
  const log = document.getElementById("chat-log");
  if (!log) return;
  const stick = log.scrollHeight - log.scrollTop - log.clientHeight < 30;
  const mutedNow = muted();
  const me = ctx.myName ? ctx.myName() : null;
  clear(log).append(...messages.filter((m) => !mutedNow.has(m.name)).map((m) => {
    const from = m.name || t("someone");
    const line = el("li", { class: `chat-msg${m.channel === "spectators" ? " spect" : ""}`, "data-from": from, "data-id": m.id ?? "" },
      el("span", { class: "chat-from" }, from), el("span", { class: "chat-text" }, String(m.text ?? "")));
    if (m.name && m.name !== me) {
      const b = el("button", { class: "mute-btn", type: "button", title: t("Mute {name}", { name: m.name }),
        "aria-label": t("Mute {name}", { name: m.name }), "data-mute": m.name }, t("mute"));
      b.addEventListener("click", () => mute(m.name, true));
      line.append(b);
    }
    return line;
  }));
  if (stick) log.scrollTop = log.scrollHeight;
  drawMuted();
}

/** Mute (or unmute) a name: hidden here at once; a seat also asks the server to stop sending it. */
async function mute(name, on) {
  setMuted(name, on);
  drawChat();
  if (!ctx.token()) return;
  try { await api("POST", `/api/games/${ctx.id}/mute`, { name, muted: on }, ctx.token()); } catch { /* hidden here all the same */ }
}

function drawMuted() {
  const chat = document.getElementById("chat");
  if (!chat) return;
  let box = document.getElementById("muted-list");
  const m = [...muted()];
  if (!m.length) { if (box) box.remove(); return; }
  if (!box) { box = el("p", { class: "muted-list muted small", id: "muted-list" }); chat.append(box); }
  clear(box).append(t("Muted:"), " ", ...m.flatMap((name) => {
    const b = el("button", { class: "linklike unmute", type: "button", "data-unmute": name, title: t("Unmute {name}", { name }) }, name);
    b.addEventListener("click", () => mute(name, false));
    return [b, " "];
  }));
}

// --- takebacks, abandonment, spectators: drawn from each payload --------------------------------

async function act(path, body) {
  try {
    const r = await api("POST", `/api/games/${ctx.id}/${path}`, body, ctx.token());
    if (r && r.view) await ctx.accept(r);
  } catch (e) { ctx.toast(e.message); }
}

function btn(label, id, fn, cls = "btn") {
  const b = el("button", { class: cls, type: "button", id }, label);
  b.addEventListener("click", fn);
  return b;
}

/** Draw the people controls for a payload (st) as this page sees it (mine: my seats). */
export function drawPeople(st, { mine, spectator, seatName, replaying }) {
  const count = document.getElementById("spectator-count");
  if (count) {
    const n = Number(st.spectators || 0);
    count.textContent = tn("{n} spectator", "{n} spectators", n);
    count.hidden = st.spectators === undefined;
  }
  const chat = document.getElementById("chat");
  if (chat) {
    // a chat between people: not in hot-seat, a solitaire or a game against computers only
    const others = st.seats.some((s, p) => s.kind !== "computer" && !mine(p));
    chat.hidden = !!st.hotseat || st.seats.length < 2 || (!spectator && !others);
    const h = document.getElementById("chat-h");
    if (h) h.textContent = spectator ? t("Spectators' chat") : t("Chat");
  }
  const tb = clear(document.getElementById("takeback-box"));
  const ab = clear(document.getElementById("abandon-box"));
  if (!tb || st.over || spectator || replaying || st.hotseat) { if (ab) ab.hidden = true; return; }
  const ask = st.takeback;
  // takebacks between two people (a computer's game, hot-seat and 3-4 players have the undo)
  const people = st.seats.length === 2 && st.seats.every((s) => s.kind !== "computer") && st.seats.some((s, p) => !mine(p));
  if (people && !st.open) {
    if (ask === null || ask === undefined) {
      if (st.ply > 0) tb.append(btn(t("Ask to take back"), "takeback-ask", () => act("takeback", { action: "ask" })));
    } else if (mine(ask.asked_by)) {
      tb.append(el("span", { class: "muted small" }, t("You asked to take back your last move."), " "),
        btn(t("Withdraw"), "takeback-withdraw", () => act("takeback", { action: "withdraw" })));
    } else {
      tb.append(el("div", { class: "offer" }, el("strong", {}, t("{name} asks to take back a move.", { name: seatName(st, ask.asked_by) })),
        btn(t("Accept"), "takeback-accept", () => act("takeback", { action: "accept" })),
        btn(t("Decline"), "takeback-decline", () => act("takeback", { action: "decline" }))));
    }
  }
  const gone = st.claim || null; // {gone: [seats], since, at, can_claim}
  ab.hidden = !gone;
  clearTimeout(claimTimer);
  if (!gone) return;
  const seats = gone.gone || [];
  const names = seats.map((p) => seatName(st, p)).join(t(" and "));
  if (gone.can_claim) {
    ab.append(el("p", {}, tn("{names} has left the game.", "{names} have left the game.", seats.length, { names })),
      btn(t("Claim the win"), "claim-win", () => act("claim", { result: "win" }), "btn primary"),
      btn(t("Call it a draw"), "claim-draw", () => act("claim", { result: "draw" })));
  } else {
    ab.append(el("p", { class: "muted" }, tn("{names} has gone: if they do not come back you may claim the game.",
      "{names} have gone: if they do not come back you may claim the game.", seats.length, { names })));
    // the server says when a claim is allowed (epoch ms by its clock); the page asks again then,
    // never later than the whole grace period from now (a browser clock that is off) nor than a minute
    const grace = Math.max(0, Number(gone.at) - Number(gone.since || gone.at));
    const wait = Math.min(grace, 60000, Math.max(0, Number(gone.at) - Date.now()));
    claimTimer = setTimeout(() => { if (ctx.refresh) ctx.refresh(); }, wait + 250);
  }
}
