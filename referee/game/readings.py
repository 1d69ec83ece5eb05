"""The rules readings of a game: which variant modules each translation's reading
includes, and each variant's provenance.

A game's readings are the package resource ``referee/games/<game>/readings.toml``
(format: docs/translations.md); a variant ``<id>`` is the rule module
``referee/games/<game>/rules/variants/<id>.lp``. A game without the file has one
reading, ``en``, with no variants. This module reads data only.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.base.errors import DataError, ReadingError
from referee.game.catalogue import ENGLISH
from referee.game.registry import game_class, game_folder, game_package, package_folder
from referee.text.toml_source import TomlSource

__all__ = ["Source", "Variant", "Reading", "Readings", "load_readings"]

_ID_RE = re.compile(r"[a-z][a-z0-9_]*\Z")


@dataclass(frozen=True)
class Source:
    """Where a variant comes from: a seed file and its sentence."""

    seed: str
    file: str
    zh: str
    en: str


@dataclass(frozen=True)
class Variant:
    """A variant module: one translation's reading of one or more rules."""

    id: str
    title: str
    rules: tuple[str, ...]
    changes_play: bool
    default: str
    reading: str
    sources: tuple[Source, ...]
    module: Path
    ruling: str = ""   # a publisher's answer the variant follows (a forum answer, say), if any
    topic: str = "other rules"  # what a translation report groups it under (movement, the end of the game...)

    def to_json(self) -> dict:
        return {"id": self.id, "title": self.title, "rules": list(self.rules), "changes_play": self.changes_play,
                "default": self.default, "reading": self.reading, "module": self.module.name,
                "sources": [vars(s) for s in self.sources], "ruling": self.ruling, "topic": self.topic}


@dataclass(frozen=True)
class Reading:
    """A named reading: the default rules plus these variants."""

    name: str
    title: str
    variants: tuple[str, ...]


@dataclass(frozen=True)
class Readings:
    """A game's readings and variants."""

    game: str
    readings: dict
    variants: dict

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.readings)

    def reading(self, name: str) -> Reading:
        try:
            return self.readings[name]
        except KeyError:
            raise ReadingError(f"unknown rules reading '{name}'; known readings: {', '.join(self.readings)}") from None

    def active(self, name: str) -> tuple[str, ...]:
        """The variant ids of a reading (none for an unknown name: the caller checks names)."""
        reading = self.readings.get(name)
        return reading.variants if reading else ()

    def modules(self) -> tuple[Path, ...]:
        """Every variant module, in a stable order (all are loaded; a reading
        switches its own on with variant_active/1 facts)."""
        return tuple(self.variants[v].module for v in sorted(self.variants))


def rule_files(game: str) -> tuple[Path, ...]:
    """The shared contract (``referee/game/rules.lp``), every rule file of the game
    (``rules/*.lp`` in its package) in a stable order, then every variant
    module of its readings (each reading switches its own on)."""
    rules_dir = game_folder(game) / "rules"
    files = [package_folder("referee.game") / "rules.lp"]
    files += sorted(entry for entry in rules_dir.iterdir() if entry.name.endswith(".lp"))
    files += load_readings(game).modules()
    return tuple(files)


@functools.lru_cache(maxsize=None)
def load_readings(game: str) -> Readings:
    """The readings shipped with a game; DataError (file and line) if malformed."""
    package = game_package(game_class(game))  # the game's files are in its package
    base = package_folder(package)
    resource = base.joinpath("readings.toml")
    if not resource.is_file():
        return Readings(game, {ENGLISH: Reading(ENGLISH, "the default reading", ())}, {})
    name = f"{package.replace('.', '/')}/readings.toml"
    src = TomlSource(name, resource.read_text(encoding="utf-8"), DataError)
    data = src.parse()
    variants_dir = base / "rules" / "variants"
    variants = {vid: _variant(src, vid, table, variants_dir) for vid, table in _tables(src, data, "variant").items()}
    readings: dict[str, Reading] = {}
    for rname, table in _tables(src, data, "reading").items():
        where = ("reading", rname)
        listed = table.get("variants")
        if not isinstance(listed, list) or not all(isinstance(v, str) for v in listed):
            raise src.error(f"[reading.{rname}] needs a list of variant ids 'variants'", where)
        for v in listed:
            if v not in variants:
                raise src.error(f"[reading.{rname}] names the unknown variant {v!r}", where + ("variants",))
        readings[rname] = Reading(rname, str(table.get("title", "")), tuple(listed))
    if ENGLISH not in readings or readings[ENGLISH].variants:
        raise src.error("the 'en' reading must be there, with no variants (it is the default)", ())
    for key in data:
        if key not in ("reading", "variant"):
            raise src.error(f"unknown table {key!r} (expected [reading.<name>] or [variant.<id>])", (key,))
    return Readings(game, readings, variants)


def _tables(src: TomlSource, data: dict, key: str) -> dict:
    value = data.get(key, {})
    if not isinstance(value, dict) or not all(isinstance(t, dict) for t in value.values()):
        raise src.error(f"[{key}.<name>] entries must be tables", (key,))
    return value


def _variant(src: TomlSource, vid: str, table: dict[str, Any], variants_dir: Path) -> Variant:
    where = ("variant", vid)
    if not _ID_RE.match(vid):
        raise src.error(f"variant id {vid!r} must be snake_case", where)
    for key in ("title", "default", "reading"):
        if not isinstance(table.get(key), str) or not table[key].strip():
            raise src.error(f"variant {vid} needs a non-empty string {key!r}", where)
    rules = table.get("rules")
    if not isinstance(rules, list) or not rules or not all(isinstance(r, str) for r in rules):
        raise src.error(f"variant {vid} needs a list of rule ids 'rules'", where)
    if not isinstance(table.get("changes_play"), bool):
        raise src.error(f"variant {vid} needs changes_play = true or false", where)
    sources = []
    for s in table.get("source", []):
        if not all(isinstance(s.get(k), str) and s[k] for k in ("seed", "file", "zh", "en")):
            raise src.error(f"each [[variant.{vid}.source]] needs seed, file, zh and en", where + ("source",))
        sources.append(Source(s["seed"], s["file"], s["zh"], s["en"]))
    if not sources:
        raise src.error(f"variant {vid} needs at least one [[variant.{vid}.source]]", where)
    module = variants_dir / f"{vid}.lp"
    if not module.is_file():
        raise src.error(f"variant {vid} has no module rules/variants/{vid}.lp", where)
    ruling = table.get("ruling", "")
    if not isinstance(ruling, str):
        raise src.error(f"variant {vid}: 'ruling' must be a string", where)
    topic = table.get("topic", "other rules")
    if not isinstance(topic, str) or not topic.strip():
        raise src.error(f"variant {vid}: 'topic' must be a non-empty string", where)
    return Variant(vid, table["title"], tuple(rules), table["changes_play"], table["default"], table["reading"],
                   tuple(sources), module, ruling, topic)


def readings_json(readings: Readings) -> dict:
    """What ``referee rules GAME --json`` prints."""
    return {"game": readings.game,
            "readings": [{"name": r.name, "title": r.title, "variants": list(r.variants)}
                         for r in readings.readings.values()],
            "variants": [v.to_json() for v in readings.variants.values()]}


def readings_text(readings: Readings) -> str:
    """What ``referee rules GAME`` prints: each reading with its variants and
    their provenance (seed file, the sentence, its English rendering)."""
    where = (f"referee/games/{readings.game}/readings.toml; docs/translations.md" if readings.variants
             else "no translation readings are encoded for this game")
    out = [f"{readings.game}: {len(readings.readings)} reading{'s' if len(readings.readings) != 1 else ''}, "
           f"{len(readings.variants)} variants ({where})"]
    for reading in readings.readings.values():
        out.append("")
        out.append(f"{reading.name}: {reading.title}")
        if not reading.variants:
            out.append("  the default rules, no variant")
        for vid in reading.variants:
            v = readings.variants[vid]
            play = "changes play" if v.changes_play else "wording only"
            out.append(f"  variant {v.id}: {v.title} (rules {', '.join(v.rules)}; {play})")
            out.append(f"    default: {v.default}")
            out.append(f"    reading: {v.reading}")
            if v.ruling:
                out.append(f"    ruling: {v.ruling}")
            for s in v.sources:
                if s.seed == reading.name.removeprefix("zh-") or not reading.name.startswith("zh-"):
                    zh = " ".join(s.zh.split())
                    out.append(f"    seed {s.seed} ({s.file}): {zh}")
                    out.append(f"      \"{s.en}\"")
    return "\n".join(out) + "\n"
