"""Numbers written in text that a person or another program sends: ASCII digits only.

``str.isdigit`` is true for superscripts and other Unicode digits ("¹", "²") that ``int`` refuses,
and ``str.isdecimal`` for other scripts' digits ("٣") that ``int`` reads: a diagram, a saved game
or a header with either must be refused with a reason, not crash or load as a different text.
"""

from __future__ import annotations


def plain_digits(text: str) -> bool:
    """True when ``text`` is one or more of the ASCII digits 0-9 and nothing else."""
    return text.isascii() and text.isdigit()
