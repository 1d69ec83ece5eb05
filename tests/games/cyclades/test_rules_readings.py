"""Cyclades rules that exist only in a translation's reading (docs/translations.md):
a variant module may add a violation id of its own.

Rules creature_top_of_deck (variant creature_left_on_deck, seed 001); rule
fleet_move_single (variant fleet_move_one_fleet, seed 001). Also the variants
that change a default rule's outcome: zeus_replace_slides and
metropolis_demolish_any (seed 000), pegasus_needs_fleets (seed 001),
sylph_total_ten (seed 003). Rules minotaur_no_retreat (variant
minotaur_may_retreat, seed 000), polyphemus_closed (variant polyphemus_seas_open,
seed 000) and chiron_protects (variant chiron_blocks_pegasus_departure, seed 000),
on board figures5 (test_rules_figures.py); rules territory_marker and
island_control (variant territory_marker_income_only, seed 001). And two
readings judged translation defects, which no longer change a rule: rules
battle_retreat (seed 003's 复数, once retreat_needs_several) and build (seed
000's （同一個島上）, once buildings_one_island): the readings agree.
"""

from __future__ import annotations

import pytest
from helpers.cyclades import (
    ARES_AND_POSEIDON,
    buildings,
    count,
    first_cycle,
    fleets,
    fluents,
    gold,
    holds,
    metropolises,
    play,
    track,
    troops,
)

LANDING = ARES_AND_POSEIDON + """
    Ann/Ares: troop on IS1; troop on IS1; 3 troops IS1 -> IS2
    battle: Ann 0, Bob 3
"""


def test_battle_retreat_seed_003_plural_is_no_condition_the_readings_agree():
    """Rule battle_retreat, seed 003: "如果战斗员双方 仍有复数军队/舰队，防御方能决定是否撤退。" -- 复数 carries
    the English plural of "troops/fleets" over (translation defect: ambiguous wording, no rule difference;
    docs/translations.md). Once the variant retreat_needs_several, now no rule: after Ann's first round on IS2
    (2 troops against Bob's 1) she may retreat under zh-003 as under en."""
    for rules in ("en", "zh-003"):
        g = play(LANDING + "Ann: retreat to IS1", players=3, rules=rules)
        assert g.problems == [], rules
        assert troops(g.after("Ann: retreat to IS1"), "Ann")["IS1"] == 2


# -- variant zeus_replace_slides (seed 000, reading zh-000) -------------------------------------

#: Cycle 2 after a cycle 1 in which nobody bought the Pegasus.
LEFT_OVER = ARES_AND_POSEIDON + """
    Cy/Apollo: prosperity on IS3
    cycle 2
"""

ZEUS_CYCLE2 = LEFT_OVER + """
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

def test_creature_left_on_deck_the_unbought_card_is_one_of_the_two_drawn_in_cycle_2():
    """Rule creature_top_of_deck: variant creature_left_on_deck (seed 001), with rule creature_track_refresh:
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


# -- seed 000's （同一個島上）: a translation defect, no rule ----------------------------------------

def test_build_seed_000_same_island_parenthesis_is_no_condition_the_readings_agree():
    """Rule build, seed 000: "在自己的回合中，玩家可以在同時(shí)建設(shè)復(fù)數(shù)的同類建筑。（同一個(gè)島上）每個(gè)建筑2金幣。" -- the
    parenthesis is a clipped "even on the same island", as seed 003 words it ("即使在相同岛屿"; translation
    defect: ambiguous wording, no rule difference; docs/translations.md). Once the variant
    buildings_one_island, now no rule: two fortresses on two islands in one turn are legal under zh-000 as
    under en, and so are two on one island."""
    two_islands = ARES_AND_POSEIDON + "Ann/Ares: fortress on IS1\nAnn/Ares: fortress on IS7"
    one_island = ARES_AND_POSEIDON + "Ann/Ares: fortress on IS7\nAnn/Ares: fortress on IS7"  # IS7 has 4 spaces
    for rules in ("en", "zh-000"):
        g = play(two_islands, players=3, rules=rules)
        assert g.problems == [], rules
        after = g.after("Ann/Ares: fortress on IS7")
        assert buildings(after, "IS1").get("fortress") == 1 and buildings(after, "IS7").get("fortress") == 1
        assert play(one_island, players=3, rules=rules).problems == []


# -- variant metropolis_demolish_any (seed 000, reading zh-000) --------------------------------

FOUR_BUILDINGS = "position: temple IS1; temple IS7; port IS7; university IS7\n" + ARES_AND_POSEIDON + """
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
    assert "Sylph: move 1 fleet from F6 to any of" in wording and "(within 6, by any route: one listed each)" in wording
    assert "Sylph: move 1 fleet from G5 to any of" in wording
    en = play(SYLPH + SYLPH_FIVE + " ??", players=3).explain(SYLPH_FIVE + " ??")
    assert not en.legal and "Sylph" not in "\n".join(en.alternatives)


# -- variant pegasus_needs_fleets (seed 001) --------------------------------------------------------

def test_pegasus_move_variant_pegasus_needs_fleets_a_land_battle_needs_a_chain():
    """Rule pegasus_move, variant pegasus_needs_fleets: seed 001 says "打陆战的前提是你必须要有船舰连接到你要攻打的岛屿上，
    并且当回合需供奉ARES再花钱使用移动能力，或是购买使用怪物卡(PEGASUS)能力" (a land battle needs your fleets linking
    to the island attacked, whether by Ares or by the Pegasus). Ann's fleets (C2, G5) do not link IS7 to Cy's IS3:
    under zh-001 the flight breaks rule troop_move_chain; the English reading needs no fleets."""
    line = "Ann/Ares: buy Pegasus: troop IS7 -> IS3"
    g = play(ARES_AND_POSEIDON + line, players=3, rules="zh-001")
    assert g.problems == [(line, ("troop_move_chain",))]
    assert g.report.problems[0].breaches[0].message == "no chain of Ann's fleets links IS7 to IS3"
    assert play(ARES_AND_POSEIDON + line, players=3).problems == []
    # with Ann's fleets on F5 and E4 (G5 - F5 - E4 reaches IS3), seed 001's condition is met
    linked = play("position: Ann fleet F5; Ann fleet E4\n" + ARES_AND_POSEIDON + line, players=3, rules="zh-001")
    assert linked.problems == []


def test_pegasus_move_variant_pegasus_needs_fleets_no_battle_no_chain():
    """Rule pegasus_move, variant pegasus_needs_fleets: "打陆战的前提是..." states the chain as the condition of a land
    battle only: a flight onto the empty island IS4 needs no fleets under zh-001 either."""
    line = "Ann/Ares: buy Pegasus: troop IS7 -> IS4"
    g = play(ARES_AND_POSEIDON + line, players=3, rules="zh-001")
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

MARKED = "position: Ann marker IS4\n" + ARES_AND_POSEIDON + """
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
