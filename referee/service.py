"""The referee as an HTTP service (``referee serve``): a JSON API and the page
for a table (referee/web/), served by one process on localhost.

Endpoints (docs/service.md; the OpenAPI document is served at /openapi.json):
POST /api/check, /api/explain, /api/moves, /api/board take a transcript (its
text) and answer as the CLI's ``--json`` does; POST /api/compare searches for
positions where two rules readings disagree (``referee compare``); GET
/api/games and /api/readings list what the referee knows. The solver's work runs in worker
processes (referee/pool.py), never on the event loop.

Errors are JSON ``{"error": {"code", "message", "file", "line", "column"}}``
(line and column where the error has a place in the transcript): 400 for a
body that is not JSON, 413 for a request over the size bound, 422 for a
request the referee cannot answer (a transcript it cannot read, a move that
does not exist, the solver's time bound hit), 404 for an unknown game or path.
A malformed request is never a 500.

Adding an endpoint: a job in referee/jobs.py and a function here that validates
its request with a model and returns ``await _answer("job", request)``.
"""

from __future__ import annotations

import contextlib
from importlib import resources
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator
from starlette.exceptions import HTTPException

from . import __version__
from .api import readings
from .errors import RefereeError
from .game import UnknownGameError, default_game, known_games
from .pool import InternalError, WorkerPool

#: Default bounds of one request.
MAX_TRANSCRIPT_BYTES = 256 * 1024
TIME_LIMIT = 20.0
#: The bound of one comparison of two readings (a search over several scenarios).
COMPARE_TIME_LIMIT = 120.0
WORKERS = 2
#: The page's files (packaged with the referee: no build step).
WEB = resources.files("referee").joinpath("web")
PAGE_FILES = {"index.html": "text/html", "app.js": "text/javascript", "style.css": "text/css"}


class Limits:
    """The bounds of one service: transcript size, solver time, worker processes."""

    def __init__(self, max_bytes: int = MAX_TRANSCRIPT_BYTES, time_limit: float = TIME_LIMIT, workers: int = WORKERS,
                 compare_time_limit: float = COMPARE_TIME_LIMIT):
        self.max_bytes = max_bytes
        self.time_limit = time_limit
        self.workers = workers
        self.compare_time_limit = compare_time_limit

    @property
    def max_body(self) -> int:
        """The most bytes a request body may hold: the transcript, JSON-escaped
        (up to 6 bytes a character), and the other fields."""
        return 6 * self.max_bytes + 16 * 1024


# -- requests ---------------------------------------------------------------------------


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

    @field_validator("transcript", "name", "rules", "viewpoint")
    @classmethod
    def _unicode(cls, value: str | None) -> str | None:
        """JSON may carry lone surrogates (\\ud800), which are not text: refused here."""
        if value is not None:
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as error:
                before = value[:error.start]
                line, column = before.count("\n") + 1, error.start - (before.rfind("\n") + 1) + 1
                raise ValueError(f"not Unicode text: a lone surrogate at line {line}, column {column}") from None
        return value


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


# -- the size bound, before the body is read --------------------------------------------


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes is answered 413 as
    soon as its Content-Length (or the bytes received so far) says so."""

    def __init__(self, app, limit: int):
        self.app = app
        self.limit = limit

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

        async def bounded_receive():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:  # the app's handler answers 413 (see create_app)
                    raise HTTPException(413, self.message())
            return message

        await self.app(scope, bounded_receive, send)


# -- the app ------------------------------------------------------------------------------


def create_app(limits: Limits | None = None) -> FastAPI:
    """The service: the API, the page, and a pool of worker processes that lives
    as long as the app (started and stopped by the server's lifespan)."""
    limits = limits or Limits()
    state: dict[str, Any] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        state["pool"] = WorkerPool(limits.workers, limits.time_limit)
        try:
            yield
        finally:
            state.pop("pool").close()

    app = FastAPI(title="referee", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="A rules referee for board games: check recorded games, explain disputed moves, "
                              "list what a player may do, draw the position. See docs/service.md.")

    @app.exception_handler(RefereeError)
    async def referee_error(request: Request, error: RefereeError):
        return _error(getattr(error, "status", 422), error.to_json())

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError):
        problems = error.errors()
        status = 400 if any(p.get("type") == "json_invalid" for p in problems) else 422
        return _error(status, {"code": "request", "message": "; ".join(_validation_message(p) for p in problems[:5])})

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException):
        code = {400: "request", 413: "too-large"}.get(error.status_code, "http")
        return _error(error.status_code, {"code": code, "message": str(error.detail)})

    @app.exception_handler(InternalError)
    async def internal_error(request: Request, error: InternalError):
        return _error(500, {"code": "internal", "message": f"the referee failed: {error} (a bug; please report it)"})

    async def _answer(job: str, request: TranscriptRequest) -> dict:
        size = len(request.transcript.encode("utf-8"))
        if size > limits.max_bytes:
            raise ServiceError(413, "too-large", f"the transcript is {size} bytes; the service takes transcripts of "
                                                 f"at most {limits.max_bytes} bytes (referee serve --max-bytes)")
        data = request.model_dump(by_alias=True)
        data["time_limit"] = limits.time_limit
        key = hash((request.transcript, request.name, request.rules))
        return await state["pool"].run(job, data, key)

    @app.post("/api/check", summary="Check every move of a transcript")
    async def check(request: CheckRequest) -> dict:
        """The report of `referee check --json` (docs/report.md), plus `marks`: each
        written move's number, line, column, player, text, legal, disputed."""
        return await _answer("check", request)

    @app.post("/api/explain", summary="Explain one move")
    async def explain(request: ExplainRequest) -> dict:
        """The verdict of `referee explain --json`: legal or not, each broken rule
        (id, English text, the reading's sentence) and the grouped alternatives."""
        if (request.move is None) == (request.line is None):
            raise ServiceError(422, "request", "give exactly one of 'move' or 'line'")
        return await _answer("explain", request)

    @app.post("/api/moves", summary="What the player in control may do")
    async def moves(request: MovesRequest) -> dict:
        """As `referee moves --json`: `after_move`, `control`, `moves` (grouped),
        `total` (null when it would tell a hidden figure), `complete`."""
        return await _answer("moves", request)

    @app.post("/api/board", summary="The position as an SVG picture")
    async def board(request: BoardRequest) -> dict:
        """`svg`: the position after move `after` (default: the last), as
        `referee board GAME --transcript T --after N --svg -` draws it."""
        return await _answer("board", request)

    @app.post("/api/compare", summary="Where two rules readings disagree")
    async def compare(request: CompareRequest) -> dict:
        """As `referee compare GAME --rules A --rules B --json`: the solver's search
        for small positions and moves the two readings judge differently, each
        disagreement with its variants, a minimal witness and both verdicts."""
        return await state["pool"].run("compare", request.model_dump(), None,
                                       bound=(limits.compare_time_limit, "referee serve --compare-time-limit"))

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

    @app.get("/", include_in_schema=False)
    async def page():
        return _page_file("index.html")

    @app.get("/web/{name}", include_in_schema=False)
    async def page_file(name: str):
        return _page_file(name)

    app.add_middleware(BodyLimit, limit=limits.max_body)
    return app


def _page_file(name: str) -> FileResponse:
    if name not in PAGE_FILES:
        raise ServiceError(404, "http", f"no such file: {name}")
    with resources.as_file(WEB.joinpath(name)) as path:
        return FileResponse(path, media_type=PAGE_FILES[name], headers={"Cache-Control": "no-cache"})


def serve(host: str = "127.0.0.1", port: int = 8000, limits: Limits | None = None) -> None:
    """Run the service until interrupted (Ctrl-C or SIGTERM: requests in flight
    are finished, then the workers stop)."""
    import uvicorn

    uvicorn.run(create_app(limits), host=host, port=port, log_level="info", timeout_graceful_shutdown=30)
