"""Computer turns: the table's decisions thought in worker processes (so that a long search never
slows the server), one fair think queue (:class:`rulebox.server.limits.ThinkQueue`), and the
move played and stored, or the failing seat forfeiting by the table's policy.

In a cluster (:mod:`rulebox.server.cluster`) a computer's turn is a job in the database for any
process to take; this process then thinks it through :meth:`Computers.decide`.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from rulebox.ai.base import agent_entries
from rulebox.core.game import Game
from rulebox.core.registry import game_entry, game_ids, new_game
from rulebox.match.agents import AgentSpec
from rulebox.match.seats import Seat
from rulebox.match.table import Decision, Table
from rulebox.server.errors import ApiError
from rulebox.server.limits import Limits, ThinkQueue
from rulebox.server.live import ClusterLink, LiveGame
from rulebox.server.storage import Storage
from rulebox.server.worker import worker_init

RETRY_AFTER = 1.0
"""Seconds before a computer's turn is tried again after storage refused its move."""


class Computers:
    """The computer players of one server process."""

    def __init__(self, storage: Storage, limits: Limits, think_workers: int,
                 broadcast: Callable[[LiveGame], Awaitable[None]],
                 processes: bool = True) -> None:
        self.storage = storage
        self.limits = limits
        self.broadcast = broadcast
        self.queue = ThinkQueue(think_workers, limits.short_think)
        self.cluster: ClusterLink | None = None
        """Set when the process is one of a cluster: turns are then jobs in the database."""
        self._threads = ThreadPoolExecutor(think_workers, thread_name_prefix="rb-ai")
        self._procs: ProcessPoolExecutor | None = ProcessPoolExecutor(
            think_workers, mp_context=multiprocessing.get_context("spawn"),
            initializer=worker_init, initargs=(os.getpid(),)) if processes else None
        self._closed = False

    async def warm(self) -> None:
        """Start every think worker now and load the games and agents in it, so that no
        person's first computer reply waits for a process to start (which takes seconds on a
        busy machine, longer than ``easy`` thinks)."""
        if self._procs is None:
            return
        loop = asyncio.get_running_loop()
        jobs = [loop.run_in_executor(self._procs, warm_job, 0.5) for _ in range(self.queue.slots)]
        with contextlib.suppress(Exception):
            await asyncio.gather(*jobs)

    def close(self) -> None:
        """Stop thinking: threads released, worker processes stopped."""
        self._closed = True
        self._threads.shutdown(wait=False, cancel_futures=True)
        self.stop_processes()

    def stop_processes(self) -> None:
        """Think in threads of this process from now on (no worker processes)."""
        if self._procs is not None:
            stop_workers(self._procs)
            self._procs = None

    def kick(self, live: LiveGame) -> None:
        """Start the computer player task if a computer is to move (call with the lock held)."""
        if live.waiting:  # an open game starts when its last seat is taken (issue 27)
            return
        if self.cluster is not None:  # a job in the database, for any process to take
            self.cluster.kick(live)
            return
        if self._closed or live.computer_task is not None:
            return
        if live.table.computer_to_move() is not None:
            live.computer_task = asyncio.get_running_loop().create_task(self._turns(live))

    async def _think(self, live: LiveGame, decision: Decision, state: dict[str, Any],
                     snapshot: Game) -> Any:
        """The agent's move for ``decision``: in a worker process from the table's state, or,
        when there is no working worker process, in a thread here (the same agent: a broken
        pool is not the agent's failure). An agent's own error propagates."""
        loop = asyncio.get_running_loop()
        seconds = float(decision.spec.get("time") or self.limits.max_time)

        async def job() -> Any:
            if self._procs is not None:
                try:
                    return await loop.run_in_executor(self._procs, think_job,
                                                      decision.spec.label, live.entry.id, state)
                except BrokenProcessPool:
                    self._procs = None
            agent = decision.spec.make(live.entry.id)
            return await loop.run_in_executor(self._threads, agent.choose, snapshot)

        return await self.queue.run(seconds, live.all_computer, job)

    async def _turns(self, live: LiveGame) -> None:
        """The computer's turn: the table's decisions, thought out of the lock; a decision
        overtaken by a change (an undo) is thought again; a failing agent forfeits (the
        table's policy) and the failure is stored and shown."""
        try:
            while True:
                async with live.lock:
                    table = live.table
                    decision = table.decision() if not self._closed else None
                    if decision is None:
                        live.computer_task = None
                        return
                    state = table.to_json()
                    snapshot = table.game.clone()
                try:
                    if not await self.decide(live, decision, state, snapshot):
                        continue  # an undo came first: think again about the new position
                except ApiError:  # storage failed (the table went back) or another process
                    await asyncio.sleep(RETRY_AFTER)  # moved first (reloaded): again soon
                    continue
                await self.broadcast(live)
        except asyncio.CancelledError:
            raise
        except Exception:  # never leave a game stuck: note it, and let the next request retry
            live.computer_task = None
            raise

    async def decide(self, live: LiveGame, decision: Decision, state: dict[str, Any],
                     snapshot: Game) -> bool:
        """Think about ``decision`` out of the lock, then, unless the table moved on meanwhile
        (``False``), play the move, or forfeit by the table's policy when the agent failed, and
        store it (:class:`ApiError` when storage refuses: the table goes back)."""
        try:
            move: Any = await self._think(live, decision, state, snapshot)
            error: BaseException | None = None
        except asyncio.CancelledError:
            raise
        except Exception as e:
            move, error = None, e
        async with live.lock:
            table = live.table
            if table.version != decision.version:
                return False
            before = self.storage.snapshot(live)
            if error is not None:
                table.fail(decision, error)
                await self.storage.store_state(live, before)
            else:
                table.play_decision(decision, move)
                await self.storage.commit(live, before)
        return True


def stop_workers(pool: ProcessPoolExecutor) -> None:
    """Stop a pool's worker processes now, even in the middle of a search (a stopping server
    must not leave them thinking), and wait for them, so that nothing is leaked."""
    procs = list(getattr(pool, "_processes", {}).values())  # the pool has no public way
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        with contextlib.suppress(Exception):
            proc.terminate()
    for proc in procs:
        with contextlib.suppress(Exception):
            proc.join(5)
            if proc.is_alive():
                proc.kill()
                proc.join(2)
    with contextlib.suppress(Exception):
        pool.shutdown(wait=True)


def warm_job(hold: float) -> None:
    """Run in a worker process at start: import every game and agent, then hold the worker a
    moment (so that the pool starts a process for each of the warming jobs)."""
    for gid in game_ids():
        game_entry(gid).cls.new({"seed": "1"})
        agent_entries(gid)
    time.sleep(hold)


def think_job(spec: str, game_id: str, state: dict[str, Any]) -> str:
    """Run in a worker process: rebuild the table's game from its state and let the agent of
    ``spec`` choose; answers the move's text. An agent's error propagates (no replacement)."""
    n = new_game(game_id, dict(state["options"])).num_players
    table = Table.from_json(state, [Seat.remote()] * n)
    return str(AgentSpec.parse(spec).make(game_id).choose(table.game))
