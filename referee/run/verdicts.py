"""A record's report in brief: what an archive (``referee check PATH...``)
says of each record and counts in its summary.

The reports come back from the worker processes (referee/run/worker.py) and
from a resumed archive report (referee/run/archive_report.py) as JSON values;
this module reads them back into the judge's one :class:`Verdict` and counts
each illegal move under one rule broken (the first of its breaches)."""

from __future__ import annotations

from referee.judge.values import Verdict

#: Error codes of a record that was not judged for a reason outside the record (time, a crash):
#: such a record is checked again when an interrupted archive is resumed.
NOT_JUDGED = ("record-time-limit", "solver-limit", "worker")
#: The error code of a record on which the referee failed (a bug).
INTERNAL = "internal"


def verdict_of(report: dict) -> Verdict:
    """A record's verdict from its report: legal, illegal, unreadable, not judged
    (a bound outside the record) or failed (a bug, a worker that died)."""
    error = report.get("error")
    if error is None:
        return Verdict.ILLEGAL if report.get("exit") == 1 else Verdict.LEGAL
    code = error.get("code")
    if code in (INTERNAL, "worker"):
        return Verdict.FAILED
    return Verdict.NOT_JUDGED if code in NOT_JUDGED else Verdict.UNREADABLE


def illegal_moves(report: dict) -> dict[tuple, str | None]:
    """Each illegal move of a record's report (by its place) and the rule it is
    counted under: the first the report gives, its most specific (the catalogue's
    order, docs/rules.md: a generic rule such as not_in_control comes after the
    rule that says what was wrong)."""
    moves: dict[tuple, str | None] = {}
    for problem in report.get("problems") or ():
        key = (problem.get("line"), problem.get("column"), problem.get("number"))
        breaches = problem.get("breaches") or ()
        if moves.get(key) is None:
            moves[key] = breaches[0]["rule"] if breaches else None
    return moves


def brief(report: dict) -> dict:
    """What the archive's summary needs of a record's report (kept for every record of a resumed archive)."""
    by_rule: dict[str, int] = {}
    moves = illegal_moves(report)
    for rule in filter(None, moves.values()):
        by_rule[rule] = by_rule.get(rule, 0) + 1
    return {"file": report.get("file"), "sha256": report.get("sha256"), "exit": report.get("exit", 2),
            "verdict": verdict_of(report), "moves": report.get("moves_checked", 0),
            "illegal_moves": len(moves), "by_rule": by_rule}


def record_line(report: dict) -> str:
    """A record's verdict on one line of text."""
    name = report.get("file", "?")
    verdict = verdict_of(report)
    error = report.get("error")
    if error is not None:
        where = (f"{error['file']}:{error.get('line', 1)}:{error.get('column', 1)}: "
                 if error.get("file") == name and "line" in error else f"{name}: ")
        return f"{where}{verdict}: error[{error.get('code')}]: {error.get('message')}"
    moves = report.get("moves_checked", 0)
    facts = f"{moves} move{'s' if moves != 1 else ''}, rules: {report.get('rules')}"
    parts = []
    if verdict is Verdict.LEGAL:
        parts.append(f"{name}: legal ({facts})")
    else:
        illegal = illegal_moves(report)
        rules = list(dict.fromkeys(filter(None, illegal.values())))  # each move's rule, in the record's order
        first = report["problems"][0]
        parts.append(f"{name}: ILLEGAL: {len(illegal)} illegal move{'s' if len(illegal) != 1 else ''} "
                     f"({', '.join(rules)}), the first on line {first['line']}: '{first['text']}' ({facts})")
        if report.get("stopped_at_first_problem"):
            parts.append("stopped at the first illegal move (--strict)")
    disputes, warnings = len(report.get("disputes") or ()), len(report.get("warnings") or ())
    if disputes:
        parts.append(f"{disputes} disputed move{'s' if disputes != 1 else ''} explained")
    if warnings:
        parts.append(f"{warnings} warning{'s' if warnings != 1 else ''}")
    if report.get("outcome"):
        parts.append(report["outcome"])
    return "; ".join(parts)
