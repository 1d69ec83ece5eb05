"""Reading a Luna transcript: the parse tree (plain values, referee.syntax)
to a :class:`referee.transcript.Transcript`.

The notation is described in docs/luna.md.  Every problem is a
:class:`referee.errors.NotationError` at the line and column of the word.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from referee.base.errors import NotationError
from referee.base.terms import Fn, fn
from referee.base.words import did_you_mean
from referee.text.syntax import Leaf, Node, SourceText
from referee.text.toml_source import parse_toml
from referee.text.transcript import FrozenMap, Header, PeriodStart, Play, PlayerDecl, Span, Transcript

ISLANDS = range(1, 8)
JETTY = fn("jetty")
MAX_NUMBER = 99
MIN_PLAYERS, MAX_PLAYERS = 2, 4
RESERVED = frozenset({"chance", "game", "round", "preparation", "layout", "figures", "players", "rules", "board"})
LAYOUTS = ("intro", "normal")
FIGURE_NAMES = ("priestess", "builder", "apostate")
#: Actions that a substitute novice may serve (the rules judge the rest).
_SUBSTITUTE_OK = {"favour", "recruit", "shrine", "council", "banish", "occupy"}
_BRIBE_OK = {"occupy", "enter"}

_TERM_WORDS = {
    "PLAYER": "a player's name",
    "COLOUR": "a colour (red, blue, green, yellow, white, black)",
    "WORD": "a word",
    "READING": "a reading name (en)",
    "REST_OF_LINE": "a data file path",
    "INT": "a number",
    "JETTY": "'jetty'",
    "DISPUTED": "'??'",
    "_NL": "the end of the line",
    "$END": "the end of the file",
    "_COLON": "':'",
    "_COMMA": "','",
    "_ARROW": "'->'",
}
_ACTIONS = ("an action (favour on 3, recruit on 3, shrine on 3, herbs 2 on 3, travel 2 from 1 to 3,"
            " waves 1 from jetty to 3, sailboat 2 from 1 to 3, occupy 12 from 3, enter 12, book 3 -> 9,"
            " council 2 from 3, banish 2, meditate; in the preparation: novices on 1, 2, 4, 6)")
#: A '??' after a group of a travel or waves line, left out of the move's text.
_DISPUTED_GROUP = re.compile(r"\s*(?:\?\?|？？)(?=\s*[,，、])")
_LINES = "a new line (a header line, 'preparation', 'round N' or a player's move 'Ann: meditate')"


START_RULES: tuple[str, ...] = ()
"""Luna's grammar has no start rule besides ``start``."""


def moves_in(line: Node) -> int:
    """At least how many moves a line holds (the record's bound on moves is kept
    while it is read): a player's line one."""
    return 1 if line.kind == "move_line" else 0


def known(word: str) -> bool:
    """Whether a word is a name of the game (a colour, a favour, a figure...)."""
    return any(word.casefold() in _names(kind) for kind in _names_file())


def hint(line_text: str, terms: set[str]) -> str:
    """No advice is added to Luna's syntax errors (rephrasings offers the line's nearest form)."""
    return ""


#: Words of everyday English around an action that the notation leaves out:
#: 'take a favour on 3' is 'favour on 3', 'build a shrine on 4' is 'shrine on 4',
#: 'recruit 2 novices on 2' is 'recruit on 2', 'banish the Apostate 2' is 'banish 2',
#: 'go to the council with 2 from 3' is 'council 2 from 3', 'move 2 novices from 1
#: to 3' is 'travel 2 novices from 1 to 3', 'enter temple 12' is 'enter 12'.
_LEFT_OUT = {"a", "an", "the", "one", "two", "apostate", "disc", "temple"}
_VERBS = {"take", "build", "place", "put", "get", "gain", "use", "do", "go"}
#: Verbs of everyday English for the notation's own.
_SAME_VERBS = {"move": "travel", "send": "travel", "sail": "sailboat"}
#: 'with' that the notation keeps: the action's helper.
_WITH_KEPT = {"substitute", "bribe"}


def rephrasings(line_text: str) -> list[str]:
    """The line as the notation writes what it seems to say (its action's verb,
    articles and the words the notation leaves out dropped)."""
    match = re.match(r"(\s*[^:：]+[:：])(.*?)(\s*(?:\?\?|？？))?(\s*#.*)?$", line_text)
    if not match or not match.group(2).strip():
        return []
    words = match.group(2).split()
    if words[0].casefold() in _VERBS:
        words = words[1:]
    if words and words[0].casefold() == "to":  # 'go to the council'
        words = words[1:]
    if words:
        words[0] = _SAME_VERBS.get(words[0].casefold(), words[0])
    if words and words[0].casefold() == "recruit":  # 'recruit 2 novices on 2': the novices are the action's
        place = next((n for n, w in enumerate(words) if w.casefold() in ("on", "island")), len(words))
        words = ["recruit", *words[place:]]
    kept = []
    for n, word in enumerate(words):
        key, following = word.casefold(), words[n + 1].casefold() if n + 1 < len(words) else ""
        if key in _LEFT_OUT or (key == "with" and following not in _WITH_KEPT) \
                or (key == "island" and kept and kept[-1].casefold() in ("from", "to")) \
                or (key in ("novice", "novices") and n > 0):
            continue
        kept.append(word)
    words = kept or words
    return [f"{match.group(1)} {' '.join(words)}{' ??' if match.group(3) else ''}{match.group(4) or ''}"]


def expected(terms: set[str]) -> str:
    """Words for what a syntax error expected."""
    phrases = []
    if "MEDITATE" in terms:
        phrases.append(_ACTIONS)
        terms = {t for t in terms if t not in {"FAVOUR", "RECRUIT", "SHRINE", "NOVICES", "HERBS", "TRAVEL",
                                               "WAVES", "SAILBOAT", "OCCUPY", "ENTER", "BOOK", "COUNCIL",
                                               "BANISH", "MEDITATE"}}
    if "ROUND" in terms:
        phrases.append(_LINES)
        terms = {t for t in terms if t not in {"ROUND", "PREPARATION", "LAYOUT", "GAME", "PLAYERS", "ORDER",
                                               "RULES", "BOARD", "PLAYER", "$END"}}
    for term in sorted(terms):
        phrases.append(_TERM_WORDS.get(term, f"'{term.lower()}'"))
    if not phrases:
        return "something else"
    return phrases[0] if len(phrases) == 1 else f"{', '.join(phrases[:-1])} or {phrases[-1]}"


@functools.cache
def _names_file() -> dict:
    """names.toml, read once."""
    return parse_toml(Path(__file__).with_name("names.toml").read_text(encoding="utf-8"))


@functools.cache
def _names(kind: str) -> dict[str, str]:
    """Written name (casefolded) -> id, from names.toml."""
    table = {}
    for ident, entry in _names_file()[kind].items():
        for written in list(entry.get("english", [])) + [a["name"] for a in entry.get("aliases", [])]:
            table[written.casefold()] = ident
    return table


def _colours() -> dict[str, str]:
    return _names("colours")


class _Reader:
    def __init__(self, src: SourceText):
        self.src = src
        self.header: dict[str, tuple[object, Span]] = {}
        self.players: dict[str, str] = {}  # casefolded -> declared
        self.events: list = []
        self.round = 0
        self.preparation: Span | None = None

    # -- helpers --
    def fail(self, message: str, where: Span | Leaf) -> NotationError:
        return self.src.error(message, where.line if isinstance(where, Leaf) else where.line,
                              where.column)

    def number(self, leaf: Leaf, low: int = 1, high: int = MAX_NUMBER, what: str = "a number") -> int:
        if len(leaf.text) > 9 or not low <= int(leaf.text) <= high:
            raise self.fail(f"{what} is {low} to {high}, found {leaf.text[:12]}", leaf)
        return int(leaf.text)

    def place(self, node: Node, jetty: bool = False) -> int | str:
        leaf = next(c for c in node.children if isinstance(c, Leaf))
        if leaf.kind == "JETTY":
            if not jetty:
                raise self.fail("expected an island 1 to 7: only the waves and sailboat favours move"
                                " novices from the jetty", leaf)
            return JETTY
        return self.number(leaf, 1, 7, "an island")

    def text(self, span: Span) -> str:
        return self.src.line(span.line)[span.column - 1:span.end_column - 1].rstrip()

    # -- lines --
    def line(self, node: Node) -> None:
        handler = getattr(self, f"do_{node.kind}", None)
        if handler is None:  # pragma: no cover - the grammar has no other line
            raise self.fail(f"cannot read this line ({node.kind})", node.span)
        handler(node)

    def _header(self, key: str, value: object, node: Node) -> None:
        if self.round or self.preparation or self.events:
            raise self.fail(f"the header line '{key}:' comes after the moves have begun: header lines come"
                            " before 'preparation' and 'round 1'", node.span)
        if key in self.header:
            raise self.fail(f"a second '{key}:' line (the first is on line {self.header[key][1].line}):"
                            " each header line appears once", node.span)
        self.header[key] = (value, node.span)

    def do_game_line(self, node: Node) -> None:
        word = node.leaves("WORD")[0]
        if word.text.casefold() != "luna":
            raise self.fail("expected 'game: luna'", word)
        self._header("game", "luna", node)

    def do_players_line(self, node: Node) -> None:
        decls = []
        for decl in node.nodes("player_decl"):
            name, colour = decl.leaves("PLAYER")[0], decl.leaves("COLOUR")[0]
            if len(name.text) > 64:
                raise self.fail("a player's name is at most 64 characters long", name)
            if name.text.casefold() in RESERVED:
                raise self.fail(f"'{name.text}' cannot be a player's name: it is a word of the notation", name)
            if name.text.casefold() in self.players:
                raise self.fail(f"'{name.text}' is declared twice: each player is named once", name)
            ident = _colours().get(colour.text.casefold())
            if ident is None:
                raise self.fail(f"unknown colour '{colour.text}'{did_you_mean(colour.text, _colours())}: expected"
                                f" {_TERM_WORDS['COLOUR']}", colour)
            if any(d.colour == ident for d in decls):
                raise self.fail(f"{ident} is already another player's colour: each player has a colour of"
                                " their own", colour)
            self.players[name.text.casefold()] = name.text
            decls.append(PlayerDecl(name.text, ident, decl.span))
        if not MIN_PLAYERS <= len(decls) <= MAX_PLAYERS:
            raise self.fail(f"Luna is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, found {len(decls)}",
                            node.span)
        self._header("players", tuple(decls), node)

    def do_order_line(self, node: Node) -> None:
        raise self.fail("Luna has no 'order:' line: the players are written in seat order (clockwise),"
                        " the start player first", node.span)

    def do_rules_line(self, node: Node) -> None:
        self._header("rules", node.leaves("READING")[0].text.casefold(), node)

    def do_board_line(self, node: Node) -> None:
        self._header("board", node.leaves("REST_OF_LINE")[0].text.rstrip(), node)

    def do_layout_line(self, node: Node) -> None:
        word = node.leaves("WORD")[0]
        if word.text.casefold() not in LAYOUTS:
            raise self.fail(f"unknown layout '{word.text}'{did_you_mean(word.text, LAYOUTS)}: expected intro or"
                            " normal", word)
        self._header("layout", word.text.casefold(), node)

    def do_figures_line(self, node: Node) -> None:
        placed: dict[str, int] = {}
        for item in node.nodes("figure_at"):
            word = item.leaves("WORD")[0]
            figure = _names("figures").get(word.text.casefold())
            if figure not in ("priestess", "builder", "apostate"):
                raise self.fail(f"unknown figure '{word.text}'{did_you_mean(word.text, FIGURE_NAMES)}: expected"
                                " priestess, builder or apostate", word)
            if figure in placed:
                raise self.fail(f"the {figure} is placed twice", word)
            placed[figure] = self.place(item.nodes("place")[0])
        self._header("figures", placed, node)

    def _need_players(self, span: Span) -> None:
        if "players" not in self.header:
            raise self.fail("the header has no 'players:' line: expected 'players: Ann red, Bob blue, ...'"
                            " before the moves", span)

    def do_preparation_line(self, node: Node) -> None:
        self._need_players(node.span)
        if self.header.get("layout", ("intro",))[0] != "normal":
            raise self.fail("the introductory layout has no preparation round: write 'layout: normal' in"
                            " the header to play one", node.span)
        if self.preparation or self.round or self.events:
            raise self.fail("'preparation' comes once, before 'round 1'", node.span)
        self.preparation = node.span

    def do_round_line(self, node: Node) -> None:
        self._need_players(node.span)
        number = self.number(node.leaves("INT")[0], 1, 6, "a round")
        if (self.round == 0 and number != 1) or number < self.round:
            # A heading forgotten (round 3 after round 1) or written twice is the
            # referee's to judge: it says what it assumed (docs/luna.md).
            expected = "'round 1'" if self.round == 0 else f"'round {self.round}' or later"
            raise self.fail(f"expected {expected} (rounds are numbered 1 to 6 in order),"
                            f" found 'round {number}'", node.span)
        if number == 1 and self.header.get("layout", ("intro",))[0] == "normal" and not self.preparation:
            raise self.fail("with 'layout: normal' the game begins with 'preparation': the shrines and"
                            " novices are placed before round 1", node.span)
        self.round = number
        self.events.append(PeriodStart(number, node.span))

    def do_move_line(self, node: Node) -> None:
        player = node.leaves("PLAYER")[0]
        if not self.round and not self.preparation:
            raise self.fail("a move before the game begins: expected 'round 1' (or 'preparation') on a"
                            " line of its own before the first move", node.span)
        name = self.players.get(player.text.casefold())
        if name is None:
            raise self.fail(f"'{player.text}' is not a player{did_you_mean(player.text, self.players.values())}:"
                            f" expected one of {', '.join(self.players.values())}", player)
        action = node.nodes()[0]
        written = [c for c in action.children if c is not None]
        # a '??' that ends the line marks the whole line; after a group, that group
        line_ends_disputed = isinstance(written[-1], Leaf) and written[-1].kind == "DISPUTED"
        disputed = bool(node.leaves("DISPUTED")) or line_ends_disputed
        line_text = self.src.line(node.span.line)
        last = next(c for c in reversed(written) if not (isinstance(c, Leaf) and c.kind == "DISPUTED"))
        span = Span(action.span.line, action.span.column, last.span.end_line, last.span.end_column)
        text = _DISPUTED_GROUP.sub("", self.text(span))
        if self.preparation and not self.round and action.kind not in ("shrine", "novices"):
            raise self.fail("in the preparation round a player places a shrine ('shrine on 3') or four pairs"
                            " of novices ('novices on 1, 2, 4, 6')", action.span)
        moves = self.moves(action)
        marked = self.marked_groups(action) or [False] * len(moves)
        for move, mark in zip(moves, marked, strict=True):
            self.events.append(Play(name, None, move, text, span, disputed or mark, line_text))

    # -- actions --
    def modifiers(self, action: Node) -> tuple[int, int]:
        substitute = action.leaves("SUBSTITUTE")
        bribe = action.leaves("BRIBE")
        if substitute and action.kind not in _SUBSTITUTE_OK:
            raise self.fail(f"a substitute novice replaces one novice of an action; '{action.kind}' uses none",
                            substitute[0])
        if bribe and action.kind not in _BRIBE_OK:
            raise self.fail("a bribe is used to occupy a temple tile or to enter the temple", bribe[0])
        return int(bool(substitute)), int(bool(bribe))

    @staticmethod
    def marked_groups(action: Node) -> list[bool]:
        """For a travel or waves line, which of its groups a '??' follows (none for other actions)."""
        marked: list[bool] = []
        for child in action.children:
            if isinstance(child, Node) and child.kind == "hop":
                marked.append(False)
            elif isinstance(child, Leaf) and child.kind == "DISPUTED" and marked:
                marked[-1] = True
        return marked

    def hops(self, action: Node, waves: bool) -> list[tuple]:
        out = []
        for hop in action.nodes("hop"):
            count = self.number(hop.leaves("INT")[0], 1, MAX_NUMBER, "a count of novices")
            source, target = hop.nodes("place")
            status_leaf = hop.leaves("STATUS")
            origin = self.place(source, jetty=waves or action.kind == "sailboat")
            status = status_leaf[0].text.casefold() if status_leaf else ("inactive" if origin == JETTY else "active")
            if status_leaf and not waves:
                if status != "active":
                    raise self.fail("only the waves favour moves inactive novices", status_leaf[0])
            if origin == JETTY and status == "active":
                raise self.fail("the novices on the jetty are not active: write '1 from jetty to 3'",
                                status_leaf[0])
            out.append((origin, fn(status), self.place(target), count))
        return out

    def moves(self, action: Node) -> list[Fn]:
        kind = action.kind
        substitute, bribe = self.modifiers(action)
        ints = action.leaves("INT")
        places = action.nodes("place")
        if kind in ("favour", "recruit", "shrine"):
            return [fn(kind, self.place(places[0]), substitute)]
        if kind == "novices":
            return [fn("novices", self.place(p)) for p in places]
        if kind == "herbs":
            count = self.number(ints[0], 1, MAX_NUMBER, "a count of novices") if ints else 1
            return [fn("herbs", self.place(places[0]), count)]
        if kind == "travel":  # one move per group of novices (docs/luna.md)
            return [fn("travel", origin, target, count) for origin, _, target, count in self.hops(action, waves=False)]
        if kind == "waves":
            return [fn("waves", origin, status, target, count)
                    for origin, status, target, count in self.hops(action, waves=True)]
        if kind == "sailboat":
            ((origin, _, target, count),) = self.hops(action, waves=False)
            return [fn("sailboat", origin, target, count)]
        if kind == "occupy":
            return [fn("occupy", self.place(places[0]), self.number(ints[0], 1, 28, "a temple tile"), bribe,
                       substitute)]
        if kind == "enter":
            return [fn("enter", self.number(ints[0], 1, 28, "a temple tile"), bribe)]
        if kind == "book":
            return [fn("book", self.number(ints[0], 1, 28, "a temple tile"),
                       self.number(ints[1], 1, 28, "a temple tile"))]
        if kind == "council":
            return [fn("council", self.place(places[0]), self.number(ints[0], 1, MAX_NUMBER, "a count of seats"),
                       substitute)]
        if kind == "banish":
            return [fn("banish", self.number(ints[0], 1, MAX_NUMBER, "a count of novices"), substitute)]
        return [fn("meditate")]

    # -- the whole --
    def transcript(self, tree: Node) -> Transcript:
        for node in tree.nodes():
            self.line(node)
        if "players" not in self.header:
            line, _ = self.src.end()
            raise self.src.error("the header has no 'players:' line: expected 'players: Ann red, Bob blue, ...'",
                                 line, 1)
        options = {"layout": self.header.get("layout", ("intro",))[0]}
        if "figures" in self.header:
            placed, span = self.header["figures"]
            if options["layout"] != "normal":
                raise self.fail("the introductory layout places the figures as the islands show:"
                                " 'figures:' goes with 'layout: normal'", span)
            options.update({f"figure_{name}": str(island) for name, island in placed.items()})
        header = Header(
            game="luna",
            players=self.header["players"][0],
            rules=self.header.get("rules", ("en",))[0],
            data_file=self.header.get("board", (None,))[0],
            spans=FrozenMap({key: span for key, (_, span) in self.header.items()}),
            options=FrozenMap(options),
        )
        return Transcript(self.src.name, header, tuple(self.events))


def read(tree: Node, src: SourceText) -> Transcript:
    """The transcript a Luna parse tree holds."""
    return _Reader(src).transcript(tree)
