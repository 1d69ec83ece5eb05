"""The shape of the game contract (referee/game/contract.py): its rules side
has at most 12 members, and a game's rules class adds no public method of its
own; everything else a game may supply is an optional part (referee/game/parts/)."""

from __future__ import annotations

import inspect

from referee.game.contract import Game
from referee.game.registry import game_class, known_games

#: The rules side: identity and parts, set-up, whose decision, the period, the
#: written move, the end. Adding a member here is a change of the contract.
RULES_SIDE = frozenset({
    "name", "period", "parts",                   # identity, files and the optional parts
    "__init__", "players", "static",             # set-up from the header
    "control", "game_step",                      # whose decision; the game role's bookkeeping
    "period_number",                             # the period a state is in
    "resolve",                                   # the move a written line means
    "is_over", "winners",                        # the end
})


def contract_members(cls: type) -> set[str]:
    """The members a game may set or override: the public attributes and methods
    of ``cls`` and its bases (inherited ones included), their annotated
    attributes, and the set-up (``__init__``)."""
    found: set[str] = set()
    for base in inspect.getmro(cls):
        if base is object:
            continue
        found |= {n for n in vars(base) if not n.startswith("_")}
        found |= {n for n in getattr(base, "__annotations__", {}) if not n.startswith("_")}
        if "__init__" in vars(base):
            found.add("__init__")
    return found


def test_the_rules_side_has_at_most_twelve_members():
    members = contract_members(Game)
    assert len(RULES_SIDE) <= 12
    assert members == RULES_SIDE, f"added: {sorted(members - RULES_SIDE)}; gone: {sorted(RULES_SIDE - members)}"


def test_a_game_s_rules_class_overrides_only_the_rules_side():
    """A shipped game's class defines no public method beyond the contract:
    its words, speed, tolerance... are parts (its own attributes, set by its
    set-up, are its data)."""
    for name in known_games():
        cls = game_class(name)
        methods = {n for base in inspect.getmro(cls) if base not in (Game, object)
                   for n, value in vars(base).items()
                   if not n.startswith("_") and (inspect.isfunction(value) or isinstance(value, (classmethod,
                                                                                                  staticmethod)))}
        assert methods <= RULES_SIDE, (name, sorted(methods - RULES_SIDE))
