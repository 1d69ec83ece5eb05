"""Cyclades rules that exist only in a translation's reading (docs/translations.md):
a variant module may add a violation id of its own.

Rule battle_retreat_units (variant retreat_needs_several, seed 003). Rules
minotaur_no_retreat (variant minotaur_may_retreat, seed 000), polyphemus_closed
(variant polyphemus_seas_open, seed 000) and chiron_protects (variant
chiron_blocks_pegasus_departure, seed 000), on board figures5 (test_rules_figures.py).
Rules territory_marker and island_control (variant territory_marker_income_only, seed 001).
"""

from __future__ import annotations

import pytest

from conftest import count, fluents, gold, holds, play, troops
from test_rules_creature_effects import first_cycle

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


# -- the figures under seed 000's reading (board figures5, test_rules_figures.py) ---------------

MINOTAUR_ATTACK = """
    Ann/Zeus: buy Minotaur: IS11
    Cy/Ares: 2 troops on IS13; 3 troops IS13 -> IS11
    battle: Cy 0, Dan 3
    Dan: retreat to IS6
"""


def figures_000(card: str, actions: str, rules: str = "zh-000"):
    return play(first_cycle(card, actions), board="figures5", rules=rules)


def test_minotaur_no_retreat_seed_000_lets_the_defender_retreat():
    """Rule minotaur_no_retreat, variant minotaur_may_retreat: seed 000 describes the Minotaur only as
    "等于2個(gè)軍隊(duì)的戰(zhàn)力，最后才會(huì)被消滅" ('worth 2 troops, destroyed last'), and its battles say "一輪戰(zhàn)斗后，
    防御者撤退" ('after a round the defender retreats'). Dan's troop leaves IS11 for IS6; the Minotaur stays and
    fights on alone for Dan: the battle goes on, Cy decides next. The English reading forbids the retreat."""
    assert figures_000("Minotaur", MINOTAUR_ATTACK, rules="en").problems == [
        ("Dan: retreat to IS6", ("minotaur_no_retreat",))]
    g = figures_000("Minotaur", MINOTAUR_ATTACK + "Cy: stay\nbattle: Cy 2, Dan 0")
    assert g.problems == []
    after = g.after("Dan: retreat to IS6")
    assert count(after, "troops", "Dan", "IS11") == 0 and count(after, "troops", "Dan", "IS6") == 2
    assert fluents(after, "battle") == [("land", "IS11", "Cy", "Dan")] and holds(after, "battle_turn", "Cy")
    assert fluents(after, "figure") == [("minotaur", "IS11", "Ann", 1)]
    # the Minotaur alone (0 + 2 + 0) loses to Cy's 2 troops (2 + 2): he falls last, and Cy takes IS11
    end = g.after("battle: Cy 2, Dan 0")
    assert fluents(end, "battle") == [] and fluents(end, "figure") == []
    assert count(end, "troops", "Cy", "IS11") == 2 and not holds(end, "marker", "IS11", "Dan")


def test_minotaur_no_retreat_seed_000_the_island_stays_the_defenders_when_the_attacker_retreats():
    """Variant minotaur_may_retreat: with Dan's troop gone, Cy (who lost one of his 3 troops) retreats from the Minotaur alone: IS11 stays
    Dan's with his territory marker (rule minotaur_defends), and the Minotaur, with no troops of Dan's left
    to take along, cannot retreat (minotaur_no_retreat)."""
    g = figures_000("Minotaur", MINOTAUR_ATTACK + "Cy: retreat to IS13")
    assert g.problems == []
    assert holds(g.final, "marker", "IS11", "Dan") and count(g.final, "troops", "Cy", "IS13") == 2  # 3, one lost
    alone = figures_000("Minotaur", MINOTAUR_ATTACK + "Cy: stay\nbattle: Cy 0, Dan 3\nDan: retreat to IS6\n"
                                                     "Cy: retreat to IS13")
    assert alone.problems == [("Dan: retreat to IS6", ("minotaur_no_retreat",))]
    assert holds(alone.final, "marker", "IS11", "Dan") and count(alone.final, "troops", "Cy", "IS13") == 1


POLYPHEMUS = "Dan/Poseidon: fleet on E8; buy Polyphemus: IS9, sink E7; fleet E8 -> E7"


def test_polyphemus_closed_seed_000_leaves_the_seas_open():
    """Rule polyphemus_closed, variant polyphemus_seas_open: seed 000 says only "鄰接該島嶼海域的所有船只退后一步
    ... 如船只無法后退，則被消滅" ('all ships next to the island step back one space ... a ship that cannot is
    destroyed'), not that the spaces stay closed. Dan sinks Bob's fleet on E7, then sails into E7: legal
    under zh-000, illegal in the English reading."""
    assert figures_000("Polyphemus", POLYPHEMUS, rules="en").problems == [(POLYPHEMUS, ("polyphemus_closed",))]
    g = figures_000("Polyphemus", POLYPHEMUS)
    assert g.problems == []
    assert count(g.after(POLYPHEMUS), "fleets", "Dan", "E7") == 1


def test_polyphemus_push_seed_000_still_steps_back_from_the_island():
    """Variant polyphemus_seas_open keeps rule polyphemus_push: the fleets "退后一步" ('step back one space'),
    away from the island: Cy's fleet on F5 may not be pushed to F6, also next to IS4."""
    line = "Ann/Zeus: buy Polyphemus: IS4, fleet F5 -> F6, fleet F6 -> G5"
    assert figures_000("Polyphemus", line).problems == [(line, ("polyphemus_push",))]


CHIRON_CYCLE2 = """
    cycle 2
    creatures: Pegasus, Giant
    gods: Zeus, Athena, Ares, Poseidon
    Eve: 1 on Zeus
    Dan: 1 on Athena
    Cy: 1 on Ares
    Bob: 1 on Poseidon
    Ann: Apollo
"""


@pytest.mark.parametrize("line, zh_000, en", [
    ("Cy/Ares: buy Pegasus: troop IS4 -> IS13", ("chiron_protects",), None),  # away from Chiron's island
    ("Cy/Ares: buy Pegasus: troop IS13 -> IS4", ("chiron_protects",), ("chiron_protects",)),  # onto it
    ("Cy/Ares: buy Pegasus: troop IS13 -> IS8", None, None),  # elsewhere
])
def test_chiron_protects_seed_000_no_pegasus_on_his_island_either_way(line, zh_000, en):
    """Rule chiron_protects, variant chiron_blocks_pegasus_departure: seed 000 says "對該島嶼不得使用巨人、人面鳥、
    飛馬" ('the Giant, the Harpy, the Pegasus may not be used on that island'), with no direction. Ann's Chiron
    stands on Cy's IS4 until her actions in cycle 2: Cy's troops may neither fly away from IS4 nor fly there;
    a flight elsewhere is legal. The English reading forbids only the landing."""
    body = first_cycle("Chiron", "Ann/Zeus: buy Chiron: IS4") + CHIRON_CYCLE2 + line
    assert play(body, board="figures5", rules="zh-000").problems == ([(line, zh_000)] if zh_000 else [])
    assert play(body, board="figures5").problems == ([(line, en)] if en else [])


# -- territory markers under seed 001's reading ----------------------------------------------------

MARKED = """
    position: Ann marker IS4
    cycle 1
    creatures: Pegasus
    gods: Ares, Poseidon / Zeus, Athena
    Ann: 2 on Ares
    Bob: 2 on Poseidon
    Cy: Apollo
    Ann/Ares: troop on IS4
"""


def test_territory_marker_seed_001_keeps_the_income_only():
    """Rules territory_marker, island_control, variant territory_marker_income_only: seed 001 says "若你把军队全
    移动到其他岛屿，原岛屿的收入仍属与你，直到有其他玩家前来占领" ('the island's income still belongs to you until
    another player comes to occupy it') and "增加的军队...必须放置在你占领的岛屿上" ('new troops must be placed on
    islands you occupy'). Ann's marker on the empty IS4 (2 prosperity) pays her its income under both readings;
    under seed 001's she may not recruit there, as the island is no longer hers."""
    zh, en = play(MARKED, players=3, rules="zh-001"), play(MARKED, players=3)
    assert zh.problems == [("Ann/Ares: troop on IS4", ("recruit_troop_place",))] and en.problems == []
    income = zh.when("income").after, en.when("income").after
    assert gold(income[0], "Ann") == gold(income[1], "Ann") == 5 + 2 + 2  # IS1's 2 and IS4's 2 (IS7: 0)
