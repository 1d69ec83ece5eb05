"""Cyclades rules that exist only in a translation's reading (docs/translations.md):
a variant module may add a violation id of its own.

Rule battle_retreat_units (variant retreat_needs_several, seed 003).
"""

from __future__ import annotations

from conftest import gold, play, track, troops

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


# -- variant zeus_replace_slides (seed 000, reading zh-000) -------------------------------------

ZEUS_CYCLE2 = """
    cycle 1
    creatures: Pegasus
    gods: Ares, Poseidon / Zeus, Athena
    Ann: 2 on Ares
    Bob: 2 on Poseidon
    Cy: Apollo
    Cy/Apollo: prosperity on IS3
    cycle 2
    creatures: Harpy, Pegasus
    gods: Zeus, Athena
    Cy: Apollo
    Bob: 3 on Zeus
    Ann: 1 on Athena
"""


def test_zeus_replace_slides_the_dearer_cards_move_one_slot_cheaper():
    """Rule zeus_replace_creature, variant zeus_replace_slides (seed 000): "支付一金幣，玩家可以棄掉一個(gè)可用生物牌，
    并重翻一張牌出來。這個(gè)動(dòng)作可以讓玩家更新一個(gè)可能對其有用的生物，或者將場上某生物價(jià)格降低" -- replacing a creature can
    make another cheaper: the cards dearer than the one discarded slide one slot cheaper and the new card enters at
    4 GP. In the English reading the new card takes the emptied slot."""
    line = "Bob/Zeus: replace Pegasus -> Griffon"
    zh = play(ZEUS_CYCLE2 + line + "\nBob/Zeus: buy Harpy", players=3, rules="zh-000")
    assert track(zh.after(line)) == {4: "griffon", 3: "harpy"}
    assert gold(zh.after(line), "Bob") == 3
    assert zh.problems == []  # the Harpy now costs 3 GP
    en = play(ZEUS_CYCLE2 + line + "\nBob/Zeus: buy Harpy", players=3)
    assert track(en.after(line)) == {4: "harpy", 3: "griffon"}
    assert en.problems == [("Bob/Zeus: buy Harpy", ("creature_affordable",))]
    # replacing the dearest card slides nothing: both readings put the new card on 4 GP
    top = "Bob/Zeus: replace Harpy -> Griffon"
    for rules in ("en", "zh-000"):
        assert track(play(ZEUS_CYCLE2 + top, players=3, rules=rules).after(top)) == {4: "griffon", 3: "pegasus"}
