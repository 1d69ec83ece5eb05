"""A Python model of the effects of Luna's player moves, used only for speed.

The referee guesses the coming moves from the transcript and the state each
will be made in (docs/architecture.md, "Speed: speculative batches"), and has
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

ACTIVE, INACTIVE, JETTY, GAME = fn("active"), fn("inactive"), fn("jetty"), fn("game")


class Facts:
    """The static facts the model needs, read once per game."""

    def __init__(self, static: tuple):
        self.seats = {f.args[0]: f.args[1] for f in static if f.name == "seat"}
        order = sorted(self.seats, key=self.seats.get)
        self.left = {p: order[(i + 1) % len(order)] for i, p in enumerate(order)}
        self.kind = {f.args[0]: f.args[1] for f in static if f.name == "island_kind"}
        self.island_of = {k: i for i, k in self.kind.items()}
        self.guard = {f.args[0]: f.args[1] for f in static if f.name == "guard_value"}
        self.last_seat = next(f.args[0] for f in static if f.name == "last_seat")
        self.neighbours = defaultdict(set)
        for f in static:
            if f.name == "neighbour":
                self.neighbours[f.args[0]].add(f.args[1])
        self.players = len(self.seats)
        self.start_player = next(f.args[0] for f in static if f.name == "start_player")
        self.priestess = [v for _, v in sorted((f.args[0], f.args[1]) for f in static if f.name == "priestess_value")]
        self.builder = next(f.args[0] for f in static if f.name == "builder_step")
        self.council = dict((f.args[0], f.args[1]) for f in static if f.name == "council_value")


class Draft:
    """A mutable copy of a state, fluent by fluent."""

    def __init__(self, state: frozenset):
        self.facts = set(state)

    def one(self, name: str, *key):
        return next((f for f in self.facts if f.name == name and f.args[:len(key)] == key), None)

    def value(self, name: str, *key, default=0):
        f = self.one(name, *key)
        return f.args[len(key)] if f is not None else default

    def set(self, name: str, *key_and_value, drop_zero: bool = True) -> None:
        *key, value = key_and_value
        old = self.one(name, *key)
        if old is not None:
            self.facts.discard(old)
        if value or not drop_zero:
            self.facts.add(fn(name, *key, value))

    def add(self, name: str, *key, delta: int) -> None:
        # influence may be 0 and is kept; counters of things vanish at 0
        self.set(name, *key, self.value(name, *key) + delta, drop_zero=name != "score")

    def novices(self, player, place, status, delta: int) -> None:
        value = self.value("novices", player, place, status) + delta
        self.set("novices", player, place, status, max(value, 0))

    def fluent(self, name: str, *args, present: bool = True) -> None:
        f = fn(name, *args)
        (self.facts.add if present else self.facts.discard)(f)


def _use(d: Draft, player, island, count: int) -> None:
    if count > 0:
        d.novices(player, island, ACTIVE, -count)
        d.novices(player, island, INACTIVE, count)


def _return_favour(d: Draft, facts: Facts, player, kind: str) -> None:
    d.fluent("holds", player, fn(kind), present=False)
    d.add("pool", facts.island_of[fn(kind)], delta=1)


def next_state(state: frozenset, facts: Facts, role, move: Fn) -> frozenset | None:
    """The state after a legal move of a player, or None (bookkeeping, or a
    move the model does not follow)."""
    if role == GAME:
        return bookkeeping(state, facts, move)
    if not isinstance(role, str):
        return None
    d = Draft(state)
    phase = d.value("phase").name
    p, a, name = role, move.args, move.name

    def cost(island) -> int:  # novices a favour or a temple tile takes: one with a shrine there
        return 1 if fn("shrine", p, island) in d.facts else 2

    passes = True
    if phase == "actions":  # the round's first action has been made (rules/turns.lp)
        d.fluent("round_begins", present=False)
        d.fluent("passed_over", p, present=False)  # a turn jumped, now taken (rules/state.lp)
    if phase == "prep_shrine" and name == "shrine":
        d.fluent("shrine", p, a[0])
        if d.value("start") == facts.left[p]:
            d.set("phase", fn("prep_novices"))
    elif phase == "prep_novices" and name == "novices":
        d.novices(p, a[0], ACTIVE, 2)
        placed = d.value("placed", p)
        if placed < 3:
            d.set("placed", p, placed + 1)
            passes = False
        else:
            d.set("placed", p, 0)
            if d.value("start") == facts.left[p]:
                d.set("phase", fn("prep_favours"))
                d.set("control", GAME)
                return frozenset(d.facts)
    elif phase != "actions":
        return None
    elif name in ("favour", "recruit", "shrine", "council", "banish"):
        sub = a[-1]
        if name == "favour":
            island = a[0]
            _use(d, p, island, cost(island) - sub)
            d.fluent("holds", p, facts.kind[island])
            d.add("pool", island, delta=-1)
        elif name == "recruit":
            _use(d, p, a[0], 2 - sub)
            d.novices(p, a[0], INACTIVE, 1)
            d.add("supply", p, delta=-1)
        elif name == "shrine":
            _use(d, p, a[0], 2 - sub)
            d.fluent("shrine", p, a[0])
            _return_favour(d, facts, p, "shrine")
        elif name == "council":
            island, seats = a[0], a[1]
            _use(d, p, island, seats - sub)
            disc = d.one("disc", p)
            seat, _ = disc.args[1], disc.args[2]
            d.facts.discard(disc)
            target = min(seat + seats, facts.last_seat)
            others = [f for f in d.facts if f.name == "disc" and f.args[1] == target]
            if target == facts.last_seat:
                for f in others:
                    d.facts.discard(f)
                    d.facts.add(fn("disc", f.args[0], target, f.args[2] + 1))
                d.facts.add(fn("disc", p, target, 1))
            else:
                d.facts.add(fn("disc", p, target, max((f.args[2] for f in others), default=0) + 1))
        else:  # banish
            island = d.value("figure", fn("apostate"))
            _use(d, p, island, a[0] - sub)
            d.set("figure", fn("apostate"), (island - 1 + a[0] % 7) % 7 + 1)
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
            d.fluent("moving", p, fn(name))
            if name == "waves":
                _return_favour(d, facts, p, "waves")
        passes = False
    elif name == "done":
        for f in [f for f in d.facts if f.name == "moving" and f.args[0] == p]:
            d.facts.discard(f)
        back = d.one("turn_returns_to")  # the end of a travel made up out of turn (rules/state.lp)
        if back is not None:
            d.facts.discard(back)
            d.set("control", back.args[0])
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
        d.fluent("on_tile", tile, p)
        if bribe:
            _return_favour(d, facts, p, "bribe")
    elif name == "enter":
        tile, bribe = a
        d.fluent("on_tile", tile, p, present=False)
        d.fluent("path", tile, present=False)
        d.fluent("temple", tile, p)
        gain = facts.guard[d.value("round")]
        for other in facts.neighbours[tile]:
            held = d.one("temple", other)
            if other < tile and held is not None and held.args[1] != p and fn("book", other) not in d.facts:
                d.facts.discard(held)
                d.fluent("vacant", other)
                d.novices(held.args[1], JETTY, INACTIVE, 1)
                gain += 1
        d.add("score", p, delta=gain)
        if bribe:
            _return_favour(d, facts, p, "bribe")
    elif name == "book":
        source, target = a
        d.fluent("book", source, present=False)
        d.fluent("book", target)
        bonus = facts.players == 2 and fn("book_bonus_taken") not in d.facts
        d.add("score", p, delta=2 if bonus else 1)
        if bonus:
            d.fluent("book_bonus_taken")
        _return_favour(d, facts, p, "book")
    elif name == "meditate":
        markers = d.value("markers")
        d.set("markers", markers - 1, drop_zero=False)
        if markers == 1:
            d.facts -= {f for f in d.facts if f.name == "passed_over"}
            d.set("phase", fn("scoring"))
            d.set("control", GAME)
            d.add("score", p, delta=1)
            start = d.value("start")
            d.set("start", facts.left[start] if facts.players == 2 else facts.left[p])
            return frozenset(d.facts)
    else:
        return None
    if passes:
        d.set("control", facts.left[p])
    return frozenset(d.facts)


# -- the game's bookkeeping steps (the fast path) ------------------------------------------
def _ahead(d: Draft, q, p) -> bool:
    """Council position (rules score_priestess, end_tie): further along, or higher on one seat."""
    dq, dp = d.one("disc", q), d.one("disc", p)
    return (dq.args[1], dq.args[2]) > (dp.args[1], dp.args[2])


def _clockwise(island: int, steps: int) -> int:
    return (island - 1 + steps % 7) % 7 + 1


def bookkeeping(state: frozenset, facts: Facts, move: Fn) -> frozenset | None:
    """The state after one of the game's bookkeeping steps, as rules/prep.lp and
    rules/round.lp compute it; None for anything else."""
    d = Draft(state)
    players = sorted(facts.seats, key=facts.seats.get)
    phase = d.value("phase").name
    if move.name == "prep_favours" and phase == "prep_favours":
        for p in players:
            for island, kind in facts.kind.items():
                mine = fn("shrine", p, island) in d.facts or any(
                    d.value("novices", p, island, s) for s in (ACTIVE, INACTIVE))
                if not mine:
                    d.fluent("holds", p, kind)
                    d.add("pool", island, delta=-1)
        d.set("phase", fn("actions"))
        d.set("control", facts.start_player)
        d.fluent("round_begins")
        return frozenset(d.facts)
    if move.name == "score_round" and phase == "scoring":
        gains = defaultdict(int)
        priestess = d.value("figure", fn("priestess"))
        counts = {p: d.value("novices", p, priestess, ACTIVE) + (fn("shrine", p, priestess) in d.facts)
                  for p in players}
        counts = {p: c for p, c in counts.items() if c > 0}
        for p, c in counts.items():
            rank = 1 + sum(1 for q, e in counts.items() if e > c or (e == c and q != p and _ahead(d, q, p)))
            if rank <= len(facts.priestess):
                gains[p] += facts.priestess[rank - 1]
        apostate = d.value("figure", fn("apostate"))
        for p in players:
            there = sum(d.value("novices", p, apostate, s) for s in (ACTIVE, INACTIVE))
            if there:
                gains[p] -= there + 1
            gains[p] += sum(1 for f in d.facts if f.name == "temple" and f.args[1] == p)
        for p, gain in gains.items():
            if gain:
                d.add("score", p, delta=gain)
        d.set("phase", fn("final") if d.value("round") == 6 else fn("next_round"))
        return frozenset(d.facts)
    if move.name == "next_round" and phase == "next_round":
        apostate = d.value("figure", fn("apostate"))
        peopled = {f.args[1] for f in d.facts if f.name == "novices" and f.args[1] != JETTY}
        distance = next((k for k in range(1, 8) if _clockwise(apostate, k) in peopled), None)
        for f in [f for f in d.facts if f.name == "novices" and f.args[2] == INACTIVE and f.args[1] != JETTY]:
            d.novices(f.args[0], f.args[1], INACTIVE, -f.args[3])
            d.novices(f.args[0], f.args[1], ACTIVE, f.args[3])
        for figure, step in (("priestess", max(facts.priestess)), ("builder", facts.builder)):
            d.set("figure", fn(figure), _clockwise(d.value("figure", fn(figure)), step))
        if distance is not None:
            d.set("figure", fn("apostate"), _clockwise(apostate, distance))
        d.set("round", d.value("round") + 1)
        d.set("markers", 3 if facts.players == 2 else 4)
        d.fluent("book_bonus_taken", present=False)
        d.set("phase", fn("actions"))
        d.set("control", d.value("start"))
        d.fluent("round_begins")
        return frozenset(d.facts)
    if move.name == "final_scoring" and phase == "final":
        final = {}
        for p in players:
            gain = 4 * sum(1 for f in d.facts if f.name == "shrine" and f.args[0] == p)
            gain += sum(1 for f in d.facts if f.name == "holds" and f.args[0] == p)
            gain += facts.council[d.one("disc", p).args[1]]
            if gain:
                d.add("score", p, delta=gain)
            final[p] = d.value("score", p)
        for p in players:
            beaten = any(final[q] > final[p] or (final[q] == final[p] and q != p and _ahead(d, q, p))
                         for q in players)
            if not beaten:
                d.fluent("winner", p)
        d.set("phase", fn("over"))
        d.facts.discard(d.one("control"))
        return frozenset(d.facts)
    return None
