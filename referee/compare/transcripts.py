"""Do two rules readings agree? ``referee compare GAME --rules A --rules B``.

Two questions, each answered by a function returning a plain result object with
``to_json()`` and ``to_text()`` (for the command line and, later, a service):

* ``compare_transcripts``: replay transcripts (by default every shipped one)
  under both readings and list the moves where the verdicts or the states part;
* ``compare_search`` (referee/compare/search.py): let the solver look for small
  positions and moves on which the readings disagree, each with a minimal
  witness and a transcript that reproduces it.

Readings and variants: referee/game/readings.py, docs/translations.md.
"""

from __future__ import annotations

import time
from pathlib import Path

from referee.base.errors import DataError, RefereeError
from referee.compare.result import CompareResult, MovePart, TranscriptComparison, check_readings

#: Where the shipped transcripts are, relative to the repository root.
TRANSCRIPTS = Path(__file__).resolve().parents[2] / "transcripts"


def shipped_transcripts(game: str) -> list[Path]:
    """Every shipped transcript of a game (transcripts/<game>/**.txt, reports left out)."""
    folder = TRANSCRIPTS / game
    return sorted(p for p in folder.rglob("*.txt") if not p.name.endswith(".report.txt"))


def compare_transcripts(game: str, reading_a: str, reading_b: str,
                        paths: list[Path] | None = None) -> CompareResult:
    """Replay each transcript under both readings and list the moves where the
    verdicts (the violated rules) or the next states part."""
    from referee.game.notation import read_transcript
    from referee.judge.visitor import Referee

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
        rules_a, rules_b = a.rules_broken, b.rules_broken
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
