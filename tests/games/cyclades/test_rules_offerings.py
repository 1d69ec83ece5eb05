"""Cyclades, offerings to the gods (rulebook: Game turn, phase 2 — Offerings to the
gods) and the 2-player game.

Rules offering_order, offering_god_available, offering_minimum, offering_outbid,
offering_outbid_moves, offering_affordable, offering_payment, apollo_shared,
two_player_two_gods and two_player_markers.
"""

from __future__ import annotations

from helpers.cyclades import fluents, gold, golds, holds, marker, opening, play, turn_order

GODS_UP = """
    cycle 1
    creatures: Pegasus
    gods: Zeus, Athena, Ares, Poseidon
"""

#: Bob outbids Ann on Zeus; Ann goes to Athena. Everyone has 7 GP after income.
OUTBID = GODS_UP + """
    Ann: 3 on Zeus
    Bob: 4 on Zeus
    Ann: 2 on Athena
    Cy: 1 on Ares
    Dan: 1 on Poseidon
    Eve: Apollo
    Eve/Apollo: prosperity on IS3
"""


def test_offering_outbid_must_exceed_standing_offer():
    """Rule offering_outbid: "An offering to a god that already has one must be higher
    than it; only the highest offering stands." """
    g = play(GODS_UP + """
        Ann: 3 on Zeus
        Bob: 3 on Zeus
    """)
    assert g.problems == [("Bob: 3 on Zeus", ("offering_outbid",))]
    assert g.report.problems[0].breaches[0].message == "Bob must offer more than the standing 3 GP"
    g = play(OUTBID)
    assert g.problems == []
    after = g.after("Bob: 4 on Zeus")
    assert holds(after, "offer", marker("Bob"), ":zeus", 4) and not holds(after, "offer", marker("Ann"), ":zeus", 3)


def test_offering_outbid_moves_the_outbid_player_goes_to_another_god():
    """Rule offering_outbid_moves: "A player whose offering is outbid takes back their
    marker and must at once make an offering to a different god (or go to Apollo)." """
    g = play(GODS_UP + """
        Ann: 3 on Zeus
        Bob: 4 on Zeus
        Ann: 5 on Zeus
    """)
    assert g.problems == [("Ann: 5 on Zeus", ("offering_outbid_moves",))]
    assert holds(g.after("Bob: 4 on Zeus"), "outbid", marker("Ann"), ":zeus")
    # Going to Apollo is a different god too.
    g = play(GODS_UP + """
        Ann: 3 on Zeus
        Bob: 4 on Zeus
        Ann: Apollo
    """)
    assert g.problems == []


def test_offering_order_the_outbid_player_offers_again_before_the_next_player():
    """Rule offering_order: "Players make offerings in turn-track order; a player who
    is outbid places their marker again at once, before the next player in order makes
    an offering." — a player offering before the one ahead on the turn track breaks
    it (and not_in_control, named after it)."""
    assert play(OUTBID).problems == []
    g = play(GODS_UP + """
        Ann: 3 on Zeus
        Cy: 1 on Ares
    """)
    assert g.problems == [("Cy: 1 on Ares", ("not_in_control", "offering_order"))]
    assert g.first == [("Cy: 1 on Ares", "offering_order")]
    assert g.report.problems[0].breaches[0].message == \
        "Bob is ahead of Cy on the turn track, so Bob makes an offering first"


def test_offering_once_a_marker_stays_until_outbid():
    """Rule offering_once: "Each player places one offering marker (two in the 2-player game); once placed, it
    stays on its god until another player outbids it, and the player makes no other offering meanwhile." """
    g = play(GODS_UP + """
        Ann: 3 on Zeus
        Ann: 2 on Athena
    """)
    assert g.problems == [("Ann: 2 on Athena", ("not_in_control", "offering_once"))]
    assert g.first == [("Ann: 2 on Athena", "offering_once")]
    assert g.report.problems[0].breaches[0].message == \
        "Ann's marker already stands on Zeus: it stays there until someone outbids it"


def test_offering_outbid_first_nobody_offers_before_the_outbid_player():
    """Rule offering_outbid_first: "A player whose offering is outbid places their
    marker again at once: nobody else makes an offering before they have." — Cy,
    next on the turn track, offers while Ann, just outbid by Bob, has not yet."""
    g = play(GODS_UP + """
        Ann: 3 on Zeus
        Bob: 4 on Zeus
        Cy: 1 on Ares
    """)
    assert g.problems == [("Cy: 1 on Ares", ("not_in_control", "offering_outbid_first"))]
    assert g.first == [("Cy: 1 on Ares", "offering_outbid_first")]
    assert g.report.problems[0].breaches[0].message == \
        "Ann was outbid on Zeus, so Ann must offer again before Cy bids"


def test_offering_god_available_only_face_up_gods():
    """Rule offering_god_available: "Offerings are made only to the gods face up this
    cycle, or to Apollo." — with 4 players the fourth god lies face down."""
    body = """
        cycle 1
        creatures: Pegasus
        gods: Zeus, Athena, Ares / Poseidon
    """
    g = play(body + "Ann: 2 on Poseidon\n", players=4)
    assert g.problems == [("Ann: 2 on Poseidon", ("offering_god_available",))]
    assert play(body + "Ann: 2 on Ares\n", players=4).problems == []
    g = play("""
        cycle 1
        creatures: Pegasus
        gods: Zeus, Athena / Ares, Poseidon
        Ann: 1 on Ares
    """, players=3)
    assert g.problems == [("Ann: 1 on Ares", ("offering_god_available",))]


def test_offering_minimum_at_least_1_gp():
    """Rule offering_minimum: "An offering to a god is at least 1 GP; only Apollo takes
    no offering." """
    g = play(GODS_UP + "Ann: 0 on Zeus\n")
    assert g.problems == [("Ann: 0 on Zeus", ("offering_minimum",))]
    assert play(GODS_UP + "Ann: 1 on Zeus\n").problems == []


def test_offering_affordable_no_more_than_the_player_has():
    """Rule offering_affordable: "No one may offer more than they can pay after their
    priests' reduction; ..." — Ann has 5 + 2 = 7 GP and no priest."""
    g = play(GODS_UP + "Ann: 8 on Zeus\n")
    assert g.problems == [("Ann: 8 on Zeus", ("offering_affordable",))]
    assert play(GODS_UP + "Ann: 7 on Zeus\n").problems == []


#: Cycle 1 (OPENING): Ann takes 2 priests with Zeus (7 - 3 - 4 = 0 GP).
#: Cycle 2: turn order Eve, Dan, Cy, Bob, Ann; Ann's income 2 -> 2 GP; each of her
#: offerings costs 2 GP less, but at least 1 GP.
TWO_PRIESTS = opening("Ann/Zeus: 2 priests") + """
    cycle 2
    creatures: Harpy, Pegasus
    gods: Zeus, Athena, Ares, Poseidon
    Eve: 1 on Zeus
    Dan: 1 on Athena
    Cy: 1 on Ares
    Bob: 1 on Poseidon
"""


def test_offering_affordable_counts_the_priests_reduction():
    """Rule offering_affordable: "No one may offer more than they can pay after their
    priests' reduction; ..." — with 2 GP and 2 priests Ann can offer 4 (she pays 2),
    not 5 (she would pay 3)."""
    g = play(TWO_PRIESTS + "Ann: 4 on Zeus\nEve: Apollo\nEve/Apollo: prosperity on IS3\n")
    assert g.problems == []
    assert gold(g.before("Ann: 4 on Zeus"), "Ann") == 2
    g = play(TWO_PRIESTS + "Ann: 5 on Zeus\n")
    assert g.problems == [("Ann: 5 on Zeus", ("offering_affordable",))]


def test_offering_payment_priests_reduce_offerings_to_no_less_than_1_gp():
    """Rule offering_payment: "When every marker stands on a god, each player pays their
    offering less 1 GP per priest they have, but at least 1 GP; Apollo costs nothing.
    ..." — Ann, 2 priests: an offering of 4 costs 2; one of 2 costs 1, not 0."""
    g = play(TWO_PRIESTS + "Ann: 4 on Zeus\nEve: Apollo\nEve/Apollo: prosperity on IS3\n")
    paid = g.when("pay_offerings", 2)
    assert gold(paid.before, "Ann") == 2 and gold(paid.after, "Ann") == 0
    g = play(TWO_PRIESTS + "Ann: 2 on Zeus\nEve: Apollo\nEve/Apollo: prosperity on IS3\n")
    paid = g.when("pay_offerings", 2)
    assert gold(paid.before, "Ann") == 2 and gold(paid.after, "Ann") == 1


def test_offering_payment_everyone_pays_their_standing_offering_apollo_is_free():
    """Rule offering_payment: "When every marker stands on a god, each player pays their
    offering ...; Apollo costs nothing." — an outbid offering is not paid."""
    g = play(OUTBID)
    paid = g.when("pay_offerings")
    assert golds(paid.before) == {p: 7 for p in ("Ann", "Bob", "Cy", "Dan", "Eve")}
    # Ann 7-2 (her Athena offering, not the outbid 3), Bob 7-4, Cy 7-1, Dan 7-1, Eve 7.
    assert golds(paid.after) == {"Ann": 5, "Bob": 3, "Cy": 6, "Dan": 6, "Eve": 7}


def test_apollo_shared_any_number_of_players_in_arrival_order():
    """Rule apollo_shared: "Any number of players may go to Apollo, for nothing; they
    take Apollo's spaces 1, 2, ... in the order they arrive." """
    g = play(GODS_UP + """
        Ann: Apollo
        Bob: 1 on Zeus
        Cy: Apollo
        Dan: Apollo
        Eve: 1 on Ares
        Ann/Apollo: prosperity on IS2
    """)
    assert g.problems == []
    paid = g.when("pay_offerings")
    assert [(m[0], n) for m, god, n in fluents(paid.before, "offer") if god == "apollo"] == [
        ("Ann", 1), ("Cy", 2), ("Dan", 3)]
    assert golds(paid.after) == {"Ann": 7, "Bob": 6, "Cy": 7, "Dan": 7, "Eve": 6}
    # They act last, in the order of their spaces (rule action_order).
    finished = sorted((k, m[0]) for m, k in fluents(g.when("end_cycle").before, "finished"))
    assert [p for _, p in finished] == ["Bob", "Eve", "Ann", "Cy", "Dan"]


# -- the 2-player game --------------------------------------------------------------------------
#
# 2p board: Ann (IS1, IS7) and Bob (IS2, IS8), income 2 each: 7 GP in cycle 1.
# Turn track (header order): Ann, Bob, Ann, Bob — Ann's 1st marker, Bob's 1st, ...

GODS_2P = """
    cycle 1
    creatures: Pegasus
    gods: Zeus, Athena, Ares / Poseidon
"""


def test_two_player_markers_each_player_offers_twice():
    """Rule two_player_markers: "In the 2-player game each player has two offering
    markers of their colour; the four are shuffled onto the turn track, and the gods
    are set out as in the 4-player game." """
    g = play(GODS_2P + """
        Ann: 2 on Zeus
        Bob: 1 on Athena
        Ann: 2 on Ares
        Bob: Apollo
        Bob/Apollo: prosperity on IS2
    """, players=2, order="Ann, Bob, Ann, Bob")
    assert g.problems == []
    assert turn_order(g.run.initial) == ["Ann", "Bob", "Ann", "Bob"]
    paid = g.when("pay_offerings")
    # Ann pays both her offerings: 7 - 2 - 2 = 3; Bob 7 - 1 (Apollo is free) = 6.
    assert golds(paid.after, 2) == {"Ann": 3, "Bob": 6}
    # The order of the turn track decides who offers: Bob's second offering comes
    # after Ann's second.
    g = play(GODS_2P + """
        Ann: 2 on Zeus
        Bob: 1 on Athena
        Bob: Apollo
    """, players=2, order="Ann, Bob, Ann, Bob")
    assert g.problems == [("Bob: Apollo", ("not_in_control", "offering_order"))]
    assert g.first == [("Bob: Apollo", "offering_order")]


def test_two_player_two_gods_the_two_markers_go_to_two_different_gods():
    """Rule two_player_two_gods: "In the 2-player game each player makes offerings to
    two different gods with their two markers; a player may outbid their own
    offering." — both markers on Apollo are not two gods."""
    g = play(GODS_2P + """
        Ann: Apollo
        Bob: 1 on Zeus
        Ann: Apollo
    """, players=2)
    assert g.problems == [("Ann: Apollo", ("two_player_two_gods",))]


#: Ann outbids her own offering on Zeus (2 then 3); her first marker must move.
SELF_OUTBID = GODS_2P + """
    Ann: 2 on Zeus
    Bob: 1 on Athena
    Ann: 3 on Zeus
"""


def test_two_player_two_gods_a_player_may_outbid_their_own_offering():
    """Rule two_player_two_gods: "... a player may outbid their own offering." — and
    then the outbid marker moves to a different god (rule offering_outbid_moves)."""
    g = play(SELF_OUTBID + """
        Ann: 4 on Ares
        Bob: Apollo
        Bob/Apollo: prosperity on IS2
    """, players=2)
    assert g.problems == []
    assert holds(g.after("Ann: 3 on Zeus"), "outbid", marker("Ann"), ":zeus")
    # 7 - 3 (Zeus) - 4 (Ares) = 0: both offerings paid, the outbid one not.
    assert gold(g.when("pay_offerings").after, "Ann") == 0
    g = play(SELF_OUTBID + "Ann: 4 on Zeus\n", players=2)
    assert g.problems == [("Ann: 4 on Zeus", ("offering_outbid_moves",))]


def test_offering_affordable_two_player_game_both_offerings_together():
    """Rule offering_affordable: "... in the 2-player game a player must be able to pay
    both their offerings together, each priest lowering each offering by 1 GP, to no
    less than 1 GP." — Ann has 7 GP: 4 + 3 is affordable, 4 + 4 is not; after
    outbidding herself on Zeus at 3, her other marker may offer 4 but not 5."""
    g = play(GODS_2P + """
        Ann: 4 on Zeus
        Bob: 1 on Athena
        Ann: 3 on Ares
    """, players=2)
    assert g.problems == []
    g = play(GODS_2P + """
        Ann: 4 on Zeus
        Bob: 1 on Athena
        Ann: 4 on Ares
    """, players=2)
    assert g.problems == [("Ann: 4 on Ares", ("offering_affordable",))]
    g = play(SELF_OUTBID + "Ann: 5 on Ares\n", players=2)
    assert g.problems == [("Ann: 5 on Ares", ("offering_affordable",))]


#: 2 players, cycle 1: Ann takes Apollo and Zeus (2 priests: 7 - 3 - 4 = 0, then
#: Apollo's 1 GP (two islands) -> 1, and her prosperity marker on IS1); Bob takes
#: Athena and the second Apollo space (7 - 1 = 6, + 1 = 7).
#: Finishing order: Ann (Zeus), Bob (Athena), Ann (Apollo 1), Bob (Apollo 2), so the
#: cycle 2 track is Bob, Ann, Bob, Ann. Cycle 2: Ann's income IS1 2 + marker 1 = 3 -> 4.
PRIESTS_2P = GODS_2P + """
    Ann: Apollo
    Bob: 1 on Athena
    Ann: 3 on Zeus
    Bob: Apollo
    Ann/Zeus: 2 priests
    Ann/Apollo: prosperity on IS1
    cycle 2
    creatures: Harpy, Pegasus
    gods: Poseidon, Zeus, Athena / Ares
    Bob: 1 on Athena
"""


def test_offering_affordable_two_player_priests_lower_each_offering():
    """Rule offering_affordable: "... in the 2-player game a player must be able to pay
    both their offerings together, each priest lowering each offering by 1 GP, to no
    less than 1 GP." — Ann, 4 GP and 2 priests: 3 + 5 costs 1 + 3 = 4 (affordable);
    3 + 6 costs 1 + 4 = 5 (not affordable)."""
    g = play(PRIESTS_2P + """
        Ann: 3 on Zeus
        Bob: Apollo
        Ann: 5 on Poseidon
        Bob/Apollo: prosperity on IS2
    """, players=2)
    assert g.problems == []
    assert turn_order(g.when("end_cycle").after) == ["Bob", "Ann", "Bob", "Ann"]
    assert gold(g.before("Ann: 3 on Zeus", nth=2), "Ann") == 4
    assert gold(g.when("pay_offerings", 2).after, "Ann") == 0
    g = play(PRIESTS_2P + """
        Ann: 3 on Zeus
        Bob: Apollo
        Ann: 6 on Poseidon
        Bob/Apollo: prosperity on IS2
    """, players=2)
    assert g.problems == [("Ann: 6 on Poseidon", ("offering_affordable",))]


def test_offering_payment_two_player_priests_lower_each_offering_to_1_gp():
    """Rule offering_payment: "... In the 2-player game the priests lower each of the two
    offerings." — Ann (2 priests) offers 2 and 1: she pays 1 + 1 = 2."""
    g = play(PRIESTS_2P + """
        Ann: 2 on Zeus
        Bob: Apollo
        Ann: 1 on Poseidon
        Bob/Apollo: prosperity on IS2
    """, players=2)
    assert g.problems == []
    paid = g.when("pay_offerings", 2)
    assert gold(paid.before, "Ann") == 4 and gold(paid.after, "Ann") == 2
