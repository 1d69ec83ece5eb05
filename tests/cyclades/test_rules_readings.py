"""Cyclades rules that exist only in a translation's reading (docs/translations.md):
a variant module may add a violation id of its own.

Rule battle_retreat_units (variant retreat_needs_several, seed 003); rules
creature_top_of_deck (variant creature_left_on_deck, seed 001) and
build_one_island (variant buildings_one_island, seed 000). Also the variants
that change a default rule's outcome: zeus_replace_slides and
metropolis_demolish_any (seed 000).
"""

from __future__ import annotations

from conftest import buildings, gold, metropolises, play, track, troops

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


# -- variant creature_left_on_deck (seed 001, reading zh-001) ----------------------------------

LEFT_OVER = """
    cycle 1
    creatures: Pegasus
    gods: Ares, Poseidon / Zeus, Athena
    Ann: 2 on Ares
    Bob: 2 on Poseidon
    Cy: Apollo
    Cy/Apollo: prosperity on IS3
    cycle 2
"""


def test_creature_left_on_deck_the_unbought_card_is_one_of_the_two_drawn_in_cycle_2():
    """Rules creature_track_refresh and creature_top_of_deck, variant creature_left_on_deck (seed 001):
    "第一回合翻一张怪物卡放在4金币那格，若当回合没人购买，则把它面朝上放回牌库顶， 第二回合抽两张各放在三、四元的位置" --
    the unbought Pegasus goes back face up on top of the deck and two cards are drawn for the 3- and 4-GP
    slots; the seed does not say which goes where, so it may be on either. The English reading slides it to
    the 3-GP slot."""
    on_top = play(LEFT_OVER + "creatures: Pegasus, Harpy", players=3, rules="zh-001")
    assert on_top.problems == []
    assert track(on_top.after("creatures: Pegasus, Harpy")) == {4: "pegasus", 3: "harpy"}
    below = play(LEFT_OVER + "creatures: Harpy, Pegasus", players=3, rules="zh-001")
    assert below.problems == [] and track(below.after("creatures: Harpy, Pegasus")) == {4: "harpy", 3: "pegasus"}
    # it must come back: with another card on the 4-GP slot, the 3-GP slot must show it
    lost = play(LEFT_OVER + "creatures: Harpy, Griffon", players=3, rules="zh-001")
    assert lost.problems == [("creatures: Harpy, Griffon", ("creature_top_of_deck",))]
    # the English reading: the Pegasus slid to 3 GP and is not in the deck
    en = play(LEFT_OVER + "creatures: Pegasus, Harpy", players=3)
    assert en.problems == [("creatures: Pegasus, Harpy", ("creature_not_in_deck",)),
                           ("creatures: Pegasus, Harpy", ("creature_track_slide",))]
    assert play(LEFT_OVER + "creatures: Harpy, Pegasus", players=3).problems == []


# -- variant buildings_one_island (seed 000, reading zh-000) -----------------------------------

ARES_TURN = """
    cycle 1
    creatures: Pegasus
    gods: Ares, Poseidon / Zeus, Athena
    Ann: 2 on Ares
    Bob: 2 on Poseidon
    Cy: Apollo
"""


def test_build_one_island_a_turns_buildings_go_on_one_island():
    """Rule build_one_island, variant buildings_one_island (seed 000): "在自己的回合中，玩家可以在同時(shí)建設(shè)復(fù)數(shù)的同類建筑。
    （同一個(gè)島上）每個(gè)建筑2金幣。" -- several buildings of one kind in a turn, on the same island. The English
    reading (and seed 003, "即使在相同岛屿") lets them go on any of the player's islands."""
    two_islands = ARES_TURN + "Ann/Ares: fortress on IS1\nAnn/Ares: fortress on IS7"
    zh = play(two_islands, players=3, rules="zh-000")
    assert zh.problems == [("Ann/Ares: fortress on IS7", ("build_one_island",))]
    assert play(two_islands, players=3).problems == []
    # two on the island of the first are fine in both readings
    one_island = ARES_TURN + "Ann/Ares: fortress on IS7\nAnn/Ares: fortress on IS7"  # IS7 has 4 spaces
    assert play(one_island, players=3, rules="zh-000").problems == []
    # the condition lasts one turn: in cycle 2 Ann may build on another island
    later = (two_islands.replace("Ann/Ares: fortress on IS7", "Ann/Ares: pass\nBob/Poseidon: pass\n"
                                 "Cy/Apollo: prosperity on IS3")
             + "\ncycle 2\ncreatures: Harpy, Pegasus\ngods: Zeus, Athena\nCy: Apollo\nBob: 1 on Athena\n"
               "Ann: 1 on Zeus\nAnn/Zeus: temple on IS7")
    assert play(later, players=3, rules="zh-000").problems == []


# -- variant metropolis_demolish_any (seed 000, reading zh-000) --------------------------------

FOUR_BUILDINGS = """
    position: temple IS1; temple IS7; port IS7; university IS7
    cycle 1
    creatures: Pegasus
    gods: Ares, Poseidon / Zeus, Athena
    Ann: 2 on Ares
    Bob: 2 on Poseidon
    Cy: Apollo
    Ann/Ares: fortress on IS7
    Ann/Ares: discard temple IS7; discard port IS7; discard university IS7; discard fortress IS7
    Ann/Ares: metropolis on IS1
    Ann/Ares: demolish temple
"""


def test_metropolis_demolish_any_the_buildings_metropolis_may_go_on_a_full_island():
    """Rule metropolis_room, variant metropolis_demolish_any (seed 000): "之后在自己所控制的島嶼的一個(gè)空位放置一個(gè)大城市。
    若是當(dāng)?shù)貨]有空間，那么玩家必須強(qiáng)制破壞掉一個(gè)或者多個(gè)自己的建筑來讓位給自己的大城市。" -- if there is no room *there*,
    the player demolishes: the metropolis of the four buildings may go on a full island of the player's although
    another has room. The English reading demolishes only when no island has room."""
    zh = play(FOUR_BUILDINGS, players=3, rules="zh-000")
    assert zh.problems == []
    assert metropolises(zh.after("Ann/Ares: demolish temple")) == ["IS1"]
    assert buildings(zh.after("Ann/Ares: demolish temple"), "IS1") == {}
    en = play(FOUR_BUILDINGS, players=3)
    assert en.problems == [("Ann/Ares: metropolis on IS1", ("metropolis_room",))]


def test_metropolis_demolish_any_not_for_the_philosophers_metropolis():
    """Variant metropolis_demolish_any (seed 000) reads only the sentence on the four buildings: for the
    philosophers' metropolis seed 000 says "將其放置在自己島的一個(gè)空位上，若無空間，強(qiáng)制破壞建筑放置" (if there is no
    space, demolish), as the default reading: rule metropolis_room holds under zh-000 too."""
    text = """
        position: Ann 3 philosophers; temple IS1
        cycle 1
        creatures: Pegasus
        gods: Athena, Poseidon / Zeus, Ares
        Ann: 2 on Athena
        Bob: 2 on Poseidon
        Cy: Apollo
        Ann/Athena: philosopher
        Ann/Athena: metropolis on IS1
    """
    for rules in ("en", "zh-000"):
        assert play(text, players=3, rules=rules).problems == [("Ann/Athena: metropolis on IS1", ("metropolis_room",))]
