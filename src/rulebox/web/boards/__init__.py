"""The board of each game, one JavaScript module per game id (``columns.js``, ...), and
``generic.js`` for a game without one. A package only so that installs carry its files."""
