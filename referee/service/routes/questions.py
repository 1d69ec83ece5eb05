"""The questions about a transcript sent whole (check, explain, moves, board),
and the comparison of two rules readings: each validated by its model and
answered by a job of a worker process (referee/service/jobs.py)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request

from referee.ask.options import CheckOptions
from referee.service.dependencies import ServiceLimits, ServiceNetwork, WorkerJobs
from referee.service.models import (
    BoardRequest,
    CheckRequest,
    CompareRequest,
    ExplainRequest,
    MovesRequest,
    TranscriptRequest,
    require_one_move,
)

router = APIRouter()


class Answerer:
    """A question about a transcript sent whole, answered by a job: refused on
    a network (a table's links only) and over the size bound."""

    def __init__(self, jobs: WorkerJobs, limits: ServiceLimits, network: ServiceNetwork):
        self.jobs, self.limits, self.network = jobs, limits, network

    async def answer(self, job: str, request: TranscriptRequest) -> dict:
        self.network.refuse_anonymous()
        self.limits.check_transcript(request.transcript)
        data = request.model_dump(by_alias=True, exclude={"rules", "viewpoint"})
        data["options"] = CheckOptions(rules=request.rules, time_limit=self.limits.time_limit,
                                       viewpoint=request.viewpoint).to_json()
        answer = await self.jobs.run(job, data, recent=hash((request.transcript, request.name, request.rules)))
        answer["request"] = {"rules": request.rules, "as": request.viewpoint, "revision": None}
        return answer


Answer = Annotated[Answerer, Depends(Answerer)]


@router.post("/api/check", summary="Check every move of a transcript")
async def check(request: CheckRequest, answerer: Answer) -> dict:
    """The report of `referee check --json` (docs/report.md), plus `marks`: each
    written move's number, line, column, player, text, legal, disputed."""
    return await answerer.answer("check", request)


@router.post("/api/explain", summary="Explain one move")
async def explain(request: ExplainRequest, answerer: Answer) -> dict:
    """The verdict of `referee explain --json`: legal or not, each broken rule
    (id, English text, the reading's sentence) and the grouped alternatives."""
    require_one_move(request)
    return await answerer.answer("explain", request)


@router.post("/api/moves", summary="What the player in control may do")
async def moves(request: MovesRequest, answerer: Answer) -> dict:
    """As `referee moves --json`: `after_move`, `control`, `moves` (grouped),
    `total` (null when it would tell a hidden figure), `complete`."""
    return await answerer.answer("moves", request)


@router.post("/api/board", summary="The position as an SVG picture")
async def board(request: BoardRequest, answerer: Answer) -> dict:
    """`svg`: the position after move `after` (default: the last), as
    `referee board GAME --transcript T --after N --svg -` draws it."""
    return await answerer.answer("board", request)


@router.post("/api/compare", summary="Where two rules readings disagree")
async def compare(request: CompareRequest, http: Request, jobs: WorkerJobs, limits: ServiceLimits,
                  network: ServiceNetwork) -> dict:
    """As `referee compare GAME --rules A --rules B --json`: the solver's search
    for small positions and moves the two readings judge differently, each
    disagreement with its variants, a minimal witness and both verdicts. On a
    network, only from the computer running the service (a search holds a
    worker for up to --compare-time-limit)."""
    network.refuse_remote((http.client.host if http.client else "") or "", "readings are compared")
    return await jobs.run("compare", request.model_dump(),
                          bound=(limits.compare_time_limit, "referee serve --compare-time-limit"))
