// 36 to 1: the 6 × 6 grid of coloured cubes (rank 6 at the top, a symbol heading each column)
// and the two face-up cards. Choose a card, then a glowing cube; a card that can remove
// nothing may be discarded. Only what the player sees is drawn: the pile is a count.

import { el, svg, clear } from "../dom.js";
import { t } from "../i18n.js";
import { animate, focusedKey, highlightSet, lastMoves, roving, takeAnimation } from "./common.js";

const FILES = ["a", "b", "c", "d", "e", "f"];
const COLOUR = { R: "#d7263d", Y: "#f2c014", G: "#2e9e4f", B: "#2b6cc4", K: "#232323", W: "#f4f4ef" };
const NAME = { R: "red", Y: "yellow", G: "green", B: "blue", K: "black", W: "white" };
const SYMBOL = ["", "drop", "hammers", "circles", "bricks", "wheel", "arrow"];
const CELL = 74;
const X0 = 30;
const Y0 = 66;

let card = null;
const focus = { current: null };
const NAMES = { R: () => t("red"), Y: () => t("yellow"), G: () => t("green"), B: () => t("blue"), K: () => t("black"), W: () => t("white") };
// a column's heading: its number and symbol, as a card names it (the terminal's heading line);
// the number comes with the noun, which agrees with it in Russian (3 круга)
const HEADINGS = [null, () => t("1 drop"), () => t("2 hammers"), () => t("3 circles"), () => t("4 bricks"), () => t("5 wheel"), () => t("6 arrow")];

export function reset() { card = null; }

/** A symbol (1..6) drawn in a box of size `s` with its top-left at (x, y). */
export function glyph(n, x, y, s, colour = "#3b2a1d") {
  const g = svg("g", { transform: `translate(${x} ${y}) scale(${s / 40})`, fill: colour, stroke: colour, class: "glyph" });
  if (n === 1) g.append(svg("path", { d: "M20 4 C20 4 8 20 8 27 a12 12 0 0 0 24 0 C32 20 20 4 20 4 z", stroke: "none" }));
  else if (n === 2) for (const dx of [-8, 8]) g.append(svg("rect", { x: 20 + dx - 2, y: 14, width: 4, height: 22, stroke: "none" }), svg("rect", { x: 20 + dx - 8, y: 6, width: 16, height: 9, rx: 2, stroke: "none" }));
  else if (n === 3) for (const [cx, cy] of [[12, 13], [28, 13], [20, 28]]) g.append(svg("circle", { cx, cy, r: 7, fill: "none", "stroke-width": 3.5 }));
  else if (n === 4) for (const [bx, by] of [[3, 26], [21, 26], [12, 14], [3, 2], [21, 2]]) g.append(svg("rect", { x: bx, y: by, width: 16, height: 10, rx: 1, stroke: "none" }));
  else if (n === 5) {
    g.append(svg("circle", { cx: 20, cy: 20, r: 15, fill: "none", "stroke-width": 3.5 }));
    for (let i = 0; i < 4; i++) { const a = (i * Math.PI) / 4; g.append(svg("line", { x1: 20 - 15 * Math.cos(a), y1: 20 - 15 * Math.sin(a), x2: 20 + 15 * Math.cos(a), y2: 20 + 15 * Math.sin(a), "stroke-width": 2.5 })); }
  } else if (n === 6) g.append(svg("path", { d: "M5 35 L30 10 M18 8 H32 V22", fill: "none", "stroke-width": 4.5, "stroke-linecap": "round", "stroke-linejoin": "round" }));
  return g;
}

function cardSvg(code, opts = {}) {
  const colour = code[0];
  const n = Number(code[1]);
  const green = code.endsWith("g");
  const s = svg("svg", { viewBox: "0 0 90 126", class: "card-svg" + (opts.small ? " small" : "") });
  s.append(svg("rect", { x: 2, y: 2, width: 86, height: 122, rx: 9, fill: COLOUR[colour], stroke: "#0007", "stroke-width": 2 }));
  s.append(svg("rect", { x: 11, y: 11, width: 68, height: 104, rx: 5, fill: green ? "#cfe9c4" : "#fffaf0" }));
  s.append(svg("text", { x: 17, y: 32, class: "card-num" }, String(n)));
  s.append(glyph(n, 23, 44, 44));
  s.append(svg("text", { x: 45, y: 108, class: "card-code" }, code));
  return s;
}

/** The heading of the end screen's score column: the score of 36 to 1 is the cubes left. */
export function scoreHeading() { return t("Cubes left"); }

export function draw(root, ctx) {
  const { view, legal, mine } = ctx;
  const grid = view.grid;
  const cards = view.faceup || [];
  if (card && !cards.includes(card)) card = null;
  const usable = new Set(legal.filter((m) => !m.endsWith(":x")).map((m) => m.split(":")[0]));
  if (mine && !card && usable.size === 1) card = [...usable][0];
  const targets = new Set(card ? legal.filter((m) => m.startsWith(card + ":") && !m.endsWith(":x")).map((m) => m.split(":")[1]) : []);
  const lastList = lastMoves(ctx).slice(-1); // a solitaire's "turn" is the whole game: its last move
  const lastCells = new Map(); // cell -> [card, step]
  lastList.forEach((m, step) => { const [c, cell] = m.split(":"); if (cell && cell !== "x") lastCells.set(cell, [c, step]); });
  const lastDiscard = lastList.filter((m) => m.endsWith(":x")).map((m) => m.split(":")[0]);
  const anim = takeAnimation(ctx);
  const decide = highlightSet(ctx);
  const refocus = focusedKey(root, "data-cell");

  const W = X0 + 6 * CELL + 12;
  const H = Y0 + 6 * CELL + 12;
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "board s36-board", role: "group", "aria-label": t("36 to 1 grid: 36 cells, arrow keys move between them") });
  s.append(svg("rect", { x: X0 - 8, y: 4, width: 6 * CELL + 16, height: H - 8, rx: 14, fill: "#3f5e4a" }));
  FILES.forEach((f, i) => {
    const x = X0 + i * CELL;
    const head = glyph(i + 1, x + CELL / 2 - 16, 12, 32, "#f6edd6");
    head.append(svg("title", {}, t("column {file}: {heading}", { file: f, heading: HEADINGS[i + 1]() })));
    s.append(head);
    s.append(svg("text", { x: x + CELL / 2, y: 60, class: "file", "aria-hidden": "true" }, `${f} · ${i + 1}`));
  });
  const marks = svg("g", { class: "marks" });
  for (let r = 6; r >= 1; r--) {
    const row = grid[r - 1] || "";
    const y = Y0 + (6 - r) * CELL;
    s.append(svg("text", { x: X0 - 18, y: y + CELL / 2 + 6, class: "coord", "aria-hidden": "true" }, String(r)));
    FILES.forEach((f, i) => {
      const cellName = f + r;
      const x = X0 + i * CELL;
      const c = row[i];
      const full = c && c !== ".";
      const label = full ? t("{cell}: a {colour} cube in column {file} ({heading})", { cell: cellName, colour: NAME[c] ? NAMES[c]() : c, file: f, heading: HEADINGS[i + 1]() })
        : t("{cell}: empty", { cell: cellName });
      const g = svg("g", { class: "cell" + (targets.has(cellName) ? " hot" : "") + (lastCells.has(cellName) ? " last" : "") + (decide.has(cellName) ? " decide" : ""), "data-cell": cellName, "data-kb": cellName, "aria-label": label });
      g.append(svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 8, class: "slot" }));
      if (full) {
        g.append(svg("rect", { x: x + 9, y: y + 12, width: CELL - 18, height: CELL - 18, rx: 7, fill: "#0004" }));
        g.append(svg("rect", { x: x + 8, y: y + 8, width: CELL - 18, height: CELL - 18, rx: 7, fill: COLOUR[c], stroke: c === "W" ? "#9a9a90" : "#0006", "stroke-width": 2, class: "cube" }));
        g.append(svg("path", { d: `M${x + 14} ${y + 14} h${CELL - 32}`, stroke: "#ffffff66", "stroke-width": 4, "stroke-linecap": "round" }));
        g.append(svg("text", { x: x + CELL / 2 - 1, y: y + CELL / 2 + 5, class: "cube-letter", fill: c === "W" || c === "Y" ? "#333" : "#fff" }, c));
      }
      if (lastCells.has(cellName)) {
        // the cube just removed: its outline stays, dashed; after someone else's move it fades out
        const [used, step] = lastCells.get(cellName);
        marks.append(svg("rect", { x: x + 8, y: y + 8, width: CELL - 18, height: CELL - 18, rx: 7, class: "last-cube", "data-last": cellName }));
        if (anim) marks.append(animate(svg("rect", { x: x + 8, y: y + 8, width: CELL - 18, height: CELL - 18, rx: 7, fill: COLOUR[used[0]] || "#999", opacity: 0.9 }), "vanish", step));
      }
      if (decide.has(cellName)) marks.append(svg("rect", { x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 8, class: "decide-mark", "data-decide": cellName }));
      g.append(svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 8, class: "focus-ring" }));
      g.addEventListener("click", () => { if (mine && card) ctx.play(`${card}:${cellName}`); else if (mine) ctx.toast(usable.size ? t("Choose a card first.") : t("No card can remove a cube: discard a card.")); });
      s.append(g);
    });
  }
  s.append(marks);
  clear(root).append(s);
  roving(s, "[data-kb]", "data-cell", focus, refocus);

  const box = clear(ctx.controls);
  const hand = el("div", { class: "s36-cards" });
  for (const code of cards) {
    const canUse = usable.has(code);
    const canDiscard = legal.includes(`${code}:x`);
    const words = t("{colour} border, {symbol}", { colour: NAMES[code[0]](), symbol: HEADINGS[Number(code[1])]() });
    const b = el("button", {
      type: "button", class: "s36-card" + (card === code ? " on" : "") + (mine && !canUse ? " dead" : ""), "data-card": code, title: words,
      "aria-label": canUse || !mine ? t("card {code}: {words}", { code, words }) : t("card {code}: {words}; it can remove no cube", { code, words }),
      "aria-pressed": card === code ? "true" : "false",
      // a card is a control only on the player's turn (not at the end, not to a spectator)
      disabled: mine ? null : "",
    }, cardSvg(code));
    b.addEventListener("click", () => { if (!mine) return; card = code; draw(root, ctx); });
    const col = el("div", { class: "s36-card-col" }, b);
    if (canDiscard) {
      const d = el("button", { type: "button", class: "btn small", "data-discard": code, "aria-label": t("discard {code}", { code }) }, t("Discard"));
      d.addEventListener("click", () => ctx.play(`${code}:x`));
      col.append(d);
    }
    hand.append(col);
  }
  const pile = el("div", { class: "s36-pile" },
    el("div", { class: "pile-back" }, el("span", {}, String(view.pile_count))),
    el("div", { class: "muted small" }, t("cards in the pile")));
  const stats = el("div", { class: "s36-stats" },
    el("div", { class: "big-num", id: "cubes-left" }, String(view.cubes_left)), el("div", { class: "muted small" }, t("cubes left")));
  box.append(el("div", { class: "s36-row" }, hand, pile, stats));
  if (mine) {
    // only discards left: say so, instead of asking for a card that can do nothing
    const hint = card && usable.has(card) ? t("With {card}: click a glowing cube (its colour, or in its column {n}, with a neighbour).", { card, n: card[1] })
      : usable.size ? t("Choose a face-up card.")
        : t("No face-up card can remove a cube: discard one (it goes to the discard pile).");
    box.append(el("p", { class: "hint", id: "hint" }, hint));
  }
  if ((view.discard || []).length) {
    const disc = el("div", { class: "s36-discard" }, el("span", { class: "muted small" }, t("Discarded:") + " "));
    for (const code of view.discard) disc.append(el("span", { class: "chip" + (lastDiscard.includes(code) ? " last" : ""), style: `border-color:${COLOUR[code[0]]}`, "data-last": lastDiscard.includes(code) ? code : null }, code));
    box.append(disc);
  }
}
