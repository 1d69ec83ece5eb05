"""Cyclades: how a transcript's header becomes the static facts, and where the
rule programs live. Game-specific glue for the generic referee."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from referee.base.errors import BoardError, FileError, NotationError, Position
from referee.base.frozen_map import FrozenMap
from referee.base.terms import Fn, fn
from referee.base.words import counted, did_you_mean
from referee.game.contract import Game
from referee.game.parts import part
from referee.game.parts.scenarios import Scenarios
from referee.game.parts.screen import Screen
from referee.game.parts.service import Service
from referee.game.parts.speed import Speed
from referee.game.parts.tolerance import Tolerance
from referee.game.parts.words import Words
from referee.game.picture import Picture
from referee.game.state import tup
from referee.text.transcript import Header, Play, Transcript

from . import fastpath
from .board import BUILTIN_PLAYER_COUNTS, Board, board_facts, builtin_board, load_board
from .fluents import Cycle
from .screen import CycladesScreen
from .speed import CycladesSpeed
from .tolerance import CycladesTolerance
from .words import CycladesWords

SEAT_LETTERS = "ABCDE"


@dataclass(frozen=True)
class Setup:
    """Everything fixed for one game: the board and the static facts."""

    board: Board
    static: tuple[Fn, ...]
    players: tuple[str, ...]
    facts: fastpath.Facts


def _position(transcript: Transcript, key: str) -> Position:
    span = transcript.header.spans.get(key) or next(iter(transcript.header.spans.values()))
    return Position(transcript.source, span.line, span.column)


def setup(transcript: Transcript, board_file: str | None = None, rules: str | None = None,
          variants: tuple[str, ...] = ()) -> Setup:
    """The static facts of a game: players, turn track, board, reading."""
    header: Header = transcript.header
    players = tuple(p.name for p in header.players)
    if not 2 <= len(players) <= 5:
        raise NotationError(f"Cyclades is played by 2 to 5 players, the header names {len(players)}",
                            _position(transcript, "players"))
    board_ref = board_file or header.data_file
    if board_ref and board_ref not in CycladesService.builtin_files:
        path = Path(board_ref)
        if not board_file:
            if path.suffix != ".toml":  # a transcript may not make the referee read (and quote) any file
                raise BoardError(f"a board is a .toml file (docs/boards.md), not '{board_ref}'",
                                 _position(transcript, "board"))
            if not path.is_absolute():  # a header's path is relative to the transcript
                path = Path(transcript.source).parent / path
        try:
            board = load_board(path)
        except (BoardError, FileError) as error:
            if board_file:  # from the command line: the error names the file already
                raise
            raise type(error)(error.message, _position(transcript, "board"), error.context) from None
    else:
        board = builtin_board(int(board_ref[0]) if board_ref else len(players))
    if len(players) not in board.player_counts:
        raise NotationError(f"the board '{board.name}' is for {', '.join(map(str, board.player_counts))} "
                            f"players, the header names {len(players)}", _position(transcript, "board"))
    each = 2 if len(players) == 2 else 1
    order = header.order or (players * each)
    for p in players:
        if order.count(p) != each:
            raise NotationError(
                f"the turn order must name every player {'twice' if each == 2 else 'once'} "
                f"({'two offering markers each in the 2-player game' if each == 2 else 'one marker each'}); "
                f"{p} appears {order.count(p)} times", _position(transcript, "order" if header.order else "players"))
    static: list[Fn] = [fn("player", p) for p in players]
    static.append(fn("player_count", len(players)))
    static.append(fn("variant", rules or header.rules))
    static += [fn("variant_active", Fn(v)) for v in variants]
    seen: dict[str, int] = {}
    for pos, p in enumerate(order, start=1):
        seen[p] = seen.get(p, 0) + 1
        static.append(fn("start_order", pos, fn("m", p, seen[p])))
    for p, (islands, fleets) in starting_placement(transcript, board, players).items():
        static += [fn("start_island", p, i) for i in islands]
        static += [fn("start_fleet", p, s) for s in fleets]
    static += board_facts(board)
    return Setup(board, tuple(static), players, fastpath.Facts(static))


def starting_placement(transcript: Transcript, board: Board, players: tuple[str, ...]) -> dict:
    """Each player's starting islands and fleets: the board's seat, or what the
    transcript's ``start:`` line states, checked against rule setup_placement:
    as many islands and fleets as a seat of the board has, islands and sea spaces
    of the board, each fleet next to one of the player's islands, no island or
    sea space shared."""
    placement = {p: (board.seat(letter).islands, board.seat(letter).fleets)
                 for letter, p in zip(SEAT_LETTERS, players)}
    for line in transcript.header.placements:
        where = Position(transcript.source, line.span.line, line.span.column)
        islands = tuple(x for x in line.places if x in {i.id for i in board.islands})
        fleets = tuple(x for x in line.places if x in {s.id for s in board.seas})
        unknown = [x for x in line.places if x not in islands and x not in fleets]
        seat = placement[line.player]

        def illegal(why: str) -> NotationError:
            return NotationError(f"{line.player}'s starting placement is not legal (rule setup_placement): {why}",
                                 where)

        if unknown:
            raise illegal(f"{unknown[0]} is neither an island nor a sea space of the board '{board.name}'")
        if len(set(islands)) != len(islands) or len(set(fleets)) != len(fleets):
            raise illegal("a place is named twice")
        if (len(islands), len(fleets)) != (len(seat[0]), len(seat[1])):
            raise illegal(f"a player starts with {counted(len(seat[0]), 'island')} and "
                          f"{counted(len(seat[1]), 'fleet')} on this board, the line names "
                          f"{counted(len(islands), 'island')} and {counted(len(fleets), 'sea space')}")
        for sea in fleets:
            if not board.sea_islands(sea) & set(islands):
                raise illegal(f"the fleet on {sea} is next to none of {line.player}'s islands")
        placement[line.player] = (islands, fleets)
    for line in reversed(transcript.header.placements):  # a clash is reported on the later line
        others = [p for p in players if p != line.player]
        for p in others:
            shared = sorted(set(placement[line.player][0] + placement[line.player][1])
                            & set(placement[p][0] + placement[p][1]))
            if shared:
                raise NotationError(f"{line.player}'s starting placement is not legal (rule setup_placement): "
                                    f"{shared[0]} is also {p}'s; players start on different islands and sea spaces",
                                    Position(transcript.source, line.span.line, line.span.column))
    return placement


def check_places(transcript: Transcript, board: Board, players: tuple[str, ...]) -> None:
    """Every island and sea id a move names is one of the board's: an id the
    board does not have cannot be read (a NotationError at the id, with the
    board's nearest ids). A place of the wrong kind (a temple on a sea) is the
    rules' business, judged as written."""
    places = {i.id for i in board.islands} | {s.id for s in board.seas}
    for play in transcript.plays:
        for written in _places_of(play.move, players):
            if written in places:
                continue
            line = play.line_text
            at = line.upper().find(written, play.span.column - 1)
            column = at + 1 if at >= 0 else play.span.column
            context = f"{line}\n{' ' * (column - 1)}^" if line else ""
            kind = "island" if written.upper().startswith("IS") else "island or sea space"
            meant = did_you_mean(written, sorted(places))
            if not meant and kind == "island":
                islands = sorted((i.id for i in board.islands), key=lambda x: (len(x), x))
                meant = f" (its islands are {', '.join(islands)})"
            raise NotationError(f"{written} is no {kind} of the board '{board.name}'{meant}",
                                Position(transcript.source, play.span.line, column), context)


def _places_of(term, players: tuple[str, ...]):
    """The island and sea ids in a move term (its strings that name no player)."""
    if isinstance(term, str):
        if term not in players:
            yield term
    elif isinstance(term, Fn):
        for arg in term.args:
            yield from _places_of(arg, players)


#: The things a 'position:' item may add (docs/notation.md, "A starting position").
_POSITION_UNITS = {"gp": "gold", "priest": "priests", "priests": "priests", "philosopher": "philosophers",
                   "philosophers": "philosophers", "troop": "troops", "troops": "troops", "fleet": "fleets",
                   "fleets": "fleets"}


def position_changes(transcript: Transcript, board: Board, players: tuple[str, ...]) -> list[tuple]:
    """The items of a ``position:`` header line, checked: each ('change', name,
    key, delta) or ('add', name, args). Items are added to the starting position."""
    text = transcript.header.options.get("position")
    if not text:
        return []
    span = transcript.header.spans.get("position")
    where = Position(transcript.source, span.line, span.column) if span else None
    return [position_item(part.strip(), board, players, where) for part in text.split(";")]


def position_item(item: str, board: Board, players: tuple[str, ...], where: Position | None = None) -> tuple:
    """One item of a ``position:`` line (docs/notation.md, 'A starting position'),
    checked against the board and the players: ('change', name, key, delta) or
    ('add', name, args)."""
    islands = {i.id for i in board.islands}
    seas = {s.id for s in board.seas}
    names = {p.casefold(): p for p in players}
    words = item.split()

    def bad(why: str) -> NotationError:
        return NotationError(f"position item '{item}': {why} (docs/notation.md, 'A starting position')", where)

    if not words:
        raise bad("empty item")
    head = words[0].casefold()
    if head in fastpath.BUILDINGS or head == "metropolis":
        if len(words) != 2 or words[1] not in islands:
            raise bad(f"expected '{head} ISn' with an island of the board '{board.name}'")
        return (("add", "metropolis", (words[1],)) if head == "metropolis"
                else ("change", "building", tup(words[1], Fn(head)), 1))
    if head not in names:
        raise bad(f"expected a building, 'metropolis' or a player ({', '.join(players)})")
    player, rest = names[head], words[1:]
    if rest and rest[0].casefold() == "marker":
        if len(rest) != 2 or rest[1] not in islands:
            raise bad("expected 'PLAYER marker ISn'")
        return ("add", "marker", (rest[1], player))
    count = 1
    if rest and rest[0].isdigit():
        count, rest = int(rest[0]), rest[1:]
    if not rest or rest[0].casefold() not in _POSITION_UNITS or not 1 <= count <= 99:
        raise bad("expected 'PLAYER N GP', 'PLAYER N priests', 'PLAYER N philosophers', "
                  "'PLAYER N troops ISn', 'PLAYER N fleets Sn' or 'PLAYER marker ISn' (N from 1 to 99)")
    name = _POSITION_UNITS[rest[0].casefold()]
    if name in ("troops", "fleets"):
        places = islands if name == "troops" else seas
        if len(rest) != 2 or rest[1] not in places:
            raise bad(f"expected {'an island' if name == 'troops' else 'a sea space'} of the board after '{rest[0]}'")
        return ("change", name, tup(player, rest[1]), count)
    if len(rest) != 1:
        raise bad(f"nothing follows '{rest[0]}'")
    return ("change", name, player, count)


class CycladesService(Service):
    """The built-in boards a 'board:' line may name, and a warm-up transcript."""

    builtin_files = frozenset(f"{n}p" for n in BUILTIN_PLAYER_COUNTS)  # what a board: line names, not a file
    warm_up = "game: cyclades\nplayers: Ann red, Bob blue\n\ncycle 1\ncreatures: Harpy\n"


class CycladesRules(Game):
    """The Cyclades rules for one game, set up from a transcript's header."""

    name = "cyclades"
    period = "cycle"
    parts = FrozenMap({Words: CycladesWords, Speed: CycladesSpeed, Tolerance: CycladesTolerance,
                       Screen: CycladesScreen, Service: CycladesService,
                       Scenarios: "referee.games.cyclades.scenarios:CycladesScenarios",
                       Picture: "referee.games.cyclades.draw:CycladesPicture"})  # referee board, Session.picture

    def __init__(self, transcript: Transcript, data_file: str | None = None, rules: str | None = None,
                 variants: tuple[str, ...] = ()):
        self.setup = setup(transcript, board_file=data_file, rules=rules, variants=variants)
        self.static = self.setup.static
        self.players = self.setup.players
        self.board = self.setup.board
        self.reading = rules or transcript.header.rules
        self.position = position_changes(transcript, self.board, self.players)
        check_places(transcript, self.board, self.players)

    def period_number(self, state: frozenset) -> int:
        f = Cycle.one(state)
        return int(f.number) if f else 0

    def game_step(self, state: frozenset) -> Fn | None:
        return fastpath.game_step(state)

    def resolve(self, state: frozenset, play: Play) -> Fn:
        """The written move with what the notation leaves implicit filled in
        (CycladesTolerance.resolve)."""
        return part(self, Tolerance).resolve(state, play)
