// The player page (issue 27), at /#/player/NAME: ratings per game (value, deviation, games),
// a rating history chart (SVG drawn here), the games running and the last 50 finished games
// with results and opponents (GET /api/players/{name}).

import { el, svg, clear } from "./dom.js";
import { t, tn } from "./i18n.js";
import { api } from "./net.js";

/** A game's title; a rating key too ("columba-multi": Columba with 3 or 4 players or teams). */
function gameTitle(cat, id) {
  if (id === "columba-multi") return t("{title}, 3–4 players", { title: gameTitle(cat, "columba") });
  return ((cat && cat.games.find((g) => g.id === id)) || { title: id }).title;
}

function round(x) { return Math.round(Number(x)); }

function when(ms) {
  if (ms === null || ms === undefined) return "";
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleDateString();
}

/** The outcome of a finished game for this player, in words. */
function outcome(g) {
  return { win: t("won"), loss: t("lost"), draw: t("draw") }[g.result] || "";
}

function playerLink(name) {
  return el("a", { href: `/#/player/${encodeURIComponent(name)}`, class: "player-link" }, name);
}

function opponentsOf(g) {
  return (g.opponents || []).map((o) => (typeof o === "string" ? { name: o } : o));
}

/**
 * The rating history as an SVG line chart: one line per game (points = rating after each rated
 * game), the value axis labelled at its ends, a deviation band where the points carry one.
 */
export function ratingChart(series, cat) {
  const W = 640, H = 220, L = 48, R = 12, T = 12, B = 28;
  const lines = series.filter((s) => s.points.length);
  const box = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img",
    "aria-label": t("Rating history") });
  if (!lines.length) return box;
  const all = lines.flatMap((s) => s.points);
  const lo = Math.min(...all.map((p) => p.value - (p.deviation || 0)));
  const hi = Math.max(...all.map((p) => p.value + (p.deviation || 0)));
  const pad = Math.max(10, (hi - lo) * 0.08);
  const y0 = lo - pad, y1 = hi + pad;
  const n = Math.max(...lines.map((s) => s.points.length));
  const x = (i) => L + (n <= 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (n - 1));
  const y = (v) => T + ((y1 - v) * (H - T - B)) / (y1 - y0 || 1);
  box.append(svg("line", { x1: L, y1: T, x2: L, y2: H - B, class: "axis" }),
    svg("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, class: "axis" }),
    svg("text", { x: L - 6, y: y(hi) + 4, class: "tick", "text-anchor": "end" }, String(round(hi))),
    svg("text", { x: L - 6, y: y(lo) + 4, class: "tick", "text-anchor": "end" }, String(round(lo))),
    svg("text", { x: L, y: H - 8, class: "tick" }, t("first game")),
    svg("text", { x: W - R, y: H - 8, class: "tick", "text-anchor": "end" }, t("latest")));
  lines.forEach((s, k) => {
    const pts = s.points;
    const band = pts.map((p, i) => `${x(i)},${y(p.value + (p.deviation || 0))}`)
      .concat(pts.slice().reverse().map((p, j) => `${x(pts.length - 1 - j)},${y(p.value - (p.deviation || 0))}`));
    if (pts.some((p) => p.deviation)) box.append(svg("polygon", { points: band.join(" "), class: `band band-${k % 5}` }));
    box.append(svg("polyline", { points: pts.map((p, i) => `${x(i)},${y(p.value)}`).join(" "), class: `line line-${k % 5}`, "data-game": s.game }));
    const last = pts[pts.length - 1];
    box.append(svg("circle", { cx: x(pts.length - 1), cy: y(last.value), r: 3.5, class: `dot line-${k % 5}` },
      svg("title", {}, `${gameTitle(cat, s.game)}: ${round(last.value)}`)));
  });
  return box;
}

/** The chart's series from the profile's `history`: per rating key, the value after each rated game. */
function seriesOf(profile) {
  return Object.entries(profile.history || {}).map(([game, pts]) => {
    const points = (pts || []).map((p) => ({ value: Number(p.value), deviation: Number(p.deviation || 0), at: p.at }));
    // the line starts at the rating before the first game shown, where the list of games has it
    const first = (profile.recent || []).filter((g) => g.game === game && g.before !== null && g.before !== undefined)
      .sort((x, y) => x.ended_at - y.ended_at)[0];
    if (first && points.length && first.ended_at <= points[0].at + 1000) points.unshift({ value: Number(first.before), deviation: 0, at: null });
    return { game, points };
  });
}

function ratingRows(profile, cat) {
  return Object.entries(profile.ratings || {}).map(([game, x]) => el("tr", { "data-game": game },
    el("th", { scope: "row" }, gameTitle(cat, game)),
    el("td", { class: "rating-value" }, String(round(x.value))),
    el("td", { class: "rating-dev" }, `± ${round(x.deviation)}`),
    el("td", { class: "rating-games" }, String(x.games ?? 0))));
}

function gameRow(g, cat, running) {
  const opp = opponentsOf(g);
  // a game of this browser's opens at its seat (the tokens it keeps); others are watched
  const link = `/game/${g.id}${running ? "" : "#watch"}`;
  const cells = [el("td", {}, el("a", { href: link }, gameTitle(cat, g.game)))];
  if (running) {
    cells.push(el("td", { class: "muted" }, g.your_turn ? t("to move") : ""));
  } else {
    const rated = g.before !== null && g.before !== undefined && g.after !== null && g.after !== undefined;
    const d = rated ? round(g.after) - round(g.before) : 0;
    cells.push(
      el("td", { class: "opponents" }, ...opp.flatMap((o, i) => [i ? ", " : "", playerLink(o.name)])),
      el("td", { class: `outcome outcome-${g.result || ""}` }, outcome(g)),
      el("td", { class: "rating-change" }, rated ? `${round(g.after)} (${d > 0 ? "+" : ""}${d})` : (g.rated ? "" : t("casual"))),
      el("td", { class: "muted" }, when(g.ended_at)));
  }
  return el("tr", { "data-id": g.id }, ...cells);
}

/** The player page of name. */
export async function playerPage(app, name, cat) {
  document.title = t("{name}: rulebox", { name });
  clear(app).append(el("p", { class: "loading" }, t("Loading…")));
  let profile;
  try { profile = await api("GET", `/api/players/${encodeURIComponent(name)}`); } catch (e) {
    clear(app).append(el("div", { class: "panel" }, el("h2", {}, t("No such player")), el("p", {}, e.message),
      el("a", { href: "/", class: "btn" }, t("Back to the lobby"))));
    return;
  }
  const ratings = ratingRows(profile, cat);
  const series = seriesOf(profile);
  const finished = profile.recent || [];
  const running = profile.running || [];
  const legend = el("ul", { class: "chart-legend" }, ...series.filter((s) => s.points.length).map((s, k) =>
    el("li", {}, el("span", { class: `swatch line-${k % 5}`, "aria-hidden": "true" }), gameTitle(cat, s.game))));
  clear(app).append(el("section", { class: "player-page", id: "player-page", "data-name": profile.name || name },
    el("h1", {}, profile.name || name, profile.guest ? el("span", { class: "identity-kind" }, t("guest")) : ""),
    el("section", { class: "player-ratings" }, el("h2", {}, t("Ratings")),
      ratings.length ? el("table", { class: "ratings-table", id: "ratings" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Game")), el("th", { scope: "col" }, t("Rating")),
          el("th", { scope: "col" }, t("Deviation")), el("th", { scope: "col" }, t("Games")))),
        el("tbody", {}, ...ratings)) : el("p", { class: "muted" }, t("No rated games yet."))),
    el("section", { class: "player-chart" }, el("h2", {}, t("Rating history")),
      series.some((s) => s.points.length) ? [ratingChart(series, cat), legend] : el("p", { class: "muted" }, t("No rated games yet."))),
    el("section", { class: "player-running" }, el("h2", {}, t("Playing now")),
      running.length ? el("table", { class: "games-table", id: "running-games" }, el("tbody", {}, ...running.map((g) => gameRow(g, cat, true))))
        : el("p", { class: "muted" }, t("No games running."))),
    el("section", { class: "player-games" }, el("h2", {}, tn("Last game", "Last {n} games", finished.length)),
      finished.length ? el("table", { class: "games-table", id: "finished-games" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Game")), el("th", { scope: "col" }, t("Opponents")),
          el("th", { scope: "col" }, t("Result")), el("th", { scope: "col" }, t("Rating")), el("th", { scope: "col" }, t("Date")))),
        el("tbody", {}, ...finished.slice(0, 50).map((g) => gameRow(g, cat, false))))
        : el("p", { class: "muted" }, t("No finished games yet.")))));
}
