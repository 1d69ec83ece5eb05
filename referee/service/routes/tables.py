"""A club's tables (referee/service/tables.py): created from this computer,
then reached through their links: the host's (sees everything, corrects) and
one per player (adds lines, asks as that player sees the game)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request

from referee.ask.options import CheckOptions
from referee.ask.session import readings
from referee.base.errors import ReadingError, RefereeError
from referee.service.dependencies import ServiceLimits, ServiceNetwork, TableAccess, WorkerJobs
from referee.service.errors import ServiceError
from referee.service.links import link_json, links_json
from referee.service.models import (
    MAX_REVISION,
    TableCorrection,
    TableCreate,
    TableLine,
    TableQuestion,
    TableWithdrawal,
    require_one_move,
)
from referee.service.pool import InternalError
from referee.service.tables import Link
from referee.text.transcript import CHANCE

router = APIRouter()


@router.post("/api/tables", summary="Create a table", status_code=201)
async def create_table(request: TableCreate, http: Request, jobs: WorkerJobs, tables: TableAccess,
                       limits: ServiceLimits, network: ServiceNetwork) -> dict:
    """A new table with the transcript so far (its header at least): its host
    link (sees everything, may correct) and one link per player (sees the game
    as that player does). On a network, only from the computer running the service."""
    network.refuse_remote_host((http.client.host if http.client else "") or "")
    limits.check_transcript(request.transcript)
    head = await jobs.run("header", {"transcript": request.transcript, "name": request.name, "options": CheckOptions(
        rules=request.rules, time_limit=limits.time_limit).to_json()})
    table, links = await tables.call("create", request.name, head["game"], head["players"], request.transcript,
                                     request.rules)
    return {"table": table.id, "name": table.name, "game": table.game, "players": list(table.players),
            "revision": 0, **links_json(links, network.link_base())}


@router.get("/api/tables/{token}", summary="A table as its link sees it")
async def table_view(token: str, tables: TableAccess, network: ServiceNetwork) -> dict:
    """The table's current revision: its transcript, reading, players, and
    who this link is; the host's link also lists every link."""
    link = await tables.link(token)
    table = await tables.call("table", link.table)
    revision = await tables.call("revision", link.table)
    view = {"table": table.id, "name": table.name, "game": table.game, "players": list(table.players),
            "you": {"host": link.host, "player": link.player}, "revision": revision.number,
            "rules": revision.rules, "changed": revision.summary(), "transcript": revision.text}
    if link.host:
        view["links"] = links_json(await tables.call("links", link.table), network.link_base())
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
async def table_old_revision(token: str, number: Annotated[int, Path(ge=0, le=MAX_REVISION)],
                             tables: TableAccess) -> dict:
    """The host's link reads every revision; a player's link none that holds a line the
    host withdrew later (403 `withdrawn`, naming the revision to read instead)."""
    link = await tables.link(token)
    revision = await tables.call("seen_by", link, number)
    return {**revision.summary(), "transcript": revision.text}


@router.post("/api/tables/{token}/lines", summary="Add a line to the table's transcript", status_code=201)
async def table_add(token: str, request: TableLine, jobs: WorkerJobs, tables: TableAccess,
                    limits: ServiceLimits) -> dict:
    """The line is stored (a new revision) before anything judges it. With
    `revision`, refused 409 `conflict` if the table has changed since. A
    player's link writes only its own seat's moves and chance's (403
    `another-seat` otherwise); the host's link writes anything."""
    link = await tables.link(token, spend=True)
    current = await tables.call("revision", link.table)
    size = len((current.text + request.line + "\n").encode("utf-8"))
    if size > limits.max_bytes:
        raise ServiceError(413, "table-full", f"the table's transcript would be {size} bytes with this line, over "
                                              f"the service's bound of {limits.max_bytes} bytes: nothing was "
                                              "written. The host can shorten the record (comments, say) with a "
                                              "correction, or start the service with a larger --max-bytes")
    if not link.host:
        await _refuse_another_seat(link, current, request.line, jobs, tables)
    revision = await tables.call("append", link.table, request.line, "host" if link.host else link.player,
                                 request.revision)
    return revision.summary()


async def _refuse_another_seat(link: Link, current, line: str, jobs, tables) -> None:
    """A player's link writes its own seat's moves and what chance shows (dice,
    cards, tiles: public at the table), never another player's: a move
    written in another's name and asked about (``??``) would have the referee
    state what that player's hidden figures allow (docs/service.md, "Who may
    write what"). Refused 403 ``another-seat``; a line that cannot be read is
    stored (it judges nothing until the host corrects it)."""
    text = current.text if current.text.endswith("\n") or not current.text else current.text + "\n"
    seat = await tables.call("player_at", link.token, current.number) or link.player
    try:
        roles = (await jobs.run("line_roles", {"transcript": text + line + "\n", "name": "line",
                                               "line": text.count("\n") + 1}, key=link.table))["roles"]
    except ServiceError:
        raise
    except RefereeError:  # the table's text cannot be read as a whole (the host will correct it)
        return
    others = [role for role in roles if role not in (seat, CHANCE)]
    if others:
        raise ServiceError(403, "another-seat", f"this is {seat}'s link: it writes {seat}'s moves and what chance "
                                                f"shows; {others[0]}'s moves are written on {others[0]}'s link, "
                                                "or by the table's host")


@router.post("/api/tables/{token}/correct", summary="The host corrects the transcript or changes the reading")
async def table_correct(token: str, request: TableCorrection, jobs: WorkerJobs, tables: TableAccess,
                        limits: ServiceLimits, network: ServiceNetwork) -> dict:
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
                                             "options": CheckOptions(time_limit=limits.time_limit).to_json()})
            players, game = head["players"], head["game"]
        except RefereeError as error:  # stored all the same; the links stay as they were
            unread = error.to_json()
    revision, change, added = await tables.call("correct", link.table, text, request.revision, request.rules,
                                                keep_rules=not change_rules, players=players, game=game)
    seats = {"renamed": [{"from": a, "to": b} for a, b in change.renamed], "removed": list(change.removed),
             "added": [link_json(l, network.link_base()) for l in added]}
    if unread is not None:
        seats["unread"] = {**unread, "message": "the links stay as they were: the header of the corrected text "
                                                f"cannot be read ({unread.get('message')})"}
    return {**revision.summary(), "players": list((await tables.call("table", link.table)).players), "seats": seats}


@router.post("/api/tables/{token}/withdraw", summary="The host withdraws a line from the players' view")
async def table_withdraw(token: str, request: TableWithdrawal, jobs: WorkerJobs, tables: TableAccess,
                         limits: ServiceLimits) -> dict:
    """A new revision (kind `withdrawn`) whose text no longer holds line `line`; from
    then on the players' links read no earlier revision holding it (403 `withdrawn`),
    while the host's reads every revision: nothing written is lost. The header (the
    game and its players) is not withdrawn: it is corrected."""
    link = await tables.link(token)
    if not link.host:
        raise ServiceError(403, "host-only", "only the table's host withdraws a line from the players' view")
    current = await tables.call("revision", link.table)
    lines = current.text.split("\n")
    if 1 <= request.line <= len(lines) and request.revision == current.number:
        rest = "\n".join(lines[:request.line - 1] + lines[request.line:])
        if await _header(jobs, limits, rest) != await _header(jobs, limits, current.text):
            raise ServiceError(422, "header", f"line {request.line} is part of the table's header (its game and "
                                              "players): a withdrawal leaves the header as it stands; correct "
                                              "the line instead")
    revision = await tables.call("withdraw", link.table, request.line, request.revision)
    return revision.summary()


async def _header(jobs, limits, text: str) -> tuple | None:
    """The game and players a transcript's header names (None: it cannot be read)."""
    try:
        head = await jobs.run("header", {"transcript": text, "name": "header", "time_limit": limits.time_limit})
    except RefereeError:
        return None
    return head["game"], tuple(head["players"])


class TableAnswerer:
    """A question about a revision of a table, as its link may ask it: a
    player's link answers as that player (as named at that revision) only."""

    def __init__(self, jobs: WorkerJobs, tables: TableAccess, limits: ServiceLimits):
        self.jobs, self.tables, self.limits = jobs, tables, limits

    async def answer(self, job: str, token: str, request: TableQuestion) -> dict:
        link = await self.tables.link(token, spend=True)
        viewpoint = request.viewpoint
        revision = await self.tables.call("seen_by", link, request.revision)
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
        options = CheckOptions(rules=rules, time_limit=self.limits.time_limit, viewpoint=viewpoint)
        data = {"transcript": revision.text, "name": table.name, "options": options.to_json(), "tolerant": True,
                "table": table.id, "all": request.all}
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
