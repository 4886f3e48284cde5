// Columba: the territory on an integer grid (x east, y south). Fields show wild pigeons in
// four colours; domesticated tiles wear their owner's colour; dovecotes are little houses,
// falcons dark diamonds. Card edges are drawn thicker. Every action that names a square is
// made by choosing the action, then clicking the square; the card in hand can be turned first.
// A card that reads the same turned 180 degrees has two placements per square: the legal list
// names the lower rotation, and the board maps the turned card onto it. Buying or raising a
// falcon names the tiles paid (buy WK): where the choice matters the player picks the colours.
// The printed card faces come from the game's public data file (deck.json).

import { el, svg, clear } from "../dom.js";

const PIGEON = { W: "#f3efe6", G: "#9ca3ab", B: "#8b5a33", K: "#2a2a2a" };
const PIGEON_NAME = { W: "white", G: "grey", B: "brown", K: "black" };
const PLAYER = ["#c0392b", "#8e44ad", "#e1b12c", "#27ae60"];
const COORD = /^(.*?)(-?\d+),(-?\d+)(.*)$/;

let faces = null; // card id -> rows
let loading = null;
let sel = { tool: null, rot: 0 };
let hover = null;

export function reset() { hover = null; }

function loadFaces(redraw) {
  if (faces || loading) return;
  loading = fetch("/api/assets/columba/deck.json").then((r) => r.json()).then((d) => {
    faces = {};
    for (const c of [...(d.cards || []), ...(d.starting || []), ...(d.pond ? [d.pond] : [])]) faces[c.id] = c.rows;
    redraw();
  }).catch(() => { faces = {}; });
}

function rotate(rows, rot) {
  let g = rows.map((r) => r.split(""));
  for (let i = 0; i < ((rot / 90) | 0) % 4; i++) {
    const n = g.length;
    g = g[0].map((_, c) => g.map((row, r) => g[n - 1 - r][c]));
  }
  return g;
}

// The lowest rotation that lays the same colours as turning the card `rot` degrees.
function canonRot(rows, rot) {
  if (!rows) return rot;
  const want = rotate(rows, rot).flat().join("");
  for (const r of [0, 90, 180, 270]) if (rotate(rows, r).flat().join("") === want) return r;
  return rot;
}

function toolOf(move) {
  const m = move.match(COORD);
  if (!m) return null;
  const prefix = m[1].trim();
  const suffix = m[4].trim();
  return { key: prefix === "place" ? "place" : `${prefix}|${suffix}`, prefix, suffix, x: Number(m[2]), y: Number(m[3]) };
}

function toolLabel(key) {
  if (key === "place") return "Lay the card";
  const [prefix] = key.split("|");
  const words = prefix.split(" ");
  if (words[0] === "cote") return `${words[1] === "large" ? "Large" : "Small"} dovecote`;
  if (words[0] === "tile") return `${PIGEON_NAME[words[1]] || words[1]} tile`;
  if (words[0] === "falcon") return "Falcon";
  return prefix;
}

function bird(g, x, y, s, colour) {
  const light = colour === "W" || colour === "G";
  const ink = light ? "#00000055" : "#ffffff55";
  g.append(svg("path", { d: `M${x + s * 0.2} ${y + s * 0.62} Q${x + s * 0.45} ${y + s * 0.35} ${x + s * 0.7} ${y + s * 0.5} L${x + s * 0.82} ${y + s * 0.42} L${x + s * 0.78} ${y + s * 0.56} Q${x + s * 0.55} ${y + s * 0.78} ${x + s * 0.2} ${y + s * 0.62} Z`, fill: ink, "pointer-events": "none" }));
  g.append(svg("circle", { cx: x + s * 0.74, cy: y + s * 0.38, r: s * 0.08, fill: ink, "pointer-events": "none" }));
}

export function draw(root, ctx) {
  const { view, legal, mine } = ctx;
  const pos = view.position;
  const redraw = () => draw(document.getElementById("board"), ctx);
  loadFaces(redraw);
  const squares = pos.squares || {};
  const cotes = pos.cotes || {};
  const hand = pos.hand && faces ? faces[pos.hand] : null;
  const coordMoves = legal.map((m) => [m, toolOf(m)]).filter(([, t]) => t);
  const tools = [...new Set(coordMoves.map(([, t]) => t.key))];
  if (!tools.includes(sel.tool)) sel.tool = tools[0] || null;
  const placeRots = new Set(coordMoves.filter(([, t]) => t.key === "place").map(([m]) => Number(m.split(" r")[1])));
  if (sel.tool === "place" && placeRots.size && !placeRots.has(canonRot(hand, sel.rot))) sel.rot = Math.min(...placeRots);
  const rot = canonRot(hand, sel.rot); // the turned card as the legal list spells it
  const targets = new Map();
  for (const [m, t] of coordMoves) {
    if (t.key !== sel.tool) continue;
    if (t.key === "place" && !m.endsWith(` r${rot}`)) continue;
    targets.set(`${t.x},${t.y}`, m);
  }
  // bounds
  const xs = [];
  const ys = [];
  for (const k of Object.keys(squares)) { const [x, y] = k.split(",").map(Number); xs.push(x); ys.push(y); }
  for (const k of targets.keys()) { const [x, y] = k.split(",").map(Number); xs.push(x, x + 1); ys.push(y, y + 1); }
  if (!xs.length) { xs.push(0); ys.push(0); }
  const minX = Math.min(...xs) - 1;
  const maxX = Math.max(...xs) + 1;
  const minY = Math.min(...ys) - 1;
  const maxY = Math.max(...ys) + 1;
  const cols = maxX - minX + 1;
  const rows = maxY - minY + 1;
  const C = Math.max(24, Math.min(52, Math.floor(760 / Math.max(cols, rows * 1.1))));
  const W = cols * C + 20;
  const H = rows * C + 20;
  const px = (x) => 10 + (x - minX) * C;
  const py = (y) => 10 + (y - minY) * C;

  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "board columba-board", role: "img", "aria-label": "Columba territory" });
  s.append(svg("rect", { x: 0, y: 0, width: W, height: H, rx: 14, fill: "#7fa36b" }));
  // grass dots
  for (let y = minY; y <= maxY; y++) for (let x = minX; x <= maxX; x++) s.append(svg("circle", { cx: px(x) + C / 2, cy: py(y) + C / 2, r: 1.5, fill: "#ffffff30" }));
  const layer = svg("g", {});
  s.append(layer);
  // squares
  for (const [k, sq] of Object.entries(squares)) {
    const [x, y] = k.split(",").map(Number);
    const g = svg("g", { class: "sq", "data-square": k });
    if (sq[0] === "field" || sq[0] === "tile") {
      const colour = sq[1];
      g.append(svg("rect", { x: px(x) + 1, y: py(y) + 1, width: C - 2, height: C - 2, rx: 3, fill: PIGEON[colour] || "#ccc", class: "field" }));
      bird(g, px(x), py(y), C, colour);
      if (sq[0] === "tile") g.append(svg("rect", { x: px(x) + 4, y: py(y) + 4, width: C - 8, height: C - 8, rx: 4, fill: "none", stroke: PLAYER[sq[2]] || "#000", "stroke-width": Math.max(3, C / 9), class: "tile" }));
    } else if (sq[0] === "falcon") {
      const colour = sq[3];
      g.append(svg("rect", { x: px(x) + 1, y: py(y) + 1, width: C - 2, height: C - 2, rx: 3, fill: colour ? PIGEON[colour] : "#777" }));
      const cx = px(x) + C / 2;
      const cy = py(y) + C / 2;
      g.append(svg("path", { d: `M${cx} ${cy - C * 0.36} L${cx + C * 0.36} ${cy} L${cx} ${cy + C * 0.36} L${cx - C * 0.36} ${cy} Z`, fill: "#3b2a1d", stroke: PLAYER[sq[1]] || "#000", "stroke-width": 3, class: "falcon" }));
      g.append(svg("text", { x: cx, y: cy + C * 0.14, class: "falcon-f", "font-size": C * 0.38 }, "F"));
    }
    layer.append(g);
  }
  // what was laid in the latest turn shows a golden rim
  const turnOf = (sq) => (sq[0] === "falcon" ? sq[2] : sq[3]);
  const latest = Math.max(-1, ...Object.values(squares).map(turnOf).filter((t) => typeof t === "number"));
  if (latest >= 0 && !ctx.replay) {
    for (const [k, sq] of Object.entries(squares)) {
      if (turnOf(sq) !== latest) continue;
      const [x, y] = k.split(",").map(Number);
      layer.append(svg("rect", { x: px(x) + 2.5, y: py(y) + 2.5, width: C - 5, height: C - 5, rx: 3, class: "latest" }));
    }
  }
  // card edges
  const cardAt = (x, y) => { const sq = squares[`${x},${y}`]; return sq && sq[0] === "field" ? sq[2] : null; };
  for (const k of Object.keys(squares)) {
    const [x, y] = k.split(",").map(Number);
    const id = cardAt(x, y);
    if (!id) continue;
    const edges = [[x + 1, y, px(x) + C, py(y), px(x) + C, py(y) + C], [x - 1, y, px(x), py(y), px(x), py(y) + C], [x, y + 1, px(x), py(y) + C, px(x) + C, py(y) + C], [x, y - 1, px(x), py(y), px(x) + C, py(y)]];
    for (const [nx, ny, x1, y1, x2, y2] of edges) if (cardAt(nx, ny) !== id) layer.append(svg("line", { x1, y1, x2, y2, class: "card-edge" }));
  }
  // dovecotes
  for (const [k, [owner, size]] of Object.entries(cotes)) {
    const [x, y] = k.split(",").map(Number);
    const big = size === "large";
    const w = C * (big ? 0.7 : 0.5);
    const cx = px(x) + C / 2;
    const base = py(y) + C / 2 + w * 0.45;
    layer.append(svg("path", { d: `M${cx - w / 2} ${base} v${-w * 0.55} l${w / 2} ${-w * 0.4} l${w / 2} ${w * 0.4} v${w * 0.55} z`, fill: PLAYER[owner], stroke: "#000c", "stroke-width": 2, class: `cote ${size}`, "data-cote": k }));
    layer.append(svg("rect", { x: cx - w * 0.12, y: base - w * 0.3, width: w * 0.24, height: w * 0.3, fill: "#000a", "pointer-events": "none" }));
    if (big) layer.append(svg("text", { x: cx, y: base - w * 0.5, class: "cote-l", "font-size": C * 0.22 }, "L"));
  }
  // targets and click cells
  for (let y = minY; y <= maxY; y++) {
    for (let x = minX; x <= maxX; x++) {
      const k = `${x},${y}`;
      const hot = targets.has(k);
      const cell = svg("rect", { x: px(x), y: py(y), width: C, height: C, class: "cell" + (hot ? " hot" : ""), "data-cell": k });
      cell.addEventListener("click", () => onCell(x, y, ctx, targets));
      cell.addEventListener("mouseenter", () => { if (sel.tool === "place" && mine) { hover = [x, y]; drawGhost(); } });
      s.append(cell);
    }
  }
  const ghost = svg("g", { class: "ghost", "pointer-events": "none" });
  s.append(ghost);
  function drawGhost() {
    clear(ghost);
    if (!hover || !hand || sel.tool !== "place") return;
    const g = rotate(hand, sel.rot);
    const ok = targets.has(`${hover[0]},${hover[1]}`);
    for (let r = 0; r < 2; r++) for (let c = 0; c < 2; c++) {
      ghost.append(svg("rect", { x: px(hover[0] + c) + 2, y: py(hover[1] + r) + 2, width: C - 4, height: C - 4, rx: 3, fill: PIGEON[g[r][c]], opacity: 0.85 }));
    }
    ghost.append(svg("rect", { x: px(hover[0]), y: py(hover[1]), width: 2 * C, height: 2 * C, fill: "none", stroke: ok ? "#2ee37a" : "#ff4d4d", "stroke-width": 3, rx: 4 }));
  }
  s.addEventListener("mouseleave", () => { hover = null; drawGhost(); });
  drawGhost();
  clear(root).append(s);
  controls(ctx, pos, tools, placeRots, hand, redraw);
}

function onCell(x, y, ctx, targets) {
  if (!ctx.mine || !sel.tool) return;
  if (sel.tool === "place") { ctx.play(targets.get(`${x},${y}`) || `place ${x},${y} r${sel.rot}`); return; }
  const [prefix, suffix] = sel.tool.split("|");
  ctx.play(`${prefix} ${x},${y}${suffix ? ` ${suffix}` : ""}`);
}

function miniCard(rows, rot = 0, slots = null, size = 22) {
  const s = svg("svg", { viewBox: `0 0 ${2 * size + 6} ${2 * size + 6}`, class: "mini-card", width: 2 * size + 6, height: 2 * size + 6 });
  s.append(svg("rect", { x: 0, y: 0, width: 2 * size + 6, height: 2 * size + 6, rx: 5, fill: "#5b3a1e" }));
  if (!rows) return s;
  const g = rotate(rows, rot);
  for (let r = 0; r < 2; r++) for (let c = 0; c < 2; c++) {
    const x = 3 + c * size;
    const y = 3 + r * size;
    s.append(svg("rect", { x: x + 1, y: y + 1, width: size - 2, height: size - 2, rx: 3, fill: PIGEON[g[r][c]] }));
    if (slots && slots[r * 2 + c]) s.append(svg("text", { x: x + size / 2, y: y + size * 0.72, class: "slot-done", "font-size": size * 0.7 }, "✓"));
  }
  return s;
}

function controls(ctx, pos, tools, placeRots, hand, redraw) {
  const { legal, mine } = ctx;
  const box = clear(ctx.controls);
  const scores = ctx.view.scores || [];
  const players = el("div", { class: "cb-players" });
  (pos.players || []).forEach((pl, p) => {
    const seat = ctx.state.seats[p] || { name: `player ${p}` };
    const reserve = el("span", { class: "reserve" }, ...Object.entries(pl.reserve || {}).map(([c, n]) => el("span", { class: `res-chip res-${c}`, style: `--c:${PIGEON[c]}`, title: `${PIGEON_NAME[c]} tiles in reserve` }, String(n))));
    players.append(el("div", { class: "cb-player" + (pos.to_move === p && !ctx.state.over ? " turn" : ""), "data-player": p },
      el("div", { class: "cb-head" }, el("span", { class: "seat-dot", style: `background:${PLAYER[p]}` }), el("strong", {}, seat.name), el("span", { class: "cb-score" }, `${scores[p] ?? "?"} pts`)),
      el("div", { class: "cb-row" },
        pl.objective ? miniCard(faces ? faces[pl.objective] : null, 0, pl.slots, 16) : el("span", { class: "muted small" }, "no objective"),
        el("div", { class: "cb-facts" },
          el("div", {}, "reserve ", reserve),
          el("div", { class: "small" }, `dovecotes left: ${pl.cotes.small} small, ${pl.cotes.large} large`),
          (pl.chicks || []).length || pl.adults ? el("div", { class: "small" }, `falcons: ${(pl.chicks || []).length} chick(s), ${pl.adults} adult(s)`) : ""))));
  });
  box.append(el("div", { class: "cb-top" }, players,
    el("div", { class: "cb-deck" }, el("div", { class: "pile-back cb" }, el("span", {}, String(pos.cards_left ?? "?"))), el("div", { class: "muted small" }, "cards left"))));
  if (!mine) return;
  const row = el("div", { class: "action-row" });
  if (pos.hand && placeRots.size) {
    const turn = (d) => { sel.tool = "place"; sel.rot = (sel.rot + d + 360) % 360; redraw(); };
    const l = el("button", { class: "btn small", type: "button", id: "rot-left", title: "turn anticlockwise" }, "⟲");
    const r = el("button", { class: "btn small", type: "button", id: "rot-right", title: "turn clockwise" }, "⟳");
    l.addEventListener("click", () => turn(-90));
    r.addEventListener("click", () => turn(90));
    row.append(el("span", { class: "hand" }, el("span", { class: "small muted" }, "in hand:"), miniCard(hand, sel.rot, null, 24), l, r, el("span", { class: "small muted", id: "rot-label" }, `r${sel.rot}`)));
  }
  for (const t of tools) {
    const b = el("button", { class: "tool-btn btn" + (sel.tool === t ? " on" : ""), type: "button", "data-tool": t }, toolLabel(t));
    b.addEventListener("click", () => { sel.tool = t; redraw(); });
    row.append(b);
  }
  const words = { end: "End turn", goal: "Take a new objective", nogoal: "No new objective", buy: "Buy a falcon", raise: "Raise a falcon" };
  const pays = { buy: [], raise: [] };
  for (const m of legal) {
    if (COORD.test(m)) continue;
    const verb = m.split(" ")[0];
    if (verb in pays) { pays[verb].push(m); continue; }
    const b = el("button", { class: "btn" + (m === "end" ? " primary" : ""), type: "button", "data-move": m }, words[m] || m);
    b.addEventListener("click", () => ctx.play(m));
    row.append(b);
  }
  // buy / raise name the tiles paid (CB-8): one button when there is one way to pay, else a
  // choice of colours
  for (const [verb, moves] of Object.entries(pays)) {
    if (!moves.length) continue;
    const chips = (m) => (m.split(" ")[1] || "").split("").map((c) => el("span", { class: `res-chip res-${c}`, style: `--c:${PIGEON[c]}`, title: PIGEON_NAME[c] }, c));
    const payButton = (m, label) => {
      const b = el("button", { class: "btn pay", type: "button", "data-move": m, title: `${m}: pay ${(m.split(" ")[1] || "").split("").map((c) => PIGEON_NAME[c]).join(" and ")}` }, ...label, ...chips(m));
      b.addEventListener("click", () => ctx.play(m));
      return b;
    };
    if (moves.length === 1) { row.append(payButton(moves[0], [`${words[verb]}, paying `])); continue; }
    row.append(el("span", { class: "pay-choice", "data-pay": verb }, el("span", { class: "small muted" }, `${words[verb]}, paying:`), ...moves.map((m) => payButton(m, []))));
  }
  box.append(row);
  const hint = sel.tool === "place" ? "Turn the card, then click where its top-left field goes (green squares)."
    : sel.tool ? `${toolLabel(sel.tool)}: click a green square.` : "End the turn when you are done.";
  box.append(el("p", { class: "hint", id: "hint" }, hint));
}
