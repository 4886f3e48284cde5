"""``rulebox serve``: the browser game (web client, JSON API, WebSockets) in one process.

The lead wires this into the ``rulebox`` command with :func:`add_arguments` and :func:`run`.
"""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--host``, ``--port`` and ``--db`` to the ``serve`` sub-command's parser."""
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1; 0.0.0.0 for everyone)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--db", default=None, metavar="URL",
                        help="database URL: sqlite:///path.db or postgresql://user@host/db "
                        "(default: SQLite in the user's data directory)")
    parser.add_argument("--log-level", default="info",
                        choices=("critical", "error", "warning", "info", "debug"),
                        help="server log level (default info)")


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; answers the exit status."""
    try:
        import uvicorn

        from rulebox.server import create_app
        from rulebox.server.store import default_db_url
    except ImportError as e:  # the optional web dependencies are missing
        print(f"rulebox serve needs the web extra (pip install 'rulebox[web]'): {e}",
              file=sys.stderr)
        return 2
    if not 0 < args.port < 65536:
        print(f"bad port {args.port}", file=sys.stderr)
        return 2
    url = args.db or default_db_url()
    try:
        app = create_app(url)
    except Exception as e:  # a bad URL or a missing database driver
        print(f"cannot use database {url!r}: {e}", file=sys.stderr)
        return 2
    shown = "localhost" if args.host in ("127.0.0.1", "::1") else args.host
    print(f"rulebox: http://{shown}:{args.port}/  (storage: {_safe(url)})", file=sys.stderr)
    try:
        uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level,
                    ws="auto")
    except (OSError, SystemExit) as e:
        print(f"rulebox serve stopped: {e}", file=sys.stderr)
        return 1
    return 0


def _safe(url: str) -> str:
    """The URL without a password."""
    if "@" in url and "://" in url:
        scheme, _, rest = url.partition("://")
        cred, _, host = rest.rpartition("@")
        user = cred.partition(":")[0]
        return f"{scheme}://{user}@{host}"
    return url


def main(argv: list[str] | None = None) -> int:
    """Run ``serve`` on its own: ``python -m rulebox.cli.serve [--port N]``."""
    parser = argparse.ArgumentParser(prog="rulebox serve", description=__doc__)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
