"""What a user asks the referee, as functions: check a transcript, explain one
move, list the moves possible now, draw the position. The command line and the
service (referee/service.py) call these.

A session may answer as one player sees the game (``Session.seen_by``): then a
decision of another player is listed as the game's rules permit it whatever
that player keeps hidden (the game's ``screen``), so that no answer states
another player's hidden figures (in Cyclades, their gold)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from pathlib import Path

from .catalogue import load_catalogue
from .engine import Violation
from .errors import NotationError, Position, RefereeError
from .games import known_games
from .notation import read_transcript
from .referee import Referee, Run, Step
from .report import Breach, Report, Verdict
from .terms import Fn
from .transcript import CycleStart, Transcript

#: Alternatives shown per group, and groups shown, unless everything is asked for.
ALTERNATIVES_PER_GROUP = 6
ALTERNATIVE_GROUPS = 8
#: The games whose boards the referee draws.
BOARD_GAMES = ("cyclades",)


@dataclass(frozen=True)
class Mark:
    """A written move's verdict in brief, for marking its line."""

    number: int
    line: int
    column: int
    player: str
    text: str
    legal: bool
    disputed: bool


class Session:
    """A transcript read and set up for refereeing."""

    def __init__(self, transcript: Transcript | str | Path, *, rules: str | None = None, board: str | None = None,
                 fast_path: bool = True, strict: bool = False, time_limit: float | None = None,
                 cache: bool = True):
        if not isinstance(transcript, Transcript):
            transcript = read_transcript(transcript)
        self.transcript = transcript
        self.referee = Referee(transcript, fast_path=fast_path, strict=strict, rules=rules, board=board,
                               time_limit=time_limit, cache=cache)
        self.rules = self.referee.rules
        self.catalogue = load_catalogue(self.rules.name)
        self.reading = rules or transcript.header.rules
        self.viewpoint: str | None = None  # the player whose view the answers keep to; None: everything
        if self.reading not in self.catalogue.readings:
            span = transcript.header.spans.get("rules")
            raise NotationError(f"unknown rules reading '{self.reading}'; known readings: "
                                f"{', '.join(self.catalogue.readings)}",
                                Position(transcript.source, span.line, span.column) if span else None)

    def seen_by(self, player: str | None) -> "Session":
        """This session answering as ``player`` (a name from the players line)
        sees the game: another player's hidden figures are never stated. The
        copy shares the referee, so what was judged is not judged again."""
        if player is None:
            return self
        if player not in self.rules.players:
            span = self.transcript.header.spans.get("players")
            raise NotationError(f"'{player}' is not a player of this game; the players are "
                                f"{', '.join(self.rules.players)}",
                                Position(self.transcript.source, span.line, span.column) if span else None)
        seen = copy.copy(self)
        seen.viewpoint = player
        return seen

    def _screened(self, state: frozenset, role) -> frozenset | None:
        """The state as the viewpoint knows it when ``role`` (not the viewpoint)
        decides: the game's ``screen``; None when nothing is hidden from it."""
        if self.viewpoint is None or role == self.viewpoint or not isinstance(role, str):
            return None
        screen = getattr(self.rules, "screen", None)
        return screen(state, self.viewpoint) if screen else None

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
        screened = self._screened(state, role)
        if screened is not None:  # what the rules permit whatever the player keeps hidden
            state = screened
        moves = [m for r, m in self.referee.legal_moves(state) if r == role and m != besides]
        complete = self._group(moves, None, state, role, screened is not None)
        total = None if screened is not None else len(moves)  # a count would tell the hidden figures
        if everything:
            return self.rules.role_text(role), complete, total, True
        groups = self._group(moves, ALTERNATIVES_PER_GROUP, state, role, screened is not None)
        if len(groups) > ALTERNATIVE_GROUPS:
            groups = groups[:ALTERNATIVE_GROUPS] + [f"and {len(groups) - ALTERNATIVE_GROUPS} more kinds of move"]
        return self.rules.role_text(role), groups, total, groups == complete

    def _group(self, moves: list, limit: int | None, state: frozenset, role, screened: bool = False) -> list[str]:
        """The game's grouping of moves; a game that words them from the position
        (Luna: 'with 2 of your 3 active novices') says so with ``groups_need_state``;
        ``screened``: the moves of a player whose hidden figures the reader does not know."""
        extra = {"screened": True} if screened else {}
        if getattr(self.rules, "groups_need_state", False):
            return self.rules.group_moves(moves, limit, state=state, player=role, **extra)
        return self.rules.group_moves(moves, limit, **extra)

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
            report.outcome = self.outcome(run.final)
            report.winners = tuple(self.rules.winners(run.final))
        return report

    def outcome(self, state: frozenset) -> str:
        """The end of the game in words; for a viewpoint, without the hidden figures
        of the other players (a game whose words tell them takes ``viewpoint``)."""
        if self.viewpoint is not None and getattr(self.rules, "screen", None):
            return self.rules.describe_outcome(state, viewpoint=self.viewpoint)
        return self.rules.describe_outcome(state)

    def marks(self) -> list[Mark]:
        """Every written move's verdict in brief (for marking the lines of a page)."""
        run = self.referee.run()
        return [Mark(s.number, s.play.span.line, s.play.span.column, self.rules.role_text(s.role), s.play.text,
                     s.legal, s.play.disputed) for s in run.written()]

    def picture(self, after: int | None = None, svg: bool = True) -> str:
        """The position after move ``after`` (default: the last) drawn as SVG (or
        text): who holds which island, troops, fleets, buildings, markers; never
        gold. A RefereeError for a game whose boards the referee does not draw."""
        from .render import position_from_state, render_svg, render_text

        if self.rules.name not in BOARD_GAMES:
            raise RefereeError(f"the referee draws boards of {', '.join(BOARD_GAMES)}, not of {self.rules.name}")
        total = len(self.transcript.plays)
        if after is not None and not 0 <= after <= total:
            raise RefereeError(f"there is no move {after}: the transcript has {total} moves (0 to {total})")
        run = self.referee.run(upto=(after + 1) if after is not None else None, close=False)
        number = total if after is None else after
        illegal = sum(1 for step in run.written() if step.violations and step.number <= number)
        name = Path(self.transcript.source).name
        title = (f"before the first move of {name}" if number == 0 else
                 f"after move {number} of {name}, cycle {self.rules.cycle(run.final)}")
        if illegal:
            title += f" ({illegal} illegal move{'s' if illegal != 1 else ''} applied as played)"
        render = render_svg if svg else render_text
        return render(self.rules.board, position_from_state(run.final),
                      [(p.name, p.colour) for p in self.transcript.header.players], title=title)

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


def readings(game: str) -> dict:
    """The rule readings of a game: English and each translation (its seed file
    and kind, and the variant modules its reading includes), and every variant
    with its provenance (``referee rules GAME --json``). A RefereeError for a game
    the referee does not know."""
    from .readings import load_readings, readings_json

    if game not in known_games():
        raise RefereeError(f"unknown game '{game}'; the referee knows: {', '.join(known_games())}")
    catalogue = load_catalogue(game)
    encoded = readings_json(load_readings(game))
    variants_of = {r["name"]: r["variants"] for r in encoded["readings"]}
    shown = [{"reading": "en", "language": "en", "source": "the official English rulebook",
              "variants": variants_of.get("en", [])}]
    for name, t in catalogue.translations.items():
        shown.append({"reading": name, "language": name.split("-")[0], "source": t.file, "seed": t.seed,
                      "script": t.script, "kind": t.kind, "variants": variants_of.get(name, [])})
    return {"game": game, "default": "en", "readings": shown, "variants": encoded["variants"]}
