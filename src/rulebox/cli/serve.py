"""``rulebox serve``: the browser game (web client, JSON API, WebSockets) in one process.

The lead wires this into the ``rulebox`` command with :func:`add_arguments` and :func:`run`.
"""

from __future__ import annotations

import argparse
import logging
import re
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
    lim = parser.add_argument_group("limits (docs/SERVER.md)")
    lim.add_argument("--max-time", type=float, default=5.0, metavar="S",
                     help="seconds a computer's turn at most (default 5)")
    lim.add_argument("--max-iterations", type=int, default=20_000, metavar="N",
                     help="iterations= at most (default 20000)")
    lim.add_argument("--all-computer", choices=("refuse", "low"), default="refuse",
                     help="games without a person: refuse them (default) or run them at low "
                     "priority within --quota")
    lim.add_argument("--quota", type=int, default=2, metavar="N",
                     help="all-computer games at once at most (default 2)")
    lim.add_argument("--create-per-minute", type=float, default=60.0, metavar="N",
                     help="games one client may create a minute (default 60; 0: no limit)")
    lim.add_argument("--create-burst", type=int, default=30, metavar="N",
                     help="...this many at once (default 30)")
    lim.add_argument("--moves-per-second", type=float, default=20.0, metavar="N",
                     help="moves one client may send a second (default 20; 0: no limit)")
    lim.add_argument("--moves-burst", type=int, default=60, metavar="N",
                     help="...this many at once (default 60)")
    lim.add_argument("--expire-hours", type=float, default=168.0, metavar="H",
                     help="unfinished games untouched this long end as abandoned (default "
                     "168 = a week; 0: never)")
    lim.add_argument("--trusted-host", action="append", default=None, metavar="NAME",
                     help="a host name the server answers for (repeatable; default the "
                     "loopback names, plus --host when it is a specific address; * for any)")
    lim.add_argument("--think-workers", type=int, default=2, metavar="N",
                     help="processes the computers think in (default 2)")
    lim.add_argument("--csp-script-extra", default="", metavar="'KEYWORD'",
                     help=argparse.SUPPRESS)  # browser tests only: "'unsafe-eval'"


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
    from rulebox.server.limits import LOOPBACK_HOSTS, Limits

    hosts = tuple(args.trusted_host) if args.trusted_host else LOOPBACK_HOSTS + (
        (args.host,) if args.host not in ("0.0.0.0", "::", *LOOPBACK_HOSTS) else ())
    if min(args.max_time, args.max_iterations, args.quota, args.think_workers) <= 0:
        print("--max-time, --max-iterations, --quota and --think-workers must be positive",
              file=sys.stderr)
        return 2
    limits = Limits(max_time=args.max_time, max_iterations=args.max_iterations,
                    all_computer=args.all_computer, quota=args.quota,
                    create_per_minute=args.create_per_minute, create_burst=args.create_burst,
                    moves_per_second=args.moves_per_second, moves_burst=args.moves_burst,
                    expire_after=args.expire_hours * 3600, trusted_hosts=hosts)
    url = args.db or default_db_url()
    redact_tokens()
    try:
        app = create_app(url, limits, think_workers=args.think_workers,
                         csp_script_extra=args.csp_script_extra)
    except Exception as e:  # a bad URL or a missing database driver
        print(f"cannot use database {url!r}: {e}", file=sys.stderr)
        return 2
    shown = "localhost" if args.host in ("127.0.0.1", "::1") else args.host
    print(f"rulebox: http://{shown}:{args.port}/  (storage: {_safe(url)})", file=sys.stderr)
    if "*" not in hosts and args.host in ("0.0.0.0", "::"):
        print("rulebox: answering only for host names " + ", ".join(hosts)
              + " (add yours with --trusted-host)", file=sys.stderr)
    try:
        uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level,
                    ws="auto", timeout_graceful_shutdown=5)
    except (OSError, SystemExit) as e:
        print(f"rulebox serve stopped: {e}", file=sys.stderr)
        return 1
    return 0


_TOKEN = re.compile(r"((?:token|auth)=)[^&\s\"']+", re.IGNORECASE)


class RedactTokens(logging.Filter):
    """Blank out ``token=...`` in log lines (an old client's WebSocket URL): the server refuses
    such URLs, and a refused one still must not leave a token in the access log."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.args:
            args = record.args if isinstance(record.args, tuple) else (record.args,)
            record.args = tuple(_TOKEN.sub(r"\1[redacted]", a) if isinstance(a, str) else a
                                for a in args)
        if isinstance(record.msg, str) and "token=" in record.msg.lower():
            record.msg = _TOKEN.sub(r"\1[redacted]", record.msg)
        return True


def redact_tokens() -> None:
    """Install :class:`RedactTokens` on Uvicorn's loggers (their handlers come later, from
    Uvicorn's logging config, which keeps logger filters)."""
    for name in ("uvicorn.access", "uvicorn.error", "uvicorn"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())


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
