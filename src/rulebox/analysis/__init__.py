"""Analysis for players and designers (issue 22).

- :mod:`rulebox.analysis.review`: a saved game reviewed move by move (``rulebox review``): the
  evaluation before and after each move as a win probability, the agent's preferred move, the
  marks (inaccuracy, mistake, blunder) and the decisive moment, kept in the record.
- :mod:`rulebox.analysis.balance`: seeded self-play for a game's balance (``rulebox analyze``):
  seat advantage, draws, length, branching, decisiveness, scores, variants side by side.
- :mod:`rulebox.analysis.report`: the figures (matplotlib, PNG and SVG) and ``report.html``.
"""
