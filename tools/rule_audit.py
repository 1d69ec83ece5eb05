"""Which transcript or test shows each rule id as the first breach of its own mistake.

    python tools/rule_audit.py [GAME ...]      # the table, then the figures

For every rule id that a violation of the rule programs names (the ``violation(Id,
...)`` atoms of ``referee/game/rules.lp`` and ``referee/games/<game>/rules/**/*.lp``), the
audit looks for evidence that a report names that rule *first* for the mistake it
is about (docs/report.md, "The order of breaches"):

* a shipped ``transcripts/<game>/illegal-*.txt`` whose header names the rule
  (``# Rule broken by the last move: <id>``) and whose expected report
  (``X.report.txt``, compared with the referee's output by
  tests/ask/test_transcripts.py) gives it first on the illegal move's line;
* a readings witness (``transcripts/<game>/readings/*.txt``) whose header
  mentions the rule and one of whose expected reports gives it first;
* for a generic rule, which is shown first only when no specific rule
  applies: an ``illegal-*`` transcript whose header names it (``# Also broken
  by it: <id>``) and whose report gives it after the specific breach;
* a test of ``tests/`` that asserts the rule is the only breach of a move
  (``("<id>",)``, ``.rules == {"<id>"}``) or the first one (``.first ==``, a list
  of rule ids in report order beginning with it).

It also counts the transcripts whose expected report gives a generic rule (a
catalogue entry with ``generic = true``, such as ``not_in_control``) first for the
illegal move: the moves on which the person learns only that it was not their turn.
tests/game/test_rule_audit.py asserts that every rule id has evidence and that no
report puts a generic breach before a specific one.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from referee.game.catalogue import load_catalogue  # noqa: E402

GAMES = ("cyclades", "luna")
_VIOLATION = re.compile(r"\bviolation\(\s*([a-z][a-z0-9_]*)\s*,")
_BREACH = re.compile(r"(?:'|\)): ([a-z][a-z0-9_]*): ")
_HEADER_RULE = re.compile(r"^# Rule broken by the last move: ([a-z0-9_]+)", re.MULTILINE)


def violation_ids(game: str) -> list[str]:
    """Every rule id a violation of the game's rule programs (and of referee/game/rules.lp) names."""
    files = [REPO / "referee" / "game" / "rules.lp", *sorted((REPO / "referee" / "games" / game / "rules").rglob("*.lp"))]
    ids: set[str] = set()
    for path in files:
        code = re.sub(r"%[^\n]*", "", path.read_text(encoding="utf-8"))
        ids |= set(_VIOLATION.findall(code))
    return sorted(ids)


def first_breaches(report_text: str, known: set[str]) -> list[tuple[int, str, list[str]]]:
    """(line, first rule, every rule) of each problem line of a text report."""
    found = []
    for line in report_text.splitlines():
        head = re.match(r"\S+?:(\d+):\d+: ", line)
        if not head:
            continue
        rules = [m.group(1) for m in _BREACH.finditer(line) if m.group(1) in known]
        rules += [r for r in re.findall(r"; ([a-z][a-z0-9_]*): ", line) if r in known and r not in rules]
        if rules:
            found.append((int(head.group(1)), rules[0], rules))
    return found


@dataclass
class Audit:
    game: str
    ids: list[str]
    generic: set[str]
    shown_by: dict[str, list[str]] = field(default_factory=dict)  # rule id -> evidence
    generic_first: list[str] = field(default_factory=list)  # illegal transcripts led by a generic breach
    misordered: list[str] = field(default_factory=list)  # report lines with a generic breach before a specific one

    @property
    def missing(self) -> list[str]:
        return [i for i in self.ids if not self.shown_by.get(i)]


def _transcript_evidence(audit: Audit, known: set[str]) -> None:
    folder = REPO / "transcripts" / audit.game
    for path in sorted(folder.rglob("*.txt")):
        if path.name.endswith(".report.txt"):
            continue
        text = path.read_text(encoding="utf-8")
        reports = sorted(path.parent.glob(path.name[:-len(".txt")] + "*.report.txt"))
        if path.parent.name == "readings":
            named = set(re.findall(r"[a-z][a-z0-9_]+", "\n".join(l for l in text.splitlines() if l.startswith("#"))))
        elif path.name.startswith("illegal-"):
            header = _HEADER_RULE.search(text)
            named = {header.group(1)} if header else set()
            also = set(re.findall(r"^# Also broken by it: ([a-z0-9_]+)", text, re.MULTILINE))
        else:
            named = set()
        if not path.name.startswith("illegal-"):
            also = set()
        for report in reports:
            for line, first, rules in first_breaches(report.read_text(encoding="utf-8"), known):
                where = f"{path.relative_to(REPO).as_posix()}:{line}"
                if first in named:
                    audit.shown_by.setdefault(first, []).append(where)
                for rule in rules[1:]:  # a catch-all the header names, after the specific breach
                    if rule in audit.generic and rule in also:
                        audit.shown_by.setdefault(rule, []).append(where + " (after a specific breach)")
                if first in audit.generic and path.name.startswith("illegal-"):
                    audit.generic_first.append(where)
                seen_generic = False
                for rule in rules:
                    if rule in audit.generic:
                        seen_generic = True
                    elif seen_generic:
                        audit.misordered.append(f"{report.relative_to(REPO).as_posix()}: {where}")
                        break


def _test_functions() -> list[tuple[str, str]]:
    """(node id, source) of every test function under tests/."""
    out = []
    for path in sorted((REPO / "tests").rglob("test_*.py")):
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                out.append((f"{path.relative_to(REPO).as_posix()}::{node.name}", ast.get_source_segment(source, node)))
    return out


def shows_first(source: str, rule: str) -> bool:
    """Whether a test's source asserts that ``rule`` is the only or the first breach of a move."""
    r = re.escape(rule)
    patterns = (rf'\(\s*"{r}"\s*,\s*\)',  # a sole breach: ("id",)
                rf'\.rules\s*==\s*\{{\s*"{r}"\s*\}}',  # Luna's sole breach: .rules == {"id"}
                rf'\.first\s*==\s*"{r}"',  # Luna's first breach
                rf'\.first\s*==\s*\[[^\]]*?"{r}"\s*\)',  # Cyclades: .first == [(line, "id")]
                rf'==\s*\[\s*"{r}"\s*[,\]]')  # a list of rule ids in report order, beginning with it
    return any(re.search(p, source) for p in patterns)


def audit(game: str, tests: list[tuple[str, str]] | None = None) -> Audit:
    catalogue = load_catalogue(game)
    known = set(catalogue)
    result = Audit(game, violation_ids(game), {i for i in known if catalogue.rule(i).generic})
    _transcript_evidence(result, known)
    for node, source in tests if tests is not None else _test_functions():
        if any(f"tests/{other}/" in node for other in GAMES if other != game):
            continue
        for rule in result.ids:
            if shows_first(source, rule):
                result.shown_by.setdefault(rule, []).append(node)
    return result


def main(argv: list[str]) -> int:
    games = argv or list(GAMES)
    tests = _test_functions()
    missing = 0
    for game in games:
        a = audit(game, tests)
        print(f"== {game}: {len(a.ids)} rule ids named by violations")
        for rule in a.ids:
            evidence = a.shown_by.get(rule, [])
            transcripts = [e for e in evidence if e.startswith("transcripts/")]
            shown = (transcripts or evidence or ["NOT SHOWN FIRST ANYWHERE"])[0]
            more = f" (+{len(evidence) - 1})" if len(evidence) > 1 else ""
            print(f"  {rule:32} {shown}{more}")
        by_transcript = sum(1 for r in a.ids if any(e.startswith("transcripts/") for e in a.shown_by.get(r, [])))
        print(f"  shown first by a transcript: {by_transcript}; by a test only: "
              f"{len(a.ids) - by_transcript - len(a.missing)}; not shown first: {len(a.missing)} {a.missing}")
        print(f"  illegal transcripts whose illegal move is led by a generic breach: {len(a.generic_first)} "
              f"{a.generic_first}")
        print(f"  report lines with a generic breach before a specific one: {len(a.misordered)}")
        missing += len(a.missing) + len(a.misordered)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
