"""What the relevance analysis keeps for a call's input (``Engine._kept``: the
statements of the judged part a call needs), kept in the cache folder, so that
a new process (``referee explain``) does not analyse each kind of move again
(game-5p's last move: about 34 analyses, a tenth of the run).

One file in the store of derived files (referee/store/files.py) per rules
(the judged part's text), static facts (in the analysis's abstract form), the
referee's code and the solver (their stamps), beside the outlines: its key,
then its entries (input, statement numbers), sorted, in the one codec
(referee/store/codec.py); the inputs as canonical text (never in a set's or a
hash's order: a string's hash differs between processes). A file
is read on a process's first analysis for its key, and written at
``Engine.flush`` (or at the process's exit), merged with what another process
wrote meanwhile, and replaced whole; it holds at most LIMIT inputs. A file
that is damaged, another key's, or names statements the program does not have
(or leaves out one that is always kept) is not used, and is written again.

It is used whether or not the judgement cache is switched on
(``REFEREE_CACHE=off``), as the outlines and the indexed program are: it holds
facts about the program, derived from it alone, never a judgement."""

from __future__ import annotations

import atexit
import json
import threading

from referee.store import codec
from referee.store.files import Kind, key_of

#: The kept statements in the store of derived files; bump when what Engine._kept computes
#: changes (its code is in the key besides).
KEPT = Kind("kept", 3)
#: Inputs one file holds at most; past it, the file starts again with a process's own.
LIMIT = 4096

_UNWRITTEN: list["KeptFile"] = []  # the files with analyses not yet written
_WRITING = threading.Lock()
_AT_EXIT = False  # whether write_all runs at the process's exit


def _abstract_json(term):
    """An abstract term of referee/judge/relevance.py (None, or (name, args): OTHER is
    one) as JSON: None, or [name, [args]]."""
    if term is None:
        return None
    name, args = term
    return [name, [_abstract_json(a) for a in args]]


def _canonical(value) -> str:
    """JSON text with one spelling per value (the caller sorts what was a set)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=True)


def _sorted_json(values) -> list:
    """A set of JSON values in a canonical order: by their text."""
    return sorted(values, key=_canonical)


def input_text(moves: frozenset, want: bool, shapes: frozenset) -> str:
    """The input of Engine._kept (the abstract moves, whether the legal moves are
    wanted, the state's shapes) as canonical text: the same in every process."""
    return _canonical([_sorted_json([_abstract_json(role), _abstract_json(move)] for role, move in moves),
                       bool(want), _sorted_json(_abstract_json(shape) for shape in shapes)])


def static_text(atoms) -> str:
    """Static facts in the analysis's abstract form ((name, arity), args), as canonical text."""
    return _canonical(_sorted_json([[name, arity], [_abstract_json(a) for a in args]]
                                   for (name, arity), args in set(atoms)))


class KeptFile:
    """The file of one key (``parts``: the texts that make it, hashed), for a
    judged part of ``size`` statements of which ``always`` are always kept."""

    def __init__(self, parts: tuple[str, ...], size: int, always: frozenset):
        self.size, self.always = size, always
        self.unwritten: dict[str, tuple] = {}  # found in this process, not yet in the file
        self.key = key_of(*parts)
        self.file = KEPT.file(self.key)  # (where the cache folder was when it was opened)
        self.entries = self._read()

    def get(self, text: str) -> tuple | None:
        """The statements kept for this input (its text), if the file has them."""
        return self.entries.get(text)

    def note(self, text: str, kept: tuple) -> None:
        """An analysis made in this process: written at the next flush (or exit)."""
        global _AT_EXIT
        if not self.unwritten:
            if not _AT_EXIT:
                atexit.register(write_all)  # a process that ends without a flush (explain's last calls)
                _AT_EXIT = True
            _UNWRITTEN.append(self)
        self.unwritten[text] = kept

    def _read(self) -> dict[str, tuple]:
        """The file's entries: none when it is missing, damaged (its checksum),
        another key's, or holds anything but sorted statement numbers of this
        program that include those always kept."""
        try:
            data = self.file.read()
            if data is None:
                raise ValueError("missing or damaged")
            key, *kept = codec.loads(data, 3)
            if key != self.key:
                raise ValueError("not this file")
            entries = {}
            for text, numbers in codec.Codec(()).decode_all(kept):
                if type(text) is not str or type(numbers) is not tuple \
                        or not all(type(i) is int and 0 <= i < self.size for i in numbers) \
                        or list(numbers) != sorted(set(numbers)) or not self.always.issubset(numbers):
                    raise ValueError("not statements of this program")
                entries[text] = numbers
            return entries
        except (ValueError, TypeError, IndexError, KeyError):
            return {}

    def _write(self) -> None:
        """Read the file again, merge this process's analyses (another process
        may have written meanwhile), and replace it whole; past LIMIT, only
        this process's stay."""
        new, self.unwritten = self.unwritten, {}
        if not new:
            return
        merged = {**self._read(), **new}
        if len(merged) > LIMIT:
            merged = dict(list(new.items())[:LIMIT])
        self.entries = merged
        self.file.write(codec.dumps(self.key, *codec.Codec(()).encode_all(tuple(sorted(merged.items())))))


def write_all() -> None:
    """Write every file's analyses not yet written (Engine.flush, and at exit)."""
    with _WRITING:
        while _UNWRITTEN:
            _UNWRITTEN.pop()._write()
