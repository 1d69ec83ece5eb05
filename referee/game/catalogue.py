"""The rule catalogue of a game: every rule id with its English text, the
sentence of each translation that states it, and a report message.

The rule programs name the rule a move breaks by an id (``violation(Id, R, M,
Args)``); this module turns the id into words.  A game's catalogue is the
resource ``catalogue.toml`` of the game's package (format: docs/rules.md),
read by ``load_catalogue(game)``; here one written out::

    >>> cat = parse_catalogue('''
    ... [rule.offering_outbid]
    ... title = "Outbidding"
    ... en = "Each offering must be higher than the one it replaces."
    ... message = "{player} must offer more than the standing {0} GP"
    ... ''')
    >>> entry = cat.rule("offering_outbid")
    >>> entry.format("Ann", (5,))
    'Ann must offer more than the standing 5 GP'
    >>> entry.sentence("en") == entry.en
    True

This module reads data only; it imports neither clingo nor lark.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from referee.base.errors import DataError, ReadingError
from referee.game.registry import UnknownGameError, game_class, game_package, package_folder
from referee.text.toml_source import TomlSource

__all__ = ["Catalogue", "RuleEntry", "Translation", "load_catalogue", "parse_catalogue", "ENGLISH"]

#: The reading name of the English text (the default reading).
ENGLISH = "en"

_ID_RE = re.compile(r"[a-z][a-z0-9_]*\Z")
_GAME_RE = re.compile(r"[a-z][a-z0-9_]*\Z")
_READING_RE = re.compile(r"[a-z]{2}(?:-[A-Za-z0-9]+)*\Z")
# A message template: {player}, {0}, {1}... and {{ }} for literal braces.
_FIELD_RE = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")
_PLACEHOLDER_RE = re.compile(r"player\Z|[0-9]+\Z")

_RULE_KEYS = {"title", "en", "note", "message", "screened", "generic", "within"}
_TRANSLATION_KEYS = {"seed", "file", "script", "kind"}
_SCRIPTS = {"traditional", "simplified"}


# ---------------------------------------------------------------------------
# Value types
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Translation:
    """A translation of the rulebook, named by its reading, e.g. 'zh-001'."""

    reading: str
    seed: str
    file: str
    script: str
    kind: str


@dataclass(frozen=True)
class RuleEntry:
    """One rule of the catalogue.

    ``translations`` maps each reading (e.g. 'zh-001') to the sentence of that
    translation that states the rule, "" when the translation is silent on it.
    ``message`` is the report template ({player}, {0}, {1}...), "" for a rule
    that no violation names. ``screened`` (optional) is the message as read by
    someone who may not see the player's hidden figures (another player, when
    the game keeps them behind a screen): a template that leaves out what
    ``message`` states of them; "" when the message states nothing hidden.

    ``generic`` marks a catch-all rule (whose decision it is, which phase a
    move belongs to) that says little the player does not know; ``within``
    names the broader rule this one is a special case of. Both only order the
    breaches of a move (``Catalogue.ordered``): most specific first.
    """

    id: str
    title: str
    en: str
    translations: Mapping[str, str] = field(default_factory=dict, hash=False)
    note: str = ""
    message: str = ""
    screened: str = ""
    generic: bool = False
    within: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.translations, MappingProxyType):
            object.__setattr__(self, "translations", MappingProxyType(dict(self.translations)))

    def __repr__(self) -> str:
        return f"RuleEntry(id={self.id!r}, title={self.title!r})"

    @property
    def readings(self) -> tuple[str, ...]:
        """'en' and the translations' readings, in catalogue order."""
        return (ENGLISH, *self.translations)

    def sentence(self, reading: str) -> str:
        """The rule's text in a reading: the English for 'en', else the sentence
        of that translation ("" when it says nothing about the rule)."""
        if reading == ENGLISH:
            return self.en
        try:
            return self.translations[reading]
        except KeyError:
            known = ", ".join(self.readings)
            raise ReadingError(f"unknown rules reading {reading!r} (known: {known})") from None

    def placeholders(self) -> frozenset[str]:
        """The fields the message templates use: 'player' and argument indexes."""
        return frozenset(m.group(1) for template in (self.message, self.screened)
                         for m in _FIELD_RE.finditer(template) if m.group(1) is not None)

    def format(self, player: object, args: Sequence[object] = (), screened: bool = False) -> str:
        """The report message with {player} and {0}, {1}... filled in.

        ``args`` are the items of the violation's details tuple, as Python
        values (str, int, or objects whose str() reads well).  A missing
        argument shows as '?': a report must never fail on its wording.
        Without a template the message names the rule. ``screened``: for a
        reader who may not see the player's hidden figures (the ``screened``
        template, when the rule has one).
        """
        if not self.message:
            return f"{player} breaks rule {self.id}: {self.title}"
        template = self.screened if screened and self.screened else self.message
        if isinstance(args, (str, bytes)):
            args = (args,)
        values = tuple(args)

        def fill(m: re.Match[str]) -> str:
            token = m.group(0)
            if token in ("{{", "}}"):
                return token[0]
            name = m.group(1)
            if name == "player":
                return str(player)
            if name is not None and name.isdigit():
                index = int(name)
                return str(values[index]) if index < len(values) else "?"
            return token

        return _FIELD_RE.sub(fill, template)


class Catalogue(Mapping[str, RuleEntry]):
    """A game's rule catalogue: a read-only mapping from rule id to RuleEntry."""

    def __init__(self, game: str, source: str, rules: Mapping[str, RuleEntry], translations: Mapping[str, Translation]):
        self.game = game
        self.source = source
        self._rules = MappingProxyType(dict(rules))
        self.translations: Mapping[str, Translation] = MappingProxyType(dict(translations))

    def __repr__(self) -> str:
        return f"<Catalogue {self.game!r}: {len(self._rules)} rules, readings {', '.join(self.readings)}>"

    @property
    def ids(self) -> tuple[str, ...]:
        """Every rule id, in file order."""
        return tuple(self._rules)

    @property
    def readings(self) -> tuple[str, ...]:
        """'en' and the translations' readings."""
        return (ENGLISH, *self.translations)

    def rule(self, rule_id: str) -> RuleEntry:
        """The entry of a rule id; DataError if the catalogue does not document it."""
        try:
            return self._rules[rule_id]
        except (KeyError, TypeError):
            raise DataError(f"{self.source}: rule {rule_id!r} is not in the {self.game} rule catalogue") from None

    def specificity(self, rule_id: str) -> tuple[int, int]:
        """The sort key of a rule among the breaches of one move: a generic rule
        comes after every other; otherwise the deeper a rule is in the chain of
        rules it is a special case of (``within``), the earlier it comes."""
        entry = self._rules.get(rule_id)
        if entry is None:
            return (0, 0)
        depth, seen = 0, {rule_id}
        while entry.within and entry.within in self._rules and entry.within not in seen:
            seen.add(entry.within)
            entry, depth = self._rules[entry.within], depth + 1
        return (1 if self._rules[rule_id].generic else 0, -depth)

    def ordered(self, violations: Sequence[Any]) -> list[Any]:
        """The violations of one move (anything with a ``rule`` id), most specific
        first: a generic breach (``not_in_control``...) after every specific one,
        a special case before the rule it is ``within``; else in the given order."""
        return sorted(violations, key=lambda v: self.specificity(v.rule))

    def __getitem__(self, rule_id: str) -> RuleEntry:
        return self._rules[rule_id]  # KeyError, as a Mapping does; rule() raises DataError

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self._rules

    def __iter__(self) -> Iterator[str]:
        return iter(self._rules)

    def __len__(self) -> int:
        return len(self._rules)


# ---------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def load_catalogue(game: str) -> Catalogue:
    """The rule catalogue shipped with a game (a package resource, so that it
    works from an installed package).  DataError if there is none or if it is
    malformed; the error gives the file and the line."""
    if not isinstance(game, str) or not _GAME_RE.match(game):
        raise DataError(f"no rule catalogue for game {game!r}")
    try:
        package = game_package(game_class(game))  # the game's files are in its package
    except UnknownGameError:
        raise DataError(f"no rule catalogue for game {game!r}: unknown game") from None
    name = f"{package.replace('.', '/')}/catalogue.toml"
    try:
        text = (package_folder(package) / "catalogue.toml").read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(f"no rule catalogue for game {game!r}: {name} is missing") from None
    except UnicodeDecodeError as exc:
        raise DataError(f"{name} is not UTF-8 text (byte {exc.start})") from None
    return parse_catalogue(text, name=name, game=game)


def parse_catalogue(text: str, name: str = "<catalogue>", game: str = "") -> Catalogue:
    """Read a catalogue from TOML text; DataError with ``name`` and the line if
    it is malformed."""
    src = TomlSource(name, text, DataError)
    data = src.parse()
    for key in data:
        if key not in ("translations", "rule"):
            raise src.error(f"unknown table or key {key!r} (expected [translations.<reading>] or [rule.<id>])", (key,))
    translations = _translations(src, data.get("translations"))
    rules_table = data.get("rule")
    if not isinstance(rules_table, dict) or not rules_table:
        raise src.error("the catalogue has no [rule.<id>] tables", ("rule",) if "rule" in data else ())
    rules: dict[str, RuleEntry] = {}
    for rule_id, table in rules_table.items():
        rules[rule_id] = _rule(src, rule_id, table, translations)
    for rule_id, entry in rules.items():
        if entry.within and entry.within not in rules:
            raise src.error(f"rule {rule_id} is within {entry.within!r}, which is not in the catalogue",
                            ("rule", rule_id, "within"))
        if entry.within == rule_id:
            raise src.error(f"rule {rule_id} cannot be within itself", ("rule", rule_id, "within"))
    return Catalogue(game or name, name, rules, translations)


def _translations(src: TomlSource, value: Any) -> dict[str, Translation]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise src.error("[translations] must be a table of [translations.<reading>] tables", ("translations",))
    out: dict[str, Translation] = {}
    for reading, table in value.items():
        where = ("translations", reading)
        if not _READING_RE.match(reading) or reading == ENGLISH:
            raise src.error(f"bad reading name {reading!r} (expected e.g. 'zh-001'; 'en' is the English text)", where)
        if not isinstance(table, dict):
            raise src.error(f"[translations.{reading}] must be a table", where)
        for key in table:
            if key not in _TRANSLATION_KEYS:
                raise src.error(f"unknown key {key!r} in [translations.{reading}] (expected {_one_of(_TRANSLATION_KEYS)})", where + (key,))
        fields = {}
        for key in sorted(_TRANSLATION_KEYS):
            v = table.get(key)
            if not isinstance(v, str) or not v.strip():
                raise src.error(f"[translations.{reading}] needs a non-empty string {key!r}", where + ((key,) if key in table else ()))
            fields[key] = v
        if fields["script"] not in _SCRIPTS:
            raise src.error(f"script must be {_one_of(_SCRIPTS)}, not {fields['script']!r}", where + ("script",))
        out[reading] = Translation(reading=reading, **fields)
    return out


def _rule(src: TomlSource, rule_id: str, table: Any, translations: Mapping[str, Translation]) -> RuleEntry:
    where = ("rule", rule_id)
    if not _ID_RE.match(rule_id):
        raise src.error(f"rule id {rule_id!r} must be snake_case (a-z, 0-9, _)", where)
    if not isinstance(table, dict):
        raise src.error(f"[rule.{rule_id}] must be a table", where)
    for key, v in table.items():
        if key not in _RULE_KEYS and key not in translations:
            expected = _one_of(_RULE_KEYS | set(translations))
            raise src.error(f"unknown key {key!r} in [rule.{rule_id}] (expected {expected})", where + (key,))
        if key == "generic":
            if not isinstance(v, bool):
                raise src.error(f"generic of rule {rule_id} must be true or false", where + (key,))
            continue
        if not isinstance(v, str):
            raise src.error(f"{key} of rule {rule_id} must be a string", where + (key,))
    for key in ("title", "en"):
        if not table.get(key, "").strip():
            raise src.error(f"rule {rule_id} needs a non-empty {key!r}", where + ((key,) if key in table else ()))
    for reading in translations:
        if reading not in table:
            raise src.error(f"rule {rule_id} has no {reading!r} key (write \"\" when that translation says nothing)", where)
    message, screened = table.get("message", ""), table.get("screened", "")
    if screened and not message:
        raise src.error(f"rule {rule_id} has a screened message but no message", where + ("screened",))
    for key, template in (("message", message), ("screened", screened)):
        for m in _FIELD_RE.finditer(template):
            token, name = m.group(0), m.group(1)
            if token in ("{{", "}}"):
                continue
            if name is None or not _PLACEHOLDER_RE.match(name):
                raise src.error(
                    f"{key} of rule {rule_id}: bad placeholder {token!r}"
                    " (use {player}, {0}, {1}..., and {{ }} for braces)",
                    where + (key,),
                )
    return RuleEntry(
        id=rule_id,
        title=table["title"],
        en=table["en"],
        translations={reading: table[reading] for reading in translations},
        note=table.get("note", ""),
        message=message,
        screened=screened,
        generic=table.get("generic", False),
        within=table.get("within", ""),
    )


def _one_of(keys: set[str]) -> str:
    return ", ".join(sorted(keys))
