"""Reading a Nim transcript: the parse tree (plain values, referee.syntax) to a
Transcript. Every problem is a NotationError at the word's line and column."""

from __future__ import annotations

from referee.base.terms import fn
from referee.text.syntax import Leaf, Node, SourceText
from referee.text.transcript import FrozenMap, Header, Play, PlayerDecl, Transcript

START_RULES: tuple[str, ...] = ()  # no start rule besides 'start'
_WORDS = {"PLAYER": "a player's name", "INT": "a number", "TAKE": "'take'", "FROM": "'from'",
          "_COLON": "':'", "_COMMA": "','", "_NL": "the end of the line", "$END": "the end of the file"}


def expected(terms: set[str]) -> str:
    """Words for what a syntax error expected."""
    return " or ".join(sorted(_WORDS.get(t, f"'{t.lower()}'") for t in terms)) or "something else"


def moves_in(line: Node) -> int:
    return 1 if line.kind == "move_line" else 0


def hint(line_text: str, terms: set[str]) -> str:
    return ""


def rephrasings(line_text: str) -> list[str]:
    return []


def read(tree: Node, src: SourceText) -> Transcript:
    header: dict = {}
    spans: dict = {}
    names: dict[str, str] = {}  # casefolded -> as declared
    events: list[Play] = []
    for line in tree.nodes():
        if line.kind == "move_line":
            who, count, heap = line.leaves("PLAYER")[0], *line.leaves("INT")
            if who.text.casefold() not in names:
                raise src.error_at(f"'{who.text}' is not a player: expected {' or '.join(names.values())}", who)
            take = line.leaves("TAKE")[0]
            text = src.line(line.span.line)[take.column - 1:heap.span.end_column - 1]
            events.append(Play(names[who.text.casefold()], None, fn("take", _int(src, heap), _int(src, count)),
                               text, line.span, bool(line.leaves("DISPUTED")), src.line(line.span.line)))
            continue
        key = line.kind.removesuffix("_line")
        if events or key in header:
            raise src.error_at(f"a '{key}:' line belongs once in the header, before the moves", line.span)
        spans[key] = line.span
        if key == "players":
            decls = [PlayerDecl(d.leaves("PLAYER")[0].text, d.leaves("COLOUR")[0].text.casefold(), d.span)
                     for d in line.nodes("player_decl")]
            if len(decls) != 2:
                raise src.error_at(f"Nim is played by 2 players, found {len(decls)}", line.span)
            names = {d.name.casefold(): d.name for d in decls}
            header[key] = tuple(decls)
        elif key == "heaps":
            header[key] = " ".join(str(_int(src, leaf)) for leaf in line.leaves("INT"))
        elif key in ("game", "rules"):
            header[key] = line.children[-1].text.casefold()
        else:
            raise src.error_at(f"Nim has no '{key}:' line", line.span)
    for key, example in (("players", "players: Ann red, Bob blue"), ("heaps", "heaps: 3, 4, 5")):
        if key not in header:
            raise src.error(f"the header has no '{key}:' line: expected '{example}'", 1, 1)
    return Transcript(src.name, Header("nim", header["players"], rules=header.get("rules", "en"),
                                       spans=FrozenMap(spans), options=FrozenMap(heaps=header["heaps"])),
                      tuple(events))


def _int(src: SourceText, leaf: Leaf) -> int:
    if len(leaf.text) > 3:
        raise src.error_at(f"a number is at most 999, found {leaf.text[:12]}", leaf)
    return int(leaf.text)
