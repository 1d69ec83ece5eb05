"""Worker processes for the service: the solver's work runs in them, off the
server's event loop, one request per worker at a time, each with a hard time
bound.

A request waits for a free worker (preferring one that was asked about the
same transcript lately, since it keeps that game's session), is sent to it over a pipe (the job's name
and the request, plain JSON values), and its answer comes back the same way.
When a request takes longer than the bound, its worker is killed and replaced:
the request gets a ``solver-limit`` error that names the bound, and the other
workers go on undisturbed. The workers are started with 'spawn', so they share
nothing with the server's threads.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import signal
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection

from .errors import RefereeError, SolverLimitError


def _serve(conn: Connection) -> None:
    """A worker's loop: answer jobs until the pipe closes. Ctrl-C in the
    terminal reaches the workers too; they leave it to the server, which
    finishes the requests in flight and then closes their pipes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from .jobs import JOBS  # imported in the worker: clingo and the games load here, once

    while True:
        try:
            name, request = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        try:
            answer = ("ok", JOBS[name](request))
        except RefereeError as error:
            answer = ("error", error.to_json())
        except Exception as error:  # a bug: the server reports it as one, and stays up
            answer = ("crash", f"{type(error).__name__}: {error}")
        try:
            conn.send(answer)
        except (OSError, ValueError):
            return


class _Worker:
    def __init__(self, context) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child,), daemon=True, name="referee-worker")
        self.process.start()
        child.close()
        self.recent: deque = deque(maxlen=8)  # the transcripts asked about lately (the worker keeps their sessions)

    def call(self, name: str, request: dict):
        self.conn.send((name, request))
        return self.conn.recv()

    def stop(self, kill: bool = False) -> None:
        if kill:
            self.process.kill()
        self.conn.close()  # the worker's loop ends when its pipe closes
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


class InternalError(Exception):
    """A worker failed on something that is not the user's input (a bug)."""


class WorkerPool:
    """``size`` worker processes; ``await pool.run(job, request)``."""

    def __init__(self, size: int, time_limit: float) -> None:
        self.time_limit = time_limit
        self._context = multiprocessing.get_context("spawn")
        self._threads = ThreadPoolExecutor(max_workers=size, thread_name_prefix="referee-pipe")
        self._workers = [_Worker(self._context) for _ in range(size)]
        self._idle = list(self._workers)
        self._free: asyncio.Condition | None = None

    async def _take(self, key) -> _Worker:
        if self._free is None:  # made in the server's event loop
            self._free = asyncio.Condition()
        async with self._free:
            await self._free.wait_for(lambda: self._idle)
            worker = next((w for w in self._idle if key in w.recent), self._idle[0])
            self._idle.remove(worker)
        worker.recent.append(key)
        return worker

    async def _give(self, worker: _Worker) -> None:
        async with self._free:
            self._idle.append(worker)
            self._free.notify()

    async def run(self, name: str, request: dict, key=None,
                  bound: tuple[float, str] | None = None) -> dict:
        """Answer ``request`` with the job ``name`` in a worker; ``key`` names the
        transcript, so that the worker that knows it is preferred. ``bound``: a time
        bound of its own for this job and the option that sets it (else the pool's)."""
        limit, option = bound or (self.time_limit, "referee serve --time-limit")
        worker = await self._take(key)
        loop = asyncio.get_running_loop()
        started = time.monotonic()
        call = loop.run_in_executor(self._threads, worker.call, name, request)
        try:
            status, answer = await asyncio.wait_for(asyncio.shield(call), limit)
        except asyncio.TimeoutError:
            worker = await self._replace(worker, call)
            raise SolverLimitError(f"the request took longer than the service's bound of {limit:g} s "
                                   f"of solver time per request ({option})") from None
        except (EOFError, OSError):  # the worker died
            worker = await self._replace(worker, call)
            raise InternalError(f"a worker process ended after {time.monotonic() - started:.1f} s") from None
        finally:
            await self._give(worker)
        if status == "ok":
            return answer
        if status == "error":
            raise _Relayed(answer)
        raise InternalError(answer)

    async def _replace(self, worker: _Worker, call) -> _Worker:
        """Kill a worker (its pending call then fails) and start another."""
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, worker.stop, True)
        try:
            await call
        except Exception:
            pass
        self._workers.remove(worker)
        fresh = await loop.run_in_executor(None, _Worker, self._context)
        self._workers.append(fresh)
        return fresh

    def close(self) -> None:
        for worker in self._workers:
            worker.stop()
        self._threads.shutdown(wait=False, cancel_futures=True)


class _Relayed(RefereeError):
    """A RefereeError raised in a worker, relayed as it was."""

    def __init__(self, data: dict) -> None:
        super().__init__(data.get("message", ""))
        self.code = data.get("code", "error")
        self.data = data

    def to_json(self) -> dict:
        return dict(self.data)
