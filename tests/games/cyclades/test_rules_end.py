"""Cyclades, the end of a cycle and of the game (rulebook: Game turn — end of the
cycle; End of the game).

Rules next_turn_order and end_of_game.
"""

from __future__ import annotations

import pytest
from helpers.cyclades import (
    ANN_FIRST_METROPOLIS,
    ANN_SECOND_METROPOLIS,
    BOB_FIRST_METROPOLIS,
    BOB_SECOND_METROPOLIS,
    BUILD3,
    fluents,
    golds,
    metropolises,
    opening,
    play,
    turn_order,
)

from referee.base.errors import SequenceError

# -- the turn order of the next cycle ---------------------------------------------------------


def test_next_turn_order_the_last_to_finish_offers_first():
    """Rule next_turn_order: "The first player to finish their actions puts their
    offering marker on the last space of the turn track, the next on the last free
    space, and so on, so that the last to act makes the first offering next cycle." —
    OPENING: Ann (Zeus), Bob (Athena), Cy (Ares), Dan (Poseidon), Eve (Apollo) act in
    that order, so cycle 2 is offered Eve, Dan, Cy, Bob, Ann."""
    body = opening() + """
        cycle 2
        creatures: Harpy, Pegasus
        gods: Zeus, Athena, Ares, Poseidon
    """
    g = play(body + """
        Eve: 1 on Zeus
        Dan: 1 on Athena
        Cy: 1 on Ares
        Bob: 1 on Poseidon
        Ann: Apollo
    """)
    assert turn_order(g.run.initial) == ["Ann", "Bob", "Cy", "Dan", "Eve"]
    assert turn_order(g.when("end_cycle").after) == ["Eve", "Dan", "Cy", "Bob", "Ann"]
    assert g.problems == []  # the record stops before Ann's Apollo turn
    g = play(body + "Ann: 1 on Zeus\n")
    assert g.problems == [("Ann: 1 on Zeus", ("next_turn_order", "not_in_control"))]
    assert g.first == [("Ann: 1 on Zeus", "next_turn_order")]
    assert g.report.problems[0].breaches[0].message == (
        "Eve is ahead of Ann on the turn track this cycle, so Eve makes an offering first "
        "(last cycle, the first to end their turn went to the back)")


def test_next_turn_order_two_player_game_four_markers():
    """Rule next_turn_order: "The first player to finish their actions puts their
    offering marker on the last space of the turn track, ..." — 2 players: each marker
    by itself. Ann's Zeus (top) and Bob's Athena finish first, then the Apollo markers
    of Ann (space 1) and Bob (space 2): the cycle 2 track reads Bob, Ann, Bob, Ann."""
    g = play("""
        cycle 1
        creatures: Pegasus
        gods: Zeus, Athena, Ares / Poseidon
        Ann: Apollo
        Bob: 1 on Athena
        Ann: 1 on Zeus
        Bob: Apollo
        Ann/Apollo: prosperity on IS1
        cycle 2
        creatures: Harpy, Pegasus
        gods: Poseidon, Zeus, Athena / Ares
    """, players=2)
    assert g.problems == []
    state = g.when("end_cycle").after
    assert fluents(state, "order") == [(1, ("Bob", 2)), (2, ("Ann", 1)), (3, ("Bob", 1)), (4, ("Ann", 2))]


# -- the end of the game ------------------------------------------------------------------------
#
# Board athena4, 4 players. Ann takes Athena every cycle (two philosophers: 1 GP
# offering + 4 GP), so she has four philosophers, hence a metropolis, every other
# cycle; Cy goes to Apollo (his markers on IS4) and gets rich; Bob and Dan take
# the other face-up gods for 1 GP. (4 players: the face-down god comes first.)
#   Ann (income 4):      5+4-5 = 4, 4+4-5 = 3, 3+4-5 = 2, 2+4-5 = 1 GP
#   Bob (income 2):      5+2-1 = 6, 7, 8, 9 GP
#   Cy  (income 9 + markers, Apollo +1): 5+9+1 = 15, +10+1 = 26, +11+1 = 38, +12+1 = 51 GP
#   Dan (income 0):      4, 3, 2, 1 GP
# Turn order: cycle 1 Ann, Bob, Cy, Dan; then Cy (last, on Apollo) first.
ATHENA = """
    cycle 1
    creatures: Pegasus
    gods: Athena, Zeus, Poseidon / Ares
    Ann: 1 on Athena
    Bob: 1 on Zeus
    Cy: Apollo
    Dan: 1 on Poseidon
    Ann/Athena: 2 philosophers
    Cy/Apollo: prosperity on IS4
    cycle 2
    creatures: Harpy, Pegasus
    gods: Ares, Athena, Zeus / Poseidon
    Cy: Apollo
    Dan: 1 on Ares
    Bob: 1 on Zeus
    Ann: 1 on Athena
    Ann/Athena: 2 philosophers; metropolis on IS1
    Cy/Apollo: prosperity on IS4
    cycle 3
    creatures: Sylph, Harpy, Pegasus
    gods: Poseidon, Athena, Zeus / Ares
    Cy: Apollo
    Bob: 1 on Zeus
    Ann: 1 on Athena
    Dan: 1 on Poseidon
    Ann/Athena: 2 philosophers
    Cy/Apollo: prosperity on IS4
    cycle 4
    creatures: Griffon, Sylph, Harpy
    gods: Ares, Athena, Zeus / Poseidon
    Cy: Apollo
    Bob: 1 on Zeus
    Ann: 1 on Athena
    Dan: 1 on Ares
    Ann/Athena: 2 philosophers; metropolis on IS7
    Cy/Apollo: prosperity on IS4
"""


def test_end_of_game_two_metropolises_end_the_game_at_the_end_of_the_cycle():
    """Rule end_of_game: "The game ends at the end of a cycle in which at least one
    player has two metropolises (three in the 2-player game). ..." — Ann's second
    metropolis comes in her turn; the others still finish the cycle."""
    g = play(ATHENA, players=4, board="athena4")
    assert g.problems == []
    second = g.after("Ann/Athena: 2 philosophers; metropolis on IS7")
    assert metropolises(second) == ["IS1", "IS7"]
    assert fluents(second, "phase") == [("actions",)]
    assert fluents(g.after("Ann/Athena: 2 philosophers; metropolis on IS1"), "phase") == [("actions",)]
    assert metropolises(g.when("end_cycle", 2).after) == ["IS1"]
    assert fluents(g.when("end_cycle", 2).after, "phase") == [("refresh",)]
    over = g.when("end_cycle", 4).after
    assert fluents(over, "phase") == [("over",)]
    with pytest.raises(SequenceError, match="the game ended before cycle 5"):
        play(ATHENA + "cycle 5\n", players=4, board="athena4")


def test_end_of_game_the_most_metropolises_win_before_gold():
    """Rule end_of_game: "... The player with the most metropolises wins; among those
    tied, the one with the most GP; players still tied share the victory." — Ann wins
    with 2 metropolises and 1 GP; Cy has 51 GP and none."""
    g = play(ATHENA, players=4, board="athena4")
    assert golds(g.final, 4) == {"Ann": 1, "Bob": 9, "Cy": 51, "Dan": 1}
    assert g.report.winners == ("Ann",)
    assert fluents(g.final, "winner") == [("Ann",)]


# Board build2, 2 players: Ann (income 10) builds one building of each kind with
# her two gods a cycle and takes two philosophers with every Athena:
#   cycle 1  Athena (2 philosophers, university IS7), Zeus (temple IS7)    15-2-4-2-2 = 5
#   cycle 2  Poseidon (port IS7), Athena (2 more: metropolis on IS5)      15-2-2-4   = 7
#   cycle 3  Ares (fortress IS7: the four kinds, metropolis on IS7),
#            Athena (2 philosophers)                                      17-2-2-4   = 9
#   cycle 4  Poseidon, Athena (2 more: metropolis on IS1)                 19-2-4     = 13
# Bob (income 2 + his Apollo markers on IS2) takes Ares or Zeus and Apollo.
# Turn order: cycle 1 Ann, Bob, Ann, Bob (header default); then Bob, Bob, Ann, Ann.
TWO_PLAYERS = """
    cycle 1
    creatures: Pegasus
    gods: Athena, Zeus, Ares / Poseidon
    Ann: 1 on Athena
    Bob: 1 on Ares
    Ann: 1 on Zeus
    Bob: Apollo
    Ann/Athena: 2 philosophers; university on IS7
    Ann/Zeus: temple on IS7
    Bob/Apollo: prosperity on IS2
    cycle 2
    creatures: Harpy, Pegasus
    gods: Poseidon, Athena, Zeus / Ares
    Bob: 1 on Zeus
    Bob: Apollo
    Ann: 1 on Athena
    Ann: 1 on Poseidon
    Ann/Poseidon: port on IS7
    Ann/Athena: 2 philosophers; metropolis on IS5
    Bob/Apollo: prosperity on IS2
    cycle 3
    creatures: Sylph, Harpy, Pegasus
    gods: Ares, Athena, Zeus / Poseidon
    Bob: 1 on Zeus
    Bob: Apollo
    Ann: 1 on Ares
    Ann: 1 on Athena
    Ann/Ares: fortress on IS7; discard temple IS7; discard university IS7; discard port IS7; discard fortress IS7; metropolis on IS7
    Ann/Athena: 2 philosophers
    Bob/Apollo: prosperity on IS2
    cycle 4
    creatures: Griffon, Sylph, Harpy
    gods: Poseidon, Athena, Zeus / Ares
    Bob: 1 on Zeus
    Bob: Apollo
    Ann: 1 on Athena
    Ann: 1 on Poseidon
    Ann/Athena: 2 philosophers; metropolis on IS1
    Bob/Apollo: prosperity on IS2
"""


def test_end_of_game_three_metropolises_with_two_players():
    """Rule end_of_game: "The game ends at the end of a cycle in which at least one
    player has two metropolises (three in the 2-player game). ..." — two do not end a
    2-player game."""
    g = play(TWO_PLAYERS, players=2, board="build2")
    assert g.problems == []
    cycle3 = g.when("end_cycle", 3).after
    assert metropolises(cycle3) == ["IS5", "IS7"]
    assert fluents(cycle3, "phase") == [("refresh",)] and fluents(cycle3, "winner") == []
    over = g.when("end_cycle", 4).after
    assert metropolises(over) == ["IS1", "IS5", "IS7"] and fluents(over, "phase") == [("over",)]
    assert golds(over, 2)["Ann"] == 13 and golds(over, 2)["Bob"] > 13
    assert g.report.winners == ("Ann",)


def build3(bob1: int, bob: str) -> str:
    """BUILD3 (conftest) with Bob's first offering and his cycle-4 actions."""
    return (BUILD3.format(bob1=bob1) + ANN_FIRST_METROPOLIS + "\n" + ANN_SECOND_METROPOLIS + "\n" + bob
            + "\nCy/Apollo: prosperity on IS4\n")


def test_end_of_game_tied_on_metropolises_the_most_gp_wins():
    """Rule end_of_game: "... The player with the most metropolises wins; among those
    tied, the one with the most GP; ..." — Ann and Bob have two metropolises each; Bob
    offered 2 GP instead of 1 in cycle 1, so he ends with 0 GP to Ann's 1. Cy, with
    31 GP and no metropolis, is not among them."""
    g = play(build3(2, BOB_FIRST_METROPOLIS + "\n" + BOB_SECOND_METROPOLIS), players=3, board="build3")
    assert g.problems == []
    over = g.final
    assert metropolises(over) == ["IS3", "IS5", "IS7", "IS8"]
    assert golds(over, 3) == {"Ann": 1, "Bob": 0, "Cy": 31}
    assert g.report.winners == ("Ann",)


def test_end_of_game_tied_on_metropolises_and_gp_the_victory_is_shared():
    """Rule end_of_game: "... among those tied, the one with the most GP; players still
    tied share the victory." — two metropolises and 1 GP each."""
    g = play(build3(1, BOB_FIRST_METROPOLIS + "\n" + BOB_SECOND_METROPOLIS), players=3, board="build3")
    assert g.problems == []
    assert golds(g.final, 3) == {"Ann": 1, "Bob": 1, "Cy": 31}
    assert g.report.winners == ("Ann", "Bob")


def test_end_of_game_fewer_metropolises_lose_whatever_the_gp():
    """Rule end_of_game: "... The player with the most metropolises wins; ..." — Bob
    builds a single port in cycle 4: one metropolis and 3 GP against Ann's two and
    1 GP."""
    g = play(build3(1, BOB_FIRST_METROPOLIS), players=3, board="build3")
    assert g.problems == []
    assert golds(g.final, 3) == {"Ann": 1, "Bob": 3, "Cy": 31}
    assert metropolises(g.final) == ["IS5", "IS7", "IS8"]
    assert g.report.winners == ("Ann",)
