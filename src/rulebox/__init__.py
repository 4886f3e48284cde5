"""rulebox: five published board games played exactly by their rulebooks."""

__version__ = "0.1.0"
