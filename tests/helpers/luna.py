"""Helpers for the Luna rulebook tests (tests/games/luna/test_luna_*.py).

A test sets up a position by playing a short transcript (notation of
docs/luna.md), then judges a move written in the same notation, or changes a
few fluents first for a situation a short transcript cannot reach:

    pos = position("round 1\\nAnn: favour on 3")
    verdict = pos.judge("Bob: shrine on 4")
    assert verdict.rules == {"shrine_builder_island"}
    assert pos.after("Bob: recruit on 4").novices("Bob", 4, "inactive") == 3

Players are Ann, Bob, Cy, Dee in seat order (Ann starts); the layout is the
introductory one unless a test asks for 'normal'.  The introductory layout
(data.toml, unverified) puts seat s's shrine on island 2s-1 and its pairs of
novices on the four islands after it; the figures: priestess 1, Builder 3,
Apostate 5; island kinds 1 shrine, 2 herbs, 3 book, 4 sailboat, 5 bribe,
6 waves, 7 substitute.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from referee.ask.session import Session
from referee.base.terms import Fn, fn
from referee.game.contract import phase
from referee.game.notation import parse_transcript
from referee.game.parts import part
from referee.game.parts.speed import Speed
from referee.game.parts.tolerance import Tolerance
from referee.games.luna.fluents import Disc, Figure, Holds, LastSeat, Markers, Novices, Pool, Round, Score, Supply
from referee.games.luna.game import LunaRules
from referee.judge.engine import Engine
from referee.judge.visitor import Referee

NAMES = ("Ann", "Bob", "Cy", "Dee")
COLOURS = ("red", "blue", "green", "yellow")


def transcript(body: str, players: int = 2, layout: str = "intro", header: str = "") -> str:
    head = ["game: luna", "players: " + ", ".join(f"{n} {c}" for n, c in zip(NAMES[:players], COLOURS)),
            f"layout: {layout}"]
    if header:
        head.append(header)
    return "\n".join(head + [line.strip() for line in body.strip().splitlines()]) + "\n"


@functools.cache
def _engine(reading: str = "en") -> Engine:
    """An engine per rules reading: an engine remembers its judgements by state and
    move, and two readings judge the same state differently."""
    from referee.game.readings import rule_files
    return Engine(rule_files("luna"))


@functools.cache
def check(text: str):
    """(session, report) of a whole transcript."""
    session = Session(parse_transcript(text, "t.luna"))
    return session, session.check()


@dataclass(frozen=True)
class Verdict:
    violations: tuple
    after: "Position"

    @property
    def rules(self) -> set[str]:
        return {v.rule for v in self.violations}

    @property
    def first(self) -> str:
        """The rule a report names first: the most specific (docs/report.md)."""
        from referee.game.catalogue import load_catalogue
        return load_catalogue("luna").ordered(self.violations)[0].rule

    def message(self, rule: str) -> str:
        """The report's message for ``rule``, with the player and the details filled in."""
        from referee.game.catalogue import load_catalogue
        v = next(v for v in self.violations if v.rule == rule)
        return load_catalogue("luna").rule(rule).format(v.role, [str(a) for a in v.args])

    @property
    def legal(self) -> bool:
        return not self.violations


#: The fluents ``Position.value`` reads, by name (their last field is the value).
VALUED = {valued.NAME: valued for valued in (Disc, Figure, LastSeat, Markers, Novices, Pool, Round, Score, Supply)}


@dataclass(frozen=True)
class Position:
    """A state of one game, with the rules to judge moves in it."""

    rules: LunaRules
    state: frozenset

    # -- moves ----------------------------------------------------------------------------
    def moves(self, line: str) -> list[tuple]:
        """'Ann: favour on 3' -> [(role, move term)], read by the real notation (a
        travel line gives a move per group of novices)."""
        players = len(self.rules.players)
        text = transcript("round 1\n" + line, players=players)
        return [(play.role, play.move) for play in parse_transcript(text, "move").plays]

    def move(self, line: str) -> tuple:
        return self.moves(line)[-1]

    def judge(self, line: str) -> Verdict:
        """The verdict on the line's (last) move, the earlier ones of the line applied."""
        *first, (role, move) = self.moves(line)
        pos = self
        for r, m in first:
            verdict = pos.judge_term(r, m)
            assert verdict.legal, (m, verdict.violations)
            pos = verdict.after
        return pos.judge_term(role, move)

    def judge_term(self, role, move: Fn) -> Verdict:
        judgement = _engine(self.rules.reading).judge(self.rules.static, self.state, role, move)
        return Verdict(judgement.violations, Position(self.rules, judgement.next_state))

    def after(self, *lines: str) -> "Position":
        """The position after legal moves; the speculation model (speed only)
        must foresee the solver's state."""
        pos = self
        for line in lines:
            for role, move in pos.moves(line):
                verdict = pos.judge_term(role, move)
                assert verdict.legal, (line, verdict.violations)
                assert part(self.rules, Speed).speculate(pos.state, role, move) == verdict.after.state, line
                pos = verdict.after
        return pos

    def end_turn(self) -> "Position":
        """The end of a travel or waves action (what the referee inserts)."""
        end = part(self.rules, Tolerance).end_of_turn(self.state)
        assert end is not None, "no travel to end"
        verdict = self.judge_term(*end)
        assert verdict.legal and part(self.rules, Speed).speculate(self.state, *end) == verdict.after.state
        return verdict.after

    def game_step(self) -> "Position":
        """The bookkeeping step due, by the solver; the fast path (Python) must
        give the same state, in every situation a test builds."""
        step = self.rules.game_step(self.state)
        assert step is not None, "no bookkeeping step is due"
        verdict = self.judge_term(Fn("game"), step)
        assert verdict.legal, verdict.violations
        assert part(self.rules, Speed).fast_path_applies(self.state, Fn("game"), step)
        fast = part(self.rules, Speed).fast_apply(self.state, Fn("game"), step)
        assert fast == verdict.after.state, (sorted(map(str, fast - verdict.after.state)),
                                             sorted(map(str, verdict.after.state - fast)))
        return verdict.after

    def legal(self) -> set:
        role = self.rules.control(self.state)
        return {m for r, m in _engine(self.rules.reading).legal_moves(self.rules.static, self.state) if r == role}

    def changed(self, add=(), remove=()) -> "Position":
        """The same position with some fluents added or removed (for situations a
        short transcript cannot reach)."""
        return Position(self.rules, (self.state - frozenset(remove)) | frozenset(add))

    def set_novices(self, player: str, place, status: str, count: int) -> "Position":
        place = fn(place) if place == "jetty" else place
        old = [n.term() for n in Novices.of(self.state) if (n.player, n.place, n.status) == (player, place, fn(status))]
        new = [fn("novices", player, place, fn(status), count)] if count else []
        return self.changed(new, old)

    # -- fluents ------------------------------------------------------------------------------
    def has(self, name: str, *args) -> bool:
        return any(f.name == name and f.args == args for f in self.state)

    def value(self, name: str, *key, default=0):
        """The value (last field) of the fluent ``name`` whose other fields are ``key``."""
        return VALUED[name].lookup(self.state, *key, default=default)

    def novices(self, player: str, place, status: str = "active") -> int:
        place = fn(place) if place == "jetty" else place
        return self.value("novices", player, place, fn(status))

    def score(self, player: str) -> int:
        return self.value("score", player)

    def holds(self, player: str) -> set[str]:
        return {f.kind.name for f in Holds.of(self.state) if f.player == player}

    def pool(self, island: int) -> int:
        return self.value("pool", island)

    def figure(self, name: str) -> int:
        return self.value("figure", fn(name))

    def phase(self) -> str:
        return phase(self.state)

    def control(self):
        return self.rules.control(self.state)

    def discs(self) -> dict:
        return {f.player: (f.seat, f.height) for f in Disc.of(self.state)}


def initial(players: int = 2, layout: str = "intro", header: str = "") -> Position:
    """The position before anything happens (the intro layout's favours not yet handed out)."""
    rules = LunaRules(parse_transcript(transcript("", players, layout, header), "t.luna"))
    return Position(rules, _engine(rules.reading).init(rules.static))


@functools.cache
def position(body: str = "round 1", players: int = 2, layout: str = "intro", header: str = "") -> Position:
    """The position after the transcript's moves (the bookkeeping due done)."""
    parsed = parse_transcript(transcript(body, players, layout, header), "t.luna")
    referee = Referee(parsed, engine=_engine(parsed.header.rules))
    run = referee.run(close=False)
    return Position(referee.rules, run.final)


def round_one(header: str = "") -> Position:
    """Round 1 of the 2-player introductory game, before anyone acts (found on
    first use, then kept: a test module asks for it in its tests, never while
    it is imported)."""
    return position("round 1", header=header)
