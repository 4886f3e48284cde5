"""The balance report: figures (matplotlib, each as PNG and SVG) and ``report.html``.

:func:`write_report` draws the figures of a ``metrics.json`` document
(:mod:`rulebox.analysis.balance`) into a directory and writes an HTML page that shows the
PNGs (each linked to its SVG) beside the tables of figures; :func:`write_tournament_report` does
the same for a tournament's results (``rulebox tournament --json`` or its ``--log``): the
ratings with their 95% intervals and the pairwise score matrix as a heat map.

matplotlib is the optional extra ``analysis`` (``pip install rulebox[analysis]``); it is
imported here only, with the non-interactive Agg backend.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rulebox.analysis.balance import fmt_rate, headline, to_jsonable, variant_label


def _plt() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise SystemExit(
            "rulebox analyze needs matplotlib: pip install 'rulebox[analysis]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "rulebox"  # the same figures give the same SVG
    plt.rcParams["svg.fonttype"] = "none"
    return plt


def _save(fig: Any, out: Path, name: str) -> str:
    fig.tight_layout()
    fig.savefig(out / f"{name}.png", dpi=100, metadata={"Software": None})
    fig.savefig(out / f"{name}.svg", metadata={"Date": None})
    import matplotlib.pyplot as plt

    plt.close(fig)
    return name


def _hist_args(hist: Sequence[Sequence[float]]) -> tuple[list[float], list[float]]:
    """A histogram's values and bins from ``(value, count)`` pairs: one bin per whole number
    where the values are whole and span at most 60, else 40 bins."""
    values = [float(v) for v, n in hist for _ in range(int(n))]
    lo, hi = min(values), max(values)
    if all(v.is_integer() for v in values) and hi - lo <= 60:
        return values, [lo - 0.5 + i for i in range(int(hi - lo) + 2)]
    return values, [lo + (hi - lo + 1) * i / 40 for i in range(41)]


def _errbar(r: Mapping[str, Any]) -> tuple[float, float]:
    lo, hi = r["ci95"]
    return max(0.0, r["rate"] - lo), max(0.0, hi - r["rate"])


def figures(doc: Mapping[str, Any], out: Path) -> list[tuple[str, str]]:
    """Draw every figure of a balance run; (file stem, caption) pairs."""
    plt = _plt()
    made: list[tuple[str, str]] = []
    variants = doc["variants"]
    labels = [variant_label(v["options"]) for v in variants]
    solitaire = all(v["seats"] == 1 for v in variants)

    # 1. who wins, per variant: seat win rates (or the solitaire's win rate), draws
    fig, ax = plt.subplots(figsize=(min(8.0, max(5.0, 0.8 * len(variants) + 3)), 3.6))
    if solitaire:
        rates = [v["metrics"]["win"] for v in variants]
        errs = list(zip(*[_errbar(r) for r in rates], strict=True))
        ax.bar(range(len(rates)), [r["rate"] for r in rates], yerr=errs, capsize=4,
               color="#4a7ab5")
        ax.set_ylabel("win rate (95% interval)")
    else:
        seats = max(v["seats"] for v in variants)
        width = 0.8 / (seats + 1)
        for s in range(seats):
            xs, ys, es = [], [], []
            for i, v in enumerate(variants):
                if s < v["seats"]:
                    r = v["metrics"]["seats"][s]
                    xs.append(i + s * width)
                    ys.append(r["rate"])
                    es.append(_errbar(r))
            ax.bar(xs, ys, width, yerr=list(zip(*es, strict=True)) if es else None, capsize=3,
                   label=f"seat {s} wins")
        draws = [v["metrics"]["draw"] for v in variants]
        ax.bar([i + seats * width for i in range(len(variants))], [r["rate"] for r in draws],
               width, yerr=list(zip(*[_errbar(r) for r in draws], strict=True)), capsize=3,
               color="#999999", label="draws")
        ax.axhline(1 / max(1, seats), color="black", lw=0.6, ls=":")
        ax.legend(fontsize=7, ncol=2)
        ax.set_ylabel("share of games (95% interval)")
    ax.set_xticks([i + (0 if solitaire else 0.3) for i in range(len(variants))], labels,
                  fontsize=7, rotation=20 if len(variants) > 3 else 0)
    ax.set_ylim(0, 1)
    ax.set_title(f"{doc['game']}: who wins")
    made.append((_save(fig, out, "wins"), "Win rates by seat (or of the solitaire) and draws, "
                 "with 95% Wilson intervals; the dotted line is an even share."))

    # 2. game length
    fig, ax = plt.subplots(figsize=(6, 3.4))
    for v, label in zip(variants, labels, strict=True):
        hist = v["metrics"]["length"]["plies_hist"]
        if hist:
            ax.hist(*_hist_args(hist), histtype="step", label=label)
    ax.set_xlabel("plies (moves) in the game")
    ax.set_ylabel("games")
    ax.set_title(f"{doc['game']}: game length")
    if len(variants) > 1:
        ax.legend(fontsize=7)
    made.append((_save(fig, out, "length"), "How many plies the games lasted."))

    # 3. branching factor per ply
    fig, ax = plt.subplots(figsize=(6, 3.4))
    for v, label in zip(variants, labels, strict=True):
        per = [p for p in v["metrics"]["branching"]["per_ply"] if p["n"] >= 5]
        xs = list(range(1, len(per) + 1))
        mean = [p["mean"] for p in per]
        ax.plot(xs, mean, lw=1, label=label)
        ax.fill_between(xs, [p["mean"] - p["sd"] for p in per],
                        [p["mean"] + p["sd"] for p in per], alpha=0.2)
    ax.set_xlabel("ply")
    ax.set_ylabel("legal moves (mean ± sd)")
    ax.set_title(f"{doc['game']}: branching factor")
    if len(variants) > 1:
        ax.legend(fontsize=7)
    made.append((_save(fig, out, "branching"), "Legal moves at each ply, mean and one standard "
                 "deviation over the games still running (plies reached by at least 5 games)."))

    # 4. decisiveness
    fig, ax = plt.subplots(figsize=(6, 3.4))
    for v, label in zip(variants, labels, strict=True):
        curve = [c for c in v["metrics"]["decisiveness"]["leader_wins_at_ply"] if c["n"] >= 5]
        ax.plot(range(1, len(curve) + 1), [c["rate"] for c in curve], lw=1, label=label)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("ply")
    ax.set_ylabel("leader by evaluation wins")
    ax.set_title(f"{doc['game']}: decisiveness")
    if len(variants) > 1:
        ax.legend(fontsize=7)
    made.append((_save(fig, out, "decisiveness"), "How often the leader by the game's "
                 "evaluation at each ply went on to win (decided games still running, at least "
                 "5); a solitaire: how often a foreseen win or loss came true."))

    # 5. scores
    scored = [(v, label) for v, label in zip(variants, labels, strict=True)
              if "scores" in v["metrics"]]
    if scored:
        fig, ax = plt.subplots(figsize=(6, 3.4))
        for v, label in scored:
            for s, hist in enumerate(v["metrics"]["scores"]["hist"]):
                if hist:
                    name = label if len(v["metrics"]["scores"]["hist"]) == 1 else \
                        f"{label} seat {s}"
                    ax.hist(*_hist_args(hist), histtype="step", label=name)
        ax.set_xlabel("cubes left" if solitaire else "final score")
        ax.set_ylabel("games")
        ax.set_title(f"{doc['game']}: " + ("cubes left" if solitaire else "scores"))
        ax.legend(fontsize=6)
        made.append((_save(fig, out, "scores"), "Distribution of the final scores per seat "
                     "(36 to 1: the cubes left; 1, the last cube, is a win)."))
    return made


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em auto; max-width: 72em; color: #222; }
figure { display: inline-block; margin: 0.5em; vertical-align: top; max-width: 34em; }
figure img { max-width: 100%; border: 1px solid #ddd; }
figcaption { font-size: 0.85em; color: #444; }
table { border-collapse: collapse; font-size: 0.9em; margin: 0.5em 0 1em; }
td, th { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
pre { background: #f6f6f6; padding: 0.6em; font-size: 0.85em; }
"""


def _page(title: str, body: str) -> str:
    return (f"<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head>"
            f"<body>\n<h1>{html.escape(title)}</h1>\n{body}\n</body></html>\n")


def _figures_html(made: Sequence[tuple[str, str]]) -> str:
    return "\n".join(
        f'<figure><a href="{n}.svg"><img src="{n}.png" alt="{html.escape(c)}"></a>'
        f"<figcaption>{html.escape(c)} (<a href=\"{n}.svg\">SVG</a>)</figcaption></figure>"
        for n, c in made)


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    trs = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                  for row in rows)
    return f"<table><tr>{th}</tr>{trs}</table>"


def _side_by_side(doc: Mapping[str, Any]) -> str:
    variants = doc["variants"]
    head = ["", *[variant_label(v["options"]) for v in variants]]

    def row(name: str, f: Any) -> list[str]:
        out = [name]
        for v in variants:
            try:
                out.append(f(v["metrics"], v))
            except (KeyError, IndexError):
                out.append("")
        return out

    rows = [row("games", lambda m, v: str(m["games"]))]
    if all(v["seats"] == 1 for v in variants):
        rows.append(row("win rate", lambda m, v: fmt_rate(m["win"])))
    else:
        seats = max(v["seats"] for v in variants)
        for s in range(seats):
            rows.append(row(f"seat {s} wins", lambda m, v, s=s: fmt_rate(m["seats"][s])))
        rows.append(row("first mover wins", lambda m, v: fmt_rate(m["first_mover"])))
        rows.append(row("draws", lambda m, v: fmt_rate(m["draw"])))
        rows.append(row("winning sides", lambda m, v: ", ".join(
            f"{t}: {r['rate']:.2f}" for t, r in m["teams"].items())))
    rows += [
        row("plies (mean, sd)", lambda m, v: "{mean:.1f}, {sd:.1f}".format(
            **m["length"]["plies"])),
        row("turns (mean, sd)", lambda m, v: "{mean:.1f}, {sd:.1f}".format(
            **m["length"]["turns"])),
        row("branching (mean, sd)", lambda m, v: "{mean:.1f}, {sd:.1f}".format(
            **m["branching"]["overall"])),
        row("leader by evaluation wins", lambda m, v: fmt_rate(
            m["decisiveness"]["leader_wins_overall"])),
        row("decided at ply (median)", lambda m, v: "{median:g}".format(
            **m["decisiveness"]["decided_at_ply"])),
        row("decided at (share, median)", lambda m, v: "{:.0%}".format(
            m["decisiveness"]["decided_at_share"]["median"])),
        row("mean score per seat", lambda m, v: ", ".join(
            f"{s['mean']:.2f}" for s in m["scores"]["per_seat"])),
        row("score of each agent", lambda m, v: ", ".join(
            f"{a}: {r['score']:.2f}" for a, r in m["agents"].items())),
        row("evaluation failures", lambda m, v: str(m["evaluation_failures"])),
    ]
    return _table(head, [r for r in rows if any(c for c in r[1:])])


def write_report(doc: Mapping[str, Any], out: str | Path) -> Path:
    """``metrics.json``, the figures and ``report.html`` of a balance run in ``out``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "metrics.json").write_text(json.dumps(to_jsonable(doc), indent=1) + "\n",
                                      encoding="utf-8")
    made = figures(doc, out)
    agents = ", ".join(doc["agents"])
    body = (f"<p>{doc['games']} games per variant, agents {html.escape(agents)} (seats "
            f"rotated), seed {doc['seed']}"
            + (f", {doc['time']} s a move" if doc.get("time") else "") + ". "
            "Figures from <code>metrics.json</code>; intervals are 95% Wilson intervals.</p>"
            + _side_by_side(doc) + _figures_html(made)
            + "<h2>Headline</h2><pre>" + html.escape("\n".join(headline(doc))) + "</pre>")
    path = out / "report.html"
    path.write_text(_page(f"Balance of {doc['game']}", body), encoding="utf-8")
    return path


# --- a tournament's results -----------------------------------------------------------------------
def read_tournament(path: str | Path) -> dict[str, Any]:
    """A tournament's summary: the ``--json`` file of ``rulebox tournament``, or its ``--log``
    (the summary is computed from the logged games)."""
    from rulebox.match.tournament import AgentSpec, result_from_json, summarize

    text = Path(path).read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict) and "agents" in data and "pairs" in data:
        return data
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    if not lines or not isinstance(lines[0], dict) or "agents" not in lines[0]:
        raise ValueError(f"{path} is neither tournament results (--json) nor a tournament log")
    head = lines[0]
    results = [result_from_json(r) for r in lines[1:]]
    agents = [AgentSpec.parse(a) for a in head["agents"]]
    return summarize(str(head["game"]), agents, results).to_json()


def score_matrix(summary: Mapping[str, Any]) -> tuple[list[str], list[list[float | None]]]:
    """The agents and, row by column, the row agent's score against the column agent."""
    agents = [a["agent"] for a in summary["agents"]]
    index = {a: i for i, a in enumerate(agents)}
    m: list[list[float | None]] = [[None] * len(agents) for _ in agents]
    for p in summary["pairs"]:
        i, j = index[p["a"]], index[p["b"]]
        m[i][j] = p["a_score"]
        m[j][i] = 1.0 - p["a_score"]
    return agents, m


def write_tournament_report(summary: Mapping[str, Any], out: str | Path) -> Path:
    """Ratings with intervals and the score heat map of a tournament, in ``out``."""
    plt = _plt()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    agents, matrix = score_matrix(summary)
    rated = [a for a in summary["agents"] if "elo" in a]
    made: list[tuple[str, str]] = []
    if rated:
        rated.sort(key=lambda a: a["elo"])
        fig, ax = plt.subplots(figsize=(6, 0.45 * len(rated) + 1.4))
        ax.errorbar([a["elo"] for a in rated], range(len(rated)),
                    xerr=[a["elo_ci95"] for a in rated], fmt="o", capsize=4)
        ax.set_yticks(range(len(rated)), [a["agent"] for a in rated], fontsize=8)
        ax.set_xlabel("rating (Elo scale, 95% interval)")
        ax.set_title(f"{summary['game']}: ratings")
        made.append((_save(fig, out, "ratings"), "Bradley-Terry ratings on the Elo scale with "
                     "their 95% intervals."))
    if len(agents) > 1:
        fig, ax = plt.subplots(figsize=(1.0 * len(agents) + 3, 0.8 * len(agents) + 2))
        shown = [[float("nan") if x is None else x for x in row] for row in matrix]
        im = ax.imshow(shown, vmin=0, vmax=1, cmap="RdBu")
        for i, row in enumerate(matrix):
            for j, x in enumerate(row):
                if x is not None:
                    ax.text(j, i, f"{x:.2f}", ha="center", va="center", fontsize=8)
        ax.set_xticks(range(len(agents)), agents, fontsize=7, rotation=30, ha="right")
        ax.set_yticks(range(len(agents)), agents, fontsize=7)
        fig.colorbar(im, ax=ax, label="row's score against column")
        ax.set_title(f"{summary['game']}: pairwise scores")
        made.append((_save(fig, out, "scores_matrix"), "Score of the row agent against the "
                     "column agent (wins + draws / 2, per game)."))
    metrics = {
        "format": "rulebox-analysis-tournament/1", "game": summary["game"],
        "games": summary["games"], "agents": agents, "score_matrix": matrix,
        "ratings": [{"agent": a["agent"], "elo": a.get("elo"), "elo_ci95": a.get("elo_ci95"),
                     "score": a["score"], "games": a["games"]} for a in summary["agents"]],
        "first_player_win_rate": summary.get("first_player_win_rate"),
        "first_player_win_rate_ci95": summary.get("first_player_win_rate_ci95"),
    }
    (out / "metrics.json").write_text(json.dumps(to_jsonable(metrics), indent=1) + "\n",
                                      encoding="utf-8")
    rows = [[a["agent"], str(a["games"]), f"{a['score']:.3f}",
             f"{a['elo']:.0f} ± {a['elo_ci95']:.0f}" if "elo" in a else ""]
            for a in summary["agents"]]
    body = (f"<p>{summary['games']} games.</p>"
            + _table(["agent", "games", "score", "rating"], rows) + _figures_html(made))
    path = out / "report.html"
    path.write_text(_page(f"Tournament of {summary['game']}", body), encoding="utf-8")
    return path
