"""Cyclades boards: islands, sea spaces and the starting placement.

A board is read from a TOML board file (format: docs/boards.md).  The file
lists the hex grid's row lengths, the islands (their hexes, building slots,
prosperity symbols and metropolis slots), the sea spaces that carry prosperity
symbols and the starting placement of each seat.  Every hex that is not part
of an island is a sea space whose id is its hex id.  Adjacency is not written
in the file: it is derived here from the hex grid (see :func:`hex_neighbours`).

This module reads data only; it imports neither clingo nor lark.
:func:`board_facts` turns a board into the static facts the rule programs read,
as the project's own terms (:class:`referee.terms.Fn`).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

from referee.base.errors import BoardError, FileError
from referee.base.terms import Fn, fn
from referee.base.words import counted
from referee.text.toml_source import TomlSource

__all__ = [
    "Island",
    "Sea",
    "StartSeat",
    "Board",
    "load_board",
    "builtin_board",
    "board_facts",
    "hex_neighbours",
    "parse_hex",
    "BUILTIN_PLAYER_COUNTS",
]

PathLike = Union[str, "os.PathLike[str]"]

#: Player counts with a board shipped in referee/games/cyclades/boards/.
BUILTIN_PLAYER_COUNTS = (2, 3, 4, 5)
#: The folder of the shipped boards.
BUILTIN_BOARDS = Path(__file__).with_name("boards")

_ROW_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_HEX_RE = re.compile(r"([A-Z])([1-9][0-9]*)\Z")
_ISLAND_ID_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_SEAT_RE = re.compile(r"[A-Z]\Z")
_BUILTIN_RE = re.compile(r"([0-9]+)p\Z")


# ---------------------------------------------------------------------------
# Value types
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Island:
    """An island: its hexes, building slots, printed prosperity symbols and
    the number of building slots a metropolis occupies on it."""

    id: str
    hexes: tuple[str, ...]
    slots: int
    prosperity: int
    metropolis_slots: int


@dataclass(frozen=True)
class Sea:
    """A sea space; its id is its hex id."""

    id: str
    hex: str
    prosperity: int = 0


@dataclass(frozen=True)
class StartSeat:
    """The starting placement of one seat (A, B, ...): one troop on each of
    ``islands``, one fleet on each entry of ``fleets``.  ``verified`` is false
    where the sources are weak; ``note`` says why."""

    letter: str
    islands: tuple[str, ...]
    fleets: tuple[str, ...]
    verified: bool = True
    note: str = ""


@dataclass(frozen=True)
class _Derived:
    rows: tuple[int, ...]
    hex_island: dict[str, str]
    island_by_id: dict[str, Island]
    sea_by_id: dict[str, Sea]
    seat_by_letter: dict[str, StartSeat]
    island_seas: dict[str, frozenset[str]]
    sea_neighbours: dict[str, frozenset[str]]
    sea_islands: dict[str, frozenset[str]]


@dataclass(frozen=True)
class Board:
    """A board: islands, sea spaces (every non-island hex) and the starting
    placement per seat.  Adjacency is derived from the hex grid."""

    name: str
    player_counts: tuple[int, ...]
    islands: tuple[Island, ...]
    seas: tuple[Sea, ...]
    start: tuple[StartSeat, ...]
    sources: str = ""
    confidence: str = ""
    _derived: _Derived = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_derived", _derive(self))

    # -- the grid -----------------------------------------------------------

    @property
    def rows(self) -> tuple[int, ...]:
        """The length of each row of the hex grid, row A first."""
        return self._derived.rows

    # -- lookups ------------------------------------------------------------

    def island(self, island_id: str) -> Island:
        """The island with this id (KeyError if there is none)."""
        return self._derived.island_by_id[island_id]

    def sea(self, sea_id: str) -> Sea:
        """The sea space with this id (KeyError if there is none)."""
        return self._derived.sea_by_id[sea_id]

    def seat(self, letter: str) -> StartSeat:
        """The starting placement of seat ``letter`` (KeyError if there is none)."""
        return self._derived.seat_by_letter[letter]

    # -- derived adjacency --------------------------------------------------

    def island_seas(self, island_id: str) -> frozenset[str]:
        """The sea spaces that touch the island (KeyError for an unknown island)."""
        return self._derived.island_seas[island_id]

    def sea_neighbours(self, sea_id: str) -> frozenset[str]:
        """The sea spaces adjacent to the sea space (KeyError for an unknown sea)."""
        return self._derived.sea_neighbours[sea_id]

    def sea_islands(self, sea_id: str) -> frozenset[str]:
        """The islands that touch the sea space (KeyError for an unknown sea)."""
        return self._derived.sea_islands[sea_id]

    def island_of(self, hex_id: str) -> str | None:
        """The id of the island a hex belongs to, or None for a sea hex.
        KeyError if the hex is not on the board."""
        island = self._derived.hex_island.get(hex_id)
        if island is None and hex_id not in self._derived.sea_by_id:
            raise KeyError(hex_id)
        return island


# ---------------------------------------------------------------------------
# The hex grid
# ---------------------------------------------------------------------------


def parse_hex(hex_id: str, rows: tuple[int, ...] | list[int]) -> tuple[int, int] | None:
    """``'D4'`` -> ``(3, 3)`` (0-based row and index); None if it is not on the grid."""
    m = _HEX_RE.match(hex_id)
    if not m:
        return None
    r = _ROW_LETTERS.index(m.group(1))
    c = int(m.group(2)) - 1
    if r >= len(rows) or c >= rows[r]:
        return None
    return r, c


def _hex_name(r: int, c: int) -> str:
    return f"{_ROW_LETTERS[r]}{c + 1}"


def hex_neighbours(rows: tuple[int, ...] | list[int], r: int, c: int) -> list[tuple[int, int]]:
    """The hexes adjacent to hex (r, c) (0-based row and index within the row).

    The neighbour rule.  The rows are centred on one another and consecutive
    rows differ in length by exactly one hex, so a hex touches its two
    neighbours in its own row (c-1, c+1) and two hexes in each adjacent row:
    in a row that is one hex LONGER, the hexes at the same index c and at c+1;
    in a row that is one hex SHORTER, the hexes at c-1 and c.  Hexes that fall
    outside a row do not exist.

    On the printed Cyclades boards (11 rows A..K growing to the middle row F and
    shrinking after it) this is exactly the rule of the reference data's
    coordinate scheme: row above: r <= 5 -> (r-1, c-1), (r-1, c), else
    (r-1, c), (r-1, c+1); row below: r < 5 -> (r+1, c), (r+1, c+1), else
    (r+1, c-1), (r+1, c).
    """
    result = [(r, c - 1), (r, c + 1)]
    for other in (r - 1, r + 1):
        if 0 <= other < len(rows):
            if rows[other] > rows[r]:
                result += [(other, c), (other, c + 1)]
            else:
                result += [(other, c - 1), (other, c)]
    return [(rr, cc) for rr, cc in result if 0 <= rr < len(rows) and 0 <= cc < rows[rr]]


def _derive(board: Board) -> _Derived:
    """Build the lookups and the adjacency of a board from its hexes."""
    lengths: dict[int, int] = {}
    hex_island: dict[str, str] = {}
    all_hexes = [(h, i.id) for i in board.islands for h in i.hexes] + [(s.hex, None) for s in board.seas]
    for h, island_id in all_hexes:
        m = _HEX_RE.match(h)
        if not m:
            raise ValueError(f"board {board.name!r}: {h!r} is not a hex id")
        r = _ROW_LETTERS.index(m.group(1))
        lengths[r] = max(lengths.get(r, 0), int(m.group(2)))
        if island_id is not None:
            hex_island[h] = island_id
    rows = tuple(lengths.get(r, 0) for r in range(max(lengths) + 1)) if lengths else ()
    sea_by_id = {s.id: s for s in board.seas}
    sea_hexes = {s.hex: s.id for s in board.seas}

    island_seas: dict[str, set[str]] = {i.id: set() for i in board.islands}
    sea_neighbours: dict[str, set[str]] = {s.id: set() for s in board.seas}
    sea_islands: dict[str, set[str]] = {s.id: set() for s in board.seas}
    for sea in board.seas:
        pos = parse_hex(sea.hex, rows)
        assert pos is not None
        for rr, cc in hex_neighbours(rows, *pos):
            other = _hex_name(rr, cc)
            if other in sea_hexes:
                sea_neighbours[sea.id].add(sea_hexes[other])
            elif other in hex_island:
                sea_islands[sea.id].add(hex_island[other])
                island_seas[hex_island[other]].add(sea.id)
    return _Derived(
        rows=rows,
        hex_island=hex_island,
        island_by_id={i.id: i for i in board.islands},
        sea_by_id=sea_by_id,
        seat_by_letter={s.letter: s for s in board.start},
        island_seas={k: frozenset(v) for k, v in island_seas.items()},
        sea_neighbours={k: frozenset(v) for k, v in sea_neighbours.items()},
        sea_islands={k: frozenset(v) for k, v in sea_islands.items()},
    )


# ---------------------------------------------------------------------------
# Facts for the rule programs
# ---------------------------------------------------------------------------


def _natural(key: str) -> tuple:
    """Sort key that puts IS2 before IS10 and B9 before B10."""
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"([0-9]+)", key))


def board_facts(board: Board) -> list[Fn]:
    """The static board facts the rule programs read.

    ``island(I)``, ``island_slots(I,N)``, ``island_prosperity(I,N)``,
    ``metropolis_slots(I,N)``, ``sea(S)``, ``sea_prosperity(S,N)`` (only where
    N > 0), ``coast(I,S)`` (island I touches sea S) and ``sea_adjacent(S1,S2)``
    (listed in both directions).  Ids are strings (string data, not constants).
    """
    facts: list[Fn] = []
    islands = sorted(board.islands, key=lambda i: _natural(i.id))
    seas = sorted(board.seas, key=lambda s: _natural(s.id))
    for i in islands:
        facts.append(fn("island", i.id))
        facts.append(fn("island_slots", i.id, i.slots))
        facts.append(fn("island_prosperity", i.id, i.prosperity))
        facts.append(fn("metropolis_slots", i.id, i.metropolis_slots))
    for s in seas:
        facts.append(fn("sea", s.id))
        if s.prosperity > 0:
            facts.append(fn("sea_prosperity", s.id, s.prosperity))
    for i in islands:
        for s in sorted(board.island_seas(i.id), key=_natural):
            facts.append(fn("coast", i.id, s))
    for s in seas:
        for t in sorted(board.sea_neighbours(s.id), key=_natural):
            facts.append(fn("sea_adjacent", s.id, t))
    return facts


# ---------------------------------------------------------------------------
# Reading board files
# ---------------------------------------------------------------------------


def builtin_board(player_count: int) -> Board:
    """The shipped Cyclades board for 2, 3, 4 or 5 players."""
    if isinstance(player_count, bool) or not isinstance(player_count, int) or player_count not in BUILTIN_PLAYER_COUNTS:
        counts = ", ".join(str(n) for n in BUILTIN_PLAYER_COUNTS)
        players = counted(player_count, "player") if isinstance(player_count, int) else f"{player_count!r} players"
        raise BoardError(f"no built-in Cyclades board for {players} (there are boards for {counts})")
    return load_board(_builtin_path(player_count))


def _builtin_path(player_count: int) -> Path:
    return BUILTIN_BOARDS / f"{player_count}p.toml"


def load_board(path: PathLike) -> Board:
    """Read and check a board file; BoardError (never a traceback) if it is malformed."""
    return _load(path, seen=())


_TOP_KEYS = {"board", "islands", "seas", "start"}
_BOARD_KEYS = {"name", "players", "rows", "sources", "confidence", "based_on"}
_ISLAND_KEYS = {"hexes", "slots", "prosperity", "metropolis_slots"}
_SEAS_KEYS = {"prosperity"}
_SEAT_KEYS = {"islands", "fleets", "verified", "note"}


def _display_name(path: PathLike) -> str:
    if Path(path).parent == BUILTIN_BOARDS:  # a shipped board: named by its place in the package
        return f"<built-in board {Path(path).name}>"
    return os.fspath(path)


def _identity(path: PathLike) -> str:
    return os.path.realpath(path)


#: The largest board file read: a printed board takes a few kilobytes.
MAX_BOARD_BYTES = 1 << 20


def _load(path: PathLike, seen: tuple[str, ...]) -> Board:
    name = _display_name(path)
    try:
        if not Path(path).is_file():  # a device or a pipe would be read for ever
            raise FileNotFoundError if not Path(path).exists() else IsADirectoryError(0, "not a regular file")
        with open(path, "rb") as handle:
            data = handle.read(MAX_BOARD_BYTES + 1)
        if len(data) > MAX_BOARD_BYTES:
            raise BoardError(f"{name}: a board file is at most {MAX_BOARD_BYTES} bytes")
        text = data.decode("utf-8")
    except FileNotFoundError:
        raise FileError(f"{name}: board file not found") from None
    except UnicodeDecodeError as exc:
        raise BoardError(f"{name}: board file is not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise FileError(f"{name}: cannot read board file: {exc.strerror or exc}") from None
    src = TomlSource(name, text, BoardError, " (each island id, seat letter and key may appear only once)")
    data = src.parse()
    return _build(src, data, path, seen + (_identity(path),))


def _build(src: TomlSource, data: dict[str, Any], path: PathLike, seen: tuple[str, ...]) -> Board:
    for key in data:
        if key not in _TOP_KEYS:
            raise src.error(
                f"unknown section or key {key!r} (expected {_one_of(_TOP_KEYS)})", (key,)
            )
    board = data.get("board")
    if board is None:
        raise src.error("the [board] section is missing (it gives name, players, rows, sources, confidence)")
    if not isinstance(board, dict):
        raise src.error("'board' must be a table: write a [board] section", ("board",))
    for key in board:
        if key not in _BOARD_KEYS:
            raise src.error(f"[board]: unknown key {key!r} (expected {_one_of(_BOARD_KEYS)})", ("board", key))

    based_on = board.get("based_on")
    if based_on is not None:
        base = _load_base(src, based_on, path, seen)
        for key, where in (("rows", ("board", "rows")), ("islands", ("islands",)), ("seas", ("seas",))):
            present = key in board if key == "rows" else key in data
            if present:
                raise src.error(
                    f"a board based on {based_on!r} takes its map from there and may not give {key!r}; "
                    "to change the map, copy the whole board file instead",
                    where,
                )
        rows = base.rows
        islands = base.islands
        seas = base.seas
        name = _opt_str(src, board, "name", base.name)
        player_counts = _players(src, board) if "players" in board else base.player_counts
        sources = _opt_str(src, board, "sources", base.sources)
        confidence = _opt_str(src, board, "confidence", base.confidence)
        if "start" in data:
            start = _start(src, data["start"], islands, seas, player_counts, rows)
        else:
            start = base.start
            _check_seat_count(src, start, player_counts, ("board", "players"))
    else:
        if "name" not in board:
            raise src.error("[board]: 'name' is missing", ("board",))
        name = _opt_str(src, board, "name", "")
        if "players" not in board:
            raise src.error("[board]: 'players' is missing (the player counts this board serves, e.g. [3])", ("board",))
        player_counts = _players(src, board)
        rows = _rows(src, board)
        sources = _opt_str(src, board, "sources", "")
        confidence = _opt_str(src, board, "confidence", "")
        islands = _islands(src, data.get("islands"), rows)
        seas = _seas(src, data.get("seas", {}), islands, rows)
        if "start" not in data:
            raise src.error("the starting placement is missing: add a [start.A] section per seat")
        start = _start(src, data["start"], islands, seas, player_counts, rows)

    return Board(
        name=name,
        player_counts=player_counts,
        islands=islands,
        seas=seas,
        start=start,
        sources=sources,
        confidence=confidence,
    )


def _load_base(src: TomlSource, based_on: Any, path: PathLike, seen: tuple[str, ...]) -> Board:
    where = ("board", "based_on")
    if not isinstance(based_on, str) or not based_on:
        raise src.error("[board]: 'based_on' must be a built-in board name such as \"3p\" or a file path", where)
    m = _BUILTIN_RE.match(based_on)
    if m:
        count = int(m.group(1))
        if count not in BUILTIN_PLAYER_COUNTS:
            raise src.error(
                f"[board]: based_on = {based_on!r}: there is no built-in board for {counted(count, 'player')} "
                f"(built-in: {', '.join(f'{n}p' for n in BUILTIN_PLAYER_COUNTS)})",
                where,
            )
        base_path: PathLike = _builtin_path(count)
    else:
        base_path = os.path.join(os.path.dirname(os.fspath(path)), based_on)
    if _identity(base_path) in seen:
        raise src.error(f"[board]: based_on = {based_on!r} leads back to a file already being read (a cycle)", where)
    if len(seen) >= 8:
        raise src.error(f"[board]: based_on = {based_on!r}: boards are based on one another more than 8 deep", where)
    return _load(base_path, seen)


# -- field readers -----------------------------------------------------------


def _one_of(keys: set[str]) -> str:
    return ", ".join(sorted(keys))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _opt_str(src: TomlSource, table: dict, key: str, default: str) -> str:
    if key not in table:
        return default
    value = table[key]
    if not isinstance(value, str):
        raise src.error(f"[board]: {key!r} must be a string", ("board", key))
    return value.strip()


def _players(src: TomlSource, board: dict) -> tuple[int, ...]:
    value = board["players"]
    where = ("board", "players")
    if not isinstance(value, list) or not value or not all(_is_int(v) and v >= 1 for v in value):
        raise src.error("[board]: 'players' must be a list of player counts, e.g. [3] or [2, 3]", where)
    if len(set(value)) != len(value):
        raise src.error("[board]: 'players' lists a player count twice", where)
    return tuple(value)


#: The most hexes a board may have: far above any printed board, far below what
#: would make grounding the rules slow.
MAX_HEXES = 2_000


def _rows(src: TomlSource, board: dict) -> tuple[int, ...]:
    where = ("board", "rows")
    if "rows" not in board:
        raise src.error(
            "[board]: 'rows' is missing (the number of hexes in each row, row A first, "
            "e.g. [6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6])",
            ("board",),
        )
    value = board["rows"]
    if not isinstance(value, list) or not value or not all(_is_int(v) and v >= 1 for v in value):
        raise src.error("[board]: 'rows' must be a list of row lengths (positive whole numbers), row A first", where)
    if len(value) > len(_ROW_LETTERS):
        raise src.error(f"[board]: 'rows' has {len(value)} rows; at most {len(_ROW_LETTERS)} (A..Z)", where)
    if sum(value) > MAX_HEXES:
        raise src.error(f"[board]: 'rows' make {sum(value)} hexes; a board has at most {MAX_HEXES} "
                        "(the largest printed Cyclades board has 91)", where)
    for r in range(len(value) - 1):
        if abs(value[r + 1] - value[r]) != 1:
            raise src.error(
                f"[board]: 'rows': row {_ROW_LETTERS[r + 1]} has {value[r + 1]} hexes after row "
                f"{_ROW_LETTERS[r]} with {value[r]}; consecutive rows of a hex board differ by exactly one hex",
                where,
            )
    return tuple(value)


def _grid_text(rows: tuple[int, ...]) -> str:
    return f"rows A..{_ROW_LETTERS[len(rows) - 1]} of lengths {', '.join(str(n) for n in rows)}"


def _hex_problem(hex_id: Any, rows: tuple[int, ...]) -> str | None:
    """Why ``hex_id`` is not a hex of the grid, or None if it is one."""
    if not isinstance(hex_id, str):
        return f"{hex_id!r} is not a hex id (write a row letter and an index, e.g. \"D4\")"
    m = _HEX_RE.match(hex_id)
    if not m:
        return f"{hex_id!r} is not a hex id (write a row letter and an index within the row, e.g. \"D4\")"
    r = _ROW_LETTERS.index(m.group(1))
    if r >= len(rows):
        return f"hex {hex_id} is outside the grid: there is no row {m.group(1)} ({_grid_text(rows)})"
    if int(m.group(2)) > rows[r]:
        return f"hex {hex_id} is outside the grid: row {m.group(1)} has {rows[r]} hexes"
    return None


def _islands(src: TomlSource, value: Any, rows: tuple[int, ...]) -> tuple[Island, ...]:
    if value is None:
        raise src.error("the [islands] section is missing")
    if not isinstance(value, dict):
        raise src.error("'islands' must be a table: write an [islands] section", ("islands",))
    islands: list[Island] = []
    owner: dict[str, str] = {}
    for island_id, spec in value.items():
        where = ("islands", island_id)
        label = f"island {island_id}"
        if not _ISLAND_ID_RE.match(island_id):
            raise src.error(f"{label}: an island id is letters, digits and _ (e.g. IS3)", where)
        if _HEX_RE.match(island_id):
            raise src.error(
                f"{label}: an island id must not look like a hex id (sea spaces are named by their hex); use e.g. IS3",
                where,
            )
        if not isinstance(spec, dict):
            raise src.error(f"{label}: expected {{ hexes = [...], slots = N, prosperity = N, metropolis_slots = N }}", where)
        for key in spec:
            if key not in _ISLAND_KEYS:
                raise src.error(f"{label}: unknown key {key!r} (expected {_one_of(_ISLAND_KEYS)})", where, _key_token(key))
        hexes = spec.get("hexes")
        if not isinstance(hexes, list) or not hexes:
            raise src.error(f"{label}: 'hexes' must be a non-empty list of hex ids, e.g. [\"D4\", \"E5\"]", where, _key_token("hexes"))
        for h in hexes:
            problem = _hex_problem(h, rows)
            if problem:
                raise src.error(f"{label}: {problem}", where, _value_token(h))
            if h in owner:
                other = owner[h]
                again = "twice" if other == island_id else f"also by island {other}"
                raise src.error(f"{label}: hex {h} is used {again}; a hex belongs to at most one island", where, _value_token(h, last=other == island_id))
            owner[h] = island_id
        _check_connected(src, label, where, hexes, rows)
        if "slots" not in spec:
            raise src.error(f"{label}: 'slots' (the number of building slots) is missing", where)
        slots = spec["slots"]
        if not _is_int(slots) or slots < 1:
            raise src.error(f"{label}: slots = {slots!r}: an island has at least 1 building slot", where, _key_token("slots"))
        prosperity = spec.get("prosperity", 0)
        if not _is_int(prosperity) or prosperity < 0:
            raise src.error(
                f"{label}: prosperity = {prosperity!r}: the number of prosperity symbols is 0 or more",
                where,
                _key_token("prosperity"),
            )
        metropolis = spec.get("metropolis_slots", min(2, slots))
        if not _is_int(metropolis) or metropolis < 1 or metropolis > slots:
            raise src.error(
                f"{label}: metropolis_slots = {metropolis!r}: a metropolis occupies between 1 and the "
                f"island's {slots} building slot{'s' if slots != 1 else ''}",
                where,
                _key_token("metropolis_slots"),
            )
        islands.append(Island(island_id, tuple(hexes), slots, prosperity, metropolis))
    if not islands:
        raise src.error("the [islands] section lists no island", ("islands",))
    return tuple(islands)


def _check_connected(src: TomlSource, label: str, where: tuple, hexes: list[str], rows: tuple[int, ...]) -> None:
    cells = {parse_hex(h, rows) for h in hexes}
    first = parse_hex(hexes[0], rows)
    reached = {first}
    todo = [first]
    while todo:
        r, c = todo.pop()  # type: ignore[misc]
        for nb in hex_neighbours(rows, r, c):
            if nb in cells and nb not in reached:
                reached.add(nb)
                todo.append(nb)
    if reached != cells:
        apart = sorted((h for h in hexes if parse_hex(h, rows) not in reached), key=_natural)
        raise src.error(
            f"{label}: its hexes are not connected: {', '.join(apart)} "
            f"{'does' if len(apart) == 1 else 'do'} not touch {hexes[0]} through the island's hexes",
            where,
            _value_token(apart[0]),
        )


def _seas(src: TomlSource, value: Any, islands: tuple[Island, ...], rows: tuple[int, ...]) -> tuple[Sea, ...]:
    if not isinstance(value, dict):
        raise src.error("'seas' must be a table: write a [seas] section", ("seas",))
    for key in value:
        if key not in _SEAS_KEYS:
            raise src.error(f"[seas]: unknown key {key!r} (expected {_one_of(_SEAS_KEYS)})", ("seas", key))
    island_hexes = {h: i.id for i in islands for h in i.hexes}
    prosperity = value.get("prosperity", {})
    where = ("seas", "prosperity")
    if not isinstance(prosperity, dict):
        raise src.error("[seas]: 'prosperity' must be a table of sea space = number, e.g. { A1 = 1, K6 = 1 }", where)
    for h, n in prosperity.items():
        problem = _hex_problem(h, rows)
        if problem:
            raise src.error(f"[seas] prosperity: sea {problem}", where, _key_token(h))
        if h in island_hexes:
            raise src.error(
                f"[seas] prosperity: {h} is a hex of island {island_hexes[h]}, not a sea space "
                f"(give an island's prosperity in [islands])",
                where,
                _key_token(h),
            )
        if not _is_int(n) or n < 0:
            raise src.error(f"[seas] prosperity: sea {h} = {n!r}: the number of prosperity symbols is 0 or more", where, _key_token(h))
    seas = []
    for r, length in enumerate(rows):
        for c in range(length):
            h = _hex_name(r, c)
            if h not in island_hexes:
                seas.append(Sea(h, h, prosperity.get(h, 0)))
    return tuple(seas)


def _check_seat_count(src: TomlSource, start: tuple[StartSeat, ...], player_counts: tuple[int, ...], where: tuple) -> None:
    need = max(player_counts)
    if len(start) < need:
        raise src.error(
            f"the starting placement has {len(start)} seat{'s' if len(start) != 1 else ''} "
            f"but the board serves {need} players: add [start.{_ROW_LETTERS[len(start)]}]",
            where,
        )


def _start(
    src: TomlSource,
    value: Any,
    islands: tuple[Island, ...],
    seas: tuple[Sea, ...],
    player_counts: tuple[int, ...],
    rows: tuple[int, ...],
) -> tuple[StartSeat, ...]:
    if not isinstance(value, dict) or not value:
        raise src.error("the starting placement must be written as [start.A], [start.B], ... sections", ("start",))
    island_ids = {i.id for i in islands}
    island_hexes = {h: i.id for i in islands for h in i.hexes}
    sea_ids = {s.id for s in seas}
    letters = list(value)
    for k, letter in enumerate(letters):
        if not _SEAT_RE.match(letter):
            raise src.error(f"start: seat {letter!r}: seats are single capital letters A, B, C, ...", ("start", letter))
    expected = list(_ROW_LETTERS[: len(letters)])
    if sorted(letters) != expected:
        missing = [x for x in expected if x not in letters]
        raise src.error(
            f"start: seats must be A, B, C, ... without gaps; seat {missing[0]} is missing", ("start",)
        )
    held: dict[str, str] = {}
    sailed: dict[str, str] = {}
    seats = []
    for letter in sorted(letters):
        spec = value[letter]
        where = ("start", letter)
        label = f"start seat {letter}"
        if not isinstance(spec, dict):
            raise src.error(f"{label}: expected {{ islands = [...], fleets = [...] }}", where)
        for key in spec:
            if key not in _SEAT_KEYS:
                raise src.error(f"{label}: unknown key {key!r} (expected {_one_of(_SEAT_KEYS)})", where, _key_token(key))
        for key in ("islands", "fleets"):
            if key not in spec:
                raise src.error(f"{label}: {key!r} is missing", where)
            if not isinstance(spec[key], list) or not all(isinstance(x, str) for x in spec[key]):
                raise src.error(f"{label}: {key!r} must be a list of ids, e.g. [\"IS1\", \"IS7\"]", where, _key_token(key))
        for island_id in spec["islands"]:
            if island_id not in island_ids:
                hint = f" ({island_id} is a sea space)" if island_id in sea_ids else ""
                raise src.error(f"{label}: starting island {island_id} does not exist{hint}", where, _value_token(island_id))
            if island_id in held:
                whose = "twice" if held[island_id] == letter else f"also by seat {held[island_id]}"
                raise src.error(f"{label}: island {island_id} is held {whose}", where, _value_token(island_id, last=True))
            held[island_id] = letter
        for sea_id in spec["fleets"]:
            if sea_id not in sea_ids:
                if sea_id in island_hexes:
                    why = f"{sea_id} is a hex of island {island_hexes[sea_id]}, not a sea space"
                else:
                    why = _hex_problem(sea_id, rows) or f"sea space {sea_id} does not exist"
                raise src.error(f"{label}: starting fleet on {sea_id}: {why}", where, _value_token(sea_id))
            if sailed.get(sea_id, letter) != letter:
                raise src.error(
                    f"{label}: sea space {sea_id} already holds seat {sailed[sea_id]}'s fleet; "
                    "fleets of two players never share a sea space",
                    where,
                    _value_token(sea_id),
                )
            sailed[sea_id] = letter
        verified = spec.get("verified", True)
        if not isinstance(verified, bool):
            raise src.error(f"{label}: 'verified' must be true or false", where, _key_token("verified"))
        note = spec.get("note", "")
        if not isinstance(note, str):
            raise src.error(f"{label}: 'note' must be a string", where, _key_token("note"))
        if not verified and not note.strip():
            raise src.error(f"{label}: verified = false needs a 'note' saying what is uncertain", where, _key_token("verified"))
        seats.append(StartSeat(letter, tuple(spec["islands"]), tuple(spec["fleets"]), verified, " ".join(note.split())))
    start = tuple(seats)
    _check_seat_count(src, start, player_counts, ("start",))
    return start


# -- positions in the source text ----------------------------------------------


def _key_token(key: str) -> str:
    return r"(?<![\w\"'])[\"']?" + re.escape(key) + r"[\"']?\s*="


def _value_token(value: object, last: bool = False) -> str:
    token = r"[\"']" + re.escape(str(value)) + r"[\"']"
    return ("LAST:" + token) if last else token
