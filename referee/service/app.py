"""The referee as an HTTP service (``referee serve``): a JSON API and the page
for a table (referee/service/web/), served by one process on localhost.

Endpoints (docs/service.md; the OpenAPI document is served at /openapi.json):
POST /api/check, /api/explain, /api/moves, /api/board take a transcript (its
text) and answer as the CLI's ``--json`` does; POST /api/compare searches for
positions where two rules readings disagree (``referee compare``); GET
/api/games and /api/readings list what the referee knows. The solver's work runs in worker
processes (referee/service/pool.py), never on the event loop.

Errors are JSON ``{"error": {"code", "message", "file", "line", "column"}}``
(line and column where the error has a place in the transcript): 400 for a
body that is not JSON, 413 for a request over the size bound, 422 for a
request the referee cannot answer (a transcript it cannot read, a move that
does not exist, the solver's time bound hit), 404 for an unknown game or path.
A malformed request is never a 500.

Adding an endpoint: a job in referee/service/jobs.py and a function here that validates
its request with a model and returns ``await _answer("job", request)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import socket
import sys
import time
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator
from starlette.exceptions import HTTPException

from referee import __version__
from referee.ask.session import readings
from referee.base.errors import RefereeError
from referee.game.registry import UnknownGameError, default_game, known_games
from referee.service.pool import Busy, InternalError, WorkerEnded, WorkerPool
from referee.service.server import HEAD_TIMEOUT, bounded, log_config
from referee.service.tables import Link, TableError, TableStore, default_folder

#: Default bounds of one request.
MAX_TRANSCRIPT_BYTES = 256 * 1024
TIME_LIMIT = 20.0
#: The bound of one comparison of two readings (a search over several scenarios).
COMPARE_TIME_LIMIT = 120.0
WORKERS = 2
#: Seconds a request body may take to arrive, from its first byte to its last.
BODY_TIMEOUT = 10.0
#: How often a request waiting for a worker looks whether its client is still there.
DISCONNECT_POLL = 0.25
#: The page's files (packaged with the referee: no build step).
WEB = Path(__file__).with_name("web")
PAGE_FILES = {"index.html": "text/html", "app.js": "text/javascript", "style.css": "text/css"}


class Limits:
    """The bounds of one service: transcript size, solver time, worker processes,
    the queue, how long a request's head and its body may take to arrive."""

    def __init__(self, max_bytes: int = MAX_TRANSCRIPT_BYTES, time_limit: float = TIME_LIMIT, workers: int = WORKERS,
                 compare_time_limit: float = COMPARE_TIME_LIMIT, queue: int | None = None,
                 body_timeout: float = BODY_TIMEOUT, head_timeout: float = HEAD_TIMEOUT):
        self.max_bytes = max_bytes
        self.time_limit = time_limit
        self.workers = workers
        self.compare_time_limit = compare_time_limit
        self.queue = queue
        self.body_timeout = body_timeout
        self.head_timeout = head_timeout

    @property
    def max_body(self) -> int:
        """The most bytes a request body may hold: the transcript, JSON-escaped
        (up to 6 bytes a character), and the other fields."""
        return 6 * self.max_bytes + 16 * 1024


class Network:
    """Where the service listens and who may reach it. On loopback (the
    default) the API answers anyone on this computer, as the command line
    does. Beyond loopback (``network``), a transcript is answered only through
    a table's links — no anonymous view that sees every player's hidden
    figures — and tables are created only from this computer. Either way a
    request must name one of ``names`` in its Host header (a page of another
    site cannot reach the service through a name it controls)."""

    def __init__(self, host: str = "127.0.0.1", names: tuple[str, ...] = ()):
        self.host = host
        self.network = not is_loopback(host)
        self.names = served_names(host, names)


def is_loopback(host: str) -> bool:
    if host.casefold() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def served_names(host: str, extra: tuple[str, ...] = ()) -> frozenset[str]:
    """The names a request may give in its Host header: loopback's, the
    address served, ``extra`` (``--name``), and for a wildcard address this
    computer's name and addresses."""
    names = {"127.0.0.1", "localhost", "::1", host.strip("[]").casefold()}
    names.update(n.strip("[]").casefold() for n in extra)
    if host in ("0.0.0.0", "::", ""):
        hostname = socket.gethostname()
        names.update({hostname.casefold(), f"{hostname}.local".casefold()})
        with contextlib.suppress(OSError):
            names.update(info[4][0] for info in socket.getaddrinfo(hostname, None))
        with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing address
            names.add(probe.getsockname()[0])
    names.discard("")
    return frozenset(names)


# -- requests ---------------------------------------------------------------------------


def _text(value: str | None) -> str | None:
    """JSON may carry lone surrogates (\\ud800), which are not text: refused here."""
    if value is not None:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as error:
            before = value[:error.start]
            line, column = before.count("\n") + 1, error.start - (before.rfind("\n") + 1) + 1
            raise ValueError(f"not Unicode text: a lone surrogate at line {line}, column {column}") from None
    return value


class TranscriptRequest(BaseModel):
    """A question about a transcript."""

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)

    transcript: str = Field(description="The transcript's text (docs/notation.md).")
    name: str = Field("transcript.txt", max_length=200, description="The file name shown in answers.")
    rules: str | None = Field(None, max_length=40,
                              description="The rules reading (default: the transcript's 'rules:' line, else en).")
    viewpoint: str | None = Field(None, alias="as", max_length=200,
                                  description="Answer as this player sees the game (a name from the players "
                                              "line): another player's hidden figures (such as gold behind a screen) are "
                                              "never stated. Without it the referee sees everything.")
    tolerant: bool = Field(False, description="Set aside a line that cannot be read (listed in `unread` of a "
                                              "check) and answer about the others, instead of an error.")

    _unicode = field_validator("transcript", "name", "rules", "viewpoint")(lambda cls, value: _text(value))


class CheckRequest(TranscriptRequest):
    pass


class ExplainRequest(TranscriptRequest):
    move: int | None = Field(None, ge=1, le=1_000_000, description="The move's number (1 = the first move).")
    line: int | None = Field(None, ge=1, le=1_000_000, description="The first move on this line.")
    all: bool = Field(False, description="List every alternative, not a bounded summary.")


class MovesRequest(TranscriptRequest):
    after: int | None = Field(None, ge=0, le=1_000_000, description="After move N (default: the last move).")
    all: bool = Field(False, description="List every move, not a bounded summary.")


class BoardRequest(TranscriptRequest):
    after: int | None = Field(None, ge=0, le=1_000_000, description="After move N (default: the last move).")


class CompareRequest(BaseModel):
    """Two rules readings of a game, to search for positions they judge differently."""

    model_config = ConfigDict(extra="forbid", strict=True)

    game: str = Field(default_game(), max_length=40, description="The game.")
    rules: list[Annotated[str, Field(max_length=40)]] = Field(
        min_length=2, max_length=2, description="The two readings, e.g. [\"en\", \"zh-003\"] (GET /api/readings).")
    max_size: int | None = Field(None, ge=1, le=12, description="At most this many free facts in a position "
                                                                 "(default 8, as referee compare --max-size).")
    seconds: float | None = Field(None, ge=0.5, le=60, description="Time bound per scenario searched (default 20 s).")


class TableCreate(BaseModel):
    """A new table: the transcript as it stands (its header at least)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    transcript: str = Field(description="The transcript so far: its header (game, players...) and any moves.")
    name: str = Field("table", min_length=1, max_length=100, description="The table's name, shown on its page.")
    rules: str | None = Field(None, max_length=40, description="The rules reading (default: the transcript's).")

    _unicode = field_validator("transcript", "name", "rules")(lambda cls, value: _text(value))


class TableLine(BaseModel):
    """A line added at the end of a table's transcript."""

    model_config = ConfigDict(extra="forbid", strict=True)

    line: str = Field(max_length=2000, description="One line of the transcript (docs/notation.md).")
    revision: int | None = Field(None, ge=0, description="The revision the writer saw: the line is refused (409) "
                                                          "if the table has changed since. Without it, the line "
                                                          "is added after whatever came meanwhile.")

    _unicode = field_validator("line")(lambda cls, value: _text(value))


class TableCorrection(BaseModel):
    """The host's correction: the whole transcript as it should stand, or another reading."""

    model_config = ConfigDict(extra="forbid", strict=True)

    revision: int = Field(ge=0, description="The revision corrected: refused (409) if the table has changed since.")
    transcript: str | None = Field(None, description="The whole text as it should now stand (default: unchanged).")
    rules: str | None = Field(None, max_length=40, description="The table's rules reading from now on "
                                                                "(given as null: the transcript's own).")

    _unicode = field_validator("transcript", "rules")(lambda cls, value: _text(value))


class TableQuestion(BaseModel):
    """A question about a revision of a table (default: the current one)."""

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)

    revision: int | None = Field(None, ge=0, description="The revision asked about (default: the current one).")
    rules: str | None = Field(None, max_length=40, description="Another reading than the table's.")
    viewpoint: str | None = Field(None, alias="as", max_length=200,
                                  description="The host's link only: answer as this player. A player's link "
                                              "always answers as that player.")
    move: int | None = Field(None, ge=1, le=1_000_000)
    line: int | None = Field(None, ge=1, le=1_000_000)
    after: int | None = Field(None, ge=0, le=1_000_000)
    all: bool = False

    _unicode = field_validator("rules", "viewpoint")(lambda cls, value: _text(value))


# -- errors -----------------------------------------------------------------------------


class ServiceError(RefereeError):
    """An error of the request itself, with its HTTP status."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status = status
        self.code = code


def _error(status: int, data: dict) -> JSONResponse:
    return JSONResponse({"error": data}, status_code=status)


def _validation_message(error: dict) -> str:
    where = ".".join(str(part) for part in error.get("loc", ()) if part != "body")
    if error.get("type") == "json_invalid":
        return f"the request body is not JSON: {error.get('ctx', {}).get('error', error.get('msg'))}"
    if error.get("type") == "missing":
        return f"the request lacks '{where}'"
    if error.get("type") == "extra_forbidden":
        return f"the request has a field '{where}' that this endpoint does not take"
    return f"{where}: {error.get('msg')}" if where else str(error.get("msg"))


# -- before the app: the Host header, the body's size and its time ---------------------------


class HostCheck:
    """ASGI middleware: a request whose Host header names none of the served
    names is refused (400) before anything else — a page of another site
    cannot reach the service through a name it controls (DNS rebinding)."""

    def __init__(self, app, names: frozenset[str]):
        self.app = app
        self.names = names

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        host = dict(scope.get("headers") or ()).get(b"host", b"").decode("latin-1").strip().casefold()
        name = host[1:host.find("]")] if host.startswith("[") else host.rsplit(":", 1)[0] if host.count(":") == 1 \
            else host
        if name not in self.names:
            response = _error(400, {"code": "host", "message": f"this service is not reached by the name "
                                                               f"'{host[:100]}' (referee serve --name adds one)"})
            return await response(scope, receive, send)
        await self.app(scope, receive, send)


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes is answered 413 as
    soon as its Content-Length (or the bytes received so far) says so; a body
    still unfinished ``timeout`` seconds after the request began is answered 408."""

    def __init__(self, app, limit: int, timeout: float = BODY_TIMEOUT):
        self.app = app
        self.limit = limit
        self.timeout = timeout

    def message(self) -> str:
        return (f"the request body is larger than the service's bound of {self.limit} bytes "
                "(referee serve --max-bytes bounds the transcript)")

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope.get("headers") or ()).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            response = _error(413, {"code": "too-large", "message": self.message()})
            return await response(scope, receive, send)
        received = 0
        complete = False
        deadline = time.monotonic() + self.timeout

        async def bounded_receive():
            nonlocal received, complete
            if complete:  # the body is read: what follows is the client leaving
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                raise HTTPException(408, f"the request body did not arrive within {self.timeout:g} s") from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                complete = not message.get("more_body", False)
                if received > self.limit:  # the app's handler answers 413 (see create_app)
                    raise HTTPException(413, self.message())
            return message

        await self.app(scope, bounded_receive, send)


# -- the app ------------------------------------------------------------------------------


def create_app(limits: Limits | None = None, network: Network | None = None,
               data: str | Path | None = None) -> FastAPI:
    """The service: the API, the tables (kept in ``data``, default the user's
    data folder), the page, and a pool of worker processes that lives as long
    as the app (started and stopped by the server's lifespan)."""
    limits = limits or Limits()
    network = network or Network()
    folder = Path(data) if data is not None else default_folder()
    state: dict[str, Any] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        state["store"] = TableStore(folder)
        state["pool"] = WorkerPool(limits.workers, limits.time_limit, queue=limits.queue)
        warming = asyncio.ensure_future(state["pool"].ready())  # the workers load the referee meanwhile
        try:
            yield
        finally:
            warming.cancel()
            state.pop("pool").close()
            state.pop("store").close()

    app = FastAPI(title="referee", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="A rules referee for board games: check recorded games, explain disputed moves, "
                              "list what a player may do, draw the position, keep the tables of a club. "
                              "See docs/service.md.")

    @app.exception_handler(RefereeError)
    async def referee_error(request: Request, error: RefereeError):
        return _error(getattr(error, "status", 422), error.to_json())

    @app.exception_handler(TableError)
    async def table_error(request: Request, error: TableError):
        return _error(error.status, {"code": error.code, "message": str(error), **error.extra})

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError):
        problems = error.errors()
        status = 400 if any(p.get("type") == "json_invalid" for p in problems) else 422
        return _error(status, {"code": "request", "message": "; ".join(_validation_message(p) for p in problems[:5])})

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException):
        code = {400: "request", 408: "timeout", 413: "too-large"}.get(error.status_code, "http")
        return _error(error.status_code, {"code": code, "message": str(error.detail)})

    @app.exception_handler(Busy)
    async def busy(request: Request, error: Busy):
        response = _error(429, {"code": "busy", "message": str(error), "retry_after": error.retry_after})
        response.headers["Retry-After"] = str(error.retry_after)
        return response

    @app.exception_handler(WorkerEnded)
    async def worker_ended(request: Request, error: WorkerEnded):
        response = _error(503, {"code": "worker-ended", "message": str(error)})
        response.headers["Retry-After"] = "2"
        return response

    @app.exception_handler(InternalError)
    async def internal_error(request: Request, error: InternalError):
        return _error(500, {"code": "internal", "message": f"the referee could not answer this request: {error}. "
                                                           "This is an error of the referee, not of the transcript; "
                                                           "the service goes on"})

    async def _work(request: Request, job: str, data: dict, recent=None, key=None, bound=None) -> dict:
        """Run a job in the pool; dropped (its task cancelled) when the client
        hangs up before the answer is ready."""
        task = asyncio.ensure_future(state["pool"].run(job, data, recent, bound=bound, key=key))
        try:
            while True:
                done, _ = await asyncio.wait({task}, timeout=DISCONNECT_POLL)
                if done:
                    return task.result()
                if await request.is_disconnected():
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task
                    raise HTTPException(499, "the client closed the connection; the request was dropped")
        except asyncio.CancelledError:
            task.cancel()
            raise

    def _bounded(text: str) -> None:
        size = len(text.encode("utf-8"))
        if size > limits.max_bytes:
            raise ServiceError(413, "too-large", f"the transcript is {size} bytes; the service takes transcripts of "
                                                 f"at most {limits.max_bytes} bytes (referee serve --max-bytes)")

    def _anonymous() -> None:
        if network.network:
            raise ServiceError(403, "table-links-only",
                               "on a network the referee answers through a table's links only: the host creates "
                               "a table on the computer that runs the service and gives each player their link "
                               "(docs/service.md)")

    async def _answer(http: Request, job: str, request: TranscriptRequest) -> dict:
        _anonymous()
        _bounded(request.transcript)
        data = request.model_dump(by_alias=True)
        data["time_limit"] = limits.time_limit
        answer = await _work(http, job, data, recent=hash((request.transcript, request.name, request.rules)))
        answer["request"] = {"rules": request.rules, "as": request.viewpoint, "revision": None}
        return answer

    @app.post("/api/check", summary="Check every move of a transcript")
    async def check(request: CheckRequest, http: Request) -> dict:
        """The report of `referee check --json` (docs/report.md), plus `marks`: each
        written move's number, line, column, player, text, legal, disputed."""
        return await _answer(http, "check", request)

    @app.post("/api/explain", summary="Explain one move")
    async def explain(request: ExplainRequest, http: Request) -> dict:
        """The verdict of `referee explain --json`: legal or not, each broken rule
        (id, English text, the reading's sentence) and the grouped alternatives."""
        if (request.move is None) == (request.line is None):
            raise ServiceError(422, "request", "give exactly one of 'move' or 'line'")
        return await _answer(http, "explain", request)

    @app.post("/api/moves", summary="What the player in control may do")
    async def moves(request: MovesRequest, http: Request) -> dict:
        """As `referee moves --json`: `after_move`, `control`, `moves` (grouped),
        `total` (null when it would tell a hidden figure), `complete`."""
        return await _answer(http, "moves", request)

    @app.post("/api/board", summary="The position as an SVG picture")
    async def board(request: BoardRequest, http: Request) -> dict:
        """`svg`: the position after move `after` (default: the last), as
        `referee board GAME --transcript T --after N --svg -` draws it."""
        return await _answer(http, "board", request)

    @app.post("/api/compare", summary="Where two rules readings disagree")
    async def compare(request: CompareRequest, http: Request) -> dict:
        """As `referee compare GAME --rules A --rules B --json`: the solver's search
        for small positions and moves the two readings judge differently, each
        disagreement with its variants, a minimal witness and both verdicts."""
        return await _work(http, "compare", request.model_dump(),
                           bound=(limits.compare_time_limit, "referee serve --compare-time-limit"))

    # -- tables -------------------------------------------------------------------------

    async def _store(method: str, *args, **kwargs):
        return await asyncio.to_thread(getattr(state["store"], method), *args, **kwargs)

    async def _link(token: str) -> Link:
        link = await _store("link", token) if 16 <= len(token) <= 64 else None
        if link is None:
            raise ServiceError(404, "unknown-table", "no table has this link: check that it was copied whole")
        if link.removed is not None:
            raise ServiceError(410, "player-removed",
                               f"this was {link.player}'s link, and {link.player} is no longer a player of this "
                               f"table: the host took them off the players line (revision {link.removed}). The "
                               "link answers nothing more; if you still play here, ask the host for your link")
        return link

    def _link_json(link: Link) -> dict:
        return {"player": link.player, "token": link.token, "url": f"/t/{link.token}"}

    def _links_json(links: list[Link]) -> dict:
        host = next(l for l in links if l.host)
        return {"host": {"token": host.token, "url": f"/t/{host.token}"},
                "players": [_link_json(l) for l in links if not l.host]}

    @app.post("/api/tables", summary="Create a table", status_code=201)
    async def create_table(request: TableCreate, http: Request) -> dict:
        """A new table with the transcript so far (its header at least): its host
        link (sees everything, may correct) and one link per player (sees the game
        as that player does). On a network, only from the computer running the service."""
        if network.network and not is_loopback((http.client.host if http.client else "") or ""):
            raise ServiceError(403, "table-links-only", "on a network, tables are created on the computer that "
                                                        "runs the service (http://127.0.0.1:PORT/)")
        _bounded(request.transcript)
        head = await _work(http, "header", {"transcript": request.transcript, "name": request.name,
                                            "rules": request.rules, "time_limit": limits.time_limit})
        table, links = await _store("create", request.name, head["game"], head["players"], request.transcript,
                                    request.rules)
        return {"table": table.id, "name": table.name, "game": table.game, "players": list(table.players),
                "revision": 0, **_links_json(links)}

    async def _table_view(link: Link, with_text: bool = True) -> dict:
        table = await _store("table", link.table)
        revision = await _store("revision", link.table)
        view = {"table": table.id, "name": table.name, "game": table.game, "players": list(table.players),
                "you": {"host": link.host, "player": link.player}, "revision": revision.number,
                "rules": revision.rules, "changed": revision.summary()}
        if with_text:
            view["transcript"] = revision.text
        if link.host:
            view["links"] = _links_json(await _store("links", link.table))
        return view

    @app.get("/api/tables/{token}", summary="A table as its link sees it")
    async def table_view(token: str) -> dict:
        """The table's current revision: its transcript, reading, players, and
        who this link is; the host's link also lists every link."""
        return await _table_view(await _link(token))

    @app.get("/api/tables/{token}/revision", summary="The table's current revision number")
    async def table_revision(token: str) -> dict:
        """For a page following the table: cheap enough to ask every few seconds."""
        link = await _link(token)
        return {"revision": await _store("current_number", link.table)}

    @app.get("/api/tables/{token}/revisions", summary="Every revision of the table")
    async def table_revisions(token: str) -> dict:
        link = await _link(token)
        return {"revisions": [r.summary() for r in await _store("revisions", link.table)]}

    @app.get("/api/tables/{token}/revisions/{number}", summary="One revision of the table, with its text")
    async def table_old_revision(token: str, number: int) -> dict:
        link = await _link(token)
        revision = await _store("revision", link.table, number)
        return {**revision.summary(), "transcript": revision.text}

    @app.post("/api/tables/{token}/lines", summary="Add a line to the table's transcript", status_code=201)
    async def table_add(token: str, request: TableLine) -> dict:
        """The line is stored (a new revision) before anything judges it. With
        `revision`, refused 409 `conflict` if the table has changed since."""
        link = await _link(token)
        current = await _store("revision", link.table)
        _bounded(current.text + request.line + "\n")
        revision = await _store("append", link.table, request.line, "host" if link.host else link.player,
                                request.revision)
        return revision.summary()

    @app.post("/api/tables/{token}/correct", summary="The host corrects the transcript or changes the reading")
    async def table_correct(token: str, request: TableCorrection, http: Request) -> dict:
        """A new revision with the whole text as it should stand (a line edited or
        removed) and/or another reading; the old revisions stay readable. When the
        players line changes, the players' links follow it (`seats`): a renamed
        player keeps their link, a removed player's link answers no more, an added
        player gets a new link."""
        link = await _link(token)
        if not link.host:
            raise ServiceError(403, "host-only", "only the table's host corrects its transcript; a player adds lines")
        current = await _store("revision", link.table)
        text = request.transcript if request.transcript is not None else current.text
        _bounded(text)
        change_rules = "rules" in request.model_fields_set
        if change_rules and request.rules is not None:
            table = await _store("table", link.table)
            known = [r["reading"] for r in readings(table.game)["readings"]]
            if request.rules not in known:
                raise ServiceError(422, "notation", f"unknown rules reading '{request.rules}'; known readings: "
                                                    f"{', '.join(known)}")
        players = game = unread = None
        if text != current.text:  # the links follow the players line (tables.reseat), when it can be read
            try:
                head = await _work(http, "header", {"transcript": text, "name": "correction",
                                                    "time_limit": limits.time_limit})
                players, game = head["players"], head["game"]
            except RefereeError as error:  # stored all the same; the links stay as they were
                unread = error.to_json()
        revision, change, added = await _store("correct", link.table, text, request.revision, request.rules,
                                               keep_rules=not change_rules, players=players, game=game)
        seats = {"renamed": [{"from": a, "to": b} for a, b in change.renamed], "removed": list(change.removed),
                 "added": [_link_json(l) for l in added]}
        if unread is not None:
            seats["unread"] = {**unread, "message": "the links stay as they were: the header of the corrected text "
                                                    f"cannot be read ({unread.get('message')})"}
        return {**revision.summary(), "players": list((await _store("table", link.table)).players), "seats": seats}

    async def _table_answer(http: Request, job: str, token: str, request: TableQuestion) -> dict:
        link = await _link(token)
        viewpoint = request.viewpoint
        revision = await _store("revision", link.table, request.revision)
        if not link.host:  # as the player of this link's seat was named at that revision
            seat = await _store("player_at", link.token, revision.number)
            if seat is None:
                since = await _store("seated_since", link.token)
                raise ServiceError(403, "not-seated", f"{link.player} joined this table at revision {since}: "
                                                      f"this link answers about revision {since} and later")
            if viewpoint is not None and viewpoint not in (seat, link.player):
                raise ServiceError(403, "private", f"this is {link.player}'s link: it answers as {link.player} "
                                                   "sees the game, and as nobody else")
            viewpoint = seat
        rules = request.rules if "rules" in request.model_fields_set else revision.rules
        table = await _store("table", link.table)
        data = {"transcript": revision.text, "name": table.name, "rules": rules, "as": viewpoint,
                "time_limit": limits.time_limit, "tolerant": True, "table": table.id, "all": request.all}
        data.update({k: getattr(request, k) for k in ("move", "line", "after") if getattr(request, k) is not None})
        answer = await _work(http, job, data, recent=hash((revision.text, table.name, rules)), key=table.id)
        if not link.host and answer.get("viewpoint", viewpoint) != viewpoint:  # the server's own guard
            raise InternalError("an answer for another viewpoint was withheld")
        answer["request"] = {"rules": rules, "as": viewpoint, "revision": revision.number}
        return answer

    @app.post("/api/tables/{token}/check", summary="Check a revision of the table")
    async def table_check(token: str, request: TableQuestion, http: Request) -> dict:
        """As /api/check, with `unread`: the lines that could not be read, each with
        its line, column and message (the other lines keep their marks)."""
        return await _table_answer(http, "check", token, request)

    @app.post("/api/tables/{token}/explain", summary="Explain a move of the table")
    async def table_explain(token: str, request: TableQuestion, http: Request) -> dict:
        if (request.move is None) == (request.line is None):
            raise ServiceError(422, "request", "give exactly one of 'move' or 'line'")
        return await _table_answer(http, "explain", token, request)

    @app.post("/api/tables/{token}/moves", summary="What the player in control may do at the table")
    async def table_moves(token: str, request: TableQuestion, http: Request) -> dict:
        return await _table_answer(http, "moves", token, request)

    @app.post("/api/tables/{token}/board", summary="The table's position as an SVG picture")
    async def table_board(token: str, request: TableQuestion, http: Request) -> dict:
        return await _table_answer(http, "board", token, request)

    # -- what the service knows, its state, the page ----------------------------------------

    @app.get("/api/games", summary="The games the referee knows")
    async def games() -> dict:
        return {"games": [readings(game) for game in known_games()]}

    @app.get("/api/readings", summary="The rule readings of a game")
    async def game_readings(game: Annotated[str, Query(max_length=40)] = default_game()) -> dict:
        """English and each translation the game's catalogue documents (`rules:` in a transcript)."""
        try:
            return readings(game)
        except UnknownGameError as error:
            raise ServiceError(404, error.code, error.message) from None

    @app.get("/api/status", summary="The service's workers and queue")
    async def status() -> dict:
        """The worker processes (pids), requests waiting and running, workers
        replaced, requests dropped because their client left; whether the service
        is on a network."""
        pool = state["pool"]
        return {**pool.stats(), "pids": pool.pids(), "network": network.network}

    @app.get("/", include_in_schema=False)
    async def page():
        return _page_file("index.html")

    @app.get("/t/{token}", include_in_schema=False)
    async def table_page(token: str):
        return _page_file("index.html")

    @app.get("/web/{name}", include_in_schema=False)
    async def page_file(name: str):
        return _page_file(name)

    app.add_middleware(BodyLimit, limit=limits.max_body, timeout=limits.body_timeout)
    app.add_middleware(HostCheck, names=network.names)
    return app


def _page_file(name: str) -> FileResponse:
    if name not in PAGE_FILES:
        raise ServiceError(404, "http", f"no such file: {name}")
    return FileResponse(WEB / name, media_type=PAGE_FILES[name], headers={"Cache-Control": "no-cache"})


def serve(host: str = "127.0.0.1", port: int = 8000, limits: Limits | None = None, names: tuple[str, ...] = (),
          data: str | Path | None = None) -> None:
    """Run the service until interrupted (Ctrl-C or SIGTERM: requests in flight
    are finished, then the workers stop)."""
    import uvicorn

    limits = limits or Limits()
    network = Network(host, names)
    folder = Path(data) if data is not None else default_folder()
    print(f"referee: tables are kept in {folder / 'tables.sqlite3'}", file=sys.stderr)
    if network.network:
        print(f"referee: WARNING: listening on {host}, beyond this computer: anyone on the network can reach "
              "the service. A transcript is answered only through a table's links, and tables are created "
              f"only at http://127.0.0.1:{port}/ on this computer. Names accepted in the Host header: "
              f"{', '.join(sorted(network.names))} (referee serve --name adds one).", file=sys.stderr)
    uvicorn.run(create_app(limits, network, folder), host=host, port=port, log_level="info",
                timeout_graceful_shutdown=30, http=bounded(limits.head_timeout), log_config=log_config())
