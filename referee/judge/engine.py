"""The solver: the only module that imports clingo.

Rule programs are loaded from files that ship with the package; facts (the
static data, the state, the move under judgement) are added through the
clingo Backend as symbols, never as program text, so a player called
``x. #include "/etc/passwd".`` stays a name.
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import importlib
import marshal
import sys
import threading
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from referee.base.errors import SolverLimitError
from referee.base.terms import Fn, Term, intern, term_text
from referee.judge.relevance_store import KeptFile, input_text, static_text
from referee.judge.relevance_store import write_all as write_kept
from referee.judge.values import Breach, Judgement
from referee.store.files import Kind, key_of, referee_stamp, solver_stamp


class _OnFirstUse:
    """A module imported when first used, then put in its name's place: a run
    kept whole (referee/judge/kept_runs.py) needs no solver, nor the 15 ms of importing it."""

    def __init__(self, module: str, name: str):
        self._module, self._name = module, name

    def __getattr__(self, attribute: str):
        module = importlib.import_module(self._module)
        if globals()[self._name] is self:
            globals()[self._name] = module
            atexit.register(_release)
        return getattr(module, attribute)


def _release() -> None:
    """Let go of the parsed statements while clingo is still there to free them:
    at exit, a module imported later is torn down earlier, and clingo came in
    after this module and after whoever keeps an engine (a cache of sessions)."""
    for engine in list(_ENGINES.values()):
        engine._static_memo = (None, None)
    _STATIC_PARTS.clear()
    _RELEVANCE.clear()  # (what its analyses found holds guarded statements)
    _parsed.cache_clear()
    _renamed.cache_clear()


clingo = _OnFirstUse("clingo", "clingo")
ast = _OnFirstUse("clingo.ast", "ast")

#: Default bound on one solver call, in seconds of CPU time (``_cpu_since``); the
#: rule programs are stratified, so a judgement normally takes a few milliseconds.
DEFAULT_TIME_LIMIT = 10.0
#: How often a call in progress is held against its bound (seconds).
CPU_POLL = 0.02
#: Default bound on the number of input facts one judgement may carry; a
#: transcript that would exceed it (a thousand players, a huge map) is refused
#: before grounding.
DEFAULT_MAX_FACTS = 50_000
#: Positions whose legal moves are grounded in one call (``legal_moves_many``):
#: each lists every candidate, so a call stays well within the time bound.
LEGAL_BATCH = 100


_TO_SYMBOL: dict = {}
_FROM_SYMBOL: dict = {}

#: Solver calls made in this process, by every engine (the service's workers report it: docs/service.md).
SOLVER_CALLS = 0


def to_symbol(term: Term) -> clingo.Symbol:
    """Our term -> a clingo symbol (strings stay strings: data, not program text)."""
    if isinstance(term, Fn):
        symbol = _TO_SYMBOL.get(term)
        if symbol is None:
            symbol = _TO_SYMBOL[term] = _to_symbol(term)
            if len(_TO_SYMBOL) > 200_000:
                _TO_SYMBOL.clear()
        return symbol
    return _to_symbol(term)


def _to_symbol(term: Term) -> clingo.Symbol:
    if isinstance(term, bool):
        raise TypeError("bool is not a term")
    if isinstance(term, int):
        if not -(2**31) <= term < 2**31:
            raise SolverLimitError(f"the number {term} is too large for the rule programs")
        return clingo.Number(term)
    if isinstance(term, str):
        return clingo.String(term)
    if term.name == "":
        return clingo.Tuple_([to_symbol(a) for a in term.args])
    return clingo.Function(term.name, [to_symbol(a) for a in term.args])


def from_symbol(symbol: clingo.Symbol) -> Term:
    """A clingo symbol -> our term (memoised: states repeat most of their terms)."""
    term = _FROM_SYMBOL.get(symbol)
    if term is None:
        term = _from_symbol(symbol)
        term = _FROM_SYMBOL[symbol] = intern(term) if isinstance(term, Fn) else term
        if len(_FROM_SYMBOL) > 200_000:
            _FROM_SYMBOL.clear()
    return term


def _from_symbol(symbol: clingo.Symbol) -> Term:
    if symbol.type == clingo.SymbolType.Number:
        return symbol.number
    if symbol.type == clingo.SymbolType.String:
        return symbol.string
    if symbol.type == clingo.SymbolType.Function:
        return Fn(symbol.name, tuple(from_symbol(a) for a in symbol.arguments))
    raise ValueError(f"unexpected symbol {symbol}")  # #inf / #sup never leave our programs


# -- the indexed form of a rule program ----------------------------------------------
#
# Grounding has a large fixed cost per rule, so judging forty moves in one call
# is far cheaper than forty calls. The GDL program is rewritten once: every
# predicate that depends on the state or the move gets a last argument K, the
# index of an independent judgement (``judgement(K)``); a call gives
# ``true(F,K)`` and ``does(R,M,K)`` for each K. The judgements do not depend on
# each other, so the program stays stratified and grounds straight to facts.

_BASE_DYNAMIC = {("true", 1), ("does", 2), ("want", 1)}
INDEX = "K__judgement"
#: The indexed programs in the store of derived files; bump when indexed_program changes.
INDEXED = Kind("indexed", 5)


def _atoms(node) -> list:
    """Every function symbol used as an atom inside ``node`` (a pool gives several)."""
    found: list = []
    _collect_atoms(node, found)
    return found


def _collect_atoms(node, found: list) -> None:
    kind = node.ast_type
    if kind == ast.ASTType.SymbolicAtom:
        symbol = node.symbol
        options = symbol.arguments if symbol.ast_type == ast.ASTType.Pool else [symbol]
        found.extend(o for o in options if o.ast_type == ast.ASTType.Function)
    elif kind in (ast.ASTType.Literal, ast.ASTType.ConditionalLiteral):
        _collect_atoms(node.atom if kind == ast.ASTType.Literal else node.literal, found)
        for condition in getattr(node, "condition", ()):
            _collect_atoms(condition, found)
    elif kind in (ast.ASTType.Comparison, ast.ASTType.BooleanConstant):
        pass
    else:  # aggregates, disjunctions, directives: every child that is a node or a list of nodes
        for key in node.child_keys:
            child = getattr(node, key)
            for c in (child if isinstance(child, ast.ASTSequence) else [child]):
                if isinstance(c, ast.AST):
                    _collect_atoms(c, found)


def _signature(function) -> tuple[str, int]:
    return function.name, len(function.arguments)


#: The state after a move's effects (rules.lp), which a game reads only in a few shapes.
_CARRIED = ("carried", 1)


def _shape(term) -> tuple[str, int] | None:
    """The function symbol (name, arity) a term of an atom's argument names, or None."""
    pattern = _pattern(term)
    return (pattern[0], len(pattern[1])) if isinstance(pattern, tuple) else None


def _as_read(statements: list, signature: tuple[str, int]) -> list:
    """The rules defining ``signature`` (a predicate of one argument) for only
    the shapes of argument the program reads it with: each rule whose head is
    ``p(F)``, F a variable, becomes one rule per function symbol f/n some body
    reads ``p(f(...))`` with, F replaced by ``f(F__0,...)``. The atoms no rule
    reads are then never grounded (rules.lp's ``carried/1`` holds every fluent
    of every judgement, and a game reads a few kinds of them: a shipped
    5-player game's batch grounds 21,000 atoms fewer, 5-10% faster). Nothing changes
    when a reader's argument is not a function symbol or the predicate is shown."""
    shapes, defining = set(), []
    for i, statement in enumerate(statements):
        if statement.ast_type == ast.ASTType.ShowSignature and (statement.name, statement.arity) == signature \
                or statement.ast_type == ast.ASTType.ShowTerm and signature[0] in str(statement):
            return statements
        if statement.ast_type != ast.ASTType.Rule:
            continue
        for literal in statement.body:
            for atom in _atoms(literal):
                if _signature(atom) == signature:
                    shape = _shape(atom.arguments[0])
                    if shape is None:
                        return statements
                    shapes.add(shape)
        head = [a for a in _atoms(statement.head) if _signature(a) == signature]
        if head:
            if len(head) != 1 or head[0].arguments[0].ast_type != ast.ASTType.Variable:
                return statements  # a head of another form: left as written
            defining.append((i, head[0].arguments[0].name))

    class Substitute(ast.Transformer):
        def __init__(self, name: str, term) -> None:
            self.name, self.term = name, term

        def visit_Variable(self, variable):
            return self.term if variable.name == self.name else variable

    replaced = {}
    for i, variable in defining:
        statement = statements[i]
        loc = statement.location
        replaced[i] = [Substitute(variable, ast.Function(loc, name, [ast.Variable(loc, f"{variable}__{k}")
                                                                     for k in range(arity)], 0))(statement)
                       for name, arity in sorted(shapes)]
    return [new for i, statement in enumerate(statements) for new in replaced.get(i, [statement])]


def indexed_program(program: str) -> str:
    """``program`` rewritten into the indexed form: static rules as they are; in
    every rule touching the state, the index K as the last argument of every
    state-dependent predicate and ``judgement(K)`` in the body."""
    statements: list = []
    ast.parse_string(program, statements.append)
    statements = _as_read(statements, _CARRIED)
    dynamic = set(_BASE_DYNAMIC)
    uses = []  # per rule: the signatures in its head and in its body
    for statement in statements:
        if statement.ast_type == ast.ASTType.Rule:
            uses.append(({_signature(f) for f in _atoms(statement.head)},
                         {_signature(f) for b in statement.body for f in _atoms(b)}))
        else:
            uses.append((set(), set()))
    changed = True
    while changed:  # a predicate is dynamic when a rule defining it uses a dynamic one
        changed = False
        for heads, body in uses:
            if heads - dynamic and body & dynamic:
                dynamic |= heads
                changed = True

    class AddTime(ast.Transformer):
        def visit_SymbolicAtom(self, atom):
            symbol = atom.symbol
            if symbol.ast_type == ast.ASTType.Pool:
                return atom.update(symbol=symbol.update(arguments=[self._timed(f) for f in symbol.arguments]))
            return atom.update(symbol=self._timed(symbol))

        def _timed(self, function):
            if function.ast_type != ast.ASTType.Function or _signature(function) not in dynamic:
                return function
            return function.update(arguments=list(function.arguments) + [ast.Variable(function.location, INDEX)])

    static, shown, timed = [], [], []
    for statement, (heads, body) in zip(statements, uses):
        if statement.ast_type == ast.ASTType.Rule and (heads | body) & dynamic:
            loc = statement.location
            index = ast.Literal(loc, ast.Sign.NoSign, ast.SymbolicAtom(
                ast.Function(loc, "judgement", [ast.Variable(loc, INDEX)], 0)))
            statement = AddTime()(statement)
            timed.append(str(statement.update(body=[index] + list(statement.body))))
        elif statement.ast_type == ast.ASTType.ShowSignature and (statement.name, statement.arity) in dynamic:
            shown.append(str(statement.update(arity=statement.arity + 1)))
        elif statement.ast_type == ast.ASTType.ShowSignature:
            static.append(str(statement))
        elif statement.ast_type == ast.ASTType.Rule:
            static.append(str(statement))
    return "\n".join(static + [JUDGED] + shown + [_STATE_CHAIN] + timed)


#: The state in the indexed program (only the state chain defines it).
_STATE = ("true", 2)
#: The line between the static part of an indexed program (grounded once per
#: static data: see Engine._static_part) and the part grounded for each call.
JUDGED = "% -- judged --"
#: A judgement's state given as the previous judgement's state and what differs
#: (``state_from(K,P)``, ``state_put(F,K)``, ``state_drop(F,K)``): the states of a
#: batch follow each other and share nine in ten fluents, so most are sent as the
#: few that change.
_STATE_CHAIN = """true(F,K) :- state_from(K,P), true(F,P), not state_drop(F,K).
true(F,K) :- state_put(F,K)."""


_INDEXED: dict = {}


def cached_indexed(program: str) -> str:
    """``indexed_program(program)``, kept in the store of derived files under
    the program and the solver (rewriting takes a fifth of a second; reading it
    back, nothing), and in this process. A cache that cannot be read or
    written is simply not used."""
    digest = _digest(program)
    if digest in _INDEXED:
        return _INDEXED[digest]
    text = INDEXED.fetch(key_of(solver_stamp(), digest), lambda: indexed_program(program), str.encode, _indexed_text)
    if len(_INDEXED) > 16:
        _INDEXED.clear()
    _INDEXED[digest] = text
    return text


def _indexed_text(content: bytes) -> str:
    text = content.decode("utf-8")
    if JUDGED not in text:  # not an indexed program
        raise ValueError("not an indexed program")
    return text


@dataclass
class _StaticPart:
    """The static part of an indexed program grounded with one set of static
    facts: what every judgement call starts from."""

    key: str                    # the rules (program text) and the static data, hashed
    static: tuple               # the static facts
    facts: list | None = None   # the input symbols of every call (once grounded)
    program: tuple = ()         # the statements grounded in every call
    init: frozenset | None = None  # the initial state
    relevance: Relevance | None = None  # when the static part is all facts: which statements a call needs
    static_atoms: tuple = ()    # the static facts in relevance's abstract form
    rules: str = ""             # the judged part's text, hashed (when the static part is all facts)
    found: "_Found | None" = None  # what the analysis found for these static facts


@dataclass
class _Found:
    """What the relevance analysis found for one static part, shared by the
    parts whose static facts look alike to it (other players, the same game)."""

    kept: dict = field(default_factory=dict)  # the statements a call needs, by its input (Engine._kept)
    classes: dict = field(default_factory=dict)  # a set of kinds of judgement -> its guard's number (Engine._guarded)
    guarded: dict = field(default_factory=dict)  # (statement, guard's number) -> the guarded statement
    any_state: object = None  # what follows from the static facts and any state (Engine._kept)
    file: KeptFile | None = None  # the kept statements in the cache folder (_kept_on_disk): opened on the first miss


#: Static parts by key: a process judging many records of one game grounds the
#: static part of its rules once (a few games and readings at most).
_STATIC_PARTS: dict[str, _StaticPart] = {}
#: Every engine alive (their static parts are let go at exit: _release).
_ENGINES: "weakref.WeakValueDictionary[int, Engine]" = weakref.WeakValueDictionary()


@dataclass
class Engine:
    """Runs a game's rule programs: ``init``, ``judge``, ``legal_moves`` and
    ``prefetch``.

    ``program_files`` are read once and rewritten into the indexed form
    (``indexed_program``), whose static part is grounded once per static data
    and process; each call grounds the rest for its judgements (one or many:
    ``prefetch`` judges many guessed moves in one call and keeps the judgements
    for ``judge`` to answer from). With a ``store`` (referee/store/judgements.py), the
    judgements are also kept on disk, under the rules, the state and the move.
    """

    program_files: tuple[Path, ...]
    time_limit: float = DEFAULT_TIME_LIMIT
    max_facts: int = DEFAULT_MAX_FACTS
    batching: bool = True
    pruning: bool = True  # ground only the statements a call needs (referee/judge/relevance.py)
    store: object | None = None  # a referee.cache.JudgementStore
    calls: int = field(default=0, init=False)
    _program: str = field(default="", init=False, repr=False)
    _indexed: str = field(default="", init=False, repr=False)
    # judgements and legal moves kept in this engine, under the static part's key
    # (the static facts they were made with) and the state (and the move)
    _cache: dict = field(default_factory=dict, init=False, repr=False)
    _legal: dict = field(default_factory=dict, init=False, repr=False)
    _static_memo: tuple = field(default=(None, None), init=False, repr=False)
    _unsaved: list = field(default_factory=list, init=False, repr=False)
    _batch_cap: int | None = field(default=None, init=False, repr=False)  # judgements per batch, after a timeout

    def __post_init__(self) -> None:
        self._program = "\n".join(Path(p).read_text(encoding="utf-8") for p in self.program_files)
        _ENGINES[id(self)] = self

    @property
    def indexed(self) -> str:
        """The indexed program (built on first use, cached on disk: see cached_indexed)."""
        if not self._indexed:
            self._indexed = cached_indexed(self._program)
        return self._indexed

    # -- public API -------------------------------------------------------------
    def init(self, static: Iterable[Fn]) -> frozenset[Fn]:
        """The initial state: every ``init(F)`` the programs derive."""
        part = self._part(static)
        if part.init is None and self.store is not None:
            part.init = self.store.initial_state(part.key)
        if part.init is None:
            self._grounded(part)
            if part.init is None:  # the static part is not all facts: solve it
                static_text = self.indexed.split(JUDGED)[0]
                model = self._run(_parsed(static_text), part.facts)
                part.init = frozenset(s.args[0] for s in model if isinstance(s, Fn) and s.name == "init")
            if self.store is not None:
                self.store.keep_initial_state(part.key, part.init)
        return part.init

    def judge(self, static: Iterable[Fn], state: Iterable[Fn], role: Term, move: Fn,
              want_legal: bool = False) -> Judgement:
        """Judge ``does(role, move)`` in ``state``: its violations and the next state;
        ``want_legal``: every legal move in ``state`` too, in the same call (kept as
        ``legal_moves`` keeps them)."""
        state = state if isinstance(state, frozenset) else frozenset(state)
        if not want_legal and self.knows(state, role, move, static):
            return self._cache[(self._part(static).key, state, role, move)]
        judgement = self._judge_many(static, [(state, (role, move), want_legal)])[0]
        self._keep(static, (state, role, move), judgement)
        if want_legal:
            rules = self._part(static).key
            self._legal[(rules, state)] = judgement.legal
            if self.store is not None:
                self.store.keep_legal_moves(rules, state, judgement.legal)
        return judgement

    def knows(self, state: frozenset, role: Term, move: Fn, static: Iterable[Fn] | None = None) -> bool:
        """Whether the judgement of this move in this state is already known (in
        this engine, or in its store: then it is loaded), under ``static`` (by
        default the static facts of the last call)."""
        static = static if static is not None else self._static_memo[0]
        if static is None:
            return False
        rules = self._part(static).key
        key = (rules, state, role, move)
        if key in self._cache:
            return True
        if self.store is None:
            return False
        found = self.store.judgement(rules, state, role, move)
        if found is None:
            return False
        violations, gains, loses, goals = found
        self._cache[key] = Judgement(tuple(Breach(*v) for v in violations), (state - loses) | gains, (), goals,
                                     gains, loses)
        return True

    def prefetch(self, static: Iterable[Fn], items: list[tuple[frozenset, Term, Fn]]) -> None:
        """Judge many (state, role, move) triples in one solver call and keep the
        judgements, so that ``judge`` answers them without solving again.

        The triples are a guess of what comes next (the referee's speculation):
        a judgement is only ever used for exactly the state and move it was
        computed for."""
        items = [i for i in items if not self.knows(i[0], i[1], i[2], static)]
        if self._batch_cap is not None:
            items = items[:self._batch_cap]
        if not self.batching or len(items) < 2:
            return
        size = len(self._grounded(self._part(static)).facts)
        for k, (state, _, _) in enumerate(items):
            size += len(state)
            if size >= self.max_facts:  # a batch grounds at most as many states as the bound of one judgement
                items = items[:k]
                break
        try:
            judgements = self._judge_many(static, [(state, (role, move), False) for state, role, move in items])
        except SolverLimitError:
            # A guess that does not fit the time bound (a machine busy with other work) is
            # dropped, and the next guesses are smaller: each move is then judged within the
            # bound on its own, where a real limit error is reported.
            self._batch_cap = len(items) // 4
            return
        for (state, role, move), judgement in zip(items, judgements):
            self._keep(static, (state, role, move), judgement)
        self._save_judgements()

    def legal_moves(self, static: Iterable[Fn], state: Iterable[Fn]) -> tuple[tuple[Term, Fn], ...]:
        """Every legal move in ``state`` as (role, move) pairs (kept: a page or a
        service asks about the same position again)."""
        return self.legal_moves_many(static, [state])[0]

    def legal_known(self, static: Iterable[Fn], state: frozenset) -> bool:
        """Whether the legal moves in ``state`` are already known (in this engine,
        or in its store: then they are loaded)."""
        rules = self._part(static).key
        if (rules, state) in self._legal:
            return True
        found = self.store.legal_moves(rules, state) if self.store is not None else None
        if found is not None:
            self._legal[(rules, state)] = found
        return found is not None

    def legal_moves_many(self, static: Iterable[Fn], states: Iterable[Iterable[Fn]]) -> list[tuple[tuple[Term, Fn], ...]]:
        """``legal_moves`` of many states, grounded together (a few calls instead
        of one per state; each answer is kept as ``legal_moves`` keeps it, in this
        engine and in its store). A call that goes over the time bound is split
        in two, down to one state a call (then the bound is an error as for
        ``legal_moves``)."""
        states = [s if isinstance(s, frozenset) else frozenset(s) for s in states]
        rules = self._part(static).key
        wanted = list(dict.fromkeys(s for s in states if (rules, s) not in self._legal))
        if wanted and self.store is not None:
            for state in wanted:
                found = self.store.legal_moves(rules, state)
                if found is not None:
                    self._legal[(rules, state)] = found
            wanted = [s for s in wanted if (rules, s) not in self._legal]
        while wanted:
            size = len(self._grounded(self._part(static)).facts)
            batch: list[frozenset] = []
            for state in wanted:
                if batch and (len(batch) >= LEGAL_BATCH or size + len(state) >= self.max_facts // 2):
                    break
                size += len(state) + 2
                batch.append(state)
            wanted = wanted[len(batch):]
            self._legal_batch(static, batch)
        return [self._legal[(rules, s)] for s in states]

    def _legal_batch(self, static: Iterable[Fn], batch: list[frozenset]) -> None:
        try:
            judgements = self._judge_many(static, [(state, None, True) for state in batch])
        except SolverLimitError:
            if len(batch) == 1:
                raise
            self._legal_batch(static, batch[:len(batch) // 2])
            self._legal_batch(static, batch[len(batch) // 2:])
            return
        rules = self._part(static).key
        for state, judgement in zip(batch, judgements):
            self._legal[(rules, state)] = judgement.legal
            if self.store is not None:
                self.store.keep_legal_moves(rules, state, judgement.legal)

    def flush(self) -> None:
        """Write the judgements not yet in the store (one transaction), and the
        analyses made since the last flush to the cache folder (referee/judge/relevance_store.py)."""
        self._save_judgements()
        write_kept()

    def _save_judgements(self) -> None:
        if self.store is not None and self._unsaved:
            self.store.keep(self._unsaved)
        self._unsaved.clear()

    # -- the one place that talks to clingo ----------------------------------------
    def _keep(self, static, key: tuple, judgement: Judgement) -> None:
        rules = self._part(static).key
        self._cache[(rules,) + key] = judgement
        if self.store is not None:
            self._unsaved.append((rules, key, judgement))
            if len(self._unsaved) >= 200:
                self._save_judgements()

    def rules_key(self, static: Iterable[Fn]) -> str:
        """The key of what a judgement is made with: the rule programs (indexed),
        these static facts and the solver's installed files, hashed."""
        return self._part(static).key

    def _part(self, static: Iterable[Fn]) -> _StaticPart:
        """The static part for these static facts (grounded once per process)."""
        known, part = self._static_memo
        if known is static and part is not None:
            return part
        facts = tuple(static)
        if len(facts) > self.max_facts:
            raise SolverLimitError(
                f"the position has {len(facts)} facts, more than the bound of {self.max_facts}; "
                "the transcript is too large to judge")
        text = self.indexed
        digest = hashlib.sha256(text.encode("utf-8"))
        digest.update(b"\0" + solver_stamp().encode())
        for line in sorted(term_text(f) for f in facts):
            digest.update(b"\0" + line.encode("utf-8"))
        key = digest.hexdigest()
        part = _STATIC_PARTS.get(key)
        if part is None:
            part = _StaticPart(key, facts)
            if len(_STATIC_PARTS) > 32:
                _STATIC_PARTS.clear()
            _STATIC_PARTS[key] = part
        self._static_memo = (static, part)
        return part

    def _grounded(self, part: _StaticPart) -> _StaticPart:
        """Ground the static part with the static facts (once: a process that
        finds every judgement in the store never does). When it is all facts (a
        stratified program), those atoms are the input of every later call, which
        then grounds only the judged part; otherwise every call grounds it all."""
        if part.facts is not None:
            return part
        facts = [to_symbol(f) for f in part.static]
        static_text, judged_text = self.indexed.split(JUDGED)
        ctl = clingo.Control(["--warn=none"])
        with ast.ProgramBuilder(ctl) as builder:
            for statement in _parsed(static_text):
                builder.add(statement)
        with ctl.backend() as backend:
            for symbol in facts:
                backend.add_rule([backend.add_atom(symbol)])
        self._ground(ctl)
        atoms = list(ctl.symbolic_atoms)
        if all(a.is_fact for a in atoms):
            symbols = [a.symbol for a in atoms]
            part.init = frozenset(from_symbol(s.arguments[0]) for s in symbols if s.type == clingo.SymbolType.Function
                                  and s.name == "init" and len(s.arguments) == 1)
            part.facts, part.program = symbols, _parsed(judged_text)
            part.relevance = _relevance(judged_text, part.program)
            part.rules = _digest(judged_text)
            part.static_atoms = tuple(part.relevance.atom(s.name, [from_symbol(a) for a in s.arguments])
                                      for s in symbols if s.type == clingo.SymbolType.Function)
            part.found = part.relevance.memo.setdefault(frozenset(part.static_atoms), _Found())
        else:
            part.facts, part.program = facts, _parsed(static_text + "\n" + judged_text)
        return part

    def _judge_many(self, static: Iterable[Fn], items: list) -> list[Judgement]:
        """One solver call judging each (state, (role, move) or None, want_legal)."""
        part = self._grounded(self._part(static))
        size = len(part.facts) + max(len(state) for state, _, _ in items)
        if size > self.max_facts:
            raise SolverLimitError(
                f"the position has {size} facts, more than the bound of {self.max_facts}; "
                "the transcript is too large to judge")
        facts = list(part.facts)
        previous = None
        for k, (state, does, want_legal) in enumerate(items):
            index = clingo.Number(k)
            facts.append(clingo.Function("judgement", [index]))
            if previous is not None and len(state ^ previous) < len(state) // 2:
                facts.append(clingo.Function("state_from", [index, clingo.Number(k - 1)]))
                facts.extend(clingo.Function("state_put", [to_symbol(f), index]) for f in state - previous)
                facts.extend(clingo.Function("state_drop", [to_symbol(f), index]) for f in previous - state)
            else:
                facts.extend(clingo.Function("true", [to_symbol(f), index]) for f in state)
            if does is not None:
                facts.append(clingo.Function("does", [to_symbol(does[0]), to_symbol(does[1]), index]))
            if want_legal:
                facts.append(clingo.Function("want", [clingo.Function("legal"), index]))
            previous = state
        found = [([], [], [], [], []) for _ in items]  # violations, gains, loses, legal, goals
        program = part.program
        if self.pruning and part.relevance is not None:
            program, guards = self._needed(part, items)
            facts.extend(guards)
        for atom in self._run(program, facts, alone=len(items) == 1):
            if not isinstance(atom, Fn) or not atom.args or not isinstance(atom.args[-1], int):
                continue
            k = atom.args[-1]
            if not 0 <= k < len(items):
                continue
            name, args = atom.name, atom.args
            if name == "violation" and len(args) == 5:
                rule, role, move, details, _ = args
                does = items[k][1]
                if does is None or (role, move) == does:  # only the judged move's (candidates have theirs)
                    found[k][0].append(Breach(rule.name, role, move, details.args))
            elif name == "gains" and len(args) == 2:
                found[k][1].append(args[0])
            elif name == "loses" and len(args) == 2:
                found[k][2].append(args[0])
            elif name == "legal" and len(args) == 3:
                found[k][3].append((args[0], args[1]))
            elif name == "goal" and len(args) == 3:
                found[k][4].append((args[0], args[1]))
        judgements = []
        for (state, does, _), (violations, gains, loses, legal, goals) in zip(items, found):
            gains, loses = frozenset(gains), frozenset(loses)
            judgements.append(Judgement(
                tuple(sorted(violations, key=lambda v: (v.rule, str(v.args)))),
                (state - loses) | gains if does is not None else frozenset(),
                tuple(sorted(legal, key=str)), tuple(sorted(goals, key=str)), gains, loses))
        return judgements

    def _needed(self, part: _StaticPart, items: list) -> tuple[tuple, list]:
        """The statements of the judged part that can matter to a call judging
        ``items`` (referee/judge/relevance.py), and the facts that guard them.

        One judgement: only its move (in abstract form) selects the statements
        (70-130 of the larger shipped game's 786), with any state allowed
        (``true/2`` of anything), and the answer is kept: states hardly ever
        repeat and moves do (game-5p's 256 judgements: 33 analyses, 6-10 ms
        each, instead of 249 with the states' shapes), and grounding the extra
        statements costs about 3 ms a call (8.1 against 11.3 ms, measured side
        by side). One listing of legal moves: analysed with its state's shapes
        (every candidate move is in play: about a third faster).

        A batch grounds the statements any of its judgements needs, each
        guarded so that it is grounded only for the judgements that need it
        (:meth:`_guarded`): the judgements of a batch are independent, so a
        statement one judgement does not need derives nothing that judgement's
        answer depends on."""
        if len(items) > 1:
            return self._guarded(part, items)
        state, does, want = items[0]
        shapes = frozenset(part.relevance.abstract(f) for f in state) if want else frozenset({None})
        return tuple(part.program[i] for i in self._kept(part, _moves(part, does), want, shapes)), []

    @staticmethod
    def _kept(part: _StaticPart, moves: frozenset, want: bool, shapes: frozenset) -> tuple[int, ...]:
        """The statements (indexes into the judged part) a judgement of
        ``moves`` (or a listing, ``want``) in a state of ``shapes`` needs: the
        analysis, kept by its input. Records whose static facts look alike to
        the analysis (other players, the same game) share what is kept."""
        key = (moves, want, shapes)
        kept = part.found.kept.get(key)
        if kept is not None:
            return kept
        text = input_text(moves, want, shapes)
        kept = _kept_on_disk(part).get(text)  # a file only this input's text can open
        if kept is None:
            inputs = [(("does", 3), (role, move, None)) for role, move in moves]
            if want:
                inputs.append(part.relevance.atom("want", (Fn("legal"), 0)))
            if shapes == {None}:  # any state: going on from what the static facts and any state give
                if part.found.any_state is None:
                    part.found.any_state = part.relevance.prepared(_state_atoms(part, shapes))
                kept = part.relevance.kept(inputs, part.found.any_state)
            else:
                kept = part.relevance.kept(_state_atoms(part, shapes) + inputs)
            part.found.file.note(text, kept)
        if len(part.found.kept) > 4096:
            part.found.kept.clear()
        part.found.kept[key] = kept
        return kept

    def _guarded(self, part: _StaticPart, items: list) -> tuple[tuple, list]:
        """A batch's statements, each guarded by ``needs__(C,K)`` when not every
        judgement K needs it, and the ``needs__`` facts: C names the set of
        kinds of judgement (a move's abstract form, or a listing) whose
        analysis keeps the statement. Each judgement then grounds about what it
        would alone; the state chain and what every judgement needs stay
        unguarded. Measured on game-5p's batch of 256 judgements: see
        docs/speed.md.

        The judgements are independent but for the state chain (``true(F,K)``
        from the state of the judgement before, ``_STATE_CHAIN``), the only
        statements defining ``true/2``: those stay unguarded, so every
        judgement's state is whole whatever the next one needs."""
        relevance = part.relevance
        if len(part.found.classes) > 4096:  # the numbers name the guarded statements: both go
            part.found.classes.clear()
            part.found.guarded.clear()
        kinds = [(_moves(part, does), want) for _, does, want in items]
        needs = {kind: frozenset(self._kept(part, kind[0], kind[1], frozenset({None})))
                 for kind in dict.fromkeys(kinds)}
        every = frozenset.intersection(*needs.values())
        program, classes = [], {}
        for i in sorted(frozenset().union(*needs.values())):
            if i in every or _STATE in (s for s, _ in relevance.outlines[i].heads):
                # (the state chain reads another judgement's state: never guarded)
                program.append(part.program[i])
                continue
            which = frozenset(kind for kind, kept in needs.items() if i in kept)
            number = part.found.classes.setdefault(which, len(part.found.classes))
            classes[number] = which
            statement = part.found.guarded.get((i, number))
            if statement is None:
                statement = part.found.guarded[(i, number)] = _guard(part.program[i], number)
            program.append(statement)
        facts = [clingo.Function("needs__", [clingo.Number(number), clingo.Number(k)])
                 for number, which in classes.items() for k, kind in enumerate(kinds) if kind in which]
        return tuple(program), facts

    def _ground(self, ctl: clingo.Control, alone: bool = False) -> None:
        """Ground within the time bound (:func:`_ground_within`). A call about
        one position (a judgement, or its legal moves) is grounded in this
        thread: its input is bounded by ``max_facts``, grounding it takes tens
        of milliseconds, and clingo grounds about a third slower in another
        thread (measured on game-5p's judgements one at a time: 111-127 ms a
        call in a worker thread, 70-90 ms in the calling one; a listing of
        battles-5p's moves 132 -> 115 ms); its solving keeps the bound."""
        if alone:
            try:
                ctl.ground([("base", [])])
            except RuntimeError as exc:
                raise SolverLimitError(f"the rule programs could not be grounded: {exc}") from exc
            return
        finished, error = _ground_within(ctl, self.time_limit)
        if not finished:
            ctl.interrupt()
            raise SolverLimitError(f"grounding took longer than the bound of {self.time_limit:g} s of CPU time")
        if error is not None:
            raise SolverLimitError(f"the rule programs could not be grounded: {error}")

    def _run(self, program: tuple, facts: list[clingo.Symbol], alone: bool = False) -> list[Term]:
        global SOLVER_CALLS
        self.calls += 1
        SOLVER_CALLS += 1
        ctl = clingo.Control(["--warn=none"])
        with ast.ProgramBuilder(ctl) as builder:  # parsed once per program: parsing costs more than adding
            for statement in program:
                builder.add(statement)
        with ctl.backend() as backend:
            for symbol in facts:
                backend.add_rule([backend.add_atom(symbol)])
        spent = _cpu_since()
        self._ground(ctl, alone)
        if spent() > self.time_limit:  # grounded in this thread, past the bound: the call is over it
            raise SolverLimitError(f"grounding took longer than the bound of {self.time_limit:g} s of CPU time")
        symbols: list[Term] = []
        with ctl.solve(on_model=lambda m: symbols.extend(from_symbol(s) for s in m.symbols(shown=True)),
                       async_=True) as handle:
            while not handle.wait(CPU_POLL):
                if spent() > self.time_limit:
                    handle.cancel()
                    raise SolverLimitError(
                        f"the solver took longer than the bound of {self.time_limit:g} s of CPU time")
            result = handle.get()
        if not result.satisfiable:
            raise SolverLimitError("the rule programs have no answer for this position (a bug in the rules)")
        return symbols


def _ground_within(ctl: clingo.Control, seconds: float) -> tuple[bool, BaseException | None]:
    """Ground in a worker thread until it has used ``seconds`` of CPU time (clingo
    cannot interrupt a grounding in progress): whether it finished, and its error."""
    ground_error: list[BaseException] = []

    def ground() -> None:
        try:
            ctl.ground([("base", [])])
        except BaseException as exc:  # returned to the caller's thread
            ground_error.append(exc)

    worker = threading.Thread(target=ground, daemon=True)
    worker.start()
    spent = _cpu_since(worker)
    while True:
        worker.join(CPU_POLL)
        if not worker.is_alive():
            return True, (ground_error[0] if ground_error else None)
        if spent() > seconds:
            return False, None


def _cpu_since(thread: threading.Thread | None = None):
    """A clock of the CPU time used from now on by ``thread`` (the grounding in a
    worker thread: its own clock, so that a grounding abandoned earlier and still
    running is not counted), or by this process (a solve, in clingo's own thread).

    The solver's bound is CPU time, not wall time: on a machine busy with other
    work a call gets less of the processor, and a verdict must not depend on that
    (a record that passes on an idle machine passes on a loaded one). The bound
    of a whole record or request (an archive's, the service's) is the wall time
    of its worker process, which is killed past it."""
    if thread is not None and hasattr(time, "pthread_getcpuclockid"):
        try:
            clock = time.pthread_getcpuclockid(thread.ident)
            start = time.clock_gettime(clock)
        except (OSError, TypeError):  # the thread ended already, or no such clock here
            pass
        else:
            def spent() -> float:
                try:
                    return time.clock_gettime(clock) - start
                except OSError:  # the thread has just ended: its work is done
                    return 0.0
            return spent
    start = time.process_time()
    return lambda: time.process_time() - start


def grounding_messages(program_files: Iterable[Path], facts: Iterable[Term],
                       inputs: Iterable[tuple[str, int]] = ()) -> list[str]:
    """Ground the rule programs over ``facts`` with clingo's warnings on: every
    message clingo gives (an atom that occurs in no rule head, an undefined
    operation, an unsafe variable, a syntax error...), as ``code: text``.

    For tests only (tests/judge/test_rules_ground.py), over the shipped games' data:
    the facts are added to the program as AST nodes holding their symbols
    (clingo's checks do not see atoms added through the Backend, which the
    referee uses for everything else), and ``inputs`` (name, arity) are declared
    ``#defined`` for when no fact gives them. What remains of "atom does not
    occur in any rule head" names a predicate nothing defines (a misspelling)."""
    messages: list[str] = []
    ctl = clingo.Control(["--warn=all"], logger=lambda code, text: messages.append(f"{code.name}: {text.strip()}"),
                         message_limit=10_000)
    try:
        for path in program_files:  # loaded by name, so that a message names its file and line
            ctl.load(str(path))
        # The data as AST nodes, never as program text: each fact a symbol (a name
        # stays a string), each input a #defined statement.
        where = ast.Location(ast.Position("<facts>", 1, 1), ast.Position("<facts>", 1, 1))
        with ast.ProgramBuilder(ctl) as builder:
            for name, arity in sorted(set(inputs)):
                builder.add(ast.Defined(where, name, arity, True))
            for term in facts:
                atom = ast.SymbolicAtom(ast.SymbolicTerm(where, to_symbol(term)))
                builder.add(ast.Rule(where, ast.Literal(where, ast.Sign.NoSign, atom), []))
        ctl.ground([("base", [])])
    except RuntimeError as error:  # the messages say why
        messages.append(f"error: {error}")
    return messages


# -- an optimisation over renamed copies of a rule program (referee compare's search) ------

_SHARED = {("does", 2)}


def renamed(program: str, prefix: str) -> list:
    """The statements of ``program`` with every predicate it defines (and
    ``true/1``, ``variant_active/1``) prefixed; ``does/2`` and the static facts
    stay shared. #show statements are dropped."""
    statements: list = []
    ast.parse_string(program, statements.append)
    defined = {("true", 1), ("variant_active", 1)}

    class Heads(ast.Transformer):
        def visit_SymbolicAtom(self, atom):
            symbol = atom.symbol
            for f in (symbol.arguments if symbol.ast_type == ast.ASTType.Pool else [symbol]):
                if f.ast_type == ast.ASTType.Function:
                    defined.add((f.name, len(f.arguments)))
            return atom

    for s in statements:
        if s.ast_type == ast.ASTType.Rule:
            Heads()(s.head)
    defined -= _SHARED

    class Rename(ast.Transformer):
        def visit_SymbolicAtom(self, atom):
            symbol = atom.symbol
            if symbol.ast_type == ast.ASTType.Pool:
                return atom.update(symbol=symbol.update(arguments=[self._name(f) for f in symbol.arguments]))
            return atom.update(symbol=self._name(symbol))

        def _name(self, f):
            if f.ast_type == ast.ASTType.Function and (f.name, len(f.arguments)) in defined:
                return f.update(name=prefix + f.name)
            return f

    return [Rename()(s) for s in statements if s.ast_type == ast.ASTType.Rule]


@functools.lru_cache(maxsize=2)
def _renamed(program: str, prefix: str) -> tuple:
    """The renamed copy of a rule program (kept: renaming takes a moment)."""
    return tuple(renamed(program, prefix))


def best_model(program: str, prefixes: tuple[str, ...], glue: str, facts: Iterable[Term], seconds: float,
               ground_seconds: float, failure: str) -> tuple[list[Term] | None, bool]:
    """The best model of an optimisation problem: ``program`` once per prefix,
    its predicates renamed apart (:func:`renamed`), with ``glue`` (choice rules,
    constraints, ``#minimize`` and ``#show``) over ``facts``.

    Grounding is bounded by ``ground_seconds`` (a SolverLimitError ``failure`` when
    it is hit or fails), solving by ``seconds``. Returns the shown atoms of the
    best model found (None when there is none) and whether it is proven optimal.
    """
    ctl = clingo.Control(["--warn=none", "--opt-mode=opt"])
    with ast.ProgramBuilder(ctl) as builder:
        for prefix in prefixes:
            for statement in _renamed(program, prefix):
                builder.add(statement)
        ast.parse_string(glue, builder.add)
    with ctl.backend() as backend:
        for term in facts:
            backend.add_rule([backend.add_atom(to_symbol(term))])
    finished, error = _ground_within(ctl, ground_seconds)
    if not finished or error is not None:
        raise SolverLimitError(failure + (f": {error}" if error is not None else ""))
    best: list = []
    with ctl.solve(on_model=lambda m: best.append([from_symbol(s) for s in m.symbols(shown=True)]),
                   async_=True) as handle:
        done = handle.wait(seconds)
        if not done:
            handle.cancel()
        outcome = handle.get()
    if not best:
        return None, False
    return best[-1], bool(done and outcome.exhausted)


def _moves(part: _StaticPart, does) -> frozenset:
    """The move of a judgement (None: a listing) in the analysis's abstract form, as a set."""
    if does is None:
        return frozenset()
    return frozenset({(part.relevance.abstract(does[0]), part.relevance.abstract(does[1]))})


def _state_atoms(part: _StaticPart, shapes) -> list:
    """The abstract input of a call but its moves: the static facts, and states of these shapes."""
    atoms = list(part.static_atoms)
    atoms += [(("judgement", 1), (None,)), (("state_from", 2), (None, None))]
    atoms += [((name, 2), (shape, None)) for name in ("true", "state_put", "state_drop") for shape in shapes]
    return atoms


def _guard(statement, number: int):
    """``statement`` (a rule of the judged part) with ``needs__(number,K)`` first in its body."""
    loc = statement.location
    guard = ast.Function(loc, "needs__", [ast.SymbolicTerm(loc, clingo.Number(number)), ast.Variable(loc, INDEX)], 0)
    return statement.update(body=[ast.Literal(loc, ast.Sign.NoSign, ast.SymbolicAtom(guard))] + list(statement.body))


# -- outlines of statements for referee/judge/relevance.py -------------------------------------

def _pattern(term):
    """A term of a statement as a pattern of referee/judge/relevance.py: a variable's
    name, ``(name, args)`` for a function symbol, None for anything else (a
    number, a string, arithmetic, a pool, the anonymous variable)."""
    kind = term.ast_type
    if kind == ast.ASTType.Variable:
        return None if term.name == "_" else term.name
    if kind == ast.ASTType.Function and not term.external:
        return (term.name, tuple(_pattern(a) for a in term.arguments))
    if kind == ast.ASTType.SymbolicTerm and term.symbol.type == clingo.SymbolType.Function:
        return _symbol_pattern(term.symbol)
    return None


def _symbol_pattern(symbol: clingo.Symbol):
    if symbol.type != clingo.SymbolType.Function:
        return None
    return (symbol.name, tuple(_symbol_pattern(a) for a in symbol.arguments))


def _atom_pattern(atom):
    """A symbolic atom as (signature, argument patterns), or None (classical negation)."""
    symbol = atom.symbol
    if symbol.ast_type == ast.ASTType.SymbolicTerm:  # a constant: p
        value = symbol.symbol
        return ((value.name, 0), ()) if value.type == clingo.SymbolType.Function and not value.arguments else None
    if symbol.ast_type != ast.ASTType.Function:
        return None
    return (_signature(symbol), tuple(_pattern(a) for a in symbol.arguments))


def _outline(statement) -> Outline:
    """What referee/judge/relevance.py needs of one statement (see Outline)."""
    from referee.judge.relevance import Outline

    kind = statement.ast_type
    if kind == ast.ASTType.ShowSignature:
        return Outline(always=True, shows=((statement.name, statement.arity),))
    if kind != ast.ASTType.Rule:  # #show t : body, #defined, #external, #program...: kept, and what they read shown
        return Outline(always=True, shows=tuple({_signature(f) for f in _atoms(statement)}))
    head, heads, constraint = statement.head, [], False
    if head.ast_type == ast.ASTType.Literal and head.atom.ast_type == ast.ASTType.BooleanConstant:
        constraint = True
    elif head.ast_type == ast.ASTType.Literal and head.sign == ast.Sign.NoSign \
            and head.atom.ast_type == ast.ASTType.SymbolicAtom and _atom_pattern(head.atom) is not None:
        heads.append(_atom_pattern(head.atom))
    else:  # a disjunction, a choice, a pool: each atom it names, with what its variables bind left free
        heads.extend((_signature(f), tuple(_pattern(a) for a in f.arguments)) for f in _atoms(head))
        if not heads:
            return Outline(always=True)
    positive, equal = [], []
    for literal in statement.body:
        if literal.ast_type != ast.ASTType.Literal or literal.sign != ast.Sign.NoSign:
            continue
        atom = literal.atom
        if atom.ast_type == ast.ASTType.SymbolicAtom:
            pattern = _atom_pattern(atom)
            if pattern is not None:
                positive.append(pattern)
        elif atom.ast_type == ast.ASTType.Comparison and len(atom.guards) == 1 \
                and atom.guards[0].comparison == ast.ComparisonOperator.Equal:
            left, right = atom.term, atom.guards[0].term
            if right.ast_type == ast.ASTType.Variable and left.ast_type != ast.ASTType.Variable:
                left, right = right, left
            if left.ast_type == ast.ASTType.Variable and left.name != "_":
                options = right.arguments if right.ast_type == ast.ASTType.Pool else [right]
                equal.append((left.name, tuple(_pattern(o) for o in options)))
    reads = frozenset(_signature(f) for literal in statement.body for f in _atoms(literal))
    return Outline(tuple(heads), tuple(positive), tuple(equal), reads, constraint)


#: The outlines of a program in the store of derived files; bump when _outline changes.
OUTLINES = Kind("outlines", 3)


def _relevance(text: str, program: tuple) -> Relevance:
    """The relevance analysis of ``program`` (parsed from ``text``). Its
    outlines are kept in the store of derived files under the text, the solver
    and the Python that wrote them (reading clingo's statements takes half a
    second; reading the file back, a few milliseconds): a file that is
    damaged, cannot be read or does not fit is rebuilt, never trusted."""
    digest = _digest(text)
    if digest in _RELEVANCE:
        return _RELEVANCE[digest]
    from referee.judge.relevance import Outline, Relevance  # here: an answer read from the memo needs no analysis

    def loaded(content: bytes) -> Relevance:
        found = Relevance([Outline.from_tuple(o) for o in marshal.loads(content)])
        if len(found.outlines) != len(program):
            raise ValueError("not this program's")
        return found

    python = f"py{sys.version_info[0]}{sys.version_info[1]}m{marshal.version}"  # marshal's format is Python's
    found = OUTLINES.fetch(key_of(solver_stamp(), python, digest), lambda: Relevance([_outline(s) for s in program]),
                           lambda r: marshal.dumps(tuple(o.to_tuple() for o in r.outlines)), loaded)
    if len(_RELEVANCE) > 16:
        _RELEVANCE.clear()
    _RELEVANCE[digest] = found
    return found


_RELEVANCE: dict[str, Relevance] = {}


@functools.lru_cache(maxsize=16)
def _digest(text: str) -> str:
    """The sha256 of a program's text (hex)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _kept_on_disk(part: _StaticPart) -> KeptFile:
    """The file of the kept statements for ``part``'s rules and static facts
    (referee/judge/relevance_store.py), opened on the first miss of its _Found."""
    found = part.found
    if found.file is None:
        parts = (str(OUTLINES.version), solver_stamp(), referee_stamp(), part.rules, static_text(part.static_atoms))
        found.file = KeptFile(parts, len(part.program), frozenset(part.relevance.always))
    return found.file


@functools.lru_cache(maxsize=16)
def _parsed(program: str) -> tuple:
    """The statements of a rule program, parsed once."""
    statements: list = []
    ast.parse_string(program, statements.append)
    return tuple(statements)
