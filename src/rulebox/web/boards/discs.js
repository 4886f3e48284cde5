// Discs: nine coloured discs in a 3 × 3 grid (rank 3 north), five holes each, grooves (lines)
// joining facing holes of neighbouring discs. Silver and black pins; a reversed (locking) pin
// wears a ring; a barrier is a bar across its line. A turn is done by clicking: a pin then its
// target hole, or a disc's turn arrows; then locks and barriers; then "End turn".

import { el, svg, clear } from "../dom.js";

const FILES = ["a", "b", "c"];
const KINDS = ["c", "ne", "nw", "se", "sw"];
const OFFSET = { c: [0, 0], ne: [1, 1], nw: [-1, 1], se: [1, -1], sw: [-1, -1] };
const U = 46; // pixels per unit; discs are 4 units apart
const M = 40; // margin
const DISC_R = 86;
const COLOUR = { R: "#d9463b", G: "#3a9d5d", B: "#3c6fc4", "?": "#9b9486" };
const COLOUR_NAME = { R: "red", G: "green", B: "blue" };
const ARRANGE = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"];

let sel = null;
let arrangement = null;

export function reset() { sel = null; }

function discXY(d) {
  const f = FILES.indexOf(d[0]);
  const r = Number(d[1]);
  return [M + 2 * U + f * 4 * U, M + 2 * U + (3 - r) * 4 * U];
}

function holeXY(h) {
  const [d, k] = h.split(".");
  const [x, y] = discXY(d);
  return [x + OFFSET[k][0] * U, y - OFFSET[k][1] * U];
}

function allLines() {
  const out = [];
  const discs = ARRANGE;
  for (const d1 of discs) {
    for (const d2 of discs) {
      const dx = FILES.indexOf(d2[0]) - FILES.indexOf(d1[0]);
      const dy = Number(d2[1]) - Number(d1[1]);
      if (Math.max(Math.abs(dx), Math.abs(dy)) !== 1) continue;
      for (const k1 of KINDS.slice(1)) {
        for (const k2 of KINDS.slice(1)) {
          const sx = 4 * dx + OFFSET[k2][0] - OFFSET[k1][0];
          const sy = 4 * dy + OFFSET[k2][1] - OFFSET[k1][1];
          if (sx === 2 * dx && sy === 2 * dy) {
            const a = `${d1}.${k1}`;
            const b = `${d2}.${k2}`;
            if (a < b) out.push(`${a}-${b}`);
          }
        }
      }
    }
  }
  return out;
}
const LINES = allLines();

function pinColours(pos) {
  // silver: the player index with silver pins (null before the choice)
  if (pos.silver === null || pos.silver === undefined) return ["#d8d2c4", "#3a3a3a"];
  return pos.silver === 0 ? ["silver", "black"] : ["black", "silver"];
}

export function draw(root, ctx) {
  const { view, legal, mine } = ctx;
  const pos = view.position;
  const phase = pos.phase;
  const colours = pinColours(pos);
  const owner = {};
  (pos.pins || [[], []]).forEach((list, p) => list.forEach((h) => { owner[h] = p; }));
  const discColour = {};
  const letters = phase === "arrange" && mine ? (arrangement ||= "RGBGBRBRG".split("")) : pos.discs.split("");
  ARRANGE.forEach((d, i) => { discColour[d] = letters[i] || "?"; });
  const steps = legal.filter((m) => /^[a-c][1-3]\.\w+-[a-c][1-3]\.\w+$/.test(m));
  const sources = new Set(steps.map((m) => m.split("-")[0]));
  const targets = new Set(sel ? steps.filter((m) => m.startsWith(sel + "-")).map((m) => m.split("-")[1]) : []);
  const locks = new Set(legal.filter((m) => m.startsWith("lock ")).map((m) => m.slice(5)));
  const bars = new Set(legal.filter((m) => m.startsWith("bar ")).map((m) => m.slice(4)));
  const turns = new Set(legal.filter((m) => /^[a-c][1-3][+-]$/.test(m)));
  // the last main action, to be seen at a glance
  const hist = ctx.replay ? [] : (ctx.state.history || []);
  const lastMain = [...hist].reverse().find((m) => /^[a-c][1-3](\.\w+-[a-c][1-3]\.\w+|[+-])$/.test(m)) || "";
  const lastHoles = new Set(lastMain.includes(".") ? lastMain.split("-") : []);
  const lastDisc = /^[a-c][1-3][+-]$/.test(lastMain) ? lastMain.slice(0, 2) : null;

  const W = 2 * M + 12 * U;
  const s = svg("svg", { viewBox: `0 0 ${W} ${W}`, class: "board discs-board", role: "img", "aria-label": "Discs board" },
    svg("defs", {},
      svg("radialGradient", { id: "pin-silver", cx: ".35", cy: ".3", r: ".75" }, svg("stop", { offset: "0", "stop-color": "#ffffff" }), svg("stop", { offset: "1", "stop-color": "#8d96a3" })),
      svg("radialGradient", { id: "pin-black", cx: ".35", cy: ".3", r: ".75" }, svg("stop", { offset: "0", "stop-color": "#6a6a6a" }), svg("stop", { offset: "1", "stop-color": "#0b0b0b" }))));
  s.append(svg("rect", { x: 6, y: 6, width: W - 12, height: W - 12, rx: 26, fill: "#2f2a24" }));
  // discs
  for (const d of ARRANGE) {
    const [x, y] = discXY(d);
    const g = svg("g", { class: "disc" + (phase === "arrange" && mine ? " hot" : "") + (lastDisc === d ? " last" : ""), "data-disc": d });
    g.append(svg("circle", { cx: x + 3, cy: y + 5, r: DISC_R, fill: "#0006" }));
    g.append(svg("circle", { cx: x, cy: y, r: DISC_R, fill: COLOUR[discColour[d]], stroke: "#0008", "stroke-width": 3, class: "disc-face" }));
    g.append(svg("circle", { cx: x, cy: y, r: DISC_R - 10, fill: "none", stroke: "#ffffff30", "stroke-width": 2 }));
    for (const k of KINDS) {
      const [hx, hy] = holeXY(`${d}.${k}`);
      g.append(svg("circle", { cx: hx, cy: hy, r: 13, fill: "#00000070", stroke: "#ffffff40" }));
    }
    g.append(svg("text", { x, y: y + DISC_R - 14, class: "disc-name" }, d));
    const home = (pos.home || [[], []]).findIndex((list) => list.includes(d));
    if (home >= 0) g.append(svg("text", { x, y: y - DISC_R + 24, class: "disc-name home" }, "home"));
    if (phase === "arrange" && mine) g.addEventListener("click", () => {
      const i = ARRANGE.indexOf(d);
      arrangement[i] = { R: "G", G: "B", B: "R" }[arrangement[i]] || "R";
      draw(root, ctx);
    });
    s.append(g);
  }
  // lines (grooves), then barriers
  for (const line of LINES) {
    const [a, b] = line.split("-");
    const [x1, y1] = holeXY(a);
    const [x2, y2] = holeXY(b);
    const g = svg("g", { class: "line" + (bars.has(line) ? " hot" : ""), "data-line": line });
    g.append(svg("line", { x1, y1, x2, y2, class: "groove" }));
    const len = Math.hypot(x2 - x1, y2 - y1);
    const nx = (-(y2 - y1) / len) * 11;
    const ny = ((x2 - x1) / len) * 11;
    g.append(svg("path", { d: `M${x1 + nx} ${y1 + ny} L${x2 + nx} ${y2 + ny} L${x2 - nx} ${y2 - ny} L${x1 - nx} ${y1 - ny} Z`, class: "hit" }));
    if (bars.has(line)) g.addEventListener("click", () => ctx.play(`bar ${line}`));
    s.append(g);
  }
  (pos.barriers || []).forEach((line, p) => {
    if (!line) return;
    const [a, b] = line.split("-");
    const [x1, y1] = holeXY(a);
    const [x2, y2] = holeXY(b);
    const mx = (x1 + x2) / 2;
    const my = (y1 + y2) / 2;
    const len = Math.hypot(x2 - x1, y2 - y1);
    const nx = (-(y2 - y1) / len) * 24;
    const ny = ((x2 - x1) / len) * 24;
    s.append(svg("line", { x1: mx - nx, y1: my - ny, x2: mx + nx, y2: my + ny, class: `barrier barrier-${p}`, "data-barrier": p }));
  });
  // holes as click targets, pins
  for (const d of ARRANGE) {
    for (const k of KINDS) {
      const h = `${d}.${k}`;
      const [hx, hy] = holeXY(h);
      const p = owner[h];
      const g = svg("g", { class: "hole" + (lastHoles.has(h) ? " last" : "") + (sources.has(h) && !sel ? " hot" : "") + (targets.has(h) ? " target" : "") + (sel === h ? " chosen" : "") + (locks.has(h) ? " lockable" : ""), "data-hole": h });
      g.append(svg("circle", { cx: hx, cy: hy, r: 19, class: "ring" }));
      if (p !== undefined) {
        const c = colours[p] === "silver" ? "url(#pin-silver)" : colours[p] === "black" ? "url(#pin-black)" : colours[p];
        g.append(svg("circle", { cx: hx + 2, cy: hy + 3, r: 14, fill: "#0007" }));
        g.append(svg("circle", { cx: hx, cy: hy, r: 14, fill: c, stroke: "#000a", "stroke-width": 1.5, class: `pin pin-${p}` }));
        if ((pos.locks || [])[p] === h) {
          g.append(svg("circle", { cx: hx, cy: hy, r: 7, fill: "none", stroke: "#ffcc33", "stroke-width": 3.5, class: "lock-mark" }));
        }
      }
      g.addEventListener("click", () => onHole(h, ctx, { sources, locks, p }));
      s.append(g);
    }
  }
  // turn arrows
  for (const t of turns) {
    const d = t.slice(0, 2);
    const [x, y] = discXY(d);
    const cw = t.endsWith("+");
    const ax = x + (cw ? 1 : -1) * (DISC_R - 22);
    const ay = y - DISC_R + 22;
    const g = svg("g", { class: "turn-arrow", "data-move": t, role: "button", "aria-label": `turn ${d} ${cw ? "clockwise" : "anticlockwise"}` });
    g.append(svg("circle", { cx: ax, cy: ay, r: 17, class: "arrow-bg" }));
    g.append(svg("text", { x: ax, y: ay + 7, class: "arrow" }, cw ? "↻" : "↺"));
    g.addEventListener("click", () => ctx.play(t));
    s.append(g);
  }
  clear(root).append(s);
  controls(ctx, pos, colours);
}

function onHole(h, ctx, { sources, locks, p }) {
  if (!ctx.mine) return;
  if (sel) {
    if (sel === h) { sel = null; draw(document.getElementById("board"), ctx); return; }
    if (sources.has(h) && !ctx.legal.includes(`${sel}-${h}`)) { sel = h; draw(document.getElementById("board"), ctx); return; }
    const src = sel;
    sel = null;
    ctx.play(`${src}-${h}`);
    return;
  }
  if (sources.has(h)) { sel = h; draw(document.getElementById("board"), ctx); return; }
  if (locks.has(h)) { ctx.play(`lock ${h}`); return; }
  if (p !== undefined && p === ctx.seat) {
    // not highlighted: let the server say why
    if (ctx.legal.some((m) => m.startsWith("lock "))) ctx.play(`lock ${h}`);
    else { sel = h; draw(document.getElementById("board"), ctx); }
  }
}

function controls(ctx, pos, colours) {
  const { legal, mine } = ctx;
  const box = clear(ctx.controls);
  const info = el("div", { class: "stocks" });
  ctx.state.seats.forEach((seat, p) => {
    const tokens = (pos.tokens || [])[p] || "";
    info.append(el("div", { class: `stock${pos.to_move === p && !ctx.state.over ? " turn" : ""}`, "data-player": p },
      el("span", { class: `pin-dot ${colours[p] === "silver" || colours[p] === "black" ? colours[p] : ""}` }),
      `${seat.name}${colours[p] === "silver" || colours[p] === "black" ? ` (${colours[p]})` : ""}: tokens `,
      ...["R", "G", "B"].map((c) => el("span", { class: "token" + (tokens.includes(c) ? " won" : ""), style: `--c:${COLOUR[c]}`, title: COLOUR_NAME[c] }, tokens.includes(c) ? "★" : "·"))));
  });
  box.append(info);
  if (!mine) return;
  const row = el("div", { class: "action-row" });
  if (pos.phase === "arrange") {
    const b = el("button", { class: "btn primary", type: "button", id: "arrange-btn" }, "Arrange the discs like this");
    b.addEventListener("click", () => ctx.play(`arrange ${arrangement.join("")}`));
    row.append(b);
    box.append(el("p", { class: "hint", id: "hint" }, "Click the discs to change their colours (three of each), then confirm."), row);
    return;
  }
  const words = { end: "End turn", pass: "Pass", unlock: "Release my lock", unbar: "Remove my barrier" };
  for (const m of legal) {
    if (m.startsWith("choose ")) {
      const [, colour, pair] = m.split(" ");
      row.append(button(`${colour} pins on ${pair.slice(0, 2)} + ${pair.slice(2)}`, m, ctx));
    } else if (words[m]) row.append(button(words[m], m, ctx));
  }
  box.append(row);
  const stepping = legal.some((m) => m.includes("-") && !m.startsWith("bar"));
  const hint = pos.phase === "choose" ? "Choose your pin colour and your two corner discs."
    : sel ? `Pin on ${sel}: click a glowing hole.`
      : stepping ? "Move a glowing pin (click it, then its hole) or turn a disc with its arrow."
        : "Optional: click one of your pins to lock its disc, or a groove to bar it. Then end the turn.";
  box.append(el("p", { class: "hint", id: "hint" }, hint));
}

function button(label, move, ctx) {
  const b = el("button", { class: "btn" + (move === "end" ? " primary" : ""), type: "button", "data-move": move }, label);
  b.addEventListener("click", () => ctx.play(move));
  return b;
}
