"""The rules quoted in the tests' docstrings say what the catalogue says.

A test docstring quotes a rule one way: ``Rule <id>: "<text>"``, the text in
double quotes being the catalogue's words for the rule (its English, or the
sentence of one of its translations), with ``...`` or ``…`` where words are left
out; line breaks and spaces do not count, nor spaces beside Chinese characters.
Anything else written after ``Rule <id>:`` is a paraphrase, and a paraphrase is
not in Chinese (a Chinese sentence is a quote, so it goes in quotes). A quote
of a rulebook translation in double quotes (Chinese words) is the seed's own
words: the seed named last before it in the docstring (``seed 002``), or one of
the seeds (skipped when the sibling folder ``shared/seeds`` is not there).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from referee.game.catalogue import RuleEntry, load_catalogue
from referee.game.registry import known_games

TESTS = Path(__file__).resolve().parents[1]
SEEDS = TESTS.parent.parent / "shared" / "seeds"

needs_seeds = pytest.mark.skipif(not SEEDS.is_dir(), reason=f"the seed translations are not present at {SEEDS}")

RULE_QUOTE = re.compile(r'\b[Rr]ule ([a-z][a-z0-9_]*): "([^"]*)"')
UNQUOTED_CHINESE = re.compile(r'\b[Rr]ule ([a-z][a-z0-9_]*): ([^"\n]*[\u3400-\u9fff][^\n]*)')
QUOTED = re.compile(r'"([^"]*)"')
SEED_NAMED = re.compile(r"\bseed (\d{3})\b")
CHINESE = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
LEFT_OUT = re.compile(r"\.\.\.|…")


@dataclass(frozen=True)
class Docstring:
    path: Path
    line: int
    text: str

    def where(self) -> str:
        return f"tests/{self.path.relative_to(TESTS)}:{self.line}"


@cache
def docstrings() -> tuple[Docstring, ...]:
    """Every docstring of every test file (modules, classes, functions)."""
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                text = ast.get_docstring(node, clean=False)
                if text:
                    found.append(Docstring(path, getattr(node, "lineno", 1), text))
    return tuple(found)


def plain(text: str) -> str:
    """``text`` with its spaces made single and none beside a Chinese character."""
    text = " ".join(text.split())
    return re.sub(rf" ?({CHINESE.pattern}) ?", r"\1", text)


def is_quoted_in(quote: str, source: str) -> bool:
    """The parts of ``quote`` between the marks of words left out occur in
    ``source``, in order."""
    source, position = plain(source), 0
    parts = [plain(part) for part in LEFT_OUT.split(quote) if part.strip()]
    for part in parts:
        position = source.find(part, position)
        if position < 0:
            return False
        position += len(part)
    return bool(parts)


def entries(rule_id: str, path: Path) -> list[RuleEntry]:
    """The catalogue entries of ``rule_id``: of the game of the test's folder
    (tests/games/<game>/), else of every game that has the rule."""
    parts = path.relative_to(TESTS).parts
    games = [parts[1]] if parts[0] == "games" else sorted(known_games())
    return [entry for game in games if (entry := load_catalogue(game).get(rule_id)) is not None]


def test_every_quoted_rule_says_what_the_catalogue_says():
    quotes = wrong = 0
    mismatches = []
    for doc in docstrings():
        for match in RULE_QUOTE.finditer(doc.text):
            rule_id, quote = match.groups()
            quotes += 1
            found = entries(rule_id, doc.path)
            if not found:
                mismatches.append(f"{doc.where()}: rule {rule_id} is in no catalogue")
            elif not any(is_quoted_in(quote, entry.sentence(reading)) for entry in found for reading in entry.readings):
                wrong += 1
                texts = "\n    ".join(f"{reading}: {entry.sentence(reading)}" for entry in found
                                      for reading in entry.readings if entry.sentence(reading))
                mismatches.append(f"{doc.where()}: rule {rule_id} quoted as\n    {' '.join(quote.split())}\n"
                                  f"  the catalogue says\n    {texts}")
    assert quotes > 250, quotes
    assert not mismatches, f"{len(mismatches)} quotes of {quotes} differ:\n" + "\n".join(mismatches)


def test_a_chinese_rule_text_is_quoted():
    unquoted = [f"{doc.where()}: Rule {m.group(1)}: {m.group(2)}" for doc in docstrings()
                for m in UNQUOTED_CHINESE.finditer(doc.text)]
    assert not unquoted, "put the rule's words in double quotes:\n" + "\n".join(unquoted)


@cache
def seed_texts() -> dict[str, str]:
    return {path.name[:3]: path.read_text(encoding="utf-8") for path in sorted(SEEDS.glob("[0-9][0-9][0-9]_*.txt"))}


@needs_seeds
def test_every_quoted_translation_is_in_its_seed():
    seeds, checked, wrong = seed_texts(), 0, []
    for doc in docstrings():
        for match in QUOTED.finditer(doc.text):
            quote = match.group(1)
            if not CHINESE.search(quote):
                continue
            checked += 1
            named = SEED_NAMED.findall(doc.text[: match.start()])
            candidates = [named[-1]] if named else sorted(seeds)
            if not any(is_quoted_in(quote, seeds[seed]) for seed in candidates if seed in seeds):
                wrong.append(f"{doc.where()}: not in seed {' or '.join(candidates)}: {quote}")
    assert checked > 20, checked
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("quote, source, quoted", [
    ("A movement of fleets goes at most 3 spaces.", "A movement of fleets goes at most 3 spaces.", True),
    ("A movement of fleets\n    goes at most 3 spaces.", "A movement of fleets goes at most 3 spaces.", True),
    ("A movement ... 3 spaces.", "A movement of fleets goes at most 3 spaces.", True),
    ("... 3 spaces. ... A movement", "A movement of fleets goes at most 3 spaces.", False),
    ("A movement of fleets goes at most 4 spaces.", "A movement of fleets goes at most 3 spaces.", False),
    ("3 个学徒均为不可用状态", "此时3个学徒均为不可用状态。", True),
    ("...", "anything", False),
])
def test_a_quote_is_found_in_order_with_its_gaps(quote, source, quoted):
    assert is_quoted_in(quote, source) is quoted
