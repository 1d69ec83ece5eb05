"""Where the generic referee names a game: read by the contract test
(tests/game/test_games_contract.py) and again while the example game is
installed (tests/game/test_example_game.py)."""

from __future__ import annotations

import re
from pathlib import Path

from referee.game.registry import game_class, known_games

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "referee"


def generic_files() -> list[Path]:
    """The generic modules, and the generic grammar, rule program and schema.
    The page (referee/service/web/) is left out: it shows users an example transcript."""
    kept = []
    for p in PACKAGE.rglob("*"):
        parts = p.relative_to(PACKAGE).parts
        if p.is_file() and p.suffix in (".py", ".lark", ".lp", ".json") and parts[0] != "games" and parts[:2] != ("service", "web"):
            kept.append(p)
    return sorted(kept)


def shipped_games() -> list[str]:
    """The games of referee/games/: a game another package adds (the tests'
    example, tests/game/test_example_game.py) may have a name that is a common word
    or a part of one ('nim' is in 'minimum')."""
    shipped = [g for g in known_games() if game_class(g).__module__.startswith("referee.games.")]
    assert {"cyclades", "luna"} <= set(shipped)
    return shipped


def lines_naming_a_shipped_game() -> list[str]:
    """Every line of a generic file that names a shipped game, as ``path:line: text``."""
    names = re.compile("|".join(re.escape(g) for g in shipped_games()), re.IGNORECASE)
    files = generic_files()
    assert len(files) > 20
    found = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if names.search(line):
                found.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    return found
