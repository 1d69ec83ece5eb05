"""The solver: the only module that imports clingo.

Rule programs are loaded from files that ship with the package; facts (the
static data, the state, the move under judgement) are added through the
clingo Backend as symbols, never as program text, so a player called
``x. #include "/etc/passwd".`` stays a name.
"""

from __future__ import annotations

import functools
import hashlib
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

import clingo
from clingo import ast

from .errors import RefereeError, SolverLimitError
from .terms import Fn, Term, intern

#: Default bound on one solve (seconds); the rule programs are stratified, so a
#: judgement normally takes a few milliseconds.
DEFAULT_TIME_LIMIT = 10.0
#: Default bound on the number of input facts one judgement may carry; a
#: transcript that would exceed it (a thousand players, a huge board) is refused
#: before grounding.
DEFAULT_MAX_FACTS = 50_000


_TO_SYMBOL: dict = {}
_FROM_SYMBOL: dict = {}


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
INDEXED_FORMAT = 2  # bump when indexed_program changes, so old cached files are not used


def _atoms(node) -> list:
    """Every function symbol used as an atom inside ``node`` (a pool gives several)."""
    found: list = []

    class Collect(ast.Transformer):
        def visit_SymbolicAtom(self, atom):
            symbol = atom.symbol
            options = symbol.arguments if symbol.ast_type == ast.ASTType.Pool else [symbol]
            found.extend(o for o in options if o.ast_type == ast.ASTType.Function)
            return atom

    Collect()(node)
    return found


def _signature(function) -> tuple[str, int]:
    return function.name, len(function.arguments)


def indexed_program(program: str) -> str:
    """``program`` rewritten into the indexed form: static rules as they are; in
    every rule touching the state, the index K as the last argument of every
    state-dependent predicate and ``judgement(K)`` in the body."""
    statements: list = []
    ast.parse_string(program, statements.append)
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

    static, timed = [], []
    for statement, (heads, body) in zip(statements, uses):
        if statement.ast_type == ast.ASTType.Rule and (heads | body) & dynamic:
            loc = statement.location
            index = ast.Literal(loc, ast.Sign.NoSign, ast.SymbolicAtom(
                ast.Function(loc, "judgement", [ast.Variable(loc, INDEX)], 0)))
            statement = AddTime()(statement)
            timed.append(str(statement.update(body=[index] + list(statement.body))))
        elif statement.ast_type == ast.ASTType.ShowSignature and (statement.name, statement.arity) in dynamic:
            static.append(str(statement.update(arity=statement.arity + 1)))
        elif statement.ast_type in (ast.ASTType.Rule, ast.ASTType.ShowSignature):
            static.append(str(statement))
    return "\n".join(static + timed)


def cache_dir() -> Path:
    """Where the referee keeps derived files it can always rebuild."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "referee"


def cached_indexed(program: str) -> str:
    """``indexed_program(program)``, kept in the cache folder under the hash of the
    program (rewriting takes a fifth of a second; reading it back, nothing). A
    cache that cannot be read or written is simply not used."""
    digest = hashlib.sha256(program.encode("utf-8")).hexdigest()
    path = cache_dir() / f"indexed-{INDEXED_FORMAT}-{clingo.__version__}-{digest[:32]}.lp"
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        pass
    text = indexed_program(program)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_suffix(f".{os.getpid()}.tmp")
        temp.write_text(text, encoding="utf-8")
        os.replace(temp, path)
    except OSError:
        pass
    return text


@dataclass(frozen=True)
class Violation:
    """One broken rule: ``violation(rule, role, move, args)``."""

    rule: str
    role: Term
    move: Fn
    args: tuple[Term, ...] = ()


@dataclass(frozen=True)
class Judgement:
    """What the solver says about one move in one state."""

    violations: tuple[Violation, ...]
    next_state: frozenset[Fn]
    legal: tuple[tuple[Term, Fn], ...] = ()
    goals: tuple[tuple[Term, int], ...] = ()

    @property
    def is_legal(self) -> bool:
        return not self.violations


@dataclass
class Engine:
    """Runs a game's rule programs: ``init``, ``judge``, ``legal_moves`` and
    ``prefetch``.

    ``program_files`` are read once; each call grounds them afresh with the
    static facts, the state and the move (12-17 ms, mostly a fixed cost per
    rule); ``prefetch`` judges many guessed moves in one call and keeps the
    judgements for ``judge`` to answer from.
    """

    program_files: tuple[Path, ...]
    time_limit: float = DEFAULT_TIME_LIMIT
    max_facts: int = DEFAULT_MAX_FACTS
    batching: bool = True
    calls: int = field(default=0, init=False)
    _program: str = field(default="", init=False, repr=False)
    _indexed: str = field(default="", init=False, repr=False)
    _cache: dict = field(default_factory=dict, init=False, repr=False)
    _legal: dict = field(default_factory=dict, init=False, repr=False)  # the legal moves of a state, once asked
    _static_symbols: tuple = field(default=(None, []), init=False, repr=False)

    def __post_init__(self) -> None:
        self._program = "\n".join(Path(p).read_text(encoding="utf-8") for p in self.program_files)

    @property
    def indexed(self) -> str:
        """The indexed program (built on first use, cached on disk: see cached_indexed)."""
        if not self._indexed:
            self._indexed = cached_indexed(self._program)
        return self._indexed

    # -- public API -------------------------------------------------------------
    def init(self, static: Iterable[Fn]) -> frozenset[Fn]:
        """The initial state: every ``init(F)`` the programs derive."""
        model = self._solve(static, (), None, want_legal=False)
        return frozenset(s.args[0] for s in model if isinstance(s, Fn) and s.name == "init")

    def judge(self, static: Iterable[Fn], state: Iterable[Fn], role: Term, move: Fn,
              want_legal: bool = False) -> Judgement:
        """Judge ``does(role, move)`` in ``state``: its violations and the next state."""
        key = (state if isinstance(state, frozenset) else frozenset(state), role, move)
        if not want_legal and key in self._cache:
            return self._cache[key]
        judgement = _judgement(self._solve(static, state, (role, move), want_legal=want_legal))
        self._cache[key] = Judgement(judgement.violations, judgement.next_state, (), judgement.goals)
        return judgement

    def knows(self, state: frozenset, role: Term, move: Fn) -> bool:
        """Whether the judgement of this move in this state is already known."""
        return (state, role, move) in self._cache

    def prefetch(self, static: Iterable[Fn], items: list[tuple[frozenset, Term, Fn]]) -> None:
        """Judge many (state, role, move) triples in one solver call and keep the
        judgements, so that ``judge`` answers them without solving again.

        The triples are a guess of what comes next (the referee's speculation):
        a judgement is only ever used for exactly the state and move it was
        computed for."""
        items = [i for i in items if (i[0], i[1], i[2]) not in self._cache]
        if not self.batching or len(items) < 2:
            return
        facts = self._static(static)
        for k, (state, role, move) in enumerate(items):
            if len(facts) + len(state) >= self.max_facts // 2:  # a guess never hits the bound
                items = items[:k]
                break
            index = clingo.Number(k)
            facts.extend(clingo.Function("true", [to_symbol(f), index]) for f in state)
            facts.append(clingo.Function("does", [to_symbol(role), to_symbol(move), index]))
        facts.extend(clingo.Function("judgement", [clingo.Number(k)]) for k in range(len(items)))
        model = self._run(self.indexed, facts)
        found: list[dict] = [{"violations": [], "next": [], "goals": []} for _ in items]
        for atom in model:
            if not isinstance(atom, Fn) or not atom.args or not isinstance(atom.args[-1], int):
                continue
            k = atom.args[-1]
            if not 0 <= k < len(items):
                continue
            if atom.name == "violation":
                rule, role, move, args, _ = atom.args
                if (role, move) == items[k][1:]:
                    found[k]["violations"].append(Violation(rule.name, role, move, args.args))
            elif atom.name == "next":
                found[k]["next"].append(atom.args[0])
            elif atom.name == "goal":
                found[k]["goals"].append((atom.args[0], atom.args[1]))
        for (state, role, move), result in zip(items, found):
            self._cache[(state, role, move)] = Judgement(
                tuple(sorted(result["violations"], key=lambda v: (v.rule, str(v.args)))),
                frozenset(result["next"]), (), tuple(sorted(result["goals"], key=str)))

    #: States per call of ``prefetch_legal``: a listing grounds every candidate, so a
    #: call stays well inside the time bound.
    LEGAL_BATCH = 16

    def prefetch_legal(self, static: Iterable[Fn], states: Iterable[frozenset]) -> None:
        """Find the legal moves of many states in few solver calls (the indexed
        program, ``want(legal)`` per index) and keep them, so that ``legal_moves``
        answers them without solving again: about a tenth of the cost of asking
        state by state, since each call's fixed cost (grounding every rule) is paid
        once. A batch that hits a bound is halved; a state left unlisted is listed
        when asked."""
        todo = list(dict.fromkeys(s if isinstance(s, frozenset) else frozenset(s) for s in states))
        todo = [s for s in todo if s not in self._legal]
        if not self.batching or len(todo) < 2:
            return
        base = self._static(static)
        while todo:
            chunk, size = [], len(base)
            for state in todo[:self.LEGAL_BATCH]:
                if chunk and size + len(state) >= self.max_facts // 2:
                    break
                chunk.append(state)
                size += len(state)
            todo = todo[len(chunk):]
            self._list_legal(base, chunk)

    def _list_legal(self, base: list, chunk: list[frozenset]) -> None:
        facts = list(base)
        for k, state in enumerate(chunk):
            index = clingo.Number(k)
            facts.extend(clingo.Function("true", [to_symbol(f), index]) for f in state)
            facts.append(clingo.Function("want", [clingo.Function("legal"), index]))
            facts.append(clingo.Function("judgement", [index]))
        try:
            model = self._run(self.indexed, facts)
        except SolverLimitError:
            if len(chunk) > 1:
                half = len(chunk) // 2
                self._list_legal(base, chunk[:half])
                self._list_legal(base, chunk[half:])
            return
        found: list[list] = [[] for _ in chunk]
        for atom in model:
            if isinstance(atom, Fn) and atom.name == "legal" and len(atom.args) == 3:
                found[atom.args[2]].append((atom.args[0], atom.args[1]))
        for state, legal in zip(chunk, found):
            self._legal[state] = tuple(sorted(legal, key=str))

    def legal_moves(self, static: Iterable[Fn], state: Iterable[Fn]) -> tuple[tuple[Term, Fn], ...]:
        """Every legal move in ``state`` as (role, move) pairs (kept: a page or a
        service asks about the same position again)."""
        key = state if isinstance(state, frozenset) else frozenset(state)
        if key not in self._legal:
            self._legal[key] = _judgement(self._solve(static, key, None, want_legal=True)).legal
        return self._legal[key]

    # -- the one place that talks to clingo ----------------------------------------
    def _static(self, static: Iterable[Fn]) -> list[clingo.Symbol]:
        """The static facts as symbols (converted once for the same static data)."""
        known, symbols = self._static_symbols
        if known is not static:
            symbols = [to_symbol(f) for f in static]
            self._static_symbols = (static, symbols)
        return list(symbols)

    def _solve(self, static: Iterable[Fn], state: Iterable[Fn], does: tuple[Term, Fn] | None,
               want_legal: bool) -> list[Term]:
        facts = self._static(static)
        facts.extend(clingo.Function("true", [to_symbol(f)]) for f in state)
        if does is not None:
            facts.append(clingo.Function("does", [to_symbol(does[0]), to_symbol(does[1])]))
        if want_legal:
            facts.append(clingo.Function("want", [clingo.Function("legal")]))
        symbols = self._run(self._program, facts)
        if does is not None:  # only the judged move's violations (candidates have theirs too)
            symbols = [s for s in symbols if not (isinstance(s, Fn) and s.name == "violation"
                                                  and (s.args[1], s.args[2]) != does)]
        return symbols

    def _run(self, program: str, facts: list[clingo.Symbol]) -> list[Term]:
        if len(facts) > self.max_facts:
            raise SolverLimitError(
                f"the position has {len(facts)} facts, more than the bound of {self.max_facts}; "
                "the transcript is too large to judge")
        self.calls += 1
        ctl = clingo.Control(["--warn=none"])
        with ast.ProgramBuilder(ctl) as builder:  # parsed once per program: parsing costs more than adding
            for statement in _parsed(program):
                builder.add(statement)
        with ctl.backend() as backend:
            for symbol in facts:
                backend.add_rule([backend.add_atom(symbol)])
        deadline = time.monotonic() + self.time_limit
        finished, error = _ground_within(ctl, self.time_limit)
        if not finished:
            ctl.interrupt()
            raise SolverLimitError(f"grounding took longer than the bound of {self.time_limit:g} s")
        if error is not None:
            raise SolverLimitError(f"the rule programs could not be grounded: {error}")
        symbols: list[Term] = []
        with ctl.solve(on_model=lambda m: symbols.extend(from_symbol(s) for s in m.symbols(shown=True)),
                       async_=True) as handle:
            if not handle.wait(max(0.0, deadline - time.monotonic())):
                handle.cancel()
                raise SolverLimitError(f"the solver took longer than the bound of {self.time_limit:g} s")
            result = handle.get()
        if not result.satisfiable:
            raise SolverLimitError("the rule programs have no answer for this position (a bug in the rules)")
        return symbols


def _ground_within(ctl: clingo.Control, seconds: float) -> tuple[bool, BaseException | None]:
    """Ground in a worker thread, waiting at most ``seconds`` (clingo cannot
    interrupt a grounding in progress): whether it finished, and its error."""
    ground_error: list[BaseException] = []

    def ground() -> None:
        try:
            ctl.ground([("base", [])])
        except BaseException as exc:  # returned to the caller's thread
            ground_error.append(exc)

    worker = threading.Thread(target=ground, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        return False, None
    return True, (ground_error[0] if ground_error else None)


def grounding_messages(program_files: Iterable[Path], facts: Iterable[Term],
                       inputs: Iterable[tuple[str, int]] = ()) -> list[str]:
    """Ground the rule programs over ``facts`` with clingo's warnings on: every
    message clingo gives (an atom that occurs in no rule head, an undefined
    operation, an unsafe variable, a syntax error...), as ``code: text``.

    For tests only (tests/test_rules_ground.py), over the shipped games' data:
    the facts are given as program text (clingo's checks do not see atoms added
    through the Backend, which the referee uses for everything a user wrote), and
    ``inputs`` (name, arity) are declared ``#defined`` for when no fact gives
    them. What remains of "atom does not occur in any rule head" names a
    predicate nothing defines (a misspelling)."""
    messages: list[str] = []
    ctl = clingo.Control(["--warn=all"], logger=lambda code, text: messages.append(f"{code.name}: {text.strip()}"),
                         message_limit=10_000)
    try:
        for path in program_files:  # loaded by name, so that a message names its file and line
            ctl.load(str(path))
        ctl.add("base", [], "\n".join([f"#defined {name}/{arity}." for name, arity in sorted(set(inputs))]
                                      + [f"{to_symbol(term)}." for term in facts]))
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

    Grounding is bounded by ``ground_seconds`` (a RefereeError ``failure`` when
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
        raise RefereeError(failure + (f": {error}" if error is not None else ""))
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


@functools.lru_cache(maxsize=8)
def _parsed(program: str) -> tuple:
    """The statements of a rule program, parsed once."""
    statements: list = []
    ast.parse_string(program, statements.append)
    return tuple(statements)


def _judgement(model: list[Term]) -> Judgement:
    violations, next_state, legal, goals = [], [], [], []
    for atom in model:
        if not isinstance(atom, Fn):
            continue
        if atom.name == "violation":
            rule, role, move, args = atom.args
            assert isinstance(rule, Fn) and isinstance(move, Fn) and isinstance(args, Fn)
            violations.append(Violation(rule.name, role, move, args.args))
        elif atom.name == "next":
            next_state.append(atom.args[0])
        elif atom.name == "legal":
            legal.append((atom.args[0], atom.args[1]))
        elif atom.name == "goal":
            goals.append((atom.args[0], atom.args[1]))
    return Judgement(tuple(sorted(violations, key=lambda v: (v.rule, str(v.args)))),
                     frozenset(next_state), tuple(sorted(legal, key=str)), tuple(sorted(goals, key=str)))
