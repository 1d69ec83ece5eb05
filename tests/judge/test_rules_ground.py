"""Every game's rule programs, with every variant module, ground without a
clingo warning (docs/architecture.md, "The contract between Python and the rule
programs").

The referee grounds with clingo's warnings off (they would reach a user's
terminal), so a misspelt predicate would be an atom that is never true and a
rule using it would silently never fire. Here the programs are grounded with
the warnings on, over real positions of the shipped games: the static facts of
a whole game's header, and the state and the move of several of its steps,
with ``want(legal)``, once in the default reading and once with every variant
module switched on. Any message fails the test (an atom that occurs in no rule
head, an undefined operation, an unsafe variable...), except the few listed in
``ALLOWED``, each with the reason it is intended.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.base.terms import Fn, fn
from referee.game.notation import read_transcript
from referee.game.readings import load_readings, rule_files
from referee.game.registry import known_games
from referee.judge.engine import grounding_messages
from referee.judge.visitor import Referee

REPO = Path(__file__).resolve().parents[2]

#: The inputs of the contract (rules.lp) that a position may lack: the state,
#: the move judged, the request for every legal move, the variant modules on.
INPUTS = {("true", 1), ("does", 2), ("want", 1), ("variant_active", 1)}

#: Intended messages: (file name, the text of the aggregate on the message's
#: line, why). Only "global variable in tuple of aggregate element" is allowed.
ALLOWED = (
    ("metropolis.lp", "T : building_type(T) }",
     "the type discarded (or built) now joins the set of types counted: the global T is the element"),
    ("round.lp", "#count{ I : shrine(P,I) }",
     "whether P has a shrine on the priestess's island I (0 or 1), added to P's novices there"),
)
#: The '#max{ A; B }' / '#min{ A; B }' idiom (the larger or smaller of two
#: values: elements with no condition) is intended wherever it is.
_MIN_MAX = re.compile(r"#(?:max|min)\{[^:{}]*\}")

#: Steps sampled in each game: the first, some in between, the last.
SAMPLES = 4


def whole_games() -> list[tuple[str, Path]]:
    """Each game's smallest and largest whole shipped game (the static facts
    differ with the player count)."""
    chosen = []
    for game in known_games():
        games = sorted((REPO / "transcripts" / game).glob("game-*p.txt"),
                       key=lambda p: int(re.search(r"(\d+)p", p.name).group(1)))
        chosen += [(game, path) for path in dict.fromkeys([games[0], games[-1]])] if games else []
    return chosen


def intended(message: str) -> bool:
    if not message.startswith("GlobalVariable:"):
        return False
    where = re.search(r"(\S+\.lp):(\d+):(\d+)-", message)
    if where is None:
        return False
    path, line, column = Path(where.group(1)), int(where.group(2)), int(where.group(3))
    text = path.read_text(encoding="utf-8").splitlines()[line - 1]
    if any(m.start() < column <= m.end() for m in _MIN_MAX.finditer(text)):
        return True
    return any(path.name == name and snippet in text for name, snippet, _ in ALLOWED)


def test_every_game_has_a_whole_game_to_ground_over():
    assert {game for game, _ in whole_games()} == set(known_games())


@pytest.mark.parametrize("game, path", whole_games(), ids=lambda v: v if isinstance(v, str) else v.name)
def test_rules_and_variants_ground_without_a_warning(game, path):
    referee = Referee(read_transcript(path))
    files = rule_files(game)
    assert referee.engine.program_files == files  # every variant module is loaded, as the referee loads them
    steps = referee.run(close=False).steps
    picked = sorted({round(i * (len(steps) - 1) / (SAMPLES - 1)) for i in range(SAMPLES)})
    static = [f for f in referee.rules.static if f.name != "variant_active"]
    every_variant = [fn("variant_active", Fn(v)) for v in load_readings(game).variants]
    for index in picked:
        step = steps[index]
        position = [fn("true", f) for f in step.before] + [fn("does", step.role, step.move), fn("want", Fn("legal"))]
        for variants in ([], every_variant):
            messages = [m for m in grounding_messages(files, static + variants + position, INPUTS)
                        if not intended(m)]
            assert not messages, (f"{path.name}, step {index + 1} ({step.move}),"
                                  f" {'every variant' if variants else 'en'}:\n" + "\n".join(messages))


def test_a_misspelt_predicate_or_an_unsafe_rule_is_caught(tmp_path):
    """The check can fail: a rule whose body names a predicate nothing defines;
    a rule with an unsafe variable; the min/max idiom is let through."""
    program = tmp_path / "slip.lp"
    program.write_text("ok(X) :- player(X).\nbad(X) :- plyer(X).\n", encoding="utf-8")
    messages = grounding_messages([program], [fn("player", "Ann")])
    assert len(messages) == 1 and "plyer(X)" in messages[0] and "slip.lp:2" in messages[0]
    unsafe = tmp_path / "unsafe.lp"
    unsafe.write_text("bad(X) :- not player(X).\n", encoding="utf-8")
    assert any("unsafe" in m for m in grounding_messages([unsafe], [fn("player", "Ann")]))
    idiom = tmp_path / "idiom.lp"
    idiom.write_text("most(P,C) :- gold(P,G), C = #max{ 1; G - 2 }.\nall(P,C) :- gold(P,G), C = #count{ G : gold(P,G) }.\n",
                     encoding="utf-8")
    messages = grounding_messages([idiom], [fn("gold", "Ann", 5)])
    assert [m for m in messages if "idiom.lp:1:" in m] and all(intended(m) for m in messages if "idiom.lp:1:" in m)
    assert [m for m in messages if "idiom.lp:2:" in m] and not any(intended(m) for m in messages if "idiom.lp:2:" in m)
