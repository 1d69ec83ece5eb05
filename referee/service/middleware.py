"""ASGI middleware, before the app: the Host header (DNS rebinding), the
request body's size and the time it takes to arrive, and the headers that keep
the page and its links to itself."""

from __future__ import annotations

import asyncio
import time

from starlette.exceptions import HTTPException

from referee.service.errors import error_response
from referee.service.limits import BODY_TIMEOUT


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
            response = error_response(400, {"code": "host", "message": f"this service is not reached by the name "
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
            response = error_response(413, {"code": "too-large", "message": self.message()})
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
                if received > self.limit:  # answered 413 by errors.http_error
                    raise HTTPException(413, self.message())
            return message

        await self.app(scope, bounded_receive, send)



#: Sent with every answer. A table's links are bearer tokens in the URL, so no
#: page may frame this one (clickjacking), no request it makes names it as its
#: referrer, and the page runs only its own script (no inline script, nothing
#: from elsewhere: a line of a transcript shown on the page can never run; the
#: board is the service's SVG shown as an image, from a blob: URL, and an image
#: runs no script).
SECURITY_HEADERS = (
    (b"content-security-policy", b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                                 b"img-src 'self' data: blob:; object-src 'none'; base-uri 'none'; form-action 'self'; "
                                 b"frame-ancestors 'none'"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
)


class SecurityHeaders:
    """ASGI middleware: every answer carries ``SECURITY_HEADERS``."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, receive, send_with_headers)
