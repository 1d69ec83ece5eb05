"""The page for a table (referee/service/web/: plain HTML, JavaScript and CSS,
packaged with the referee, no build step): at / and at a table's link /t/TOKEN."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

from referee.service.errors import ServiceError

#: The page's files.
WEB = Path(__file__).parents[1] / "web"
PAGE_FILES = {"index.html": "text/html", "app.js": "text/javascript", "style.css": "text/css"}

router = APIRouter(include_in_schema=False)


def _page_file(name: str) -> FileResponse:
    if name not in PAGE_FILES:
        raise ServiceError(404, "http", f"no such file: {name}")
    return FileResponse(WEB / name, media_type=PAGE_FILES[name], headers={"Cache-Control": "no-cache"})


@router.get("/")
async def page():
    return _page_file("index.html")


@router.get("/t/{token}")
async def table_page(token: str):
    return _page_file("index.html")


@router.get("/web/{name}")
async def page_file(name: str):
    return _page_file(name)
