"""Cyclades rules that exist only in a translation's reading (docs/translations.md):
a variant module may add a violation id of its own.

Rule battle_retreat_units (variant retreat_needs_several, seed 003).
"""

from __future__ import annotations

from conftest import fleets, play, troops

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


# -- variant sylph_total_ten (seed 003) -----------------------------------------------------------

SYLPH = """
    cycle 1
    creatures: Sylph
    gods: Zeus, Ares / Poseidon, Athena
    Ann: 1 on Zeus
    Bob: 2 on Ares
    Cy: Apollo
    Ann/Zeus: buy Sylph: fleet C2 -> D3 -> E4 -> F5 -> F6
"""
SYLPH_FIVE = "Ann/Zeus: use Sylph: fleet G5 -> H4 -> I3 -> J2 -> I2 -> H2"


def test_sylph_move_variant_sylph_total_ten_several_movements_share_10_spaces():
    """Rule sylph_move, variant sylph_total_ten: seed 003 says "你可以移动你的舰队总共10格。 (移动方式等同波赛顿的
    能力)" (you may move your fleets a total of 10 spaces, moved as with Poseidon). Under zh-003 Ann's fleet from
    C2 goes 4 spaces and her fleet from G5 5 more after the one purchase; the English reading has one movement
    per Sylph (the second use no longer follows the purchase)."""
    g = play(SYLPH + SYLPH_FIVE, players=3, rules="zh-003")
    assert g.problems == []
    assert fleets(g.after(SYLPH_FIVE), "Ann") == {"F6": 1, "H2": 1}
    assert play(SYLPH + SYLPH_FIVE, players=3).problems == [(SYLPH_FIVE, ("creature_effect_at_once",))]


def test_sylph_move_variant_sylph_total_ten_not_beyond_10_in_all():
    """Rule sylph_move, variant sylph_total_ten: "... 总共10格 ..." — after 4 spaces, 6 are left: a second movement
    of 7 breaks rule sylph_move ("at most 6"); one of 6 is legal, and then the power is spent (rule
    creature_effect_at_once)."""
    seven = "Ann/Zeus: use Sylph: fleet G5 -> H4 -> I3 -> J2 -> I2 -> H2 -> H1 -> H2"
    g = play(SYLPH + seven, players=3, rules="zh-003")
    assert g.problems == [(seven, ("sylph_move",))]
    assert g.report.problems[0].breaches[0].message == (
        "Ann cannot move fleets that far with the Sylph: at most 6 spaces, at least one")
    six = "Ann/Zeus: use Sylph: fleet G5 -> H4 -> I3 -> J2 -> I2 -> H2 -> H1"
    third = "Ann/Zeus: use Sylph: fleet F6 -> F5"
    g = play(SYLPH + six + "\n" + third, players=3, rules="zh-003")
    assert g.problems == [(third, ("creature_effect_at_once",))]


def test_sylph_move_variant_sylph_total_ten_alternatives_list_the_spaces_left():
    """Rule sylph_move, variant sylph_total_ten: "... 总共10格 ..." — after the first movement the alternatives
    under zh-003 are further movements from each of Ann's spaces within the 6 spaces left; the English reading
    lists none."""
    zh = play(SYLPH + SYLPH_FIVE + " ??", players=3, rules="zh-003").explain(SYLPH_FIVE + " ??")
    assert zh.legal
    wording = "\n".join(zh.alternatives)
    assert "Sylph: move 1 fleet from F6 to any of" in wording and "(within 6)" in wording
    assert "Sylph: move 1 fleet from G5 to any of" in wording
    en = play(SYLPH + SYLPH_FIVE + " ??", players=3).explain(SYLPH_FIVE + " ??")
    assert not en.legal and "Sylph" not in "\n".join(en.alternatives)


# -- variant pegasus_needs_fleets (seed 001) --------------------------------------------------------

PEGASUS = """
    cycle 1
    creatures: Pegasus
    gods: Ares, Poseidon / Zeus, Athena
    Ann: 2 on Ares
    Bob: 2 on Poseidon
    Cy: Apollo
"""


def test_pegasus_move_variant_pegasus_needs_fleets_a_land_battle_needs_a_chain():
    """Rule pegasus_move, variant pegasus_needs_fleets: seed 001 says "打陆战的前提是你必须要有船舰连接到你要攻打的岛屿上，
    并且当回合需供奉ARES再花钱使用移动能力，或是购买使用怪物卡(PEGASUS)能力" (a land battle needs your fleets linking
    to the island attacked, whether by Ares or by the Pegasus). Ann's fleets (C2, G5) do not link IS7 to Cy's IS3:
    under zh-001 the flight breaks rule troop_move_chain; the English reading needs no fleets."""
    line = "Ann/Ares: buy Pegasus: troop IS7 -> IS3"
    g = play(PEGASUS + line, players=3, rules="zh-001")
    assert g.problems == [(line, ("troop_move_chain",))]
    assert g.report.problems[0].breaches[0].message == "no chain of Ann's fleets links IS7 to IS3"
    assert play(PEGASUS + line, players=3).problems == []
    # with Ann's fleets on F5 and E4 (G5 - F5 - E4 reaches IS3), seed 001's condition is met
    linked = play("position: Ann fleet F5; Ann fleet E4\n" + PEGASUS + line, players=3, rules="zh-001")
    assert linked.problems == []


def test_pegasus_move_variant_pegasus_needs_fleets_no_battle_no_chain():
    """Rule pegasus_move, variant pegasus_needs_fleets: "打陆战的前提是..." states the chain as the condition of a land
    battle only: a flight onto the empty island IS4 needs no fleets under zh-001 either."""
    line = "Ann/Ares: buy Pegasus: troop IS7 -> IS4"
    g = play(PEGASUS + line, players=3, rules="zh-001")
    assert g.problems == []
    assert troops(g.after(line), "Ann").get("IS4") == 1


# -- variant fleet_move_one_fleet (seed 001): rule fleet_move_single -----------------------------------

POSEIDON = """
    cycle 1
    creatures: Pegasus
    gods: Poseidon, Ares / Zeus, Athena
    Ann: 2 on Ares
    Bob: 2 on Poseidon
    Cy: Apollo
"""


def test_fleet_move_single_one_fleet_starts_a_movement():
    """Rule fleet_move_single: "Only under seed 001's reading (variant fleet_move_one_fleet): each movement by
    Poseidon starts with a single fleet, which may pick up the player's fleets on the way." Seed 001:
    "花一金币移动一艘船舰三格，只要有钱移动几次都可以，中途可留下或合并己方船舰。" — Bob's two fleets on D4 may
    not leave together under zh-001; the English reading moves the fleets of one space together."""
    line = "Bob/Poseidon: fleet on D4; 2 fleets D4 -> E4"
    g = play(POSEIDON + line, players=3, rules="zh-001")
    assert g.problems == [(line, ("fleet_move_single",))]
    assert g.report.problems[0].breaches[0].message == "Bob may start a movement with one fleet only, not 2 from D4"
    assert play(POSEIDON + line, players=3).problems == []


def test_fleet_move_single_the_fleet_gathers_fleets_on_the_way():
    """Rule fleet_move_single: "... 中途可留下或合并己方船舰" (on the way you may leave or merge your own fleets) —
    under zh-001 Bob's single fleet from D4 picks up his new fleet on D5 and both arrive on E6."""
    line = "Bob/Poseidon: fleet on D5; fleet D4 -> D5 +1 -> E6"
    g = play(POSEIDON + line, players=3, rules="zh-001")
    assert g.problems == []
    assert fleets(g.after(line), "Bob") == {"E6": 2, "F1": 1}
