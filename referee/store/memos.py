"""Kept values: what a finished read and a whole run gave, kept for the next
process in the judgement cache's file (table ``memo``, referee/store/judgements.py),
each under a key made of its kind and parts, the codec's format and the stamp
of the referee's code (an edited module never meets a memo of the old one).

A memo is only ever used for exactly the input it was made from, so what it
gives is what running again gives; nothing in it is needed (deleting it loses
only time). What is kept, and under which parts, is its user's: the records
read (referee/game/notation.py) and the whole runs (referee/judge/kept_runs.py).
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable

from referee.store import codec
from referee.store.files import referee_stamp
from referee.store.judgements import JudgementStore, default_path


def memo_key(*parts: str) -> bytes:
    """A memo's key: its kind and parts, the codec's format, and the referee's code."""
    return hashlib.sha256("\0".join((str(codec.FORMAT), referee_stamp(), *parts)).encode(
        "utf-8", "surrogatepass")).digest()


def keep(store: JudgementStore, key: bytes, encode: Callable[[object], bytes], value: object) -> None:
    """Keep ``encode(value)`` under ``key``; a value the codec cannot hold (a
    game's own kind of event or term, say) is simply not kept."""
    try:
        data = encode(value)
    except (TypeError, AttributeError, ValueError):
        return
    store.keep_memo(key, data)


_opened = threading.local()  # .path, .store: the store of the last cache file asked for, per thread


def memo_store() -> JudgementStore | None:
    """The judgement cache's store (None when it is off), one per thread and file
    (a store's connection serves the thread that opened it)."""
    path = default_path()
    if path is None:
        return None
    if getattr(_opened, "path", None) != path:
        if getattr(_opened, "store", None) is not None:
            _opened.store.close()
        _opened.path, _opened.store = path, JudgementStore(path)
    return _opened.store
