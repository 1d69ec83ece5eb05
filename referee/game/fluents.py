"""Typed fluents: one declaration per fluent, static fact and move term, read by name.

A state is a set of :class:`~referee.base.terms.Fn` terms, and the rule
programs give each argument a meaning by its place: ``gold(Player, Amount)``.
Python reads those terms here, through one declaration per kind of term::

    Heap = fluent("heap", "number", "size")

    for heap in Heap.of(draft):            # every heap/2 of a state or a Draft
        if heap.size == 0: ...
    Heap.make(2, 5)                        # the term heap(2, 5)
    Heap.read(term).size                   # one term, refused unless heap/2
    Heap.match(term)                       # its view, or None for another term
    Score.find(state, "Ann")               # the view whose leading fields are the key
    Score.lookup(state, "Ann", default=0)  # the last field of that view

A declaration is a class of tuples (as a :func:`~collections.namedtuple`) whose instances are
views of one term (its arguments by name); building a view costs about as much
as a tuple, so the fast path reads with it too. The name and the arity of the
term are checked when it is read: a term of another name or arity is refused
(:class:`TermShapeError`), or is not matched by :meth:`match`. ``fact`` and
``compound`` are ``fluent`` under the names a reader expects for a static fact,
and for a move or a term inside one (``compound("", "player", "heap")`` is
the tuple ``(Player, Heap)``).

A counter ``count(Name, Key, N)`` (absent when 0, kept by
:class:`~referee.game.state.Draft`) is declared by its name and the parts of its
key: ``Taken = counter("taken", "player", "heap")`` reads
``Taken.counts(draft)`` as ``{Taken(player, heap): n}`` and builds the key
``Taken.key(player, heap)`` for ``Draft.count`` and ``Draft.change``. The
Draft itself indexes its counters through the named accessors ``counter_name``,
``counter_key``, ``counter_index`` and ``counter_amount`` (no view is built: it
reads counters by the thousand in a game).

The fast path reads states thousands of times per game: a view costs a few
tenths of a microsecond more than indexing ``term.args`` (``bench/bench.py``
measures the whole check).
Why not clorm: unifying game-5p's states into clorm predicates costs about one
whole check (docs/architecture.md, "Typed fluents").

The fluents every game's rule programs share are declared here (``control``,
``phase``, ``winner``, ``count``); each game declares its own in its wing
(``referee/games/<game>/fluents.py``). This module and those are the only ones,
besides the solver's engine, that read a term's arguments by position.
"""

from __future__ import annotations

from operator import itemgetter

try:  # the C getter a namedtuple's fields use
    from collections import _tuplegetter as _field
except ImportError:  # another Python
    def _field(index: int, doc: str) -> property:
        return property(itemgetter(index), doc=doc)

from referee.base.terms import Fn, Term, fn


class TermShapeError(ValueError):
    """A term read as a declaration it is not (another name, another arity)."""


class Declared(tuple):
    """The base of every declaration's views (see :func:`fluent`): a tuple of the
    term's arguments, each read by its field's name. (Not a namedtuple: making one
    compiles code, about 30 µs a class, and a game declares dozens in every
    process that imports it; the fields read as fast.)"""

    __slots__ = ()

    NAME: str = ""
    FIELDS: tuple[str, ...] = ()

    def __new__(cls, *args: Term, **named: Term):
        if named:
            args = args + tuple(named.pop(f) for f in cls.FIELDS[len(args):] if f in named)
        if named or len(args) != len(cls.FIELDS):
            raise TermShapeError(f"{cls.shape()} has {len(cls.FIELDS)} field(s): {', '.join(cls.FIELDS)}")
        return tuple.__new__(cls, args)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{f}={v!r}' for f, v in zip(self.FIELDS, self))})"

    def _replace(self, **changes: Term):
        """A copy with some fields changed (as a namedtuple's ``_replace``)."""
        unknown = set(changes) - set(self.FIELDS)
        if unknown:
            raise TermShapeError(f"{self.shape()} has no field {', '.join(sorted(unknown))}")
        return tuple.__new__(type(self), (changes.get(f, v) for f, v in zip(self.FIELDS, self)))

    @classmethod
    def shape(cls) -> str:
        """The declared term as the rules write it: ``heap(number,size)``."""
        return f"{cls.NAME}({','.join(cls.FIELDS)})"

    @classmethod
    def _refuse(cls, term: object) -> TermShapeError:
        return TermShapeError(f"{term!s} is not {cls.shape()}: the declaration {cls.__name__} reads "
                              f"{cls.NAME or 'a tuple'} with {len(cls.FIELDS)} argument(s)")

    @classmethod
    def read(cls, term: Term):
        """The view of ``term``; a term of another name or arity is refused."""
        if not isinstance(term, Fn) or term.name != cls.NAME or len(term.args) != len(cls.FIELDS):
            raise cls._refuse(term)
        return tuple.__new__(cls, term.args)

    @classmethod
    def match(cls, term: object):
        """The view of ``term`` if it has the declared name and arity, else None."""
        if isinstance(term, Fn) and term.name == cls.NAME and len(term.args) == len(cls.FIELDS):
            return tuple.__new__(cls, term.args)
        return None

    @classmethod
    def of(cls, source) -> list:
        """The views of every term of the declared name in ``source``: a Draft
        (read through its index by name) or any iterable of terms (a state, the
        static facts, a list of moves). One of that name but another arity is
        refused."""
        name, arity, new = cls.NAME, len(cls.FIELDS), tuple.__new__
        having = getattr(source, "having", None)
        terms = having(name) if having is not None else [t for t in source if isinstance(t, Fn) and t.name == name]
        views = []
        for term in terms:
            if len(term.args) != arity:
                raise cls._refuse(term)
            views.append(new(cls, term.args))
        return views

    @classmethod
    def one(cls, source):
        """The view of the first term of the declared name in ``source``, or None."""
        name = cls.NAME
        having = getattr(source, "having", None)
        terms = having(name) if having is not None else (t for t in source if isinstance(t, Fn) and t.name == name)
        term = next(iter(terms), None)
        return None if term is None else cls.read(term)

    @classmethod
    def find(cls, source, *key: Term):
        """The view of the first term in ``source`` whose leading fields are ``key``
        (``Disc.find(state, "Ann")``: Ann's disc), or None."""
        n = len(key)
        if n > len(cls.FIELDS):
            raise TermShapeError(f"{cls.shape()} has no key of {n} field(s)")
        having = getattr(source, "having", None)
        terms = having(cls.NAME) if having is not None else source
        name = cls.NAME
        for term in terms:
            if isinstance(term, Fn) and term.name == name and term.args[:n] == key:
                return cls.read(term)
        return None

    @classmethod
    def lookup(cls, source, *key: Term, default=None):
        """The last field of the term whose other fields are ``key``
        (``Score.lookup(state, "Ann", default=0)``: Ann's score), or ``default``."""
        if len(key) != len(cls.FIELDS) - 1:
            raise TermShapeError(f"{cls.shape()} is looked up by its first {len(cls.FIELDS) - 1} field(s), "
                                 f"got {len(key)}")
        view = cls.find(source, *key)
        return default if view is None else view[-1]

    @classmethod
    def make(cls, *args: Term) -> Fn:
        """The term ``name(args...)``; the arguments are counted against the fields."""
        if len(args) != len(cls.FIELDS):
            raise TermShapeError(f"{cls.shape()} takes {len(cls.FIELDS)} argument(s), got {len(args)}")
        return fn(cls.NAME, *args)

    def term(self) -> Fn:
        """The term this view reads (or a changed copy's, after ``_replace``)."""
        return fn(self.NAME, *self)


#: Names a field may not take: a view's own members, which would hide the field
#: (a field may hide the tuple's ``count`` and ``index``: a view is not searched).
_RESERVED = frozenset(name for name in vars(Declared) if not name.startswith("_"))


def _class_name(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_")) or "Tuple"


def fluent(name: str, *fields: str, kind: str | None = None) -> type:
    """Declare the term ``name(fields...)``: a view class reading it by field name.
    ``kind`` names the class when ``name`` does not (a tuple's is "")."""
    for field in fields:
        if field in _RESERVED or not field.isidentifier() or field.startswith("_"):
            raise TermShapeError(f"{name}({','.join(fields)}): {field!r} cannot name a field")
    if len(set(fields)) != len(fields):
        raise TermShapeError(f"{name}({','.join(fields)}): a field is named twice")
    namespace = {"__slots__": (), "NAME": name, "FIELDS": tuple(fields)}
    for index, field in enumerate(fields):  # each field reads its place, as a namedtuple's does
        namespace[field] = _field(index, f"{name}'s argument {index + 1}")
    return type(kind or _class_name(name), (Declared,), namespace)


fact = fluent
compound = fluent


class Counter:
    """A counter ``count(Name, Key, N)``: its key's parts by name (see the module's
    docstring). With one part the key is that term itself; with more, a tuple."""

    def __init__(self, name: str, *parts: str):
        if not parts:
            raise TermShapeError(f"the counter {name} needs the parts of its key")
        self.name = name
        self.parts = parts
        self.Key = compound("", *parts, kind=_class_name(name)) if len(parts) > 1 else None

    def key(self, *parts: Term) -> Term:
        """The key term of ``parts``, for ``Draft.count`` and ``Draft.change``."""
        if len(parts) != len(self.parts):
            raise TermShapeError(f"the counter {self.name} is keyed by ({', '.join(self.parts)}), "
                                 f"got {len(parts)} part(s)")
        return self.Key.make(*parts) if self.Key is not None else parts[0]

    def counts(self, source) -> dict:
        """Every count of this counter in ``source`` (a Draft, or a state): by the
        key's view (a tuple key) or by the key (a one-part key)."""
        if hasattr(source, "counts"):
            found = source.counts(self.name)
        else:
            found = {c.key: c.amount for c in Count.of(source) if c.counter == Fn(self.name)}
        if self.Key is None:
            return found
        # The views built here, not by Key.read: the fast path reads counters by the thousand.
        view, new, arity = self.Key, tuple.__new__, len(self.parts)
        counts = {}
        for key, n in found.items():
            if not isinstance(key, Fn) or key.name or len(key.args) != arity:
                raise view._refuse(key)
            counts[new(view, key.args)] = n
        return counts


def counter(name: str, *parts: str) -> Counter:
    """Declare the counter ``count(name, Key, N)`` keyed by ``parts``."""
    return Counter(name, *parts)


Control = fluent("control", "role")
Phase = fluent("phase", "name")
Winner = fluent("winner", "player")
Count = fluent("count", "counter", "key", "amount")


# The Draft keeps its counters by (Name, Key) and reads them thousands of times
# per game: these named accessors of ``Count`` read a counter fluent without
# building its view (the caller has checked the name, ``count``).
def counter_name(term: Fn) -> Term:
    """The Name of ``count(Name, Key, N)``."""
    return term.args[0]


def counter_index(term: Fn) -> tuple[Term, Term]:
    """What a counter is kept by: (Name, Key) of ``count(Name, Key, N)``."""
    return term.args[:2]


def counter_key(term: Fn) -> Term:
    """The Key of ``count(Name, Key, N)``."""
    return term.args[1]


def counter_amount(term: Fn) -> Term:
    """The N of ``count(Name, Key, N)``."""
    return term.args[2]
