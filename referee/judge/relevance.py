"""Which statements of a rule program can matter to one solver call.

clingo spends about 50 µs preparing each statement of a program it grounds,
whether or not the statement derives anything. A judgement grounds the judged
part of a game's rules (about 790 statements for the larger shipped game), of
which one move needs about a tenth. Before a call, the engine asks which
statements can matter to it, and grounds only those.

The answer comes from an *abstract grounding*: the call's input (the static
facts, the states, the moves) with every term cut down to the function symbols
the program itself spells (``use(horse, march(_,_,_))`` stays that; a
place's id, a number or a player's name becomes OTHER, "something the program never
names") and cut at a depth (below it: "anything").
Rules are applied to these abstract atoms until nothing new follows. A
statement is kept when

- it **can fire**: each positive literal of its body matches a derivable
  abstract atom (negative literals, aggregates and conditions are taken as
  possibly true), with the variables shared between the literals and the
  equalities ``X = t`` of the body respected; and
- its head **can reach what the caller reads**: the shown predicates, or a
  predicate read (in any literal) by a kept statement; or it is a constraint.

Both are over-approximations: every ground instance clingo would produce has
its positive body in the abstract atoms, and a predicate nothing shown depends
on cannot change a shown atom. So the kept program has exactly the shown atoms
of the whole one (for the stratified programs of the games: one model); the
agreement tests compare the two on the shipped records (tests/judge/test_engine.py).

Pure Python: referee/judge/engine.py turns clingo's statements into
:class:`Outline` s (it is the only module that imports clingo).

Terms here: ``None`` is "anything", a ``str`` is a variable (in patterns
only), and ``(name, args)`` is a function symbol (a constant has no args).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from referee.base.terms import Fn

#: Depth at which terms are cut (an atom's arguments are at depth 1):
#: ``does(P, use(horse, march(I,N,J)))`` needs three levels.
DEPTH = 4
#: Bindings followed per rule; past it they are merged into one (coarser, still sound).
MAX_BINDINGS = 256
#: The abstract form of a number, a string, or a function symbol the program
#: never spells: it matches a variable, never a function pattern.
OTHER = ("#other", ())

_FAIL = object()


@dataclass(frozen=True)
class Outline:
    """What the analysis needs of one statement.

    heads:    the atoms its head can derive, as (signature, argument patterns)
    positive: the positive atoms of its body, likewise
    equal:    the body's ``X = t`` equalities, as (variable, alternatives of t)
    reads:    the signatures of every atom its body mentions
    constraint: a rule with no head (``:- body.``)
    always:   kept whatever the input (a directive, or a statement the outline
              cannot describe)
    shows:    the signatures it shows (``#show p/n.``)
    """

    heads: tuple = ()
    positive: tuple = ()
    equal: tuple = ()
    reads: frozenset = frozenset()
    constraint: bool = False
    always: bool = False
    shows: tuple = ()

    def to_tuple(self) -> tuple:
        """The outline as plain tuples (referee/judge/engine.py keeps outlines on disk
        with ``marshal``, which reads tuples back ten times faster than json)."""
        return (self.heads, self.positive, self.equal, self.reads, self.constraint, self.always, self.shows)

    @classmethod
    def from_tuple(cls, data) -> "Outline":
        if type(data) is not tuple or len(data) != 7:
            raise ValueError("not an outline")
        heads, positive, equal, reads, constraint, always, shows = data
        if not all(type(x) is tuple for x in (heads, positive, equal, shows)) or type(reads) is not frozenset \
                or type(constraint) is not bool or type(always) is not bool:
            raise ValueError("not an outline")
        return cls(heads, positive, equal, reads, constraint, always, shows)


def _meet(a, b):
    """The most general abstract term matching both ``a`` and ``b`` (or _FAIL)."""
    if a is None:
        return b
    if b is None or a == b:
        return a
    if a[0] != b[0] or len(a[1]) != len(b[1]):
        return _FAIL
    args = []
    for x, y in zip(a[1], b[1]):
        m = _meet(x, y)
        if m is _FAIL:
            return _FAIL
        args.append(m)
    return (a[0], tuple(args))


def _match(pattern, value, binding: dict):
    """``binding`` extended so that ``pattern`` matches the abstract ``value``, or _FAIL."""
    if pattern is None:
        return binding
    if type(pattern) is str:  # a variable
        if pattern in binding:
            merged = _meet(binding[pattern], value)
            if merged is _FAIL:
                return _FAIL
            if merged != binding[pattern]:
                binding = {**binding, pattern: merged}
            return binding
        return {**binding, pattern: value}
    if value is None:  # anything: the pattern's variables stay free
        return binding
    name, args = pattern
    if value[0] != name or len(value[1]) != len(args):
        return _FAIL
    for p, v in zip(args, value[1]):
        binding = _match(p, v, binding)
        if binding is _FAIL:
            return _FAIL
    return binding


def _instance(pattern, binding: dict, depth: int):
    """``pattern`` with its variables replaced (a free one is "anything"), cut at ``depth``."""
    if pattern is None or depth == 0:
        return None
    if type(pattern) is str:
        return _cut(binding.get(pattern), depth)
    return (pattern[0], tuple(_instance(a, binding, depth - 1) for a in pattern[1]))


def _cut(value, depth: int):
    if value is None or depth == 0:
        return None
    if not value[1]:
        return value
    return (value[0], tuple(_cut(a, depth - 1) for a in value[1]))


def _merged(bindings: list[dict]) -> list[dict]:
    """One binding matching every one of ``bindings``: a variable they disagree on is free."""
    first = bindings[0]
    return [{v: x for v, x in first.items() if all(b.get(v, _FAIL) == x for b in bindings)}]


class Relevance:
    """The analysis of one program (its statements' outlines): ``abstract`` turns
    a term of ours into its abstract form, ``kept`` answers for one input."""

    def __init__(self, outlines: list[Outline]) -> None:
        self.outlines = outlines
        self.vocabulary: set[tuple[str, int]] = set()
        for outline in outlines:
            for _, args in outline.heads + outline.positive:
                for a in args:
                    self._spelled(a)
            for _, alternatives in outline.equal:
                for a in alternatives:
                    self._spelled(a)
        self.shown = {s for o in outlines for s in o.shows}
        self.order = _dependency_order(outlines)
        self.always = {i for i, o in enumerate(outlines) if o.always}
        self.constraints = [i for i, o in enumerate(outlines) if o.constraint]
        self.definers: dict = {}  # signature -> the statements whose head can derive it
        for i, outline in enumerate(outlines):
            for signature in {s for s, _ in outline.heads}:
                self.definers.setdefault(signature, []).append(i)
        self.place = {i: k for k, i in enumerate(self.order)}
        # per statement, per positive literal: the first argument that is a function
        # symbol, as (position, name, arity), by which the derived atoms are looked up
        self.keys = [tuple(next(((k, a[0], len(a[1])) for k, a in enumerate(args) if type(a) is tuple), None)
                           for _, args in outline.positive) for outline in outlines]
        self.readers: dict = {}  # signature -> the statements reading it positively
        for i, outline in enumerate(outlines):
            for signature in {s for s, _ in outline.positive}:
                self.readers.setdefault(signature, []).append(i)
        self._abstract: dict = {}
        self.memo: dict = {}  # for the caller: what it keeps of the answers (referee/judge/engine.py)

    def _spelled(self, pattern) -> None:
        if pattern is None or type(pattern) is str:
            return
        self.vocabulary.add((pattern[0], len(pattern[1])))
        for a in pattern[1]:
            self._spelled(a)

    def abstract(self, term, depth: int = DEPTH):
        """A ground term of ours, abstracted: the function symbols the program
        spells, down to ``depth``; a number, a string or a symbol the program
        never spells is OTHER (no pattern of the program can name it)."""
        if depth == 0:
            return None
        if not isinstance(term, Fn):
            return OTHER
        if depth == DEPTH:
            found = self._abstract.get(term, _FAIL)
            if found is not _FAIL:
                return found
        if (term.name, len(term.args)) not in self.vocabulary:
            value = OTHER
        else:
            value = (term.name, tuple(self.abstract(a, depth - 1) for a in term.args))
        if depth == DEPTH:
            if len(self._abstract) > 100_000:
                self._abstract.clear()
            self._abstract[term] = value
        return value

    def atom(self, name: str, args) -> tuple:
        """An input atom ``name(args)`` in abstract form: (signature, arguments)."""
        return ((name, len(args)), tuple(self.abstract(a) for a in args))

    def prepared(self, atoms) -> "Prepared":
        """What follows from ``atoms`` alone: the input that many calls share
        (the static facts, any state), for :meth:`kept` to go on from."""
        facts = _Facts()
        for signature, args in atoms:
            facts.add(signature, args)
        fired: set[int] = set()
        self._fire(facts, fired, deque(self.order))  # a statement after those it reads from: most looked at once
        return Prepared(facts, frozenset(fired))

    def kept(self, atoms, prepared: "Prepared | None" = None) -> tuple[int, ...]:
        """The statements (indexes into the outlines, in order) that can matter
        to a call whose input facts are ``atoms`` (abstract, see ``atom``),
        with those of ``prepared`` besides (the analysis is monotone: going on
        from what follows from part of the input is the same as starting over,
        and looks again only at the statements the rest reaches)."""
        if prepared is None:
            prepared = Prepared(_Facts(), frozenset())
            start = list(self.order)
        else:
            start = None
        facts, fired = prepared.facts.copy(), set(prepared.fired)
        changed = {signature for signature, args in atoms if facts.add(signature, args)}
        if start is None:
            start = sorted({j for signature in changed for j in self.readers.get(signature, ())},
                           key=self.place.__getitem__)
        self._fire(facts, fired, deque(start))
        # what the shown predicates and the constraints read, through the statements that fired
        needed = {i for i in self.constraints if i in fired}
        relevant = set(self.shown).union(*(self.outlines[i].reads for i in needed))
        todo = list(relevant)
        while todo:
            for i in self.definers.get(todo.pop(), ()):
                if i in fired and i not in needed:
                    needed.add(i)
                    for signature in self.outlines[i].reads - relevant:
                        relevant.add(signature)
                        todo.append(signature)
        return tuple(sorted(needed | self.always))

    def _fire(self, facts: "_Facts", fired: set[int], queue: deque) -> None:
        """Add to ``fired`` the statements whose body can hold, deriving the
        heads' abstract atoms into ``facts`` until nothing new follows."""
        waiting = set(queue)
        while queue:
            i = queue.popleft()
            waiting.discard(i)
            outline = self.outlines[i]
            if outline.always:
                continue
            bindings = self._bindings(outline, self.keys[i], facts)
            if not bindings:
                continue
            fired.add(i)
            for signature, args in outline.heads:
                new = False
                for binding in bindings:
                    new |= facts.add(signature, tuple(_instance(a, binding, DEPTH) for a in args))
                if new:
                    for j in self.readers.get(signature, ()):
                        if j not in waiting:
                            waiting.add(j)
                            queue.append(j)

    @staticmethod
    def _bindings(outline: Outline, keys: tuple, facts: "_Facts") -> list[dict]:
        """The variable bindings under which the body can hold (empty: it cannot)."""
        if not all(signature in facts.by_signature for signature, _ in outline.positive):
            return []
        bindings: list[dict] = [{}]
        for (signature, args), key in zip(outline.positive, keys):
            found = []
            candidates = facts.matching(signature, key)
            for binding in bindings:
                for values in candidates:
                    b = binding
                    for p, v in zip(args, values):
                        b = _match(p, v, b)
                        if b is _FAIL:
                            break
                    if b is not _FAIL:
                        found.append(b)
            if not found:
                return []
            bindings = _unique(found)
        for variable, alternatives in outline.equal:
            found = []
            for binding in bindings:
                for t in alternatives:
                    if variable in binding:
                        b = _match(t, binding[variable], binding)
                    else:
                        b = {**binding, variable: _instance(t, binding, DEPTH)}
                    if b is not _FAIL:
                        found.append(b)
            if not found:
                return []
            bindings = _unique(found)
        return bindings


@dataclass(frozen=True)
class Prepared:
    """The abstract atoms that follow from part of an input, and the statements that fired."""

    facts: "_Facts"
    fired: frozenset


class _Facts:
    """The abstract atoms derived so far, by signature, and indexed by the
    function symbol at one argument (an index is built when a pattern first
    asks for it, then kept up to date)."""

    def __init__(self) -> None:
        self.by_signature: dict = {}
        self.indexes: dict = {}  # (signature, position, name, arity) -> the atoms that can match there
        self.indexed: dict = {}  # signature -> its indexes' keys

    def copy(self) -> "_Facts":
        other = _Facts()
        other.by_signature = {s: set(v) for s, v in self.by_signature.items()}
        other.indexes = {k: list(v) for k, v in self.indexes.items()}
        other.indexed = {s: list(v) for s, v in self.indexed.items()}
        return other

    def add(self, signature, values: tuple) -> bool:
        """Add an atom; whether it is new."""
        known = self.by_signature.setdefault(signature, set())
        if values in known:
            return False
        known.add(values)
        for key in self.indexed.get(signature, ()):
            if _fits(values[key[1]], key[2], key[3]):
                self.indexes[key].append(values)
        return True

    def matching(self, signature, key) -> "list | set":
        """The atoms of ``signature`` that can match a pattern with the
        function symbol ``key`` = (position, name, arity) there (all, without a key)."""
        if key is None:
            return self.by_signature.get(signature, ())
        full = (signature,) + key
        found = self.indexes.get(full)
        if found is None:
            position, name, arity = key
            found = self.indexes[full] = [v for v in self.by_signature.get(signature, ())
                                          if _fits(v[position], name, arity)]
            self.indexed.setdefault(signature, []).append(full)
        return found


def _fits(value, name: str, arity: int) -> bool:
    return value is None or (value[0] == name and len(value[1]) == arity)


def _dependency_order(outlines: list[Outline]) -> list[int]:
    """The statements ordered so that one defining a predicate comes before
    those reading it positively, but within a recursion (Tarjan's strongly
    connected components of the predicates, which it gives in reverse order)."""
    uses: dict = {}  # head predicate -> the predicates its bodies read positively
    for outline in outlines:
        for head, _ in outline.heads:
            uses.setdefault(head, set()).update(s for s, _ in outline.positive)
    rank: dict = {}  # predicate -> its component's place, definitions first
    index: dict = {}
    low: dict = {}
    stack: list = []
    on_stack: set = set()
    components: list = []

    def visit(node) -> None:  # iterative, so a long chain of predicates needs no deep recursion
        work = [(node, iter(sorted(uses.get(node, ()))))]
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        while work:
            current, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(uses.get(child, ())))))
                elif child in on_stack:
                    low[current] = min(low[current], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[current])
            if low[current] == index[current]:
                place = len(components)
                components.append(current)
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    rank[member] = place
                    if member == current:
                        break

    for predicate in sorted(uses):
        if predicate not in index:
            visit(predicate)
    return sorted(range(len(outlines)),
                  key=lambda i: max((rank.get(h, 0) for h, _ in outlines[i].heads), default=0))


def _unique(bindings: list[dict]) -> list[dict]:
    if len(bindings) < 2:
        return bindings
    unique = list({frozenset(b.items()): b for b in bindings}.values())
    return _merged(unique) if len(unique) > MAX_BINDINGS else unique
