"""The project's own term type: what facts, fluents and moves are made of.

A term is an ``int``, a ``str`` (a string datum such as a player's name or a
place's id, never program text) or an :class:`Fn` (a function symbol with
arguments; a constant is an ``Fn`` without arguments).  Only :mod:`referee.engine`
turns terms into clingo symbols.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

Term = Union[int, str, "Fn"]


@dataclass(frozen=True, eq=False)
class Fn:
    """A function term ``name(args...)``; ``Fn('pass')`` is the constant ``pass``."""

    name: str
    args: tuple[Term, ...] = ()

    # States are sets of thousands of terms, so the hash is computed once.
    def __hash__(self) -> int:
        try:
            return self.__dict__["_hash"]
        except KeyError:
            value = hash((self.name, self.args))
            self.__dict__["_hash"] = value
            return value

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Fn):
            return NotImplemented
        return self.__hash__() == other.__hash__() and self.name == other.name and self.args == other.args

    def __lt__(self, other: "Fn") -> bool:
        return (self.name, self.args) < (other.name, other.args)

    def __repr__(self) -> str:
        if not self.args:
            return f"fn({self.name!r})"
        return f"fn({self.name!r}, {', '.join(repr(a) for a in self.args)})"

    def __str__(self) -> str:
        return show(self)


_INTERNED: dict = {}


def intern(term: Fn) -> Fn:
    """The one shared object equal to ``term``: states built by Python and states
    read back from the solver then hold the same objects, and comparing them
    (thousands of times per game) is mostly an identity check."""
    canonical = _INTERNED.get(term)
    if canonical is None:
        if len(_INTERNED) > 500_000:
            _INTERNED.clear()
        canonical = _INTERNED[term] = term
    return canonical


def fn(name: str, *args: Term) -> Fn:
    """Build a function term: ``fn('gold', 'Ann', 5)``."""
    return intern(Fn(name, tuple(args)))


def show(term: Term) -> str:
    """The term in ASP-like surface syntax, for messages and reports."""
    if isinstance(term, bool):
        raise TypeError("bool is not a term")
    if isinstance(term, int):
        return str(term)
    if isinstance(term, str):
        return '"' + term.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if not term.args:
        return term.name
    return f"{term.name}({','.join(show(a) for a in term.args)})"


def term_text(term: Term) -> str:
    """``show(term)``, kept on the term (states are hashed for the judgement
    cache, and share nine in ten of their fluents)."""
    if isinstance(term, Fn):
        text = term.__dict__.get("_text")
        if text is None:
            text = term.__dict__["_text"] = show(term)
        return text
    return show(term)
