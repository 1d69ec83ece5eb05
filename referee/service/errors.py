"""The service's errors, all answered as JSON ``{"error": {"code", "message",
...}}``: the handler of each kind of exception and the HTTP status it gives
(FastAPI's ``exception_handlers``). A malformed request is never a 500."""

from __future__ import annotations

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from referee.base.errors import RefereeError
from referee.service.pool import Busy, InternalError, WorkerEnded
from referee.service.tables import TableError


class ServiceError(RefereeError):
    """An error of the request itself, with its HTTP status."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status = status
        self.code = code


class RateLimited(Exception):
    """A link sent more than its share (referee/service/limits.py, LinkRates);
    ``retry_after`` seconds until its next request is taken."""

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


def error_response(status: int, data: dict) -> JSONResponse:
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


async def referee_error(request: Request, error: RefereeError):
    return error_response(getattr(error, "status", 422), error.to_json())


async def table_error(request: Request, error: TableError):
    return error_response(error.status, {"code": error.code, "message": str(error), **error.extra})


async def invalid_request(request: Request, error: RequestValidationError):
    problems = error.errors()
    status = 400 if any(p.get("type") == "json_invalid" for p in problems) else 422
    return error_response(status, {"code": "request",
                                   "message": "; ".join(_validation_message(p) for p in problems[:5])})


async def http_error(request: Request, error: HTTPException):
    code = {400: "request", 408: "timeout", 413: "too-large"}.get(error.status_code, "http")
    return error_response(error.status_code, {"code": code, "message": str(error.detail)})


async def busy(request: Request, error: Busy):
    response = error_response(429, {"code": "busy", "message": str(error), "retry_after": error.retry_after})
    response.headers["Retry-After"] = str(error.retry_after)
    return response


async def rate_limited(request: Request, error: RateLimited):
    response = error_response(429, {"code": "rate-limit", "message": str(error), "retry_after": error.retry_after})
    response.headers["Retry-After"] = str(error.retry_after)
    return response


async def worker_ended(request: Request, error: WorkerEnded):
    response = error_response(503, {"code": "worker-ended", "message": str(error)})
    response.headers["Retry-After"] = "2"
    return response


async def internal_error(request: Request, error: InternalError):
    return error_response(500, {"code": "internal", "message": f"the referee could not answer this request: {error}. "
                                                              "This is an error of the referee, not of the "
                                                              "transcript; the service goes on"})


#: Each kind of error and its handler, for ``FastAPI(exception_handlers=...)``.
HANDLERS = {RefereeError: referee_error, TableError: table_error, RequestValidationError: invalid_request,
            HTTPException: http_error, Busy: busy, RateLimited: rate_limited, WorkerEnded: worker_ended,
            InternalError: internal_error}
