// Count Red: a 4 × 4 board, row 4 at the top. Red and black pieces carry their number; a stack
// shows its top piece raised over its bottom one, with a badge naming the player who formed it.
// A move: click a field to lift its top piece, then the field to set it on.

import { el, svg, clear } from "../dom.js";
import { t } from "../i18n.js";
import { animate, focusedKey, highlightSet, lastMoves, roving, seatName, takeAnimation } from "./common.js";

const COLS = ["A", "B", "C", "D"];
const CELL = 120;
const X0 = 30;
const Y0 = 12;
const VALUE = { 1: 3, 2: 2, 3: 1, 4: 0 };

let from = null;
let explained = null; // a move just refused: the next drawing explains it
let drawGen = 0;
const focus = { current: null };

export function reset() { from = null; }

function fieldXY(name) {
  const c = COLS.indexOf(name[0]);
  const r = Number(name[1]);
  return { x: X0 + c * CELL, y: Y0 + (4 - r) * CELL };
}

function piece(g, cx, cy, code, r, extra = {}, label = [0, 7]) {
  const red = code[0] === "r";
  const outer = g;
  g = svg("g", { class: "piece-g" });
  outer.append(g);
  g.append(svg("circle", { cx: cx + 2, cy: cy + 3, r, fill: "#0005" }));
  g.append(svg("circle", { cx, cy, r, fill: red ? "url(#cr-red)" : "url(#cr-black)", stroke: red ? "#7d0f0f" : "#000", "stroke-width": 2.5, class: `piece ${red ? "red" : "black"}`, ...extra }));
  g.append(svg("circle", { cx, cy, r: r - 7, fill: "none", stroke: "#ffffff40", "stroke-width": 1.5 }));
  g.append(svg("text", { x: cx + label[0], y: cy + label[1], class: "num" }, code.slice(1)));
  return g;
}

function pieceWords(code) {
  return code[0] === "r" ? t("a red {n}", { n: code.slice(1) }) : t("a black {n}", { n: code.slice(1) });
}

/** The field's label for a screen reader: "C3: a red 2 on a black 1, locked". */
function fieldLabel(name, stack, locked, former, ctx) {
  let text;
  if (!stack.length) text = t("{field}: empty", { field: name });
  else if (stack.length === 1) text = t("{field}: {piece}", { field: name, piece: pieceWords(stack[0]) });
  else text = t("{field}: {top} on {bottom}", { field: name, top: pieceWords(stack[1]), bottom: pieceWords(stack[0]) });
  if (former !== null && former !== undefined) text = t("{field}, formed by {seat}", { field: text, seat: seatName(ctx, former) });
  return locked ? t("{field}, locked", { field: text }) : text;
}

export function draw(root, ctx) {
  const { view, legal, mine } = ctx;
  const pos = view.position;
  const fields = pos.fields;
  const locked = new Set(pos.locked || []);
  const sources = new Set(legal.filter((m) => m.includes("-")).map((m) => m.split("-")[0]));
  const targets = new Set(from ? legal.filter((m) => m.startsWith(from + "-")).map((m) => m.split("-")[1]) : []);
  // the last turn: one move, or two with a bonus move (CR-10)
  const steps = lastMoves(ctx).filter((m) => m.includes("-")).map((m) => m.split("-"));
  const lastTo = new Map(steps.map(([a, b], i) => [b, { from: a, step: i }]));
  const lastFrom = new Set(steps.map(([a]) => a));
  const anim = takeAnimation(ctx);
  const decide = highlightSet(ctx);
  const refocus = focusedKey(root, "data-field");

  const W = X0 + 4 * CELL + 10;
  const H = Y0 + 4 * CELL + 34;
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "board countred-board", role: "group", "aria-label": t("Count Red board: 16 fields, arrow keys move between them") },
    svg("defs", {},
      svg("radialGradient", { id: "cr-red", cx: ".35", cy: ".3", r: ".8" }, svg("stop", { offset: "0", "stop-color": "#ff6b5b" }), svg("stop", { offset: "1", "stop-color": "#b3140f" })),
      svg("radialGradient", { id: "cr-black", cx: ".35", cy: ".3", r: ".8" }, svg("stop", { offset: "0", "stop-color": "#6b6b6b" }), svg("stop", { offset: "1", "stop-color": "#111" }))));
  s.append(svg("rect", { x: X0 - 8, y: Y0 - 8, width: 4 * CELL + 16, height: 4 * CELL + 16, rx: 12, fill: "#5b3a1e" }));
  const marks = svg("g", { class: "marks" });
  for (let r = 4; r >= 1; r--) {
    s.append(svg("text", { x: X0 - 18, y: fieldXY("A" + r).y + CELL / 2 + 6, class: "coord", "aria-hidden": "true" }, String(r)));
    for (const c of COLS) {
      const name = c + r;
      const { x, y } = fieldXY(name);
      const light = (COLS.indexOf(c) + r) % 2 === 0;
      const stack = fields[name] || [];
      const g = svg("g", {
        class: "field" + (sources.has(name) && !from ? " hot" : "") + (targets.has(name) ? " target" : "") + (from === name ? " chosen" : "") + (lastTo.has(name) || lastFrom.has(name) ? " last" : "") + (decide.has(name) ? " decide" : ""),
        "data-field": name, "data-kb": name, "aria-label": fieldLabel(name, stack, locked.has(name), stack.length === 2 ? (pos.formed_by || {})[name] : null, ctx),
      });
      g.append(svg("rect", { x, y, width: CELL, height: CELL, fill: light ? "#e9d3a8" : "#c9a46b", class: "sq" }));
      g.append(svg("text", { x: x + 8, y: y + 18, class: "value" }, String(VALUE[r]), svg("title", {}, t("{field} is worth {value}", { field: name, value: VALUE[r] }))));
      if (locked.has(name)) {
        g.append(svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, fill: "none", stroke: "#2d5da8", "stroke-width": 4, "stroke-dasharray": "10 6", class: "lock" }));
        g.append(svg("path", { d: `M${x + CELL - 22} ${y + 17} v-5 a6 6 0 0 1 12 0 v5`, fill: "none", stroke: "#2d5da8", "stroke-width": 2.5 }));
        g.append(svg("rect", { x: x + CELL - 25, y: y + 16, width: 18, height: 13, rx: 2, fill: "#2d5da8", class: "lock-icon" }));
      }
      const cx = x + CELL / 2;
      const cy = y + CELL / 2;
      let top = null;
      let topXY = null;
      if (stack.length === 1) { top = piece(g, cx, cy + 4, stack[0], 34); topXY = [cx, cy + 4]; }
      else if (stack.length === 2) {
        piece(g, cx - 14, cy + 16, stack[0], 29, {}, [-12, 21]);
        top = piece(g, cx + 12, cy - 10, stack[1], 29);
        topXY = [cx + 12, cy - 10];
        const former = (pos.formed_by || {})[name];
        if (former !== undefined && former !== null) {
          // who formed the stack: the seat's place in the order (1 = first, 2 = second)
          g.append(svg("circle", { cx: x + CELL - 16, cy: y + CELL - 16, r: 11, class: `badge seat-fill-${former}` },
            svg("title", {}, t("stack formed by {seat}", { seat: seatName(ctx, former) }))));
          g.append(svg("text", { x: x + CELL - 16, y: y + CELL - 11.5, class: "badge-text", "aria-hidden": "true" }, String(former + 1)));
        }
      }
      if (lastFrom.has(name) && !lastTo.has(name)) marks.append(svg("rect", { x: x + 6, y: y + 6, width: CELL - 12, height: CELL - 12, rx: 10, class: "last-from", "data-last": name }));
      if (lastTo.has(name) && topXY) {
        // the piece that moved: a gold ring, and it slides over from where it was lifted
        marks.append(svg("circle", { cx: topXY[0], cy: topXY[1], r: stack.length === 1 ? 39 : 34, class: "last-mark", "data-last": name }));
        if (anim) {
          const src = fieldXY(lastTo.get(name).from);
          animate(top, "move", lastTo.get(name).step, { dx: src.x + CELL / 2 - topXY[0], dy: src.y + CELL / 2 - topXY[1] });
        }
      }
      if (decide.has(name)) marks.append(svg("rect", { x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 8, class: "decide-mark", "data-decide": name }));
      g.append(svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 6, class: "focus-ring" }));
      g.addEventListener("click", () => onField(name, ctx));
      s.append(g);
    }
  }
  s.append(marks);
  COLS.forEach((c, i) => s.append(svg("text", { x: X0 + i * CELL + CELL / 2, y: Y0 + 4 * CELL + 26, class: "coord", "aria-hidden": "true" }, c)));
  clear(root).append(s);
  roving(s, "[data-kb]", "data-field", focus, refocus);

  const box = clear(ctx.controls);
  const opts = ctx.state.options || {};
  const info = el("div", { class: "stocks" });
  ctx.state.seats.forEach((seat, p) => {
    const even = opts.even === undefined ? null : String(p) === String(opts.even);
    const text = even === null ? seatName(ctx, p) : even ? t("{seat}: moves on even counts", { seat: seatName(ctx, p) }) : t("{seat}: moves on odd counts", { seat: seatName(ctx, p) });
    info.append(el("div", { class: `stock${view.to_move === p ? " turn" : ""}` }, el("span", { class: `seat-dot seat-${p}` }), text));
  });
  box.append(info, el("p", { class: "muted small" }, t("Moves without a new three: {n} of 50", { n: pos.fifty ?? 0 })));
  const why = el("pre", { class: "explain", id: "explain", hidden: "" });
  if (from || explained) {
    const ask = from || explained;
    const gen = ++drawGen;
    ctx.explain(ask).then((text) => { if (text && gen === drawGen) { why.textContent = text; why.hidden = false; } });
  }
  if (mine) {
    box.append(el("p", { class: "hint", id: "hint" }, from ? t("Lift from {field}: click the field to set it on (click {field} again to cancel). How the counts come out:", { field: from }) : t("Click a glowing field to lift its top piece.")));
    if (legal.includes("claim")) {
      const b = el("button", { class: "btn", type: "button", "data-move": "claim" }, t("Claim a draw (repetition)"));
      b.addEventListener("click", () => ctx.play("claim"));
      box.append(b);
    }
  }
  box.append(why);
  explained = null;
}

function onField(name, ctx) {
  if (!ctx.mine) return;
  if (from === null) {
    from = name;
    draw(document.getElementById("board"), ctx);
    return;
  }
  if (from === name) { from = null; draw(document.getElementById("board"), ctx); return; }
  const src = from;
  from = null;
  const move = `${src}-${name}`;
  if (!ctx.legal.includes(move)) explained = move;
  ctx.play(move);
}
