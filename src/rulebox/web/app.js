// rulebox web client: a lobby and a game page. It knows no rules: it draws the JSON views
// the server sends and posts move text. The `legal` list the server sends to the seat to move
// is used only to highlight what can be clicked. The page around the board (issue 17): your
// games, the move log in words, clocks, presence, the end screen, settings (docs/WEB.md).

import { el, svg, clear, markdown } from "./dom.js";
import { t, tn, loadLang, chooseLang, currentLang, langHeader, LANGUAGES } from "./i18n.js";
import {
  tokensFor, storeTokens, storedTokens, myGames, settings, setSetting, formatClock, clockNow,
  timeControls, setFavicon, beep, copyText, withoutRuleIds, ruleIds, notationExample,
} from "./table.js";
import "./review.js"; // the game review (issue 22): adds itself to finished games
import * as generic from "./boards/generic.js";

const BOARDS = {
  columns: "./boards/columns.js",
  "36to1": "./boards/solitaire36.js",
  countred: "./boards/countred.js",
  discs: "./boards/discs.js",
  columba: "./boards/columba.js",
};

function blurb(id) {
  return {
    columns: t("Stack roundels and blockers on twelve pins; most roundels on the top level wins."),
    "36to1": t("A solitaire: clear a 6×6 grid of cubes with cards until one cube is left."),
    countred: t("Count the red pieces around you: odd or even decides every move."),
    columba: t("Lay pigeon cards, found dovecotes, and grow the largest estates."),
    discs: t("Turn discs, move pins, lock and bar: collect a token of every colour."),
  }[id] || "";
}

const app = document.getElementById("app");
let catalog = null;
const PING_EVERY = 10000; // ms between pings on the socket
const PONG_WITHIN = 5000; // a socket that does not answer a ping in this time is dead
const TOAST_MS = 4000;

// ---------------------------------------------------------------------------------------------
// helpers

async function api(method, path, body, token) {
  const headers = { Accept: "application/json", ...langHeader() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const sep = path.includes("?") ? "&" : "?";
  const url = `${path}${sep}lang=${encodeURIComponent(currentLang())}`;
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const err = new Error((data && data.error && data.error.message) || t("HTTP error {status}", { status: res.status }));
    err.status = res.status;
    err.info = data && data.error;
    throw err;
  }
  return data;
}

let toastTimer = null;
/** A short message at the top of the page: gone after 4 s, at the next move, or when clicked. */
export function toast(message, kind = "error") {
  const box = document.getElementById("toast");
  box.textContent = message;
  box.className = `toast ${kind}`;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(hideToast, TOAST_MS);
}

function hideToast() {
  clearTimeout(toastTimer);
  const box = document.getElementById("toast");
  if (box) box.hidden = true;
}

async function loadCatalog() {
  if (!catalog || catalog.lang !== currentLang()) {
    catalog = await api("GET", "/api/catalog");
    catalog.lang = currentLang();
  }
  return catalog;
}

function catalogGame(id) {
  return (catalog && catalog.games.find((g) => g.id === id)) || null;
}

async function showRules(gameId, rule) {
  const dlg = document.getElementById("rules-dialog");
  const body = document.getElementById("rules-body");
  document.getElementById("rules-title").textContent = t("Rules");
  clear(body).append(el("p", {}, t("Loading…")));
  if (!dlg.open) dlg.showModal();
  try {
    const r = await api("GET", `/api/rules/${encodeURIComponent(gameId)}`);
    document.getElementById("rules-title").textContent = t("{title}: rules", { title: r.title });
    clear(body).append(markdown(r.text), el("h3", {}, t("Move notation")), el("pre", { class: "notation" }, r.notation));
    if (rule) {
      const hit = [...body.querySelectorAll(".rule-id")].find((x) => x.textContent === rule);
      if (hit) { hit.classList.add("wanted"); hit.scrollIntoView({ block: "center" }); }
    }
  } catch (e) {
    clear(body).append(el("p", {}, e.message));
  }
}

/** A computer level in the page's language (the level's id stays what the server takes). */
function levelName(level) {
  return { easy: () => t("easy"), medium: () => t("medium"), hard: () => t("hard") }[level]?.() ?? level;
}

/** A seat's kind as the server labels it ("computer (hard)", "human") in the page's language. */
function kindLabel(label) {
  const m = /^computer \((.+)\)$/.exec(label || "");
  if (m) return t("computer ({level})", { level: levelName(m[1]) });
  return { computer: () => t("computer"), human: () => t("human") }[label]?.() ?? label;
}

function seatName(st, p) {
  const s = st && st.seats && st.seats[p];
  if (s && s.name) return s.name;
  return t("seat {n}", { n: p + 1 });
}

// ---------------------------------------------------------------------------------------------
// the header: the language switch and the settings

function header() {
  const box = document.getElementById("header-tools");
  if (!box) return;
  const tagline = document.querySelector(".tagline");
  if (tagline) tagline.textContent = t("five board games, played exactly by their rulebooks");
  const toastBox = document.getElementById("toast");
  if (toastBox) toastBox.title = t("click to close");
  const close = document.getElementById("rules-close");
  if (close) close.setAttribute("aria-label", t("Close"));
  const lang = el("select", { id: "lang", "aria-label": t("Language") },
    ...Object.entries(LANGUAGES).map(([code, name]) => el("option", { value: code, selected: code === currentLang() ? "" : null }, name)));
  lang.addEventListener("change", async () => { await chooseLang(lang.value); header(); route(); });
  const s = settings();
  const sound = el("input", { type: "checkbox", id: "set-sound", checked: s.sound ? "" : null });
  sound.addEventListener("change", () => { setSetting("sound", sound.checked); if (sound.checked) beep(); });
  const confirmBox = el("input", { type: "checkbox", id: "set-confirm", checked: s.confirm ? "" : null });
  confirmBox.addEventListener("change", () => setSetting("confirm", confirmBox.checked));
  const menu = el("details", { class: "settings-menu", id: "settings" },
    el("summary", { "aria-label": t("Settings") }, "⚙ ", el("span", { class: "settings-word" }, t("Settings"))),
    el("div", { class: "settings-body" },
      el("label", {}, sound, " ", t("Sound on your turn")),
      el("label", {}, confirmBox, " ", t("Confirm each move before it is sent"))));
  clear(box).append(el("label", { class: "lang-switch" }, el("span", { class: "sr-only" }, t("Language")), lang), menu);
}

// ---------------------------------------------------------------------------------------------
// the lobby

async function lobby() {
  document.title = t("rulebox: play");
  setFavicon(false);
  clear(app).append(el("p", { class: "loading" }, t("Loading games…")));
  let cat;
  try { cat = await loadCatalog(); } catch (e) { clear(app).append(el("p", {}, t("The server did not answer: {error}", { error: e.message }))); return; }
  const cards = el("div", { class: "game-cards" });
  const form = el("div", { class: "new-game", id: "new-game", tabindex: "-1" });
  for (const g of cat.games) {
    const card = el("button", { class: "game-card", "data-game": g.id, type: "button", "aria-pressed": "false" },
      el("span", { class: "card-art" }, cardArt(g.id)),
      el("span", { class: "card-title" }, g.title),
      el("span", { class: "card-blurb" }, blurb(g.id)),
      el("span", { class: "card-players" }, playersText(g.player_counts)));
    card.addEventListener("click", (ev) => {
      for (const c of cards.children) {
        c.classList.toggle("chosen", c === card);
        c.setAttribute("aria-pressed", c === card ? "true" : "false");
      }
      newGameForm(form, g, cat);
      // a person's tap (not the first card chosen on load): bring the form into view (phones)
      if (ev.isTrusted || ev.detail) form.scrollIntoView({ block: "start", behavior: "instant" });
    });
    cards.append(card);
  }
  const mine = el("section", { class: "my-games", id: "my-games", "aria-labelledby": "my-games-h" });
  const recent = el("section", { class: "recent" }, el("h2", {}, t("Watch a game")), el("p", { class: "muted" }, t("Loading…")));
  clear(app).append(
    mine,
    el("section", { class: "lobby" }, el("h1", {}, t("Choose a game")), cards, form),
    recent);
  yourGames(mine, cat);
  api("GET", "/api/games").then((r) => {
    const held = new Set(myGames().map((x) => x.id));
    const list = el("ul", { class: "recent-list" });
    for (const g of r.games) {
      const info = cat.games.find((x) => x.id === g.game) || { title: g.game };
      const title = info.title;
      list.append(el("li", {}, el("a", { href: `/game/${g.id}#watch` }, `${title}`),
        el("span", { class: "muted" }, ` · ${tn("{n} move", "{n} moves", g.ply)}${g.over ? ` · ${t("finished")}` : ""}`),
        held.has(g.id) ? el("span", { class: "yours-tag" }, ` · ${t("yours")}`) : null,
        g.arranged && info.hidden_information ? el("span", { class: "arranged-tag", title: t("the creator fixed the cards (seed= or deck=)") }, ` · ${t("arranged deal")}`) : null));
    }
    recent.replaceChildren(el("h2", {}, t("Watch a game")), r.games.length ? list : el("p", { class: "muted" }, t("No games yet.")));
  }).catch(() => {});
  if (cat.games.length) cards.children[0].click();
}

/** The games this browser sits at: POST /api/games/mine (one GET per game where it is missing). */
async function fetchMine(held) {
  const body = { games: held.map((x) => ({ id: x.id, token: x.token })) };
  try {
    return (await api("POST", "/api/games/mine", body)).games;
  } catch (e) {
    if (![404, 405].includes(e.status)) throw e;
  }
  const out = [];
  for (const x of held.slice(0, 12)) {
    try {
      const st = await api("GET", `/api/games/${x.id}`, undefined, x.token);
      out.push({ id: st.id, game: st.game, title: st.title, you: st.you, seat_name: st.you === null ? null : seatName(st, st.you),
        to_move: st.to_move, your_turn: st.to_move !== null && !!x.tokens[st.to_move] && !st.over, over: st.over,
        result_line: st.result ? (st.result.text || withoutRuleIds(st.result.reason)) : null, ply: st.ply,
        seats: st.seats });
    } catch { /* gone: left out */ }
  }
  return out;
}

async function yourGames(box, cat) {
  const held = myGames();
  if (!held.length) { box.hidden = true; return; }
  clear(box).append(el("h2", { id: "my-games-h" }, t("Your games")), el("p", { class: "muted" }, t("Loading…")));
  let games;
  try { games = await fetchMine(held); } catch { box.hidden = true; return; }
  if (!games.length) { box.hidden = true; return; }
  const list = el("ul", { class: "my-games-list" });
  for (const g of games) {
    const title = g.title || (cat.games.find((x) => x.id === g.game) || { title: g.game }).title;
    let line;
    if (g.over) line = g.result_line ? t("finished: {result}", { result: withoutRuleIds(g.result_line) }) : t("finished");
    else if (g.your_turn) line = t("your turn");
    else if (g.to_move !== null && g.to_move !== undefined) {
      const name = g.seats ? seatName(g, g.to_move) : (catalogGame(g.game) || { seat_names: [] }).seat_names[g.to_move] || t("seat {n}", { n: g.to_move + 1 });
      line = t("{name} to move", { name });
    } else line = "";
    const seats = ((held.find((x) => x.id === g.id) || {}).tokens || []).filter(Boolean).length;
    const you = seats > 1 ? t("hot seat: you play every seat") : g.seat_name ? t("you play {seat}", { seat: g.seat_name }) : "";
    list.append(el("li", { class: `my-game${g.your_turn ? " your-turn" : ""}${g.over ? " over" : ""}`, "data-id": g.id },
      el("a", { href: `/game/${g.id}`, class: "my-game-link" }, title),
      el("span", { class: "muted" }, [you, tn("{n} move", "{n} moves", g.ply || 0)].filter(Boolean).join(" · ")),
      el("span", { class: "my-game-state" }, line)));
  }
  clear(box).append(el("h2", { id: "my-games-h" }, t("Your games")), list);
  box.hidden = false;
}

function playersText(counts) {
  if (counts.length === 1) return counts[0] === 1 ? t("solitaire") : tn("{n} player", "{n} players", counts[0]);
  return t("{min}–{max} players", { min: counts[0], max: counts[counts.length - 1] });
}

function cardArt(id) {
  const s = svg("svg", { viewBox: "0 0 60 40", "aria-hidden": "true" });
  const colours = { columns: ["#f2d27a", "#2f4f8f"], "36to1": ["#d9463b", "#3a7d44"], countred: ["#c62828", "#222"],
    columba: ["#7b4fa0", "#e0b400"], discs: ["#3a7d44", "#3c6fc4"] }[id] || ["#999", "#555"];
  for (let i = 0; i < 3; i++) {
    s.append(svg("circle", { cx: 14 + i * 16, cy: 20, r: 9, fill: colours[i % 2], stroke: "#0004", "stroke-width": 1.5 }));
  }
  return s;
}

function newGameForm(form, g, cat) {
  const optionInputs = {};
  const opts = el("div", { class: "options" });
  for (const o of g.options) {
    if (o.name === "players") continue;
    let input;
    if (o.choices && o.choices.length) {
      input = el("select", { name: o.name }, ...o.choices.map((c) => el("option", { value: c, selected: c === o.default ? "" : null }, c)));
    } else {
      input = el("input", { name: o.name, placeholder: o.default === null ? t("random") : o.default, size: 8 });
    }
    optionInputs[o.name] = input;
    opts.append(el("label", { class: "opt", title: o.help }, el("span", {}, o.name), input, el("small", {}, o.help)));
  }
  const seed = el("input", { name: "seed", placeholder: t("random"), size: 10, inputmode: "numeric" });
  optionInputs.seed = seed;
  opts.append(el("label", { class: "opt" }, el("span", {}, "seed"), seed, el("small", {}, t("the same seed deals the same game"))));

  const counts = g.player_counts;
  const nSel = el("select", { name: "players", id: "players" }, ...counts.map((n) => el("option", { value: n }, tn("{n} player", "{n} players", n))));
  const solo = counts.length === 1 && counts[0] === 1;
  const mode = el("div", { class: "modes", role: "radiogroup", "aria-label": t("How to play") });
  const modes = solo ? [["solo", t("Play")]] : [["computer", t("Against the computer")], ["hotseat", t("Hot-seat (one screen)")], ["online", t("Online (invite links)")]];
  let current = modes[0][0];
  const seatsBox = el("div", { class: "seats" });
  for (const [m, label] of modes) {
    const b = el("button", { type: "button", role: "radio", "aria-checked": m === current ? "true" : "false", class: "mode" + (m === current ? " on" : ""), "data-mode": m }, label);
    b.addEventListener("click", () => {
      current = m;
      for (const x of mode.children) { x.classList.toggle("on", x === b); x.setAttribute("aria-checked", x === b ? "true" : "false"); }
      drawSeats();
    });
    mode.append(b);
  }
  const levelSel = el("select", { name: "level", id: "level" }, ...cat.levels.map((l) => el("option", { value: l, selected: l === cat.default_level ? "" : null }, levelName(l))));
  const clockSel = el("select", { name: "clock", id: "clock-choice" }, ...timeControls().map(([v, l]) => el("option", { value: v }, l)));
  const clockRow = el("label", { class: "seat-row clock-row" }, el("span", {}, t("Clock")), clockSel);
  function drawSeats() {
    const n = Number(nSel.value);
    clear(seatsBox);
    if (current === "solo") return;
    for (let p = 0; p < n; p++) {
      const name = g.seat_names[p] || t("seat {n}", { n: p + 1 });
      const choices = current === "computer" ? [["human", t("You")], ["computer", t("Computer")]]
        : current === "online" ? [["human", t("Human (invite)")], ["computer", t("Computer")]] : [["human", t("Human")]];
      const def = current === "computer" ? (p === 0 ? "human" : "computer") : "human";
      const sel = el("select", { "data-seat": p, "aria-label": t("Who plays {seat}", { seat: name }) },
        ...choices.map(([v, l]) => el("option", { value: v, selected: v === def ? "" : null }, l)));
      seatsBox.append(el("label", { class: "seat-row" }, el("span", { class: `seat-dot seat-${p}` }), el("span", { class: "seat-name" }, name), sel));
    }
    if (current !== "hotseat") seatsBox.append(el("label", { class: "seat-row" }, el("span", {}, t("Computer level")), levelSel));
    // a clock only where a person plays from afar (an online game)
    if (current === "online") seatsBox.append(clockRow);
  }
  nSel.addEventListener("change", drawSeats);
  const start = el("button", { class: "btn primary big", id: "start", type: "button" }, solo ? t("Start") : t("Start game"));
  const rulesBtn = el("button", { class: "btn", type: "button" }, t("Read the rules"));
  rulesBtn.addEventListener("click", () => showRules(g.id));
  start.addEventListener("click", async () => {
    const options = {};
    for (const [k, input] of Object.entries(optionInputs)) if (input.value.trim() !== "") options[k] = input.value.trim();
    const n = Number(nSel.value);
    if (counts.length > 1 && g.options.some((o) => o.name === "players")) options.players = String(n);
    let seats;
    if (current === "solo") seats = ["human"];
    else seats = [...seatsBox.querySelectorAll("select[data-seat]")].map((s) => (s.value === "computer" ? `computer:${levelSel.value}` : "human"));
    start.disabled = true;
    try {
      const humans = seats.filter((x) => x === "human").length;
      const hotseat = current === "hotseat" || (current === "computer" && humans > 1);
      const body = { game: g.id, options, seats, hotseat };
      if (current === "online" && clockSel.value) body.clock = clockSel.value;
      const r = await api("POST", "/api/games", body);
      const tokens = r.seats.map((s) => s.token || null);
      let mine;
      if (current !== "online") mine = tokens; // every "You" seat plays on this screen
      else { const i = tokens.findIndex((x) => x); mine = tokens.map((x, k) => (k === i ? x : null)); }
      storeTokens(r.id, mine);
      localStorage.setItem(`rulebox:${r.id}:invites`, JSON.stringify(tokens));
      history.pushState({}, "", `/game/${r.id}`);
      route();
    } catch (e) {
      toast(e.message);
    } finally {
      start.disabled = false;
    }
  });
  clear(form).append(
    el("h2", {}, g.title),
    el("p", { class: "muted" }, blurb(g.id)),
    mode,
    counts.length > 1 ? el("label", { class: "opt" }, el("span", {}, t("players")), nSel) : "",
    seatsBox,
    el("details", { class: "more-options" }, el("summary", {}, t("Options")), opts),
    el("div", { class: "actions" }, start, rulesBtn));
  drawSeats();
}

// ---------------------------------------------------------------------------------------------
// the game page

const page = {
  id: null, tokens: [], state: null, ws: null, board: null, replay: null, busy: false, inflight: null, gen: 0,
  connected: false, lost: false, receivedAt: 0, animate: false, pending: null, ticker: null, pongDue: 0,
  lastPing: 0, wasMyTurn: false, flagAsked: null,
};

async function boardFor(gameId) {
  const path = BOARDS[gameId];
  if (!path) return generic;
  try { return await import(path); } catch { return generic; }
}

function myToken(state) {
  // The token to act with: the seat to move if this page holds it (hot-seat), else ours.
  if (state && state.to_move !== null && page.tokens[state.to_move]) return page.tokens[state.to_move];
  return page.tokens.find((x) => x) || null;
}

function spectator() {
  return !page.tokens.some((x) => x);
}

function stopTicker() {
  if (page.ticker) clearInterval(page.ticker);
  page.ticker = null;
}

function closeSocket() {
  if (page.ws) {
    const ws = page.ws;
    ws.onclose = null; ws.onmessage = null; ws.onopen = null; ws.onerror = null;
    try { ws.close(); } catch { /* already gone */ }
    page.ws = null;
  }
}

async function gamePage(id) {
  page.gen += 1;
  const gen = page.gen;
  closeSocket();
  stopTicker();
  Object.assign(page, { id, tokens: tokensFor(id, location.hash), state: null, replay: null, busy: false, inflight: null, seenEvent: undefined,
    commitment: null, connected: false, lost: false, pending: null, animate: false, flagAsked: null, wasMyTurn: false });
  clear(app).append(el("p", { class: "loading" }, t("Loading the game…")));
  let first;
  try {
    first = await api("GET", `/api/games/${id}`, undefined, myToken(null));
  } catch (e) {
    clear(app).append(el("div", { class: "panel" }, el("h2", {}, t("No such game")), el("p", {}, e.message), el("a", { href: "/", class: "btn" }, t("Back to the lobby"))));
    return;
  }
  if (!storedTokens(id) && !spectator()) storeTokens(id, page.tokens);
  try { await loadCatalog(); } catch { /* names from the payload */ }
  page.board = await boardFor(first.game);
  if (gen !== page.gen) return;
  buildGameLayout(first);
  await accept(first);
  connect(gen);
  page.ticker = setInterval(() => tick(gen), 200);
}

function connect(gen) {
  const token = page.tokens.find((x) => x) || "";
  const proto = location.protocol === "https:" ? "wss" : "ws";
  // the token goes in the first message, never in a URL
  const ws = new WebSocket(`${proto}://${location.host}/api/games/${page.id}/ws?auth=first&lang=${encodeURIComponent(currentLang())}`);
  page.ws = ws;
  window.rulebox = { ...(window.rulebox || {}), socket: ws };
  ws.onmessage = (ev) => {
    page.pongDue = 0;
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    // the server pings a quiet socket and closes one that does not answer (docs/SERVER.md)
    if (msg.type === "ping") { try { ws.send(JSON.stringify({ type: "pong" })); } catch { /* closing */ } return; }
    if (msg.type === "state") accept(msg);
  };
  ws.onclose = () => {
    if (gen !== page.gen || page.ws !== ws) return;
    page.ws = null;
    setConn(false);
    setTimeout(() => { if (gen === page.gen && !page.ws) connect(gen); }, 1500);
  };
  ws.onopen = () => {
    ws.send(JSON.stringify({ type: "auth", token: token || null }));
    page.lastPing = Date.now();
    page.pongDue = 0;
    setConn(true);
    if (page.state) refresh(); // what happened while away
  };
}

/** A socket that missed its pong is dropped at once (its close may take minutes) and redialled. */
function dropSocket(gen) {
  if (!page.ws) return;
  closeSocket();
  setConn(false);
  setTimeout(() => { if (gen === page.gen && !page.ws) connect(gen); }, 1000);
}

function setConn(ok) {
  page.connected = ok;
  page.lost = !ok; // moves wait while a socket that was open is gone
  const c = document.getElementById("conn");
  if (c) { c.textContent = ok ? `● ${t("live")}` : `○ ${t("reconnecting…")}`; c.className = ok ? "conn ok" : "conn"; }
  const banner = document.getElementById("offline");
  if (banner) banner.hidden = !page.lost;
  if (page.state) render();
}

/** Every 200 ms: the clocks, the socket's ping and its answer. */
function tick(gen) {
  if (gen !== page.gen) { return; }
  const now = Date.now();
  const ws = page.ws;
  if (ws && ws.readyState === WebSocket.OPEN) {
    if (page.pongDue && now > page.pongDue) { dropSocket(gen); return; }
    if (now - page.lastPing >= PING_EVERY) {
      page.lastPing = now;
      page.pongDue = now + PONG_WITHIN;
      try { ws.send(JSON.stringify({ type: "ping" })); } catch { dropSocket(gen); return; }
    }
  }
  drawClocks();
}

function drawClocks() {
  const st = page.state;
  if (!st || !st.clock) return;
  const left = clockNow(st.clock, page.receivedAt);
  if (!left) return;
  left.forEach((s, p) => {
    const c = document.querySelector(`.clock[data-player="${p}"]`);
    if (!c) return;
    const text = formatClock(s);
    if (c.textContent !== text) c.textContent = text;
    c.classList.toggle("low", s < 20);
    c.classList.toggle("running", st.clock.running === p && !st.over);
  });
  // at zero the server is asked (it decides the flag)
  const r = st.clock.running;
  if (!st.over && r !== null && r !== undefined && left[r] <= 0 && page.flagAsked !== st.version) {
    page.flagAsked = st.version;
    setTimeout(refresh, 300);
  }
}

async function accept(state) {
  if (page.state && state.version < page.state.version) return; // an older push
  // Hot-seat: the socket speaks for one seat; fetch the view of the seat to move.
  if (state.to_move !== null && state.you !== state.to_move && page.tokens[state.to_move]) {
    try { state = await api("GET", `/api/games/${page.id}`, undefined, page.tokens[state.to_move]); } catch { /* keep */ }
    if (page.state && state.version < page.state.version) return;
  }
  const before = page.state;
  const moved = before && state.ply !== before.ply && state.version > before.version;
  const last = state.last;
  // animate what someone else did (the computer, the other player), not the page's own move
  page.animate = !!(moved && last && state.ply > before.ply && !(page.tokens[last.player] && !isComputer(state, last.player)));
  if (moved) { hideToast(); page.pending = null; }
  page.state = state;
  page.receivedAt = Date.now();
  if (page.replay && page.replay.plies !== state.ply) {
    // a replay of a game that goes on: the newest positions join the slider
    page.replay.plies = state.ply;
    const range = document.getElementById("replay-range");
    if (range) range.max = String(state.ply);
  }
  window.rulebox = { ...(window.rulebox || {}), state };
  render();
  if (moved && state.ply > before.ply) announceTurn(state);
  page.animate = false;
}

/** The newest turn in words for screen readers (the polite #log-live region). */
function announceTurn(st) {
  const live = document.getElementById("log-live");
  const log = logOf(st);
  const turn = log && log[log.length - 1];
  if (!live || !turn) return;
  const words = (turn.texts && turn.texts.length ? turn.texts : turn.moves).join("; ");
  live.textContent = words;
}

function isComputer(st, p) {
  return !!(st.seats && st.seats[p] && st.seats[p].kind === "computer");
}

function buildGameLayout(state) {
  document.title = t("{title}: rulebox", { title: state.title });
  const header = el("div", { class: "game-head" },
    el("h1", {}, state.title),
    el("span", { id: "conn", class: "conn", role: "status" }, "…"));
  const board = el("div", { class: "board-wrap", id: "board" });
  const status = el("div", { class: "status", id: "status", "aria-live": "polite" });
  const news = el("ul", { class: "announcements", id: "announcements", "aria-live": "polite", "aria-label": t("Notices") });
  const controls = el("div", { class: "controls", id: "controls" });
  const offline = el("div", { class: "offline-banner", id: "offline", role: "alert", hidden: "" },
    t("Disconnected: reconnecting… Moves wait until the connection is back."));
  const confirmBar = el("div", { class: "confirm-bar", id: "confirm-bar", hidden: "" });
  const waiting = el("div", { class: "waiting", id: "waiting", hidden: "" });
  const end = el("section", { class: "end-screen", id: "end-screen", hidden: "", "aria-labelledby": "end-title" });
  const example = notationExample((catalogGame(state.game) || {}).notation);
  const side = el("aside", { class: "side", "aria-label": t("The table") },
    el("p", { class: "spectator-tag", id: "spectator", hidden: "" }, t("You are watching this game as a spectator.")),
    el("div", { class: "seats-list", id: "seats" }),
    el("div", { class: "result", id: "result", hidden: "" }),
    el("div", { class: "arranged-note", id: "arranged-note", role: "note", hidden: "" },
      t("Arranged deal: the creator of this game fixed the cards (seed= or deck=).")),
    el("div", { class: "fairness", id: "fairness", hidden: "" }),
    el("div", { class: "buttons" },
      button(t("Undo"), "undo-btn", doUndo),
      button(t("Resign"), "resign-btn", doResign),
      button(t("Rules"), "rules-btn", () => showRules(state.game)),
      button(t("Replay"), "replay-btn", () => startReplay(0)),
      el("a", { class: "btn", href: "/", id: "lobby-btn" }, t("Lobby"))),
    el("div", { id: "draw-box", class: "draw-box" }),
    el("div", { id: "invites" }),
    el("details", { class: "move-entry", id: "move-entry" }, el("summary", {}, t("Type a move")),
      moveForm(example)),
    el("h3", { id: "moves-h" }, t("Moves")),
    // the log is drawn anew each time: the newest turn alone is read out, by #log-live
    el("div", { class: "moves", id: "moves", role: "log", "aria-live": "off", "aria-labelledby": "moves-h", tabindex: "-1" }),
    el("p", { class: "sr-only", id: "log-live", "aria-live": "polite", "aria-atomic": "true" }),
    el("div", { id: "replay-bar", class: "replay-bar", hidden: "" }));
  clear(app).append(el("section", { class: `game game-${state.game}` },
    el("div", { class: "main" }, header, offline, status, waiting, end, news, board, confirmBar, controls), side));
}

function button(label, id, fn, attrs = {}) {
  const b = el("button", { class: "btn", id, type: "button", ...attrs }, label);
  b.addEventListener("click", fn);
  return b;
}

function moveForm(example) {
  const input = el("input", { id: "move-input", placeholder: example ? t("e.g. {move}", { move: example }) : "",
    "aria-label": t("A move in the game's notation"), autocomplete: "off", spellcheck: "false", maxlength: 200 });
  const f = el("form", { class: "move-form" }, input, el("button", { class: "btn", type: "submit" }, t("Play")));
  f.addEventListener("submit", (e) => { e.preventDefault(); if (input.value.trim()) play(input.value.trim()).then((ok) => { if (ok) input.value = ""; }); });
  return f;
}

/** Send a move (after the Confirm button when the player asked for it). */
export async function play(text) {
  // a move made while the last one is still on its way waits for it and then goes, unless it
  // was made on a position that has changed since (a double click): never silently dropped
  const seen = page.state && page.state.version;
  while (page.busy && page.inflight) await page.inflight;
  const st = page.state;
  if (!st || page.busy || st.version !== seen) return false;
  const token = myToken(st);
  if (!token) { toast(t("You are watching: spectators cannot move.")); return false; }
  if (page.lost) { toast(t("Disconnected: the move waits until the connection is back.")); return false; }
  if (settings().confirm) return askConfirm(text);
  return send(text);
}

function askConfirm(text) {
  const bar = document.getElementById("confirm-bar");
  return new Promise((resolve) => {
    const done = async (ok) => {
      bar.hidden = true;
      page.pending = null;
      if (ok) resolve(await send(text));
      else { if (page.board && page.board.reset) page.board.reset(); render(); resolve(false); }
    };
    page.pending = text;
    clear(bar).append(
      el("span", {}, t("Play {move}?", { move: text })),
      button(t("Confirm"), "confirm-move", () => done(true), { class: "btn primary" }),
      button(t("Cancel"), "cancel-move", () => done(false)));
    bar.hidden = false;
    document.getElementById("confirm-move").focus();
  });
}

function send(text) {
  page.inflight = sendNow(text);
  return page.inflight;
}

async function sendNow(text) {
  const st = page.state;
  const token = myToken(st);
  page.busy = true;
  try {
    // the version the move was made on: a retry or a double click is refused (409 stale)
    const r = await api("POST", `/api/games/${page.id}/moves`, { move: text, version: st.version }, token);
    await accept(r);
    return true;
  } catch (e) {
    const info = e.info || {};
    if (info.code === "illegal") toast(t("Not allowed: {reason} [{rule}]", { reason: info.reason, rule: info.rule }));
    else if (info.code === "stale") { toast(t("The game has moved on; here it is now."), "info"); await refresh(); }
    else toast(e.message);
    if (page.board && page.board.reset) page.board.reset();
    render();
    return false;
  } finally {
    page.busy = false;
  }
}

/** The game's own explanation of a field or a move (null when it has none). */
export async function explain(arg) {
  try {
    const r = await api("GET", `/api/games/${page.id}/explain?q=${encodeURIComponent(arg)}`, undefined, page.tokens.find((x) => x));
    return r.text;
  } catch { return null; }
}

async function drawAction(action) {
  const st = page.state;
  const mine = page.tokens.map((x, p) => [x, p]).filter(([x]) => x);
  // act for a seat of this page that may: the offer's other side to accept or decline
  let pick = mine.find(([, p]) => (action === "offer" || action === "withdraw") ? p === (st.to_move ?? p) : p !== st.draw_offer) || mine[0];
  if (action === "withdraw") pick = mine.find(([, p]) => p === st.draw_offer) || pick;
  try {
    const r = await api("POST", `/api/games/${page.id}/draw`, { action }, pick[0]);
    await accept(r);
  } catch (e) { toast(e.message); }
}

async function goRematch(newId) {
  storeTokens(newId, page.tokens);
  const invites = localStorage.getItem(`rulebox:${page.id}:invites`);
  if (invites) localStorage.setItem(`rulebox:${newId}:invites`, invites);
  history.pushState({}, "", `/game/${newId}`);
  route();
}

async function doRematch() {
  const st = page.state;
  if (st.rematch) { goRematch(st.rematch); return; }
  try {
    const r = await api("POST", `/api/games/${page.id}/rematch`, undefined, page.tokens.find((x) => x));
    goRematch(r.id);
  } catch (e) { toast(e.message); }
}

function drawBox(st) {
  const box = clear(document.getElementById("draw-box"));
  if (st.over && !page.replay && !spectator()) {
    const label = st.rematch ? t("Join the rematch") : (st.seats.length === 1 ? t("Play again") : t("Rematch"));
    box.append(button(label, st.rematch ? "rematch-join" : "rematch-btn", doRematch));
    return;
  }
  if (st.over || page.replay || !st.seats || st.seats.length < 2 || spectator()) return;
  const offer = st.draw_offer;
  const iOffered = offer !== null && offer !== undefined && page.tokens[offer] && !st.hotseat;
  if (offer === null || offer === undefined) {
    if (st.seats.some((s, p) => !page.tokens[p]) || st.hotseat) {
      box.append(button(t("Offer a draw"), "draw-offer", () => drawAction("offer")));
    }
  } else if (iOffered) {
    box.append(el("span", { class: "muted small" }, t("You offered a draw."), " "), button(t("Withdraw"), "draw-withdraw", () => drawAction("withdraw")));
  } else {
    box.append(el("div", { class: "offer" }, el("strong", {}, t("{name} offers a draw.", { name: seatName(st, offer) })),
      button(t("Accept"), "draw-accept", () => drawAction("accept")), button(t("Decline"), "draw-decline", () => drawAction("decline"))));
  }
}

async function refresh() {
  try { await accept(await api("GET", `/api/games/${page.id}`, undefined, myToken(page.state))); } catch { /* the socket brings it */ }
}

async function doResign() {
  const st = page.state;
  if (!st || st.over || !confirm(t("Give up this game?"))) return;
  const mine = page.tokens.map((x, p) => [x, p]).filter(([x]) => x);
  const pick = mine.find(([, p]) => p === st.to_move) || mine[0];
  if (!pick) return;
  try { await accept(await api("POST", `/api/games/${page.id}/resign`, undefined, pick[0])); } catch (e) { toast(e.message); }
}

async function doUndo() {
  if (!page.state || page.state.over) return; // a finished game stays finished
  const token = myToken(page.state) || page.tokens.find((x) => x);
  try {
    const r = await api("POST", `/api/games/${page.id}/undo`, { version: page.state.version }, token);
    if (page.board && page.board.reset) page.board.reset();
    await accept(r);
  } catch (e) { toast(e.message); }
}

function thinkingSeat(st) {
  if (st.over) return null;
  if ("thinking" in st) return st.thinking;
  return isComputer(st, st.to_move) ? st.to_move : null;
}

function seatLine(st, p) {
  const seat = st.seats[p];
  const you = page.tokens[p] ? ` ${t("(you)")}` : "";
  const turn = st.to_move === p && !st.over;
  const thinking = thinkingSeat(st) === p;
  // presence means something only where the seats sit at different screens
  const online = Array.isArray(st.presence) && !st.hotseat && st.seats.length > 1 ? !!st.presence[p] : null;
  const kind = seat.kind === "computer" ? kindLabel(seat.label) : (page.tokens[p] ? "" : t("human"));
  return el("div", { class: `seat-line${turn ? " turn" : ""}${thinking ? " thinking" : ""}${st.clock ? " has-clock" : ""}`, "data-player": p },
    el("span", { class: `seat-dot seat-${p}`, "aria-hidden": "true" }),
    el("span", { class: "seat-name" }, `${seatName(st, p)}${you}`),
    online === null ? "" : el("span", {
      class: `presence ${online ? "on" : "off"}`, role: "img", "data-player": p,
      "aria-label": online ? t("online") : t("offline"), title: online ? t("online") : t("offline"),
    }),
    kind ? el("span", { class: "muted seat-kind", title: kind }, kind) : "",
    thinking ? el("span", { class: "thinking-mark", role: "status", "aria-label": t("thinking") }, el("span", { class: "spinner", "aria-hidden": "true" }), t("thinking")) : "",
    turn && !thinking ? el("span", { class: "turn-mark" }, t("to move")) : "",
    st.clock ? el("span", { class: "clock", "data-player": p, role: "timer", "aria-label": t("clock of {name}", { name: seatName(st, p) }) }, "") : "");
}

function resultText(st) {
  const r = st.result || {};
  return r.text || withoutRuleIds(r.reason || "");
}

function statusText(st) {
  if (st.over) {
    const r = st.result;
    const words = resultText(st);
    if (!r.winners.length) return st.seats.length === 1 ? t("Game over: {result}", { result: words }) : t("Game over: a draw ({result})", { result: words });
    if (!st.hotseat && r.winners.some((w) => page.tokens[w])) return t("Game over: you win! {result}", { result: words });
    if (!st.hotseat && !spectator()) return t("Game over: you lose: {result}", { result: words });
    if (r.text) return t("Game over: {result}", { result: words }); // it names the winners
    const names = r.winners.map((w) => seatName(st, w)).join(t(" and "));
    return r.winners.length > 1 ? t("Game over: {names} win: {result}", { names, result: words })
      : t("Game over: {names} wins: {result}", { names, result: words });
  }
  const p = st.to_move;
  if (page.tokens[p]) return st.seats.length === 1 ? t("Your move") : (st.hotseat ? t("{name} to move", { name: seatName(st, p) }) : t("Your turn"));
  if (isComputer(st, p)) return t("The computer ({name}) is thinking…", { name: seatName(st, p) });
  return t("Waiting for {name}…", { name: seatName(st, p) });
}

function myTurn(st) {
  return !!(st && !st.over && st.to_move !== null && page.tokens[st.to_move] && !st.hotseat && st.seats.length > 1);
}

/** The tab: "(•) Your turn — Count Red" and a dotted favicon while it is the player's turn. */
function tabSignals(st) {
  const turn = myTurn(st);
  document.title = turn ? t("(•) Your turn — {title}", { title: st.title }) : t("{title}: rulebox", { title: st.title });
  setFavicon(turn);
  if (turn && !page.wasMyTurn && document.hidden && settings().sound) beep();
  page.wasMyTurn = turn;
}

function render() {
  const st = page.state;
  if (!st || !document.getElementById("status")) return;
  const replaying = page.replay !== null;
  document.body.classList.toggle("replaying", replaying); // room for a phone's replay buttons
  const status = document.getElementById("status");
  status.textContent = replaying ? t("Replay: position after move {ply} of {plies}", { ply: page.replay.ply, plies: page.replay.plies }) : statusText(st);
  status.className = "status" + (st.over ? " over" : page.tokens[st.to_move] ? " mine" : "");
  document.getElementById("spectator").hidden = !spectator();
  const seats = document.getElementById("seats");
  clear(seats).append(...st.seats.map((_, p) => seatLine(st, p)));
  drawClocks();
  const res = document.getElementById("result");
  if (st.over) {
    res.hidden = false;
    const sc = st.result.scores ? t("score {scores}", { scores: st.result.scores.join(" : ") }) : "";
    clear(res).append(el("strong", {}, st.result.winners.length ? t("Winner: {names}", { names: st.result.winners.map((w) => seatName(st, w)).join(", ") }) : (st.seats.length === 1 ? t("Lost") : t("Draw"))),
      sc ? el("span", {}, sc) : "");
  } else res.hidden = true;
  endScreen(st);
  // a fixed deal matters only where there are cards to deal (36 to 1, Columba): elsewhere a
  // seed= changes nothing a player could be suspicious of
  document.getElementById("arranged-note").hidden = !(st.arranged && st.fairness);
  fairnessBox(st);
  document.getElementById("undo-btn").hidden = !st.can_undo || replaying || st.over;
  document.getElementById("resign-btn").hidden = st.over || replaying || spectator();
  showAnnouncements(st);
  document.getElementById("replay-btn").hidden = !(st.over && st.ply > 0) || replaying;
  document.getElementById("move-entry").hidden = !myToken(st) || st.over;
  document.getElementById("offline").hidden = !page.lost;
  moveLog(st);
  drawBox(st);
  invites(st);
  waitingBox(st);
  tabSignals(st);
  // the board
  const board = document.getElementById("board");
  const controls = document.getElementById("controls");
  const view = replaying ? page.replay.view : st.view;
  const mine = !replaying && !st.over && !!page.tokens[st.to_move] && !page.lost;
  const ctx = {
    view, state: st, legal: mine ? st.legal : [], mine, play, toast, explain,
    seat: replaying ? st.you : (mine ? st.to_move : st.you), replay: replaying, controls,
    last: replaying ? null : (st.last || null),
    animate: !replaying && page.animate,
    highlight: st.over && !replaying && st.result ? (st.result.highlight || []) : [],
  };
  window.rulebox.drawn = { animate: ctx.animate, last: ctx.last, highlight: ctx.highlight, mine: ctx.mine,
    count: ((window.rulebox.drawn || {}).count || 0) + 1, animations: ((window.rulebox.drawn || {}).animations || 0) + (ctx.animate ? 1 : 0) };
  try {
    page.board.draw(board, ctx);
  } catch (e) {
    console.error(e);
    generic.draw(board, ctx);
  }
}

// --- the move log in words: one entry per turn, each move clickable ------------------------------

/** The log: the payload's `log` (turns in words), or one entry per move of the history. */
function logOf(st) {
  if (Array.isArray(st.log) && st.seats && st.seats.length === 1) {
    // a solitaire is one long "turn" of one player: numbered move by move, without the name
    return st.log.flatMap((turn) => turn.moves.map((m, k) => ({
      turn: turn.from_ply + k, player: null, seat: null, from_ply: turn.from_ply + k, to_ply: turn.from_ply + k,
      moves: [m], texts: [(turn.texts && turn.texts[k]) || ""] })));
  }
  if (Array.isArray(st.log)) return st.log;
  if (!Array.isArray(st.history)) return null;
  return st.history.map((m, i) => ({ turn: i + 1, player: null, seat: null, from_ply: i + 1, to_ply: i + 1, moves: [m], texts: [] }));
}

function moveLog(st) {
  const box = document.getElementById("moves");
  const log = logOf(st);
  const replaying = page.replay !== null;
  const current = replaying ? page.replay.ply : st.ply;
  // the entries are built again only when the log itself changed (a move, a name, the
  // language): a state that changes only presence, a clock or the replayed position keeps
  // them, so the reader's scroll and focus stay, and an entry under a click is not replaced
  const key = JSON.stringify([log, (st.seats || []).map((_, p) => seatName(st, p)), document.documentElement.lang]);
  if (box.logKey === key) { markCurrent(box, current, replaying); return; }
  box.logKey = key; // on the element: a new #moves box is always built
  const stick = box.scrollHeight - box.scrollTop - box.clientHeight < 30;
  clear(box);
  if (!log) { box.append(el("p", { class: "muted" }, t("The moves of this game are hidden."))); return; }
  if (!log.length) { box.append(el("p", { class: "muted" }, t("No moves yet."))); return; }
  for (const turn of log) {
    const who = turn.player === null || turn.player === undefined ? "" : seatName(st, turn.player);
    const entry = el("div", { class: "turn", "data-turn": turn.turn, "data-player": turn.player ?? "" },
      el("span", { class: "turn-no" }, `${turn.turn}.`),
      who ? el("span", { class: `seat-dot seat-${turn.player}`, "aria-hidden": "true" }) : "",
      who ? el("span", { class: "turn-who" }, who) : "");
    const plies = el("ol", { class: "plies", start: turn.from_ply });
    turn.moves.forEach((m, k) => {
      const ply = turn.from_ply + k;
      const words = (turn.texts && turn.texts[k]) || "";
      const li = el("li", {
        "data-ply": ply, "data-words": words, tabindex: "0", role: "button",
        "aria-label": words ? t("move {ply}: {words} ({move})", { ply, words, move: m }) : t("move {ply}: {move}", { ply, move: m }),
        "aria-current": ply === current ? "step" : null,
        class: `${words ? "has-words" : ""}${ply === current ? " current" : ""}`,
      }, m);
      const go = () => {
        startReplay(ply);
        // a phone: the board is far above the log; the position asked for is shown there
        const status = document.getElementById("status");
        if (status && status.getBoundingClientRect().bottom < 0) status.scrollIntoView({ block: "start" });
      };
      li.addEventListener("click", go);
      li.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
      plies.append(li);
    });
    entry.append(plies);
    box.append(entry);
  }
  if (!replaying && stick) box.scrollTop = box.scrollHeight;
  else if (replaying) {
    const cur = box.querySelector("li.current");
    if (cur) cur.scrollIntoView({ block: "nearest" });
  }
}

/** Mark the entry of the position shown (`current`) in a log that is already built. */
function markCurrent(box, current, replaying) {
  for (const li of box.querySelectorAll("li[data-ply]")) {
    const on = Number(li.dataset.ply) === current;
    li.classList.toggle("current", on);
    if (on) li.setAttribute("aria-current", "step");
    else li.removeAttribute("aria-current");
  }
  if (replaying) {
    const cur = box.querySelector("li.current");
    if (cur) cur.scrollIntoView({ block: "nearest" });
  }
}

// --- seat links: every seat this browser knows a token of, and the spectators' ------------------

function seatUrl(p, token, n) {
  const slots = Array.from({ length: n }, (_, k) => (k === p ? token : ""));
  return `${location.origin}/game/${page.id}#t=${slots.join(",")}`;
}

function linkRow(label, url, seat) {
  const input = el("input", { readonly: "", value: url, class: "invite-url", "data-seat": seat, "aria-label": label });
  input.addEventListener("focus", () => input.select());
  const copy = el("button", { class: "btn copy-btn", type: "button", "data-copy": seat, "aria-label": t("Copy the link: {label}", { label }) }, t("Copy"));
  copy.addEventListener("click", async () => {
    const ok = await copyText(url, input);
    copy.textContent = ok ? t("Copied") : t("Copy");
    setTimeout(() => { copy.textContent = t("Copy"); }, 1500);
  });
  return el("div", { class: "link-row" }, el("span", { class: "link-label" }, label), el("span", { class: "link-field" }, input, copy));
}

function invites(st) {
  const inv = clear(document.getElementById("invites"));
  if (spectator()) return;
  const stored = JSON.parse(localStorage.getItem(`rulebox:${page.id}:invites`) || "null") || [];
  const n = st.seats.length;
  const rows = [];
  for (let p = 0; p < n; p++) {
    const token = page.tokens[p] || stored[p];
    if (!token) continue;
    const mine = !!page.tokens[p] && !st.hotseat;
    if (st.over && !mine) continue;
    const label = mine ? t("Your seat ({name}), to come back or play on another device", { name: seatName(st, p) })
      : t("{name}: invite link", { name: seatName(st, p) });
    rows.push(linkRow(label, seatUrl(p, token, n), p));
  }
  rows.push(linkRow(t("Spectators"), `${location.origin}/game/${page.id}#watch`, "watch"));
  inv.append(el("details", { class: "invite", open: st.ply === 0 && !st.over ? "" : null },
    el("summary", {}, t("Links to this game")), ...rows));
}

/** "Waiting for an opponent": a human seat nobody has taken yet, with its link to copy. */
function waitingBox(st) {
  const box = clear(document.getElementById("waiting"));
  const stored = JSON.parse(localStorage.getItem(`rulebox:${page.id}:invites`) || "null") || [];
  const open = st.seats.map((s, p) => p).filter((p) => st.seats[p].kind !== "computer" && !page.tokens[p]
    && (Array.isArray(st.presence) ? !st.presence[p] : stored[p]));
  const show = !st.over && !spectator() && !st.hotseat && st.ply === 0 && open.length > 0
    && (Array.isArray(st.presence) || stored.some((x) => x));
  box.hidden = !show;
  if (!show) return;
  box.append(el("p", { class: "waiting-title" }, el("span", { class: "spinner", "aria-hidden": "true" }), t("Waiting for an opponent…")));
  for (const p of open) {
    if (stored[p]) box.append(linkRow(t("Send this link to {name}", { name: seatName(st, p) }), seatUrl(p, stored[p], st.seats.length), `wait-${p}`));
  }
}

// --- the end screen ---------------------------------------------------------------------------

function endScreen(st) {
  const box = document.getElementById("end-screen");
  if (!st.over || page.replay) { box.hidden = true; return; }
  const r = st.result;
  let head;
  if (!r.winners.length) head = st.seats.length === 1 ? t("Game over") : t("A draw");
  else if (!st.hotseat && r.winners.some((w) => page.tokens[w])) head = t("You win!");
  else if (!st.hotseat && !spectator()) head = t("You lose");
  else head = r.winners.length > 1 ? t("{names} win", { names: r.winners.map((w) => seatName(st, w)).join(t(" and ")) })
    : t("{names} wins", { names: seatName(st, r.winners[0]) });
  if (box.dataset.version === String(st.version) && !box.hidden) return;
  box.dataset.version = String(st.version);
  const rule = r.rule || ruleIds(r.reason)[0] || null;
  const why = el("div", { class: "end-rule", id: "end-rule-text", hidden: "" },
    el("p", {}, r.why || r.reason || ""),
    rule ? button(t("Read rule {rule}", { rule }), "end-rule-open", () => showRules(st.game, rule)) : "");
  const whyBtn = button(t("Why? The rule"), "end-rule", () => {
    why.hidden = !why.hidden;
    whyBtn.setAttribute("aria-expanded", why.hidden ? "false" : "true");
  }, { "aria-expanded": "false", "aria-controls": "end-rule-text" });
  const rows = st.seats.map((s, p) => el("tr", { class: r.winners.includes(p) ? "winner" : "" },
    el("th", { scope: "row" }, el("span", { class: `seat-dot seat-${p}`, "aria-hidden": "true" }), " ", seatName(st, p), page.tokens[p] && !st.hotseat ? ` ${t("(you)")}` : ""),
    r.scores ? el("td", {}, String(r.scores[p])) : "",
    el("td", {}, r.winners.includes(p) ? t("wins") : (r.winners.length ? "" : (st.seats.length > 1 ? t("draw") : "")))));
  const table = el("table", { class: "score-table", id: "score-table" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Seat")), r.scores ? el("th", { scope: "col" }, t("Score")) : "", el("th", { scope: "col" }, t("Result")))),
    el("tbody", {}, ...rows));
  const actions = el("div", { class: "end-actions" });
  if (!spectator()) actions.append(button(st.rematch ? t("Join the rematch") : (st.seats.length === 1 ? t("Play again") : t("Rematch")), "end-rematch", doRematch, { class: "btn primary" }));
  if (st.ply > 0) actions.append(button(t("Replay the game"), "end-replay", () => startReplay(0)));
  // "Why?" only where it says more than the result above it (a resignation has no rule)
  if (rule || withoutRuleIds(r.why || r.reason || "") !== resultText(st)) actions.append(whyBtn);
  clear(box).append(el("h2", { id: "end-title" }, head), el("p", { class: "end-text", id: "end-text" }, resultText(st)), table, actions, why);
  box.hidden = false;
}

// --- fair deals (docs/FAIRNESS.md): the commitment shown from the start, checked at the end ------
function fairnessBox(st) {
  const box = document.getElementById("fairness");
  const f = st.fairness;
  if (!f) { box.hidden = true; return; }
  if (!page.commitment) page.commitment = f.commitment; // the first one this page saw
  box.hidden = false;
  const head = el("p", { class: "muted", title: f.commitment }, t("Deal committed: {hash}…", { hash: f.commitment.slice(0, 16) }));
  if (!f.reveal) { clear(box).append(head); return; }
  if (box.dataset.checked === f.commitment) return; // keep the result shown
  const out = el("p", { id: "verify-result", "aria-live": "polite" });
  const btn = button(t("Check the deal"), "verify-btn", () => checkDeal(st, out));
  clear(box).append(head, btn, out);
}

async function checkDeal(st, out) {
  const f = st.fairness;
  const box = document.getElementById("fairness");
  box.dataset.checked = f.commitment;
  let hex = "";
  try {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(f.reveal));
    hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  } catch {
    out.textContent = t("This browser cannot hash here (it needs https); use rulebox verify.");
    return;
  }
  const same = hex === f.commitment && hex === page.commitment;
  const record = URL.createObjectURL(new Blob([JSON.stringify(st)], { type: "application/json" }));
  out.className = same ? "verify ok" : "verify bad";
  clear(out).append(
    same ? `✓ ${t("The revealed deal matches the commitment shown since the start.")} `
         : `✗ ${t("The revealed deal does NOT match the commitment shown at the start.")} `,
    el("a", { href: record, download: `rulebox-${st.id}.json`, id: "verify-record" }, t("Save the record")),
    " ", t("and run rulebox verify on it to replay every move on the revealed order."));
}

// --- announcements: what a move did beyond itself (a bonus move, a skipped player, a token, an
// objective), and the table's own news (a draw declined, a player left or came back, a flag) ----
const ANNOUNCED = new Set(["bonus_move", "skipped", "three", "token", "objective", "announcement",
  "agent_error", "draw_declined", "draw_offer", "resigned", "reshuffle",
  "declined", "joined", "left", "back", "flag"]);

const PRESENCE = new Set(["joined", "left", "back"]);

function showAnnouncements(st) {
  const list = document.getElementById("announcements");
  if (!list) return;
  // a seat of this page is not told about itself coming and going
  const self = (e) => PRESENCE.has(e.kind) && e.player !== null && e.player !== undefined && !!page.tokens[e.player];
  const events = (st.events || []).filter((e) => ANNOUNCED.has(e.kind) && !self(e));
  const fresh = events.filter((e) => page.seenEvent !== undefined && e.index > page.seenEvent);
  if (events.length) page.seenEvent = Math.max(page.seenEvent ?? -1, ...events.map((e) => e.index));
  else if (page.seenEvent === undefined) page.seenEvent = -1;
  clear(list).append(...events.slice(-4).map((e) => {
    const { words, rules } = announcementParts(e);
    return el("li", {
      class: `announcement kind-${e.kind}${fresh.includes(e) ? " fresh" : ""}`, "data-kind": e.kind,
    }, el("span", { class: "announcement-text" }, words), ...rules.map((rule) => ruleBadge(st.game, rule)));
  }));
  list.hidden = events.length === 0;
  const last = fresh[fresh.length - 1];
  if (last) toast(announcementParts(last).words, ["agent_error", "flag"].includes(last.kind) ? "error" : "info");
}

/** An announcement's words without its rule IDs, and those IDs (the event's `rule`, else the
 * bracketed IDs of its text, e.g. "... to the reserve [CB-4]"): the IDs become badges. */
function announcementParts(e) {
  const text = String(e.text || "");
  const id = "[A-Z0-9]{2,4}-\\d+[a-z]?";
  const group = new RegExp(`\\s*[[(]\\s*(${id}(?:\\s*[,;/]\\s*${id})*)\\s*[\\])]`, "g");
  const bracketed = [...text.matchAll(group)].flatMap((m) => m[1].split(/\s*[,;/]\s*/));
  const rules = [...new Set([...(e.rule ? [e.rule] : []), ...bracketed])];
  const words = bracketed.length ? text.replace(group, "").replace(/\s+([,.:;])/g, "$1").trim() : text;
  return { words, rules };
}

/** A rule ID as a small badge: one click opens the rules at that rule. */
function ruleBadge(gameId, rule) {
  const b = el("button", { class: "rule-badge", type: "button", "data-rule": rule,
    title: t("Read rule {rule}", { rule }), "aria-label": t("Read rule {rule}", { rule }) }, rule);
  b.addEventListener("click", () => showRules(gameId, rule));
  return b;
}

// --- replay: any position of the game, from the log or the replay bar ---------------------------
async function startReplay(ply = 0) {
  const st = page.state;
  if (!page.replay) page.replay = { ply: 0, plies: st.ply, view: st.view };
  page.replay.plies = st.ply;
  const bar = document.getElementById("replay-bar");
  bar.hidden = false;
  const range = el("input", { type: "range", min: 0, max: st.ply, value: ply, id: "replay-range", "aria-label": t("Position") });
  range.addEventListener("input", () => gotoPly(Number(range.value)));
  clear(bar).append(
    button("|◀", "replay-first", () => gotoPly(0), { "aria-label": t("First position") }),
    button("◀", "replay-prev", () => gotoPly(page.replay.ply - 1), { "aria-label": t("Previous move") }),
    range,
    button("▶", "replay-next", () => gotoPly(page.replay.ply + 1), { "aria-label": t("Next move") }),
    button("▶|", "replay-last", () => gotoPly(page.replay.plies), { "aria-label": t("Last position") }),
    button(st.over ? t("Close") : t("Back to the game"), "replay-close", () => { page.replay = null; bar.hidden = true; render(); }));
  await gotoPly(ply);
}

async function gotoPly(ply) {
  if (!page.replay) return;
  ply = Math.max(0, Math.min(page.replay.plies, ply));
  try {
    const r = await api("GET", `/api/games/${page.id}/replay?ply=${ply}`, undefined, page.tokens.find((x) => x));
    if (!page.replay) return;
    Object.assign(page.replay, { ply, view: r.view });
    const range = document.getElementById("replay-range");
    if (range) range.value = ply;
    render();
  } catch (e) { toast(e.message); }
}

// ---------------------------------------------------------------------------------------------
// routing

function route() {
  hideToast();
  document.body.classList.remove("replaying");
  const m = location.pathname.match(/^\/game\/([A-Za-z0-9]+)/);
  if (m) gamePage(m[1]);
  else { page.gen += 1; closeSocket(); stopTicker(); lobby(); }
}

document.getElementById("toast").addEventListener("click", hideToast);
window.addEventListener("popstate", route);
document.addEventListener("visibilitychange", () => { if (page.state && document.getElementById("status")) tabSignals(page.state); });
document.getElementById("home-link").addEventListener("click", (e) => { e.preventDefault(); history.pushState({}, "", "/"); route(); });
// the catalogue of the player's language first, then the first drawing
loadLang().then(() => { header(); route(); });
