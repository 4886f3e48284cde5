"""``rulebox serve``: the browser game (web client, JSON API, WebSockets) in one process, or
in ``--workers N`` processes on one port (PostgreSQL; docs/SERVER.md, "Many processes").

The lead wires this into the ``rulebox`` command with :func:`add_arguments` and :func:`run`.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import math
import os
import re
import signal
import socket
import sys
import time
from typing import IO, Any

from rulebox.i18n import _


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--host``, ``--port`` and ``--db`` to the ``serve`` sub-command's parser."""
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1; 0.0.0.0 for everyone)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--db", default=None, metavar="URL",
                        help="database URL: sqlite:///path.db or postgresql://user@host/db "
                        "(default: SQLite in the user's data directory)")
    parser.add_argument("--workers", type=int, default=1, metavar="N",
                        help=_("server processes on this host, sharing the port "
                               "(SO_REUSEPORT; PostgreSQL only, default 1)"))
    parser.add_argument("--pubsub", default=None, metavar="URL",
                        help=_("live updates between server processes: redis://host:6379/0 "
                               "(default with PostgreSQL: its LISTEN/NOTIFY)"))
    parser.add_argument("--job-lease", type=float, default=None, metavar="S",
                        help=_("seconds a process holds a computer's turn unless it renews "
                               "it (PostgreSQL; default 10: a process that died hands it on "
                               "after that)"))
    parser.add_argument("--reuse-port", action="store_true", help=argparse.SUPPRESS)
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
    lim.add_argument("--abandon-grace", type=float, default=60.0, metavar="S",
                     help="seconds every opponent must be gone before a player may claim the "
                          "game (untimed and timed games; issue 27)")
    lim.add_argument("--abandon-grace-days", type=float, default=1.0, metavar="D",
                     help="the same in days for correspondence clocks")
    lim.add_argument("--expire-hours", type=float, default=168.0, metavar="H",
                     help="unfinished games untouched this long end as abandoned (default "
                     "168 = a week; 0: never)")
    lim.add_argument("--trusted-host", action="append", default=None, metavar="NAME",
                     help="a host name the server answers for (repeatable; default the "
                     "loopback names, plus --host when it is a specific address; * for any)")
    lim.add_argument("--think-workers", type=int, default=2, metavar="N",
                     help="processes the computers think in (default 2)")
    lim.add_argument("--ws-ping", type=float, default=None, metavar="S",
                     help="seconds a WebSocket client may be quiet before the server pings it "
                     "(default 20, or RULEBOX_WS_PING; 0: never)")
    lim.add_argument("--ws-timeout", type=float, default=None, metavar="S",
                     help="...and seconds it then has to answer before its socket is closed "
                     "and its seat counts as gone (default 20, or RULEBOX_WS_TIMEOUT)")
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
    sockets = {k: v for k, v in (("ws_ping", getattr(args, "ws_ping", None)),
                                 ("ws_timeout", getattr(args, "ws_timeout", None)))
               if v is not None}
    if any(not math.isfinite(v) or v < 0 or v > 3600 for v in sockets.values()) \
            or sockets.get("ws_timeout") == 0:
        print("--ws-ping is 0 to 3600 seconds and --ws-timeout more than 0 to 3600",
              file=sys.stderr)
        return 2
    limits = Limits(max_time=args.max_time, max_iterations=args.max_iterations,
                    all_computer=args.all_computer, quota=args.quota,
                    create_per_minute=args.create_per_minute, create_burst=args.create_burst,
                    moves_per_second=args.moves_per_second, moves_burst=args.moves_burst,
                    expire_after=args.expire_hours * 3600, trusted_hosts=hosts,
                    abandon_grace=args.abandon_grace,
                    abandon_grace_days=args.abandon_grace_days, **sockets)
    url = args.db or default_db_url()
    workers = int(getattr(args, "workers", 1) or 1)
    pubsub = getattr(args, "pubsub", None)
    lease = getattr(args, "job_lease", None)
    sqlite = url.startswith("sqlite")
    if workers < 1 or (lease is not None and lease <= 0):
        print(_("--workers and --job-lease must be positive"), file=sys.stderr)
        return 2
    if pubsub and not pubsub.startswith(("redis://", "rediss://", "unix://")) \
            and pubsub not in ("postgres", "postgresql"):
        print(_("--pubsub is redis://... or postgres, not {value}").format(value=repr(pubsub)),
              file=sys.stderr)
        return 2
    if sqlite and (workers > 1 or pubsub):
        print(_("rulebox serve: several server processes need PostgreSQL (--db "
                "postgresql://...); SQLite allows one process"), file=sys.stderr)
        return 2
    lock = lock_sqlite(url) if sqlite else None
    if lock is False:  # allowed (a restart may overlap the old process), but said
        print(_("rulebox serve: warning: another rulebox serve uses this SQLite database; "
                "each would serve the other's games stale. SQLite allows one server process "
                "(use PostgreSQL for several)"), file=sys.stderr)
    if workers > 1:
        return supervise(args, workers, url)
    redact_tokens()
    try:
        app = create_app(url, limits, think_workers=args.think_workers,
                         csp_script_extra=args.csp_script_extra, pubsub=pubsub,
                         job_lease=lease)
    except Exception as e:  # a bad URL or a missing database driver
        print(f"cannot use database {url!r}: {e}", file=sys.stderr)
        return 2
    shown = "localhost" if args.host in ("127.0.0.1", "::1") else args.host
    print(f"rulebox: http://{shown}:{args.port}/  (storage: {_safe(url)})", file=sys.stderr)
    if "*" not in hosts and args.host in ("0.0.0.0", "::"):
        print("rulebox: answering only for host names " + ", ".join(hosts)
              + " (add yours with --trusted-host)", file=sys.stderr)
    try:
        if getattr(args, "reuse_port", False):  # one of --workers N processes
            config = uvicorn.Config(app, host=args.host, port=args.port,
                                    log_level=args.log_level, ws="auto",
                                    timeout_graceful_shutdown=5)
            uvicorn.Server(config).run(sockets=[reuse_port_socket(args.host, args.port)])
        else:
            uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level,
                        ws="auto", timeout_graceful_shutdown=5)
    except (OSError, SystemExit) as e:
        print(f"rulebox serve stopped: {e}", file=sys.stderr)
        return 1
    finally:
        if lock and not isinstance(lock, bool):
            lock.close()
    return 0


def reuse_port_socket(host: str, port: int) -> socket.socket:
    """A listening-ready socket on ``host:port`` that other processes may bind too
    (``SO_REUSEPORT``: the kernel spreads new connections over them)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    return sock


def lock_sqlite(url: str) -> IO[bytes] | bool | None:
    """Hold ``<database>.lock`` while this process serves an SQLite file: the open lock file,
    ``False`` when another process holds it, ``None`` where there is nothing to lock (an
    in-memory database, no ``fcntl``)."""
    try:
        import fcntl
    except ImportError:  # Windows
        return None
    path = url.split("///", 1)[1] if "///" in url else ""
    if not path or path.startswith((":memory:", "file:")) or "?" in path:
        return None
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    old = os.umask(0o077)
    try:
        f = open(path + ".lock", "ab")  # noqa: SIM115 (held until the process ends)
    finally:
        os.umask(old)
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        return False
    return f


def _child(options: dict[str, Any], parent: int) -> None:
    """One of ``--workers N``: this serve on the shared port; it stops by itself (SIGTERM to
    itself: a graceful stop) when the supervisor ``parent`` is gone, even killed with SIGKILL."""
    import threading

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="rb-supervisor-watch", daemon=True).start()
    args = argparse.Namespace(**options)
    args.workers = 1
    args.reuse_port = True
    sys.exit(run(args))


def supervise(args: argparse.Namespace, workers: int, url: str) -> int:
    """``--workers N``: N server processes on one port (``SO_REUSEPORT``; each a full server
    with its own think workers); one that dies is started again. SIGTERM or SIGINT stops all
    of them."""
    import multiprocessing

    from rulebox.server.store import Store

    try:
        Store(url).close()  # the tables, once, before the processes race to make them
        reuse_port_socket(args.host, args.port).close()  # the port is free (or ours to share)
    except Exception as e:
        print(f"cannot use database {_safe(url)!r} or port {args.port}: {e}", file=sys.stderr)
        return 2
    ctx = multiprocessing.get_context("spawn")
    options = dict(vars(args))
    procs: list[Any] = []
    started: list[float] = []
    stopping = False

    def start(i: int) -> None:
        proc = ctx.Process(target=_child, args=(options, os.getpid()),
                           name=f"rulebox-serve-{i}")
        proc.start()
        if i < len(procs):
            procs[i], started[i] = proc, time.monotonic()
        else:
            procs.append(proc)
            started.append(time.monotonic())

    def stop(_signum: int, _frame: Any) -> None:
        nonlocal stopping
        stopping = True

    old = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    print(_("rulebox: {n} server processes on port {port} (SO_REUSEPORT)")
          .format(n=workers, port=args.port), file=sys.stderr)
    status = 0
    try:
        for i in range(workers):
            start(i)
        while not stopping:
            time.sleep(0.2)
            for i, proc in enumerate(procs):
                if proc.is_alive() or stopping:
                    continue
                if time.monotonic() - started[i] < 10 and proc.exitcode:  # fails at once
                    print(_("rulebox: a server process failed at start (status {code}); "
                            "stopping").format(code=proc.exitcode), file=sys.stderr)
                    stopping, status = True, 1
                    break
                print(_("rulebox: server process {pid} ended (status {code}); starting "
                        "another").format(pid=proc.pid, code=proc.exitcode), file=sys.stderr)
                start(i)
    finally:
        for proc in procs:
            if proc.is_alive() and proc.pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(proc.pid, signal.SIGTERM)
        for proc in procs:
            proc.join(15)
            if proc.is_alive():
                proc.kill()
                proc.join(5)
        for sig, handler in old.items():
            signal.signal(sig, handler)
    return status


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
