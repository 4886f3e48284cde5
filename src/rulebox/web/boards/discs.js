// Discs: nine coloured discs in a 3 × 3 grid (rank 3 north), five holes each, grooves (lines)
// joining facing holes of neighbouring discs. Silver and black pins; a reversed (locking) pin
// wears a ring; a barrier is a bar across its line. A turn is done by clicking: a pin then its
// target hole, or a disc's turn arrows; then locks and barriers; then "End turn".

import { el, svg, clear } from "../dom.js";
import { t } from "../i18n.js";
import { animate, focusedKey, highlightSet, lastMoves, roving, seatName, takeAnimation, turnEndingWithEnd } from "./common.js";

const FILES = ["a", "b", "c"];
const KINDS = ["c", "ne", "nw", "se", "sw"];
const OFFSET = { c: [0, 0], ne: [1, 1], nw: [-1, 1], se: [1, -1], sw: [-1, -1] };
const U = 46; // pixels per unit; discs are 4 units apart
const M = 20; // margin
const DISC_R = 86;
const ARROW_X = 62; // a turn arrow's distance from its disc's centre, left or right of it
const ARROW_R = 19;
const CUT = 24; // a groove's target keeps clear of the holes' centres at its ends
const REACH_PX = 23; // every target reaches at least this far (CSS px): 46 px across on a phone
const COLOUR = { R: "#d9463b", G: "#3a9d5d", B: "#3c6fc4", "?": "#9b9486" };
const COLOUR_NAME = { R: () => t("red"), G: () => t("green"), B: () => t("blue"), "?": () => t("unknown") };
const PIN_WORD = { silver: () => t("silver"), black: () => t("black") };
const ARRANGE = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"];

let sel = null;
// a groove tapped by a finger: the barrier shown there until the same groove is tapped again
// (the barrier's one action of the turn cannot be taken back); `at` is the ply it was shown at
let preview = { line: null, at: -1 };
let arrangement = null;
const focus = { current: null };

export function reset() { sel = null; preview = { line: null, at: -1 }; }

/** The holes a move names ("a3.se-a2.ne", "lock b2.c", "bar a1.ne-b1.nw"), for the move log's
 * marks on the board (app.js); a disc's turn ("a3+") names its centre hole. */
export function squaresOf(move) {
  const holes = String(move).match(/[a-c][1-3]\.(?:c|ne|nw|se|sw)\b/g) || [];
  const turn = /^([a-c][1-3])[+-]$/.exec(move);
  return turn ? [`${turn[1]}.c`] : holes;
}

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

/** The diamond of the plane closest to hole (hx, hy) among the holes' lattice: a hit area as
 * wide as two hole steps (about 52 px on a 390 px phone), never overlapping a neighbour's. */
function diamond(hx, hy) {
  return `M${hx} ${hy - U} L${hx + U} ${hy} L${hx} ${hy + U} L${hx - U} ${hy} Z`;
}

function holeLabel(ctx, pos, h, p, colours) {
  if (p === undefined) return t("hole {hole}: empty", { hole: h });
  const colour = colours[p] === "silver" || colours[p] === "black" ? PIN_WORD[colours[p]]() : "";
  const base = colour ? t("hole {hole}: a {colour} pin of {seat}", { hole: h, colour, seat: seatName(ctx, p) })
    : t("hole {hole}: a pin of {seat}", { hole: h, seat: seatName(ctx, p) });
  return (pos.locks || [])[p] === h ? t("{what}, locking its disc", { what: base }) : base;
}

export function draw(root, ctx) {
  const { view, legal, mine } = ctx;
  const pos = view.position;
  const phase = pos.phase;
  const colours = pinColours(pos);
  // the seats' dots beside the board wear the pins' colours (boards.css)
  const game = root.closest(".game");
  if (game) {
    if (pos.silver === null || pos.silver === undefined) delete game.dataset.discsSilver;
    else game.dataset.discsSilver = String(pos.silver);
  }
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
  if (!bars.has(preview.line) || preview.at !== ctx.state.ply) preview = { line: null, at: -1 };
  const turns = new Set(legal.filter((m) => /^[a-c][1-3][+-]$/.test(m)));
  // the last turn, every action of it: a pin's from and to, a turned disc, a lock, a barrier
  const lastList = lastMoves(ctx, turnEndingWithEnd);
  const lastHoleStep = new Map();
  const lastFrom = new Set();
  const lastDisc = new Map();
  const lastLock = new Map();
  const lastBar = new Map();
  lastList.forEach((m, step) => {
    if (/^[a-c][1-3]\.\w+-[a-c][1-3]\.\w+$/.test(m)) { const [a, b] = m.split("-"); lastFrom.add(a); lastHoleStep.set(b, [a, step]); }
    else if (/^[a-c][1-3][+-]$/.test(m)) lastDisc.set(m.slice(0, 2), [m.endsWith("+") ? -90 : 90, step]);
    else if (m.startsWith("lock ")) lastLock.set(m.slice(5), step);
    else if (m.startsWith("bar ")) lastBar.set(m.slice(4), step);
  });
  const anim = takeAnimation(ctx);
  const decide = highlightSet(ctx);
  const refocus = focusedKey(root, "data-kb");
  const playing = phase !== "arrange" && phase !== "choose";

  const W = 2 * M + 12 * U;
  const s = svg("svg", { viewBox: `0 0 ${W} ${W}`, class: "board discs-board", role: "group", "aria-label": t("Discs board: nine discs of five holes, arrow keys move between the holes") },
    svg("defs", {},
      svg("radialGradient", { id: "pin-silver", cx: ".35", cy: ".3", r: ".75" }, svg("stop", { offset: "0", "stop-color": "#ffffff" }), svg("stop", { offset: "1", "stop-color": "#8d96a3" })),
      svg("radialGradient", { id: "pin-black", cx: ".35", cy: ".3", r: ".75" }, svg("stop", { offset: "0", "stop-color": "#6a6a6a" }), svg("stop", { offset: "1", "stop-color": "#0b0b0b" }))));
  s.append(svg("rect", { x: 6, y: 6, width: W - 12, height: W - 12, rx: 26, fill: "#2f2a24" }));
  const tap = tapTargets(s);
  const marks = svg("g", { class: "marks" });
  // discs
  for (const d of ARRANGE) {
    const [x, y] = discXY(d);
    const arranging = phase === "arrange" && mine;
    const home = (pos.home || [[], []]).findIndex((list) => list.includes(d));
    const label = t("disc {disc}: {colour}", { disc: d, colour: COLOUR_NAME[discColour[d]] ? COLOUR_NAME[discColour[d]]() : discColour[d] })
      + (home >= 0 ? t(", starting disc of {seat}", { seat: seatName(ctx, home) }) : "");
    const g = svg("g", {
      class: "disc" + (arranging ? " hot" : "") + (lastDisc.has(d) ? " last" : "") + (decide.has(d) ? " decide" : ""), "data-disc": d,
      "data-kb": arranging ? d : null, "aria-label": arranging ? t("{what}; Enter changes its colour", { what: label }) : label,
      role: arranging ? "button" : "img",
    });
    g.append(svg("circle", { cx: x + 3, cy: y + 5, r: DISC_R, fill: "#0006" }));
    g.append(svg("circle", { cx: x, cy: y, r: DISC_R, fill: COLOUR[discColour[d]], stroke: "#0008", "stroke-width": 3, class: "disc-face" }));
    g.append(svg("circle", { cx: x, cy: y, r: DISC_R - 10, fill: "none", stroke: "#ffffff30", "stroke-width": 2 }));
    for (const k of KINDS) {
      const [hx, hy] = holeXY(`${d}.${k}`);
      g.append(svg("circle", { cx: hx, cy: hy, r: 13, fill: "#00000070", stroke: "#ffffff40" }));
    }
    g.append(svg("text", { x, y: y + DISC_R - 14, class: "disc-name" }, d));
    if (home >= 0) g.append(svg("text", { x, y: y - DISC_R + 24, class: "disc-name home" }, t("home")));
    if (arranging) {
      g.append(svg("circle", { cx: x, cy: y, r: DISC_R - 2, class: "focus-ring" }));
      g.addEventListener("click", () => {
        const i = ARRANGE.indexOf(d);
        arrangement[i] = { R: "G", G: "B", B: "R" }[arrangement[i]] || "R";
        draw(root, ctx);
      });
    }
    if (lastDisc.has(d)) marks.append(svg("circle", { cx: x, cy: y, r: DISC_R + 2, class: "last-mark", "data-last": d }));
    if (decide.has(d)) marks.append(svg("circle", { cx: x, cy: y, r: DISC_R + 4, class: "decide-mark", "data-decide": d }));
    s.append(g);
  }
  // lines (grooves), then barriers
  for (const line of LINES) {
    const [a, b] = line.split("-");
    const [x1, y1] = holeXY(a);
    const [x2, y2] = holeXY(b);
    const g = svg("g", { class: "line" + (lastBar.has(line) ? " last" : "") + (decide.has(line) ? " decide" : ""), "data-groove": line });
    g.append(svg("line", { x1, y1, x2, y2, class: "groove" }));
    if (lastBar.has(line)) marks.append(svg("line", { x1, y1, x2, y2, class: "last-mark", "data-last": line }));
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
    const bar = svg("line", { x1: mx - nx, y1: my - ny, x2: mx + nx, y2: my + ny, class: `barrier barrier-${p}`, "data-barrier": p });
    if (anim && lastBar.has(line)) animate(bar, "appear", lastBar.get(line));
    s.append(bar);
  });
  const barAt = (line) => {
    const [a, b] = line.split("-");
    const [x1, y1] = holeXY(a);
    const [x2, y2] = holeXY(b);
    const len = Math.hypot(x2 - x1, y2 - y1);
    const [nx, ny] = [(-(y2 - y1) / len) * 24, ((x2 - x1) / len) * 24];
    return { x1: (x1 + x2) / 2 - nx, y1: (y1 + y2) / 2 - ny, x2: (x1 + x2) / 2 + nx, y2: (y1 + y2) / 2 + ny };
  };
  // holes: a diamond hit area each, then the pin
  const pinLayer = svg("g", { class: "holes", "pointer-events": playing ? null : "none" });
  const turning = new Map(); // disc -> the group of its pins that turned
  for (const d of ARRANGE) {
    for (const k of KINDS) {
      const h = `${d}.${k}`;
      const [hx, hy] = holeXY(h);
      const p = owner[h];
      const g = svg("g", {
        class: "hole" + (lastHoleStep.has(h) || lastFrom.has(h) ? " last" : "") + (sources.has(h) && !sel ? " hot" : "") + (targets.has(h) ? " target" : "") + (sel === h ? " chosen" : "") + (locks.has(h) ? " lockable" : "") + (decide.has(h) ? " decide" : ""),
        "data-hole": h, "data-kb": playing ? h : null, "aria-label": holeLabel(ctx, pos, h, p, colours),
      });
      g.append(svg("path", { d: diamond(hx, hy), class: "hit-area" }));
      g.append(svg("circle", { cx: hx, cy: hy, r: 19, class: "ring" }));
      if (p !== undefined) {
        const c = colours[p] === "silver" ? "url(#pin-silver)" : colours[p] === "black" ? "url(#pin-black)" : colours[p];
        const pin = svg("g", { class: "pin-g" });
        pin.append(svg("circle", { cx: hx + 2, cy: hy + 3, r: 14, fill: "#0007" }));
        pin.append(svg("circle", { cx: hx, cy: hy, r: 14, fill: c, stroke: "#000a", "stroke-width": 1.5, class: `pin pin-${p}` }));
        if ((pos.locks || [])[p] === h) {
          const lock = svg("circle", { cx: hx, cy: hy, r: 7, fill: "none", stroke: "#ffcc33", "stroke-width": 3.5, class: "lock-mark" });
          if (anim && lastLock.has(h)) animate(lock, "appear", lastLock.get(h));
          pin.append(lock);
        }
        if (anim && lastHoleStep.has(h)) {
          const [from, step] = lastHoleStep.get(h);
          const [fx, fy] = holeXY(from);
          animate(pin, "move", step, { dx: fx - hx, dy: fy - hy });
        }
        if (anim && lastDisc.has(d) && k !== "c") {
          // the pins of a turned disc swing into place together
          if (!turning.has(d)) {
            const [x, y] = discXY(d);
            const [deg, step] = lastDisc.get(d);
            turning.set(d, animate(svg("g", { class: "turned" }), "turn", step, { deg, cx: x, cy: y }));
          }
          turning.get(d).append(pin);
        } else g.append(pin);
      }
      if (lastHoleStep.has(h)) marks.append(svg("circle", { cx: hx, cy: hy, r: 19, class: "last-mark", "data-last": h }));
      if (lastFrom.has(h) && !lastHoleStep.has(h)) marks.append(svg("circle", { cx: hx, cy: hy, r: 17, class: "last-from", "data-last": h }));
      if (lastLock.has(h)) marks.append(svg("circle", { cx: hx, cy: hy, r: 21, class: "last-mark", "data-last": h }));
      if (decide.has(h)) marks.append(svg("circle", { cx: hx, cy: hy, r: 21, class: "decide-mark", "data-decide": h }));
      g.append(svg("circle", { cx: hx, cy: hy, r: 21, class: "focus-ring" }));
      const hot = ctx.mine && playing && (sel !== null || sources.has(h) || locks.has(h) || (p !== undefined && p === ctx.seat));
      tap.add(g, h, () => onHole(h, ctx, { sources, locks, p }), hot ? { x: hx, y: hy, r: 14 } : null);
      pinLayer.append(g);
    }
  }
  s.append(pinLayer);
  for (const g of turning.values()) s.append(svg("g", { "pointer-events": "none" }, g));
  // grooves that may take the barrier: a band along their middle, above the holes' diamonds
  // (the band is what the mouse sees; a tap goes to the nearest target, see tapTargets)
  for (const line of bars) {
    const [a, b] = line.split("-");
    const [x1, y1] = holeXY(a);
    const [x2, y2] = holeXY(b);
    const len = Math.hypot(x2 - x1, y2 - y1);
    const ux = (x2 - x1) / len;
    const uy = (y2 - y1) / len;
    const nx = -uy * 16;
    const ny = ux * 16;
    const [ax, ay, bx, by] = [x1 + ux * CUT, y1 + uy * CUT, x2 - ux * CUT, y2 - uy * CUT];
    const shown = preview.line === line;
    const g = svg("g", { class: "line hot" + (shown ? " chosen" : ""), "data-line": line, "data-kb": `bar ${line}`, "aria-label": t("groove {line}: place your barrier here", { line }) });
    g.append(svg("line", { x1: ax, y1: ay, x2: bx, y2: by, class: "groove" }));
    g.append(svg("path", { d: `M${ax + nx} ${ay + ny} L${bx + nx} ${by + ny} L${bx - nx} ${by - ny} L${ax - nx} ${ay - ny} Z`, class: "hit" }));
    g.append(svg("line", { x1: ax, y1: ay, x2: bx, y2: by, class: "focus-ring" }));
    if (shown) g.append(svg("line", { ...barAt(line), class: `barrier barrier-${ctx.seat} barrier-preview`, "data-preview": line }));
    tap.add(g, `bar ${line}`, (touch) => {
      // a finger first shows the barrier where it would go (six grooves cross in 50 px on a
      // phone); the mouse and the keyboard place it at once
      if (touch && !shown) { preview = { line, at: ctx.state.ply }; draw(root, ctx); return; }
      preview = { line: null, at: -1 };
      ctx.play(`bar ${line}`);
    }, { ax, ay, bx, by });
    s.append(g);
  }
  // turn arrows
  for (const tm of turns) {
    const d = tm.slice(0, 2);
    const [x, y] = discXY(d);
    const cw = tm.endsWith("+");
    // beside the centre hole, as far from the outer holes as the disc allows (issue 17: the
    // arrows sat on the ne and nw holes, 14 px from them on a phone)
    const ax = x + (cw ? 1 : -1) * ARROW_X;
    const ay = y;
    // for the mouse; the keyboard and screen readers have the same turns as buttons below
    const g = svg("g", { class: "turn-arrow", "data-move": tm, "aria-hidden": "true" },
      svg("title", {}, cw ? t("turn disc {disc} clockwise", { disc: d }) : t("turn disc {disc} anticlockwise", { disc: d })));
    g.append(svg("circle", { cx: ax, cy: ay, r: ARROW_R, class: "arrow-bg" }));
    g.append(svg("text", { x: ax, y: ay + 7, class: "arrow" }, cw ? "↻" : "↺"));
    tap.add(g, tm, () => ctx.play(tm), { x: ax, y: ay, r: ARROW_R });
    s.append(g);
  }
  s.append(marks);
  clear(root).append(s);
  tap.size(W);
  roving(s, "[data-kb]", "data-kb", focus, refocus);
  controls(ctx, pos, colours, turns);
}

/**
 * What a tap or click on the board does (issue 17: at least 44 px for a finger on a 390 px
 * phone, where the holes are 35 px apart and six grooves cross in a 50 px square). Every target
 * that can do something now (a pin to move or lock, a hole to move to, a groove for the barrier,
 * a turn arrow) reaches REACH_PX CSS px around its shape (drawn as a transparent `.reach`,
 * `data-reach` = its key); where reaches overlap the nearest target wins: the distance to a
 * hole's pin, an arrow's disc or a groove's middle part. A tap nearer to nothing within reach,
 * and every click by keyboard (Enter, Space), goes to the element itself.
 */
function tapTargets(s) {
  const acts = new Map(); // element -> what it does
  const live = []; // { node, key, act, x, y, r } (a round target) or { ..., ax, ay, bx, by } (a groove)
  const layer = svg("g", { class: "reaches", "aria-hidden": "true" });
  s.append(layer); // under everything drawn after it
  let W = 0; // the board's width in user units (set by size)
  // REACH_PX CSS px in user units at the board's drawn size now (a phone turned, a window resized)
  const reachNow = () => Math.max(26, (REACH_PX * W) / (s.getBoundingClientRect().width || W));
  const distance = (o, x, y) => {
    if (o.r !== undefined) return Math.max(0, Math.hypot(x - o.x, y - o.y) - o.r);
    const [dx, dy] = [o.bx - o.ax, o.by - o.ay];
    const u = Math.max(0, Math.min(1, ((x - o.ax) * dx + (y - o.ay) * dy) / (dx * dx + dy * dy)));
    return Math.hypot(x - (o.ax + u * dx), y - (o.ay + u * dy));
  };
  let touch = false; // the pointer of the click under way is a finger
  s.addEventListener("pointerdown", (e) => { touch = e.pointerType === "touch"; });
  s.addEventListener("click", (e) => {
    let own = e.target;
    while (own && own !== s && !acts.has(own)) own = own.parentNode;
    let act = acts.get(own);
    if (e.detail !== 0 && live.length && s.getScreenCTM()) {
      const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(s.getScreenCTM().inverse());
      let best = null;
      let bestD = Infinity;
      for (const o of live) {
        const d = distance(o, pt.x, pt.y) - (o.node === own ? 0.5 : 0); // a tie: the one under the finger
        if (d < bestD) { bestD = d; best = o; }
      }
      if (best && bestD <= reachNow()) act = best.act;
    }
    if (act) act(e.detail !== 0 && touch);
  });
  return {
    /** `node` does `act(touch)` when clicked (touch: by a finger); `shape` (null: not a target
     * now) is where it lies. */
    add(node, key, act, shape) {
      acts.set(node, act);
      if (shape) live.push({ node, key, act, ...shape });
    },
    /** Draw the reaches, REACH_PX CSS px at the board's drawn size (once it is in the page). */
    size(width) {
      W = width;
      const reach = reachNow();
      for (const o of live) {
        const attrs = { class: "reach", "data-reach": o.key };
        if (o.r !== undefined) layer.append(svg("circle", { ...attrs, cx: o.x, cy: o.y, r: o.r + reach }));
        else {
          const len = Math.hypot(o.bx - o.ax, o.by - o.ay);
          const deg = (Math.atan2(o.by - o.ay, o.bx - o.ax) * 180) / Math.PI;
          layer.append(svg("rect", { ...attrs, x: -len / 2 - reach, y: -reach, width: len + 2 * reach, height: 2 * reach, rx: reach,
            transform: `translate(${(o.ax + o.bx) / 2} ${(o.ay + o.by) / 2}) rotate(${deg})` }));
        }
      }
    },
  };
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

function controls(ctx, pos, colours, turns) {
  const { legal, mine } = ctx;
  const box = clear(ctx.controls);
  const info = el("div", { class: "stocks" });
  ctx.state.seats.forEach((seat, p) => {
    const tokens = (pos.tokens || [])[p] || "";
    const named = colours[p] === "silver" || colours[p] === "black";
    info.append(el("div", { class: `stock${pos.to_move === p && !ctx.state.over ? " turn" : ""}`, "data-player": p },
      el("span", { class: `pin-dot ${named ? colours[p] : ""}`, "aria-hidden": "true" }),
      named ? t("{seat} ({colour}): tokens", { seat: seatName(ctx, p), colour: PIN_WORD[colours[p]]() }) : t("{seat}: tokens", { seat: seatName(ctx, p) }), " ",
      ...["R", "G", "B"].map((c) => el("span", {
        class: "token" + (tokens.includes(c) ? " won" : ""), style: `--c:${COLOUR[c]}`,
        title: tokens.includes(c) ? t("{colour} token: won", { colour: COLOUR_NAME[c]() }) : t("{colour} token: not yet", { colour: COLOUR_NAME[c]() }),
      }, tokens.includes(c) ? "★" : "·"))));
  });
  box.append(info);
  if (!mine) return;
  const row = el("div", { class: "action-row" });
  if (pos.phase === "arrange") {
    const b = el("button", { class: "btn primary", type: "button", id: "arrange-btn" }, t("Arrange the discs like this"));
    b.addEventListener("click", () => ctx.play(`arrange ${arrangement.join("")}`));
    row.append(b);
    box.append(el("p", { class: "hint", id: "hint" }, t("Click the discs to change their colours (three of each), then confirm.")), row);
    return;
  }
  const words = { end: () => t("End turn"), pass: () => t("Pass"), unlock: () => t("Release my lock"), unbar: () => t("Remove my barrier") };
  for (const m of legal) {
    if (m.startsWith("choose ")) {
      const [, colour, pair] = m.split(" ");
      row.append(button(t("{colour} pins on {a} + {b}", { colour: PIN_WORD[colour] ? PIN_WORD[colour]() : colour, a: pair.slice(0, 2), b: pair.slice(2) }), m, ctx));
    } else if (words[m]) row.append(button(words[m](), m, ctx));
  }
  if (preview.line) row.append(button(t("Place the barrier on {line}", { line: preview.line }), `bar ${preview.line}`, ctx));
  box.append(row);
  if (turns.size) {
    // the turns as buttons too: large enough for a finger on a phone
    const tr = el("div", { class: "discs-turns action-row" }, el("span", { class: "small muted" }, t("Turn a disc:")));
    for (const tm of [...turns].sort()) {
      const cw = tm.endsWith("+");
      const b = el("button", { class: "btn", type: "button", "data-turn": tm, "aria-label": cw ? t("turn disc {disc} clockwise", { disc: tm.slice(0, 2) }) : t("turn disc {disc} anticlockwise", { disc: tm.slice(0, 2) }) }, `${tm.slice(0, 2)} ${cw ? "↻" : "↺"}`);
      b.addEventListener("click", () => ctx.play(tm));
      tr.append(b);
    }
    box.append(tr);
  }
  const stepping = legal.some((m) => m.includes("-") && !m.startsWith("bar"));
  const hint = pos.phase === "choose" ? t("Choose your pin colour and your two corner discs.")
    : sel ? t("Pin on {hole}: click a glowing hole.", { hole: sel })
      : preview.line ? t("Your barrier on {line}: tap the groove again (or the button) to place it, or tap another groove.", { line: preview.line })
      : stepping ? t("Move a glowing pin (click it, then its hole) or turn a disc with its arrow.")
        : t("Optional: click one of your pins to lock its disc, or a groove to bar it. Then end the turn.");
  box.append(el("p", { class: "hint", id: "hint" }, hint));
}

function button(label, move, ctx) {
  const b = el("button", { class: "btn" + (move === "end" ? " primary" : ""), type: "button", "data-move": move }, label);
  b.addEventListener("click", () => ctx.play(move));
  return b;
}
