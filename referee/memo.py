"""What a finished read and a whole run gave, kept for the next process.

``referee check`` then ``referee explain`` of the same record: the second
process would read the record again (Lark, about 50 ms for a long game) and
follow the whole game again through the judgement cache (about 50 ms more).
Both results are kept instead, in the judgement cache's file (referee/cache.py,
table ``memo``), and read back in a few milliseconds:

- a record **read** (the :class:`Transcript`), under the text's digest, its
  name and the referee's code, and checked against the stamp of the game's
  code that read it;
- a **whole run** (:class:`referee.referee.Run`, as ``Referee.run()`` makes
  it), under the record's digest and name, the options that change a run
  (rules reading, board, fast path, strict), the key the engine keeps its
  judgements under (``Engine.rules_key``: the rule programs, the static facts
  and the solver's stamp), and the stamps of the referee's and the game's
  code.

A stamp (:func:`referee.cachefiles.code_stamp`) covers every source file of a
package by name, size and modification time: an edited rule program, grammar
or visitor never meets a memo of the old one. A memo is only ever used for
exactly the input it was made from, so what it gives is what running again
gives; nothing in it is needed (deleting it loses only time).

The values are :mod:`marshal` data of plain tuples (:class:`_Codec`): each
function term once, in a table, rebuilt with :func:`referee.terms.fn` (no
per-process hash travels); a run's states as differences from the state
before; its plays as their place in the record. Decoding builds only the
classes of ``_classes()``: a damaged or foreign value is refused
(``ValueError``), never obeyed.
"""

from __future__ import annotations

import hashlib
import marshal
import threading
from dataclasses import fields, is_dataclass

from .cachefiles import code_stamp, referee_stamp
from .terms import Fn, fn
from .transcript import CycleStart, FrozenMap, Header, Play, PlayerDecl, Span, StartLine, Transcript

#: The format of the values; a value of another format is not read.
FORMAT = 1

# Tags of the encoded values: a scalar (None, bool, int, float, str) stands for itself.
_TUPLE, _TERM, _OBJECT, _MAP, _STATE, _SAME_STATE, _PLAY = range(7)


def _classes() -> dict[str, type]:
    from .engine import Violation
    from .referee import Assumption, Step

    return {cls.__name__: cls for cls in (Span, PlayerDecl, StartLine, Header, CycleStart, Play, Transcript,
                                          Violation, Step, Assumption)}


class _Codec:
    """Encodes or decodes one value; states and plays are shared within it."""

    def __init__(self, events: tuple = ()):
        self.classes = _classes()
        self.states: list[frozenset] = []  # states met so far, by number
        self.state_numbers: dict[int, int] = {}  # id(state) -> its number
        self.events = events
        self.event_numbers = {id(e): i for i, e in enumerate(events)}
        self.terms: list = []  # the function terms, each once: a value refers to them by number
        self.term_numbers: dict[Fn, int] = {}

    def encode_all(self, value) -> tuple:
        """``value`` with the table of its function terms."""
        body = self.encode(value)
        return self.terms, body

    def decode_all(self, kept):
        table, body = kept
        for name, *args in table:
            self.terms.append(fn(name, *map(self.decode, args)))
        return self.decode(body)

    # -- encoding ------------------------------------------------------------------
    def encode(self, value):
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
        if isinstance(value, Play) and id(value) in self.event_numbers:
            return (_PLAY, self.event_numbers[id(value)])
        if is_dataclass(value) and type(value).__name__ in self.classes:
            return (_OBJECT, type(value).__name__, *(self.encode(getattr(value, f.name)) for f in fields(value)
                                                      if f.init))
        raise TypeError(f"cannot keep a {type(value).__name__}")

    def _term(self, term: Fn) -> int:
        number = self.term_numbers.get(term)
        if number is None:
            entry = (term.name, *map(self.encode, term.args))  # its arguments first: they decode first
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
        if not isinstance(value, tuple):
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
        if tag == _PLAY:
            return self.events[value[1]]
        if tag == _MAP:
            return FrozenMap({value[i]: self.decode(value[i + 1]) for i in range(1, len(value), 2)})
        raise ValueError("not a kept value")


def _dumps(*values) -> bytes:
    return marshal.dumps((FORMAT, *values))


def _loads(data: bytes, size: int) -> tuple:
    """The ``size`` values ``_dumps`` put in ``data``, or ValueError."""
    try:
        found = marshal.loads(data)
    except (EOFError, ValueError, TypeError) as error:
        raise ValueError("not a kept value") from error
    if not (isinstance(found, tuple) and len(found) == size + 1 and found[0] == FORMAT):
        raise ValueError("another format")
    return found[1:]


def encode_transcript(transcript: Transcript) -> bytes:
    """The transcript, with the stamp of its game's code (which read it)."""
    return _dumps(_game_stamp(transcript.header.game), *_Codec().encode_all(transcript))


def decode_transcript(data: bytes) -> Transcript:
    """The transcript kept in ``data``; ValueError for anything else, or when
    its game's code has changed since."""
    stamp, *kept = _loads(data, 3)
    try:
        found = _Codec().decode_all(kept)
    except (IndexError, KeyError, TypeError) as error:
        raise ValueError("not a kept transcript") from error
    if not isinstance(found, Transcript) or _game_stamp(found.header.game) != stamp:
        raise ValueError("not a kept transcript")
    return found


def encode_run(run) -> bytes:
    """A finished run's own results (not its transcript and rules, which the
    reader has): the initial state, steps, assumptions, periods, stopped, and
    where the record stops (``record_end``)."""
    codec = _Codec(run.transcript.events)
    return _dumps(*codec.encode_all((run.initial, tuple(run.steps), tuple(run.assumptions), run.periods,
                                     run.stopped, run.record_end)))


def decode_run(data: bytes, transcript: Transcript, rules):
    """The run kept in ``data`` for ``transcript`` and ``rules``; ValueError for anything else."""
    from .referee import Assumption, Run, Step

    try:
        initial, steps, assumptions, periods, stopped, record_end = _Codec(transcript.events).decode_all(
            _loads(data, 2))
    except (IndexError, KeyError, TypeError) as error:
        raise ValueError("not a kept run") from error
    if not (isinstance(initial, frozenset) and all(isinstance(s, Step) for s in steps)
            and all(isinstance(a, Assumption) for a in assumptions)
            and isinstance(periods, int) and isinstance(stopped, bool)
            and (record_end is None or isinstance(record_end, int) and 0 <= record_end <= len(steps))):
        raise ValueError("not a kept run")
    return Run(transcript, rules, initial, list(steps), stopped, list(assumptions), periods, record_end)


# -- the memos in the judgement cache's file ---------------------------------------------
def kept_transcript(digest: str, source: str) -> Transcript | None:
    """The record read before from a text of this ``digest`` under this name, or None."""
    store = _store()
    data = store.memo(_key("transcript", source, digest)) if store is not None else None
    if data is None:
        return None
    try:
        transcript = decode_transcript(data)
    except ValueError:
        return None
    if transcript.digest != digest or transcript.source != source:
        return None
    return transcript


def keep_transcript(transcript: Transcript) -> None:
    store = _store()
    if store is not None and transcript.digest:
        _keep(store, _key("transcript", transcript.source, transcript.digest), encode_transcript, transcript)


def kept_run(referee):
    """The whole run of ``referee``'s record (``Referee.run()``) made before, or None."""
    key = _run_key(referee)
    data = referee.engine.store.memo(key) if key is not None else None
    if data is None:
        return None
    try:
        return decode_run(data, referee.transcript, referee.rules)
    except ValueError:
        return None


def keep_run(referee, run) -> None:
    key = _run_key(referee)
    if key is not None:
        _keep(referee.engine.store, key, encode_run, run)


def _keep(store, key: bytes, encode, value) -> None:
    """Keep ``encode(value)`` under ``key``; a value the codec cannot hold (a
    game's own kind of event or term, say) is simply not kept."""
    try:
        data = encode(value)
    except (TypeError, AttributeError, ValueError):
        return
    store.keep_memo(key, data)


def _run_key(referee) -> bytes | None:
    """A run's key: the record, the options that change a run, the rules and
    static data the engine judges with, and the game's code; None without a
    store or for a record not read from a text."""
    transcript = referee.transcript
    if referee.engine.store is None or not transcript.digest:
        return None
    options = repr((referee.options, referee.fast_path, referee.strict))
    return _key("run", transcript.source, transcript.digest, options, referee.engine.rules_key(referee.rules.static),
                _game_stamp(referee.rules.name))


def _key(*parts: str) -> bytes:
    """A memo's key: its kind and parts, the format, and the referee's code."""
    return hashlib.sha256("\0".join((str(FORMAT), referee_stamp(), *parts)).encode("utf-8",
                                                                                               "surrogatepass")).digest()


def _game_stamp(game: str) -> str:
    """The stamp of a game's own code: its package's folder (code_stamp)."""
    from .game import game_class, package_folder

    return code_stamp(package_folder(game_class(game).package()))


_opened = threading.local()  # .path, .store: the store of the last cache file asked for, per thread


def _store():
    """The judgement cache's store (None when it is off), one per thread and file
    (a store's connection serves the thread that opened it)."""
    from .cache import JudgementStore, default_path

    path = default_path()
    if path is None:
        return None
    if getattr(_opened, "path", None) != path:
        if getattr(_opened, "store", None) is not None:
            _opened.store.close()
        _opened.path, _opened.store = path, JudgementStore(path)
    return _opened.store
