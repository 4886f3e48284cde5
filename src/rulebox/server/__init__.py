"""The browser game: an ASGI app (FastAPI) with the JSON API, WebSockets and the web client.

``create_app(db_url)`` builds the application; ``rulebox serve`` runs it under Uvicorn.
"""

from rulebox.server.app import create_app

__all__ = ["create_app"]
