"""What a user asks the referee, as functions: check a transcript, explain one
move, list the moves possible now. The command line and any service call these."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from .catalogue import load_catalogue
from .engine import Violation
from .errors import NotationError, Position, RefereeError
from .notation import read_transcript
from .referee import Referee, Run, Step
from .report import Breach, Report, Verdict
from .terms import Fn
from .transcript import CycleStart, Transcript

#: Alternatives shown per group, and groups shown, unless everything is asked for.
ALTERNATIVES_PER_GROUP = 6
ALTERNATIVE_GROUPS = 8


class Session:
    """A transcript read and set up for refereeing."""

    def __init__(self, transcript: Transcript | str | Path, *, rules: str | None = None, board: str | None = None,
                 fast_path: bool = True, strict: bool = False, time_limit: float | None = None):
        if not isinstance(transcript, Transcript):
            transcript = read_transcript(transcript)
        self.transcript = transcript
        self.referee = Referee(transcript, fast_path=fast_path, strict=strict, rules=rules, board=board,
                               time_limit=time_limit)
        self.rules = self.referee.rules
        self.catalogue = load_catalogue(self.rules.name)
        self.reading = rules or transcript.header.rules
        if self.reading not in self.catalogue.readings:
            span = transcript.header.spans.get("rules")
            raise NotationError(f"unknown rules reading '{self.reading}'; known readings: "
                                f"{', '.join(self.catalogue.readings)}",
                                Position(transcript.source, span.line, span.column) if span else None)

    # -- verdicts ---------------------------------------------------------------------
    def breach(self, violation: Violation) -> Breach:
        entry = self.catalogue.rule(violation.rule)
        args = [self.rules.term_text(a) for a in violation.args]
        return Breach(violation.rule, entry.title, entry.format(self.rules.role_text(violation.role), args),
                      entry.en, self.reading, entry.sentence(self.reading) if self.reading != "en" else "")

    def verdict(self, run: Run, step: Step, alternatives: bool = False, everything: bool = False) -> Verdict:
        play = step.play or self._nearest_play(run, step)
        line, column = (play.span.line, play.span.column) if play else (1, 1)
        text = step.play.text if step.play else self.rules.describe_move(step.move)
        verdict = Verdict(
            number=step.number, file=self.transcript.source, line=line, column=column,
            cycle=self.rules.cycle(step.before), player=self.rules.role_text(step.role), text=text,
            move=self.rules.describe_move(step.move), legal=step.legal,
            disputed=bool(step.play and step.play.disputed),
            breaches=tuple(self.breach(v) for v in step.violations),
            warnings=self.rules.warnings(step.move) if step.play else (),
            notes=self.rules.notes(step.before, step.move) if step.play and hasattr(self.rules, "notes") else (),
            inserted=step.inserted, period=getattr(self.rules, "period", "cycle"))
        if alternatives:
            who, groups, total, complete = self.alternatives(step.before, everything, besides=step.move)
            verdict = replace(verdict, alternatives=tuple(groups), alternatives_for=who,
                              alternatives_total=total, alternatives_complete=complete)
        return verdict

    def _nearest_play(self, run: Run, step: Step):
        """For a step nobody wrote: the last written move before it."""
        index = run.steps.index(step)
        return next((s.play for s in reversed(run.steps[:index]) if s.play), None)

    def alternatives(self, state: frozenset, everything: bool = False,
                     besides: Fn | None = None) -> tuple[str, list[str], int, bool]:
        """Who decides in ``state`` and what they may do (``besides`` one move),
        grouped for a person: (who, groups, number of moves, whether the groups
        name every move)."""
        role = self.rules.control(state)
        if role is None:
            return "nobody: the game is over", [], 0, True
        moves = [m for r, m in self.referee.legal_moves(state) if r == role and m != besides]
        complete = self._group(moves, None, state, role)
        if everything:
            return self.rules.role_text(role), complete, len(moves), True
        groups = self._group(moves, ALTERNATIVES_PER_GROUP, state, role)
        if len(groups) > ALTERNATIVE_GROUPS:
            groups = groups[:ALTERNATIVE_GROUPS] + [f"and {len(groups) - ALTERNATIVE_GROUPS} more kinds of move"]
        return self.rules.role_text(role), groups, len(moves), groups == complete

    def _group(self, moves: list, limit: int | None, state: frozenset, role) -> list[str]:
        """The game's grouping of moves; a game that words them from the position
        (Luna: 'with 2 of your 3 active novices') says so with ``groups_need_state``."""
        if getattr(self.rules, "groups_need_state", False):
            return self.rules.group_moves(moves, limit, state=state, player=role)
        return self.rules.group_moves(moves, limit)

    # -- the three questions ----------------------------------------------------------------
    def check(self) -> Report:
        run = self.referee.run()
        report = Report(self.transcript.source, self.rules.name, self.reading, self.rules.players,
                        moves_checked=sum(1 for _ in run.written()),
                        cycles=sum(1 for e in self.transcript.events if isinstance(e, CycleStart)),
                        stopped=run.stopped, period=getattr(self.rules, "period", "cycle"))
        for step in run.steps:
            if step.violations:
                report.problems.append(self.verdict(run, step))
            if step.play and step.play.disputed:
                report.disputes.append(self.verdict(run, step, alternatives=True))
            if step.play and self.rules.warnings(step.move):
                report.warnings.append(self.verdict(run, step))
        if self.rules.is_over(run.final):
            report.outcome = self.rules.describe_outcome(run.final)
            report.winners = tuple(self.rules.winners(run.final))
        return report

    def explain(self, move: int | None = None, line: int | None = None, everything: bool = False) -> Verdict:
        number = self.move_number(move, line)
        run = self.referee.run(upto=number + 1)
        step = run.step_of(number)
        if step is None:  # strict mode stopped earlier, or the game ended
            raise RefereeError(f"move {number} was not reached: the check stopped before it")
        return self.verdict(run, step, alternatives=True, everything=everything)

    def moves(self, after: int | None = None, everything: bool = False) -> tuple[str, list[str], int, int, bool]:
        """What the role in control may do after move ``after`` (default: the last)."""
        total = len(self.transcript.plays)
        if after is not None and not 0 <= after <= total:
            raise RefereeError(f"there is no move {after}: the transcript has {total} moves")
        run = self.referee.run(upto=(after + 1) if after is not None else None, close=False)
        who, groups, count, complete = self.alternatives(run.final, everything)
        return who, groups, count, after if after is not None else total, complete

    def move_number(self, move: int | None, line: int | None) -> int:
        plays = self.transcript.plays
        if move is not None:
            if not 1 <= move <= len(plays):
                raise RefereeError(f"there is no move {move}: the transcript has {len(plays)} moves")
            return move
        for number, play in enumerate(plays, start=1):
            if play.span.line == line:
                return number
        raise RefereeError(f"line {line} holds no move")
