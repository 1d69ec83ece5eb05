"""Luna's printed values: the shipped data file (data.toml, each value with its
source or marked unverified) and a user's file that overrides some of them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.base.errors import DataError, FileError, Position
from referee.text.toml_source import TomlSource

KINDS = ("shrine", "herbs", "waves", "sailboat", "bribe", "book", "substitute")
MAX_FILE = 1 << 20


@dataclass(frozen=True)
class LunaData:
    """The printed values of one game, after any override."""

    islands: tuple[str, ...]
    tile_symbols: tuple[int, ...]
    temple_parts: tuple[tuple[int, ...], ...]
    guard_tiles: tuple[int, ...]
    priestess: tuple[tuple[str, tuple[int, ...]], ...]
    builder: int
    council: tuple[int, ...]
    novices_per_player: int
    shrines_per_player: int
    intro_figures: tuple[tuple[str, int], ...]
    intro_shrines: tuple[int, ...]
    parts_used: tuple[int, ...]
    sources: tuple[tuple[str, str], ...]
    start_tiles: tuple[int, ...] = ()   # by seat; () = the lowest to the start player, and so on

    def priestess_values(self, players: int) -> tuple[int, ...]:
        return dict(self.priestess)["6" if players == 4 else "5"]

    def source(self, key: str) -> str:
        return dict(self.sources).get(key, "")

    def unverified(self, key: str) -> bool:
        """A placeholder value: its source says 'unverified' (docs/luna.md)."""
        return self.source(key).startswith("unverified")


def _check(src: TomlSource, data: dict[str, Any]) -> None:
    """The shape of every value, with the file's line in the error."""
    def need(ok: bool, key: str, what: str) -> None:
        if not ok:
            raise src.error(f"{key} must be {what}", (key,))

    known = {f for f in LunaData.__dataclass_fields__}
    for key in data:
        need(key in known, key, f"one of the known keys ({', '.join(sorted(known))})")
    ints = lambda v, n=None: isinstance(v, list) and all(type(x) is int for x in v) and (n is None or len(v) == n)
    if "islands" in data:
        need(isinstance(data["islands"], list) and sorted(data["islands"]) == sorted(KINDS), "islands",
             f"the seven favour kinds in island order ({', '.join(KINDS)})")
    if "tile_symbols" in data:
        need(ints(data["tile_symbols"], 28) and all(1 <= x <= 7 for x in data["tile_symbols"]), "tile_symbols",
             "28 island numbers (1-7), one per temple tile")
    if "temple_parts" in data:
        parts = data["temple_parts"]
        need(isinstance(parts, list) and len(parts) == 4 and all(ints(p) for p in parts)
             and sorted(x for p in parts for x in p) == list(range(1, 29))
             and all(len([x for x in p if x <= 4]) == 1 for p in parts), "temple_parts",
             "four lists of tiles holding each of 1-28 once, each with one of the tiles 1-4")
    if "guard_tiles" in data:
        need(ints(data["guard_tiles"], 6), "guard_tiles", "six numbers")
    if "priestess" in data:
        p = data["priestess"]
        need(isinstance(p, dict) and set(p) == {"5", "6"} and all(ints(v) and 1 <= len(v) <= 3 for v in p.values()),
             "priestess", 'a table { "6" = [...], "5" = [...] } of one to three values')
    if "builder" in data:
        need(type(data["builder"]) is int and 0 <= data["builder"] <= 14, "builder", "a number 0-14")
    if "council" in data:
        need(ints(data["council"]) and 2 <= len(data["council"]) <= 30, "council", "a list of 2 to 30 seat values")
    if "novices_per_player" in data:
        need(type(data["novices_per_player"]) is int and 9 <= data["novices_per_player"] <= 99,
             "novices_per_player", "a number 9-99")
    if "shrines_per_player" in data:
        need(type(data["shrines_per_player"]) is int and 1 <= data["shrines_per_player"] <= 7,
             "shrines_per_player", "a number 1-7")
    if "intro_figures" in data:
        f = data["intro_figures"]
        need(isinstance(f, dict) and set(f) == {"priestess", "builder", "apostate"}
             and all(type(v) is int and 1 <= v <= 7 for v in f.values()), "intro_figures",
             "a table { priestess = I, builder = I, apostate = I } of islands 1-7")
    if "intro_shrines" in data:
        need(ints(data["intro_shrines"], 4) and all(1 <= x <= 7 for x in data["intro_shrines"]), "intro_shrines",
             "four islands 1-7, one per seat")
    if "parts_used" in data:
        need(ints(data["parts_used"]) and 2 <= len(data["parts_used"]) <= 4
             and len(set(data["parts_used"])) == len(data["parts_used"])
             and all(1 <= x <= 4 for x in data["parts_used"]), "parts_used", "two to four different parts 1-4")
    if "start_tiles" in data:
        tiles = data["start_tiles"]
        need(ints(tiles) and 2 <= len(tiles) <= 4 and len(set(tiles)) == len(tiles)
             and all(1 <= x <= 4 for x in tiles), "start_tiles", "two to four different tiles 1-4, one per seat")
    if "sources" in data:
        need(isinstance(data["sources"], dict) and all(isinstance(v, str) for v in data["sources"].values()),
             "sources", "a table of strings")


def _read(name: str, text: str) -> dict[str, Any]:
    src = TomlSource(name, text, DataError)
    data = src.parse()
    _check(src, data)
    return data


def _build(data: dict[str, Any]) -> LunaData:
    return LunaData(
        islands=tuple(data["islands"]),
        tile_symbols=tuple(data["tile_symbols"]),
        temple_parts=tuple(tuple(p) for p in data["temple_parts"]),
        guard_tiles=tuple(data["guard_tiles"]),
        priestess=tuple((k, tuple(v)) for k, v in sorted(data["priestess"].items())),
        builder=data["builder"],
        council=tuple(data["council"]),
        novices_per_player=data["novices_per_player"],
        shrines_per_player=data["shrines_per_player"],
        intro_figures=tuple(sorted(data["intro_figures"].items())),
        intro_shrines=tuple(data["intro_shrines"]),
        parts_used=tuple(data["parts_used"]),
        sources=tuple(sorted(data["sources"].items())),
        start_tiles=tuple(data.get("start_tiles", ())),
    )


def shipped() -> dict[str, Any]:
    text = Path(__file__).with_name("data.toml").read_text(encoding="utf-8")
    return _read("referee/games/luna/data.toml", text)


def load(override: str | Path | None = None, where: Position | None = None) -> LunaData:
    """The shipped values, with those of ``override`` (a .toml file) on top; an
    overridden value's source becomes the file unless the file gives one."""
    data = shipped()
    if override is not None:
        path = Path(override)
        if path.suffix != ".toml":
            raise DataError(f"a Luna data file is a .toml file (docs/luna.md), not '{override}'", where)
        try:
            if not path.is_file() or path.stat().st_size > MAX_FILE:
                raise FileError(f"the data file {override} must be a regular file of at most 1 MiB", where)
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise FileError(f"cannot read the data file {override}: {e}", where) from None
        except UnicodeDecodeError as e:
            raise DataError(f"cannot read the data file {override}: {e}", where) from None
        extra = _read(str(override), text)
        sources = dict(data["sources"])
        for key, value in extra.items():
            if key != "sources":
                data[key] = value
                sources[key] = f"{override}"
        sources.update(extra.get("sources", {}))
        data["sources"] = sources
    return _build(data)
