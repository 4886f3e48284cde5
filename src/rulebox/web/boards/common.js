// What every board shares (issue 17): the last turn to mark, the one-time animation of someone
// else's turn, the deciding pieces of a finished game, and keyboard play with a roving tabindex.
// The boards know notation; this module knows none.

import { t } from "../i18n.js";

/** Milliseconds between the steps of an animated turn (one step per move of the turn). */
export const STEP_MS = 400;

// The boards' own stylesheet (boards.css), added once beside the page's.
(function ensureCss() {
  if (typeof document === "undefined" || document.querySelector('link[href$="boards.css"]')) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("../boards.css", import.meta.url).href;
  link.dataset.boardsCss = "";
  document.head.append(link);
})();

/**
 * The moves of the last turn in the game's notation ([] in a replay or before the first move).
 * ctx.last (the payload's `last`, one log entry) comes first; without it, `fallback(history)`
 * picks the turn out of the history (default: the last move).
 */
export function lastMoves(ctx, fallback) {
  if (ctx.replay) return [];
  const last = ctx.last !== undefined ? ctx.last : ctx.state.last;
  if (last && Array.isArray(last.moves)) return last.moves;
  if (last === null) return [];
  const hist = ctx.state.history || [];
  if (!hist.length) return [];
  return fallback ? fallback(hist) : hist.slice(-1);
}

/** The moves after the last `end` before the final one: the last whole turn of a game whose
 * turns close with `end` (Discs, Columba). */
export function turnEndingWithEnd(hist) {
  let i = hist.length - 1;
  if (hist[i] === "end") i -= 1;
  const out = [];
  for (; i >= 0 && hist[i] !== "end"; i--) out.unshift(hist[i]);
  return out;
}

/** The cells/pieces that decided a finished game (ctx.highlight, else the result's list). */
export function highlightSet(ctx) {
  if (ctx.replay) return new Set();
  const list = ctx.highlight !== undefined ? ctx.highlight
    : (ctx.state.over && ctx.state.result && ctx.state.result.highlight);
  return new Set(Array.isArray(list) ? list : []);
}

/** False when the person asked the system for less motion. */
export function motionOK() {
  return !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

const turns = new Map(); // a turn's key -> { start, at: [ms after start, per step] }
let timing = null; // the timing of the drawing in progress (set by takeAnimation)

/**
 * Whether this drawing animates the last turn, and when each of its steps plays. A turn is
 * animated when ctx.animate is set (someone else moved) and motion is welcome; a drawing of
 * the same turn while it still plays (a new state of that turn, a click that redraws) goes on
 * from where it is, a new step after the ones under way; once played, never again. Returns
 * true when the drawing has steps to animate; animate() then times its nodes.
 */
export function takeAnimation(ctx) {
  timing = null;
  if (ctx.replay || !motionOK()) return false;
  const last = ctx.last !== undefined ? ctx.last : ctx.state.last;
  const steps = lastMoves(ctx).length || 1;
  const key = `${ctx.state.id}:${last ? `${last.player}:${last.from_ply}` : (ctx.state.history || []).length}`;
  const now = performance.now();
  let rec = turns.get(key);
  if (!rec) {
    if (!ctx.animate) return false;
    rec = { start: now, at: [] };
    turns.set(key, rec);
    if (turns.size > 100) turns.delete(turns.keys().next().value);
  }
  const elapsed = now - rec.start;
  for (let i = rec.at.length; i < steps; i++) rec.at.push(Math.max(i ? rec.at[i - 1] + STEP_MS : 0, i ? elapsed : 0));
  if (elapsed > rec.at[rec.at.length - 1] + STEP_MS) return false; // played to the end
  timing = { elapsed, at: rec.at };
  return true;
}

/**
 * Mark an SVG element to animate as step `step` of the turn: "appear" (fade and grow in),
 * "drop" (fall into place from above), "move" (slide from dx, dy user units away), "turn"
 * (rotate by deg around cx, cy into place), "vanish" (a ghost that fades out). Nothing moves
 * before its step: the animation fills backwards; a redrawing goes on where it was (a negative
 * delay).
 */
export function animate(node, kind, step, opts = {}) {
  if (!timing) return node;
  const at = timing.at[Math.min(step, timing.at.length - 1)] - timing.elapsed;
  node.classList.add("rb-anim", `rb-${kind}`);
  node.dataset.step = String(step);
  const style = [`animation-delay:${Math.round(at)}ms`];
  if (opts.dx !== undefined) style.push(`--dx:${opts.dx}px`, `--dy:${opts.dy}px`);
  if (opts.deg !== undefined) style.push(`--deg:${opts.deg}deg`, `transform-origin:${opts.cx}px ${opts.cy}px`);
  node.setAttribute("style", `${node.getAttribute("style") || ""};${style.join(";")}`);
  return node;
}

/** The key (keyAttr's value) of the focused board item before a redraw, else null. */
export function focusedKey(root, keyAttr) {
  const a = document.activeElement;
  if (!a || !root.contains(a)) return null;
  return a.getAttribute(keyAttr);
}

/**
 * Keyboard play on the board `svgEl`: every item matching `selector` (each with its own
 * aria-label and keyAttr) is one stop of a roving tabindex: Tab reaches the board once, the
 * arrow keys move between items by where they lie, Home/End jump to the first and last,
 * Enter or Space clicks. `memo.current` keeps the item across redraws; `refocus` (from
 * focusedKey) puts the focus back where it was.
 */
export function roving(svgEl, selector, keyAttr, memo, refocus) {
  const items = [...svgEl.querySelectorAll(selector)];
  if (!items.length) return;
  let current = items.find((i) => i.getAttribute(keyAttr) === memo.current) || items[0];
  for (const i of items) {
    i.setAttribute("tabindex", i === current ? "0" : "-1");
    if (!i.hasAttribute("role")) i.setAttribute("role", "button");
    i.addEventListener("focus", () => {
      memo.current = i.getAttribute(keyAttr);
      for (const j of items) j.setAttribute("tabindex", j === i ? "0" : "-1");
      current = i;
    });
  }
  svgEl.addEventListener("keydown", (e) => {
    const here = items.indexOf(e.target);
    if (here < 0) return;
    let next = null;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      e.target.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      return;
    }
    if (e.key === "Home") next = items[0];
    else if (e.key === "End") next = items[items.length - 1];
    else {
      const dir = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] }[e.key];
      if (!dir) return;
      next = nearest(items, e.target, dir);
    }
    e.preventDefault();
    if (next) next.focus();
  });
  if (refocus !== null && refocus !== undefined) {
    const again = items.find((i) => i.getAttribute(keyAttr) === refocus);
    if (again) again.focus({ preventScroll: true });
  }
}

function centre(node) {
  const r = node.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}

function nearest(items, from, [dx, dy]) {
  const [x0, y0] = centre(from);
  let best = null;
  let bestScore = Infinity;
  for (const i of items) {
    if (i === from) continue;
    const [x, y] = centre(i);
    const along = (x - x0) * dx + (y - y0) * dy;
    if (along <= 2) continue;
    const across = Math.abs((x - x0) * dy) + Math.abs((y - y0) * dx);
    const score = along + 2.5 * across;
    if (score < bestScore) { bestScore = score; best = i; }
  }
  return best;
}

/** A seat's name as the page shows it ("light", "red"), for labels. */
export function seatName(ctx, p) {
  const seat = (ctx.state.seats || [])[p];
  return seat ? seat.name : t("player {n}", { n: p });
}
