"""Reports: what the referee found, as text for a terminal and as JSON.

A report is made of the judge's values put in words: each move reported is a
:class:`Ruling` (where it is written, who made it, its :class:`Verdict`, each
:class:`Breach` in words as a :class:`WordedBreach`, the alternatives), and the
whole record's verdict is the report's (``Report.verdict``, its exit code).
The JSON form is described by ``referee/ask/schema/report.schema.json`` (and
docs/report.md; a ruling is the schema's "verdict"); the text form has one line
per problem, then a summary.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

from referee.judge.values import Breach, Verdict

SCHEMA_VERSION = 1


@dataclass(frozen=True)
class WordedBreach:
    """A broken rule in words: the catalogue's title and message for it, its
    wording in English and in the reading in use."""

    breach: Breach
    title: str
    message: str
    en: str
    reading: str
    translation: str

    @property
    def rule(self) -> str:
        return self.breach.rule

    def to_json(self) -> dict:
        return {"rule": self.rule, "title": self.title, "message": self.message, "en": self.en,
                "reading": self.reading, "translation": self.translation}


@dataclass(frozen=True)
class Ruling:
    """The referee's ruling on one move: its place, its player, its verdict
    (legal or illegal) and why, in words."""

    number: int | None
    file: str
    line: int
    column: int
    cycle: int
    player: str
    text: str
    move: str
    verdict: Verdict
    disputed: bool
    breaches: tuple[WordedBreach, ...] = ()
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    inserted: str | None = None
    assumptions: tuple[str, ...] = ()  # what the referee took the record to mean at this move
    alternatives: tuple[str, ...] | None = None
    alternatives_for: str | None = None
    alternatives_total: int | None = None
    alternatives_complete: bool | None = None
    alternative_lines: tuple[str, ...] | None = None  # each alternative as a line of the notation (explain)
    alternative_lines_complete: bool | None = None
    period: str = "cycle"  # what the game calls its turns of play (or 'round'...); text only

    @property
    def legal(self) -> bool:
        return self.verdict is Verdict.LEGAL


@dataclass(frozen=True)
class Assumed:
    """What the referee assumed where a record leaves something out or puts it
    out of place (a heading forgotten or written too early), at its line."""

    number: int | None  # the written move it goes with
    file: str
    line: int
    column: int
    text: str


@dataclass
class Report:
    source: str
    game: str
    reading: str
    players: tuple[str, ...]
    moves_checked: int
    cycles: int
    problems: list[Ruling] = field(default_factory=list)
    disputes: list[Ruling] = field(default_factory=list)
    warnings: list[Ruling] = field(default_factory=list)
    assumptions: list[Assumed] = field(default_factory=list)
    error: Exception | None = None  # a RefereeError: the record cannot be read from there on (exit 2)
    stopped: bool = False
    outcome: str = ""
    winners: tuple[str, ...] = ()
    period: str = "cycle"  # what the game calls its turns of play (or 'round'...); text only
    # the placeholder values (a game's data file marks them unverified) the rules read in this game,
    # in words; None for a game without such values: not in the JSON then
    unverified: tuple[str, ...] | None = None

    @property
    def verdict(self) -> Verdict:
        """Unreadable when the record could not be read or followed to its end, else
        illegal when a move broke a rule, else legal."""
        return Verdict.UNREADABLE if self.error is not None else Verdict.of(self.problems)

    @property
    def exit_code(self) -> int:
        return self.verdict.exit_code

    # -- rendering --------------------------------------------------------------------
    def to_json(self) -> dict:
        data = {"schema": SCHEMA_VERSION, "file": self.source, "game": self.game, "rules": self.reading,
                "players": list(self.players), "moves_checked": self.moves_checked, "cycles": self.cycles,
                "legal": self.verdict is Verdict.LEGAL, "stopped_at_first_problem": self.stopped,
                "error": self.error.to_json() if self.error is not None else None,
                "problems": [verdict_json(v) for v in self.problems],
                "disputes": [verdict_json(v) for v in self.disputes],
                "warnings": [verdict_json(v) for v in self.warnings],
                "assumptions": [asdict(a) for a in self.assumptions],
                "outcome": self.outcome, "winners": list(self.winners)}
        if self.unverified is not None:
            data["unverified"] = list(self.unverified)
        return data

    def to_text(self) -> str:
        placed = [((v.line, v.column), problem_line(v)) for v in self.problems]
        placed += [((a.line, a.column), assumption_line(a)) for a in self.assumptions]
        lines = [text for _, text in sorted(placed, key=lambda item: item[0])]
        for v in self.warnings:
            lines.append(f"{v.file}:{v.line}:{v.column}: move {v.number}, {_when(v)}{v.player}: '{v.text}': "
                         f"warning: {'; '.join(v.warnings)}")
        for v in self.disputes:
            lines.append("")
            lines.append(explanation_text(v))
        lines.append("")
        if self.unverified:
            lines.append("Depends on unverified printed values (placeholders, not the printed components; "
                         f"docs/{self.game}.md): {'; '.join(self.unverified)}.")
        lines.append(self.summary())
        return "\n".join(lines).lstrip("\n") + "\n"

    def summary(self) -> str:
        n = len(self.problems)
        illegal = len({(v.line, v.column, v.number) for v in self.problems})
        periods = f" in {self.cycles} {self.period}{'s' if self.cycles != 1 else ''}" if self.period else ""
        parts = [f"{self.source}: checked {self.moves_checked} moves{periods} (rules: {self.reading})"]
        if n == 0:
            parts.append("every move is legal")
        elif self.stopped:
            parts.append("stopped at the first illegal move (--strict)")
        else:
            parts.append(f"{illegal} illegal move{'s' if illegal != 1 else ''} "
                         "(each recorded and applied as played, as a move nobody noticed stands)")
        if self.disputes:
            parts.append(f"{len(self.disputes)} disputed move{'s' if len(self.disputes) != 1 else ''} explained")
        if self.assumptions:
            count = len(self.assumptions)
            parts.append(f"{count} assumption{'s' if count != 1 else ''} about what the record means (lines "
                         "marked 'assumed')")
        if self.warnings:
            parts.append(f"{len(self.warnings)} warning{'s' if len(self.warnings) != 1 else ''}")
        if self.outcome:
            parts.append(self.outcome)
        return "; ".join(parts) + "."


def verdict_json(v: Ruling) -> dict:
    """A ruling as JSON values (the schema's verdict; ``period`` is the report's)."""
    return {"number": v.number, "file": v.file, "line": v.line, "column": v.column, "cycle": v.cycle,
            "player": v.player, "text": v.text, "move": v.move, "legal": v.legal, "disputed": v.disputed,
            "breaches": [b.to_json() for b in v.breaches], "warnings": list(v.warnings), "notes": list(v.notes),
            "inserted": v.inserted, "assumptions": list(v.assumptions),
            "alternatives": list(v.alternatives) if v.alternatives is not None else None,
            "alternatives_for": v.alternatives_for, "alternatives_total": v.alternatives_total,
            "alternatives_complete": v.alternatives_complete,
            **({} if v.alternative_lines is None else
               {"alternative_lines": lines_json(v.alternative_lines, v.alternative_lines_complete)})}


def lines_json(lines, complete: bool) -> dict:
    """The optional ``alternative_lines`` of an answer: each legal move of the role
    deciding as a line of the notation, and whether they are all there."""
    return {"lines": list(lines), "complete": complete}


def assumption_line(a: Assumed) -> str:
    return f"{a.file}:{a.line}:{a.column}: assumed: {a.text}"


def problem_line(v: Ruling) -> str:
    rules = "; ".join(f"{b.rule}: {b.message}" for b in v.breaches)
    what = f"'{v.text}'" if v.number is not None else f"({v.text})"
    number = f"move {v.number}, " if v.number is not None else ""
    return f"{v.file}:{v.line}:{v.column}: {number}{_when(v)}{v.player}: {what}: {rules}"


def _when(v: Ruling) -> str:
    """'cycle 2, ' before the player; nothing for a game without numbered turns of play (period "")."""
    return f"{v.period} {v.cycle}, " if v.period else ""


def explanation_text(v: Ruling, reading_label: str | None = None) -> str:
    """A verdict in full: legal or not, each broken rule with its wordings, and
    the alternatives."""
    head = f"{v.file}:{v.line}:{v.column}: move {v.number}, {_when(v)}{v.player}: '{v.text}'"
    lines = [head, f"  {v.verdict.value.upper()}: {v.move}"]
    for b in v.breaches:
        lines.append(f"  - {b.rule} ({b.title}): {b.message}")
        lines.append(f"      rule (en): {b.en}")
        if b.reading != "en":
            lines.append(f"      rule ({b.reading}): {b.translation or '(this translation does not state it)'}")
    for w in v.warnings:
        lines.append(f"  warning: {w}")
    for n in v.notes:
        lines.append(f"  note: {n}")
    for a in v.assumptions:
        lines.append(f"  assumed: {a}")
    if v.alternatives is not None:
        who = f" ({v.alternatives_for})" if v.alternatives_for else ""
        if v.alternatives:  # a legal move stands: its position's moves are not done "instead" of it
            lines.append(f"  what may be done here{who}:" if v.legal else f"  what may be done instead{who}:")
            lines += [f"    - {a}" for a in v.alternatives]
            if v.alternatives_complete is False:
                total = "a summary" if v.alternatives_total is None else f"{v.alternatives_total} legal moves in all"
                lines.append(f"    ({total}; --all lists every one)")
        else:
            lines.append(f"  nothing else may be done{who}" if v.legal else f"  nothing may be done instead{who}")
    return "\n".join(lines)


def dumps(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
