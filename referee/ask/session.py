"""What a user asks the referee, as functions: check a transcript, explain one
move, list the moves possible now, draw the position. The command line and the
service (referee/service/app.py) call these.

A session may answer as one player sees the game (``Session.seen_by``): then a
decision of another player is listed as the game's rules permit it whatever
that player keeps hidden (the game's ``screen``), so that no answer states
another player's hidden figures (such as gold behind a screen)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from pathlib import Path

from referee.ask.options import CheckOptions
from referee.ask.report import Assumed, Report, Ruling, WordedBreach
from referee.base.errors import NotationError, Position, ReadingError, RefereeError, SolverLimitError
from referee.game.catalogue import load_catalogue
from referee.game.contract import lacks
from referee.game.notation import parse_transcript, read_transcript
from referee.game.parts import part, part_class
from referee.game.parts.screen import Screen
from referee.game.parts.values import Values
from referee.game.picture import Picture
from referee.game.registry import check_game, game_class
from referee.judge.values import Breach, Run, Step, Verdict
from referee.judge.visitor import Referee
from referee.text.transcript import PeriodStart, Transcript

#: Alternatives shown per group, and groups shown, unless everything is asked for.
ALTERNATIVES_PER_GROUP = 6
ALTERNATIVE_GROUPS = 8
#: Amounts of a hidden figure judged in one solver call when the figure a verdict leaves
#: possible is looked for (``Session._consistent``): 1 is a plain bisection.
PROBES = 10
#: At most this many notation lines of the alternatives (``Session.alternative_lines``).
ALTERNATIVE_LINES = 200


def picture_of(game: str) -> Picture:
    """The picture of a game (referee.game.picture), or a RefereeError: an
    unknown game, or a game that has no picture (yet)."""
    cls = game_class(game)
    picture = part_class(cls, Picture)
    if picture is Picture:
        raise lacks(cls, "board picture")  # its text: what users read
    return picture()


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

    def __init__(self, transcript: Transcript | str | Path, options: CheckOptions | None = None, *,
                 cache: bool = True):
        """``options``: how the record is read and judged, and as whom it is seen
        (referee/ask/options.py; None: the defaults); ``cache``: whether the
        judgement cache on disk is read and written."""
        options = options or CheckOptions()
        if not isinstance(transcript, Transcript):
            transcript = read_transcript(transcript)
        self.transcript = transcript
        self.referee = Referee(transcript, fast_path=options.fast_path, strict=options.strict, rules=options.rules,
                               data_file=options.data_file, time_limit=options.time_limit, cache=cache)
        self.rules = self.referee.rules
        self.words = self.referee.words
        self.catalogue = load_catalogue(self.rules.name)
        self.reading = options.rules or transcript.header.rules
        self.viewpoint: str | None = None  # the player whose view the answers keep to; None: everything
        known = _known_readings(self.rules.name, self.catalogue)
        if self.reading not in known:
            span = transcript.header.spans.get("rules")
            raise ReadingError(f"unknown rules reading '{self.reading}'; known readings: {', '.join(known)}",
                                Position(transcript.source, span.line, span.column) if span else None)
        # the catalogue reading whose sentences the reports quote: a reading that is no
        # translation (a publisher's ruling, say: readings.toml) quotes the English
        self.quoting = self.reading if self.reading in self.catalogue.readings else "en"
        if options.viewpoint is not None:
            self.viewpoint = self._player(options.viewpoint)
        self.options = options  # as the answers are given (seen_by: another viewpoint)

    def seen_by(self, player: str | None) -> "Session":
        """This session answering as ``player`` (a name from the players line)
        sees the game: another player's hidden figures are never stated. The
        copy shares the referee, so what was judged is not judged again."""
        if player is None:
            return self
        seen = copy.copy(self)
        seen.viewpoint = self._player(player)
        seen.options = self.options.but(viewpoint=player)
        return seen

    def _player(self, player: str) -> str:
        """``player``, a player of this game; a NotationError at the players line otherwise."""
        if player not in self.rules.players:
            span = self.transcript.header.spans.get("players")
            raise NotationError(f"'{player}' is not a player of this game; the players are "
                                f"{', '.join(self.rules.players)}",
                                Position(self.transcript.source, span.line, span.column) if span else None)
        return player

    def _screened(self, state: frozenset, role) -> frozenset | None:
        """The state as the viewpoint knows it when ``role`` (not the viewpoint)
        decides: the game's ``screen``; None when nothing is hidden from it."""
        if self.viewpoint is None or role == self.viewpoint or not isinstance(role, str):
            return None
        return part(self.rules, Screen).screen(state, self.viewpoint)

    def _hidden_from_viewer(self, role) -> bool:
        """Whether ``role``'s hidden figures are hidden from the viewpoint: a player's
        own are not, nor anyone's when the session answers for everyone."""
        return self.viewpoint is not None and role != self.viewpoint and role in self.rules.players

    # -- verdicts ---------------------------------------------------------------------
    def breach(self, breach: Breach) -> WordedBreach:
        """A broken rule in words: the catalogue's message with its parts, the rule in English and in the reading."""
        entry = self.catalogue.rule(breach.rule)
        args = [self.words.term_text(a) for a in breach.args]
        message = entry.format(self.words.role_text(breach.role), args, screened=self._hidden_from_viewer(breach.role))
        return WordedBreach(breach, entry.title, message,
                            entry.en, self.quoting, entry.sentence(self.quoting) if self.quoting != "en" else "")

    def verdict(self, run: Run, step: Step, alternatives: bool = False, everything: bool = False,
                lines: bool = False) -> Ruling:
        """The ruling on a step of ``run``: its verdict and breaches in words (and, with
        ``alternatives``, what its player might have done instead; with ``lines``
        too, each of those moves as a line of the notation)."""
        play = step.play or self._nearest_play(run, step)
        line, column = (play.span.line, play.span.column) if play else (1, 1)
        text = step.play.text if step.play else self.words.describe_move(step.move)
        verdict = Ruling(
            number=step.number, file=self.transcript.source, line=line, column=column,
            cycle=self.rules.period_number(step.before), player=self.words.role_text(step.role), text=text,
            move=self.words.describe_move(step.move), verdict=step.verdict,
            disputed=bool(step.play and step.play.disputed),
            breaches=tuple(self.breach(v) for v in self.catalogue.ordered(step.violations)),
            warnings=self.words.warnings(step.move) if step.play else (),
            notes=self.words.notes(step.before, step.move) if step.play else (),
            inserted=step.inserted, period=self.rules.period,
            assumptions=tuple(a.text for a in run.assumptions if step.number is not None and a.number == step.number))
        if alternatives:
            # The position the move was decided in, as `moves --after N-1` shows it: the
            # written move itself is not taken out (another role's move may be legal here).
            judged = _judged(step)
            who, groups, total, complete = self.alternatives(step.before, everything, judged)
            verdict = replace(verdict, alternatives=tuple(groups), alternatives_for=who,
                              alternatives_total=total, alternatives_complete=complete)
            written = self.alternative_lines(step.before) if lines else None
            if written is not None:
                verdict = replace(verdict, alternative_lines=tuple(written[0]), alternative_lines_complete=written[1])
        return verdict

    def _nearest_play(self, run: Run, step: Step):
        """For a step nobody wrote: the last written move before it."""
        index = run.steps.index(step)
        return next((s.play for s in reversed(run.steps[:index]) if s.play), None)

    def alternatives(self, state: frozenset, everything: bool = False,
                     judged: tuple | None = None) -> tuple[str, list[str], int, bool]:
        """Who decides in ``state`` and what they may do, grouped for a person:
        (who, groups, number of moves, whether the groups name every move). For a
        written move this is the position before it, exactly as ``moves`` lists
        it after the move before (docs/report.md, "What may be done instead").
        ``judged``: the (role, move) judged illegal there, if any; for a player whose
        hidden figures the viewpoint does not know, the moves are those the rules
        permit at the largest figure the verdict leaves possible (``_consistent``),
        so that no alternative contradicts it."""
        role = self.rules.control(state)
        if role is None:
            return "nobody: the game is over", [], 0, True
        screened = self._screened(state, role)
        listed = state if screened is None else self._consistent(screened, role, judged)
        if screened is not None:  # worded from what the rules permit whatever the player keeps hidden
            state = screened
        moves = [m for r, m in self.referee.legal_moves(listed) if r == role]
        if judged is not None and judged[0] == role:  # (illegal in truth: listed only if the figure found fails)
            moves = [m for m in moves if m != judged[1]]
        complete = self._group(moves, None, state, role, screened is not None)
        total = None if screened is not None else len(moves)  # a count would tell the hidden figures
        if everything:
            return self.words.role_text(role), complete, total, True
        groups = self._group(moves, ALTERNATIVES_PER_GROUP, state, role, screened is not None)
        if len(groups) > ALTERNATIVE_GROUPS:
            groups = groups[:ALTERNATIVE_GROUPS] + [f"and {len(groups) - ALTERNATIVE_GROUPS} more kinds of move"]
        return self.words.role_text(role), groups, total, groups == complete

    def _consistent(self, screened: frozenset, role, judged: tuple | None) -> frozenset:
        """The position in which the moves of ``role``, a player whose hidden figure
        the viewpoint does not know, are listed: ``screened`` (their figure at the
        Screen part's highest amount), unless the verdict that their move
        (``judged``: role and move) is illegal where ``screened`` permits it tells
        that their figure is lower. Then their figure is the largest amount at which
        that move is still illegal: legality is monotone in the figure
        (referee/game/parts/screen.py), so a bisection between 0 and the highest
        amount finds it, each probe judging that one move (``Referee.violations``),
        ``PROBES`` probes a solver call (the range cut in ``PROBES + 1`` parts at
        each step rather than 2). Every move listed there is legal at a figure the
        verdict leaves possible, and the amount is one the viewpoint may know: it
        follows from the verdict and what the viewpoint sees, not from the figure."""
        if judged is None or judged[0] != role:
            return screened
        move, screen = judged[1], part(self.rules, Screen)
        # First the move at the highest amount, with the legal moves there in the same
        # call: illegal there too, the verdict does not rest on the figure, and those
        # moves are the alternatives (as many solver calls as without a verdict).
        if self.referee.violations(screened, role, move, listing=True):
            return screened
        # Then the bisection: illegal at low (in truth, the figure being at least 0:
        # monotonicity), legal at high. (Were the move legal even at 0, the figure
        # found would be 0, where the fewest moves are legal, and ``alternatives``
        # leaves the judged move out.)
        low, high = 0, screen.highest()
        amounts = _cuts(low, high, PROBES)
        while amounts:
            broken = self.referee.violations_many([(screen.with_amount(screened, role, a), role, move)
                                                   for a in amounts])
            high = next((a for a, b in zip(amounts, broken) if not b), high)
            low = max((a for a, b in zip(amounts, broken) if b and a < high), default=low)
            amounts = _cuts(low, high, PROBES)
        self.referee.engine.flush()  # the probes' judgements, for the next question
        return screen.with_amount(screened, role, low)

    def alternative_lines(self, state: frozenset) -> tuple[list[str], bool] | None:
        """The legal moves of the role deciding in ``state``, each as the line of
        the notation that means it (the game's move writer), at most
        ``ALTERNATIVE_LINES``, and whether that is every legal move. None when the
        game has no move writer, nobody decides, or the moves are screened (a
        player's moves whose hidden figures the viewpoint does not know: their
        lines would tell them)."""
        role = self.rules.control(state)
        if role is None or not self.words.writes_moves or self._screened(state, role) is not None:
            return None
        moves = sorted((m for r, m in self.referee.legal_moves(state) if r == role), key=_listing_order)
        written = []
        for move in moves:
            try:
                written.append(self.words.write_move(role, move, state))
            except RefereeError:  # a move the notation writes only with another
                continue
        lines = list(dict.fromkeys(written))
        return lines[:ALTERNATIVE_LINES], len(lines) <= ALTERNATIVE_LINES and len(written) == len(moves)

    def _listed(self, state: frozenset, judged: tuple | None = None) -> frozenset:
        """The position whose legal moves are the alternatives in ``state``: for a
        viewpoint, what the rules permit at the figures the deciding player keeps
        hidden that the verdict on ``judged`` (if any) leaves possible (``_consistent``)."""
        role = self.rules.control(state)
        screened = self._screened(state, role) if role is not None else None
        return state if screened is None else self._consistent(screened, role, judged)

    def _group(self, moves: list, limit: int | None, state: frozenset, role, screened: bool = False) -> list[str]:
        """The game's grouping of moves, worded from the position (``state``, the
        deciding ``role``); ``screened``: the moves of a player whose hidden figures
        the reader does not know."""
        return self.words.group_moves(moves, limit, state=state, player=role, screened=screened)

    # -- the three questions ----------------------------------------------------------------
    def check(self, alternatives: bool = False, tolerant: bool = False) -> Report:
        """Judge every move. A record that cannot be followed to its end raises
        the problem its run met (a SequenceError); ``tolerant``, it gets the
        report of the moves judged before it instead, the problem its ``error``
        (``unreadable_report``; a bound hit or a failure of the referee is raised
        either way). With ``alternatives`` and the judgement cache on, the
        alternatives of every illegal move and of the last move, and the moves
        that may be made where the record stops, are listed too and kept, so that
        ``explain`` of those moves and ``moves`` after this check need no solver
        (``referee check`` of one record: what a table asks next)."""
        run = self.referee.follow()
        if run.problem is None:
            return self._report(run, alternatives)
        if not tolerant or run.verdict is not Verdict.UNREADABLE:
            raise run.problem
        return unreadable_report(run.problem, session=self, run=run, alternatives=alternatives)

    def _report(self, run: Run, alternatives: bool = False) -> Report:
        report = Report(self.transcript.source, self.rules.name, self.reading, self.rules.players,
                        moves_checked=sum(1 for _ in run.written()), cycles=run.periods,
                        stopped=run.stopped, period=self.rules.period,
                        assumptions=[Assumed(a.number, self.transcript.source, a.line, a.column, a.text)
                                     for a in run.assumptions])
        written = [s for s in run.written() if s.play]
        disputed = [self._listed(s.before, _judged(s)) for s in written if s.play.disputed]
        if alternatives and self.referee.engine.store is not None:  # what a table asks next, kept
            asked = [self._listed(s.before, _judged(s)) for s in [*(s for s in written if s.violations), *written[-1:]]]
            unclosed = run.unclosed()
            if unclosed is not None and self.rules.control(unclosed.final) is not None:
                asked.append(self._listed(unclosed.final))  # `moves`: what may be done now
            try:  # with the disputed moves' alternatives: the legal moves of many positions in a few solver calls
                self.referee.engine.legal_moves_many(self.rules.static, disputed + asked)
            except SolverLimitError:  # over the time bound: an explain lists them, or says so
                pass
        if disputed:  # their alternatives, for the report
            self.referee.engine.legal_moves_many(self.rules.static, disputed)
        for step in run.steps:
            if step.violations:
                report.problems.append(self.verdict(run, step))
            if step.play and step.play.disputed and step.number is not None:
                report.disputes.append(self.verdict(run, step, alternatives=True))
            if step.play and step.number is not None and self.words.warnings(step.move):
                report.warnings.append(self.verdict(run, step))
        if self.rules.is_over(run.final):
            report.outcome = self.outcome(run.final) + self._illegal_moves_counted(run)
            report.winners = tuple(self.rules.winners(run.final))
        report.unverified = part(self.rules, Values).unverified_values(run)
        return report

    @staticmethod
    def _illegal_moves_counted(run: Run) -> str:
        """The outcome of a record whose illegal moves stand says that it counts them."""
        illegal = [step for step in run.written() if step.violations]
        lines = sorted({step.play.span.line for step in illegal})
        if not lines:
            return ""
        several = len(lines) != 1
        counted = (f", counting the illegal move{'s' if several else ''} on line{'s' if several else ''} "
                   f"{', '.join(map(str, lines))} as played")
        void = sorted({step.play.span.line for step in illegal if step.after == step.before})
        if void:  # a move that, applied as played, left the position as it was (it is not in the outcome)
            counted += (f"; applied as played, the move{'s' if len(void) != 1 else ''} on line"
                        f"{'s' if len(void) != 1 else ''} {', '.join(map(str, void))} changed nothing")
        return counted

    def outcome(self, state: frozenset) -> str:
        """The end of the game in words; for a viewpoint, without the hidden figures
        of the other players (a game whose words tell them takes ``viewpoint``)."""
        return self.words.describe_outcome(state, viewpoint=self.viewpoint)

    def marks(self, run: Run | None = None) -> list[Mark]:
        """Every written move's verdict in brief (for marking the lines of a page):
        of the whole transcript as far as it can be followed (the moves judged
        before a problem the record meets), or of ``run``."""
        run = run if run is not None else self.referee.follow()
        return [Mark(s.number, s.play.span.line, s.play.span.column, self.words.role_text(s.role), s.play.text,
                     s.legal, s.play.disputed) for s in run.written()]

    def picture(self, after: int | None = None, svg: bool = True) -> str:
        """The position after move ``after`` (default: the last) drawn as SVG (or
        text) by the game's picture (its Picture part), titled with the move and the
        game's period; never hidden information. A RefereeError for a game
        without a picture."""
        picture = picture_of(self.rules.name)
        total = len(self.transcript.plays)
        if after is not None and not 0 <= after <= total:
            raise RefereeError(f"there is no move {after}: the transcript has {total} moves (0 to {total})")
        run = self.referee.run(upto=(after + 1) if after is not None else None, close=False)
        number = total if after is None else after
        illegal = sum(1 for step in run.written() if step.violations and step.number <= number)
        name = Path(self.transcript.source).name
        title = (f"before the first move of {name}" if number == 0 else
                 f"after move {number} of {name}, {self.rules.period} {self.rules.period_number(run.final)}")
        if illegal:
            title += f" ({illegal} illegal move{'s' if illegal != 1 else ''} applied as played)"
        return picture.position(self.rules, run.final, [(p.name, p.colour) for p in self.transcript.header.players],
                                title, svg)

    def explain(self, move: int | None = None, line: int | None = None, everything: bool = False,
                column: int | None = None) -> Ruling:
        number = self.move_number(move, line, column)
        # the whole run made before (``referee check``) holds the move's step as
        # judging up to it would (tests/judge/test_invariant.py); else the moves up to it are judged
        run = self.referee.remembered() or self.referee.run(upto=number + 1, decided=False)
        step = run.step_of(number)
        if step is None:  # strict mode stopped earlier, or the game ended
            raise RefereeError(f"move {number} was not reached: the check stopped before it")
        return self.verdict(run, step, alternatives=True, everything=everything, lines=True)

    def explain_line(self, line: int, everything: bool = False) -> list[Ruling]:
        """The moves of line ``line`` worth explaining, each explained: those
        that break a rule or are disputed (``??``), in the order written; a line
        without any, its first move (a line of several moves is explained where
        the report flags it, not at its first move)."""
        numbers = [number for number, play in enumerate(self.transcript.plays, start=1) if play.span.line == line]
        if not numbers:
            raise RefereeError(self._no_move_on(line))
        run = self.referee.remembered() or self.referee.run(upto=numbers[-1] + 1, decided=False)
        steps = [run.step_of(number) for number in numbers]
        flagged = [step for step in steps if step is not None and (step.violations or step.play.disputed)]
        if not flagged:
            return [self.explain(move=numbers[0], everything=everything)]
        return [self.verdict(run, step, alternatives=True, everything=everything, lines=True) for step in flagged]

    def moves(self, after: int | None = None, everything: bool = False) -> tuple[str, list[str], int, int, bool]:
        """What the role in control may do after move ``after`` (default: the last)."""
        return self._moves(after, everything, lines=False)[:5]

    def moves_with_lines(self, after: int | None = None, everything: bool = False) -> tuple:
        """``moves``, and the moves as lines of the notation (``alternative_lines``: None, or the lines
        and whether they are every legal move)."""
        return self._moves(after, everything, lines=True)

    def _moves(self, after: int | None, everything: bool, lines: bool) -> tuple:
        total = len(self.transcript.plays)
        if after is not None and not 0 <= after <= total:
            raise RefereeError(f"there is no move {after}: the transcript has {total} moves")
        run = self.referee.run(upto=(after + 1) if after is not None else None, close=False)
        who, groups, count, complete = self.alternatives(run.final, everything)
        written = self.alternative_lines(run.final) if lines else None
        return who, groups, count, after if after is not None else total, complete, written

    def move_number(self, move: int | None, line: int | None, column: int | None = None) -> int:
        """The number of a move given by its number, or by its line (and column),
        as a compiler's message names a place: ``FILE:LINE`` is the first move
        written on the line, ``FILE:LINE:COLUMN`` the move written there."""
        plays = self.transcript.plays
        if move is not None:
            if not 1 <= move <= len(plays):
                raise RefereeError(f"there is no move {move}: the transcript has {len(plays)} moves")
            return move
        on_line = [(number, play) for number, play in enumerate(plays, start=1) if play.span.line == line]
        if not on_line:
            raise RefereeError(self._no_move_on(line))
        if column is not None:  # the move whose text holds the column, else the last one before it
            before = [(n, p) for n, p in on_line if p.span.column <= column] or on_line[:1]
            return before[-1][0]
        return on_line[0][0]

    def _no_move_on(self, line: int) -> str:
        """Why a line holds no move, in words."""
        plays = self.transcript.plays
        heading = next((e for e in self.transcript.events if isinstance(e, PeriodStart) and e.span.line == line),
                       None)
        period = self.rules.period
        if heading is not None:
            what = f"line {line} is the heading '{period} {heading.number}', not a move"
        elif plays and line < plays[0].span.line:
            what = f"line {line} comes before the first move (line {plays[0].span.line})"
        else:
            what = f"line {line} holds no move"
        after = [p.span.line for p in plays if p.span.line > line]
        return what + (f"; the next move is on line {after[0]}" if after else "")


def _cuts(low: int, high: int, count: int) -> list[int]:
    """At most ``count`` whole amounts strictly between ``low`` and ``high``, evenly
    spread (all of them when there are that few), in increasing order."""
    inner = high - low - 1
    if inner <= count:
        return list(range(low + 1, high))
    return sorted({low + (k * (high - low)) // (count + 1) for k in range(1, count + 1)})


def _judged(step: Step) -> tuple | None:
    """A step's (role, move) when it was judged illegal, else None (``Session.alternatives``)."""
    return None if step.legal else (step.role, step.move)


def _listing_order(move) -> tuple:
    """A move's place in a listing: by name, then its arguments, numbers by value."""
    return move.name, tuple((0, a, "") if isinstance(a, int) else (1, 0, str(a)) for a in move.args)


def _known_readings(game: str, catalogue) -> tuple[str, ...]:
    """The catalogue's readings (English and the translations), then the other
    readings of the game's readings.toml (a publisher's rulings)."""
    from referee.game.readings import load_readings

    return tuple(dict.fromkeys((*catalogue.readings, *load_readings(game).names)))


def unreadable_report(error: RefereeError, *, session: Session | None = None, run: Run | None = None,
                      path: str | Path | None = None, alternatives: bool = False,
                      options: CheckOptions | None = None) -> Report:
    """The report of a record that cannot be read or followed to its end (exit 2),
    in the shape of every report, so that a script needs one code path: the
    error, and the moves judged before it. From the ``run`` of ``session`` that
    met the error (``Run.problem``); or, when there is no run (the text at
    ``path`` cannot be read: a parse error with its position), from the lines
    before the error's, judged with ``options`` (leniently, as nobody in
    particular sees them: without strict and viewpoint)."""
    options = (options or CheckOptions()).but(strict=False, viewpoint=None)
    report = None
    if run is not None and session is not None:
        report = session._report(run, alternatives)
    elif path is not None and isinstance(error, NotationError) and error.position and error.position.line > 1:
        try:
            lines = Path(path).read_bytes().decode("utf-8-sig").splitlines()
            prefix = parse_transcript("\n".join(lines[:error.position.line - 1]) + "\n", str(path))
            report = Session(prefix, options).check(tolerant=True)  # the lines before may not be followed either
        except RefereeError:  # the lines before cannot be read, or hit a bound: no moves to report
            report = None
        except (OSError, UnicodeDecodeError):
            report = None
    if report is None:
        source = path if path is not None else error.position.file if error.position else ""
        report = Report(str(source), "", options.rules or "en", (), 0, 0)
    report.error = error
    return report


def readings(game: str) -> dict:
    """The rule readings of a game: English and each translation (its seed file
    and kind, and the variant modules its reading includes), and every variant
    with its provenance (``referee rules GAME --json``). A RefereeError for a game
    the referee does not know."""
    from referee.game.readings import load_readings, readings_json

    game = check_game(game)
    catalogue = load_catalogue(game)
    encoded = readings_json(load_readings(game))
    variants_of = {r["name"]: r["variants"] for r in encoded["readings"]}
    shown = [{"reading": "en", "language": "en", "source": "the official English rulebook",
              "variants": variants_of.get("en", [])}]
    for name, t in catalogue.translations.items():
        shown.append({"reading": name, "language": name.split("-")[0], "source": t.file, "seed": t.seed,
                      "script": t.script, "kind": t.kind, "variants": variants_of.get(name, [])})
    for entry in encoded["readings"]:  # a reading that is no translation (a publisher's rulings)
        if entry["name"] not in catalogue.readings:
            shown.append({"reading": entry["name"], "language": "en", "source": entry["title"],
                          "variants": entry["variants"]})
    return {"game": game, "default": "en", "readings": shown, "variants": encoded["variants"]}
