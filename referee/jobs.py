"""The service's questions as plain data: a request (a dict of JSON values) in,
an answer (a dict of JSON values) out. They run in the service's worker
processes (referee/pool.py), so nothing here touches HTTP; each worker keeps
the sessions of the last transcripts it was asked about, so that a table asking
about move after move of one game gets warm answers.

Adding a question is one function here decorated with ``@job`` and one
endpoint in referee/service.py."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import asdict

from .api import Session
from .errors import BoardError, Position
from .game import game_class
from .notation import parse_transcript
from .report import verdict_json

#: The questions a worker answers, by name.
JOBS: dict[str, Callable[[dict], dict]] = {}
#: Sessions a worker keeps (the last transcripts asked about).
KEPT_SESSIONS = 8

_sessions: OrderedDict[tuple, Session] = OrderedDict()


def job(func: Callable[[dict], dict]) -> Callable[[dict], dict]:
    JOBS[func.__name__] = func
    return func


def session(request: dict) -> Session:
    """The session of the request's transcript and reading, as its viewpoint
    (``as``) sees the game; kept for the next question about the same game."""
    key = (request["transcript"], request.get("name"), request.get("rules"), request.get("time_limit"))
    found = _sessions.get(key)
    if found is None:
        transcript = parse_transcript(request["transcript"], request.get("name") or "transcript.txt")
        board = transcript.header.board
        builtin = game_class(transcript.header.game).builtin_boards  # a board: line may name these, no file
        if board is not None and board not in builtin:
            span = transcript.header.spans.get("board")
            uses = f"the built-in boards only ({', '.join(sorted(builtin))})" if builtin else "no board file"
            raise BoardError(f"the service uses {uses}, "
                             f"not the file '{board}': a transcript sent to it cannot name a file of the server",
                             Position(transcript.source, span.line, span.column) if span else None)
        found = Session(transcript, rules=request.get("rules"), time_limit=request.get("time_limit"))
        _sessions[key] = found
        while len(_sessions) > KEPT_SESSIONS:
            _sessions.popitem(last=False)
    _sessions.move_to_end(key)
    return found.seen_by(request.get("as"))


@job
def check(request: dict) -> dict:
    """The report of the whole transcript, and each written move's verdict in brief."""
    answer = session(request)
    report = answer.check().to_json()
    report["marks"] = [asdict(mark) for mark in answer.marks()]
    report["viewpoint"] = answer.viewpoint
    return report


@job
def explain(request: dict) -> dict:
    """One move (``move`` or ``line``), explained with its alternatives."""
    answer = session(request)
    verdict = answer.explain(move=request.get("move"), line=request.get("line"), everything=request.get("all", False))
    return {**verdict_json(verdict), "period": verdict.period, "viewpoint": answer.viewpoint}


@job
def moves(request: dict) -> dict:
    """What the role in control may do after move ``after`` (default: the last)."""
    answer = session(request)
    who, groups, total, number, complete = answer.moves(after=request.get("after"),
                                                         everything=request.get("all", False))
    return {"after_move": number, "control": who, "moves": groups, "total": total, "complete": complete,
            "viewpoint": answer.viewpoint}


@job
def board(request: dict) -> dict:
    """The position after move ``after`` (default: the last) as an SVG picture."""
    answer = session(request)
    after = request.get("after")
    return {"after_move": after if after is not None else len(answer.transcript.plays),
            "svg": answer.picture(after, svg=True)}


@job
def compare(request: dict) -> dict:
    """The solver's search for positions where two rules readings disagree."""
    from .search import compare_search

    options = {k: request[k] for k in ("max_size", "seconds") if request.get(k) is not None}
    return compare_search(request["game"].casefold(), *request["rules"], **options).to_json()
