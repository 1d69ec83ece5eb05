"""Cyclades, buying mythological creatures and Zeus's replacement (rulebook: Actions
— Mythological creatures; Zeus).

Rules creature_track (prices), creature_buy, creature_on_track,
creature_not_apollo, creature_affordable, zeus_replace_creature, replace_god and
replace_affordable. (A metropolis counting as a temple: test_rules_metropolis.py.)
"""

from __future__ import annotations

from helpers.cyclades import ALL_APOLLO, fluents, gold, opening, play, track


def golds_along(g, line: str, player: str, nth: int = 1) -> list[int]:
    """The player's gold after each move written on ``line``."""
    return [gold(s.after, player) for s in g.steps(line, nth)]


def test_creature_track_prices_4_3_and_2_gp():
    """Rule creature_track: "The creature track has three slots, priced 4, 3 and 2 GP; a
    creature costs the price printed under its slot."

    ALL_APOLLO cycle 3: Sylph (4 GP), Harpy (3 GP), Pegasus (2 GP) on the track;
    after income Ann 15, Bob 13, Cy 13, Dan 13 (see test_rules_income.py), less
    their 1-GP offerings. Gods from the top: Ares (Cy), Poseidon (Dan), Zeus (Ann),
    Athena (Bob)."""
    g = play(ALL_APOLLO + """
        Ann: 1 on Zeus
        Bob: 1 on Athena
        Cy: 1 on Ares
        Dan: 1 on Poseidon
        Eve: Apollo
        Cy/Ares: buy Pegasus
        Dan/Poseidon: buy Harpy
        Ann/Zeus: buy Sylph
        Eve/Apollo: prosperity on IS3
    """)
    assert g.problems == []
    assert gold(g.before("Cy/Ares: buy Pegasus"), "Cy") == 12 and gold(g.after("Cy/Ares: buy Pegasus"), "Cy") == 10
    assert gold(g.after("Dan/Poseidon: buy Harpy"), "Dan") == 12 - 3
    assert gold(g.after("Ann/Zeus: buy Sylph"), "Ann") == 14 - 4


#: Board full5: Ann's income is 13, so she has 18 GP in cycle 1, 17 after her
#: offering; she builds two temples (13 GP). Cycle 2 (order Eve, Dan, Cy, Bob, Ann):
#: 13 + 13 = 26 GP, 25 after her offering; Harpy (4 GP) and Pegasus (3 GP) on the track.
TWO_TEMPLES = """
    cycle 1
    creatures: Pegasus
    gods: Zeus, Athena, Ares, Poseidon
    Ann: 1 on Zeus
    Bob: 1 on Athena
    Cy: 1 on Ares
    Dan: 1 on Poseidon
    Eve: Apollo
    Ann/Zeus: 2 temples on IS1
    Eve/Apollo: prosperity on IS12
    cycle 2
    creatures: Harpy, Pegasus
    gods: Zeus, Athena, Ares, Poseidon
    Eve: Apollo
    Dan: 1 on Athena
    Cy: 1 on Ares
    Bob: 1 on Poseidon
    Ann: 1 on Zeus
    Ann/Zeus: buy Harpy; buy Pegasus
    Eve/Apollo: prosperity on IS12
"""


def test_creature_buy_each_temple_lowers_one_purchase_a_cycle():
    """Rule creature_buy: "A player whose god is not Apollo may buy creatures from the
    track, one or several, each for the price of its slot less 1 GP per temple they own
    (each temple once a cycle; a metropolis counts as a temple), but at least 1 GP. The
    creature's power is used at once and the card is discarded." — with two temples
    Harpy costs 4 - 2 = 2; the temples are used up, Pegasus costs its full 3."""
    g = play(TWO_TEMPLES, board="full5")
    assert g.problems == []
    line = "Ann/Zeus: buy Harpy; buy Pegasus"
    assert gold(g.before(line), "Ann") == 25
    assert golds_along(g, line, "Ann") == [23, 20]
    assert track(g.after(line)) == {}
    assert fluents(g.after(line), "discard") == [("harpy",), ("pegasus",)]


def test_creature_buy_temples_serve_again_next_cycle():
    """Rule creature_buy: "... less 1 GP per temple they own (each temple once a cycle
    ...)" — in cycle 3 (order Eve, Bob, Cy, Dan, Ann; Ann 20 + 13 = 33, 32 after her
    offering) the two temples lower the 4-GP creature to 2 GP again."""
    g = play(TWO_TEMPLES + """
        cycle 3
        creatures: Griffon, Giant, Siren
        gods: Zeus, Athena, Ares, Poseidon
        Eve: Apollo
        Bob: 1 on Athena
        Cy: 1 on Ares
        Dan: 1 on Poseidon
        Ann: 1 on Zeus
        Ann/Zeus: buy Griffon
        Eve/Apollo: prosperity on IS12
    """, board="full5")
    assert g.problems == []
    assert gold(g.before("Ann/Zeus: buy Griffon"), "Ann") == 32
    assert gold(g.after("Ann/Zeus: buy Griffon"), "Ann") == 30


def test_creature_buy_at_least_1_gp_whatever_the_temples():
    """Rule creature_buy: "... less 1 GP per temple they own ..., but at least 1 GP." —
    Ann builds four temples (17 - 8 = 9 GP): Pegasus, on the 4-GP slot, still costs 1."""
    g = play("""
        cycle 1
        creatures: Pegasus
        gods: Zeus, Athena, Ares, Poseidon
        Ann: 1 on Zeus
        Bob: 1 on Athena
        Cy: 1 on Ares
        Dan: 1 on Poseidon
        Eve: Apollo
        Ann/Zeus: 4 temples on IS1; buy Pegasus
        Eve/Apollo: prosperity on IS12
    """, board="full5")
    assert g.problems == []
    assert golds_along(g, "Ann/Zeus: 4 temples on IS1; buy Pegasus", "Ann") == [15, 13, 11, 9, 8]


def test_creature_on_track_only_a_creature_shown_can_be_bought():
    """Rule creature_on_track: "Only a creature shown on the track can be bought, or
    replaced with Zeus; new creatures come out only at the start of a cycle." """
    g = play(opening("Ann/Zeus: buy Harpy"))
    assert g.problems == [("Ann/Zeus: buy Harpy", ("creature_on_track",))]
    assert gold(g.final, "Ann") == 4  # nothing to pay for
    assert play(opening("Ann/Zeus: buy Pegasus")).problems == []


def test_creature_on_track_only_a_creature_shown_can_be_replaced():
    """Rule creature_on_track: "Only a creature shown on the track can be bought, or
    replaced with Zeus; ..." """
    g = play(opening("Ann/Zeus: replace Harpy -> Kraken"))
    # The card written as drawn comes out of turn too: there is no slot to fill.
    assert g.problems == [("Ann/Zeus: replace Harpy -> Kraken", ("creature_on_track",)),
                          ("Ann/Zeus: replace Harpy -> Kraken", ("move_out_of_phase", "not_in_control"))]


def test_creature_not_apollo_no_creatures_for_apollo():
    """Rule creature_not_apollo: "A player on Apollo cannot buy creatures." """
    g = play(opening("Eve/Apollo: prosperity on IS3; buy Pegasus"))
    assert g.problems == [("Eve/Apollo: prosperity on IS3; buy Pegasus", ("creature_not_apollo",))]
    assert g.report.problems[0].breaches[0].message == "Eve is on Apollo and cannot buy creatures"


def test_creature_affordable_the_price_after_the_temples():
    """Rule creature_affordable: "A player cannot buy a creature whose price, after their
    temples' reduction, is more than the GP they have." — Ann (4 GP) builds a temple:
    2 GP left, Pegasus costs 4 - 1 = 3."""
    g = play(opening("Ann/Zeus: temple on IS2; buy Pegasus"))
    assert g.problems == [("Ann/Zeus: temple on IS2; buy Pegasus", ("creature_affordable",))]
    assert g.report.problems[0].breaches[0].message == "Ann has 2 GP and cannot pay 3 GP for this creature"


def test_zeus_replace_creature_for_1_gp_as_often_as_paid():
    """Rule zeus_replace_creature: "With Zeus, for 1 GP a player may discard a creature
    from the track and put the top card of the deck in its slot, as often as they can
    pay." """
    line = "Ann/Zeus: replace Pegasus -> Harpy; replace Harpy -> Sylph"
    g = play(opening(line))
    assert g.problems == []
    after = g.after(line)
    assert track(after) == {4: "sylph"}
    assert fluents(after, "discard") == [("harpy",), ("pegasus",)]
    assert gold(g.before(line), "Ann") == 4 and gold(after, "Ann") == 2


def test_zeus_replace_creature_the_new_card_comes_from_the_deck():
    """Rule zeus_replace_creature: "With Zeus, for 1 GP a player may discard a creature
    from the track and put the top card of the deck in its slot, ..." — the discarded
    Pegasus is not in the deck (rule creature_not_in_deck)."""
    g = play(opening("Ann/Zeus: replace Pegasus -> Pegasus"))
    assert g.problems == [("Ann/Zeus: replace Pegasus -> Pegasus", ("creature_not_in_deck",))]


def test_replace_god_only_zeus_replaces():
    """Rule replace_god: "Only a player with Zeus may replace a creature of the track." """
    g = play(opening("Bob/Athena: replace Pegasus -> Harpy"))
    assert g.problems == [("Bob/Athena: replace Pegasus -> Harpy", ("replace_god",))]
    assert g.report.problems[0].breaches[0].message == "Bob's god this cycle is Athena: only Zeus replaces a creature"


def test_replace_affordable_replacing_costs_1_gp():
    """Rule replace_affordable: "Replacing a creature costs 1 GP, which the player must
    have." — Ann spends her 4 GP on a second priest first."""
    g = play(opening("Ann/Zeus: 2 priests; replace Pegasus -> Harpy"))
    assert g.problems == [("Ann/Zeus: 2 priests; replace Pegasus -> Harpy", ("replace_affordable",))]
    assert g.report.problems[0].breaches[0].message == "Ann has 0 GP and cannot pay the 1 GP to replace a creature"
