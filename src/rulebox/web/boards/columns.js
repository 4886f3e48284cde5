// Columns: 12 pins in 3 ranks of 4, each drawn from the side as a column of 5 levels.
// Light (player 0) pieces are cream with a gold rim, dark (player 1) pieces deep blue.
// A two-pin piece is joined to its other half by a bridge; a triple's thick end is one tall block.
// Moves are made by choosing a piece, then clicking its pin(s); the server's `legal` list only
// decides which pins glow.

import { el, svg, clear } from "../dom.js";
import { t } from "../i18n.js";
import { animate, focusedKey, highlightSet, lastMoves, roving, seatName, takeAnimation } from "./common.js";

const FILES = ["a", "b", "c", "d"];
const RANKS = ["1", "2", "3"];
const CW = 124; // cell width
const CH = 178; // cell height
const LV = 27; // level height
const UW = 78; // unit width
const UH = 23; // unit height
const X0 = 34;
const Y0 = 10;
const TOOLS = [
  { id: "R", label: () => t("Roundel"), kind: "R" },
  { id: "S", label: () => t("Single"), kind: "S" },
  { id: "D", label: () => t("Double"), kind: "D" },
  { id: "T^", label: () => t("Triple ▲"), kind: "T", suffix: "^", title: () => t("triple blocker, thick end up (flat bottom)") },
  { id: "Tv", label: () => t("Triple ▼"), kind: "T", suffix: "v", title: () => t("triple blocker, thick end down") },
];
const KIND_WORD = { R: () => t("roundel"), S: () => t("single blocker"), D: () => t("double blocker"), T: () => t("triple blocker") };
const COLOURS = [
  { fill: "#f6e4b4", rim: "#a8781c", text: "#5a3d05", shade: "#e2c57e" },
  { fill: "#2c4a86", rim: "#0f1f40", text: "#eef3ff", shade: "#1d3566" },
];

let sel = { tool: "R", first: null };
const focus = { current: null };

export function reset() {
  sel = { tool: sel.tool, first: null };
}

function cellXY(pin) {
  const f = FILES.indexOf(pin[0]);
  const r = RANKS.indexOf(pin[1]);
  return { x: X0 + f * CW, y: Y0 + (2 - r) * CH };
}

function unitY(pin, level) {
  // top of the unit at `level` (1..5) on `pin`
  const { y } = cellXY(pin);
  return y + CH - 34 - level * LV;
}

function parseUnit(u) {
  return { owner: Number(u[0]), kind: u[1], id: u.length > 2 ? u.slice(0, 2) + u.slice(2) : null };
}

function pinsOf(move) {
  return move.match(/[a-d][1-3]/g) || [];
}

function toolMoves(legal, tool) {
  const t = TOOLS.find((x) => x.id === tool);
  return legal.filter((m) => m[0] === t.kind && (!t.suffix || m.endsWith(t.suffix)));
}

function pieceIcon(kind, owner, suffix) {
  const c = COLOURS[owner];
  const s = svg("svg", { viewBox: "0 0 44 34", class: "tool-icon", "aria-hidden": "true" });
  const block = (x, y, w, h) => svg("rect", { x, y, width: w, height: h, rx: 2, fill: c.fill, stroke: c.rim, "stroke-width": 2 });
  if (kind === "R") s.append(svg("rect", { x: 6, y: 12, width: 32, height: 12, rx: 6, fill: c.fill, stroke: c.rim, "stroke-width": 2 }));
  else if (kind === "S") s.append(block(10, 10, 24, 14));
  else if (kind === "D") s.append(block(2, 12, 40, 11));
  else if (suffix === "^") s.append(svg("path", { d: "M3 28 h38 v-10 h-19 v-14 h-19 z", fill: c.fill, stroke: c.rim, "stroke-width": 2 }));
  else s.append(svg("path", { d: "M3 30 v-24 h19 v10 h19 v14 z", transform: "translate(0,-2)", fill: c.fill, stroke: c.rim, "stroke-width": 2 }));
  return s;
}

/** The words for pin `pin` and its stack, bottom to top (the pin's screen-reader label). */
function pinLabel(ctx, pin, stack) {
  if (!stack.length) return t("pin {pin}: empty", { pin });
  const words = [];
  stack.forEach((u, i) => {
    const { owner, kind } = parseUnit(u);
    if (kind === "T" && i > 0 && stack[i - 1] === u) return;
    words.push(t("{seat} {piece}", { seat: seatName(ctx, owner), piece: KIND_WORD[kind]() }));
  });
  const top = parseUnit(stack[stack.length - 1]);
  return t("pin {pin}: {n} of 5 levels, {seat} {piece} on top; from the bottom: {units}", {
    pin, n: stack.length, seat: seatName(ctx, top.owner), piece: KIND_WORD[top.kind](), units: words.join(", "),
  });
}

export function draw(root, ctx) {
  const { view, legal, mine } = ctx;
  const pos = view.position;
  const pins = pos.pins;
  const toMove = view.to_move;
  if (mine && !toolMoves(legal, sel.tool).length) {
    const tl = TOOLS.find((x) => toolMoves(legal, x.id).length);
    if (tl) sel.tool = tl.id;
  }
  const moves = mine ? toolMoves(legal, sel.tool) : [];
  const tool = TOOLS.find((x) => x.id === sel.tool);
  // pins that glow: first clicks, or completions of the chosen first pin
  const hot = new Set();
  if (mine) {
    for (const m of moves) {
      const ps = pinsOf(m);
      if (sel.first === null) {
        if (tool.kind === "D") ps.forEach((p) => hot.add(p));
        else hot.add(ps[0]);
      } else if (tool.kind === "D" && ps.includes(sel.first)) hot.add(ps.find((p) => p !== sel.first));
      else if (tool.kind === "T" && ps[0] === sel.first) hot.add(ps[1]);
    }
  }
  // the last turn (one placement in Columns) and the pins that decided a finished game
  const lastList = lastMoves(ctx);
  const lastPins = new Map(); // pin -> step of the turn
  lastList.forEach((m, step) => pinsOf(m).forEach((p) => lastPins.set(p, step)));
  const anim = takeAnimation(ctx);
  const decide = highlightSet(ctx);
  const refocus = focusedKey(root, "data-pin");

  const W = X0 + 4 * CW + 6;
  const H = Y0 + 3 * CH + 8;
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "board columns-board", role: "group", "aria-label": t("Columns board: 12 pins, arrow keys move between them") });
  const defs = svg("defs", {},
    svg("linearGradient", { id: "col-wood", x1: 0, y1: 0, x2: 1, y2: 1 },
      svg("stop", { offset: "0", "stop-color": "#c9955a" }), svg("stop", { offset: "1", "stop-color": "#9c6a35" })),
    svg("linearGradient", { id: "col-rod", x1: 0, x2: 1 },
      svg("stop", { offset: "0", "stop-color": "#7a7a7a" }), svg("stop", { offset: ".5", "stop-color": "#e8e8e8" }), svg("stop", { offset: "1", "stop-color": "#7a7a7a" })),
    svg("pattern", { id: "col-hatch0", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      svg("rect", { width: 6, height: 6, fill: COLOURS[0].fill }), svg("rect", { width: 2.2, height: 6, fill: COLOURS[0].shade })),
    svg("pattern", { id: "col-hatch1", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      svg("rect", { width: 6, height: 6, fill: COLOURS[1].fill }), svg("rect", { width: 2.2, height: 6, fill: COLOURS[1].shade })));
  s.append(defs);
  s.append(svg("rect", { x: X0 - 8, y: Y0 - 4, width: 4 * CW + 10, height: 3 * CH + 6, rx: 14, fill: "url(#col-wood)", stroke: "#6b4420", "stroke-width": 3 }));
  // level numbers
  for (let r = 0; r < 3; r++) {
    for (let lv = 1; lv <= 5; lv++) {
      const y = unitY("a" + RANKS[r], lv) + UH / 2 + 4;
      s.append(svg("text", { x: X0 - 20, y, class: "lvl" + (lv === 5 ? " top" : ""), "aria-hidden": "true" }, String(lv)));
    }
  }
  // cells, rods and units
  const pieces = {}; // piece id -> [{pin, level}]
  const marks = svg("g", { class: "marks" });
  for (const f of FILES) {
    for (const r of RANKS) {
      const pin = f + r;
      const { x, y } = cellXY(pin);
      const cx = x + CW / 2;
      const stack = pins[pin] || [];
      const g = svg("g", {
        class: "pin" + (hot.has(pin) ? " hot" : "") + (sel.first === pin ? " chosen" : "") + (lastPins.has(pin) ? " last" : "") + (decide.has(pin) ? " decide" : ""),
        "data-pin": pin, "data-kb": pin, "aria-label": pinLabel(ctx, pin, stack),
      });
      g.append(svg("rect", { x: x + 4, y: y + 4, width: CW - 8, height: CH - 8, rx: 10, class: "cell" }));
      g.append(svg("rect", { x: cx - 4, y: unitY(pin, 5) - 6, width: 8, height: 5 * LV + 12, rx: 3, fill: "url(#col-rod)" }));
      g.append(svg("ellipse", { cx, cy: unitY(pin, 0) + 4, rx: UW / 2 + 4, ry: 6, class: "base" }));
      g.append(svg("text", { x: cx, y: y + CH - 10, class: "pin-name" }, pin));
      stack.forEach((u, i) => {
        const { owner, kind, id } = parseUnit(u);
        const level = i + 1;
        if (id) (pieces[id] ||= []).push({ pin, level, owner, kind });
        if (kind === "T" && i > 0 && stack[i - 1] === u) return; // the thick end is drawn once
        const tall = kind === "T" && stack[i + 1] === u;
        const c = COLOURS[owner];
        const top = unitY(pin, tall ? level + 1 : level);
        const h = tall ? UH + LV : UH;
        const ux = cx - UW / 2;
        // its letter is the notation's (R S D T); the words are its title, in the reader's language
        const unit = svg("g", { class: "unit-g" }, svg("title", {}, t("{seat} {piece}", { seat: seatName(ctx, owner), piece: KIND_WORD[kind]() })));
        if (kind === "R") {
          unit.append(svg("rect", { x: ux + 4, y: top, width: UW - 8, height: h, rx: UH / 2, fill: c.fill, stroke: c.rim, "stroke-width": 2.5, class: `unit roundel p${owner}` }));
          unit.append(svg("ellipse", { cx, cy: top + h / 2, rx: UW / 2 - 16, ry: 4, fill: "none", stroke: c.rim, "stroke-opacity": 0.35, "stroke-width": 1.5 }));
        } else {
          unit.append(svg("rect", { x: ux, y: top, width: UW, height: h, rx: 3, fill: `url(#col-hatch${owner})`, stroke: c.rim, "stroke-width": 2.5, class: `unit blocker p${owner}` }));
          unit.append(svg("text", { x: cx, y: top + h / 2 + 5, class: "unit-label", fill: c.text }, kind));
        }
        if (level === 5 && kind === "R") unit.append(svg("text", { x: cx + UW / 2 - 2, y: top - 2, class: "star" }, "★", svg("title", {}, t("a roundel on level 5: it counts at the end"))));
        const isTop = i === stack.length - 1 || (tall && i === stack.length - 2);
        if (isTop && lastPins.has(pin)) {
          // the unit just placed: a gold rim, and it drops in when someone else placed it
          marks.append(svg("rect", { x: ux - 4, y: top - 4, width: UW + 8, height: h + 8, rx: 6, class: "last-mark", "data-last": pin }));
          if (anim) animate(unit, "drop", lastPins.get(pin));
        }
        if (isTop && decide.has(pin)) marks.append(svg("rect", { x: ux - 7, y: top - 7, width: UW + 14, height: h + 14, rx: 8, class: "decide-mark", "data-decide": pin }));
        g.append(unit);
      });
      if (decide.has(pin) && !stack.length) marks.append(svg("rect", { x: x + 6, y: y + 6, width: CW - 12, height: CH - 12, rx: 10, class: "decide-mark", "data-decide": pin }));
      g.append(svg("rect", { x: x + 4, y: y + 4, width: CW - 8, height: CH - 8, rx: 10, class: "focus-ring" }));
      g.addEventListener("click", () => onPin(pin, ctx));
      s.append(g);
    }
  }
  // bridges between the halves of two-pin pieces (drawn above the cells)
  for (const units of Object.values(pieces)) {
    const pinsHere = [...new Set(units.map((u) => u.pin))];
    if (pinsHere.length !== 2) continue;
    const [a, b] = pinsHere;
    const ua = units.filter((u) => u.pin === a);
    const ub = units.filter((u) => u.pin === b);
    // join the halves at the level of the thin end (the pin with fewer units of the piece)
    const thin = ua.length <= ub.length ? ua : ub;
    const la = Math.min(...thin.map((u) => u.level));
    const lb = la;
    const c = COLOURS[units[0].owner];
    const A = cellXY(a);
    const B = cellXY(b);
    const ya = unitY(a, la) + UH / 2;
    const yb = unitY(b, lb) + UH / 2;
    const bridge = svg("g", { class: "bridge-g" });
    if (A.y === B.y) {
      const [left, right] = A.x < B.x ? [[A, ya], [B, yb]] : [[B, yb], [A, ya]];
      bridge.append(svg("path", { d: `M${left[0].x + CW / 2 + UW / 2} ${left[1]} L${right[0].x + CW / 2 - UW / 2} ${right[1]}`, stroke: c.rim, "stroke-width": 9, "stroke-linecap": "round", class: "bridge" }));
      bridge.append(svg("path", { d: `M${left[0].x + CW / 2 + UW / 2} ${left[1]} L${right[0].x + CW / 2 - UW / 2} ${right[1]}`, stroke: c.fill, "stroke-width": 4, "stroke-linecap": "round", class: "bridge" }));
    } else {
      const side = A.x + CW / 2 + UW / 2 + 11;
      const d = `M${side - 11} ${ya} H${side} V${yb} H${side - 11}`;
      bridge.append(svg("path", { d, stroke: c.rim, "stroke-width": 7, fill: "none", "stroke-linejoin": "round", class: "bridge" }));
      bridge.append(svg("path", { d, stroke: c.fill, "stroke-width": 3, fill: "none", "stroke-linejoin": "round", class: "bridge" }));
    }
    const topA = (pins[a] || []).length === Math.max(...ua.map((u) => u.level));
    const topB = (pins[b] || []).length === Math.max(...ub.map((u) => u.level));
    if (anim && lastPins.has(a) && lastPins.has(b) && topA && topB) animate(bridge, "drop", lastPins.get(a));
    s.append(bridge);
  }
  s.append(marks);
  clear(root).append(s);
  roving(s, "[data-kb]", "data-pin", focus, refocus);
  drawControls(ctx, toMove);
}

function drawControls(ctx, toMove) {
  const { view, legal, mine } = ctx;
  const c = clear(ctx.controls);
  const left = view.left || [];
  const stock = el("div", { class: "stocks" });
  left.forEach((l, p) => {
    stock.append(el("div", { class: `stock${toMove === p ? " turn" : ""}`, "data-player": p },
      el("span", { class: `seat-dot seat-${p}` }),
      el("span", {}, `${seatName(ctx, p)}:`),
      ...["R", "S", "D", "T"].map((k) => el("span", { class: "stock-item", title: t("{piece}: {n} left", { piece: KIND_WORD[k](), n: l[k] }) }, pieceIcon(k, p, "^"), `×${l[k]}`))));
  });
  c.append(stock);
  if (!mine) return;
  const tools = el("div", { class: "tools", role: "toolbar", "aria-label": t("choose a piece") });
  for (const tl of TOOLS) {
    const n = toolMoves(legal, tl.id).length;
    // a piece with no place to go cannot be chosen (its button says why)
    const none = !n;
    const b = el("button", {
      type: "button", class: "tool" + (sel.tool === tl.id ? " on" : "") + (none ? " no-place" : ""), "data-tool": tl.id,
      title: tl.title ? tl.title() : tl.label(), disabled: none ? "" : null, "aria-pressed": sel.tool === tl.id ? "true" : "false",
    }, pieceIcon(tl.kind, toMove, tl.suffix), el("span", {}, tl.label()),
    el("small", {}, (left[toMove] || {})[tl.kind] ? (n ? "" : t("no place")) : t("none left")));
    b.addEventListener("click", () => { if (b.disabled) return; sel = { tool: tl.id, first: null }; redraw(ctx); });
    tools.append(b);
  }
  c.append(tools);
  const kind = TOOLS.find((x) => x.id === sel.tool).kind;
  const hint = sel.first ? (kind === "D" ? t("Double from {pin}: click the other pin.", { pin: sel.first }) : t("Triple, thick end on {pin}: click the pin for its thin end.", { pin: sel.first }))
    : (kind === "D" ? t("Click the first pin of the double.") : kind === "T" ? t("Click the pin for the triple's thick end.")
      : kind === "R" ? t("Click a glowing pin to place a roundel.") : t("Click a glowing pin to place a single blocker."));
  c.append(el("p", { class: "hint", id: "hint" }, hint));
}

function redraw(ctx) {
  draw(document.getElementById("board"), ctx);
}

/** Why no move of the chosen piece starts on `pin` (the legal list has none). */
function firstPinReason(ctx, pin, tool) {
  const stack = (ctx.view.position.pins || {})[pin] || [];
  if (stack.length >= 5) return t("Pin {pin} is full: no unit may go above level 5 [COL-3].", { pin });
  if (tool.kind === "D") return t("No double blocker fits on {pin}: it needs an adjacent pin of the same height, and its two ends may not rest on one piece [COL-6].", { pin });
  if (tool.suffix === "^") return t("No triple blocker with its thick end up fits with its thick end on {pin}: the adjacent pin must be as high, and the two supports of different pieces [COL-7].", { pin });
  return t("No triple blocker with its thick end down fits with its thick end on {pin}: the adjacent pin must be one level higher, and the two supports of different pieces [COL-7].", { pin });
}

function onPin(pin, ctx) {
  if (!ctx.mine) return;
  const tool = TOOLS.find((x) => x.id === sel.tool);
  if (tool.kind === "R" || tool.kind === "S") {
    ctx.play(tool.kind + pin);
    return;
  }
  if (sel.first === null) {
    // the first pin is checked against the legal list at once
    const moves = toolMoves(ctx.legal, sel.tool);
    const starts = tool.kind === "D" ? moves.some((m) => pinsOf(m).includes(pin)) : moves.some((m) => pinsOf(m)[0] === pin);
    if (!starts) { ctx.toast(firstPinReason(ctx, pin, tool)); return; }
    sel.first = pin;
    redraw(ctx);
    return;
  }
  if (sel.first === pin) { sel.first = null; redraw(ctx); return; }
  const first = sel.first;
  sel.first = null;
  if (tool.kind === "D") ctx.play("D" + [first, pin].sort().join(""));
  else ctx.play("T" + first + pin + tool.suffix);
}
