"""Game states as sets of fluents, with a small editing helper for the fast path."""

from __future__ import annotations

from typing import Iterable, Iterator

from referee.base.terms import Fn, Term, fn
from referee.game.fluents import counter_amount, counter_index, counter_key, counter_name

State = frozenset  # a frozenset[Fn] of fluents: what true/1 holds


class _Facts(set):
    """A set of fluents that, once read often enough to pay for it, also keeps
    them by name, and the counters ``count(Name,Key,N)`` by (Name, Key) and by
    Name: the fast path reads a few kinds of fluent at a time, thousands of times
    per game. The indexes are lists (appending does not hash the fluent, which
    a Python-level ``Fn.__hash__`` makes the cost of building them); the set
    itself keeps each fluent once. Every way of changing the set keeps the
    indexes in step (the ways that would not are refused)."""

    __slots__ = ("named", "counters", "by_counter", "reads")

    #: Lookups by scanning before the indexes are built (a draft read once or
    #: twice is cheaper to scan).
    SCANS = 2

    def __init__(self, facts: Iterable[Fn] = ()):
        super().__init__(facts)
        self.named: dict[str, list] | None = None
        self.counters: dict[tuple, list] | None = None
        self.by_counter: dict[Fn, list] | None = None  # count(Name,_,_) by Name
        self.reads = 0

    def _index(self) -> None:
        self.named = named = {}
        for f in self:
            bucket = named.get(f.name)
            if bucket is None:
                named[f.name] = [f]
            else:
                bucket.append(f)
        self.counters, self.by_counter = {}, {}
        for f in named.get("count", ()):
            self._note_counter(f)

    def _note(self, f: Fn) -> None:
        bucket = self.named.get(f.name)
        if bucket is None:
            self.named[f.name] = [f]
        else:
            bucket.append(f)
        self._note_counter(f)

    def _note_counter(self, f: Fn) -> None:
        if f.name == "count":
            index = counter_index(f)  # (Name, Key)
            self.counters.setdefault(index, []).append(f)
            self.by_counter.setdefault(index[0], []).append(f)

    def having(self, name: str) -> list[Fn]:
        if self.named is None:
            self.reads += 1
            if self.reads <= self.SCANS:
                return [f for f in self if f.name == name]
            self._index()
        return list(self.named.get(name, ()))

    def counter(self, key: tuple) -> Fn | None:
        if self.counters is None:
            self.reads += 1
            if self.reads <= self.SCANS:
                return next((f for f in self if f.name == "count" and counter_index(f) == key), None)
            self._index()
        return next(iter(self.counters.get(key, ())), None)

    def counted(self, name: Fn) -> list[Fn]:
        """Every counter ``count(name, Key, N)``."""
        if self.by_counter is None:
            self.reads += 1
            if self.reads <= self.SCANS:
                return [f for f in self if f.name == "count" and counter_name(f) == name]
            self._index()
        return list(self.by_counter.get(name, ()))

    def add(self, f: Fn) -> None:
        if f in self:
            return
        super().add(f)
        if self.named is not None:
            self._note(f)

    def discard(self, f: Fn) -> None:
        if f in self:
            super().discard(f)
            if self.named is not None:
                self.named[f.name].remove(f)
                if f.name == "count":
                    self.counters[counter_index(f)].remove(f)
                    self.by_counter[counter_name(f)].remove(f)

    def remove(self, f: Fn) -> None:
        if f not in self:
            raise KeyError(f)
        self.discard(f)

    def update(self, *others: Iterable[Fn]) -> None:
        for other in others:
            for f in list(other):
                self.add(f)

    def difference_update(self, *others: Iterable[Fn]) -> None:
        for other in others:
            for f in list(other):
                self.discard(f)

    def __ior__(self, other):
        self.update(other)
        return self

    def __isub__(self, other):
        self.difference_update(other)
        return self

    def clear(self) -> None:
        super().clear()
        self.named = self.counters = self.by_counter = None

    def _refused(self, *args, **kwargs):
        raise TypeError("not supported by a Draft's facts: use add and discard")

    pop = intersection_update = symmetric_difference_update = __iand__ = __ixor__ = _refused


class Draft:
    """A mutable copy of a state, for the fast path's bookkeeping steps."""

    def __init__(self, state: Iterable[Fn]):
        self.facts: set[Fn] = _Facts(state)

    def freeze(self) -> frozenset[Fn]:
        return frozenset(self.facts)

    def having(self, name: str) -> Iterator[Fn]:
        """Every fluent named ``name``."""
        return iter(self.facts.having(name))

    def one(self, name: str) -> Fn | None:
        return next(self.having(name), None)

    def add(self, name: str, *args: Term) -> None:
        self.facts.add(fn(name, *args))

    def discard(self, fluent: Fn) -> None:
        self.facts.discard(fluent)

    def drop_all(self, name: str) -> list[Fn]:
        """Remove every fluent named ``name`` and return them."""
        gone = list(self.having(name))
        self.facts.difference_update(gone)
        return gone

    # counters: count(Name, Key, N), absent when 0 -------------------------------
    def count(self, name: str, key: Term) -> int:
        f = self.facts.counter((constant(name), key))
        return int(counter_amount(f)) if f is not None else 0  # type: ignore[arg-type]

    def counts(self, name: str) -> dict[Term, int]:
        return {counter_key(f): int(counter_amount(f)) for f in self.facts.counted(constant(name))}  # type: ignore[arg-type]

    def change(self, name: str, key: Term, delta: int) -> None:
        if delta == 0:
            return
        old = self.count(name, key)
        if old:
            self.facts.discard(fn("count", constant(name), key, old))
        if old + delta:
            self.facts.add(fn("count", constant(name), key, old + delta))


_CONSTANTS: dict[str, Fn] = {}


def constant(name: str) -> Fn:
    """The constant ``name`` (one shared term per name: counters are read by it
    thousands of times per game)."""
    found = _CONSTANTS.get(name)
    if found is None:
        found = _CONSTANTS[name] = fn(name)
    return found


def tup(*args: Term) -> Fn:
    """A tuple term, as clingo writes ``(a,b)``."""
    return Fn("", tuple(args))
