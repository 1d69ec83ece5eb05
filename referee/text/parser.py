"""Read a record's text with one game's notation: text in, the generic
:class:`referee.text.transcript.Transcript` out.

This is the only module of the project that imports lark, and it knows no
game: it is given the game's :class:`Notation` (its grammar, ``grammar.lark``
in its package, which may import the shared parts in ``text/grammar/common.lark``,
and its reader module, ``reading.py``, the contract in :mod:`referee.text.syntax`)
by :mod:`referee.game.notation`, which finds it from the record's ``game:`` line.
The notations are documented in docs/ (a page per game).

Reading happens in three steps:

1. the text is normalised (BOM, CRLF) and its first line must be ``game: X``,
   which picks the notation;
2. lark parses the lines (LALR, contextual lexer), a few hundred at a time, so
   that a record past the bound on its moves is refused at the first move past
   it, before the rest is parsed; a syntax error is worded by the game
   (:func:`_syntax_error`);
3. the parse tree, as plain values (:mod:`referee.text.syntax`), goes to the
   game's ``read``, which builds the frozen Transcript.

Every problem is a :class:`referee.base.errors.NotationError` with file, line,
column, the source line with a caret under the column and words saying what
was expected.  No lark exception leaves this module.
"""

from __future__ import annotations

import functools
import os
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from referee.base.errors import NotationError, Position, SequenceError
from referee.base.words import did_you_mean
from referee.store.files import Kind, key_of
from referee.text.transcript import Span, Transcript

if TYPE_CHECKING:  # lark and referee.syntax are imported by the first parse: a record kept in the memo needs neither
    from lark import Lark, Token
    from lark.exceptions import UnexpectedInput

    from referee.text.syntax import Node, ParseProblem

__all__ = ["Notation", "parse", "decode", "read_record_file", "check_record_size"]

#: The shared grammar files (``%import .common``).
COMMON = Path(__file__).with_name("grammar")
#: The largest record the referee reads, and the most lines: a whole game is a
#: few hundred lines and 10-30 KB, and a record past either bound is refused
#: before it is read whole (a file by its size, a text by its length), so that
#: a huge file costs neither the time nor the memory of reading it.
MAX_RECORD_BYTES = 1024 * 1024
MAX_RECORD_LINES = 10_000
#: The most moves a record may hold: a real game has a few hundred, and each move
#: costs one to two milliseconds of solving. The moves a game's reader counts in
#: a line (``moves_in``) are refused here, while reading; the referee counts them
#: all again once read (``referee.judge.visitor``).
MAX_RECORD_MOVES = 2_000
#: The lines parsed at a time (every record a person writes is one piece).
PARSED_LINES = 500


@dataclass(frozen=True)
class Notation:
    """How one game's records are read: the game's name, its grammar (a name for
    messages and the text of its ``grammar.lark``) and its reader module."""

    game: str
    grammar_name: str
    grammar: str
    reader: ModuleType

# --------------------------------------------------------------- loading --


def _grammar_file(base_path: object, grammar_path: str) -> tuple[str, str]:
    """A lark import loader: shared grammar files come from the package
    referee.grammar.

    ``%import .common`` in a game's grammar arrives here as common.lark.
    """
    try:
        return f"referee/text/grammar/{grammar_path}", (COMMON / grammar_path).read_text(encoding="utf-8")
    except OSError as e:
        raise IOError(f"no grammar file {grammar_path} in referee.text.grammar") from e


class _GrammarLoader:
    """``_grammar_file`` as lark's import loader, named the same in every process
    (lark's parser cache hashes the options, this loader among them)."""

    def __call__(self, base_path: object, grammar_path: str) -> tuple[str, str]:
        return _grammar_file(base_path, grammar_path)

    def __repr__(self) -> str:
        return "referee.grammar"


#: The built parsers in the store of derived files (lark's own ``Lark.save``).
PARSERS = Kind("lark", 1)


def _parser_key(notation: Notation) -> str:
    """What a game's built parser is derived from: lark's version, the game's
    grammar and the shared referee.grammar files (a changed grammar never
    meets an old parser)."""
    import lark

    parts = [lark.__version__, notation.game, notation.grammar]
    for resource in sorted(COMMON.iterdir(), key=lambda r: r.name):
        if resource.name.endswith(".lark"):
            parts += [resource.name, resource.read_text(encoding="utf-8")]
    return key_of(*parts)


@functools.cache
def _parser(notation: Notation) -> Lark:
    """The lark parser for a game's notation, built once per process, and kept
    in the store of derived files between processes (building it takes a tenth
    of a second)."""
    return PARSERS.fetch(_parser_key(notation), lambda: _built(notation), _saved, _loaded)


def _built(notation: Notation) -> Lark:
    from lark import Lark

    return Lark(
        notation.grammar,
        source_path=notation.grammar_name,
        import_paths=[_GrammarLoader()],
        parser="lalr",
        lexer="contextual",
        propagate_positions=True,
        maybe_placeholders=True,
        start=["start", *notation.reader.START_RULES],
    )


def _saved(parser: Lark) -> bytes:
    import io

    out = io.BytesIO()
    parser.save(out)
    return out.getvalue()


def _loaded(content: bytes) -> Lark:
    """A parser ``_saved`` wrote (the store has checked its checksum); data lark
    cannot load is refused (ValueError)."""
    import io

    from lark import Lark

    try:
        return Lark.load(io.BytesIO(content))
    except Exception as error:  # whatever lark's loader raises on data it cannot use
        raise ValueError("not a saved parser") from error


def _plain(tree, line: int | None = None) -> Node:
    """A lark tree as plain values (referee.syntax): no lark object leaves.
    With ``line``, every span is put on that line (a text parsed alone)."""
    from referee.text.syntax import Leaf, Node

    def plain(tree) -> Node:
        children = []
        for child in tree.children:
            if child is None:
                children.append(None)
            elif isinstance(child, str):  # a lark Token (a str); a subtree is not
                span = _token_span(child)
                if line is not None:
                    span = Span(line, span.column, line, span.end_column)
                children.append(Leaf(child.type, str(child), span))
            else:
                children.append(plain(child))
        meta = tree.meta
        span = (Span(meta.line, meta.column, meta.end_line, meta.end_column) if not meta.empty
                else Span(1, 1, 1, 1))
        if line is not None and not meta.empty:
            span = Span(line, span.column, line, span.end_column)
        return Node(str(tree.data), span, tuple(children))

    return plain(tree)


def _token_span(token: Token) -> Span:
    return Span(token.line, token.column, token.end_line, token.end_column)


# ---------------------------------------------------------------- source --


@dataclass
class _Source:
    """The normalised text of a transcript, with its lines for messages
    (a :class:`referee.syntax.SourceText`)."""

    name: str
    text: str
    notation: Notation | None = None
    lines: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.lines = self.text.split("\n")

    def line(self, number: int) -> str:
        if 1 <= number <= len(self.lines):
            return self.lines[number - 1]
        return ""

    def error(self, message: str, line: int, column: int) -> NotationError:
        line = max(1, line)
        column = max(1, column)
        return NotationError(
            message, Position(self.name, line, column), _caret(self.line(line), column)
        )

    def error_at(self, message: str, where) -> NotationError:
        return self.error(message, where.line, where.column)

    def end(self) -> tuple[int, int]:
        """Line and column of the end of the text (after the last character)."""
        lines = self.text.rstrip("\n").split("\n")
        return len(lines), len(lines[-1]) + 1

    def parse(self, text: str, start: str, line: int) -> Node:
        """A part of a line parsed again from one of the game's start rules."""
        from lark.exceptions import UnexpectedInput

        try:
            return _plain(_parser(self.notation).parse(text, start=start), line)
        except UnexpectedInput as e:
            raise _problem(e, _Source(self.name, text)) from None

#: Full-width digits and Latin letters (an East Asian keyboard's, as in ｔａｋｅ ３,
#: ＨＥＡＰ４) read as their ASCII forms, one character for one, so every column stays;
#: full-width punctuation and spaces are the grammars' own (common.lark).
_FULL_WIDTH = {code: code - 0xFEE0 for start, end in ((0xFF10, 0xFF19), (0xFF21, 0xFF3A), (0xFF41, 0xFF5A))
               for code in range(start, end + 1)}


def _normalise(text: str) -> str:
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\r\n", "\n").replace("\r", "\n").translate(_FULL_WIDTH)
    if not text.endswith("\n"):
        text += "\n"
    return text


_WINDOW = 100


def _caret(line_text: str, column: int) -> str:
    """The source line with a caret under ``column`` (wide characters count 2)."""
    start = 0
    shown = line_text
    if len(line_text) > _WINDOW:  # show a window around the column
        start = max(0, min(column - 1 - _WINDOW // 2, len(line_text) - _WINDOW))
        shown = line_text[start:start + _WINDOW]
        prefix = "…" if start > 0 else ""
        suffix = "…" if start + _WINDOW < len(line_text) else ""
        shown = prefix + shown + suffix
        start -= len(prefix)
    shown = "".join(c if c == "\t" or c.isprintable() else "\N{REPLACEMENT CHARACTER}" for c in shown)
    before = shown[: max(0, column - 1 - start)]
    pad = "".join(
        "\t" if c == "\t" else "  " if unicodedata.east_asian_width(c) in "WF" else " "
        for c in before
    )
    return f"{shown}\n{pad}^"



# ------------------------------------------------------------ public API --


def parse(text: str, source: str, notation_of: Callable[[str], Notation], games: tuple[str, ...]) -> Transcript:
    """Read a record from its text: its ``game:`` line names one of ``games``,
    whose notation ``notation_of`` gives. ``source`` names the file in error
    messages and in ``Transcript.source``. Raises :class:`NotationError` for
    anything that is not the notation."""
    from lark.exceptions import LarkError, UnexpectedInput

    src = _Source(source, _normalise(text))
    _check_record_lines(src)
    try:
        notation = src.notation = notation_of(_game_of(src, games))
        try:
            tree = _parse_within_bound(notation, src)
        except UnexpectedInput as e:
            raise _syntax_error(e, src) from None
        return notation.reader.read(tree, src)
    except NotationError:
        raise
    except LarkError as e:  # a last resort: lark must never escape
        raise NotationError(f"the transcript cannot be read: {e}", Position(source, 1, 1)) from None


def _parse_within_bound(notation: Notation, src: "_Source") -> Node:
    """The record's tree, its lines parsed ``PARSED_LINES`` at a time. Each piece is
    the text with the lines before it left empty, so that lark's lines and columns
    are the record's own (the grammar's lines stand alone: ``start`` is a sequence
    of lines). The moves the game's reader counts in each line (its optional
    ``moves_in``, at least the moves a line holds) are added up as the pieces
    come, and the first past ``MAX_RECORD_MOVES`` is refused where it stands."""
    from referee.text.syntax import Node

    moves_in = getattr(notation.reader, "moves_in", None)
    lines = src.lines[:-1]  # the text ends with a newline
    children, moves = [], 0
    for first in range(0, max(len(lines), 1), PARSED_LINES):
        piece = "\n" * first + "\n".join(lines[first:first + PARSED_LINES]) + "\n"
        tree = _plain(_parser(notation).parse(piece, start="start"))
        for line in tree.children:
            if moves_in is not None and isinstance(line, Node):
                moves += moves_in(line)
                if moves > MAX_RECORD_MOVES:
                    raise _past_move_bound(src, line)
            children.append(line)
    end = src.end()
    return Node("start", Span(1, 1, end[0], end[1]), tuple(children))


def _past_move_bound(src: "_Source", line: Node) -> SequenceError:
    where = line.span
    return SequenceError(f"the record holds more than {MAX_RECORD_MOVES:,} moves by line {where.line}; the referee "
                         f"judges at most {MAX_RECORD_MOVES:,} (a whole game has a few hundred)",
                         Position(src.name, where.line, where.column), _caret(src.line(where.line), where.column))


def read_record_file(path) -> bytes:
    """The bytes of a record's file, read only when it is within
    ``MAX_RECORD_BYTES`` (its size first, then at most one byte more than the
    bound: a file that grows while it is read is refused too). OSError as open()."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        data = f.read(MAX_RECORD_BYTES + 1) if size <= MAX_RECORD_BYTES else b""
    check_record_size(max(size, len(data)), str(path))
    return data


def check_record_size(size: int, name: str) -> None:
    """Refuse a record of ``size`` bytes past ``MAX_RECORD_BYTES``."""
    if size > MAX_RECORD_BYTES:
        raise NotationError(f"the record is {size:,} bytes; the referee reads records of at most "
                            f"{MAX_RECORD_BYTES:,} bytes (a whole game is a few tens of kilobytes)",
                            Position(name, 1, 1))


def _check_record_lines(src: "_Source") -> None:
    """Refuse a record of more than ``MAX_RECORD_LINES`` lines, at the first line past the bound."""
    if len(src.lines) > MAX_RECORD_LINES + 1:  # (the text ends with a newline: one empty line more)
        raise src.error(f"the record has more than {MAX_RECORD_LINES:,} lines; the referee reads records of at "
                        f"most {MAX_RECORD_LINES:,} lines (a whole game is a few hundred)", MAX_RECORD_LINES + 1, 1)


def decode(data: bytes, name: str) -> str:
    """The text of a record's file (UTF-8, with or without a BOM), or a
    NotationError at the first byte that is not UTF-8 (or for a record past
    ``MAX_RECORD_BYTES``)."""
    check_record_size(len(data), name)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        # Place the bad byte in the same normalised text the message shows.
        full = data.decode("utf-8-sig", errors="replace")
        good = full[: len(data[: e.start].decode("utf-8-sig", errors="replace"))]
        if good.startswith("\ufeff"):
            good = good[1:]
        good = good.replace("\r\n", "\n").replace("\r", "\n")
        line = good.count("\n") + 1
        column = len(good) - (good.rfind("\n") + 1) + 1
        src = _Source(name, _normalise(full))
        raise src.error(
            f"the file is not UTF-8 text (byte 0x{data[e.start]:02x}); save it as UTF-8",
            line,
            column,
        ) from None


# ------------------------------------------------------------ game: line --

_GAME_LINE = re.compile(r"[ \t\f\v\u3000]*game[ \t]*[:：][ \t\u3000]*([^\s#]*)", re.IGNORECASE)


def _game_of(src: _Source, games: tuple[str, ...]) -> str:
    """The game named on the first line (one of ``games``), which picks the notation."""
    from referee.text.syntax import and_list as _and
    from referee.text.syntax import quote as _quote

    supported = _and([f"'game: {g}'" for g in games], "or")
    for number, line in enumerate(src.lines, 1):
        stripped = line.strip(" \t\f\v\u3000")
        if not stripped or stripped.startswith("#"):
            continue
        m = _GAME_LINE.match(line)
        column = len(line) - len(line.lstrip(" \t\f\v\u3000")) + 1
        if not m:
            raise src.error(
                f"a transcript starts with its game: expected {supported} on the first line,"
                f" found {_quote(stripped, 30)}",
                number,
                column,
            )
        game = m.group(1).casefold()
        if game not in games:
            raise src.error(
                f"this referee reads {_and(list(games), 'and')} transcripts:"
                f" expected {supported}, found {_quote(m.group(1)) if m.group(1) else 'nothing'}",
                number,
                m.start(1) + 1,
            )
        return game
    raise src.error(f"the transcript is empty: expected {supported} on the first line", 1, 1)



# --------------------------------------------------------- syntax errors --


def _problem(e: UnexpectedInput, src: _Source) -> ParseProblem:
    """A lark syntax error as plain values: where, what was found, what was expected."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    from referee.text.syntax import ParseProblem
    from referee.text.syntax import lexeme as _lexeme
    from referee.text.syntax import quote as _quote

    if isinstance(e, UnexpectedToken):
        token = e.token
        accepts, expected = e.accepts or set(), e.expected or set()
        if token.type == "$END" or token.line is None:
            line, column = src.end()
            return ParseProblem(line, column, True, "the end of the file", frozenset(accepts), frozenset(expected))
        found = "the end of the line" if token.type == "_NL" else _quote(_lexeme(str(token)))
        return ParseProblem(token.line, token.column, False, found, frozenset(accepts), frozenset(expected))
    if isinstance(e, UnexpectedCharacters):
        found = _quote(e.char) if e.char.isprintable() else f"the character U+{ord(e.char):04X}"
        allowed = frozenset(e.allowed or ())
        return ParseProblem(e.line, e.column, False, found, allowed, allowed)
    if isinstance(e, UnexpectedEOF):
        line, column = src.end()
        return ParseProblem(line, column, True, "the end of the file", frozenset(), frozenset(e.expected))
    # pragma: no cover - lark has no other kind
    return ParseProblem(getattr(e, "line", 1), getattr(e, "column", 1), False, "this", frozenset(), frozenset())


def _syntax_error(e: UnexpectedInput, src: _Source) -> NotationError:
    """A syntax error of the whole text, in the game's words."""
    problem = _problem(e, src)
    terms = set(problem.accepts or problem.expected)
    reading = src.notation.reader
    words = reading.expected(terms - {"WS", "COMMENT"})
    hint = reading.hint(src.line(problem.line), terms)
    meant = (_nearest_form(src.notation, src.line(problem.line))
             or _keyword_hint(src.notation, src.line(problem.line), problem.column, problem.found, terms))
    return src.error(f"expected {words}, found {problem.found}{meant}{hint}", problem.line, problem.column)


def _nearest_form(notation: Notation, line_text: str) -> str:
    """' (did you mean ...?)' with the first of the reader's rephrasings of the
    line that the grammar reads ('Ann: take away 2 from heap 1' → 'Ann: take 2
    from 1'), or ''. Only its syntax is checked: the names in it are the
    reader's to judge, as in any line."""
    from lark.exceptions import LarkError

    for candidate in notation.reader.rephrasings(line_text)[:8]:
        if candidate.strip() == line_text.strip() or len(candidate) > 2 * len(line_text) + 20:
            continue
        try:
            _parser(notation).parse(candidate.strip() + "\n", start="start")
        except LarkError:
            continue
        return f" (did you mean '{candidate.strip()}'?)"
    return ""


_WORD_RE = re.compile(r"[^\W\d_][\w'’-]*")


@functools.cache
def _keywords(notation: Notation) -> dict[str, tuple[str, ...]]:
    """The words of each keyword terminal of a game's grammar ('FAVOUR': favour,
    favor, 特权), read from the parser's terminals."""
    words: dict[str, tuple[str, ...]] = {}
    for terminal in _parser(notation).terminals:
        pattern = terminal.pattern
        if pattern.type == "str":
            found = [pattern.value]
        else:  # '(?:(?i:favour)|(?i:favor)|特权)': the literal alternatives
            body = re.fullmatch(r"\(\?:(.*)\)", pattern.value)
            parts = body.group(1).split("|") if body else []
            found = [re.sub(r"^\(\?i:(.*)\)$", r"\1", part) for part in parts]
        found = [w for w in found if _WORD_RE.fullmatch(w)]
        if found:
            words[terminal.name] = tuple(found)
    return words


@functools.cache
def _line_starts(notation: Notation) -> frozenset[str]:
    """The terminals a line may begin with (a header's keyword, a period's heading 'round'...):
    what the parser accepts at the start of the text."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

    try:
        _parser(notation).parse("\x00", start="start")
    except UnexpectedCharacters as e:
        return frozenset(e.allowed or ())
    except UnexpectedToken as e:  # the character read as a free-text token
        return frozenset(e.accepts or e.expected or ())
    except UnexpectedInput:  # pragma: no cover
        return frozenset()
    return frozenset()  # pragma: no cover


def _keyword_hint(notation: Notation, line_text: str, column: int, found: str, terms: set[str]) -> str:
    """' (did you mean 'X'?)' when a syntax error comes from a misspelt keyword of
    the grammar: the word found where a keyword goes ('favur'), a word of the
    piece before it that is no word of the game ('bye Pegasus', 'retreet to IS3'),
    or the line's first word where a line's keyword goes ('cylce 2'). A reading
    module may name the game's other words (``known(word)``: pieces, units...)."""
    keywords = _keywords(notation)
    found_word = found.strip("'")
    if _WORD_RE.fullmatch(found_word):
        hint = did_you_mean(found_word, [w for t in terms for w in keywords.get(t, ())], quote=True)
        if hint:
            return hint
    every = {w.casefold() for ws in keywords.values() for w in ws}
    other = getattr(notation.reader, "known", lambda word: False)

    def known(word: str) -> bool:
        return word.casefold() in every or other(word)

    heads = _line_starts(notation)
    moves = [w for t, ws in keywords.items() if t not in heads for w in ws]
    piece = re.split(r"[:：;；]", line_text[:column - 1])
    if len(piece) > 1:  # within a line's moves
        for word in reversed(_WORD_RE.findall(piece[-1])):
            hint = "" if known(word) else did_you_mean(word, moves, quote=True)
            if hint:
                return hint
    first = _WORD_RE.match(line_text.lstrip(" \t\f\v\u3000"))
    if first and not known(first.group(0)):
        return did_you_mean(first.group(0), [w for t in heads for w in keywords.get(t, ())], cutoff=0.7, quote=True)
    return ""
