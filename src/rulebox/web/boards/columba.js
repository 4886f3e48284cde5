// Columba: the territory on an integer grid (x east, y south). Fields show wild pigeons in
// four colours; domesticated tiles wear their owner's colour; dovecotes are little houses,
// falcons dark diamonds. Card edges are drawn thicker. Every action that names a square is
// made by choosing the action, then clicking the square; the card in hand can be turned first.
// A card that reads the same turned 180 degrees has two placements per square: the legal list
// names the lower rotation, and the board maps the turned card onto it. Buying or raising a
// falcon names the tiles paid (buy WK): where the choice matters the player picks the colours.
// The printed card faces come from the game's public data file (deck.json).

import { el, svg, clear } from "../dom.js";
import { t, tn } from "../i18n.js";
import { animate, focusedKey, highlightSet, lastMoves, motionOK, roving, seatName, takeAnimation, turnEndingWithEnd } from "./common.js";

const PIGEON = { W: "#f3efe6", G: "#9ca3ab", B: "#8b5a33", K: "#2a2a2a" };
const PIGEON_WORD = { W: () => t("white"), G: () => t("grey"), B: () => t("brown"), K: () => t("black") };
const PLAYER = ["#c0392b", "#8e44ad", "#e1b12c", "#27ae60"];
const COORD = /^(.*?)(-?\d+),(-?\d+)(.*)$/;

let faces = null; // card id -> rows
let loading = null;
let sel = { tool: null, rot: 0 };
let hover = null; // the square under the mouse (or the keyboard's focus): the card's ghost
let preview = null; // a touch tap's preview: the card waits there for a second tap or Place
let pointer = "mouse"; // the kind of the last pointer pressed on the board
let seen = null; // the game and version drawn last: a new one drops the preview
const focus = { current: null };

export function reset() { hover = null; preview = null; }

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
  if (key === "place") return t("Lay the card");
  const [prefix] = key.split("|");
  const words = prefix.split(" ");
  if (words[0] === "cote") return words[1] === "large" ? t("Large dovecote") : t("Small dovecote");
  if (words[0] === "tile") return PIGEON_WORD[words[1]] ? t("{colour} tile", { colour: PIGEON_WORD[words[1]]() }) : prefix;
  if (words[0] === "falcon") return t("Falcon");
  return prefix;
}

/** The squares a move names: a card's four, or the one square of a dovecote, tile, falcon. */
function squaresOf(move) {
  const m = move.match(COORD);
  if (!m) return [];
  const x = Number(m[2]);
  const y = Number(m[3]);
  if (m[1].trim() === "place") return [`${x},${y}`, `${x + 1},${y}`, `${x},${y + 1}`, `${x + 1},${y + 1}`];
  return [`${x},${y}`];
}

/** What is on square k, for a screen reader. */
function squareLabel(ctx, k, sq, cote, hot, bare) {
  let text;
  if (!sq) text = t("{square}: empty", { square: k });
  else if (sq[0] === "field") text = t("{square}: a {colour} wild pigeon", { square: k, colour: PIGEON_WORD[sq[1]] ? PIGEON_WORD[sq[1]]() : sq[1] });
  else if (sq[0] === "tile") text = t("{square}: a {colour} tile of {seat}", { square: k, colour: PIGEON_WORD[sq[1]] ? PIGEON_WORD[sq[1]]() : sq[1], seat: seatName(ctx, sq[2]) });
  else if (sq[0] === "falcon") text = t("{square}: a falcon of {seat}", { square: k, seat: seatName(ctx, sq[1]) });
  else text = k;
  // a tile laid on the bare table is no card: no card docks with it, no dovecote on it (CB-2, CB-6)
  if (bare) text = t("{what}, on the bare table (no card under it)", { what: text });
  if (cote) text = cote[1] === "large" ? t("{what}, a large dovecote of {seat}", { what: text, seat: seatName(ctx, cote[0]) }) : t("{what}, a small dovecote of {seat}", { what: text, seat: seatName(ctx, cote[0]) });
  return hot ? t("{what}; allowed here", { what: text }) : text;
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
  const stamp = `${ctx.state.id}:${ctx.state.version}`;
  if (seen !== stamp) {
    // a new position: a preview waits no longer; a new game forgets the mouse of the old one
    if (!seen || seen.split(":")[0] !== ctx.state.id) hover = null;
    preview = null;
    seen = stamp;
  }
  const squares = pos.squares || {};
  const cotes = pos.cotes || {};
  const bare = new Set(pos.bare || []); // tiles on squares no card was laid on (issue 36)
  const hand = pos.hand && faces ? faces[pos.hand] : null;
  const coordMoves = legal.map((m) => [m, toolOf(m)]).filter(([, tl]) => tl);
  const tools = [...new Set(coordMoves.map(([, tl]) => tl.key))];
  if (!tools.includes(sel.tool)) sel.tool = tools[0] || null;
  if (sel.tool !== "place") preview = null;
  const placeRots = new Set(coordMoves.filter(([, tl]) => tl.key === "place").map(([m]) => Number(m.split(" r")[1])));
  if (sel.tool === "place" && placeRots.size && !placeRots.has(canonRot(hand, sel.rot))) sel.rot = Math.min(...placeRots);
  const rot = canonRot(hand, sel.rot); // the turned card as the legal list spells it
  const targets = new Map();
  for (const [m, tl] of coordMoves) {
    if (tl.key !== sel.tool) continue;
    if (tl.key === "place" && !m.endsWith(` r${rot}`)) continue;
    targets.set(`${tl.x},${tl.y}`, m);
  }
  // the last turn, every action of it, and the squares that decided a finished game
  const lastList = lastMoves(ctx, turnEndingWithEnd);
  const lastSq = new Map(); // square -> step
  lastList.forEach((m, step) => squaresOf(m).forEach((k) => { if (!lastSq.has(k)) lastSq.set(k, step); }));
  const anim = takeAnimation(ctx);
  const decide = highlightSet(ctx);
  const refocus = focusedKey(root, "data-kb");
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

  // on a phone never narrower than 44 px a square while the player has squares to tap: a wide
  // territory then scrolls sideways inside the board, with arrows at its edges; otherwise (the
  // other player's turn, the end) the whole territory fits the width
  // (boards.css applies --cb-min to touch screens and narrow windows only)
  const tapping = mine && targets.size > 0;
  const s = svg("svg", {
    viewBox: `0 0 ${W} ${H}`, class: "board columba-board", role: "group",
    style: tapping ? `--cb-min:${Math.ceil((W * 44) / C)}px` : null,
    "aria-label": t("Columba territory: arrow keys move between the squares"),
  });
  s.append(svg("rect", { x: 0, y: 0, width: W, height: H, rx: 14, fill: "#7fa36b" }));
  // grass dots
  for (let y = minY; y <= maxY; y++) for (let x = minX; x <= maxX; x++) s.append(svg("circle", { cx: px(x) + C / 2, cy: py(y) + C / 2, r: 1.5, fill: "#ffffff30" }));
  const layer = svg("g", {});
  s.append(layer);
  const marks = svg("g", { class: "marks" });
  // squares
  for (const [k, sq] of Object.entries(squares)) {
    const [x, y] = k.split(",").map(Number);
    const g = svg("g", { class: "sq", "data-square": k });
    if (sq[0] === "field" || sq[0] === "tile") {
      const colour = sq[1];
      g.append(svg("rect", { x: px(x) + 1, y: py(y) + 1, width: C - 2, height: C - 2, rx: 3, fill: PIGEON[colour] || "#ccc", class: bare.has(k) ? "field bare" : "field" }));
      bird(g, px(x), py(y), C, colour);
      if (sq[0] === "tile") g.append(svg("rect", { x: px(x) + 4, y: py(y) + 4, width: C - 8, height: C - 8, rx: 4, fill: "none", stroke: PLAYER[sq[2]] || "#000", "stroke-width": Math.max(3, C / 9), class: "tile" }));
    } else if (sq[0] === "falcon") {
      const colour = sq[3];
      g.append(svg("rect", { x: px(x) + 1, y: py(y) + 1, width: C - 2, height: C - 2, rx: 3, fill: colour ? PIGEON[colour] : "#777" }));
      const cx = px(x) + C / 2;
      const cy = py(y) + C / 2;
      // the falcon: a dark diamond with a bird's spread wings (no letter: a word's initial
      // would be English), named by its title in the reader's language
      g.append(svg("path", { d: `M${cx} ${cy - C * 0.36} L${cx + C * 0.36} ${cy} L${cx} ${cy + C * 0.36} L${cx - C * 0.36} ${cy} Z`, fill: "#3b2a1d", stroke: PLAYER[sq[1]] || "#000", "stroke-width": 3, class: "falcon" },
        svg("title", {}, t("falcon, owner: {seat}", { seat: seatName(ctx, sq[1]) }))));
      g.append(svg("path", { d: `M${cx - C * 0.2} ${cy + C * 0.02} Q${cx - C * 0.1} ${cy - C * 0.12} ${cx} ${cy + C * 0.08} Q${cx + C * 0.1} ${cy - C * 0.12} ${cx + C * 0.2} ${cy + C * 0.02}`, fill: "none", stroke: "#fff", "stroke-width": Math.max(2, C * 0.06), "stroke-linecap": "round", "stroke-linejoin": "round", class: "falcon-wings", "pointer-events": "none" }));
    }
    if (anim && lastSq.has(k)) animate(g, "appear", lastSq.get(k));
    layer.append(g);
  }
  for (const [k, step] of lastSq) {
    if (!squares[k] && !cotes[k]) continue;
    const [x, y] = k.split(",").map(Number);
    marks.append(svg("rect", { x: px(x) + 2.5, y: py(y) + 2.5, width: C - 5, height: C - 5, rx: 3, class: "last-mark latest", "data-last": k, "data-step": step }));
  }
  for (const k of decide) {
    const m = /^(-?\d+),(-?\d+)$/.exec(k);
    if (!m) continue;
    const [x, y] = [Number(m[1]), Number(m[2])];
    marks.append(svg("rect", { x: px(x) + 1, y: py(y) + 1, width: C - 2, height: C - 2, rx: 4, class: "decide-mark", "data-decide": k }));
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
    const cote = svg("g", { class: "cote-g" });
    const coteWords = big ? t("large dovecote, owner: {seat}", { seat: seatName(ctx, owner) }) : t("small dovecote, owner: {seat}", { seat: seatName(ctx, owner) });
    cote.append(svg("path", { d: `M${cx - w / 2} ${base} v${-w * 0.55} l${w / 2} ${-w * 0.4} l${w / 2} ${w * 0.4} v${w * 0.55} z`, fill: PLAYER[owner], stroke: "#000c", "stroke-width": 2, class: `cote ${size}`, "data-cote": k },
      svg("title", {}, coteWords)));
    cote.append(svg("rect", { x: cx - w * 0.12, y: base - w * 0.3, width: w * 0.24, height: w * 0.3, fill: "#000a", "pointer-events": "none" }));
    // a large (arcaded) dovecote: bigger, with a row of arches above its door (no letter)
    if (big) for (const dx of [-0.25, 0, 0.25]) cote.append(svg("circle", { cx: cx + w * dx, cy: base - w * 0.45, r: w * 0.07, fill: "#fffc", class: "cote-arch", "pointer-events": "none" }));
    if (anim && lastSq.has(k)) animate(cote, "appear", lastSq.get(k));
    layer.append(cote);
  }
  layer.append(marks);
  // targets and click cells
  const ghost = svg("g", { class: "ghost", "pointer-events": "none" });
  const place = (k) => ctx.play(targets.get(k) || `place ${k} r${sel.rot}`);
  for (let y = minY; y <= maxY; y++) {
    for (let x = minX; x <= maxX; x++) {
      const k = `${x},${y}`;
      const hot = targets.has(k);
      const cell = svg("rect", {
        x: px(x), y: py(y), width: C, height: C, class: "cell" + (hot ? " hot" : ""), "data-cell": k, "data-kb": k,
        "aria-label": squareLabel(ctx, k, squares[k], cotes[k], hot, bare.has(k)),
      });
      cell.addEventListener("click", (e) => onCell(x, y, ctx, targets, e, place, redraw));
      // the ghost follows a mouse that moves over the board: pointermove, never mouseenter,
      // which also fires when the board is drawn under a mouse that sat still
      cell.addEventListener("pointermove", (e) => {
        if (e.pointerType !== "mouse" || sel.tool !== "place" || !mine) return;
        if (hover && hover[0] === x && hover[1] === y) return;
        hover = [x, y];
        drawGhost();
      });
      cell.addEventListener("focus", () => { if (sel.tool === "place" && mine && !preview) { hover = [x, y]; drawGhost(); } });
      s.append(cell);
    }
  }
  s.append(ghost);
  function drawGhost() {
    clear(ghost);
    const at = preview || hover;
    if (!at || !hand || sel.tool !== "place" || !mine) return;
    const g = rotate(hand, sel.rot);
    const ok = targets.has(`${at[0]},${at[1]}`);
    ghost.classList.toggle("preview", !!preview);
    for (let r = 0; r < 2; r++) for (let c = 0; c < 2; c++) {
      ghost.append(svg("rect", { x: px(at[0] + c) + 2, y: py(at[1] + r) + 2, width: C - 4, height: C - 4, rx: 3, fill: PIGEON[g[r][c]], opacity: 0.85 }));
    }
    ghost.append(svg("rect", { x: px(at[0]), y: py(at[1]), width: 2 * C, height: 2 * C, fill: "none", stroke: ok ? "#2ee37a" : "#ff4d4d", "stroke-width": 3, rx: 4, class: "ghost-frame", "data-ghost": `${at[0]},${at[1]}` }));
  }
  s.addEventListener("pointerdown", (e) => { pointer = e.pointerType || "mouse"; });
  s.addEventListener("mouseleave", () => { hover = null; drawGhost(); });
  drawGhost();
  // the square at the middle of the old view stays there (a redraw never jumps back left)
  const before = root.querySelector(".columba-scroll");
  const keep = before && before.dataset.game === ctx.state.id && before.scrollWidth > before.clientWidth + 1
    ? centreSquare(before) : null;
  const scroller = el("div", { class: "columba-scroll", "data-game": ctx.state.id, "data-minx": minX, "data-w": W, "data-c": C }, s);
  const goLeft = el("button", { class: "cb-pan cb-pan-left", type: "button", "data-pan": "-1", tabindex: "-1", "aria-label": t("Show the territory further left"), title: t("Show the territory further left") }, "◀");
  const goRight = el("button", { class: "cb-pan cb-pan-right", type: "button", "data-pan": "1", tabindex: "-1", "aria-label": t("Show the territory further right"), title: t("Show the territory further right") }, "▶");
  const pan = (d) => scroller.scrollBy({ left: d * scroller.clientWidth * 0.6, behavior: motionOK() ? "smooth" : "auto" });
  goLeft.addEventListener("click", () => pan(-1));
  goRight.addEventListener("click", () => pan(1));
  const frame = el("div", { class: "columba-view" }, scroller, goLeft, goRight);
  const edges = () => {
    const wide = scroller.scrollWidth > scroller.clientWidth + 1;
    frame.classList.toggle("scrolls", wide);
    goLeft.hidden = !wide || scroller.scrollLeft <= 1;
    goRight.hidden = !wide || scroller.scrollLeft + scroller.clientWidth >= scroller.scrollWidth - 1;
  };
  scroller.addEventListener("scroll", edges, { passive: true });
  clear(root).append(frame);
  if (scroller.scrollWidth > scroller.clientWidth + 1) {
    let at = keep ? keep[0] : null;
    if (at === null) {
      // first sight: the squares to tap, else the last turn, else the middle of the territory
      const spots = targets.size ? [...targets.keys()] : (lastSq.size ? [...lastSq.keys()] : []);
      const xsOf = spots.map((k) => Number(k.split(",")[0]));
      at = xsOf.length ? (Math.min(...xsOf) + Math.max(...xsOf) + 1) / 2 : (minX + maxX + 1) / 2;
    }
    const unit = scroller.scrollWidth / W;
    scroller.scrollLeft = Math.max(0, (10 + (at - minX) * C) * unit - scroller.clientWidth / 2);
  }
  edges();
  roving(s, "[data-kb]", "data-kb", focus, refocus);
  controls(ctx, pos, tools, placeRots, hand, redraw, place);
}

/** The territory's x (in squares) at the middle of a scrolled view, as [x]. */
function centreSquare(scroller) {
  const W = Number(scroller.dataset.w);
  const C = Number(scroller.dataset.c);
  const unit = scroller.scrollWidth / W;
  return [Number(scroller.dataset.minx) + ((scroller.scrollLeft + scroller.clientWidth / 2) / unit - 10) / C];
}

function onCell(x, y, ctx, targets, e, place, redraw) {
  if (!ctx.mine || !sel.tool) return;
  const k = `${x},${y}`;
  if (sel.tool === "place") {
    // on touch the first tap shows where the card would land; a tap on that preview (or the
    // Place button) lays it. A mouse sees the ghost already, a keyboard on focus: they lay it.
    const touch = (e && e.pointerType ? e.pointerType : pointer) !== "mouse" && e && e.detail !== 0;
    if (touch) {
      const within = preview && x >= preview[0] && x <= preview[0] + 1 && y >= preview[1] && y <= preview[1] + 1;
      if (within) { const at = `${preview[0]},${preview[1]}`; preview = null; place(at); return; }
      preview = [x, y];
      hover = null;
      redraw();
      return;
    }
    place(k);
    return;
  }
  const [prefix, suffix] = sel.tool.split("|");
  ctx.play(`${prefix} ${k}${suffix ? ` ${suffix}` : ""}`);
}

function miniCard(rows, rot = 0, slots = null, size = 22) {
  const s = svg("svg", { viewBox: `0 0 ${2 * size + 6} ${2 * size + 6}`, class: "mini-card", width: 2 * size + 6, height: 2 * size + 6, "aria-hidden": "true" });
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

function controls(ctx, pos, tools, placeRots, hand, redraw, place) {
  const { legal, mine } = ctx;
  const box = clear(ctx.controls);
  const scores = ctx.view.scores || [];
  const players = el("div", { class: "cb-players" });
  (pos.players || []).forEach((pl, p) => {
    const reserve = el("span", { class: "reserve" }, ...Object.entries(pl.reserve || {}).map(([c, n]) => el("span", { class: `res-chip res-${c}`, style: `--c:${PIGEON[c]}`, title: t("{colour} tiles in reserve", { colour: PIGEON_WORD[c] ? PIGEON_WORD[c]() : c }) }, String(n))));
    const chicks = (pl.chicks || []).length;
    // an objective still open costs 4 points (CB-11): the score says so from the start
    const open = pl.objective ? el("span", { class: "cb-why", "data-why": "objective", title: t("An objective not completed at the end of the game costs 4 points [CB-11].") },
      t("(−4 while the objective is open)")) : "";
    // counted words are made apart: a tn() inside t()'s arguments is not extracted (scripts/i18n.py)
    const chickWords = tn("{n} chick", "{n} chicks", chicks);
    const adultWords = tn("{n} adult", "{n} adults", pl.adults);
    players.append(el("div", { class: "cb-player" + (pos.to_move === p && !ctx.state.over ? " turn" : ""), "data-player": p },
      el("div", { class: "cb-head" }, el("span", { class: "seat-dot", style: `background:${PLAYER[p]}` }), el("strong", {}, seatName(ctx, p)),
        el("span", { class: "cb-score" }, typeof scores[p] === "number" ? tn("{n} point", "{n} points", scores[p]) : t("? points"), " ", open)),
      el("div", { class: "cb-row" },
        pl.objective ? el("span", { class: "cb-objective", role: "img", title: t("objective {card}: {n} of 4 fields filled", { card: pl.objective, n: (pl.slots || []).filter(Boolean).length }),
          "aria-label": t("objective {card}: {n} of 4 fields filled", { card: pl.objective, n: (pl.slots || []).filter(Boolean).length }) },
        miniCard(faces ? faces[pl.objective] : null, 0, pl.slots, 16)) : el("span", { class: "muted small" }, t("no objective")),
        el("div", { class: "cb-facts" },
          el("div", {}, t("reserve"), " ", reserve),
          el("div", { class: "small" }, t("dovecotes left: {small} small, {large} large", { small: pl.cotes.small, large: pl.cotes.large })),
          chicks || pl.adults ? el("div", { class: "small" }, t("falcons: {chicks}, {adults}", { chicks: chickWords, adults: adultWords })) : ""))));
  });
  box.append(el("div", { class: "cb-top" }, players,
    el("div", { class: "cb-deck" }, el("div", { class: "pile-back cb" }, el("span", {}, String(pos.cards_left ?? "?"))), el("div", { class: "muted small" }, t("cards left")))));
  if (!mine) return;
  const row = el("div", { class: "action-row" });
  if (pos.hand && placeRots.size) {
    const turn = (d) => { sel.tool = "place"; sel.rot = (sel.rot + d + 360) % 360; redraw(); };
    const l = el("button", { class: "btn small", type: "button", id: "rot-left", title: t("turn anticlockwise"), "aria-label": t("turn the card anticlockwise") }, "⟲");
    const r = el("button", { class: "btn small", type: "button", id: "rot-right", title: t("turn clockwise"), "aria-label": t("turn the card clockwise") }, "⟳");
    l.addEventListener("click", () => turn(-90));
    r.addEventListener("click", () => turn(90));
    row.append(el("span", { class: "hand" }, el("span", { class: "small muted" }, t("in hand:")), miniCard(hand, sel.rot, null, 24), l, r, el("span", { class: "small muted", id: "rot-label" }, `r${sel.rot}`)));
  }
  if (preview && sel.tool === "place") {
    const at = `${preview[0]},${preview[1]}`;
    const b = el("button", { class: "btn primary", type: "button", id: "place-btn" }, t("Place the card here ({square})", { square: at }));
    b.addEventListener("click", () => { preview = null; place(at); });
    const c = el("button", { class: "btn", type: "button", id: "place-cancel" }, t("Cancel"));
    c.addEventListener("click", () => { preview = null; redraw(); });
    row.append(el("span", { class: "place-row" }, b, c));
  }
  for (const tl of tools) {
    const b = el("button", { class: "tool-btn btn" + (sel.tool === tl ? " on" : ""), type: "button", "data-tool": tl, "aria-pressed": sel.tool === tl ? "true" : "false" }, toolLabel(tl));
    b.addEventListener("click", () => { sel.tool = tl; redraw(); });
    row.append(b);
  }
  const words = { end: () => t("End turn"), goal: () => t("Take a new objective"), nogoal: () => t("No new objective"), buy: () => t("Buy a falcon"), raise: () => t("Raise a falcon") };
  const pays = { buy: [], raise: [] };
  for (const m of legal) {
    if (COORD.test(m)) continue;
    const verb = m.split(" ")[0];
    if (verb in pays) { pays[verb].push(m); continue; }
    const b = el("button", { class: "btn" + (m === "end" ? " primary" : ""), type: "button", "data-move": m }, words[m] ? words[m]() : m);
    b.addEventListener("click", () => ctx.play(m));
    row.append(b);
  }
  // buy / raise name the tiles paid (CB-8): one button when there is one way to pay, else a
  // choice of colours
  const colourWords = (m) => (m.split(" ")[1] || "").split("").map((c) => (PIGEON_WORD[c] ? PIGEON_WORD[c]() : c));
  for (const [verb, moves] of Object.entries(pays)) {
    if (!moves.length) continue;
    const chips = (m) => (m.split(" ")[1] || "").split("").map((c) => el("span", { class: `res-chip res-${c}`, style: `--c:${PIGEON[c]}`, title: PIGEON_WORD[c] ? PIGEON_WORD[c]() : c }, c));
    const payButton = (m, label) => {
      const b = el("button", { class: "btn pay", type: "button", "data-move": m, title: t("{move}: pay {colours}", { move: m, colours: colourWords(m).join(t(" and ")) }) }, ...label, ...chips(m));
      b.addEventListener("click", () => ctx.play(m));
      return b;
    };
    if (moves.length === 1) { row.append(payButton(moves[0], [verb === "buy" ? t("Buy a falcon, paying") : t("Raise a falcon, paying"), " "])); continue; }
    row.append(el("span", { class: "pay-choice", "data-pay": verb }, el("span", { class: "small muted" }, verb === "buy" ? t("Buy a falcon, paying:") : t("Raise a falcon, paying:")), ...moves.map((m) => payButton(m, []))));
  }
  box.append(row);
  const hint = sel.tool === "place" ? (preview ? t("Tap the card again or press Place to lay it there; tap elsewhere to move it.")
    : t("Turn the card, then click where its top-left field goes (green squares)."))
    : sel.tool ? t("{tool}: click a green square.", { tool: toolLabel(sel.tool) }) : t("End the turn when you are done.");
  box.append(el("p", { class: "hint", id: "hint" }, hint));
}
