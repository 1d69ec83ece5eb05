"""A club's tables (referee/service/tables.py): created from this computer,
then reached through their links: the host's (sees everything, corrects) and
one per player (adds lines, asks as that player sees the game)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request

from referee.ask.session import readings
from referee.base.errors import ReadingError, RefereeError
from referee.service.dependencies import ServiceLimits, ServiceNetwork, TableAccess, WorkerJobs
from referee.service.errors import ServiceError
from referee.service.models import TableCorrection, TableCreate, TableLine, TableQuestion, require_one_move
from referee.service.pool import InternalError
from referee.service.tables import Link

router = APIRouter()


def _link_json(link: Link) -> dict:
    return {"player": link.player, "token": link.token, "url": f"/t/{link.token}"}


def _links_json(links: list[Link]) -> dict:
    host = next(l for l in links if l.host)
    return {"host": {"token": host.token, "url": f"/t/{host.token}"},
            "players": [_link_json(l) for l in links if not l.host]}


@router.post("/api/tables", summary="Create a table", status_code=201)
async def create_table(request: TableCreate, http: Request, jobs: WorkerJobs, tables: TableAccess,
                       limits: ServiceLimits, network: ServiceNetwork) -> dict:
    """A new table with the transcript so far (its header at least): its host
    link (sees everything, may correct) and one link per player (sees the game
    as that player does). On a network, only from the computer running the service."""
    network.refuse_remote_host((http.client.host if http.client else "") or "")
    limits.check_transcript(request.transcript)
    head = await jobs.run("header", {"transcript": request.transcript, "name": request.name,
                                     "rules": request.rules, "time_limit": limits.time_limit})
    table, links = await tables.call("create", request.name, head["game"], head["players"], request.transcript,
                                     request.rules)
    return {"table": table.id, "name": table.name, "game": table.game, "players": list(table.players),
            "revision": 0, **_links_json(links)}


@router.get("/api/tables/{token}", summary="A table as its link sees it")
async def table_view(token: str, tables: TableAccess) -> dict:
    """The table's current revision: its transcript, reading, players, and
    who this link is; the host's link also lists every link."""
    link = await tables.link(token)
    table = await tables.call("table", link.table)
    revision = await tables.call("revision", link.table)
    view = {"table": table.id, "name": table.name, "game": table.game, "players": list(table.players),
            "you": {"host": link.host, "player": link.player}, "revision": revision.number,
            "rules": revision.rules, "changed": revision.summary(), "transcript": revision.text}
    if link.host:
        view["links"] = _links_json(await tables.call("links", link.table))
    return view


@router.get("/api/tables/{token}/revision", summary="The table's current revision number")
async def table_revision(token: str, tables: TableAccess) -> dict:
    """For a page following the table: cheap enough to ask every few seconds."""
    link = await tables.link(token)
    return {"revision": await tables.call("current_number", link.table)}


@router.get("/api/tables/{token}/revisions", summary="Every revision of the table")
async def table_revisions(token: str, tables: TableAccess) -> dict:
    link = await tables.link(token)
    return {"revisions": [r.summary() for r in await tables.call("revisions", link.table)]}


@router.get("/api/tables/{token}/revisions/{number}", summary="One revision of the table, with its text")
async def table_old_revision(token: str, number: int, tables: TableAccess) -> dict:
    link = await tables.link(token)
    revision = await tables.call("revision", link.table, number)
    return {**revision.summary(), "transcript": revision.text}


@router.post("/api/tables/{token}/lines", summary="Add a line to the table's transcript", status_code=201)
async def table_add(token: str, request: TableLine, tables: TableAccess, limits: ServiceLimits) -> dict:
    """The line is stored (a new revision) before anything judges it. With
    `revision`, refused 409 `conflict` if the table has changed since."""
    link = await tables.link(token)
    current = await tables.call("revision", link.table)
    limits.check_transcript(current.text + request.line + "\n")
    revision = await tables.call("append", link.table, request.line, "host" if link.host else link.player,
                                 request.revision)
    return revision.summary()


@router.post("/api/tables/{token}/correct", summary="The host corrects the transcript or changes the reading")
async def table_correct(token: str, request: TableCorrection, jobs: WorkerJobs, tables: TableAccess,
                        limits: ServiceLimits) -> dict:
    """A new revision with the whole text as it should stand (a line edited or
    removed) and/or another reading; the old revisions stay readable. When the
    players line changes, the players' links follow it (`seats`): a renamed
    player keeps their link, a removed player's link answers no more, an added
    player gets a new link."""
    link = await tables.link(token)
    if not link.host:
        raise ServiceError(403, "host-only", "only the table's host corrects its transcript; a player adds lines")
    current = await tables.call("revision", link.table)
    text = request.transcript if request.transcript is not None else current.text
    limits.check_transcript(text)
    change_rules = "rules" in request.model_fields_set
    if change_rules and request.rules is not None:
        table = await tables.call("table", link.table)
        known = [r["reading"] for r in readings(table.game)["readings"]]
        if request.rules not in known:
            raise ServiceError(422, ReadingError.code, f"unknown rules reading '{request.rules}'; known readings: "
                                                f"{', '.join(known)}")
    players = game = unread = None
    if text != current.text:  # the links follow the players line (tables.reseat), when it can be read
        try:
            head = await jobs.run("header", {"transcript": text, "name": "correction",
                                             "time_limit": limits.time_limit})
            players, game = head["players"], head["game"]
        except RefereeError as error:  # stored all the same; the links stay as they were
            unread = error.to_json()
    revision, change, added = await tables.call("correct", link.table, text, request.revision, request.rules,
                                                keep_rules=not change_rules, players=players, game=game)
    seats = {"renamed": [{"from": a, "to": b} for a, b in change.renamed], "removed": list(change.removed),
             "added": [_link_json(l) for l in added]}
    if unread is not None:
        seats["unread"] = {**unread, "message": "the links stay as they were: the header of the corrected text "
                                                f"cannot be read ({unread.get('message')})"}
    return {**revision.summary(), "players": list((await tables.call("table", link.table)).players), "seats": seats}


class TableAnswerer:
    """A question about a revision of a table, as its link may ask it: a
    player's link answers as that player (as named at that revision) only."""

    def __init__(self, jobs: WorkerJobs, tables: TableAccess, limits: ServiceLimits):
        self.jobs, self.tables, self.limits = jobs, tables, limits

    async def answer(self, job: str, token: str, request: TableQuestion) -> dict:
        link = await self.tables.link(token)
        viewpoint = request.viewpoint
        revision = await self.tables.call("revision", link.table, request.revision)
        if not link.host:  # as the player of this link's seat was named at that revision
            seat = await self.tables.call("player_at", link.token, revision.number)
            if seat is None:
                since = await self.tables.call("seated_since", link.token)
                raise ServiceError(403, "not-seated", f"{link.player} joined this table at revision {since}: "
                                                      f"this link answers about revision {since} and later")
            if viewpoint is not None and viewpoint not in (seat, link.player):
                raise ServiceError(403, "private", f"this is {link.player}'s link: it answers as {link.player} "
                                                   "sees the game, and as nobody else")
            viewpoint = seat
        rules = request.rules if "rules" in request.model_fields_set else revision.rules
        table = await self.tables.call("table", link.table)
        data = {"transcript": revision.text, "name": table.name, "rules": rules, "as": viewpoint,
                "time_limit": self.limits.time_limit, "tolerant": True, "table": table.id, "all": request.all}
        data.update({k: getattr(request, k) for k in ("move", "line", "after") if getattr(request, k) is not None})
        answer = await self.jobs.run(job, data, recent=hash((revision.text, table.name, rules)), key=table.id)
        if not link.host and answer.get("viewpoint", viewpoint) != viewpoint:  # the server's own guard
            raise InternalError("an answer for another viewpoint was withheld")
        answer["request"] = {"rules": rules, "as": viewpoint, "revision": revision.number}
        return answer


TableAnswer = Annotated[TableAnswerer, Depends(TableAnswerer)]


@router.post("/api/tables/{token}/check", summary="Check a revision of the table")
async def table_check(token: str, request: TableQuestion, answerer: TableAnswer) -> dict:
    """As /api/check, with `unread`: the lines that could not be read, each with
    its line, column and message (the other lines keep their marks)."""
    return await answerer.answer("check", token, request)


@router.post("/api/tables/{token}/explain", summary="Explain a move of the table")
async def table_explain(token: str, request: TableQuestion, answerer: TableAnswer) -> dict:
    require_one_move(request)
    return await answerer.answer("explain", token, request)


@router.post("/api/tables/{token}/moves", summary="What the player in control may do at the table")
async def table_moves(token: str, request: TableQuestion, answerer: TableAnswer) -> dict:
    return await answerer.answer("moves", token, request)


@router.post("/api/tables/{token}/board", summary="The table's position as an SVG picture")
async def table_board(token: str, request: TableQuestion, answerer: TableAnswer) -> dict:
    return await answerer.answer("board", token, request)
