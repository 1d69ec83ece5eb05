"""What the routes share, as FastAPI dependencies: the service's bounds and
network (set by ``create_app``), its pool of worker processes and its table
store (opened by the app's lifespan), all kept on ``app.state``."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Annotated

from fastapi import Depends, Request
from starlette.exceptions import HTTPException

from referee.service.errors import ServiceError
from referee.service.limits import Limits
from referee.service.network import Network
from referee.service.tables import Link

#: How often a request waiting for a worker looks whether its client is still there.
DISCONNECT_POLL = 0.25


def _limits(request: Request) -> Limits:
    return request.app.state.limits


def _network(request: Request) -> Network:
    return request.app.state.network


ServiceLimits = Annotated[Limits, Depends(_limits)]
ServiceNetwork = Annotated[Network, Depends(_network)]


class Jobs:
    """The pool of worker processes (referee/service/pool.py), as one request uses it."""

    def __init__(self, request: Request):
        self.request = request
        self.pool = request.app.state.pool

    async def run(self, job: str, data: dict, recent=None, key=None, bound=None) -> dict:
        """Run a job in the pool; dropped (its task cancelled) when the client
        hangs up before the answer is ready."""
        task = asyncio.ensure_future(self.pool.run(job, data, recent, bound=bound, key=key))
        try:
            while True:
                done, _ = await asyncio.wait({task}, timeout=DISCONNECT_POLL)
                if done:
                    return task.result()
                if await self.request.is_disconnected():
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task
                    raise HTTPException(499, "the client closed the connection; the request was dropped")
        except asyncio.CancelledError:
            task.cancel()
            raise


class Tables:
    """The table store (referee/service/tables.py), whose SQLite calls block:
    each runs in a thread."""

    def __init__(self, request: Request):
        self.store = request.app.state.store
        self.rates = request.app.state.rates

    async def call(self, method: str, *args, **kwargs):
        """``TableStore.method(*args, **kwargs)``, in a thread."""
        return await asyncio.to_thread(getattr(self.store, method), *args, **kwargs)

    async def link(self, token: str, spend: bool = False) -> Link:
        """The link of ``token``: 404 when no table has it, 410 when its player was taken off;
        ``spend``: a request that costs the service work (a line, a question), counted against
        the link's share (429 ``rate-limit`` past it: limits.LinkRates)."""
        link = await self.call("link", token) if 16 <= len(token) <= 64 else None
        if link is None:
            raise ServiceError(404, "unknown-table", "no table has this link: check that it was copied whole")
        if link.removed is not None:
            raise ServiceError(410, "player-removed",
                               f"this was {link.player}'s link, and {link.player} is no longer a player of this "
                               f"table: the host took them off the players line (revision {link.removed}). The "
                               "link answers nothing more; if you still play here, ask the host for your link")
        if spend:
            self.rates.spend(token)
        return link


WorkerJobs = Annotated[Jobs, Depends(Jobs)]
TableAccess = Annotated[Tables, Depends(Tables)]
