"""The browser game: an ASGI app (FastAPI) with the JSON API, WebSockets and the web client.

``create_app(db_url)`` builds the application; ``rulebox serve`` runs it under Uvicorn. The
application is imported on first use, so that a think worker importing
:mod:`rulebox.server.worker` does not load the web stack first.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from rulebox.server.app import create_app

        return create_app
    raise AttributeError(name)
