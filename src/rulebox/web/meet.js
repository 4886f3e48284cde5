// Where people meet in the lobby (issue 27; its elements carry data-pair / data-open, never
// data-game, which names the game cards of the new-game form): the open games (join, cancel your own), a
// "Play now" button per game (quick pairing, with a waiting state and Cancel) and the
// creation of an open game. The list is kept live by the lobby socket (/api/lobby/ws: the
// list whenever it changes, and `paired` when this browser's queue entry found a game); while
// that socket is down the page asks GET /api/games?open=1 and GET /api/pairing every 2 s.

import { el, clear } from "./dom.js";
import { t, tn, currentLang } from "./i18n.js";
import { api } from "./net.js";
import { storeTokens, timeControls } from "./table.js";
import { ensureName, loggedIn, myName, onIdentity } from "./people.js";

const POLL_MS = 2000; // without the lobby socket, the open games and the queue are asked this often
let poller = null;
let lobbyWs = null;
let pairing = null; // {game, clock, rated, since} while this browser waits in the queue
let go = null; // (gameId) => open the game page

/** Stop the lobby's live updates (the page leaves the lobby). */
export function leaveLobby() {
  if (poller) clearInterval(poller);
  poller = null;
  if (lobbyWs) {
    const ws = lobbyWs;
    lobbyWs = null;
    ws.onclose = null; ws.onmessage = null;
    try { ws.close(); } catch { /* gone */ }
  }
}

/** Columba with four players is two teams (seat.team 0: seats 0+2, 1: seats 1+3): the seats by team. */
export function teamsOf(entry) {
  const seats = seatsOf(entry);
  if (!seats.some((s) => s && s.team !== null && s.team !== undefined)) return null;
  const teams = [];
  seats.forEach((s, p) => { (teams[s.team] ||= []).push(p); });
  return teams.filter(Boolean);
}

function seatsOf(entry) {
  return Array.isArray(entry.seats) ? entry.seats : [];
}

function isFree(seat) {
  return !seat || seat.kind === "open";
}

function ratingText(seat) {
  if (!seat || seat.rating === null || seat.rating === undefined) return "";
  return String(Math.round(Number(seat.rating.value ?? seat.rating)));
}

/** A seat's person as shown: a name, or a computer's level. */
function seatWho(seat) {
  if (seat.kind === "computer") return seat.label || t("computer");
  return seat.name || t("someone");
}

function clockLabel(clock) {
  if (!clock) return t("no clock");
  const known = timeControls().find(([v]) => v === clock);
  return known ? known[1] : clock;
}

function optionsText(entry) {
  const o = entry.options || {};
  return Object.entries(o).filter(([k]) => k !== "seed").map(([k, v]) => `${k}=${v}`).join(" ");
}

function seatLabel(cat, entry, p) {
  const info = cat.games.find((g) => g.id === entry.game);
  return (info && info.seat_names && info.seat_names[p]) || t("seat {n}", { n: p + 1 });
}

/** One seat of an open game: its name and rating, or a Join button. */
function seatCell(cat, entry, p, mine) {
  const seat = seatsOf(entry)[p];
  const dot = el("span", { class: `seat-dot seat-${p}`, "aria-hidden": "true" });
  if (!isFree(seat)) {
    const who = seatWho(seat);
    const name = seat.kind === "computer" ? seat.label : seat.name;
    return el("li", { class: "open-seat taken", "data-seat": p }, dot,
      name ? el("a", { class: "open-seat-name", href: `/#/player/${encodeURIComponent(name)}` }, who) : el("span", {}, who),
      seat.guest ? el("span", { class: "identity-kind" }, t("guest")) : "",
      ratingText(seat) ? el("span", { class: "open-seat-rating" }, ratingText(seat)) : "");
  }
  const join = el("button", { class: "btn join-btn", type: "button", "data-seat": p,
    "aria-label": t("Join {game} as {seat}", { game: titleOf(cat, entry), seat: seatLabel(cat, entry, p) }) }, t("Join"));
  join.disabled = mine;
  join.addEventListener("click", () => joinGame(entry, p, join));
  return el("li", { class: "open-seat free", "data-seat": p }, dot, el("span", { class: "muted" }, seatLabel(cat, entry, p)), join);
}

function titleOf(cat, entry) {
  return entry.title || (cat.games.find((g) => g.id === entry.game) || { title: entry.game }).title;
}

function ownGame(entry) {
  const me = myName();
  return !!(me && entry.created_by && entry.created_by === me);
}

/** An open game as a row: game, options, clock, rated, seats (teams for Columba), actions. */
function openRow(cat, entry) {
  const mine = ownGame(entry);
  const seats = seatsOf(entry);
  const teams = teamsOf(entry);
  const free = seats.filter(isFree).length;
  let seatList;
  if (teams) {
    seatList = el("div", { class: "open-teams" }, ...teams.map((team, k) => el("div", { class: "open-team", "data-team": k },
      el("span", { class: "open-team-name" }, t("Team {n}", { n: k + 1 })),
      el("ul", { class: "open-seats" }, ...team.map((p) => seatCell(cat, entry, p, mine))))));
  } else {
    seatList = el("ul", { class: "open-seats" }, ...seats.map((_, p) => seatCell(cat, entry, p, mine)));
  }
  const actions = el("div", { class: "open-actions" });
  if (mine) {
    const open = el("a", { class: "btn", href: `/game/${entry.id}` }, t("Open"));
    const cancel = el("button", { class: "btn cancel-open", type: "button" }, t("Cancel"));
    cancel.addEventListener("click", () => cancelGame(entry, cancel));
    actions.append(open, cancel);
  }
  const opts = optionsText(entry);
  return el("li", { class: `open-game${mine ? " mine" : ""}`, "data-id": entry.id, "data-open": entry.game },
    el("div", { class: "open-head" },
      el("span", { class: "open-title" }, titleOf(cat, entry)),
      el("span", { class: `open-rated ${entry.rated ? "rated" : "casual"}` }, entry.rated ? t("rated") : t("casual")),
      el("span", { class: "open-clock" }, clockLabel(entry.clock)),
      opts ? el("span", { class: "open-options muted" }, opts) : "",
      el("span", { class: "open-free muted" }, tn("{n} free seat", "{n} free seats", free))),
    seatList, actions);
}

async function joinGame(entry, seat, btn) {
  if (!(await ensureName())) return;
  btn.disabled = true;
  try {
    const r = await api("POST", `/api/games/${entry.id}/join`, { seat });
    const n = Math.max(seatsOf(entry).length, r.seat + 1);
    const tokens = Array.from({ length: n }, (_, k) => (k === r.seat ? r.token : null));
    storeTokens(entry.id, tokens);
    go(entry.id);
  } catch (e) {
    btn.disabled = false;
    showError(e.message);
    refreshOpen();
  }
}

async function cancelGame(entry, btn) {
  btn.disabled = true;
  try {
    await api("POST", `/api/games/${entry.id}/cancel`);
  } catch (e) { showError(e.message); }
  refreshOpen();
}

function showError(message) {
  const box = document.getElementById("meet-error");
  if (box) { box.textContent = message; box.hidden = !message; }
}

let lastCat = null;

/** Ask for the open games and draw them. */
export async function refreshOpen() {
  let r;
  try { r = await api("GET", "/api/games?open=1"); } catch { return; }
  drawOpen(r.games || []);
}

/** Draw the open games (from the lobby socket or GET /api/games?open=1). */
function drawOpen(all) {
  const list = document.getElementById("open-games-list");
  if (!list || !list.isConnected || !lastCat) return;
  const games = all.filter((g) => seatsOf(g).some(isFree));
  const rows = games.map((g) => openRow(lastCat, g));
  clear(list).append(...rows);
  const empty = document.getElementById("open-games-empty");
  if (empty) empty.hidden = games.length > 0;
}

// --- quick pairing ---------------------------------------------------------------------------

function pairingBox() { return document.getElementById("pairing"); }

function drawPairing() {
  const box = pairingBox();
  if (!box) return;
  for (const b of document.querySelectorAll(".play-now")) b.disabled = !!pairing;
  if (!pairing) { box.hidden = true; clear(box); return; }
  const title = (lastCat.games.find((g) => g.id === pairing.game) || { title: pairing.game }).title;
  const cancel = el("button", { class: "btn", type: "button", id: "pairing-cancel" }, t("Cancel"));
  cancel.addEventListener("click", leaveQueue);
  clear(box).append(el("span", { class: "spinner", "aria-hidden": "true" }),
    el("span", { class: "pairing-text" }, t("Looking for an opponent: {game}, {clock}, {rated}…",
      { game: title, clock: clockLabel(pairing.clock), rated: pairing.rated ? t("rated") : t("casual") })),
    cancel);
  box.hidden = false;
}

function paired(r) {
  const gid = r.id;
  if (!gid || !r.token) return;
  const tokens = Array.from({ length: Math.max(2, r.seat + 1) }, (_, k) => (k === r.seat ? r.token : null));
  storeTokens(gid, tokens);
  pairing = null;
  go(gid);
}

async function playNow(game, clock, rated) {
  if (!(await ensureName())) return;
  showError("");
  pairing = { game, clock: clock || null, rated };
  drawPairing();
  try {
    const r = await api("POST", "/api/pairing", { game, clock: clock || null, rated });
    if (r && r.status === "paired") paired(r);
  } catch (e) {
    pairing = null;
    drawPairing();
    showError(e.message);
  }
}

async function pollPairing() {
  if (!pairing) return;
  try {
    const r = await api("GET", "/api/pairing");
    if (r && r.status === "paired") paired(r);
    else if (r && r.status === "none") { pairing = null; drawPairing(); }
  } catch { /* asked again at the next tick */ }
}

async function leaveQueue() {
  pairing = null;
  drawPairing();
  try { await api("DELETE", "/api/pairing"); } catch { /* not in the queue */ }
}

/** The "Play now" row of a game: its clock and rated choice and the button. */
function playNowRow(g) {
  const clock = el("select", { class: "play-now-clock", "data-pair": g.id, "aria-label": t("Clock") },
    ...timeControls().filter(([v]) => v).map(([v, l]) => el("option", { value: v, selected: v === "5+3" ? "" : null }, l)));
  const rated = el("input", { type: "checkbox", class: "play-now-rated", "data-pair": g.id, checked: loggedIn() ? "" : null, disabled: loggedIn() ? null : "" });
  const btn = el("button", { class: "btn primary play-now", type: "button", "data-pair": g.id }, t("Play now"));
  btn.addEventListener("click", () => playNow(g.id, clock.value, rated.checked));
  return el("li", { class: "play-now-row", "data-pair": g.id },
    el("span", { class: "play-now-title" }, g.title), clock,
    el("label", { class: "play-now-rated-label", title: loggedIn() ? "" : t("Rated games need an account") }, rated, " ", t("rated")), btn);
}

/** The lobby's meeting place: Play now per game, the pairing state and the open games. */
export function meetSection(cat, open) {
  lastCat = cat;
  go = open;
  const games = cat.games.filter((g) => g.player_counts.some((n) => n > 1));
  const section = el("section", { class: "meet", id: "meet", "aria-labelledby": "meet-h" },
    el("h2", { id: "meet-h" }, t("Play someone")),
    el("p", { class: "meet-error", id: "meet-error", role: "alert", hidden: "" }),
    el("div", { class: "pairing", id: "pairing", role: "status", "aria-live": "polite", hidden: "" }),
    el("ul", { class: "play-now-list", id: "play-now" }, ...games.map(playNowRow)),
    el("h3", { id: "open-games-h" }, t("Open games")),
    el("ul", { class: "open-games", id: "open-games-list", "aria-labelledby": "open-games-h", "aria-live": "polite" }),
    el("p", { class: "muted", id: "open-games-empty", hidden: "" }, t("No open games: create one below or press Play now.")));
  leaveLobby();
  poller = setInterval(() => {
    if (!section.isConnected) { leaveLobby(); return; }
    if (lobbyWs && lobbyWs.readyState === WebSocket.OPEN) return; // the socket tells
    refreshOpen();
    pollPairing();
  }, POLL_MS);
  const off = onIdentity(() => {
    if (!section.isConnected) { off(); return; }
    clear(section.querySelector("#play-now")).append(...games.map(playNowRow));
    drawPairing();
    // the socket knows the session it opened with: a new one (log in, a guest name) opens anew
    connectLobby(section);
  });
  queueMicrotask(() => { drawPairing(); refreshOpen(); connectLobby(section); });
  return section;
}

/** The lobby socket: the open games whenever they change, and `paired` for this session. */
function connectLobby(section) {
  if (lobbyWs) { const old = lobbyWs; lobbyWs = null; old.onclose = null; old.onmessage = null; try { old.close(); } catch { /* gone */ } }
  if (!section.isConnected) return;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  let ws;
  try { ws = new WebSocket(`${proto}://${location.host}/api/lobby/ws?lang=${encodeURIComponent(currentLang())}`); } catch { return; }
  lobbyWs = ws;
  window.rulebox = { ...(window.rulebox || {}), lobbySocket: ws };
  ws.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    if (msg.type === "lobby") drawOpen(msg.games || []);
    else if (msg.type === "paired" && pairing) paired(msg);
    else if (msg.type === "ping") { try { ws.send(JSON.stringify({ type: "pong" })); } catch { /* closing */ } }
  };
  let opened = false;
  ws.onopen = () => { opened = true; };
  ws.onclose = () => {
    if (lobbyWs !== ws) return;
    lobbyWs = null;
    // polling covers the gap; dial again a little later (a server without the socket: rarely)
    setTimeout(() => { if (!lobbyWs && section.isConnected) connectLobby(section); }, opened ? 3000 : 30000);
  };
}

/** The extra fields of POST /api/games for an open game (listed in the lobby). */
export function openGameFields(rated) {
  return { open: true, rated: !!rated };
}

/** 36 to 1's best scores (GET /api/scores/36to1): a solitaire has no opponent, only a list. */
export function bestScores(cat) {
  const box = el("section", { class: "best-scores", id: "best-scores", hidden: "" });
  const game = cat.games.find((g) => g.id === "36to1");
  if (!game) return box;
  const title = game.title;
  api("GET", "/api/scores/36to1").then((r) => {
    const scores = (r && r.scores) || [];
    if (!scores.length || !box.isConnected) return;
    clear(box).append(el("h2", {}, t("{title}: best scores", { title })),
      el("ol", { class: "best-scores-list" }, ...scores.map((s) => el("li", {},
        el("a", { href: `/#/player/${encodeURIComponent(s.name)}` }, s.name), " ",
        el("a", { class: "muted", href: `/game/${s.game}#watch` }, tn("{n} point", "{n} points", s.score))))));
    box.hidden = false;
  }).catch(() => {});
  return box;
}
