"""Witnesses a rules editor can use (``referee compare``; docs/translations.md).

The search (:mod:`referee.search`) finds, for each variant in which two readings
differ, a small transcript whose last move the readings judge differently. This
module settles each witness before it is shown:

* its moves before the last are legal under both readings (a witness whose
  set-up one reading refuses shows nothing about the move in question: dropped);
* it ends in a written move whose verdict differs between the readings, or, when
  only the move's effect differs (the Harpy, the order of the retreat decisions),
  a following move of the scenario's ``follow`` list that makes it visible (or,
  at the end of the game, a different winner);
* it is attributed to the variant whose removal makes the disagreement vanish
  (the other reading's variants with that one switched back: the replay agrees),
  not to the variant whose search happened to find it;
* one witness per variant (or set of variants): duplicates are dropped, the
  witness whose own move shows the difference kept first, then the smaller one;
* what differs is said in words (``Witness.said``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from referee.base.errors import RefereeError
from referee.game.readings import Readings
from referee.game.registry import game_class


@dataclass(frozen=True)
class Outcome:
    """A witness transcript refereed under one reading."""

    verdicts: tuple  # per written move, in order: the rule ids it breaks
    lines: tuple  # per written move: its text
    messages: tuple  # per written move: the broken rules in words ("" when legal)
    error: str  # the transcript could not be read to its end: why ("" when it was)
    final: frozenset | None
    outcome: str  # with ``closes``: who wins, in words
    before: tuple  # per written move: the state before it
    after_last: frozenset | None = None  # the state after the last written move
    last_line: int = 0  # the transcript's last line

    @property
    def setup_legal(self) -> bool:
        """Every move before the last was read and is legal; a reading that cannot
        read the transcript stops at its last move (the moves before are then
        the moves judged)."""
        if self.error:
            return self.error.startswith(f"<witness>:{self.last_line}:") and all(not v for v in self.verdicts)
        return all(not v for v in self.verdicts[:-1])

    def last(self) -> tuple:
        return self.verdicts[-1] if self.verdicts else ()


def play(text: str, reading: tuple, readings: Readings, closes: bool = False) -> Outcome:
    """Referee the witness ``text`` under ``reading`` = (name, variants)."""
    from referee.compare.play import referee_under
    from referee.game.notation import parse_transcript

    last_line = len(text.splitlines())
    error = ""
    try:
        referee = referee_under(parse_transcript(text, source="<witness>"), reading, readings)
        run = referee.run(close=closes)
    except RefereeError as failure:  # the moves before the last, judged alone
        error = str(failure).splitlines()[0]
        try:
            setup = "".join(line + "\n" for line in text.splitlines()[:-1])
            referee = referee_under(parse_transcript(setup, source="<witness>"), reading, readings)
            run = referee.run(close=False)
        except RefereeError:
            return Outcome((), (), (), error, None, "", (), None, last_line)
    steps = list(run.written())
    catalogue = _catalogue(referee.rules.name)
    messages = []
    for s in steps:
        said = []
        for v in sorted(s.violations, key=lambda v: v.rule):
            try:
                entry = catalogue.rule(v.rule)
                said.append(entry.format(referee.words.role_text(v.role),
                                         [referee.words.term_text(a) for a in v.args]))
            except Exception:  # a rule the catalogue lacks: its id is all there is
                said.append(v.rule)
        messages.append("; ".join(dict.fromkeys(said)))
    return Outcome(tuple(s.rules_broken for s in steps), tuple(s.play.text if s.play else "" for s in steps),
                   tuple(messages), error, run.final,
                   referee.words.describe_outcome(run.final) if closes and not error else "",
                   tuple(s.before for s in steps), steps[-1].after if steps else None, last_line)


def _catalogue(game: str):
    from referee.game.catalogue import load_catalogue

    return load_catalogue(game)


def parts(a: Outcome, b: Outcome, closes: bool) -> str:
    """How the two outcomes of one witness part: 'verdict' (the last move's
    verdict, or one reading cannot read it), 'outcome' (a different winner),
    'effect' (only the state after the last move), '' (they agree)."""
    if a.error or b.error:
        return "verdict" if a.error != b.error else ""
    if a.last() != b.last():
        return "verdict"
    if closes and a.outcome != b.outcome:
        return "outcome"
    return "effect" if a.final != b.final else ""


def flipped(reading: tuple, variant: str) -> tuple:
    """The reading with one variant switched."""
    name, variants = reading
    return (f"{name}±{variant}", tuple(sorted(set(variants) ^ {variant})))


@dataclass
class Settled:
    """What settling one witness found."""

    text: str
    what: str  # 'verdict' or 'outcome'
    follow: tuple  # the lines added after the move found (a following move that shows an effect)
    causes: tuple
    a: Outcome
    b: Outcome
    period: str = ""  # what the game calls its turns of play


def settle_one(transcript: str, closes: bool, labelled: tuple, follow: tuple, pair: tuple,
               differing: tuple, readings: Readings) -> Settled | None:
    """A witness settled (see the module docstring), or None when it cannot be
    one: a set-up move one reading refuses, or an effect no following move shows."""
    reading_a, reading_b = pair
    a, b = play(transcript, reading_a, readings, closes), play(transcript, reading_b, readings, closes)
    if not _legal_upto(a, b):
        return None
    what = parts(a, b, closes)
    if what in ("verdict", "outcome"):
        causes, _ = _causes(transcript, closes, labelled, pair, differing, readings, a, what)
        return Settled(transcript, what, (), causes, a, b, game_class(readings.game).period)
    if what != "effect":
        return None
    # The move found is legal or illegal alike: a following move must show its effect,
    # and one variant alone must account for what it shows.
    for lines in follow:
        text = transcript + "".join(line + "\n" for line in lines)
        a2, b2 = play(text, reading_a, readings), play(text, reading_b, readings)
        shown = _first_line_differing(a2, b2, len(lines))  # the moves up to the line that shows it
        shown_lines = tuple(lines) if shown is None else tuple(lines[:shown - (len(a2.verdicts) - len(lines))])
        a2, b2 = up_to(a2, shown), up_to(b2, shown)
        if _legal_upto(a2, b2) and parts(a2, b2, False) == "verdict":
            causes, proven = _causes(text, False, labelled, pair, differing, readings, a2, "verdict", shown)
            if proven:
                return Settled(text, "verdict", shown_lines, causes, a2, b2)
    return None


def _first_line_differing(a: Outcome, b: Outcome, following: int) -> int | None:
    """When a follow's line before its last is the first whose verdict differs (a
    line written before one that comes first under one reading is judged where it
    is written: docs/notation.md), the number of written moves up to it; else None."""
    if a.error or b.error or len(a.verdicts) != len(b.verdicts) or len(a.verdicts) < following:
        return None
    start = len(a.verdicts) - following
    for index in range(start, len(a.verdicts) - 1):
        if a.verdicts[index] != b.verdicts[index]:
            return index + 1
    return None


def up_to(o: Outcome, moves: int | None) -> Outcome:
    """The outcome of the first ``moves`` written moves alone (all of them, for None)."""
    if moves is None:
        return o
    return dataclasses.replace(o, verdicts=o.verdicts[:moves], lines=o.lines[:moves],
                               messages=o.messages[:moves], before=o.before[:moves], after_last=None)


def _legal_upto(a: Outcome, b: Outcome) -> bool:
    """Every move before the last is legal under both (the one found included);
    a reading that cannot read the transcript must stop at its last line."""
    return not (a.error and b.error) and a.setup_legal and b.setup_legal


def _causes(transcript: str, closes: bool, labelled: tuple, pair: tuple, differing: tuple,
            readings: Readings, a: Outcome, what: str, moves: int | None = None) -> tuple:
    """The variants whose switch back (in reading B) makes the disagreement
    vanish, the labelled ones tried first, the others only when none of them
    does; and whether one did (else the labelled ones: several variants together)."""
    reading_b = pair[1]

    def vanishes(v: str) -> bool:
        b = up_to(play(transcript, flipped(reading_b, v), readings, closes), moves)
        return parts(a, b, closes) == "" or (what == "verdict" and parts(a, b, closes) == "effect")

    causes = tuple(v for v in labelled if vanishes(v))
    if causes:
        return causes, True
    causes = tuple(v for v in differing if v not in labelled and vanishes(v))
    return (causes, True) if causes else (tuple(labelled), False)


def settle(result, readings: Readings, scenarios: dict) -> None:
    """Settle every witness of a search result in place (see the module docstring)."""
    pair = ((result.reading_a, result.variants_a), (result.reading_b, result.variants_b))
    kept: dict = {}
    for d in result.disagreements:
        closes = d.move.startswith("(")
        scenario = scenarios.get(d.scenario)
        follow = tuple(scenario.follow) if scenario is not None else ()
        settled = settle_one(d.transcript, closes, d.variants, follow, pair, result.differing, readings)
        if settled is None:
            result.dropped.append((d.scenario, d.variants))
            continue
        d.variants = settled.causes
        d.transcript = settled.text
        d.follow = settled.follow
        if settled.follow:
            d.found_move, d.move = d.move, settled.follow[-1]
        d.what = settled.what
        d.verdict_a, d.verdict_b = (("unreadable",) if o.error else o.last() for o in (settled.a, settled.b))
        d.outcome_a, d.outcome_b = settled.a, settled.b
        d.said = said(d, result.reading_a, result.reading_b, settled)
        rank = (bool(settled.follow), len(d.position), len(d.transcript))
        if d.variants not in kept or rank < kept[d.variants][0]:
            kept[d.variants] = (rank, d)
    order = {id(d): i for i, d in enumerate(result.disagreements)}
    result.disagreements = sorted((d for _, d in kept.values()), key=lambda d: order[id(d)])


def said(d, name_a: str, name_b: str, settled: Settled) -> str:
    """What differs, in words: 'under zh-000, after ..., "Ann: take 2 from heap 1"
    is legal; under en it is not: ...'."""
    a, b = settled.a, settled.b
    if settled.what == "outcome":
        return f"at the end of the {settled.period or 'game'}, under {name_a} {a.outcome}; under {name_b} {b.outcome}"
    move = d.move
    after = ""
    if settled.follow:
        then = "".join(f", then \"{line}\"" for line in settled.follow[:-1])
        after = f"after \"{d.found_move}\" (legal under both, with different effects){then}, "

    def one(name: str, o: Outcome) -> str:
        if o.error:
            return f"under {name} the referee cannot read it ({_plain_error(o.error)})"
        if not o.last():
            return f"under {name} it is legal"
        return f"under {name} it is illegal: {o.messages[-1]}"

    return f"{after}\"{move}\": {one(name_a, a)}; {one(name_b, b)}"


def _plain_error(error: str) -> str:
    """An error line without its '<witness>:12:6: error[sequence]: ' prefix."""
    head, sep, rest = error.partition(": error[")
    if sep:
        return rest.partition("]: ")[2] or error
    return error
