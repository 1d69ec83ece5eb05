"""A whole run (:class:`referee.judge.values.Run`, as ``Referee.run()`` makes it)
kept for the next process: ``referee check`` then ``referee explain`` of the
same record would otherwise follow the whole game again through the judgement
cache (about 50 ms for a long game).

A run is kept under the record's digest and name, the options that change a
run (rules reading, data file, fast path, strict), the key the engine keeps its
judgements under (``Engine.rules_key``: the rule programs, the static facts and
the solver's stamp), and the stamps of the referee's and the game's code
(referee/store/memos.py); its own results only (not its transcript and rules,
which the reader has), in the one codec (referee/store/codec.py): the plays
as their place in the record, the states as differences.
"""

from __future__ import annotations

from referee.game.registry import game_stamp
from referee.judge.values import Assumption, Breach, Run, Step
from referee.store import codec, memos
from referee.text.transcript import Transcript

#: The classes a kept run is made of (the codec builds no other).
CLASSES = (Step, Assumption, Breach)


def encode_run(run: Run) -> bytes:
    """A finished run's own results: the initial state, steps, assumptions,
    periods, stopped, and where the record stops (``record_end``)."""
    kept = codec.Codec(CLASSES, run.transcript.events)
    return codec.dumps(*kept.encode_all((run.initial, tuple(run.steps), tuple(run.assumptions), run.periods,
                                         run.stopped, run.record_end)))


def decode_run(data: bytes, transcript: Transcript, rules) -> Run:
    """The run kept in ``data`` for ``transcript`` and ``rules``; ValueError for anything else."""
    try:
        initial, steps, assumptions, periods, stopped, record_end = codec.Codec(
            CLASSES, transcript.events).decode_all(codec.loads(data, 2))
    except (IndexError, KeyError, TypeError) as error:
        raise ValueError("not a kept run") from error
    if not (isinstance(initial, frozenset) and all(isinstance(s, Step) for s in steps)
            and all(isinstance(a, Assumption) for a in assumptions)
            and isinstance(periods, int) and isinstance(stopped, bool)
            and (record_end is None or isinstance(record_end, int) and 0 <= record_end <= len(steps))):
        raise ValueError("not a kept run")
    return Run(transcript, rules, initial, list(steps), stopped, list(assumptions), periods, record_end)


def kept_run(referee) -> Run | None:
    """The whole run of ``referee``'s record (``Referee.run()``) made before, or None."""
    key = _run_key(referee)
    data = referee.engine.store.memo(key) if key is not None else None
    if data is None:
        return None
    try:
        return decode_run(data, referee.transcript, referee.rules)
    except ValueError:
        return None


def keep_run(referee, run: Run) -> None:
    key = _run_key(referee)
    if key is not None:
        memos.keep(referee.engine.store, key, encode_run, run)


def _run_key(referee) -> bytes | None:
    """A run's key: the record, the options that change a run, the rules and
    static data the engine judges with, and the game's code; None without a
    store or for a record not read from a text."""
    transcript = referee.transcript
    if referee.engine.store is None or not transcript.digest:
        return None
    options = repr((referee.options, referee.fast_path, referee.strict))
    return memos.memo_key("run", transcript.source, transcript.digest, options,
                          referee.engine.rules_key(referee.rules.static), game_stamp(referee.rules.name))
