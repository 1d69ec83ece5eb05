"""Game states as sets of fluents, with a small editing helper for the fast path."""

from __future__ import annotations

from typing import Iterable, Iterator

from .terms import Fn, Term, fn

State = frozenset  # a frozenset[Fn] of fluents: what true/1 holds


class Draft:
    """A mutable copy of a state, for the fast path's bookkeeping steps."""

    def __init__(self, state: Iterable[Fn]):
        self.facts: set[Fn] = set(state)

    def freeze(self) -> frozenset[Fn]:
        return frozenset(self.facts)

    def having(self, name: str) -> Iterator[Fn]:
        """Every fluent named ``name``."""
        return (f for f in list(self.facts) if f.name == name)

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
        for f in self.having("count"):
            if f.args[0] == Fn(name) and f.args[1] == key:
                return int(f.args[2])  # type: ignore[arg-type]
        return 0

    def counts(self, name: str) -> dict[Term, int]:
        return {f.args[1]: int(f.args[2]) for f in self.having("count")  # type: ignore[arg-type]
                if f.args[0] == Fn(name)}

    def change(self, name: str, key: Term, delta: int) -> None:
        if delta == 0:
            return
        old = self.count(name, key)
        if old:
            self.facts.discard(fn("count", Fn(name), key, old))
        if old + delta:
            self.facts.add(fn("count", Fn(name), key, old + delta))


def tup(*args: Term) -> Fn:
    """A tuple term, as clingo writes ``(a,b)``."""
    return Fn("", tuple(args))
