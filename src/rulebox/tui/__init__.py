"""The full-screen game in the terminal (Textual): board, move log, status and input on one
screen. ``rulebox play`` starts it on a terminal; ``--plain`` keeps the line mode
(:mod:`rulebox.cli.play`)."""
