"""Reports: what the referee found, as text for a terminal and as JSON.

The JSON form is described by ``referee/ask/schema/report.schema.json`` (and
docs/report.md); the text form has one line per problem, then a summary.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

SCHEMA_VERSION = 1


@dataclass(frozen=True)
class Breach:
    """One broken rule, with its wording in English and in the reading in use."""

    rule: str
    title: str
    message: str
    en: str
    reading: str
    translation: str


@dataclass(frozen=True)
class Verdict:
    """The referee's verdict on one move."""

    number: int | None
    file: str
    line: int
    column: int
    cycle: int
    player: str
    text: str
    move: str
    legal: bool
    disputed: bool
    breaches: tuple[Breach, ...] = ()
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    inserted: str | None = None
    assumptions: tuple[str, ...] = ()  # what the referee took the record to mean at this move
    alternatives: tuple[str, ...] | None = None
    alternatives_for: str | None = None
    alternatives_total: int | None = None
    alternatives_complete: bool | None = None
    period: str = "cycle"  # what the game calls its turns of play (or 'round'...); text only


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
    problems: list[Verdict] = field(default_factory=list)
    disputes: list[Verdict] = field(default_factory=list)
    warnings: list[Verdict] = field(default_factory=list)
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
    def exit_code(self) -> int:
        return 2 if self.error is not None else 1 if self.problems else 0

    # -- rendering --------------------------------------------------------------------
    def to_json(self) -> dict:
        data = {"schema": SCHEMA_VERSION, "file": self.source, "game": self.game, "rules": self.reading,
                "players": list(self.players), "moves_checked": self.moves_checked, "cycles": self.cycles,
                "legal": not self.problems and self.error is None, "stopped_at_first_problem": self.stopped,
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


def verdict_json(v: Verdict) -> dict:
    """A verdict as JSON values (the schema's verdict; ``period`` is the report's)."""
    data = asdict(v)
    del data["period"]
    data["breaches"] = [asdict(b) for b in v.breaches]
    data["warnings"] = list(v.warnings)
    data["notes"] = list(v.notes)
    data["assumptions"] = list(v.assumptions)
    if v.alternatives is not None:
        data["alternatives"] = list(v.alternatives)
    return data


def assumption_line(a: Assumed) -> str:
    return f"{a.file}:{a.line}:{a.column}: assumed: {a.text}"


def problem_line(v: Verdict) -> str:
    rules = "; ".join(f"{b.rule}: {b.message}" for b in v.breaches)
    what = f"'{v.text}'" if v.number is not None else f"({v.text})"
    number = f"move {v.number}, " if v.number is not None else ""
    return f"{v.file}:{v.line}:{v.column}: {number}{_when(v)}{v.player}: {what}: {rules}"


def _when(v: Verdict) -> str:
    """'cycle 2, ' before the player; nothing for a game without numbered turns of play (period "")."""
    return f"{v.period} {v.cycle}, " if v.period else ""


def explanation_text(v: Verdict, reading_label: str | None = None) -> str:
    """A verdict in full: legal or not, each broken rule with its wordings, and
    the alternatives."""
    head = f"{v.file}:{v.line}:{v.column}: move {v.number}, {_when(v)}{v.player}: '{v.text}'"
    lines = [head, f"  {'LEGAL' if v.legal else 'ILLEGAL'}: {v.move}"]
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
