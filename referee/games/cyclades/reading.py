"""Reading a Cyclades transcript: the parse tree (plain values, referee.syntax)
to a :class:`referee.transcript.Transcript`.

:mod:`referee.notation` parses the text with ``referee/games/cyclades/grammar.lark``
and hands this module the tree as :class:`referee.syntax.Node` and
:class:`referee.syntax.Leaf` values (this module never sees a lark object).
Reading happens in two steps:

1. :class:`_Reader` turns each line into a record, looking names up in
   names.toml; the use of a creature written after ``buy X:`` is parsed again
   from the card's own start rule (``harpy_use`` ...) through ``source.parse``;
2. :func:`_assemble` checks the order of the lines (header, then ``cycle 1``,
   ``cycle 2``...), resolves player names and builds the frozen Transcript.

The notation is documented in docs/notation.md.  Every problem is a
:class:`referee.errors.NotationError` at the line and column of the word.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from referee.base.errors import NotationError
from referee.base.terms import Fn, fn
from referee.base.words import did_you_mean, nearest
from referee.text.syntax import Leaf, Node, ParseProblem, SourceText
from referee.text.syntax import and_list as _and
from referee.text.syntax import lexeme as _lexeme
from referee.text.syntax import quote as _quote
from referee.text.toml_source import parse_toml
from referee.text.transcript import (
    CHANCE,
    FrozenMap,
    Header,
    PeriodStart,
    PlacementLine,
    Play,
    PlayerDecl,
    Span,
    Transcript,
)

__all__ = ["read", "expected", "hint", "START_RULES", "MAX_COUNT"]

MAX_COUNT = 99
"""The largest count a piece may carry (``3 troops on IS4``)."""

MAX_NAME = 64
"""The longest player name accepted."""

MAX_DIGITS = 9
MAX_ROUTE = 20
"""The most spaces one written movement lists."""
"""Numbers longer than this are refused (they are typing accidents)."""

#: The words that begin a god's action other than a unit or building (offered
#: when a piece's first word cannot be read: 'metroplis' -> metropolis).
_ACTION_WORDS = ("buy", "use", "replace", "discard", "metropolis", "demolish", "prosperity", "pass")

RESERVED = frozenset(
    {CHANCE, "cycle", "creatures", "gods", "game", "players", "order", "rules", "board", "battle", "start", "position"}
)
"""Words that cannot be a player's name: they start lines of their own."""


class Token(str):
    """A token as the reader uses it: its text (a str), its terminal's name and
    where it is (a :class:`referee.syntax.Leaf` made a string)."""

    type: str
    line: int
    column: int
    end_line: int | None
    end_column: int | None

    @classmethod
    def make(cls, kind: str, text: str, line: int, column: int,
             end_line: int | None = None, end_column: int | None = None) -> "Token":
        token = cls(text)
        token.type, token.line, token.column = kind, line, column
        token.end_line, token.end_column = end_line, end_column
        return token

    @classmethod
    def of(cls, leaf: Leaf) -> "Token":
        s = leaf.span
        return cls.make(leaf.kind, leaf.text, s.line, s.column, s.end_line, s.end_column)


# ------------------------------------------------------------------ names --

_USE_RULE = re.compile(r"^([a-z]+)_use\s*:", re.MULTILINE)


def _use_rules_of_grammar() -> tuple[str, ...]:
    """The cards whose use has a rule of its own in the grammar
    ('harpy_use: ...' in grammar.lark): each is a start rule of the parser."""
    text = Path(__file__).with_name("grammar.lark").read_text(encoding="utf-8")
    return tuple(sorted(_USE_RULE.findall(text)))


_USE_RULES = frozenset(_use_rules_of_grammar())

START_RULES = tuple(f"{card}_use" for card in sorted(_USE_RULES))
"""The grammar's start rules besides ``start``: each card's use, parsed again
from the text after ``buy X:`` (:meth:`_Reader._use`)."""

@dataclass(frozen=True)
class _Names:
    """The name tables of one game: written form (casefolded) -> id."""

    tables: dict[str, dict[str, str]]  # kind -> {written: id}
    display: dict[str, dict[str, str]]  # kind -> {id: English name}

    def find(self, kind: str, written: str) -> str | None:
        return self.tables[kind].get(_fold(written))

    def shown(self, kind: str) -> str:
        return ", ".join(self.display[kind].values())

    def suggest(self, kinds: Iterable[str], written: str, words: Iterable[str] = ()) -> str:
        """' (did you mean X or Y?)' with the English names (and ``words``, the
        notation's own) nearest a misspelt one; '' when none is near."""
        candidates: dict[str, str] = {}
        for kind in kinds:
            for text, ident in self.tables[kind].items():
                candidates.setdefault(text, self.display[kind][ident])
        for word in words:
            candidates.setdefault(_fold(word), word)
        shown: list[str] = []
        for close in nearest(written, candidates):
            if candidates[close] not in shown:
                shown.append(candidates[close])
        return did_you_mean(written, shown, cutoff=0) if shown else ""




@functools.cache
def _names() -> _Names:
    path = Path(__file__).with_name("names.toml")
    data = parse_toml(path.read_text(encoding="utf-8"))
    tables: dict[str, dict[str, str]] = {}
    display: dict[str, dict[str, str]] = {}
    for kind, entries in data.items():
        table: dict[str, str] = {}
        shown: dict[str, str] = {}
        for ident, entry in entries.items():
            written = list(entry.get("english", [])) + [a["name"] for a in entry.get("aliases", [])]
            shown[ident] = entry.get("english", [ident])[0]
            for text in written:
                key = _fold(text)
                if table.get(key, ident) != ident:  # pragma: no cover - data error
                    raise AssertionError(f"names.toml: {text!r} names both {table[key]} and {ident}")
                table[key] = ident
        tables[kind] = table
        display[kind] = shown
    # units and buildings stand in the same place ('2 temples', '2 troops')
    if "units" in tables and "buildings" in tables:
        both = set(tables["units"]) & set(tables["buildings"])
        assert not both, f"names.toml: {both} are both units and buildings"
        tables["things"] = {**tables["units"], **tables["buildings"]}
        display["things"] = {**display["units"], **display["buildings"]}
    return _Names(tables, display)


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


# --------------------------------------------------------- syntax errors --

_MOVE_TERMS = {"INT", "THING", "BUY", "USE", "REPLACE", "DISCARD", "METROPOLIS", "DEMOLISH", "PROSPERITY", "PASS"}
_LINE_TERMS = {"GAME", "PLAYERS", "ORDER", "RULES", "BOARD", "CYCLE", "CREATURES", "GODS", "BATTLE", "PLAYER", "$END"}

_MOVE_WORDS = (
    "a move (priest, 2 troops on IS4, fleet on F5, temple on IS4, buy Pegasus,"
    " replace Harpy -> Kraken, discard port IS2, metropolis on IS4, demolish temple,"
    " prosperity on IS1, 2 troops IS4 -> IS7, fleet F5 -> F6 or pass)"
)
_LINE_WORDS = (
    "a new line (a header line such as 'players:', 'cycle N', 'creatures:', 'gods:',"
    " 'battle:', an offering 'Ann: 5 on Zeus' or a god's actions 'Ann/Zeus: priest')"
)

_TERM_ORDER = [
    "INT", "ON", "GOD", "CREATURE", "EMPTY", "THING", "PLACE", "COLOUR", "PLAYER", "WORD",
    "READING", "REST_OF_LINE", "NOTE", "_COLON", "_SLASH", "_COMMA", "_ARROW", "SEMI",
    "DISPUTED", "_NL", "$END",
]


def _term_words(names: _Names) -> dict[str, str]:
    return {
        "PLAYER": "a player's name",
        "GOD": f"a god ({names.shown('gods')})",
        "CREATURE": f"a creature ({names.shown('creatures')})",
        "THING": f"a unit or building ({names.shown('things').lower()})",
        "COLOUR": f"a colour ({names.shown('colours')})",
        "WORD": "a name",
        "READING": "a reading name (letters, digits and '-', e.g. en or zh-003)",
        "REST_OF_LINE": "a board name or file path",
        "INT": "a number",
        "PLACE": "an island or sea id (e.g. IS4, F5)",
        "NOTE": "the creature's use (Harpy 'troop IS4', Giant 'temple IS4', Griffon, Satyr or Dryad"
                " a player's name, Minotaur 'IS4', Kraken 'F5 -> F6')",
        "ISLAND": "an island id (such as IS4)",
        "SEA": "a sea id (such as F5)",
        "WHERE": "an island or sea id (such as IS4, F5)",
        "FROM": "'from'",
        "_COLON": "':'",
        "_COMMA": "','",
        "_SLASH": "'/'",
        "_ARROW": "'->'",
        "SEMI": "';' and another move",
        "EMPTY": "'-' (an empty slot)",
        "DISPUTED": "'??'",
        "_NL": "the end of the line",
        "$END": "the end of the file",
        "ON": "'on'",
        "SIGNED": "'+N' or '-N' (fleets picked up or left; a battle's losses)",
        "RETREAT": "'retreat'",
        "STAY": "'stay'",
        "TO": "'to'",
        "BATTLE": "'battle:'",
        "CYCLE": "'cycle N'",
        "CREATURES": "'creatures:'",
        "GODS": "'gods:'",
        "GAME": "'game:'",
        "PLAYERS": "'players:'",
        "ORDER": "'order:'",
        "RULES": "'rules:'",
        "BOARD": "'board:'",
        "POSITION": "'position:'",
    }


def _expected(terms: Iterable[str], names: _Names) -> str:
    terms = set(terms) - {"WS", "COMMENT"}
    words = _term_words(names)
    phrases: list[str] = []
    if "THING" in terms and "PASS" in terms:
        phrases.append(_MOVE_WORDS)
        terms -= _MOVE_TERMS
    if "CYCLE" in terms:
        phrases.append(_LINE_WORDS)
        terms -= _LINE_TERMS
    if {"INT", "GOD"} <= terms:
        phrases.append("an offering ('5 on Zeus'), 'Apollo', or in a battle 'retreat to IS4' or 'stay'")
        terms -= {"INT", "GOD", "RETREAT", "STAY"}
    rank = {t: i for i, t in enumerate(_TERM_ORDER)}
    for term in sorted(terms, key=lambda t: (rank.get(t, len(rank)), t)):
        phrases.append(words.get(term, f"'{term.lower()}'"))
    return _and(phrases, "or") or "something else"



def expected(terms: set[str]) -> str:
    """Words for what a syntax error expected."""
    return _expected(terms, _names())


def known(word: str) -> bool:
    """Whether a word is a name of the game (a god, creature, unit, building, colour)."""
    names = _names()
    return any(names.find(kind, word) for kind in names.tables)


#: The lines that hold one move at least (a chance line's cards, a bid, a battle round).
_ONE_MOVE_LINES = frozenset({"creatures_line", "gods_line", "bid_line", "battle_line"})


def moves_in(line: Node) -> int:
    """At least how many moves a line holds (the record's bound on moves is kept
    while it is read): a god's line a move for each piece, every other line of
    play one."""
    if line.kind == "turn_line":
        return len(line.nodes())
    return 1 if line.kind in _ONE_MOVE_LINES else 0


def hint(line_text: str, terms: set[str]) -> str:
    """A word of advice for the usual slips, added to a syntax error."""
    first = re.match(r"\s*([^\W\d_][\w'’-]*)\s*([:：/]?)", line_text)
    if not first or first.group(1).casefold() in RESERVED:
        return ""
    if first.group(2) in (":", "：") and terms <= {"DISPUTED", "_NL"}:
        return (
            " (an offering is one move, 'Ann: 5 on Zeus' or 'Ann: Apollo';"
            " a god's actions are written 'Ann/Zeus: priest; temple on IS4')"
        )
    if not first.group(2) and terms <= {"_COLON", "_SLASH"}:
        return (
            " (a line that starts with a name is a player's: 'Ann: 5 on Zeus'"
            " or 'Ann/Zeus: priest')"
        )
    return ""


#: Words of everyday English around a move that the notation leaves out: the
#: verb ('recruit a troop on IS2' is 'troop on IS2'), articles, and prepositions
#: it writes otherwise ('at IS2' is 'on IS2'; a move 'from IS5 to IS4' is 'IS5 -> IS4';
#: a creature replaced 'with' the card drawn is 'replace Harpy -> Kraken').
_GAIN_VERBS = {"recruit", "hire", "add", "place", "put", "build", "construct", "raise", "get", "gain"}
_MOVE_VERBS = {"move", "march", "sail", "send", "take"}
_OFFER_VERBS = {"offer", "bid", "pay", "give"}
_ARTICLES = {"a", "an", "the"}
_AT = {"at", "in", "onto", "into", "upon"}


def rephrasings(line_text: str) -> list[str]:
    """The line as the notation writes what it seems to say: each move with its
    verb, articles and English prepositions left out ('Ann/Ares: recruit troop
    on IS2' → 'Ann/Ares: troop on IS2'; 'Ann: offer 5 GP to Zeus' → 'Ann: 5 on
    Zeus'; 'move 2 troops from IS5 to IS4' → '2 troops IS5 -> IS4'; 'replace the
    Harpy with Kraken' → 'replace Harpy -> Kraken')."""
    head, colon, body = re.split(r"([:：])", line_text, maxsplit=1) if re.search(r"[:：]", line_text) \
        else ("", "", line_text)
    if not colon or not body.strip():
        return []
    comment = ""
    if "#" in body:
        body, comment = body.split("#", 1)
        comment = "  #" + comment
    disputed = ""
    if body.rstrip().endswith(("??", "？？")):
        body, disputed = body.rstrip()[:-2], " ??"
    pieces = [_rephrase_move(piece) for piece in re.split(r"[;；]", body)]
    return [f"{head}{colon} {'; '.join(p for p in pieces if p)}{disputed}{comment}"]


def _rephrase_move(piece: str) -> str:
    words = piece.split()
    if not words:
        return ""
    verb = words[0].casefold()
    moving, offering, replacing = verb in _MOVE_VERBS, verb in _OFFER_VERBS, verb == "replace"
    if verb in _GAIN_VERBS or moving or offering:
        words = words[1:]
    out: list[str] = []
    for word in words:
        key = word.casefold()
        if key in _ARTICLES or (moving and key == "from") or (offering and key in ("gp", "gold", "coins")):
            continue
        if (moving and key in ("to", "→")) or (replacing and key in ("with", "by")):
            out.append("->")
        elif (offering and key == "to") or (not moving and key in _AT):
            out.append("on")
        else:
            out.append(word)
    return " ".join(out)


# ------------------------------------------------- lines to records --


@dataclass(frozen=True)
class _HeaderLine:
    key: str
    value: object
    span: Span
    value_token: Token | None = None


#: How the use of each checked card is written, for messages: the words after
#: "the Harpy's use " ({card} is the card's English name).  The forms themselves
#: are the '<card>_use' rules of the grammar (grammar.lark).
_USE_FORMS = {
    "harpy": "is written 'troop IS4' after 'buy {card}:'",
    "giant": "is written 'temple IS4' after 'buy {card}:'",
    "griffon": "names one player, as in 'buy {card}: Bob'",
    "satyr": "names one player, as in 'buy {card}: Bob'",
    "dryad": "names one player, as in 'buy {card}: Bob'",
    "sphinx": "is written '2 troops IS4, fleet F5, priest' after 'buy {card}:'",
    "cyclops": "is written 'temple IS4 -> port' after 'buy {card}:'",
    "pegasus": "is written '2 troops IS4 -> IS7' after 'buy {card}:'",
    "siren": "is written 'F5' (or 'F5 from F7' when the reserve is empty) after 'buy {card}:'",
    "kraken": "is written 'F5' (or 'F5 -> F6 -> F7': placed on F5, then moved a space for 1 GP each)"
              " after 'buy {card}:'",
    "minotaur": "is the island its figure goes on, as in 'buy {card}: IS4'",
    "chiron": "is the island its figure goes on, as in 'buy {card}: IS4'",
    "medusa": "is the island its figure goes on, as in 'buy {card}: IS4'",
    "polyphemus": "is written 'IS4, fleet F5 -> F6, sink F3' (the island, then each push or each fleet destroyed)"
                  " after 'buy {card}:'",
    "sylph": "is written '2 fleets D4 -> D5 -> E6' after 'buy {card}:'",
    "chimera": "names a card of the discard pile and its use, as in 'buy {card}: Harpy: troop IS4'",
}

#: The cards with a single use, made with the purchase: nothing is written after it.
_SINGLE_USE = frozenset({"fates"})

#: Optional words left out of the "expected ..." of a use.
_OPTIONAL_IN_USE = {"ON", "FROM", "WS", "COMMENT"}


@dataclass(frozen=True)
class _Emit:
    """One move a piece produces (before count expansion)."""

    chance: bool
    move: Fn
    span: Span
    text: str
    count: int = 1
    names: tuple[Token, ...] = ()  # player names inside the move, resolved by _assemble
    disputed: bool = False  # its piece is marked '??' (a line's '??' marks every piece)


@dataclass(frozen=True)
class _MoveLine:
    """A line of moves: a player's offering or actions, or a chance line."""

    player: Token | None  # None for chance
    god: str | None
    emits: tuple[_Emit, ...]
    disputed: bool
    line_text: str
    span: Span


def _span(meta) -> Span:
    return Span(meta.line, meta.column, meta.end_line, meta.end_column)


def _token_span(first: Token, last: Token | None = None) -> Span:
    last = last or first
    return Span(first.line, first.column, last.end_line, last.end_column)


_KIND_TERM = {"gods": "GOD", "creatures": "CREATURE", "things": "THING", "colours": "COLOUR"}


class _Reader:
    """Turns the parse tree into line records; looks every name up.

    Bottom up, as a transformer: each rule's method gets the rule's span and
    its children read (tokens as :class:`Token`, ``None`` for an absent
    optional part).
    """

    def __init__(self, src: SourceText, names: _Names) -> None:
        self.src = src
        self.names = names
        self._using: tuple | None = None  # the card whose use is being read, for messages

    def transform(self, node: Node):
        children = [None if c is None else self.transform(c) if isinstance(c, Node) else Token.of(c)
                    for c in node.children]
        return getattr(self, node.kind)(node.span, children)

    # -- helpers --

    def _fail(self, message: str, where: Span | Token) -> NotationError:
        return self.src.error_at(message, where)

    def _number(self, token: Token) -> int:
        if len(token) > MAX_DIGITS:
            raise self._fail(f"the number {_quote(str(token), 20)} is too large", token)
        return int(token)

    def _lookup(
        self, kind: str, tokens: list[Token], what: str, also: tuple[tuple[str, str], ...] = ()
    ) -> str:
        """The id of a written name, or an error naming what was expected.

        ``also`` holds (other kind, advice) pairs: advice added when the word is
        a name of that other kind (a creature written where a building goes).
        """
        written = " ".join(str(t) for t in tokens)
        ident = self.names.find(kind, written)
        if ident is not None:
            return ident
        message = f"unknown {what} {_quote(written)}"
        message += self.names.suggest([kind], written, _ACTION_WORDS if kind == "things" else ())
        message += f": expected {_term_words(self.names)[_KIND_TERM[kind]]}"
        for other, advice in also:
            if self.names.find(other, written) is not None:
                message += advice.format(written=written)
        raise self._fail(message, tokens[0])

    def _god(self, token: Token, also: tuple[tuple[str, str], ...] = ()) -> str:
        return self._lookup("gods", [token], "god", also)

    def _creature(self, tokens: list[Token]) -> str:
        return self._lookup("creatures", tokens, "creature")

    def _thing(self, token: Token) -> str:
        return self._lookup(
            "things",
            [token],
            "unit or building",
            (("creatures", "; {written} is a creature: write 'buy {written}'"),
             ("gods", "; {written} is a god: write it before the ':' as in 'Ann/{written}:'")),
        )

    def _building(self, token: Token, verb: str) -> str:
        thing = self._thing(token)
        if thing not in self.names.tables["buildings"].values():
            raise self._fail(
                f"only a building can be {verb}: expected a building"
                f" ({self.names.shown('buildings').lower()}), found {_quote(str(token))}",
                token,
            )
        return thing

    def _piece(self, meta) -> tuple[Span, str]:
        """The span and text of a piece, without trailing blanks."""
        line_text = self.src.line(meta.line)
        text = line_text[meta.column - 1 : meta.end_column - 1].rstrip()
        return Span(meta.line, meta.column, meta.line, meta.column + len(text)), text

    def _words(self, tokens: list[Token]) -> tuple[Span, str]:
        """The span and text of a run of tokens on one line, as written."""
        span = _token_span(tokens[0], tokens[-1])
        return span, self.src.line(span.line)[span.column - 1 : span.end_column - 1]

    @staticmethod
    def _place(token: Token) -> str:
        return str(token).upper()

    def _line(self, meta) -> str:
        return self.src.line(meta.line)

    # -- header lines --

    def game_line(self, meta, children):
        _, value = children
        return _HeaderLine("game", str(value).casefold(), _span(meta), value)

    def players_line(self, meta, children):
        return _HeaderLine("players", tuple(children[1:]), _span(meta))

    def player_decl(self, meta, children):
        name, colour = children
        if len(name) > MAX_NAME:
            raise self._fail(f"a player's name is at most {MAX_NAME} characters long", name)
        if name.casefold() in RESERVED:
            raise self._fail(
                f"{_quote(str(name))} cannot be a player's name: it is a word of the notation",
                name,
            )
        ident = self.names.find("colours", str(colour))
        if ident is None:
            raise self._fail(
                f"unknown colour {_quote(str(colour))}{self.names.suggest(['colours'], str(colour))}: expected a colour"
                f" ({self.names.shown('colours')})",
                colour,
            )
        return PlayerDecl(str(name), ident, _span(meta))

    def order_line(self, meta, children):
        return _HeaderLine("order", tuple(children[1:]), _span(meta))

    def rules_line(self, meta, children):
        return _HeaderLine("rules", str(children[1]).casefold(), _span(meta), children[1])

    def board_line(self, meta, children):
        return _HeaderLine("board", str(children[1]).rstrip(), _span(meta), children[1])

    def position_line(self, meta, children):
        return _HeaderLine("position", str(children[1]).rstrip(), _span(meta), children[1])

    def start_line(self, meta, children):
        player, places = children[1], tuple(self._place(t) for t in children[2:])
        return _HeaderLine("start", (player, places), _span(meta), player)

    # -- a cycle --

    def cycle_line(self, meta, children):
        return PeriodStart(self._number(children[1]), _span(meta))

    def slot(self, meta, children):
        tokens = list(children)
        creature = None if tokens[0].type == "EMPTY" else self._creature(tokens)
        return (creature, *self._words(tokens))

    def creatures_line(self, meta, children):
        disputed = children[-1] is not None
        slots = children[1:-1]
        if len(slots) > 3:
            raise self._fail(
                "the creature track has 3 slots (4, 3 and 2 GP): expected at most 3 entries,"
                " found a 4th",
                slots[3][1],
            )
        emits = []
        for index, (creature, span, text) in enumerate(slots):
            if creature is not None:  # '-' is an empty slot
                emits.append(_Emit(True, fn("track", 4 - index, fn(creature)), span, text))
        return _MoveLine(None, None, tuple(emits), disputed, self._line(meta), _span(meta))

    def tiles(self, meta, children):
        tiles = []
        for token in children:
            god = self._god(token)
            if god == "apollo":
                raise self._fail(
                    "Apollo is always there and is not a god tile: leave it out of the"
                    " 'gods:' line",
                    token,
                )
            tiles.append((god, _token_span(token), str(token)))
        return tiles

    def gods_line(self, meta, children):
        _, up, down, disputed = children
        emits = []
        position = 0
        for side, tiles in (("up", up), ("down", down or [])):
            for god, span, text in tiles:
                position += 1
                emits.append(_Emit(True, fn("god", position, fn(god), fn(side)), span, text))
        return _MoveLine(None, None, tuple(emits), disputed is not None, self._line(meta), _span(meta))

    # -- offerings --

    def offer(self, meta, children):
        amount, _, god_token = children
        god = self._god(god_token)
        if god == "apollo":
            raise self._fail(
                "Apollo takes no offering: write 'Apollo' alone, as in 'Bob: Apollo'", amount
            )
        span, text = self._piece(meta)
        return _Emit(False, fn("offer", fn(god), self._number(amount)), span, text)

    def take(self, meta, children):
        (token,) = children
        god = self._god(
            token,
            (("things", " ('{written}' is an action: a god's actions are written 'Ann/Zeus: {written}')"),
             ("creatures", " ('{written}' is a creature: a god's actions are written"
                           " 'Ann/Zeus: buy {written}')")),
        )
        if god != "apollo":
            shown = self.names.display["gods"][god]
            raise self._fail(
                f"an offering on {shown} needs an amount: expected a number before {shown},"
                f" as in '5 on {shown}' (only Apollo is taken without one)",
                token,
            )
        span, text = self._piece(meta)
        return _Emit(False, fn("apollo"), span, text)

    def bid_line(self, meta, children):
        player, emit, disputed = children
        return _MoveLine(player, None, (emit,), disputed is not None, self._line(meta), _span(meta))

    # -- a god's actions --

    def turn_line(self, meta, children):
        player, god_token = children[0], children[1]
        god = self._god(god_token)
        pieces: list[list[_Emit]] = []
        marked: list[bool] = []
        for child in children[2:]:
            if isinstance(child, list):
                pieces.append(child)
                marked.append(False)
            elif isinstance(child, Token) and child.type == "DISPUTED":
                marked[-1] = True
        written = [c for c in children[2:] if c is not None]
        # a '??' that ends the line (after its last piece) marks the whole line, as it always has
        whole = bool(written) and isinstance(written[-1], Token) and written[-1].type == "DISPUTED"
        emits = [dataclasses.replace(emit, disputed=True) if mark else emit
                 for piece, mark in zip(pieces, marked) for emit in piece]
        return _MoveLine(player, god, tuple(emits), whole, self._line(meta), _span(meta))

    def _count(self, token: Token | None) -> int:
        if token is None:
            return 1
        if len(token) > MAX_DIGITS or int(token) > MAX_COUNT:
            raise self._fail(
                f"too many: {_quote(str(token), 20)} (a count is 1 to {MAX_COUNT})", token
            )
        if int(token) < 1:
            raise self._fail(f"a count is 1 to {MAX_COUNT}, found {token}", token)
        return int(token)

    def gain(self, meta, children):
        count_token, thing_token, _, place_token = children
        count = self._count(count_token)
        thing = self._thing(thing_token)
        span, text = self._piece(meta)
        shown = self.names.display["things"][thing].lower()
        if thing in ("priest", "philosopher"):
            if place_token is not None:
                raise self._fail(
                    f"a {shown} is not put on the board: expected ';' or the end of the line,"
                    f" found {_quote(str(place_token))} (write '{shown}' or '2 {shown}s')",
                    place_token,
                )
            move = fn("recruit", fn(thing))
        else:
            if place_token is None:
                example = {"troop": "IS4", "fleet": "F5"}.get(thing, "IS4")
                where = "a sea id" if thing == "fleet" else "an island id"
                raise self.src.error(
                    f"expected {where} after {_quote(str(thing_token))}, as in"
                    f" '{shown} on {example}'",
                    meta.line,
                    span.end_column,
                )
            place = self._place(place_token)
            if thing in self.names.tables["units"].values():
                move = fn("recruit", fn(thing), place)
            else:
                move = fn("build", fn(thing), place)
        return [_Emit(False, move, span, text, count=count)]

    def buy(self, meta, children):
        creature_tokens = [c for c in children[1:] if isinstance(c, Token) and c.type == "CREATURE"]
        note_token = next((c for c in children[1:] if isinstance(c, Token) and c.type == "NOTE"), None)
        if note_token is not None and not str(note_token).strip():
            note_token = None
        creature = self._creature(creature_tokens)
        span, text = self._piece(meta)
        if note_token is None:  # the use is not written: the purchase alone
            return [_Emit(False, fn("buy", fn(creature)), span, text)]
        buy_text = self.src.line(meta.line)[meta.column - 1:creature_tokens[-1].end_column - 1]
        buy_span = Span(meta.line, meta.column, meta.line, creature_tokens[-1].end_column)
        return [_Emit(False, fn("buy", fn(creature)), buy_span, buy_text), *self._use(creature, note_token)]

    def use_creature(self, meta, children):
        """'use Harpy: troop IS4': a use written apart from its purchase (judged by
        rule creature_effect_at_once: a use must follow its purchase at once)."""
        creature_tokens = [c for c in children[1:] if isinstance(c, Token) and c.type == "CREATURE"]
        note = next(c for c in children[1:] if isinstance(c, Token) and c.type == "NOTE")
        creature = self._creature(creature_tokens)
        shown = self.names.display["creatures"][creature]
        if creature not in _USE_RULES:
            usable = ", ".join(self.names.display["creatures"][c] for c in self.names.display["creatures"]
                               if c in _USE_RULES)
            raise self._fail(f"only a creature whose use is written after 'buy X:' can be used apart from it"
                             f" ({usable}), found {shown}", creature_tokens[0])
        emits = self._use(creature, note)
        if creature == "sphinx" or len(emits) > 1:  # each sale (the Chimera's card, its use) keeps its own text
            return emits
        span, text = self._piece(meta)
        return [dataclasses.replace(emit, span=span, text=text) for emit in emits]

    # -- creature uses: the '<card>_use' rules of the grammar --

    def _use(self, creature: str, note: Token) -> list[_Emit]:
        """The use written after 'buy X:', parsed from the card's own rule
        ('harpy_use' ...), at the columns of the line."""
        shown = self.names.display["creatures"][creature]
        text = str(note).rstrip()
        if creature in _SINGLE_USE:
            written = f"buy Chimera: {shown}" if self._using and self._using[0] == "chimera" else f"buy {shown}"
            raise self._fail(f"{shown} has a single use, made with the purchase: write '{written}'"
                             f" with nothing after it, found {_quote(text)}", note)
        # a '??' after a part of the use (a sale of the Sphinx's) disputes that part
        disputed_at = [note.column + mark.start() for mark in _DISPUTED_IN_USE.finditer(text)]
        unmarked = _DISPUTED_IN_USE.sub("  ", text)
        padded = " " * (note.column - 1) + unmarked  # the same columns as in the line
        try:  # the text parsed is one line: put back on the line of the note
            tree = self.src.parse(padded, f"{creature}_use", note.line)
        except ParseProblem as e:
            raise self._use_error(e, creature, shown, note, text) from None
        outer, self._using = self._using, (creature, shown, note, text)
        try:
            result = self.transform(tree)
        finally:
            self._using = outer  # a use inside a use (the Chimera's) gives it back
        emits = result if isinstance(result, list) else [result]
        return _mark_disputed_parts(emits, disputed_at)

    def _form(self, creature: str, shown: str) -> str:
        return f"the {shown}'s use " + _USE_FORMS.get(creature, "is written after 'buy {card}:'").format(card=shown)

    def _wrong_use(self, where: Span | Token | None = None) -> NotationError:
        """The use does not have its card's form: the message quotes the whole use."""
        creature, shown, note, text = self._using
        return self._fail(f"{self._form(creature, shown)}, found {_quote(text)}", where or note)

    def _use_error(self, e: ParseProblem, creature: str, shown: str, note: Token, text: str) -> NotationError:
        """A syntax error in a use, in the words of the card's form."""
        start, end = note.column, note.column + len(text)
        if e.at_end:  # the end of the text
            column, terms = end, set(e.expected or e.accepts)
        else:
            column, terms = e.column, set(e.accepts or e.expected)
        terms -= _OPTIONAL_IN_USE
        found = _lexeme(text[column - start:]) if column < end else ""
        before = text[:column - start].split()
        if creature == "sphinx" and (found in (",", "，", "、") or (not found and before and before[-1][-1] in ",，、")):
            return self.src.error("an empty item in the Sphinx's sales: expected '[N] unit [place]', as in"
                                  " '2 troops IS4, fleet F5, priest'", note.line, column)
        form = self._form(creature, shown)
        after = f" after {_quote(before[-1])}" if before and re.fullmatch(r"[\w'’]+", before[-1]) else ""
        if column < end and terms and terms <= {"ISLAND", "SEA", "WHERE"}:  # a word where a place goes
            return self.src.error(f"expected {_expected(terms, self.names)}{after}, found {_quote(found)}",
                                  note.line, column)
        if column >= end or column == start:  # the use ends too soon, or starts wrong
            return self.src.error(f"{form}, found {_quote(text)}", note.line, start)
        if terms <= {"$END"}:  # words after a complete use
            return self.src.error(f"{form}, found {_quote(text)}", note.line, column)
        words = _expected(terms, self.names).replace("the end of the file", "the end of the use")
        return self.src.error(f"expected {words}{after}, found {_quote(found)} ({form})", note.line, column)

    def harpy_use(self, meta, children):
        what, _, where = children
        if self.names.find("things", str(what)) != "troop":
            creature, shown, note, text = self._using
            raise self._fail(f"{self._form(creature, shown)}, found {_quote(str(what))}", what)
        return self._emit_use(meta, fn("troop", self._place(where)))

    def giant_use(self, meta, children):
        what, _, where = children
        place = self._place(where)
        if what.type == "METROPOLIS":
            return self._emit_use(meta, fn("metropolis", place))
        building = self.names.find("things", str(what))
        if building not in self.names.tables["buildings"].values():
            raise self._fail(f"the Giant destroys a building: expected a building"
                             f" ({self.names.shown('buildings').lower()}) before the island, found"
                             f" {_quote(str(what))}", what)
        return self._emit_use(meta, fn("building", fn(building), place))

    def _player_use(self, meta, children):
        (player,) = children
        return _Emit(False, fn("use", fn(self._using[0]), str(player)), *self._use_span(meta), names=(player,))

    griffon_use = satyr_use = dryad_use = _player_use

    def cyclops_use(self, meta, children):
        what, _, where, into = children
        building = self._building(what, "changed by the Cyclops")
        new = self._building(into, "built by the Cyclops")
        return self._emit_use(meta, fn("change", fn(building), self._place(where), fn(new)))

    def pegasus_use(self, meta, children):
        count, what, start, end = children
        if self.names.find("things", str(what)) != "troop":
            raise self._wrong_use()
        return self._emit_use(meta, fn("march", self._place(start), self._count(count), self._place(end)))

    def siren_use(self, meta, children):
        sea, _, source = children
        places = [self._place(sea)] + ([self._place(source)] if source is not None else [])
        return self._emit_use(meta, fn("fleet", *places))

    def sylph_use(self, meta, children):
        count, what, start, route = children
        if self.names.find("things", str(what)) != "fleet":
            raise self._wrong_use()
        move = fn("sail", self._place(start), self._count(count), self._sail_path(route))
        return self._emit_use(meta, move)

    def chimera_use(self, meta, children):
        """'Harpy: troop IS4': the card taken from the discard pile, then its use,
        read by that card's own rule; 'The Fates' alone."""
        tokens = [c for c in children if isinstance(c, Token) and c.type == "CREATURE"]
        note = next((c for c in children if isinstance(c, Token) and c.type == "NOTE"), None)
        for cut in range(len(tokens) - 1, 0, -1):  # 'Harpy troop IS4': the ':' left out
            found = self.names.find("creatures", " ".join(map(str, tokens[:cut])))
            if found is not None and self.names.find("creatures", " ".join(map(str, tokens))) is None:
                shown = self.names.display["creatures"][found]
                raise self.src.error(f"expected ':' after {_quote(shown)}, then its use, as in"
                                     f" 'buy Chimera: {shown}: ...'", tokens[cut - 1].line, tokens[cut - 1].end_column)
        card = self._creature(tokens)
        if card == "chimera":
            raise self._fail("the Chimera takes another card of the discard pile, not itself", tokens[0])
        pick = _Emit(False, fn("use", fn("chimera"), fn(card)), *self._words(tokens))
        if note is None or not str(note).strip():
            return [pick]
        return [pick, *self._use(card, note)]

    def sphinx_use(self, meta, children):
        return list(children)

    # the figures (rules/figures.lp): the placement, then one use per move or push
    def _figure_place(self, meta, children):
        _, where = children[:2]
        return _Emit(False, fn("use", fn(self._using[0]), fn("island", self._place(where))), *self._token_span(where))

    minotaur_use = chiron_use = medusa_use = _figure_place

    def kraken_use(self, meta, children):
        _, sea, *steps = children
        return [_Emit(False, fn("use", fn("kraken"), fn("sea", self._place(sea))), *self._token_span(sea)), *steps]

    def kraken_step(self, meta, children):
        (sea,) = children
        return _Emit(False, fn("use", fn("kraken"), fn("step", self._place(sea))), *self._piece(meta))

    def polyphemus_use(self, meta, children):
        return [self._figure_place(meta, children[:2]), *children[2:]]

    def push(self, meta, children):
        count, what, sea, to = children
        if self.names.find("things", str(what)) != "fleet":
            raise self._wrong_use(what)
        move = fn("push", self._place(sea), self._count(count), self._place(to))
        return _Emit(False, fn("use", fn("polyphemus"), move), *self._piece(meta))

    def sink(self, meta, children):
        _, sea = children
        return _Emit(False, fn("use", fn("polyphemus"), fn("sink", self._place(sea))), *self._piece(meta))

    def _token_span(self, token: Token) -> tuple[Span, str]:
        return Span(token.line, token.column, token.end_line, token.end_column), str(token)

    def sale(self, meta, children):
        """One item of the Sphinx's sales, '[N] unit [on] [place]': one use per unit."""
        count, what, _, where = children
        unit = self.names.find("things", str(what))
        if unit not in ("troop", "fleet", "priest", "philosopher"):
            raise self._fail(f"the Sphinx buys troops, fleets, priests and philosophers: expected one of them,"
                             f" found {_quote(str(what))} (as in 'buy Sphinx: 2 troops IS4, fleet F5, priest')",
                             what)
        if unit in ("troop", "fleet") and where is None:
            raise self._fail(f"expected {'an island' if unit == 'troop' else 'a sea'} id after"
                             f" {_quote(str(what))}, as in '{'troop IS4' if unit == 'troop' else 'fleet F5'}'",
                             what)
        if unit in ("priest", "philosopher") and where is not None:
            raise self._fail(f"a {unit} is a card, sold without a place: found {_quote(str(where))}", where)
        target = fn(unit, self._place(where)) if where is not None else fn(unit)
        span, text = self._piece(meta)
        return _Emit(False, fn("use", fn("sphinx"), target), span, text, count=self._count(count))

    def _use_span(self, meta) -> tuple[Span, str]:
        """The span and text of the whole use (a use rule's tree)."""
        return self._piece(meta)

    def _emit_use(self, meta, target) -> _Emit:
        return _Emit(False, fn("use", fn(self._using[0]), target), *self._use_span(meta))

    def replace(self, meta, children):
        # REPLACE CREATURE+ CREATURE+ (the arrow is filtered): split at the arrow
        tokens = [c for c in children[1:]]
        line_text = self._line(meta)
        arrow_at = None
        for i in range(1, len(tokens)):
            between = line_text[tokens[i - 1].end_column - 1 : tokens[i].column - 1]
            if "->" in between or "→" in between:
                arrow_at = i
                break
        assert arrow_at is not None
        old, new = tokens[:arrow_at], tokens[arrow_at:]
        old_id = self._creature(old)
        new_id = self._creature(new)
        span, text = self._piece(meta)
        return [
            _Emit(False, fn("replace", fn(old_id)), span, text),
            _Emit(True, fn("track", 0, fn(new_id)), *self._words(new)),
        ]

    def discard(self, meta, children):
        _, thing_token, _, place_token = children
        building = self._building(thing_token, "discarded")
        span, text = self._piece(meta)
        return [_Emit(False, fn("discard", fn(building), self._place(place_token)), span, text)]

    def metropolis(self, meta, children):
        span, text = self._piece(meta)
        return [_Emit(False, fn("metropolis", self._place(children[-1])), span, text)]

    def demolish(self, meta, children):
        building = self._building(children[1], "demolished")
        span, text = self._piece(meta)
        return [_Emit(False, fn("demolish", fn(building)), span, text)]

    def prosperity(self, meta, children):
        span, text = self._piece(meta)
        return [_Emit(False, fn("prosperity", self._place(children[-1])), span, text)]

    def pass_turn(self, meta, children):
        span, text = self._piece(meta)
        return [_Emit(False, fn("pass"), span, text)]

    def move_units(self, meta, children):
        count_token, thing_token, from_token, route = children
        count = self._count(count_token)
        thing = self._thing(thing_token)
        span, text = self._piece(meta)
        if thing not in ("troop", "fleet"):
            shown = self.names.display["things"][thing].lower()
            raise self._fail(f"only troops and fleets move: a {shown} stays where it is", thing_token)
        if thing == "troop":
            if len(route) > 1:
                raise self._fail("troops move from one island to one other island: expected the end of the"
                                 " move after the first '-> ISLAND'", route[1][0])
            to_token, shift = route[0]
            if shift is not None:
                raise self._fail("'+N' and '-N' pick up and leave fleets on the way; troops move"
                                 " straight to the island", shift)
            move = fn("march", self._place(from_token), count, self._place(to_token))
            return [_Emit(False, move, span, text)]
        return [_Emit(False, fn("sail", self._place(from_token), count, self._sail_path(route)), span, text)]

    def _sail_path(self, route: list) -> Fn:
        """The path term via(S,Delta,...end) of a fleet movement's route (movement.lp)."""
        if len(route) > MAX_ROUTE:
            raise self._fail(f"a movement of {len(route)} spaces: the notation reads at most {MAX_ROUTE}"
                             " (Poseidon moves 3, the Sylph 10)", route[MAX_ROUTE][0])
        if route[-1][1] is not None:
            raise self._fail("the last space of a move is where the fleets stop: nothing is picked up"
                             " or left there", route[-1][1])
        path: object = Fn("end")
        for to_token, shift in reversed(route):
            delta = 0 if shift is None else int(shift) if len(shift) <= MAX_DIGITS + 1 else None
            if delta is None:
                raise self._fail(f"too many: {_quote(str(shift), 20)}", shift)
            path = fn("via", self._place(to_token), delta, path)
        return path

    def route(self, meta, children):
        legs = []
        for child in children:
            if child is not None and child.type == "SIGNED":
                legs[-1] = (legs[-1][0], child)
            elif child is not None:
                legs.append((child, None))
        return legs

    def retreat(self, meta, children):
        span, text = self._piece(meta)
        return _Emit(False, fn("retreat", self._place(children[-1])), span, text)

    def stay(self, meta, children):
        span, text = self._piece(meta)
        return _Emit(False, Fn("stay"), span, text)

    def side(self, meta, children):
        player, face, loss = children
        if face is None and loss is None:
            raise self.src.error(f"expected the face {player} rolled (0 to 3) or the units lost"
                                 f" (as in '{player} -1') after {_quote(str(player))}",
                                 player.line, player.end_column)
        if loss is not None and not str(loss).startswith("-"):
            raise self._fail(f"a loss is written with a minus: '{player} -1', not {_quote(str(loss))}", loss)
        loss_value = Fn("u") if loss is None else self._number(Token.make("INT", str(loss)[1:], loss.line, loss.column + 1))
        face_value = Fn("u") if face is None else self._number(face)
        last = loss if loss is not None else face
        return player, fn("side", str(player), face_value, loss_value), last

    def battle_line(self, meta, children):
        disputed = children[-1] is not None
        sides = children[1:-1]
        if len(sides) > 2:
            raise self._fail("a battle has two sides: expected at most two players", sides[2][0])
        line_text = self._line(meta)
        span = Span(meta.line, sides[0][0].column, meta.line, sides[-1][2].end_column)
        text = line_text[span.column - 1:span.end_column - 1]
        emit = _Emit(True, fn("round", *(s[1] for s in sides)), span, text, names=tuple(s[0] for s in sides))
        return _MoveLine(None, None, (emit,), disputed, line_text, _span(meta))

    def start(self, meta, children):
        return list(children)


# ------------------------------------------------ records to transcript --


def _with_names(term, names: dict[str, str]):
    """``term`` with each player name as written replaced by the declared one."""
    if isinstance(term, Fn):
        return Fn(term.name, tuple(_with_names(a, names) for a in term.args))
    return names.get(term, term) if isinstance(term, str) else term


_DISPUTED_IN_USE = re.compile(r"[?？]{2}")


def _mark_disputed_parts(emits: list[_Emit], disputed_at: list[int]) -> list[_Emit]:
    """Each '??' inside a creature's use marks the part written just before it
    (every part, when none comes before it)."""
    marked = set()
    for column in disputed_at:
        before = [index for index, emit in enumerate(emits) if emit.span.end_column <= column]
        marked.update(before[-1:] if before else range(len(emits)))
    return [dataclasses.replace(emit, disputed=True) if index in marked else emit
            for index, emit in enumerate(emits)]


def _assemble(records: list, src: SourceText, game: str) -> Transcript:
    header: dict[str, _HeaderLine] = {}
    events: list = []
    cycle = 0
    players: dict[str, str] = {}  # casefolded -> declared
    first_move: _MoveLine | None = None
    starts: list[PlacementLine] = []

    def player_list() -> str:
        return _and(list(players.values()))

    def resolve(token: Token) -> str:
        name = players.get(str(token).casefold())
        if name is None:
            if not players:
                raise src.error_at(
                    f"{_quote(str(token))} is not a player: the header has no 'players:' line",
                    token,
                )
            raise src.error_at(
                f"{_quote(str(token))} is not a player{did_you_mean(str(token), players.values())}:"
                f" expected one of {player_list()}", token
            )
        return name

    for record in records:
        if isinstance(record, _HeaderLine):
            if cycle or first_move:
                raise src.error_at(
                    f"the header line '{record.key}:' comes after the moves have begun:"
                    " header lines come before 'cycle 1'",
                    record.span,
                )
            if record.key == "start":
                name = resolve(record.value[0])
                if any(line.player == name for line in starts):
                    raise src.error_at(f"a second 'start:' line for {name}: each player's placement is stated once",
                                       record.span)
                starts.append(PlacementLine(name, record.value[1], record.span))
                continue
            if record.key in header:
                raise src.error_at(
                    f"a second '{record.key}:' line (the first is on line"
                    f" {header[record.key].span.line}): each header line appears once",
                    record.span,
                )
            if record.key == "game" and record.value != game:  # _game_of saw another line
                raise src.error_at(f"expected 'game: {game}'", record.value_token or record.span)
            if record.key == "players":
                for decl in record.value:
                    key = decl.name.casefold()
                    if key in players:
                        raise src.error_at(
                            f"{_quote(decl.name)} is declared twice (as {_quote(players[key])}"
                            " before): each player is named once",
                            decl.span,
                        )
                    taken = [p for p in record.value[: record.value.index(decl)] if p.colour == decl.colour]
                    if taken:
                        column = decl.span.column + len(decl.name)
                        text = src.line(decl.span.line)
                        column += len(text[column - 1 :]) - len(text[column - 1 :].lstrip())
                        raise src.error(
                            f"{decl.colour} is already {taken[0].name}'s colour:"
                            " each player has a colour of their own",
                            decl.span.line,
                            column,
                        )
                    players[key] = decl.name
                if not 2 <= len(record.value) <= 5:
                    raise src.error_at(
                        f"Cyclades is played by 2 to 5 players, found {len(record.value)}",
                        record.span,
                    )
            if record.key == "order":
                resolved = tuple(resolve(t) for t in record.value)
                record = _HeaderLine("order", resolved, record.span)
            header[record.key] = record
        elif isinstance(record, PeriodStart):
            if (cycle == 0 and first_move is None and record.number != 1) or record.number < cycle:
                # A heading forgotten (cycle 3 after cycle 1) or written twice is the
                # referee's to judge: it says what it assumed (docs/notation.md).
                expected = "'cycle 1'" if cycle == 0 else f"'cycle {cycle}' or later"
                raise src.error_at(
                    f"expected {expected} (cycles are numbered 1, 2, 3... in order),"
                    f" found 'cycle {record.number}'",
                    record.span,
                )
            if cycle == 0 and "players" not in header:
                raise src.error_at(
                    "the header has no 'players:' line: expected"
                    " 'players: Ann red, Bob blue, ...' before 'cycle 1'",
                    record.span,
                )
            cycle = record.number
            events.append(record)
        else:
            assert isinstance(record, _MoveLine)
            if cycle == 0 and first_move is None:
                # the heading 'cycle 1' left out: the referee assumes it here (docs/notation.md)
                first_move = record
            role = CHANCE if record.player is None else resolve(record.player)
            for emit in record.emits:
                if emit.names:
                    emit = dataclasses.replace(emit, move=_with_names(emit.move, {str(t): resolve(t) for t in emit.names}))
                play = Play(
                    role=CHANCE if emit.chance else role,
                    group=None if emit.chance else record.god,
                    move=emit.move,
                    text=emit.text,
                    span=emit.span,
                    disputed=record.disputed or emit.disputed,
                    line_text=record.line_text,
                )
                events.extend([play] * emit.count)

    if "players" not in header:
        line, _ = src.end()
        raise src.error(
            "the header has no 'players:' line: expected 'players: Ann red, Bob blue, ...'",
            line,
            1,
        )
    head = Header(
        game=game,
        players=header["players"].value,
        order=header["order"].value if "order" in header else None,
        rules=header["rules"].value if "rules" in header else "en",
        data_file=header["board"].value if "board" in header else None,
        spans=FrozenMap({key: line.span for key, line in header.items()}),
        placements=tuple(starts),
        options=FrozenMap({"position": header["position"].value}) if "position" in header else FrozenMap(),
    )
    return Transcript(source=src.name, header=head, events=tuple(events))



def read(tree: Node, src: SourceText) -> Transcript:
    """The transcript of a parse tree (the grammar's ``start`` rule)."""
    return _assemble(_Reader(src, _names()).transform(tree), src, "cyclades")
