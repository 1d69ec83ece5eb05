"""What ``referee compare`` answers, as values: the moves where two readings
part on a replayed record (:class:`MovePart`, :class:`TranscriptComparison`),
the places the search found (:class:`Disagreement`), and the whole answer
(:class:`CompareResult`, with ``to_json``; in words: referee/compare/report.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.game.readings import load_readings
from referee.judge.values import Verdict


@dataclass(frozen=True)
class MovePart:
    """A move of a transcript on which the two readings part."""

    number: int
    line: int
    text: str
    what: str  # 'verdict' (the violations differ) or 'state' (the next states differ)
    verdict_a: tuple[str, ...]  # the rule ids broken (empty: legal; Verdict.in_words)
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
    disagreements: list = field(default_factory=list)  # Disagreement
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


def check_readings(game: str, reading_a: str, reading_b: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The variants of both readings; DataError for an unknown game or reading."""
    from referee.game.registry import check_game

    readings = load_readings(check_game(game))
    return readings.reading(reading_a).variants, readings.reading(reading_b).variants


@dataclass
class Disagreement:
    """One place where the readings part, with its minimal witness."""

    scenario: str
    variants: tuple[str, ...]
    blocks: tuple[str, ...]
    position: tuple[str, ...]  # the free parts chosen (position: items)
    move: str
    what: str  # 'verdict' or 'effect'
    verdict_a: tuple[str, ...]
    verdict_b: tuple[str, ...]
    transcript: str
    reproduced: bool
    replay: str  # what replaying the transcript under both readings gave
    optimal: bool
    follow: tuple = ()  # the lines written after the move found, to show its effect (referee/witnesses.py)
    found_move: str = ""  # with follow: the move the search found
    said: str = ""  # what differs, in words
    outcome_a: object = None  # witnesses.Outcome under each reading
    outcome_b: object = None

    def to_json(self) -> dict:
        return {"scenario": self.scenario, "variants": list(self.variants), "rule_blocks": list(self.blocks),
                "position": list(self.position), "move": self.move, "what": self.what,
                "verdict_a": list(self.verdict_a), "verdict_b": list(self.verdict_b),
                "transcript": self.transcript, "reproduced": self.reproduced, "replay": self.replay,
                "minimal": self.optimal, "follow": list(self.follow), "said": self.said}

    def to_text(self, a: str, b: str) -> list[str]:
        out = [f"disagreement in scenario {self.scenario} (variants {', '.join(self.variants)}; "
               f"rule blocks {', '.join(self.blocks)}):",
               f"  position: {'; '.join(self.position) or 'the scenario as it stands'}"
               f"{'' if self.optimal else ' (not proven minimal within the time bound)'}",
               f"  move: {self.move}",
               f"  {a}: {Verdict.in_words(self.verdict_a)}; {b}: {Verdict.in_words(self.verdict_b)}"
               + ("" if self.what == "verdict" else " — the next states differ"),
               f"  replayed with referee check: {self.replay}",
               "  witness transcript:"]
        out += ["    " + line for line in self.transcript.splitlines()]
        return out
