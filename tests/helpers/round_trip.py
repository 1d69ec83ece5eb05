"""The round trip of the move writer (the Words part's ``write_move``): every
legal move of a position, written as a line of the notation and read back in
that position (the record up to there plus the written line), is the same move."""

from __future__ import annotations

from dataclasses import dataclass

from referee.base.errors import NotationError, RefereeError
from referee.game.notation import parse_transcript
from referee.game.parts import part
from referee.game.parts.words import Words
from referee.game.setup import game_rules

#: The positions sampled in a record: its first written move, every 20th, its last.
EVERY = 20


@dataclass(frozen=True)
class Trip:
    """One listed move: the line written for it (None: the notation has no line
    of its own for it) and the move that line reads back as (None: unread)."""

    number: int
    role: object
    move: object
    line: str | None
    read_back: object = None
    why: str = ""


def sampled(steps: list) -> list:
    """The written steps at the sampled positions: the first, every ``EVERY``-th, the last."""
    written = [s for s in steps if s.play is not None and s.number is not None]
    return [s for i, s in enumerate(written) if i % EVERY == 0 or i == len(written) - 1]


def text_before(text: str, play) -> str:
    """The record's text up to where ``play`` was written: the lines before its
    line, and the pieces of its line before it as a line of their own."""
    lines = text.splitlines()
    head = lines[:play.span.line - 1]
    before = lines[play.span.line - 1][:play.span.column - 1].rstrip().rstrip(";,").rstrip()
    if before and not before.endswith(":"):
        head.append(before)
    return "\n".join(head) + "\n"


def round_trips(session, run, path) -> list[Trip]:
    """Every legal move of every sampled position of ``run``, written and read back."""
    text = path.read_text(encoding="utf-8")
    steps = sampled(list(run.steps))
    listed = session.referee.engine.legal_moves_many(session.rules.static, [s.before for s in steps])
    reader = game_rules(session.transcript, rules=session.options.rules)  # no record read through it yet
    words = part(session.rules, Words)
    trips = []
    for step, moves in zip(steps, listed):
        prefix = text_before(text, step.play)
        try:
            known = len(parse_transcript(prefix).plays)
        except NotationError:  # within a piece ('replace Harpy -> ' before its card): no line ends there
            continue
        for role, move in moves:
            try:
                line = words.write_move(role, move, step.before)
            except RefereeError as error:
                trips.append(Trip(step.number, role, move, None, why=error.message))
                continue
            plays = parse_transcript(prefix + line + "\n").plays[known:]
            if len(plays) != 1 or str(plays[0].role) != str(role):
                trips.append(Trip(step.number, role, move, line, why=f"read as {plays}"))
                continue
            trips.append(Trip(step.number, role, move, line, reader.resolve(step.before, plays[0])))
    return trips


def mismatches(trips: list[Trip]) -> list[Trip]:
    """The written moves that did not read back as themselves."""
    return [t for t in trips if t.line is not None and t.read_back != t.move]
