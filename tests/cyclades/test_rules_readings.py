"""Cyclades rules that exist only in a translation's reading (docs/translations.md):
a variant module may add a violation id of its own.

Rule battle_retreat_units (variant retreat_needs_several, seed 003).
"""

from __future__ import annotations

from conftest import play, troops

LANDING = """
    cycle 1
    creatures: Pegasus
    gods: Ares, Poseidon / Zeus, Athena
    Ann: 2 on Ares
    Bob: 2 on Poseidon
    Cy: Apollo
    Ann/Ares: troop on IS1; troop on IS1; 3 troops IS1 -> IS2
    battle: Ann 0, Bob 3
"""


def test_battle_retreat_units_no_retreat_once_a_side_is_down_to_one_unit():
    """Rule battle_retreat_units: "Only under seed 003's reading (variant retreat_needs_several): a side may
    retreat only while both sides still have two or more units in the battle. The default reading has no such
    condition." """
    g = play(LANDING + "Ann: retreat to IS1", players=3, rules="zh-003")  # 2 troops against Bob's 1
    assert g.problems == [("Ann: retreat to IS1", ("battle_retreat_units",))]
    assert play(LANDING + "Ann: retreat to IS1", players=3).problems == []  # the English reading allows it
    # with two troops on each side (Bob's second from a starting position), seed 003 allows it too
    both = play("position: Bob troop IS2\n" + LANDING + "Ann: retreat to IS1", players=3, rules="zh-003")
    assert both.problems == []
    assert troops(both.after("Ann: retreat to IS1"), "Ann")["IS1"] == 2
