// rulebox web client: a lobby and a game page. It knows no rules: it draws the JSON views
// the server sends and posts move text. The `legal` list the server sends to the seat to move
// is used only to highlight what can be clicked.

import { el, svg, clear, markdown } from "./dom.js";
import "./review.js"; // the game review (issue 22): adds itself to finished games
import * as generic from "./boards/generic.js";

const BOARDS = {
  columns: "./boards/columns.js",
  "36to1": "./boards/solitaire36.js",
  countred: "./boards/countred.js",
  discs: "./boards/discs.js",
  columba: "./boards/columba.js",
};

const BLURB = {
  columns: "Stack roundels and blockers on twelve pins; most roundels on the top level wins.",
  "36to1": "A solitaire: clear a 6×6 grid of cubes with cards until one cube is left.",
  countred: "Count the red pieces around you: odd or even decides every move.",
  columba: "Lay pigeon cards, found dovecotes, and grow the largest estates.",
  discs: "Turn discs, move pins, lock and bar: collect a token of every colour.",
};

const app = document.getElementById("app");
let catalog = null;

// ---------------------------------------------------------------------------------------------
// helpers

async function api(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const err = new Error((data && data.error && data.error.message) || `HTTP ${res.status}`);
    err.status = res.status;
    err.info = data && data.error;
    throw err;
  }
  return data;
}

let toastTimer = null;
export function toast(message, kind = "error") {
  const t = document.getElementById("toast");
  t.textContent = message;
  t.className = `toast ${kind}`;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, kind === "error" ? 6000 : 3000);
}

async function loadCatalog() {
  if (!catalog) catalog = await api("GET", "/api/catalog");
  return catalog;
}

async function showRules(gameId) {
  const dlg = document.getElementById("rules-dialog");
  const body = document.getElementById("rules-body");
  document.getElementById("rules-title").textContent = "Rules";
  clear(body).append(el("p", {}, "Loading…"));
  if (!dlg.open) dlg.showModal();
  try {
    const r = await api("GET", `/api/rules/${encodeURIComponent(gameId)}`);
    document.getElementById("rules-title").textContent = `${r.title}: rules`;
    clear(body).append(markdown(r.text), el("h3", {}, "Move notation"), el("pre", { class: "notation" }, r.notation));
  } catch (e) {
    clear(body).append(el("p", {}, e.message));
  }
}

function tokensFor(gameId) {
  // Tokens come from the link's fragment (#t=TOKEN or #t=TOK0,TOK1 for hot-seat) and are kept
  // in localStorage so that a reload keeps the seat. The fragment never reaches the server.
  const saved = JSON.parse(localStorage.getItem(`rulebox:${gameId}`) || "null");
  const frag = new URLSearchParams(location.hash.slice(1));
  let tokens = saved;
  if (frag.has("t")) tokens = frag.get("t").split(",").map((x) => x || null);
  if (frag.has("watch")) tokens = [];
  if (tokens) localStorage.setItem(`rulebox:${gameId}`, JSON.stringify(tokens));
  return tokens || [];
}

// ---------------------------------------------------------------------------------------------
// the lobby

async function lobby() {
  document.title = "rulebox: play";
  clear(app).append(el("p", { class: "loading" }, "Loading games…"));
  let cat;
  try { cat = await loadCatalog(); } catch (e) { clear(app).append(el("p", {}, `The server did not answer: ${e.message}`)); return; }
  const cards = el("div", { class: "game-cards" });
  const form = el("div", { class: "new-game", id: "new-game" });
  for (const g of cat.games) {
    const card = el("button", { class: "game-card", "data-game": g.id, type: "button" },
      el("span", { class: "card-art" }, cardArt(g.id)),
      el("span", { class: "card-title" }, g.title),
      el("span", { class: "card-blurb" }, BLURB[g.id] || ""),
      el("span", { class: "card-players" }, playersText(g.player_counts)));
    card.addEventListener("click", () => {
      for (const c of cards.children) c.classList.toggle("chosen", c === card);
      newGameForm(form, g, cat);
    });
    cards.append(card);
  }
  const recent = el("section", { class: "recent" }, el("h2", {}, "Watch a game"), el("p", { class: "muted" }, "Loading…"));
  clear(app).append(
    el("section", { class: "lobby" }, el("h1", {}, "Choose a game"), cards, form),
    recent);
  api("GET", "/api/games").then((r) => {
    const list = el("ul", { class: "recent-list" });
    for (const g of r.games) {
      const title = (cat.games.find((x) => x.id === g.game) || { title: g.game }).title;
      list.append(el("li", {}, el("a", { href: `/game/${g.id}#watch` }, `${title}`),
        el("span", { class: "muted" }, ` · ${g.ply} moves${g.over ? " · finished" : ""}`),
        g.arranged ? el("span", { class: "arranged-tag", title: "the creator fixed the cards (seed= or deck=)" }, " · arranged deal") : null));
    }
    recent.replaceChildren(el("h2", {}, "Watch a game"), r.games.length ? list : el("p", { class: "muted" }, "No games yet."));
  }).catch(() => {});
  if (cat.games.length) cards.children[0].click();
}

function playersText(counts) {
  if (counts.length === 1) return counts[0] === 1 ? "solitaire" : `${counts[0]} players`;
  return `${counts[0]}–${counts[counts.length - 1]} players`;
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
      input = el("input", { name: o.name, placeholder: o.default === null ? "random" : o.default, size: 8 });
    }
    optionInputs[o.name] = input;
    opts.append(el("label", { class: "opt", title: o.help }, el("span", {}, o.name), input, el("small", {}, o.help)));
  }
  const seed = el("input", { name: "seed", placeholder: "random", size: 10, inputmode: "numeric" });
  optionInputs.seed = seed;
  opts.append(el("label", { class: "opt" }, el("span", {}, "seed"), seed, el("small", {}, "the same seed deals the same game")));

  const counts = g.player_counts;
  const nSel = el("select", { name: "players", id: "players" }, ...counts.map((n) => el("option", { value: n }, `${n} player${n > 1 ? "s" : ""}`)));
  const solo = counts.length === 1 && counts[0] === 1;
  const mode = el("div", { class: "modes", role: "radiogroup" });
  const modes = solo ? [["solo", "Play"]] : [["computer", "Against the computer"], ["hotseat", "Hot-seat (one screen)"], ["online", "Online (invite links)"]];
  let current = modes[0][0];
  const seatsBox = el("div", { class: "seats" });
  for (const [m, label] of modes) {
    const b = el("button", { type: "button", class: "mode" + (m === current ? " on" : ""), "data-mode": m }, label);
    b.addEventListener("click", () => { current = m; for (const x of mode.children) x.classList.toggle("on", x === b); drawSeats(); });
    mode.append(b);
  }
  const levelSel = el("select", { name: "level", id: "level" }, ...cat.levels.map((l) => el("option", { value: l, selected: l === cat.default_level ? "" : null }, l)));
  function drawSeats() {
    const n = Number(nSel.value);
    clear(seatsBox);
    if (current === "solo") return;
    for (let p = 0; p < n; p++) {
      const name = g.seat_names[p] || `player ${p}`;
      const choices = current === "computer" ? [["human", "You"], ["computer", "Computer"]]
        : current === "online" ? [["human", "Human (invite)"], ["computer", "Computer"]] : [["human", "Human"]];
      const def = current === "computer" ? (p === 0 ? "human" : "computer") : "human";
      const sel = el("select", { "data-seat": p }, ...choices.map(([v, l]) => el("option", { value: v, selected: v === def ? "" : null }, l)));
      seatsBox.append(el("label", { class: "seat-row" }, el("span", { class: `seat-dot seat-${p}` }), el("span", { class: "seat-name" }, `${p}: ${name}`), sel));
    }
    if (current !== "hotseat") seatsBox.append(el("label", { class: "seat-row" }, el("span", {}, "Computer level"), levelSel));
  }
  nSel.addEventListener("change", drawSeats);
  const start = el("button", { class: "btn primary big", id: "start", type: "button" }, solo ? "Start" : "Start game");
  const rulesBtn = el("button", { class: "btn", type: "button" }, "Read the rules");
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
      const r = await api("POST", "/api/games", { game: g.id, options, seats, hotseat });
      const tokens = r.seats.map((s) => s.token);
      let mine;
      if (current !== "online") mine = tokens; // every "You" seat plays on this screen
      else { const i = tokens.findIndex((t) => t); mine = tokens.map((t, k) => (k === i ? t : null)); }
      localStorage.setItem(`rulebox:${r.id}`, JSON.stringify(mine));
      if (current === "online") localStorage.setItem(`rulebox:${r.id}:invites`, JSON.stringify(tokens));
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
    el("p", { class: "muted" }, BLURB[g.id] || ""),
    mode,
    counts.length > 1 ? el("label", { class: "opt" }, el("span", {}, "players"), nSel) : "",
    seatsBox,
    el("details", { class: "more-options" }, el("summary", {}, "Options"), opts),
    el("div", { class: "actions" }, start, rulesBtn));
  drawSeats();
}

// ---------------------------------------------------------------------------------------------
// the game page

const page = {
  id: null, tokens: [], state: null, ws: null, board: null, replay: null, busy: false, gen: 0,
};

async function boardFor(gameId) {
  const path = BOARDS[gameId];
  if (!path) return generic;
  try { return await import(path); } catch { return generic; }
}

function myToken(state) {
  // The token to act with: the seat to move if this page holds it (hot-seat), else ours.
  if (state && state.to_move !== null && page.tokens[state.to_move]) return page.tokens[state.to_move];
  return page.tokens.find((t) => t) || null;
}

async function gamePage(id) {
  page.gen += 1;
  const gen = page.gen;
  if (page.ws) { page.ws.onclose = null; page.ws.close(); page.ws = null; }
  Object.assign(page, { id, tokens: tokensFor(id), state: null, replay: null, busy: false, seenEvent: undefined, commitment: null });
  clear(app).append(el("p", { class: "loading" }, "Loading the game…"));
  let first;
  try {
    first = await api("GET", `/api/games/${id}`, undefined, myToken(null));
  } catch (e) {
    clear(app).append(el("div", { class: "panel" }, el("h2", {}, "No such game"), el("p", {}, e.message), el("a", { href: "/", class: "btn" }, "Back to the lobby")));
    return;
  }
  page.board = await boardFor(first.game);
  if (gen !== page.gen) return;
  buildGameLayout(first);
  await accept(first);
  connect(gen);
}

function connect(gen) {
  const token = page.tokens.find((t) => t) || "";
  const proto = location.protocol === "https:" ? "wss" : "ws";
  // the token goes in the first message, never in a URL
  const ws = new WebSocket(`${proto}://${location.host}/api/games/${page.id}/ws?auth=first`);
  page.ws = ws;
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") accept(msg);
  };
  ws.onclose = () => {
    if (gen !== page.gen) return;
    setConn(false);
    setTimeout(() => { if (gen === page.gen) connect(gen); }, 1500);
  };
  ws.onopen = () => { ws.send(JSON.stringify({ type: "auth", token: token || null })); setConn(true); };
}

function setConn(ok) {
  const c = document.getElementById("conn");
  if (c) { c.textContent = ok ? "● live" : "○ reconnecting…"; c.className = ok ? "conn ok" : "conn"; }
}

async function accept(state) {
  if (page.state && state.version < page.state.version) return; // an older push
  // Hot-seat: the socket speaks for one seat; fetch the view of the seat to move.
  if (state.to_move !== null && state.you !== state.to_move && page.tokens[state.to_move]) {
    try { state = await api("GET", `/api/games/${page.id}`, undefined, page.tokens[state.to_move]); } catch { /* keep */ }
    if (page.state && state.version < page.state.version) return;
  }
  page.state = state;
  window.rulebox = { state };
  render();
}

function buildGameLayout(state) {
  document.title = `${state.title}: rulebox`;
  const header = el("div", { class: "game-head" },
    el("h1", {}, state.title),
    el("span", { id: "conn", class: "conn" }, "…"));
  const board = el("div", { class: "board-wrap", id: "board" });
  const status = el("div", { class: "status", id: "status", "aria-live": "polite" });
  const news = el("ul", { class: "announcements", id: "announcements", "aria-live": "polite" });
  const controls = el("div", { class: "controls", id: "controls" });
  const side = el("aside", { class: "side" },
    el("div", { class: "seats-list", id: "seats" }),
    el("div", { class: "result", id: "result", hidden: "" }),
    el("div", { class: "arranged-note", id: "arranged-note", role: "note", hidden: "" },
      "Arranged deal: the creator of this game fixed the cards (seed= or deck=)."),
    el("div", { class: "fairness", id: "fairness", hidden: "" }),
    el("div", { class: "buttons" },
      button("Undo", "undo-btn", doUndo),
      button("Resign", "resign-btn", doResign),
      button("Rules", "rules-btn", () => showRules(state.game)),
      button("Replay", "replay-btn", startReplay),
      el("a", { class: "btn", href: "/", id: "lobby-btn" }, "Lobby")),
    el("div", { id: "draw-box", class: "draw-box" }),
    el("div", { id: "invites" }),
    el("details", { class: "move-entry", id: "move-entry" }, el("summary", {}, "Type a move"),
      moveForm()),
    el("h3", {}, "Moves"),
    el("ol", { class: "moves", id: "moves" }),
    el("div", { id: "replay-bar", class: "replay-bar", hidden: "" }));
  clear(app).append(el("section", { class: `game game-${state.game}` }, el("div", { class: "main" }, header, status, news, board, controls), side));
}

function button(label, id, fn) {
  const b = el("button", { class: "btn", id, type: "button" }, label);
  b.addEventListener("click", fn);
  return b;
}

function moveForm() {
  const input = el("input", { id: "move-input", placeholder: "e.g. Ra1", autocomplete: "off", spellcheck: "false", maxlength: 200 });
  const f = el("form", { class: "move-form" }, input, el("button", { class: "btn", type: "submit" }, "Play"));
  f.addEventListener("submit", (e) => { e.preventDefault(); if (input.value.trim()) play(input.value.trim()).then((ok) => { if (ok) input.value = ""; }); });
  return f;
}

export async function play(text) {
  const st = page.state;
  if (!st || page.busy) return false;
  const token = myToken(st);
  if (!token) { toast("You are watching: spectators cannot move."); return false; }
  page.busy = true;
  try {
    // the version the move was made on: a retry or a double click is refused (409 stale)
    const r = await api("POST", `/api/games/${page.id}/moves`, { move: text, version: st.version }, token);
    await accept(r);
    return true;
  } catch (e) {
    const info = e.info || {};
    if (info.code === "illegal") toast(`Not allowed: ${info.reason} [${info.rule}]`);
    else if (info.code === "stale") { toast("The game has moved on; here it is now.", "info"); await refresh(); }
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
    const r = await api("GET", `/api/games/${page.id}/explain?q=${encodeURIComponent(arg)}`, undefined, page.tokens.find((t) => t));
    return r.text;
  } catch { return null; }
}

async function drawAction(action) {
  const st = page.state;
  const mine = page.tokens.map((t, p) => [t, p]).filter(([t]) => t);
  // act for a seat of this page that may: the offer's other side to accept or decline
  let pick = mine.find(([, p]) => (action === "offer" || action === "withdraw") ? p === (st.to_move ?? p) : p !== st.draw_offer) || mine[0];
  if (action === "withdraw") pick = mine.find(([, p]) => p === st.draw_offer) || pick;
  try {
    const r = await api("POST", `/api/games/${page.id}/draw`, { action }, pick[0]);
    await accept(r);
  } catch (e) { toast(e.message); }
}

async function goRematch(newId) {
  localStorage.setItem(`rulebox:${newId}`, JSON.stringify(page.tokens));
  const invites = localStorage.getItem(`rulebox:${page.id}:invites`);
  if (invites) localStorage.setItem(`rulebox:${newId}:invites`, invites);
  history.pushState({}, "", `/game/${newId}`);
  route();
}

async function doRematch() {
  const st = page.state;
  if (st.rematch) { goRematch(st.rematch); return; }
  try {
    const r = await api("POST", `/api/games/${page.id}/rematch`, undefined, page.tokens.find((t) => t));
    goRematch(r.id);
  } catch (e) { toast(e.message); }
}

function drawBox(st) {
  const box = clear(document.getElementById("draw-box"));
  if (st.over && !page.replay && page.tokens.some((t) => t)) {
    const label = st.rematch ? "Join the rematch" : (st.seats.length === 1 ? "Play again" : "Rematch");
    box.append(button(label, st.rematch ? "rematch-join" : "rematch-btn", doRematch));
    return;
  }
  if (st.over || page.replay || !st.seats || st.seats.length < 2 || !page.tokens.some((t) => t)) return;
  const offer = st.draw_offer;
  const iOffered = offer !== null && offer !== undefined && page.tokens[offer] && !st.hotseat;
  if (offer === null || offer === undefined) {
    if (st.seats.some((s, p) => !page.tokens[p]) || st.hotseat) {
      box.append(button("Offer a draw", "draw-offer", () => drawAction("offer")));
    }
  } else if (iOffered) {
    box.append(el("span", { class: "muted small" }, "You offered a draw. "), button("Withdraw", "draw-withdraw", () => drawAction("withdraw")));
  } else {
    box.append(el("div", { class: "offer" }, el("strong", {}, `${st.seats[offer].name} offers a draw.`),
      button("Accept", "draw-accept", () => drawAction("accept")), button("Decline", "draw-decline", () => drawAction("decline"))));
  }
}

async function refresh() {
  try { await accept(await api("GET", `/api/games/${page.id}`, undefined, myToken(page.state))); } catch { /* the socket brings it */ }
}

async function doResign() {
  const st = page.state;
  if (!st || st.over || !confirm("Give up this game?")) return;
  const mine = page.tokens.map((t, p) => [t, p]).filter(([t]) => t);
  const pick = mine.find(([, p]) => p === st.to_move) || mine[0];
  if (!pick) return;
  try { await accept(await api("POST", `/api/games/${page.id}/resign`, undefined, pick[0])); } catch (e) { toast(e.message); }
}

async function doUndo() {
  const token = myToken(page.state) || page.tokens.find((t) => t);
  try {
    const r = await api("POST", `/api/games/${page.id}/undo`, { version: page.state.version }, token);
    if (page.board && page.board.reset) page.board.reset();
    await accept(r);
  } catch (e) { toast(e.message); }
}

function seatLine(st, p) {
  const seat = st.seats[p];
  const you = page.tokens[p] ? " (you)" : "";
  const turn = st.to_move === p;
  return el("div", { class: `seat-line${turn ? " turn" : ""}`, "data-player": p },
    el("span", { class: `seat-dot seat-${p}` }),
    el("span", { class: "seat-name" }, `${seat.name}${you}`),
    el("span", { class: "muted" }, seat.kind === "computer" ? seat.label : (page.tokens[p] ? "" : "human")),
    turn ? el("span", { class: "turn-mark" }, "to move") : "");
}

function statusText(st) {
  if (st.over) {
    const r = st.result;
    if (!r.winners.length) return st.seats.length === 1 ? `Game over: ${r.reason}` : `Game over: a draw (${r.reason})`;
    if (!st.hotseat && r.winners.some((w) => page.tokens[w])) return `Game over: you win! ${r.reason}`;
    if (!st.hotseat && page.tokens.some((t) => t)) return `Game over: you lose: ${r.reason}`;
    const names = r.winners.map((w) => st.seats[w].name).join(" and ");
    return `Game over: ${names} win${r.winners.length > 1 ? "" : "s"}: ${r.reason}`;
  }
  const p = st.to_move;
  if (page.tokens[p]) return st.seats.length === 1 ? "Your move" : (st.hotseat ? `${st.seats[p].name} to move` : "Your turn");
  if (st.seats[p].kind === "computer") return `The computer (${st.seats[p].name}) is thinking…`;
  return `Waiting for ${st.seats[p].name}…`;
}

function render() {
  const st = page.state;
  if (!st) return;
  const replaying = page.replay !== null;
  const status = document.getElementById("status");
  status.textContent = replaying ? `Replay: position after move ${page.replay.ply} of ${page.replay.plies}` : statusText(st);
  status.className = "status" + (st.over ? " over" : page.tokens[st.to_move] ? " mine" : "");
  const seats = document.getElementById("seats");
  clear(seats).append(...st.seats.map((_, p) => seatLine(st, p)));
  const res = document.getElementById("result");
  if (st.over) {
    res.hidden = false;
    const sc = st.result.scores ? ` · score ${st.result.scores.join(" : ")}` : "";
    clear(res).append(el("strong", {}, st.result.winners.length ? `Winner: ${st.result.winners.map((w) => st.seats[w].name).join(", ")}` : (st.seats.length === 1 ? "Lost" : "Draw")), el("span", {}, `${sc} · ${st.result.reason}`));
  } else res.hidden = true;
  document.getElementById("arranged-note").hidden = !st.arranged;
  fairnessBox(st);
  document.getElementById("undo-btn").hidden = !st.can_undo || replaying;
  document.getElementById("resign-btn").hidden = st.over || replaying || !page.tokens.some((t) => t);
  showAnnouncements(st);
  document.getElementById("replay-btn").hidden = !(st.over && st.ply > 0) || replaying;
  document.getElementById("move-entry").hidden = !myToken(st) || st.over;
  // moves
  const moves = document.getElementById("moves");
  clear(moves);
  (st.history || []).forEach((m, i) => {
    const li = el("li", { "data-ply": i + 1 }, m);
    if (replaying && page.replay.ply === i + 1) li.classList.add("current");
    li.addEventListener("click", () => { if (page.replay) gotoPly(i + 1); });
    moves.append(li);
  });
  if (!replaying) moves.scrollTop = moves.scrollHeight;
  drawBox(st);
  // invites
  const inv = document.getElementById("invites");
  const invites = JSON.parse(localStorage.getItem(`rulebox:${page.id}:invites`) || "null");
  clear(inv);
  if (invites && !st.over) {
    const box = el("div", { class: "invite" }, el("h3", {}, "Invite links"));
    invites.forEach((t, p) => {
      if (!t || page.tokens[p]) return;
      const slots = invites.map((_, k) => (k === p ? t : ""));
      const url = `${location.origin}/game/${page.id}#t=${slots.join(",")}`;
      const input = el("input", { readonly: "", value: url, class: "invite-url", "data-seat": p });
      input.addEventListener("focus", () => input.select());
      box.append(el("label", {}, `${st.seats[p].name}: `, input));
    });
    box.append(el("label", {}, "Spectators: ", el("input", { readonly: "", value: `${location.origin}/game/${page.id}#watch`, class: "invite-url" })));
    inv.append(box);
  }
  // the board
  const board = document.getElementById("board");
  const controls = document.getElementById("controls");
  const view = replaying ? page.replay.view : st.view;
  const mine = !replaying && !st.over && !!page.tokens[st.to_move];
  const ctx = {
    view, state: st, legal: mine ? st.legal : [], mine, play, toast, explain,
    seat: replaying ? st.you : (mine ? st.to_move : st.you), replay: replaying, controls,
  };
  try {
    page.board.draw(board, ctx);
  } catch (e) {
    console.error(e);
    generic.draw(board, ctx);
  }
}

// --- fair deals (docs/FAIRNESS.md): the commitment shown from the start, checked at the end ------
function fairnessBox(st) {
  const box = document.getElementById("fairness");
  const f = st.fairness;
  if (!f) { box.hidden = true; return; }
  if (!page.commitment) page.commitment = f.commitment; // the first one this page saw
  box.hidden = false;
  const head = el("p", { class: "muted", title: f.commitment }, `Deal committed: ${f.commitment.slice(0, 16)}…`);
  if (!f.reveal) { clear(box).append(head); return; }
  if (box.dataset.checked === f.commitment) return; // keep the result shown
  const out = el("p", { id: "verify-result", "aria-live": "polite" });
  const btn = button("Check the deal", "verify-btn", () => checkDeal(st, out));
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
    out.textContent = "This browser cannot hash here (it needs https); use rulebox verify.";
    return;
  }
  const same = hex === f.commitment && hex === page.commitment;
  const record = URL.createObjectURL(new Blob([JSON.stringify(st)], { type: "application/json" }));
  out.className = same ? "verify ok" : "verify bad";
  clear(out).append(
    same ? "✓ The revealed deal matches the commitment shown since the start. "
         : "✗ The revealed deal does NOT match the commitment shown at the start. ",
    el("a", { href: record, download: `rulebox-${st.id}.json`, id: "verify-record" }, "Save the record"),
    " and run rulebox verify on it to replay every move on the revealed order.");
}

// --- announcements: what a move did beyond itself (a bonus move, a skipped player, a token, an
// objective), and the table's own news (a draw declined, a computer that failed) ----------------
const ANNOUNCED = new Set(["bonus_move", "skipped", "three", "token", "objective", "announcement",
  "agent_error", "draw_declined", "draw_offer", "resigned", "reshuffle"]);

function showAnnouncements(st) {
  const list = document.getElementById("announcements");
  if (!list) return;
  const events = (st.events || []).filter((e) => ANNOUNCED.has(e.kind));
  const fresh = events.filter((e) => page.seenEvent !== undefined && e.index > page.seenEvent);
  if (events.length) page.seenEvent = Math.max(page.seenEvent ?? -1, ...events.map((e) => e.index));
  else if (page.seenEvent === undefined) page.seenEvent = -1;
  clear(list).append(...events.slice(-4).map((e) => el("li", {
    class: `announcement kind-${e.kind}${fresh.includes(e) ? " fresh" : ""}`, "data-kind": e.kind,
  }, e.text)));
  list.hidden = events.length === 0;
  const last = fresh[fresh.length - 1];
  if (last) toast(last.text, last.kind === "agent_error" ? "error" : "info");
}

// --- replay ------------------------------------------------------------------------------------
async function startReplay() {
  page.replay = { ply: 0, plies: page.state.ply, view: page.state.view };
  const bar = document.getElementById("replay-bar");
  bar.hidden = false;
  const range = el("input", { type: "range", min: 0, max: page.state.ply, value: 0, id: "replay-range" });
  range.addEventListener("input", () => gotoPly(Number(range.value)));
  clear(bar).append(
    button("⏮", "replay-first", () => gotoPly(0)),
    button("◀", "replay-prev", () => gotoPly(page.replay.ply - 1)),
    range,
    button("▶", "replay-next", () => gotoPly(page.replay.ply + 1)),
    button("⏭", "replay-last", () => gotoPly(page.replay.plies)),
    button("Close", "replay-close", () => { page.replay = null; bar.hidden = true; render(); }));
  await gotoPly(0);
}

async function gotoPly(ply) {
  if (!page.replay) return;
  ply = Math.max(0, Math.min(page.replay.plies, ply));
  try {
    const r = await api("GET", `/api/games/${page.id}/replay?ply=${ply}`, undefined, page.tokens.find((t) => t));
    Object.assign(page.replay, { ply, view: r.view });
    const range = document.getElementById("replay-range");
    if (range) range.value = ply;
    render();
  } catch (e) { toast(e.message); }
}

// ---------------------------------------------------------------------------------------------
// routing

function route() {
  const m = location.pathname.match(/^\/game\/([A-Za-z0-9]+)/);
  if (m) gamePage(m[1]);
  else { page.gen += 1; if (page.ws) { page.ws.onclose = null; page.ws.close(); page.ws = null; } lobby(); }
}

window.addEventListener("popstate", route);
document.getElementById("home-link").addEventListener("click", (e) => { e.preventDefault(); history.pushState({}, "", "/"); route(); });
route();
