"""The game-words test: the generic modules (everything under referee/ but
referee/games/) name no game notion — in identifiers, strings, docstrings and
comments alike. A game's notions live in its own package (issue 28)."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "referee"

#: The notions of the shipped games, and the games' names: none is generic.
GAME_WORDS = ("god", "cycle", "island", "sea", "metropolis", "novice", "shrine", "creature", "temple", "troop",
              "fleet", "priest", "philosopher", "zeus", "athena", "apostate", "moon", "board", "cyclades", "luna")
_FORMS = {w: w for w in GAME_WORDS} | {w + "s": w for w in GAME_WORDS} | {"metropolises": "metropolis"}

#: Text a user types or reads that names a game word and must stay as it is
#: (behaviour does not change); it is taken out of a line before the line is read.
USER_FACING = (
    # the 'board:' header line, the --board option, the `referee board` command and the
    # /api/.../board routes: what users write and call, kept as they are
    re.compile(r"--board\b|(?<![\w-])board:|[\"']board[\"']|/board\b|\bBOARD\b|\bboard_line\b"),
    # the messages "X has no board picture yet", "X has no board files yet"
    re.compile(r"[\"']board (picture|files)[\"']"),
    # the project's own description: "a rules referee for board games"
    re.compile(r"\bboard games\b"),
    # the report's fields cycle and cycles (its JSON keys) as a session fills them
    re.compile(r"\bcycles?="),
)
#: Files (or folders) that keep a game word for a reason of their own.
KEPT = (
    ("referee/ask/schema/report.schema.json", {"cycle", "creature", "board"},
     "the report's JSON schema does not change: its keys 'cycle' and 'cycles', their descriptions"),
    ("referee/ask/report.py", {"cycle"},
     "the report's fields cycle and cycles are its JSON keys (the schema does not change)"),
    ("referee/cli.py", {"board"},
     "the command line: the --board option, the `referee board` command and their help texts"),
    ("referee/service/", {"board"},
     "the service's interface: the /api/board routes, their model BoardRequest (the OpenAPI schema)"),
    ("referee/base/errors.py", {"board"}, "BoardError and its code 'board' (docs/errors.md)"),
    ("referee/run/worker.py", {"board"}, "an archive record's board file, the --board option's value"),
)


def _kept(path: Path, word: str) -> bool:
    name = path.relative_to(REPO).as_posix()
    return any((name == where or where.endswith("/") and name.startswith(where)) and _FORMS[word] in words
               for where, words, _ in KEPT)


def generic_files() -> list[Path]:
    """The generic modules, and the generic grammar, rule program and schema.
    The page (referee/service/web/) is left out: it shows users an example transcript."""
    kept = []
    for p in PACKAGE.rglob("*"):
        parts = p.relative_to(PACKAGE).parts
        if p.is_file() and p.suffix in (".py", ".lark", ".lp", ".json") and parts[0] != "games" \
                and parts[:2] != ("service", "web"):
            kept.append(p)
    return sorted(kept)


def words_of(line: str) -> list[str]:
    """The words of a line, identifiers split at '_' and at capitals
    (``PeriodStart``: period, start), lower-cased."""
    for pattern in USER_FACING:
        line = pattern.sub(" ", line)
    return [w.lower() for run in re.findall(r"[A-Za-z]+", line)
            for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", run)]


def test_the_word_splitter():
    assert words_of("class PeriodStart: # a Cycle_start god_tile IS4") == [
        "class", "period", "start", "a", "cycle", "start", "god", "tile", "is"]
    assert "board" not in words_of('click.option("--board", "data_file")  # the board: line')
    assert words_of("research seat") == ["research", "seat"]


def test_no_generic_module_names_a_game_notion():
    assert len(generic_files()) > 20
    found = []
    for path in generic_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            named = sorted({w for w in words_of(line) if w in _FORMS and not _kept(path, w)})
            if named:
                found.append(f"{path.relative_to(REPO)}:{number}: {', '.join(named)}: {line.strip()}")
    assert not found, f"{len(found)} lines name a game notion:\n" + "\n".join(found)
