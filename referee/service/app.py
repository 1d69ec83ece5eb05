"""The referee as an HTTP service (``referee serve``): a JSON API and the page
for a table (referee/service/web/), served by one process on localhost.

Endpoints (docs/service.md; the OpenAPI document is served at /openapi.json),
one router per concern in referee/service/routes/: POST /api/check,
/api/explain, /api/moves, /api/board take a transcript (its text) and answer
as the CLI's ``--json`` does; POST /api/compare searches for positions where
two rules readings disagree (``referee compare``); /api/tables/... keep a
club's tables; GET /api/games and /api/readings list what the referee knows.
The solver's work runs in worker processes (referee/service/pool.py), never
on the event loop.

Errors are JSON ``{"error": {"code", "message", "file", "line", "column"}}``
(line and column where the error has a place in the transcript): 400 for a
body that is not JSON, 413 for a request over the size bound, 422 for a
request the referee cannot answer (a transcript it cannot read, a move that
does not exist, the solver's time bound hit), 404 for an unknown game or path
(referee/service/errors.py). A malformed request is never a 500.

Adding an endpoint: a job in referee/service/jobs.py, a request model in
referee/service/models.py, and a function in the router of its concern that
validates its request with the model and returns ``await answerer.answer("job", request)``.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from fastapi import FastAPI

from referee import __version__
from referee.service.errors import HANDLERS
from referee.service.limits import Limits, LinkRates
from referee.service.middleware import BodyLimit, HostCheck, SecurityHeaders
from referee.service.network import Network
from referee.service.pool import WorkerPool
from referee.service.routes import about, page, questions, tables
from referee.service.tables import TableStore, default_folder


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI):
    """The table store and the pool of worker processes live as long as the app."""
    limits = app.state.limits
    app.state.store = TableStore(app.state.folder)
    app.state.pool = WorkerPool(limits.workers, limits.time_limit, queue=limits.queue)
    warming = asyncio.ensure_future(app.state.pool.ready())  # the workers load the referee meanwhile
    try:
        yield
    finally:
        warming.cancel()
        app.state.pool.close()
        app.state.store.close()


def create_app(limits: Limits | None = None, network: Network | None = None,
               data: str | Path | None = None) -> FastAPI:
    """The service: the API, the tables (kept in ``data``, default the user's
    data folder), the page, and a pool of worker processes that lives as long
    as the app (started and stopped by the server's lifespan)."""
    limits = limits or Limits()
    network = network or Network()
    app = FastAPI(title="referee", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  exception_handlers=HANDLERS,
                  description="A rules referee for board games: check recorded games, explain disputed moves, "
                              "list what a player may do, draw the position, keep the tables of a club. "
                              "See docs/service.md.")
    app.state.limits, app.state.network, app.state.rates = limits, network, LinkRates()
    app.state.folder = Path(data) if data is not None else default_folder()
    for router in (questions.router, tables.router, about.router, page.router):
        app.include_router(router)
    app.add_middleware(BodyLimit, limit=limits.max_body, timeout=limits.body_timeout)
    app.add_middleware(HostCheck, names=network.names)
    app.add_middleware(SecurityHeaders)
    return app
