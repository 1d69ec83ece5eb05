"""The service's workers: the solver's work runs in worker processes, off the
server's event loop, one request per worker at a time, each with a hard time
bound. A worker is the one bounded worker process of the referee
(referee/run/bounded.py: its start, the time bound, killing one that hangs,
the exit status of one that died, the memory bound), answering the jobs of
referee/service/jobs.py; this module keeps what is the service's: the lanes,
the queues, Busy and Retry-After, and the asyncio around the blocking calls.

Two lanes of workers: ``size`` workers answer questions about transcripts
(check, explain, moves, board), and one more, started when first needed,
answers ``compare`` (a search that may take minutes): a comparison never
holds a worker the checks need, and at most one runs at a time.

A request waits in its lane's queue for a free worker; the queue is bounded
(:class:`Busy`, answered 429 with Retry-After, when full). A request with a
key (a table) goes to the worker that answered that key before, which keeps
its game warm; others take any free worker, preferring one that knows their
transcript. A request whose client has gone while it waits is dropped (its
task is cancelled); one already in a worker is finished there and its answer
discarded — except a comparison, whose worker is stopped and replaced.

A worker says it is ready once it has loaded the referee, and only then takes
requests: the time bound counts the request's own work, never a worker's
start. When a request takes longer than the bound, its worker is killed and
replaced and the request gets a ``solver-limit`` error that names the bound.
A request that finds its worker dead before it starts is sent once more, to a
fresh worker; one whose worker dies under it gets :class:`WorkerEnded`, which
says so. A worker that has grown past its memory bound answers, ends, and is
replaced while its answer goes out; the fresh one first judges again the latest
question about each table its predecessor held (at most ``WARM_TABLES``), so
that a table's players do not meet a cold worker. Ctrl-C in the terminal is the server's:
it finishes the requests in flight and then stops the workers.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor

from referee.base.errors import RefereeError, SolverLimitError
from referee.run import growth
from referee.run.bounded import START_TIME_LIMIT, BoundedWorker, Ended, NotStarted, Reply, TimedOut, WorkerLost

#: Requests that may wait for a worker of the checking lane, per worker.
QUEUE_PER_WORKER = 16
#: Comparisons that may wait for the comparing worker.
COMPARE_QUEUE = 2
#: The module of the jobs the workers answer (run in the workers only: the server never loads the solver).
JOBS_MODULE = "referee.service.jobs"
#: The tables a fresh worker, renewed past its memory bound, judges again before it
#: takes requests (the latest question about each), so that they are not cold.
WARM_TABLES = 8
#: The tables whose latest question the pool remembers (to warm a renewed worker).
KEPT_QUESTIONS = 256


class _Worker:
    """A worker process (referee/run/bounded.py, serving referee/service/jobs.py)
    and what the pool knows of it."""

    def __init__(self, warm: bool = True, memory: tuple[int, float] = (growth.FLOOR, growth.GROWTH)) -> None:
        self.process = BoundedWorker(JOBS_MODULE, warm=warm, memory=memory, start_limit=START_TIME_LIMIT)
        self.process.start()
        self.recent: deque = deque(maxlen=8)  # the transcripts asked about lately (the worker keeps their sessions)
        self.keys: set = set()  # the tables this worker holds warm
        self.served = 0
        self.counters: dict = {"sessions_built": 0, "solver_calls": 0}  # as the worker last said (jobs.counters)

    @property
    def pid(self) -> int | None:
        return self.process.pid

    def stats(self) -> dict:
        """Its process, the tables it holds, the requests it answered, and what
        they cost it (as it said with its last answer: jobs.counters)."""
        return {"pid": self.pid, "tables": len(self.keys), "served": self.served, **self.counters}

    def wait_ready(self) -> None:
        """Block until the worker has loaded the referee (blocking: run in a thread)."""
        self.process.wait_ready()

    def call(self, name: str, request: dict, limit: float) -> Reply:
        return self.process.call(name, request, limit)

    def stop(self, kill: bool = False) -> None:
        self.process.stop(kill)


class InternalError(Exception):
    """A request the referee failed on: not the user's input, not a bound."""


class WorkerEnded(Exception):
    """The worker judging a request ended (killed from outside, out of memory)."""


class Busy(Exception):
    """The queue is full; ``retry_after`` seconds is a fair time to wait."""

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


class _Lane:
    """Workers of one kind and the requests waiting for them."""

    def __init__(self, pool: "WorkerPool", size: int, queue: int, name: str) -> None:
        self.pool, self.size, self.queue, self.name = pool, size, queue, name
        self.warm = name != "comparing"  # a comparison needs no warm sessions: its worker starts at once
        self.workers: list[_Worker] = []
        self.idle: list[_Worker] = []
        self.waiting = 0
        self.running = 0
        self._free: asyncio.Condition | None = None
        self._starting: asyncio.Task | None = None
        self.seconds = deque(maxlen=32)  # how long recent requests held a worker (for Retry-After)

    def start(self) -> None:
        """Start the workers without waiting for them (the pool's constructor)."""
        for _ in range(self.size - len(self.workers)):
            self.workers.append(self.pool.new_worker(self.warm))

    async def ensure(self) -> None:
        """Start the lane's workers if they are not, and wait until they are ready."""
        if self._free is None:  # made in the server's event loop
            self._free = asyncio.Condition()
        if self._starting is None:
            self._starting = asyncio.ensure_future(self._ready_all())
        try:
            await asyncio.shield(self._starting)
        except WorkerLost as error:
            self._starting = None  # the next request tries again
            raise WorkerEnded(f"the service's worker processes could not be started ({error}); "
                              "the request was not judged") from None

    async def _ready_all(self) -> None:
        loop = asyncio.get_running_loop()
        if not self.workers:
            self.workers = list(await asyncio.gather(*(loop.run_in_executor(None, self.pool.new_worker, self.warm)
                                                       for _ in range(self.size))))

        async def ready(worker: _Worker) -> None:
            try:
                await loop.run_in_executor(None, worker.wait_ready)
            except WorkerLost:  # once more, with a fresh process
                fresh = await loop.run_in_executor(None, self.pool.new_worker, self.warm)
                self.workers[self.workers.index(worker)] = fresh
                await loop.run_in_executor(None, worker.stop, True)
                self.pool.replaced += 1
                await loop.run_in_executor(None, fresh.wait_ready)

        await asyncio.gather(*(ready(w) for w in list(self.workers)))
        async with self._free:
            self.idle.extend(w for w in self.workers if w not in self.idle)
            self._free.notify_all()

    def retry_after(self) -> int:
        typical = sorted(self.seconds)[len(self.seconds) // 2] if self.seconds else 1.0
        return max(1, min(60, round(typical * (self.waiting + self.running) / max(1, self.size))))

    async def take(self, key, recent) -> _Worker:
        if self.waiting >= self.queue and (self._free is None or self._choose(key, recent) is None):
            raise Busy(f"the service is busy: {self.waiting} requests are waiting for its {self.size} "
                       f"{self.name} worker{'s' if self.size != 1 else ''}; ask again shortly",
                       self.retry_after())
        self.waiting += 1
        try:
            await self.ensure()
            async with self._free:
                await self._free.wait_for(lambda: self._choose(key, recent) is not None)
                worker = self._choose(key, recent)
                self.idle.remove(worker)
        finally:
            self.waiting -= 1
        self.running += 1
        if key is not None and not any(key in w.keys for w in self.workers):
            worker.keys.add(key)
        if recent is not None:
            worker.recent.append(recent)
        return worker

    def _choose(self, key, recent) -> _Worker | None:
        if not self.idle:
            return None
        if key is not None:
            owner = next((w for w in self.workers if key in w.keys), None)
            if owner is not None:
                return owner if owner in self.idle else None
            # a new table goes to the worker holding the fewest tables
            return min(self.idle, key=lambda w: (len(w.keys), w.served))
        return next((w for w in self.idle if recent is not None and recent in w.recent), self.idle[0])

    async def give(self, worker: _Worker) -> None:
        self.running -= 1
        worker.served += 1
        async with self._free:
            if worker in self.workers:
                self.idle.append(worker)
            self._free.notify_all()

    async def replace(self, worker: _Worker, kill: bool = True, grown: bool = False) -> _Worker:
        """Stop a worker and start another, ready, in its place (the tables it
        held go with the new one, cold). Counted as replaced, or as renewed
        when it had grown past its memory bound (``grown``)."""
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, worker.stop, kill)
        fresh = await loop.run_in_executor(None, self.pool.new_worker, self.warm)
        fresh.keys = worker.keys
        try:
            await loop.run_in_executor(None, fresh.wait_ready)
        except WorkerLost:
            pass  # found dead when used: that request starts another
        index = self.workers.index(worker) if worker in self.workers else None
        if index is not None:
            self.workers[index] = fresh
        else:
            self.workers.append(fresh)
        if grown:
            self.pool.renewed += 1
        else:
            self.pool.replaced += 1
        return fresh


class WorkerPool:
    """``size`` worker processes for questions, one for comparisons;
    ``await pool.run(job, request)``."""

    def __init__(self, size: int, time_limit: float, queue: int | None = None,
                 compare_queue: int = COMPARE_QUEUE, memory: tuple[int, float] = (growth.FLOOR, growth.GROWTH)) -> None:
        self.time_limit = time_limit
        self.memory = memory  # a worker past this bound (referee/run/growth.py) is replaced after answering
        self._threads = ThreadPoolExecutor(max_workers=size + 1, thread_name_prefix="referee-pipe")
        self.checks = _Lane(self, size, queue if queue is not None else QUEUE_PER_WORKER * size, "checking")
        self.compares = _Lane(self, 1, compare_queue, "comparing")
        self.checks.start()
        self.replaced = 0
        self.renewed = 0  # workers replaced after answering, grown past their memory bound
        self.dropped = 0  # requests whose client left before their answer
        self._background: set = set()
        self._latest: dict = {}  # a table's key -> the latest question about it (to warm a renewed worker)

    def new_worker(self, warm: bool) -> _Worker:
        return _Worker(warm, self.memory)

    def pids(self) -> list[int]:
        return [w.pid for lane in (self.checks, self.compares) for w in lane.workers if w.pid]

    def stats(self) -> dict:
        return {"workers": len(self.checks.workers), "waiting": self.checks.waiting, "running": self.checks.running,
                "compare_waiting": self.compares.waiting, "replaced": self.replaced, "renewed": self.renewed,
                "dropped": self.dropped,
                "by_worker": [w.stats() for w in self.checks.workers]}

    async def ready(self) -> None:
        await self.checks.ensure()

    async def run(self, name: str, request: dict, recent=None, bound: tuple[float, str] | None = None,
                  key=None) -> dict:
        """Answer ``request`` with the job ``name`` in a worker. ``key``: the table
        the request is about (it goes to the worker holding that table);
        ``recent``: the transcript, so that a worker that knows it is preferred;
        ``bound``: a time bound of its own for this job and the option that sets
        it (else the pool's). A comparison runs in its own lane."""
        lane = self.compares if name == "compare" else self.checks
        limit, option = bound or (self.time_limit, "referee serve --time-limit")
        if key is not None and "transcript" in request:
            self._latest.pop(key, None)
            self._latest[key] = request
            if len(self._latest) > KEPT_QUESTIONS:
                self._latest.pop(next(iter(self._latest)))
        try:
            worker = await lane.take(key, recent)
        except asyncio.CancelledError:
            self.dropped += 1
            raise
        for attempt in (1, 2):
            try:
                return await self._call(lane, worker, name, request, limit, option)
            except NotStarted:
                worker = await lane.replace(worker)
                if attempt == 2:
                    await lane.give(worker)
                    raise WorkerEnded("the worker for this request could not be started twice running; "
                                      "the request was not judged") from None
        raise AssertionError("unreachable")

    async def _call(self, lane: _Lane, worker: _Worker, name: str, request: dict, limit: float, option: str) -> dict:
        """One request in ``worker``; the worker goes back to the lane (or is
        replaced) however it ends, except when the request must be sent again."""
        loop = asyncio.get_running_loop()
        started = time.monotonic()
        call = loop.run_in_executor(self._threads, worker.call, name, request, limit)
        call.add_done_callback(lambda done: done.cancelled() or done.exception())  # retrieved here, said below
        try:
            reply = await asyncio.shield(call)
        except NotStarted:
            raise  # the caller replaces the worker and sends the request again
        except TimedOut:
            await lane.give(await lane.replace(worker))
            raise SolverLimitError(f"the request took longer than the service's bound of {limit:g} s "
                                   f"of solver time per request ({option})") from None
        except Ended as ended:
            code = ended.status
            await lane.give(await lane.replace(worker))
            how = f"was killed by signal {-code}" if code is not None and code < 0 else f"ended (exit code {code})"
            raise WorkerEnded(f"the worker judging this request {how} after {time.monotonic() - started:.1f} s "
                              "(out of memory, or stopped from outside); the request was not answered — "
                              "send it again") from None
        except asyncio.CancelledError:  # the client left while its request was being judged
            self.dropped += 1
            self._in_background(self._finish(lane, worker, call, kill=name == "compare"))
            raise
        worker.counters = reply.counters
        lane.seconds.append(time.monotonic() - started)
        if reply.grown:  # past its memory bound: a fresh worker takes its place, while this answer goes out
            self._in_background(self._renew(lane, worker))
        else:
            await lane.give(worker)
        if reply.status == "ok":
            return reply.value
        if reply.status == "error":
            raise _Relayed(reply.value)
        raise InternalError(reply.value)

    def _in_background(self, work) -> None:
        task = asyncio.ensure_future(work)
        self._background.add(task)  # held until done (the loop keeps only weak references)
        task.add_done_callback(self._background.discard)

    async def _renew(self, lane: _Lane, worker: _Worker) -> None:
        """A worker that has grown past its memory bound, stopped (it is idle)
        and replaced; the tables it held go with the new one, which judges them
        again before it takes a request."""
        fresh = await lane.replace(worker, kill=False, grown=True)
        if not await self._warm(fresh):  # grown past its bound by the warming itself: a fresh one, cold
            fresh = await lane.replace(fresh, kill=False, grown=True)
        await lane.give(fresh)

    async def _warm(self, worker: _Worker) -> bool:
        """Check the latest question about each table ``worker`` holds, in it: its
        session and engine are then warm, as its predecessor's were. A check that
        fails costs only the warmth (the table's next question says what is wrong).
        False when the worker ended meanwhile (grown past its bound, or lost)."""
        loop = asyncio.get_running_loop()
        for key in [k for k in self._latest if k in worker.keys][-WARM_TABLES:]:
            try:
                reply = await loop.run_in_executor(self._threads, worker.call, "check", self._latest[key],
                                                   self.time_limit)
            except WorkerLost:
                return False
            worker.counters = reply.counters
            if reply.grown:
                return False
        return True

    async def _finish(self, lane: _Lane, worker: _Worker, call, kill: bool) -> None:
        """After a client left: a comparison's worker is replaced at once; any
        other request is left to finish (a worker cannot be interrupted without
        losing its warm games) and its answer discarded."""
        if kill:
            await lane.give(await lane.replace(worker))
            return
        try:
            reply = await call  # bounded by the request's own time bound
        except Exception:
            await lane.give(await lane.replace(worker))
            return
        if reply.grown:
            await self._renew(lane, worker)
        else:
            await lane.give(worker)

    def close(self) -> None:
        for lane in (self.checks, self.compares):
            for worker in lane.workers:
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
