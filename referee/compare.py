"""Do two rules readings agree? ``referee compare GAME --rules A --rules B``.

Two questions, each answered by a function returning a plain result object with
``to_json()`` and ``to_text()`` (for the command line and, later, a service):

* ``compare_transcripts``: replay transcripts (by default every shipped one)
  under both readings and list the moves where the verdicts or the states part;
* ``compare_search`` (referee/search.py): let the solver look for small
  positions and moves on which the readings disagree, each with a minimal
  witness and a transcript that reproduces it.

Readings and variants: referee/readings.py, docs/translations.md.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from .errors import DataError, RefereeError
from .readings import load_readings

#: Where the shipped transcripts are, relative to the repository root.
TRANSCRIPTS = Path(__file__).resolve().parent.parent / "transcripts"


@dataclass(frozen=True)
class MovePart:
    """A move of a transcript on which the two readings part."""

    number: int
    line: int
    text: str
    what: str  # 'verdict' (the violations differ) or 'state' (the next states differ)
    verdict_a: tuple[str, ...]  # the violated rule ids (empty: legal)
    verdict_b: tuple[str, ...]
    state_only_a: tuple[str, ...] = ()
    state_only_b: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return {"move": self.number, "line": self.line, "text": self.text, "what": self.what,
                "verdict_a": list(self.verdict_a), "verdict_b": list(self.verdict_b),
                "state_only_a": list(self.state_only_a), "state_only_b": list(self.state_only_b)}


@dataclass
class TranscriptComparison:
    """One transcript replayed under both readings."""

    path: str
    moves: int = 0
    parts: list[MovePart] = field(default_factory=list)
    error_a: str = ""  # the transcript could not be read to its end under A
    error_b: str = ""

    @property
    def agree(self) -> bool:
        return not self.parts and self.error_a == self.error_b

    def to_json(self) -> dict:
        return {"path": self.path, "moves": self.moves, "agree": self.agree, "error_a": self.error_a,
                "error_b": self.error_b, "parts": [p.to_json() for p in self.parts]}


@dataclass
class CompareResult:
    """The answer of ``referee compare``: what was compared, what was searched,
    and every place where the readings part."""

    game: str
    reading_a: str
    reading_b: str
    variants_a: tuple[str, ...]
    variants_b: tuple[str, ...]
    mode: str  # 'transcripts' or 'search'
    searched: dict = field(default_factory=dict)
    transcripts: list[TranscriptComparison] = field(default_factory=list)
    disagreements: list = field(default_factory=list)  # search.Disagreement
    dropped: list = field(default_factory=list)  # (scenario, variants) of witnesses that could not be settled
    seconds: float = 0.0

    @property
    def differing(self) -> tuple[str, ...]:
        """The variants in one reading and not the other."""
        return tuple(sorted(set(self.variants_a) ^ set(self.variants_b)))

    @property
    def agree(self) -> bool:
        if self.mode == "transcripts":
            return all(t.agree for t in self.transcripts)
        return not self.disagreements

    def to_json(self) -> dict:
        out = {"game": self.game, "readings": [self.reading_a, self.reading_b],
               "variants": {self.reading_a: list(self.variants_a), self.reading_b: list(self.variants_b)},
               "differing_variants": list(self.differing), "mode": self.mode, "agree": self.agree,
               "searched": self.searched, "seconds": round(self.seconds, 3)}
        if self.mode == "transcripts":
            out["transcripts"] = [t.to_json() for t in self.transcripts]
        else:
            out["disagreements"] = [d.to_json() for d in self.disagreements]
        return out

    def to_text(self) -> str:
        a, b = self.reading_a, self.reading_b
        lines = [f"{self.game}: {a} ({', '.join(self.variants_a) or 'no variants'}) against "
                 f"{b} ({', '.join(self.variants_b) or 'no variants'})",
                 f"variants in one reading only: {', '.join(self.differing) or 'none'}"]
        if self.mode == "transcripts":
            lines.append(f"replayed {len(self.transcripts)} transcripts under both readings "
                         f"({sum(t.moves for t in self.transcripts)} moves, {self.seconds:.1f} s)")
            parted = [t for t in self.transcripts if not t.agree]
            for t in parted:
                lines.append(f"{t.path}:")
                if t.error_a != t.error_b:
                    lines.append(f"  under {a}: {t.error_a or 'read to the end'}")
                    lines.append(f"  under {b}: {t.error_b or 'read to the end'}")
                for p in t.parts:
                    verdicts = f"{a}: {verdict(p.verdict_a)}; {b}: {verdict(p.verdict_b)}"
                    if p.what == "verdict":
                        lines.append(f"  line {p.line}, move {p.number} '{p.text}': verdicts part ({verdicts})")
                    else:
                        diff = ", ".join([f"{a} only {x}" for x in p.state_only_a[:3]]
                                         + [f"{b} only {x}" for x in p.state_only_b[:3]])
                        lines.append(f"  line {p.line}, move {p.number} '{p.text}': states part ({diff}); "
                                     f"later moves are judged in different positions")
            lines.append("the readings agree on every transcript" if not parted else
                         f"{len(parted)} of {len(self.transcripts)} transcripts part")
        else:  # the search: grouped by topic, in plain words (referee/translation_report.py)
            from .translation_report import to_text

            return to_text(self)
        return "\n".join(lines) + "\n"


def verdict(rules: tuple[str, ...]) -> str:
    """A step's verdict in words: "legal" or "illegal (rule, ...)"."""
    return "legal" if not rules else "illegal (" + ", ".join(rules) + ")"


def rules_broken(step) -> tuple[str, ...]:
    """The rule ids a step breaks, sorted."""
    return tuple(sorted({v.rule for v in step.violations}))


def check_readings(game: str, reading_a: str, reading_b: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The variants of both readings; DataError for an unknown game or reading."""
    from .game import check_game

    readings = load_readings(check_game(game))
    return readings.reading(reading_a).variants, readings.reading(reading_b).variants


def shipped_transcripts(game: str) -> list[Path]:
    """Every shipped transcript of a game (transcripts/<game>/**.txt, reports left out)."""
    folder = TRANSCRIPTS / game
    return sorted(p for p in folder.rglob("*.txt") if not p.name.endswith(".report.txt"))


def compare_transcripts(game: str, reading_a: str, reading_b: str,
                        paths: list[Path] | None = None) -> CompareResult:
    """Replay each transcript under both readings and list the moves where the
    verdicts (the violated rules) or the next states part."""
    from .notation import read_transcript
    from .referee import Referee

    started = time.perf_counter()
    variants_a, variants_b = check_readings(game, reading_a, reading_b)
    result = CompareResult(game, reading_a, reading_b, variants_a, variants_b, "transcripts")
    paths = list(paths) if paths is not None else shipped_transcripts(game)
    result.searched = {"transcripts": len(paths)}
    for path in paths:
        shown = _shown(path)
        comparison = TranscriptComparison(shown)
        runs = []
        for reading, slot in ((reading_a, "error_a"), (reading_b, "error_b")):
            try:
                transcript = read_transcript(path)
                if transcript.header.game != game:
                    raise DataError(f"a game of {transcript.header.game}, not {game}")
                runs.append(Referee(transcript, rules=reading).run())
            except RefereeError as error:
                setattr(comparison, slot, str(error).splitlines()[0])
                runs.append(None)
        if runs[0] is not None and runs[1] is not None:
            comparison.moves = len(runs[0].transcript.plays)
            comparison.parts = _parts(runs[0], runs[1])
        result.transcripts.append(comparison)
    result.seconds = time.perf_counter() - started
    return result


def _shown(path: Path) -> str:
    try:
        return path.resolve().relative_to(TRANSCRIPTS.parent).as_posix()
    except ValueError:
        return str(path)


def _parts(run_a, run_b) -> list[MovePart]:
    """The written moves where the verdicts part, and the first where the states part."""
    steps_b = {s.number: s for s in run_b.written()}
    parts: list[MovePart] = []
    parted = False
    for a in run_a.written():
        b = steps_b.get(a.number)
        if b is None:
            continue
        rules_a, rules_b = rules_broken(a), rules_broken(b)
        line = a.play.span.line if a.play else 0
        text = a.play.text if a.play else ""
        if not parted and a.before != b.before:  # parted at a step the referee inserted
            parts.append(MovePart(a.number, line, f"(the steps before) {text}", "state", (), (),
                                  tuple(sorted(map(str, a.before - b.before))),
                                  tuple(sorted(map(str, b.before - a.before)))))
            parted = True
        if rules_a != rules_b:
            parts.append(MovePart(a.number, line, text, "verdict", rules_a, rules_b))
        if not parted and a.after != b.after:
            parts.append(MovePart(a.number, line, text, "state", rules_a, rules_b,
                                  tuple(sorted(map(str, a.after - b.after))),
                                  tuple(sorted(map(str, b.after - a.after)))))
            parted = True
    if not parted and run_a.final != run_b.final:  # bookkeeping after the last written move
        last = max((s.number for s in run_a.written()), default=0)
        parts.append(MovePart(last, 0, "(the steps after the last move)", "state", (), (),
                              tuple(sorted(map(str, run_a.final - run_b.final))),
                              tuple(sorted(map(str, run_b.final - run_a.final)))))
    return parts
