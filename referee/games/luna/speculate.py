"""A Python model of the effects of Luna's player moves, used only for speed.

The referee guesses the coming moves from the transcript and the state each
will be made in (docs/speed.md, "Where the time goes"), and has
the solver judge them all in one call; a judgement is used only when the game
reaches exactly its state and move, so a wrong guess costs time, never a
verdict.  ``next_state`` mirrors the rule programs' effects of a *legal* move
(tests/judge/test_invariant.py compares it with the solver's next state on every
legal move of every shipped transcript).  The same model applies the game's
bookkeeping steps on the fast path (``bookkeeping``; tests/judge/test_invariant.py
replays every transcript with and without it).
"""

from __future__ import annotations

from collections import defaultdict

from referee.base.terms import Fn, fn
from referee.game.fluents import Control, Phase, Winner
from referee.games.luna.fluents import (
    Book,
    BookBonusTaken,
    BuilderStep,
    CouncilValue,
    Disc,
    Figure,
    GuardValue,
    Holds,
    IslandKind,
    LastSeat,
    Markers,
    Moving,
    Neighbour,
    Novices,
    OnTile,
    PassedOver,
    Path,
    Placed,
    Pool,
    PriestessValue,
    Round,
    RoundBegins,
    Score,
    Seat,
    Shrine,
    Start,
    StartPlayer,
    Supply,
    Temple,
    TurnReturnsTo,
    Vacant,
)

ACTIVE, INACTIVE, JETTY, GAME = fn("active"), fn("inactive"), fn("jetty"), fn("game")


class Facts:
    """The static facts the model needs, read once per game."""

    def __init__(self, static: tuple):
        self.seats = {f.player: f.seat for f in Seat.of(static)}
        order = sorted(self.seats, key=self.seats.get)
        self.left = {p: order[(i + 1) % len(order)] for i, p in enumerate(order)}
        self.kind = {f.island: f.kind for f in IslandKind.of(static)}
        self.island_of = {k: i for i, k in self.kind.items()}
        self.guard = {f.round: f.value for f in GuardValue.of(static)}
        self.last_seat = LastSeat.of(static)[0].seat
        self.neighbours = defaultdict(set)
        for f in Neighbour.of(static):
            self.neighbours[f.tile].add(f.other)
        self.players = len(self.seats)
        self.start_player = StartPlayer.of(static)[0].player
        self.priestess = [v for _, v in sorted((f.rank, f.value) for f in PriestessValue.of(static))]
        self.builder = BuilderStep.of(static)[0].steps
        self.council = {f.seat: f.value for f in CouncilValue.of(static)}


class Draft:
    """A mutable copy of a state, fluent by fluent (each named by its declaration,
    ``fluents.Score``; a fluent's last field is its value, the others its key)."""

    def __init__(self, state: frozenset):
        self.facts = set(state)

    def one(self, fluent: type, *key):
        """The view of the fluent whose leading fields are ``key``, or None."""
        return fluent.find(self.facts, *key)

    def value(self, fluent: type, *key, default=0):
        return fluent.lookup(self.facts, *key, default=default)

    def set(self, fluent: type, *key_and_value, drop_zero: bool = True) -> None:
        *key, value = key_and_value
        old = self.one(fluent, *key)
        if old is not None:
            self.facts.discard(old.term())
        if value or not drop_zero:
            self.facts.add(fluent.make(*key, value))

    def add(self, fluent: type, *key, delta: int) -> None:
        # influence may be 0 and is kept; counters of things vanish at 0
        self.set(fluent, *key, self.value(fluent, *key) + delta, drop_zero=fluent is not Score)

    def novices(self, player, place, status, delta: int) -> None:
        value = self.value(Novices, player, place, status) + delta
        self.set(Novices, player, place, status, max(value, 0))

    def fluent(self, fluent: type, *args, present: bool = True) -> None:
        f = fluent.make(*args)
        (self.facts.add if present else self.facts.discard)(f)


def _use(d: Draft, player, island, count: int) -> None:
    if count > 0:
        d.novices(player, island, ACTIVE, -count)
        d.novices(player, island, INACTIVE, count)


def _return_favour(d: Draft, facts: Facts, player, kind: str) -> None:
    d.fluent(Holds, player, fn(kind), present=False)
    d.add(Pool, facts.island_of[fn(kind)], delta=1)


def next_state(state: frozenset, facts: Facts, role, move: Fn) -> frozenset | None:
    """The state after a legal move of a player, or None (bookkeeping, or a
    move the model does not follow)."""
    if role == GAME:
        return bookkeeping(state, facts, move)
    if not isinstance(role, str):
        return None
    d = Draft(state)
    phase = d.value(Phase).name
    p, a, name = role, move.args, move.name

    def cost(island) -> int:  # novices a favour or a temple tile takes: one with a shrine there
        return 1 if fn("shrine", p, island) in d.facts else 2

    passes = True
    if phase == "actions":  # the round's first action has been made (rules/turns.lp)
        d.fluent(RoundBegins, present=False)
        d.fluent(PassedOver, p, present=False)  # a turn jumped, now taken (rules/state.lp)
    if phase == "prep_shrine" and name == "shrine":
        d.fluent(Shrine, p, a[0])
        if d.value(Start) == facts.left[p]:
            d.set(Phase, fn("prep_novices"))
    elif phase == "prep_novices" and name == "novices":
        d.novices(p, a[0], ACTIVE, 2)
        placed = d.value(Placed, p)
        if placed < 3:
            d.set(Placed, p, placed + 1)
            passes = False
        else:
            d.set(Placed, p, 0)
            if d.value(Start) == facts.left[p]:
                d.set(Phase, fn("prep_favours"))
                d.set(Control, GAME)
                return frozenset(d.facts)
    elif phase != "actions":
        return None
    elif name in ("favour", "recruit", "shrine", "council", "banish"):
        sub = a[-1]
        if name == "favour":
            island = a[0]
            _use(d, p, island, cost(island) - sub)
            d.fluent(Holds, p, facts.kind[island])
            d.add(Pool, island, delta=-1)
        elif name == "recruit":
            _use(d, p, a[0], 2 - sub)
            d.novices(p, a[0], INACTIVE, 1)
            d.add(Supply, p, delta=-1)
        elif name == "shrine":
            _use(d, p, a[0], 2 - sub)
            d.fluent(Shrine, p, a[0])
            _return_favour(d, facts, p, "shrine")
        elif name == "council":
            island, seats = a[0], a[1]
            _use(d, p, island, seats - sub)
            disc = d.one(Disc, p)
            seat = disc.seat
            d.facts.discard(disc.term())
            target = min(seat + seats, facts.last_seat)
            others = [f for f in Disc.of(d.facts) if f.seat == target]
            if target == facts.last_seat:
                for f in others:
                    d.facts.discard(f.term())
                    d.facts.add(Disc.make(f.player, target, f.height + 1))
                d.facts.add(Disc.make(p, target, 1))
            else:
                d.facts.add(Disc.make(p, target, max((f.height for f in others), default=0) + 1))
        else:  # banish
            island = d.value(Figure, fn("apostate"))
            _use(d, p, island, a[0] - sub)
            d.set(Figure, fn("apostate"), (island - 1 + a[0] % 7) % 7 + 1)
        if sub:
            _return_favour(d, facts, p, "substitute")
    elif name == "herbs":
        d.novices(p, a[0], INACTIVE, -a[1])
        d.novices(p, a[0], ACTIVE, a[1])
        _return_favour(d, facts, p, "herbs")
    elif name in ("travel", "waves"):  # one group; the turn goes on until done
        origin, status, target, count = (a[0], ACTIVE, a[1], a[2]) if name == "travel" else a
        d.novices(p, origin, status, -count)
        d.novices(p, target, INACTIVE, count)
        if fn("moving", p, fn(name)) not in d.facts:
            d.fluent(Moving, p, fn(name))
            if name == "waves":
                _return_favour(d, facts, p, "waves")
        passes = False
    elif name == "done":
        for f in [f for f in Moving.of(d.facts) if f.player == p]:
            d.facts.discard(f.term())
        back = d.one(TurnReturnsTo)  # the end of a travel made up out of turn (rules/state.lp)
        if back is not None:
            d.facts.discard(back.term())
            d.set(Control, back.player)
            return frozenset(d.facts)
    elif name == "sailboat":
        origin, target, count = a
        d.novices(p, origin, INACTIVE if origin == JETTY else ACTIVE, -count)
        d.novices(p, target, ACTIVE, count)
        _return_favour(d, facts, p, "sailboat")
    elif name == "occupy":
        island, tile, bribe, _ = a
        _use(d, p, island, cost(island))
        d.novices(p, island, INACTIVE, -1)
        d.fluent(OnTile, tile, p)
        if bribe:
            _return_favour(d, facts, p, "bribe")
    elif name == "enter":
        tile, bribe = a
        d.fluent(OnTile, tile, p, present=False)
        d.fluent(Path, tile, present=False)
        d.fluent(Temple, tile, p)
        gain = facts.guard[d.value(Round)]
        for other in facts.neighbours[tile]:
            held = d.one(Temple, other)
            if other < tile and held is not None and held.player != p and fn("book", other) not in d.facts:
                d.facts.discard(held.term())
                d.fluent(Vacant, other)
                d.novices(held.player, JETTY, INACTIVE, 1)
                gain += 1
        d.add(Score, p, delta=gain)
        if bribe:
            _return_favour(d, facts, p, "bribe")
    elif name == "book":
        source, target = a
        d.fluent(Book, source, present=False)
        d.fluent(Book, target)
        bonus = facts.players == 2 and fn("book_bonus_taken") not in d.facts
        d.add(Score, p, delta=2 if bonus else 1)
        if bonus:
            d.fluent(BookBonusTaken)
        _return_favour(d, facts, p, "book")
    elif name == "meditate":
        markers = d.value(Markers)
        d.set(Markers, markers - 1, drop_zero=False)
        if markers == 1:
            d.facts -= {f.term() for f in PassedOver.of(d.facts)}
            d.set(Phase, fn("scoring"))
            d.set(Control, GAME)
            d.add(Score, p, delta=1)
            start = d.value(Start)
            d.set(Start, facts.left[start] if facts.players == 2 else facts.left[p])
            return frozenset(d.facts)
    else:
        return None
    if passes:
        d.set(Control, facts.left[p])
    return frozenset(d.facts)


# -- the game's bookkeeping steps (the fast path) ------------------------------------------
def _ahead(d: Draft, q, p) -> bool:
    """Council position (rules score_priestess, end_tie): further along, or higher on one seat."""
    dq, dp = d.one(Disc, q), d.one(Disc, p)
    return (dq.seat, dq.height) > (dp.seat, dp.height)


def _clockwise(island: int, steps: int) -> int:
    return (island - 1 + steps % 7) % 7 + 1


def bookkeeping(state: frozenset, facts: Facts, move: Fn) -> frozenset | None:
    """The state after one of the game's bookkeeping steps, as rules/prep.lp and
    rules/round.lp compute it; None for anything else."""
    d = Draft(state)
    players = sorted(facts.seats, key=facts.seats.get)
    phase = d.value(Phase).name
    if move.name == "prep_favours" and phase == "prep_favours":
        for p in players:
            for island, kind in facts.kind.items():
                mine = fn("shrine", p, island) in d.facts or any(
                    d.value(Novices, p, island, s) for s in (ACTIVE, INACTIVE))
                if not mine:
                    d.fluent(Holds, p, kind)
                    d.add(Pool, island, delta=-1)
        d.set(Phase, fn("actions"))
        d.set(Control, facts.start_player)
        d.fluent(RoundBegins)
        return frozenset(d.facts)
    if move.name == "score_round" and phase == "scoring":
        gains = defaultdict(int)
        priestess = d.value(Figure, fn("priestess"))
        counts = {p: d.value(Novices, p, priestess, ACTIVE) + (fn("shrine", p, priestess) in d.facts)
                  for p in players}
        counts = {p: c for p, c in counts.items() if c > 0}
        for p, c in counts.items():
            rank = 1 + sum(1 for q, e in counts.items() if e > c or (e == c and q != p and _ahead(d, q, p)))
            if rank <= len(facts.priestess):
                gains[p] += facts.priestess[rank - 1]
        apostate = d.value(Figure, fn("apostate"))
        for p in players:
            there = sum(d.value(Novices, p, apostate, s) for s in (ACTIVE, INACTIVE))
            if there:
                gains[p] -= there + 1
            gains[p] += sum(1 for f in Temple.of(d.facts) if f.player == p)
        for p, gain in gains.items():
            if gain:
                d.add(Score, p, delta=gain)
        d.set(Phase, fn("final") if d.value(Round) == 6 else fn("next_round"))
        return frozenset(d.facts)
    if move.name == "next_round" and phase == "next_round":
        apostate = d.value(Figure, fn("apostate"))
        peopled = {f.place for f in Novices.of(d.facts) if f.place != JETTY}
        distance = next((k for k in range(1, 8) if _clockwise(apostate, k) in peopled), None)
        for f in [f for f in Novices.of(d.facts) if f.status == INACTIVE and f.place != JETTY]:
            d.novices(f.player, f.place, INACTIVE, -f.amount)
            d.novices(f.player, f.place, ACTIVE, f.amount)
        for figure, step in (("priestess", max(facts.priestess)), ("builder", facts.builder)):
            d.set(Figure, fn(figure), _clockwise(d.value(Figure, fn(figure)), step))
        if distance is not None:
            d.set(Figure, fn("apostate"), _clockwise(apostate, distance))
        d.set(Round, d.value(Round) + 1)
        d.set(Markers, 3 if facts.players == 2 else 4)
        d.fluent(BookBonusTaken, present=False)
        d.set(Phase, fn("actions"))
        d.set(Control, d.value(Start))
        d.fluent(RoundBegins)
        return frozenset(d.facts)
    if move.name == "final_scoring" and phase == "final":
        final = {}
        for p in players:
            gain = 4 * sum(1 for f in Shrine.of(d.facts) if f.player == p)
            gain += sum(1 for f in Holds.of(d.facts) if f.player == p)
            gain += facts.council[d.one(Disc, p).seat]
            if gain:
                d.add(Score, p, delta=gain)
            final[p] = d.value(Score, p)
        for p in players:
            beaten = any(final[q] > final[p] or (final[q] == final[p] and q != p and _ahead(d, q, p))
                         for q in players)
            if not beaten:
                d.fluent(Winner, p)
        d.set(Phase, fn("over"))
        control = d.one(Control)
        if control is not None:
            d.facts.discard(control.term())
        return frozenset(d.facts)
    return None
