"""Reading records of the games the referee knows: the record's ``game:`` line
picks the game (the registry), whose grammar and reader read it
(:mod:`referee.text.parser`); a text read before, by any process, comes back
from the memo (referee/store/memos.py) without Lark.

A record read is kept under the text's SHA-256 (``Transcript.digest``), its
name and the referee's code, and checked against the stamp of the game's code
that read it, in the one codec (referee/store/codec.py).
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import replace
from os import PathLike

from referee.base.errors import FileError
from referee.game.registry import game_class, game_grammar, game_reader, game_stamp, known_games
from referee.store import codec, memos
from referee.text import parser
from referee.text.transcript import Header, PeriodStart, PlacementLine, Play, PlayerDecl, Span, Transcript

__all__ = ["parse_transcript", "read_transcript", "transcript_from_bytes"]

#: The classes a kept record is made of (the codec builds no other).
CLASSES = (Span, PlayerDecl, PlacementLine, Header, PeriodStart, Play, Transcript)


@functools.cache
def notation(game: str) -> parser.Notation:
    """How the records of ``game`` are read: its grammar and its reader."""
    cls = game_class(game)
    return parser.Notation(game, *game_grammar(cls), game_reader(cls))


def parse_transcript(text: str, source: str = "<string>") -> Transcript:
    """Read a transcript from its text.

    ``source`` names the file in error messages and in ``Transcript.source``.
    Raises :class:`NotationError` for anything that is not the notation. A text
    read before (by any process) comes back from the memo.
    """
    if len(text) > parser.MAX_RECORD_BYTES // 4:  # a huge text is refused before it is hashed
        parser.check_record_size(len(text.encode("utf-8", "surrogatepass")), source)
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    transcript = kept_transcript(digest, source)
    if transcript is None:
        transcript = replace(parser.parse(text, source, notation, known_games()), digest=digest)
        keep_transcript(transcript)
    return transcript


def read_transcript(path: str | PathLike) -> Transcript:
    """Read a transcript file (UTF-8, with or without a BOM, LF or CRLF)."""
    name = str(path)
    try:
        data = parser.read_record_file(path)
    except OSError as e:
        raise FileError(f"cannot read the transcript {name}: {e.strerror or e}") from None
    return transcript_from_bytes(data, name)


def transcript_from_bytes(data: bytes, name: str) -> Transcript:
    """Read a transcript from the bytes of its file (as ``read_transcript`` does
    once it has read them; ``referee check`` on an archive sends records as bytes)."""
    return parse_transcript(parser.decode(data, name), name)


# -- records kept ------------------------------------------------------------------------
def encode_transcript(transcript: Transcript) -> bytes:
    """The transcript, with the stamp of its game's code (which read it)."""
    return codec.dumps(game_stamp(transcript.header.game), *codec.Codec(CLASSES).encode_all(transcript))


def decode_transcript(data: bytes) -> Transcript:
    """The transcript kept in ``data``; ValueError for anything else, or when
    its game's code has changed since."""
    stamp, *kept = codec.loads(data, 3)
    try:
        found = codec.Codec(CLASSES).decode_all(kept)
    except (IndexError, KeyError, TypeError) as error:
        raise ValueError("not a kept transcript") from error
    if not isinstance(found, Transcript) or game_stamp(found.header.game) != stamp:
        raise ValueError("not a kept transcript")
    return found


def kept_transcript(digest: str, source: str) -> Transcript | None:
    """The record read before from a text of this ``digest`` under this name, or None."""
    store = memos.memo_store()
    data = store.memo(memos.memo_key("transcript", source, digest)) if store is not None else None
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
    store = memos.memo_store()
    if store is not None and transcript.digest:
        memos.keep(store, memos.memo_key("transcript", transcript.source, transcript.digest), encode_transcript,
                   transcript)
