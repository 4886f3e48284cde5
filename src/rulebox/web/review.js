// The review of a finished game (issue 22): an evaluation graph drawn here from the review
// data (GET /api/games/{id}/review), a click on a point shows that position in the replay, the
// best move beside the board, and the marks (inaccuracy ?!, mistake ?, blunder ??) in the move
// log. app.js imports this module once; it watches the game page and adds itself when the game
// is over, using only the page's public parts: window.rulebox.state, #moves, the replay bar.

import { el, svg, clear } from "./dom.js";
import { t, tn } from "./i18n.js";

const SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const MARK_NAMES = { inaccuracy: () => t("inaccuracy"), mistake: () => t("mistake"), blunder: () => t("blunder") };
const markName = (mark) => (MARK_NAMES[mark] ? MARK_NAMES[mark]() : mark);
const COLORS = ["#2b6cb0", "#c53030", "#2f855a", "#b7791f"];
const W = 300, H = 130, PAD = 18;

const current = { id: null, data: null, loading: false, selected: null };

const STYLE = `
#review-panel { margin-top: .6em; font-size: .9em; }
#review-panel svg { width: 100%; max-width: ${W}px; background: #fafafa; border: 1px solid #ddd; }
#review-panel .pt { cursor: pointer; }
#review-panel .pt.sel { stroke: #000; stroke-width: 2; }
#moves li.mark-inaccuracy::after { content: " ?!"; color: #b7791f; font-weight: bold; }
#moves li.mark-mistake::after { content: " ?"; color: #dd6b20; font-weight: bold; }
#moves li.mark-blunder::after { content: " ??"; color: #c53030; font-weight: bold; }
#moves li.decisive { text-decoration: underline; }
#review-best { margin: .3em 0; padding: .2em .5em; background: #fffbea; border-left: 3px solid #b7791f; }
`;

function gameId() {
  const m = location.pathname.match(/^\/game\/([A-Za-z0-9]+)/);
  return m ? m[1] : null;
}

function state() {
  return window.rulebox && window.rulebox.state;
}

function pct(p) {
  return `${Math.round(p * 100)}%`;
}

/** The evaluation graph: every player's win probability after each ply (0 = the start). */
export function graph(review, selected, onPick) {
  const moves = review.moves;
  const n = Math.max(1, moves.length);
  const players = review.start.length;
  const x = (ply) => PAD + (ply * (W - 2 * PAD)) / n;
  const y = (p) => H - PAD - p * (H - 2 * PAD);
  const g = svg("svg", { viewBox: `0 0 ${W} ${H}`, id: "review-graph", role: "img",
    "aria-label": t("evaluation graph") });
  g.append(svg("line", { x1: PAD, x2: W - PAD, y1: y(0.5), y2: y(0.5), stroke: "#bbb", "stroke-dasharray": "3 3" }));
  g.append(svg("text", { x: 2, y: y(1) + 4, "font-size": 9 }, "100%"));
  g.append(svg("text", { x: 2, y: y(0) + 4, "font-size": 9 }, "0%"));
  if (review.decisive) {
    g.append(svg("line", { x1: x(review.decisive), x2: x(review.decisive), y1: PAD - 6, y2: H - PAD,
      stroke: "#805ad5", "stroke-width": 1.5, class: "decisive-line" }));
  }
  for (let p = 0; p < players; p += 1) {
    const pts = [[0, review.start[p]], ...moves.map((m) => [m.ply, m.probs[p]])];
    g.append(svg("polyline", { points: pts.map(([a, b]) => `${x(a)},${y(b)}`).join(" "),
      fill: "none", stroke: COLORS[p % COLORS.length], "stroke-width": 1.5 }));
  }
  moves.forEach((m) => {
    const mark = m.mark;
    const c = svg("circle", {
      cx: x(m.ply), cy: y(m.probs[m.player]), r: mark ? 4 : 2.5,
      fill: mark === "blunder" ? "#c53030" : mark === "mistake" ? "#dd6b20" : mark === "inaccuracy" ? "#d69e2e" : COLORS[m.player % COLORS.length],
      class: `pt${selected === m.ply ? " sel" : ""}`, "data-ply": m.ply,
    }, svg("title", {}, t("{ply}. {move}{sign}: {before} → {after} (best {best})", {
      ply: m.ply, move: m.move, sign: mark ? " " + SIGNS[mark] : "", before: pct(m.before), after: pct(m.after), best: m.best,
    })));
    c.addEventListener("click", () => onPick(m.ply));
    g.append(c);
  });
  return g;
}

function replayTo(ply) {
  // the replay of app.js: open it if needed, then move its slider
  const bar = document.getElementById("replay-bar");
  const open = () => {
    const range = document.getElementById("replay-range");
    if (!range) return false;
    range.value = String(ply);
    range.dispatchEvent(new Event("input"));
    return true;
  };
  if (bar && !bar.hidden && open()) return;
  const btn = document.getElementById("replay-btn");
  if (btn) btn.click();
  let tries = 0;
  const wait = () => { if (!open() && tries++ < 50) setTimeout(wait, 100); };
  setTimeout(wait, 50);
}

function pick(ply) {
  current.selected = ply;
  replayTo(ply);
  drawPanel();
}

function drawPanel() {
  const panel = document.getElementById("review-panel");
  if (!panel || !current.data) return;
  const review = current.data.review;
  const sel = current.selected;
  const next = review.moves.find((m) => m.ply === (sel || 0) + 1);
  const done = review.moves.find((m) => m.ply === sel);
  const tally = Object.entries(review.summary).map(([p, n]) => {
    const name = (state() && state().seats[p] && state().seats[p].name) || `P${Number(p) + 1}`;
    // each count in its language's plural form (1 неточность, 2 неточности, 5 неточностей),
    // made apart: a tn() inside t()'s arguments is not extracted (scripts/i18n.py)
    const inaccuracies = tn("{n} inaccuracy", "{n} inaccuracies", n.inaccuracy);
    const mistakes = tn("{n} mistake", "{n} mistakes", n.mistake);
    const blunders = tn("{n} blunder", "{n} blunders", n.blunder);
    return el("li", {}, t("{name}: {inaccuracies}, {mistakes}, {blunders}", { name, inaccuracies, mistakes, blunders }));
  });
  clear(panel).append(
    el("h3", {}, t("Review")),
    graph(review, sel, pick),
    el("p", { class: "review-note" }, t("Win probability after each move (by {agent}); click a point to see the position.", { agent: review.agent })
      + (review.decisive ? ` ${t("Decisive moment: move {ply}.", { ply: review.decisive })}` : "")),
    done ? el("p", { id: "review-move" }, `${done.ply}. ${done.move}: ${pct(done.before)} → ${pct(done.after)}`
      + (done.mark ? ` ${t("({mark}; best {best})", { mark: markName(done.mark), best: done.best })}` : "")) : "",
    next ? el("p", { id: "review-best" }, t("Best next move: {best}", { best: next.best })
      + (next.best !== next.move ? ` ${t("(played {move})", { move: next.move })}` : ` ${t("(played)")}`)) : "",
    el("ul", { class: "review-tally" }, ...tally));
}

function markMoves() {
  if (!current.data) return;
  const review = current.data.review;
  document.querySelectorAll("#moves li[data-ply]").forEach((li) => {
    const m = review.moves[Number(li.dataset.ply) - 1];
    if (!m || li.dataset.review) return;
    li.dataset.review = "1";
    if (m.mark) {
      li.classList.add(`mark-${m.mark}`);
      li.title = t("{mark}: best {best} ({before} → {after})", { mark: markName(m.mark), best: m.best, before: pct(m.before), after: pct(m.after) });
    }
    if (m.ply === review.decisive) li.classList.add("decisive");
  });
}

async function startReview() {
  const id = gameId();
  const panel = document.getElementById("review-panel");
  if (!id || !panel || current.loading) return;
  current.loading = true;
  clear(panel).append(el("p", { class: "loading" }, t("Reviewing the game… (a few seconds)")));
  try {
    const r = await fetch(`/api/games/${id}/review`);
    const body = await r.json();
    if (!r.ok) throw new Error((body.error && body.error.message) || r.statusText);
    Object.assign(current, { id, data: body, selected: null });
    drawPanel();
    markMoves();
  } catch (e) {
    clear(panel).append(el("p", {}, t("No review: {error}", { error: e.message })));
  } finally {
    current.loading = false;
  }
}

function sync() {
  const st = state();
  const buttons = document.querySelector(".game .buttons");
  if (!st || !buttons) return;
  if (current.id !== gameId()) Object.assign(current, { id: null, data: null, selected: null });
  let btn = document.getElementById("review-btn");
  if (!btn) {
    btn = el("button", { class: "btn", id: "review-btn", type: "button" }, t("Review"));
    btn.addEventListener("click", startReview);
    buttons.append(btn);
  }
  const show = !!st.over && st.ply > 0;
  if (btn.hidden === show) btn.hidden = !show;
  let panel = document.getElementById("review-panel");
  if (!panel && show) {
    panel = el("div", { id: "review-panel" });
    document.getElementById("moves").after(panel);
    if (current.data) drawPanel();
  }
  markMoves();
  // follow the replay's slider: the selected point is the position shown
  const range = document.getElementById("replay-range");
  const bar = document.getElementById("replay-bar");
  const ply = range && bar && !bar.hidden ? Number(range.value) : null;
  if (current.data && ply !== null && ply !== current.selected) { current.selected = ply; drawPanel(); }
}

function install() {
  const style = document.createElement("style");
  style.textContent = STYLE;
  document.head.append(style);
  const root = document.getElementById("app");
  if (!root) return;
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; sync(); });
  }).observe(root, { childList: true, subtree: true });
}

install();
