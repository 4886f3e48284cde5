"""Every game package below this one registers itself when imported; this imports them all.

A game package that fails to import is skipped with a warning and listed in :data:`BROKEN`, so
that one broken game cannot take the others down; the conformance test fails while any is.
"""

from __future__ import annotations

import importlib
import pkgutil
import warnings

BROKEN: dict[str, str] = {}

for _info in pkgutil.iter_modules(__path__):
    if _info.ispkg:
        try:
            importlib.import_module(f"{__name__}.{_info.name}")
        except Exception as _e:  # a broken game must not break the others
            BROKEN[_info.name] = f"{type(_e).__name__}: {_e}"
            warnings.warn(f"rulebox: game package {_info.name!r} failed to import: {_e}",
                          RuntimeWarning, stacklevel=1)
