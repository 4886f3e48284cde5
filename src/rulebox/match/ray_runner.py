"""Games as Ray tasks: tournaments and self-play on a Ray cluster, or on a local Ray.

Ray is an optional extra (``pip install 'rulebox[ray]'``); nothing imports it until a run asks
for it, so the local worker processes stay the default and a machine without Ray loses nothing
but ``--ray``.

A :class:`RayCluster` is a connection (a local Ray started for the run when no address is
given, the cluster at ``address`` otherwise) with one way to use it, :meth:`RayCluster.map`:
call a module-level function on each job as a Ray task, and answer the results as they finish.
The function is the same one the local worker processes call
(:func:`rulebox.match.tournament.play_game`, :func:`rulebox.ai.train.play_selfplay`), each job
carries its own seeds, and the callers put the results back in job order; so a run on Ray gives
the same results as the local run, whichever node plays which game in whichever order. Each
task also runs in the caller's language, so that a text a game makes (a forfeit's reason) is
the same on every node.

Every node of a cluster needs the same rulebox (the same version of the code and of its
weights files) and the same Python; ``rulebox`` is imported there by name.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType, TracebackType
from typing import Any, TypeVar

from rulebox.core.errors import RuleboxError
from rulebox.core.numerals import plain_digits
from rulebox.i18n import _, language, ngettext, use_language

__all__ = ["LOCAL", "RayCluster", "need_ray"]

LOCAL = "local"
"""The address that asks for a local Ray started for this run (as Ray itself names it)."""
OBJECT_STORE_BYTES = 256 * 1024 * 1024
"""A local Ray's object store: results are a few hundred bytes a game, so a small one will do
(Ray's default reserves 30% of the memory)."""

CONNECT_SECONDS = 5.0
"""How long a cluster's address gets to answer before the run gives up (Ray itself would wait
for many minutes on an address where nothing listens)."""

J = TypeVar("J")
R = TypeVar("R")


def need_ray() -> ModuleType:
    """The ``ray`` module, or a :class:`RuleboxError` that says how to install it."""
    try:
        import ray
    except ImportError:
        raise RuleboxError(
            _("--ray needs Ray, which is not installed: pip install 'rulebox[ray]'")) from None
    return ray


def host_port(address: str) -> tuple[str, int] | None:
    """The host and port of ``head:6379`` or ``ray://head:10001`` (``None`` for ``auto`` and
    other addresses that name no port)."""
    rest = address.split("://", 1)[1] if "://" in address else address
    host, sep, port = rest.rpartition(":")
    if not sep or not host or not plain_digits(port):
        return None
    return host.strip("[]"), int(port)


def check_reachable(address: str, seconds: float = CONNECT_SECONDS) -> None:
    """A :class:`RuleboxError` unless something accepts a connection at ``address``'s host and
    port within ``seconds`` (an address without a port is left to Ray)."""
    hp = host_port(address)
    if hp is None:
        return
    try:
        with socket.create_connection(hp, timeout=seconds):
            pass
    except OSError as e:
        raise RuleboxError(_("no Ray cluster answers at {address}: {error}")
                           .format(address=address, error=e)) from None


def resolve_auto(address: str) -> str:
    """The address ``auto`` stands for (``RAY_ADDRESS``, then the cluster that ``ray start``
    last recorded on this machine), as Ray resolves it; any other address as it is."""
    if address != "auto":
        return address
    try:
        from ray._private.services import canonicalize_bootstrap_address

        found = canonicalize_bootstrap_address("auto")
    except Exception:  # a private function of Ray: if it moves, Ray reports what it finds
        return address
    return found or address


def _call(fn: Callable[[J], R], job: J, lang: str) -> R:
    """Run ``fn(job)`` in the language ``lang`` (the body of every Ray task)."""
    with use_language(lang):
        return fn(job)


class RayCluster:
    """A connection to Ray for one run: ``with RayCluster(address) as cluster: ...``.

    ``address`` ``None`` or :data:`LOCAL` starts a local Ray with ``num_cpus`` CPUs (default:
    the machine's) and shuts it down at the end; any other address (``auto``,
    ``ray://head:10001``, ``head:6379``) is passed to ``ray.init``, and the cluster's CPUs
    decide how many games run at once. If this process is already connected to Ray (a test's
    fixture, a notebook), that connection is used and left open."""

    def __init__(self, address: str | None = None, num_cpus: int | None = None) -> None:
        self.address = address or LOCAL
        self.num_cpus = num_cpus
        self._ray: ModuleType | None = None
        self._started = False
        self._task: Any = None

    @property
    def local(self) -> bool:
        """Whether this run starts its own Ray on this machine."""
        return self.address == LOCAL

    def __enter__(self) -> RayCluster:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def start(self) -> RayCluster:
        """Connect (start the local Ray); a :class:`RuleboxError` if Ray is missing or cannot
        be started or reached."""
        ray = need_ray()
        self._ray = ray
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False}
            if self.local:
                kwargs.update(num_cpus=self.num_cpus or os.cpu_count() or 1,
                              object_store_memory=OBJECT_STORE_BYTES,
                              logging_level=logging.ERROR)
            else:
                kwargs["logging_level"] = logging.WARNING
                check_reachable(resolve_auto(self.address))
            try:
                ray.init(address=self.address, **kwargs)
            except Exception as e:  # Ray raises ConnectionError, RuntimeError, ValueError ...
                message = _("could not start or reach Ray at {address}: {error}").format(
                    address=self.address, error=e)
                if not self.local and "RAY_AUTH_MODE" not in os.environ:
                    message += " " + _("(a cluster with token authentication also needs "
                                       "RAY_AUTH_MODE=token here, and its token in "
                                       "RAY_AUTH_TOKEN or ~/.ray/auth_token)")
                raise RuleboxError(message) from None
            self._started = True
        self._task = ray.remote(num_cpus=1)(_call)
        return self

    def close(self) -> None:
        """Shut down the Ray this run started (a connection it found stays open)."""
        if self._started and self._ray is not None:
            self._ray.shutdown()
        self._started = False
        self._task = None

    def cpus(self) -> int:
        """The CPUs the cluster has for tasks (all nodes together)."""
        ray = self._connected()
        return int(ray.cluster_resources().get("CPU", 0))

    def describe(self) -> str:
        """Where the games run, for a person: ``a local Ray (2 CPUs)``."""
        cpus = self.cpus()
        if self.local:
            return ngettext("a local Ray ({n} CPU)", "a local Ray ({n} CPUs)", cpus).format(n=cpus)
        return ngettext("the Ray cluster at {address} ({n} CPU)",
                        "the Ray cluster at {address} ({n} CPUs)", cpus).format(
            address=self.address, n=cpus)

    def map(self, fn: Callable[[J], R], jobs: Sequence[J]) -> Iterator[R]:
        """``fn(job)`` for every job, each as a Ray task, answered as they finish (in any
        order: the caller sorts). ``fn`` must be a module-level function (Ray imports it by
        name on the nodes). An exception in a task is raised here as itself (a
        :class:`RuleboxError` stays one), and the tasks not yet done are cancelled."""
        ray = self._connected()
        lang = language()
        pending = [self._task.remote(fn, job, lang) for job in jobs]
        try:
            while pending:
                ready, pending = ray.wait(pending, num_returns=1)
                if pending:  # collect whatever else has finished meanwhile
                    more, pending = ray.wait(pending, num_returns=len(pending), timeout=0)
                    ready += more
                for ref in ready:
                    yield self._get(ref)
        finally:
            for ref in pending:
                ray.cancel(ref)

    def _get(self, ref: Any) -> Any:
        ray = self._connected()
        try:
            return ray.get(ref)
        except ray.exceptions.RayTaskError as e:
            cause = getattr(e, "cause", None)
            if isinstance(cause, Exception):
                raise cause from None
            raise

    def _connected(self) -> ModuleType:
        if self._ray is None or self._task is None:
            raise RuntimeError("use the RayCluster in a with block")
        return self._ray
