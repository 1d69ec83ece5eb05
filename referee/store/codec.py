"""The one codec of derived values: a term, a state, a dataclass of the
caller's, in ``marshal`` data of plain tuples, and back.

Each function term is written once, in a table, and rebuilt with
:func:`referee.base.terms.fn` (no per-process hash travels); states (frozen sets
of terms) are written as differences from the state before; values the reader
has already (a record's events, for a run) as their place. Decoding builds only
the classes it is given: a damaged or foreign value is refused
(``ValueError``), never obeyed. Used by every derived value that holds
terms or is kept: the judgement cache's rows (referee/store/judgements.py),
the records read and the whole runs kept (the memos: referee/game/notation.py,
referee/judge/kept_runs.py) and what the relevance analysis keeps
(referee/judge/relevance_store.py).
"""

from __future__ import annotations

import marshal
from dataclasses import fields, is_dataclass

from referee.base.frozen_map import FrozenMap
from referee.base.terms import Fn, fn

#: The format of the values; a value of another format is not read.
FORMAT = 1

# Tags of the encoded values: a scalar (None, bool, int, float, str) stands for itself.
_TUPLE, _TERM, _OBJECT, _MAP, _STATE, _SAME_STATE, _SHARED = range(7)
_SCALARS = frozenset({type(None), bool, int, float, str})


class Codec:
    """Encodes or decodes one value. ``classes`` are the dataclasses it may build
    (by name: nothing else is ever built); ``shared`` are values the reader has
    already (a record's events), written as their place in it; states (frozen
    sets of terms) follow each other as differences from the one before."""

    def __init__(self, classes: tuple[type, ...], shared: tuple = ()):
        self.classes = {cls.__name__: cls for cls in classes}
        self.states: list[frozenset] = []  # states met so far, by number
        self.state_numbers: dict[int, int] = {}  # id(state) -> its number
        self.events = shared
        self.event_numbers = {id(e): i for i, e in enumerate(shared)}
        self.terms: list = []  # the function terms, each once: a value refers to them by number
        self.term_numbers: dict[Fn, int] = {}

    def encode_all(self, value) -> tuple:
        """``value`` with the table of its function terms."""
        body = self.encode(value)
        return self.terms, body

    def decode_all(self, kept):
        table, body = kept
        terms, decode = self.terms, self.decode
        for name, *args in table:  # (most arguments are scalars: they stand for themselves)
            terms.append(fn(name, *[a if type(a) is not tuple else decode(a) for a in args]))
        return self.decode(body)

    # -- encoding ------------------------------------------------------------------
    def encode(self, value):
        kind = type(value)  # the common kinds by their exact type first (a fifth of the time of the checks below)
        if kind in _SCALARS:
            return value
        if kind is Fn:
            return (_TERM, self._term(value))
        if kind is tuple:
            return (_TUPLE, *map(self.encode, value))
        if value is None or isinstance(value, (bool, int, float, str)):
            return value
        if isinstance(value, Fn):
            return (_TERM, self._term(value))
        if isinstance(value, (tuple, list)):
            return (_TUPLE, *map(self.encode, value))
        if isinstance(value, FrozenMap):
            return (_MAP, *(x for k, v in value.items() for x in (k, self.encode(v))))
        if isinstance(value, frozenset):
            return self._encode_state(value)
        if id(value) in self.event_numbers and self.events[self.event_numbers[id(value)]] is value:
            return (_SHARED, self.event_numbers[id(value)])
        if is_dataclass(value) and type(value).__name__ in self.classes:
            return (_OBJECT, type(value).__name__, *(self.encode(getattr(value, f.name)) for f in fields(value)
                                                      if f.init))
        raise TypeError(f"cannot keep a {type(value).__name__}")

    def _term(self, term: Fn) -> int:
        number = self.term_numbers.get(term)
        if number is None:
            entry = (term.name, *[a if type(a) in _SCALARS else self.encode(a) for a in term.args])  # (first: they decode first)
            number = self.term_numbers[term] = len(self.terms)
            self.terms.append(entry)
        return number

    def _encode_state(self, state: frozenset):
        number = self.state_numbers.get(id(state))
        if number is not None and self.states[number] is state:
            return (_SAME_STATE, number)
        base = self.states[-1] if self.states else frozenset()
        gone = tuple(self._term(t) for t in base - state)
        new = tuple(self._term(t) for t in state - base)
        self.state_numbers[id(state)] = len(self.states)
        self.states.append(state)
        return (_STATE, gone, new)

    # -- decoding ------------------------------------------------------------------
    def decode(self, value):
        if type(value) is not tuple:
            if value is None or isinstance(value, (bool, int, float, str)):
                return value
            raise ValueError("not a kept value")
        tag = value[0]
        if tag == _TERM:
            return self.terms[value[1]]
        if tag == _TUPLE:
            return tuple(map(self.decode, value[1:]))
        if tag == _OBJECT:
            return self.classes[value[1]](*map(self.decode, value[2:]))
        if tag == _SAME_STATE:
            return self.states[value[1]]
        if tag == _STATE:
            base = self.states[-1] if self.states else frozenset()
            terms = self.terms
            state = base.difference([terms[i] for i in value[1]]).union([terms[i] for i in value[2]])
            self.states.append(state)
            return state
        if tag == _SHARED:
            return self.events[value[1]]
        if tag == _MAP:
            return FrozenMap({value[i]: self.decode(value[i + 1]) for i in range(1, len(value), 2)})
        raise ValueError("not a kept value")


def dumps(*values) -> bytes:
    return marshal.dumps((FORMAT, *values))


def loads(data: bytes, size: int) -> tuple:
    """The ``size`` values ``dumps`` put in ``data``, or ValueError."""
    try:
        found = marshal.loads(data)
    except (EOFError, ValueError, TypeError) as error:
        raise ValueError("not a kept value") from error
    if not (isinstance(found, tuple) and len(found) == size + 1 and found[0] == FORMAT):
        raise ValueError("another format")
    return found[1:]
