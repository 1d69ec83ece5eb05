"""Cyclades, income (rulebook: Game turn, phase 1 — Revenue) and island control.

Rules income and island_control.
"""

from __future__ import annotations

import pytest
from helpers.cyclades import ALL_APOLLO, NAMES, golds, opening, play

FIRST_CYCLE = """
    cycle 1
    creatures: Pegasus
"""


@pytest.mark.parametrize("players, gods", [
    (5, "Zeus, Athena, Ares, Poseidon"),
    (4, "Zeus, Athena, Ares / Poseidon"),
    (3, "Zeus, Athena / Ares, Poseidon"),
    (2, "Zeus, Athena, Ares / Poseidon"),
])
def test_income_is_collected_in_the_first_cycle_too(players, gods):
    """Rule income: "Each player receives 1 GP for every prosperity symbol they control:
    those printed on their islands, Apollo's prosperity markers on their islands, and
    those printed on sea spaces where they have fleets. Income is collected in the
    first cycle too."

    Every shipped starting placement gives an income of 2 (boards/*.toml):
      5p  A: IS2 1 + IS12 0 + C6 0 + K1 1   B: IS1 0 + IS9 2 + B3 0 + E7 0
          C: IS4 1 + IS13 0 + F5 0 + K6 1   D: IS6 1 + IS7 0 + D8 0 + F1 1
          E: IS3 2 + IS11 0 + F3 0 + G9 0
      4p  A: IS1 0 + IS8 2 + B3 0 + F7 0    B: IS2 1 + IS7 0 + D6 0 + F1 1
          C: IS3 1 + IS10 0 + F5 0 + K1 1   D: IS4 2 + IS9 0 + F3 0 + I5 0
      3p  A: IS1 2 + IS7 0 + C2 0 + G5 0    B: IS2 1 + IS5 0 + D4 0 + F1 1
          C: IS3 1 + IS8 0 + F4 0 + K2 1
      2p  A: IS1 2 + IS7 0 + B2 0 + G5 0    B: IS2 1 + IS8 0 + D4 0 + K2 1
    so everyone has 5 + 2 = 7 GP before the first offering."""
    g = play(FIRST_CYCLE + f"gods: {gods}\n", players=players)
    assert g.problems == []
    income = g.when("income")
    assert golds(income.before, players) == {p: 5 for p in NAMES[:players]}
    assert golds(income.after, players) == {p: 7 for p in NAMES[:players]}


#: Cycle 1, 5p: Bob (Poseidon) puts two new fleets on A1, a sea space with one
#: prosperity symbol next to his island IS1 (1st fleet free, 2nd 1 GP).
#: After the offerings and actions: Ann 7-1=6, Bob 7-1-1=5, Cy 6, Dan 6, Eve 7+1=8.
#: Cycle 2 incomes:
#:   Ann IS2 1 + IS12 0 + C6 0 + K1 1 = 2                  -> 8
#:   Bob IS1 0 + IS9 2 + B3 0 + E7 0 + A1 1 (two fleets, one symbol) = 3 -> 8
#:   Cy  IS4 1 + IS13 0 + F5 0 + K6 1 = 2                  -> 8
#:   Dan IS6 1 + IS7 0 + D8 0 + F1 1 = 2                   -> 8
#:   Eve IS3 2 + Apollo's marker on IS3 1 + IS11 0 + F3 0 + G9 0 = 3 -> 11
FLEETS_ON_A1 = """
    cycle 1
    creatures: Pegasus
    gods: Zeus, Athena, Ares, Poseidon
    Ann: 1 on Zeus
    Bob: 1 on Poseidon
    Cy: 1 on Ares
    Dan: 1 on Athena
    Eve: Apollo
    Bob/Poseidon: fleet on A1; fleet on A1
    Eve/Apollo: prosperity on IS3
    cycle 2
    creatures: Harpy, Pegasus
    gods: Zeus, Athena, Ares, Poseidon
"""


def test_income_counts_sea_prosperity_under_own_fleets():
    """Rule income: "Each player receives 1 GP for every prosperity symbol they control:
    ... and those printed on sea spaces where they have fleets." — a symbol counts
    once, however many fleets share its sea space."""
    g = play(FLEETS_ON_A1)
    assert g.problems == []
    income = g.when("income", 2)
    assert golds(income.before) == {"Ann": 6, "Bob": 5, "Cy": 6, "Dan": 6, "Eve": 8}
    assert golds(income.after) == {"Ann": 8, "Bob": 8, "Cy": 8, "Dan": 8, "Eve": 11}


def test_income_counts_apollo_prosperity_markers_on_own_islands():
    """Rule income: "... Apollo's prosperity markers on their islands ..." — every
    marker counts, and an island may hold several (rule apollo_prosperity).

    ALL_APOLLO, everyone on Apollo for three cycles (1 GP each time, both islands):
      cycle 1: 5 + 2 + 1 = 8 each; Ann puts a marker on IS2.
      cycle 2 income: Ann IS2 1 + marker 1 + K1 1 = 3 -> 11, the others 2 -> 10;
               Apollo +1: Ann 12, the others 11; Eve puts a marker on IS3.
      cycle 3 income: Ann 3 -> 15, Eve IS3 2 + marker 1 = 3 -> 14, the others 2 -> 13.
      cycle 4 (Ann's second marker on IS2 in cycle 3): Ann IS2 1 + 2 markers + K1 1 = 4."""
    g = play(ALL_APOLLO + """
        Ann: Apollo
        Bob: Apollo
        Cy: Apollo
        Dan: Apollo
        Eve: Apollo
        Ann/Apollo: prosperity on IS2
        cycle 4
        creatures: Griffon, Sylph, Harpy
        gods: Zeus, Athena, Ares, Poseidon
    """)
    assert g.problems == []
    assert golds(g.when("income", 2).after) == {"Ann": 11, "Bob": 10, "Cy": 10, "Dan": 10, "Eve": 10}
    assert golds(g.when("income", 3).after) == {"Ann": 15, "Bob": 13, "Cy": 13, "Dan": 13, "Eve": 14}
    cycle4 = g.when("income", 4)
    assert golds(cycle4.after)["Ann"] - golds(cycle4.before)["Ann"] == 4


def test_island_control_a_player_controls_the_islands_where_their_troops_stand():
    """Rule island_control: "A player controls an island where they have troops. When
    their last troop leaves, they leave a territory marker and keep the island until
    another player's troops take it."

    (Troops do not move in the economic half the referee judges, so only the first
    sentence can be exercised.) Cy controls IS4 and IS13 where his starting troops
    stand: he may recruit there, not on Ann's IS2 nor on the neutral IS5; and the
    income of each player is that of their own islands, never of the neutral IS5,
    IS8 and IS10 (1 + 1 + 2 prosperity symbols nobody collects)."""
    g = play(opening("""
        Cy/Ares: troop on IS4; troop on IS13
    """))
    assert g.problems == []
    assert play(opening("Cy/Ares: troop on IS2")).problems == [("Cy/Ares: troop on IS2", ("recruit_troop_place",))]
    assert play(opening("Cy/Ares: troop on IS5")).problems == [("Cy/Ares: troop on IS5", ("recruit_troop_place",))]
    income = g.when("income")
    assert sum(golds(income.after).values()) - sum(golds(income.before).values()) == 5 * 2
