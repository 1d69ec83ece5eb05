"""The service's questions as plain data: a request (a dict of JSON values) in,
an answer (a dict of JSON values) out. They run in the service's worker
processes (referee/service/pool.py), so nothing here touches HTTP; each worker keeps
the sessions of the last transcripts it was asked about, so that a table asking
about move after move of one game gets warm answers.

Adding a question is one function here decorated with ``@job`` and one
endpoint in a router of referee/service/routes/."""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import asdict

from referee.ask.options import CheckOptions
from referee.ask.report import lines_json, verdict_json
from referee.ask.session import Session
from referee.base.errors import BoardError, NotationError, Position
from referee.game.notation import parse_transcript
from referee.game.parts import part_class
from referee.game.parts.service import Service
from referee.game.registry import game_class, known_games
from referee.judge import engine

#: The questions a worker answers, by name.
JOBS: dict[str, Callable[[dict], dict]] = {}
#: Sessions a worker keeps (the last transcripts asked about).
KEPT_SESSIONS = 16
#: Tables whose judgements a worker keeps (their engines).
KEPT_TABLES = 32
#: The most lines a tolerant reading sets aside before it gives up.
MAX_UNREAD = 20
#: A header line (docs/notation.md): never set aside.
HEADER_LINE = re.compile(r"\s*(game|players|order|rules|board|position)\s*:", re.IGNORECASE)

_sessions: OrderedDict[tuple, Session] = OrderedDict()
_engines: OrderedDict[tuple, object] = OrderedDict()
#: What this worker has done since it was ready: sessions built (a game read and
#: judged afresh) and solver calls at the time of the warm-up's end (counters()).
_built = 0
_calls_at_start = 0


def job(func: Callable[[dict], dict]) -> Callable[[dict], dict]:
    JOBS[func.__name__] = func
    return func


def session(request: dict) -> Session:
    """The session of the request's transcript and ``options`` (a CheckOptions
    as JSON: the reading, the solver's bound, the viewpoint), as its viewpoint
    sees the game; kept for the next question about the same game, whoever asks.

    ``tolerant``: a line that cannot be read is set aside (read as an empty
    line, so every other line keeps its number) and listed in the session's
    ``unread``. ``table``: the table the transcript is a revision of; the
    judgements made for its earlier revisions are reused (a line added to a
    table costs the judgement of that line, not of the whole game)."""
    options = CheckOptions.from_json(request.get("options"))
    key = (request["transcript"], request.get("name"), options.but(viewpoint=None), bool(request.get("tolerant")),
           request.get("table"))
    global _built
    found = _sessions.get(key)
    if found is None:
        _built += 1
        name = request.get("name") or "transcript.txt"
        transcript, unread = read(request["transcript"], name, bool(request.get("tolerant")))
        board = transcript.header.data_file
        builtin = part_class(game_class(transcript.header.game), Service).builtin_files  # a board: line may name these, no file
        if board is not None and board not in builtin:
            span = transcript.header.spans.get("board")
            uses = f"the built-in boards only ({', '.join(sorted(builtin))})" if builtin else "no board file"
            raise BoardError(f"the service uses {uses}, "
                             f"not the file '{board}': a transcript sent to it cannot name a file of the server",
                             Position(transcript.source, span.line, span.column) if span else None)
        found = Session(transcript, options.but(viewpoint=None))
        found.unread = unread
        if request.get("table") is not None:
            _keep_engine(found, request["table"])
        _sessions[key] = found
        while len(_sessions) > KEPT_SESSIONS:
            _sessions.popitem(last=False)
    _sessions.move_to_end(key)
    return found.seen_by(options.viewpoint)


def _keep_engine(found: Session, table) -> None:
    """Give the session the engine of the table's earlier revisions (same
    reading, same header, same programs), whose judgements it then reuses."""
    engine = found.referee.engine
    key = (table, found.reading, repr(found.transcript.header), tuple(map(str, engine.program_files)),
           engine.time_limit)
    kept = _engines.get(key)
    if kept is None:
        _remember_initial_state(engine)
        _engines[key] = engine
        while len(_engines) > KEPT_TABLES:
            _engines.popitem(last=False)
    else:
        found.referee.engine = kept
        _engines.move_to_end(key)


def _remember_initial_state(engine) -> None:
    """The engine of a table answers ``init`` once per static data: every
    revision's run starts from the same initial state (a solver call saved)."""
    solve = engine.init
    known: dict = {}

    def init(static):
        key = frozenset(static)
        if key not in known:
            known.clear()
            known[key] = solve(static)
        return known[key]

    engine.init = init


def read(text: str, name: str, tolerant: bool):
    """The transcript, and the lines set aside as unreadable (``tolerant``):
    each ``{"line", "column", "code", "message", "text"}``. A header line is
    never set aside: an error there is the transcript's error."""
    lines = text.split("\n")
    unread: list[dict] = []
    while True:
        try:
            return parse_transcript("\n".join(lines), name), unread
        except NotationError as error:
            position = error.position
            if (not tolerant or position is None or not 1 <= position.line <= len(lines)
                    or len(unread) >= MAX_UNREAD or not lines[position.line - 1].strip()
                    or position.line <= _header_end(lines)):
                raise
            unread.append({"line": position.line, "column": position.column, "code": error.code,
                           "message": error.message, "text": lines[position.line - 1]})
            lines[position.line - 1] = ""


def _header_end(lines: list[str]) -> int:
    """The number of the transcript's last header line (0: none)."""
    end = 0
    for number, line in enumerate(lines, start=1):
        if HEADER_LINE.match(line):
            end = number
        elif line.strip() and not line.lstrip().startswith("#"):
            break
    return end


def warm_up() -> None:
    """Load what every request needs once, as a worker starts (before it says
    it is ready): the games, their catalogues, their grammars and programs (a
    game's first question then costs what any other does)."""
    for game in known_games():
        text = part_class(game_class(game), Service).warm_up
        if not text:
            continue
        try:
            session({"transcript": text, "name": "warm-up"}).check()
        except Exception:  # a warm-up that fails costs only time; the request will say what is wrong
            pass
    _sessions.clear()
    _start_counting()


def _start_counting() -> None:
    global _built, _calls_at_start
    _built, _calls_at_start = 0, engine.SOLVER_CALLS


def counters() -> dict:
    """What this worker has done since it was ready (its warm-up not counted):
    ``sessions_built``, the games it read and judged afresh (a question about a
    game it holds builds none), and ``solver_calls``, the solver's runs. The
    pool reports them per worker (GET /api/status)."""
    return {"sessions_built": _built, "solver_calls": engine.SOLVER_CALLS - _calls_at_start}


@job
def header(request: dict) -> dict:
    """A new table's transcript read (tolerantly: its header must be readable):
    its game, players and reading."""
    answer = session({**request, "tolerant": True})
    return {"game": answer.rules.name, "players": list(answer.rules.players), "reading": answer.reading}


@job
def line_roles(request: dict) -> dict:
    """Whose moves the transcript's line ``line`` holds (read tolerantly): the
    roles of its plays, a player's name or chance; none when the line cannot be
    read. A player's link may write only its own seat's moves and chance's
    (routes/tables.py), which is checked against this."""
    transcript, _ = read(request["transcript"], request.get("name") or "transcript.txt", True)
    number = request["line"]
    return {"roles": sorted({play.role for play in transcript.plays if play.span.line <= number <= play.span.end_line})}


@job
def check(request: dict) -> dict:
    """The report of the whole transcript, and each written move's verdict in brief."""
    answer = session(request)
    # read tolerantly, a record that cannot be followed from some line on is reported as
    # `referee check --json` reports it: the moves judged before it, and `error` with its place (docs/report.md)
    report = answer.check(tolerant=bool(request.get("tolerant"))).to_json()
    report["marks"] = [asdict(mark) for mark in answer.marks()]
    report["viewpoint"] = answer.viewpoint
    if getattr(answer, "unread", None):
        report["unread"] = answer.unread
    return report


@job
def explain(request: dict) -> dict:
    """One move explained with its alternatives: ``move``, or the move of ``line``
    that the report flags (``referee explain FILE:LINE``). A line with several such
    moves is answered with the first, and ``line_verdicts`` holds each of them."""
    answer = session(request)
    everything = request.get("all", False)
    if request.get("move") is None and request.get("line") is not None:
        verdicts = answer.explain_line(request["line"], everything=everything)
    else:
        verdicts = [answer.explain(move=request.get("move"), line=request.get("line"), everything=everything)]
    first = verdicts[0]
    shown = {**verdict_json(first), "period": first.period, "viewpoint": answer.viewpoint}
    if len(verdicts) > 1:
        shown["line_verdicts"] = [verdict_json(verdict) for verdict in verdicts]
    return shown


@job
def moves(request: dict) -> dict:
    """What the role in control may do after move ``after`` (default: the last)."""
    answer = session(request)
    who, groups, total, number, complete, lines = answer.moves_with_lines(after=request.get("after"),
                                                                           everything=request.get("all", False))
    return {"after_move": number, "control": who, "moves": groups, "total": total, "complete": complete,
            **({} if lines is None else {"alternative_lines": lines_json(*lines)}), "viewpoint": answer.viewpoint}


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
    from referee.compare.search import compare_search

    options = {k: request[k] for k in ("max_size", "seconds") if request.get(k) is not None}
    return compare_search(request["game"].casefold(), *request["rules"], **options).to_json()
