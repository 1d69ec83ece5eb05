"""What the service knows (its games and their rules readings) and its state
(the worker processes and the queue)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request

from referee.ask.session import readings
from referee.game.registry import UnknownGameError, default_game, known_games
from referee.service.dependencies import ServiceNetwork, WorkerJobs
from referee.service.errors import ServiceError

router = APIRouter()


@router.get("/api/games", summary="The games the referee knows")
async def games() -> dict:
    return {"games": [readings(game) for game in known_games()]}


@router.get("/api/readings", summary="The rule readings of a game")
async def game_readings(game: Annotated[str, Query(max_length=40)] = default_game()) -> dict:
    """English and each translation the game's catalogue documents (`rules:` in a transcript)."""
    try:
        return readings(game)
    except UnknownGameError as error:
        raise ServiceError(404, error.code, error.message) from None


@router.get("/api/status", summary="The service's workers and queue")
async def status(http: Request, jobs: WorkerJobs, network: ServiceNetwork) -> dict:
    """The worker processes (pids), requests waiting and running, workers
    replaced, requests dropped because their client left; whether the service
    is on a network. On a network, only from the computer running the service."""
    network.refuse_remote((http.client.host if http.client else "") or "", "the service's status is read")
    return {**jobs.pool.stats(), "pids": jobs.pool.pids(), "network": network.network}
