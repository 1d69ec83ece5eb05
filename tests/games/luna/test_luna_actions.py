"""Luna, the island actions, the favours, the council, the Apostate and
meditation (seed 002: 行动阶段).

In the 2-player introductory layout Ann has her shrine on 1, pairs on 2-5 and
holds waves and substitute; Bob his shrine on 3, pairs on 4-7, and holds
shrine and herbs; the Builder stands on 3, the Apostate on 5.
"""

from __future__ import annotations

from helpers.luna import position, round_one

from referee.base.terms import fn
from referee.games.luna.fluents import CouncilValue, Supply


def test_novices_active_acting_novices_become_inactive_beside_the_island():
    """Rule novices_active: only active novices act; afterwards they are inactive."""
    pos = round_one().after("Ann: favour on 3")
    assert pos.novices("Ann", 3, "active") == 0 and pos.novices("Ann", 3, "inactive") == 2
    assert pos.after("Bob: meditate").judge("Ann: recruit on 3").rules == {"island_novices"}


def test_favour_take_two_novices_one_with_a_shrine():
    """Rule favour_take: two active novices of one island take its favour; one
    novice where the player has a shrine."""
    pos = round_one().after("Ann: favour on 3")
    assert pos.holds("Ann") == {"waves", "substitute", "book"} and pos.pool(3) == 1
    shrine = round_one().set_novices("Ann", 1, "active", 1).after("Ann: favour on 1")
    assert "shrine" in shrine.holds("Ann") and shrine.novices("Ann", 1, "inactive") == 1
    assert round_one().set_novices("Ann", 2, "active", 1).judge("Ann: favour on 2").rules == {"island_novices"}


def test_favour_one_each_not_a_kind_already_held():
    """Rule favour_one_each: "你只能同时保留每种特权块各一个"; seed 002 on the action: "你不能获得已经拥有的特权块"."""
    pos = round_one().set_novices("Ann", 6, "active", 2)
    assert pos.judge("Ann: favour on 6").rules == {"favour_one_each"}


def test_favour_none_left_on_the_island():
    """Rule favour_none_left: the island must still have a token."""
    pos = round_one().changed(remove=[fn("pool", 3, 2)])
    assert pos.judge("Ann: favour on 3").rules == {"favour_none_left"}


def test_recruit_a_third_novice_from_the_supply_all_three_inactive():
    """Rule recruit: "... 3个学徒均为不可用状态"."""
    pos = round_one().after("Ann: recruit on 2")
    assert pos.novices("Ann", 2, "inactive") == 3 and pos.novices("Ann", 2, "active") == 0
    assert pos.value("supply", "Ann") == round_one().value("supply", "Ann") - 1


def test_recruit_supply_thirteen_novices_four_left_after_the_setup():
    """Rule recruit_supply with data.toml novices_per_player = 13 (verified: spielkult.de, superfred.de,
    keirat: 52 novices, 13 a colour): 8 on the islands and 1 in the temple leave 4 in the supply, so a
    fifth recruit has no novice to take."""
    assert round_one().value("supply", "Ann") == 4 and round_one().value("supply", "Bob") == 4
    pos = round_one().set_novices("Ann", 2, "active", 10).set_novices("Bob", 4, "active", 10)
    for _ in range(4):
        pos = pos.after("Ann: recruit on 2", "Bob: recruit on 4")
    assert pos.value("supply", "Ann") == 0
    assert pos.judge("Ann: recruit on 2").rules == {"recruit_supply"}


def test_recruit_supply_needs_a_novice_in_the_supply():
    """Rule recruit_supply: no novice left, no recruit."""
    pos = round_one().changed(remove=[f.term() for f in Supply.of(round_one().state) if f.player == "Ann"])
    assert pos.judge("Ann: recruit on 2").rules == {"recruit_supply"}


def test_shrine_build_on_the_builders_island_with_a_shrine_favour():
    """Rule shrine_build: a shrine favour and two novices on the Builder's island."""
    bob = round_one().after("Ann: meditate").set_novices("Bob", 4, "active", 2)
    builder = bob.figure("builder")
    assert bob.judge("Bob: shrine on 4").rules == {"shrine_builder_island"}
    moved = bob.changed([fn("figure", fn("builder"), 4)], [fn("figure", fn("builder"), builder)])
    after = moved.after("Bob: shrine on 4")
    assert after.has("shrine", "Bob", 4) and "shrine" not in after.holds("Bob")
    assert after.pool(1) == round_one().pool(1) + 1  # the favour goes back to its island (rule favour_returns)


def test_shrine_favour_is_needed():
    """Rule shrine_favour: Ann holds no shrine favour."""
    assert round_one().judge("Ann: shrine on 3").rules == {"shrine_favour"}


def test_shrine_one_per_island_per_player():
    """Rule shrine_one_per_island: at most one shrine of a player on an island."""
    bob = round_one().after("Ann: meditate").set_novices("Bob", 3, "active", 2)
    assert bob.judge("Bob: shrine on 3").rules == {"shrine_one_per_island"}


def test_shrine_supply_six_shrines_a_player():
    """Rule shrine_supply (data.toml shrines_per_player = 6, verified: 24 shrines in the box, 6 a colour, the
    most a player builds): with six shrines standing Bob cannot build a seventh, with five he can."""
    bob = round_one().after("Ann: meditate").set_novices("Bob", 3, "active", 2)
    five = bob.changed([fn("shrine", "Bob", i) for i in (1, 2, 4, 5)])   # and his own on 3
    builder = bob.figure("builder")
    on6 = [fn("figure", fn("builder"), 6)], [fn("figure", fn("builder"), builder)]
    five = five.changed(*on6).set_novices("Bob", 6, "active", 2)
    assert five.judge("Bob: shrine on 6").legal
    six = five.changed([fn("shrine", "Bob", 7)])
    verdict = six.judge("Bob: shrine on 6")
    assert verdict.rules == {"shrine_supply"}
    assert [v.args for v in verdict.violations] == [(6,)]


def test_herbs_reactivate_one_or_two_not_on_the_herb_island():
    """Rules herbs, herbs_not_herb_island, herbs_count, herbs_inactive."""
    bob = round_one().after("Ann: meditate", "Bob: recruit on 4", "Ann: meditate")
    after = bob.after("Bob: herbs 2 on 4")
    assert after.novices("Bob", 4, "active") == 2 and after.novices("Bob", 4, "inactive") == 1
    assert "herbs" not in after.holds("Bob") and after.pool(2) == bob.pool(2) + 1
    assert bob.judge("Bob: herbs 3 on 4").rules == {"herbs_count"}
    assert bob.judge("Bob: herbs 1 on 5").rules == {"herbs_inactive"}
    on_herbs = bob.set_novices("Bob", 2, "inactive", 1)
    assert on_herbs.judge("Bob: herbs 1 on 2").rules == {"herbs_not_herb_island"}


def test_travel_any_active_novices_to_any_islands_become_inactive():
    """Rule travel: groups from several islands in one action; they land inactive."""
    pos = round_one().after("Ann: travel 1 from 2 to 6, 2 from 3 to 7")
    assert pos.novices("Ann", 2) == 1 and pos.novices("Ann", 3) == 0
    assert pos.novices("Ann", 6, "inactive") == 1 and pos.novices("Ann", 7, "inactive") == 2
    assert pos.control() == "Ann" and pos.legal() >= {fn("done"), fn("travel", 2, 5, 1)}
    assert pos.end_turn().control() == "Bob"
    assert round_one().judge("Ann: travel 3 from 2 to 6").rules == {"move_novices"}
    assert round_one().judge("Ann: travel 1 from 2 to 2").rules == {"move_target"}
    spent = round_one().after("Ann: favour on 3", "Bob: meditate")
    assert spent.judge("Ann: travel 1 from 3 to 6").rules == {"move_novices"}  # inactive ones stay


def test_action_turn_order_the_turn_passes_to_the_left():
    """Rule action_turn_order: after the start player, the turn passes to the player on
    the left of the one who has just acted."""
    pos = position("round 1\nAnn: recruit on 2", 3)
    again = pos.judge("Ann: recruit on 3")
    assert again.rules == {"action_turn_order", "not_in_control"} and again.first == "action_turn_order"
    assert again.message("action_turn_order") == \
        "it is Bob's turn: Ann has just acted, and the turn passes to the player on the left"
    assert pos.judge("Cy: recruit on 6").first == "action_turn_order"
    # While Ann's travel goes on (she keeps the turn until done), only the catch-all applies.
    assert round_one().after("Ann: travel 1 from 2 to 6").judge("Bob: meditate").rules == {"not_in_control"}


def test_action_turn_order_after_two_swapped_turns_the_order_is_as_before():
    """Rule action_turn_order: a move out of turn, applied as played, takes the turn it jumped (the
    turn passes on from the mover); a player passed over who then acts makes up that turn, and the
    turn stays where it was. Each swapped move breaks the rule once; the next lines in order are legal."""
    pos = position("round 1\nAnn: recruit on 2", 3)
    cy = pos.judge("Cy: council 1 from 6")
    assert cy.first == "action_turn_order" and cy.after.control() == "Ann"
    bob = cy.after.judge("Bob: council 1 from 4")
    assert bob.first == "action_turn_order" and bob.after.control() == "Ann"
    assert bob.message("action_turn_order") == \
        "it is Ann's turn: Cy has just acted, and the turn passes to the player on the left"
    assert bob.after.after("Ann: council 1 from 3", "Bob: council 1 from 5", "Cy: council 1 from 7").control() == "Ann"
    # a turn jumped and then reached in order is taken as usual
    assert cy.after.after("Ann: council 1 from 3", "Bob: council 1 from 5").control() == "Cy"
    # out of turn, a travel keeps the turn for the mover's next groups, then passes on from the mover
    travel = pos.judge("Cy: travel 1 from 6 to 3")
    assert travel.first == "action_turn_order" and travel.after.control() == "Cy"
    assert travel.after.after("Cy: travel 1 from 7 to 3").end_turn().control() == "Ann"
    # a travel that makes up a turn keeps it for its groups, and the turn comes back at its end
    made_up = cy.after.judge("Bob: travel 1 from 4 to 1")
    assert made_up.first == "action_turn_order" and made_up.after.control() == "Bob"
    assert made_up.after.after("Bob: travel 1 from 5 to 2").end_turn().control() == "Ann"


def test_action_turns_a_travel_is_one_action():
    """Rule action_turns: during a travel, only more groups; then the turn passes."""
    pos = round_one().after("Ann: travel 1 from 2 to 6")
    assert pos.judge("Ann: recruit on 3").rules == {"action_turns"}
    assert pos.judge("Bob: meditate").rules == {"not_in_control"}
    assert round_one().judge_term("Ann", fn("done")).rules == {"action_turns"}  # no travel to end


def test_waves_active_and_inactive_novices_from_islands_and_the_jetty():
    """Rule waves: any novices, from any islands and the jetty, land inactive; the
    favour is used once for the whole action."""
    pos = round_one().after("Ann: favour on 3", "Bob: meditate").set_novices("Ann", "jetty", "inactive", 1)
    after = pos.after("Ann: waves 2 inactive from 3 to 6, 1 from jetty to 6, 1 from 2 to 7")
    assert after.novices("Ann", 6, "inactive") == 3 and after.novices("Ann", 7, "inactive") == 1
    assert after.novices("Ann", "jetty", "inactive") == 0 and "waves" not in after.holds("Ann")
    assert after.pool(6) == pos.pool(6) + 1
    assert after.judge("Ann: travel 1 from 4 to 5").rules == {"action_turns"}  # not a second action
    assert round_one().after("Ann: meditate").judge("Bob: waves 1 from 4 to 1").rules == {"favour_missing"}


def test_sailboat_one_or_two_novices_stay_active():
    """Rules sailboat and sailboat_count: one or two novices of one island or the jetty; still active."""
    pos = round_one().after("Ann: favour on 4", "Bob: meditate")
    after = pos.after("Ann: sailboat 2 from 2 to 6")
    assert after.novices("Ann", 6, "active") == 2
    assert pos.set_novices("Ann", 2, "active", 3).judge("Ann: sailboat 3 from 2 to 6").rules == {"sailboat_count"}
    jetty = pos.set_novices("Ann", "jetty", "inactive", 1).after("Ann: sailboat 1 from jetty to 5")
    assert jetty.novices("Ann", 5, "active") == 3


def test_substitute_replaces_one_novice_of_another_action():
    """Rule substitute: the favour stands for one novice and goes back to its island."""
    after = round_one().after("Ann: recruit on 2 with substitute")
    assert after.novices("Ann", 2, "active") == 1 and after.novices("Ann", 2, "inactive") == 2
    assert "substitute" not in after.holds("Ann") and after.pool(7) == round_one().pool(7) + 1
    assert round_one().after("Ann: meditate").judge("Bob: recruit on 4 with substitute").rules == {"substitute_favour"}


def test_substitute_never_takes_a_temple_tile():
    """Rule substitute_not_for_tile: "你不能使用虚拟学徒占领神庙块"."""
    assert round_one().judge("Ann: occupy 5 from 5 with substitute").rules == {"substitute_not_for_tile"}


def test_substitute_never_takes_another_substitute_favour():
    """Rule substitute_not_for_substitute (Ann, holding one, breaks favour_one_each too)."""
    pos = round_one().set_novices("Ann", 7, "active", 2)
    assert pos.judge("Ann: favour on 7 with substitute").rules == {"substitute_not_for_substitute",
                                                                     "favour_one_each"}


def test_substitute_needs_a_novice_of_the_players_own():
    """Rule substitute_needs_a_novice (seed 002 read literally, reading zh-002-literal): with a
    shrine the favour action uses one novice, which the substitute cannot be alone; by default
    (rule substitute) it can."""
    pos = round_one("rules: zh-002-literal").set_novices("Ann", 1, "active", 1)
    assert pos.judge("Ann: favour on 1 with substitute").rules == {"substitute_needs_a_novice"}
    assert round_one().set_novices("Ann", 1, "active", 1).judge("Ann: favour on 1 with substitute").rules == set()


def test_council_advance_one_seat_per_novice_and_stack_on_top():
    """Rule council: the disc moves as many seats as novices used and goes on top."""
    pos = round_one().after("Ann: council 2 from 2")
    assert pos.discs()["Ann"] == (2, 1) and pos.novices("Ann", 2, "inactive") == 2
    pos = pos.after("Bob: council 2 from 4")
    assert pos.discs()["Bob"] == (2, 2)  # on top of Ann's
    assert round_one().judge("Ann: council 3 from 2").rules == {"island_novices"}


def test_council_last_seat_goes_under_the_stack():
    """Rule council: "... 但是如果在教会条的最后一格，则把你的圆饼放在堆叠的最下方"."""
    last = round_one().value("last_seat", default=None) or max(f.seat for f in CouncilValue.of(round_one().rules.static))
    pos = round_one().changed([fn("disc", "Ann", last - 2, 1), fn("disc", "Bob", last, 1)],
                        [fn("disc", "Ann", 0, 1), fn("disc", "Bob", 0, 2)])
    after = pos.after("Ann: council 2 from 2")
    assert after.discs() == {"Ann": (last, 1), "Bob": (last, 2)}
    assert pos.judge("Ann: council 2 from 2").legal
    assert pos.set_novices("Ann", 2, "active", 3).judge("Ann: council 3 from 2").rules == {"council_end"}


def test_banish_moves_the_apostate_clockwise_one_island_per_novice():
    """Rule banish: with novices of his island; 7 wraps to 1."""
    pos = round_one().after("Ann: banish 2")
    assert pos.figure("apostate") == 7 and pos.novices("Ann", 5, "inactive") == 2
    wrap = pos.after("Bob: banish 2")
    assert wrap.figure("apostate") == 2
    assert round_one().changed([fn("figure", fn("apostate"), 6)], [fn("figure", fn("apostate"), 5)]) \
        .judge("Ann: banish 1").rules == {"island_novices"}


def test_meditate_flips_a_marker_and_the_player_stays_in_the_round():
    """Rule meditate: the player acts again on their next turn."""
    pos = round_one().after("Ann: meditate", "Bob: meditate")
    assert pos.value("markers") == 1 and pos.control() == "Ann"
    assert pos.judge("Ann: recruit on 2").legal


def test_meditate_last_ends_the_phase_flipper_scores_1_left_player_starts():
    """Rule meditate_last (3 players): the player on the flipper's left starts the next round."""
    pos = position("round 1\nAnn: meditate\nBob: meditate\nCy: meditate", 3)
    after = pos.after("Ann: recruit on 2", "Bob: meditate")
    assert after.phase() == "scoring" and after.control() == fn("game")
    assert after.has("start", "Cy")
    assert after.judge("Cy: recruit on 6").rules == {"not_in_control"}  # the action phase is over
    # Round 2: Cy starts; Ann, the start player of round 1, does not.
    nxt = after.game_step().game_step()
    assert nxt.control() == "Cy"
    ann_first = nxt.judge("Ann: meditate")
    assert ann_first.rules == {"meditate_last", "not_in_control"} and ann_first.first == "meditate_last"
    assert ann_first.message("meditate_last") == \
        "Bob flipped the last time marker last round, so Cy, on Bob's left, starts this round"
    # Once Cy has acted, the turn goes round: that is another rule.
    assert nxt.after("Cy: meditate").judge("Bob: meditate").first == "action_turn_order"


def test_meditate_last_flipper_scores_one():
    pos = position("round 1\nAnn: meditate\nBob: meditate\nCy: meditate", 3)
    after = pos.after("Ann: meditate")
    assert after.score("Ann") == pos.score("Ann") + 1 and after.has("start", "Bob")


def test_two_player_start_the_marker_goes_to_the_other_player():
    """Rule two_player_start: in the 2-player game the start player alternates,
    whoever flipped the last marker."""
    pos = round_one().after("Ann: meditate", "Bob: meditate", "Ann: meditate")  # Ann flips the last
    assert pos.has("start", "Bob")
    pos = pos.game_step().game_step()
    assert pos.control() == "Bob"
    ann_first = pos.judge("Ann: meditate")
    assert ann_first.rules == {"two_player_start", "not_in_control"} and ann_first.first == "two_player_start"
    assert ann_first.message("two_player_start") == \
        "Bob holds the start player marker in round 2 (with 2 players it changes hands every round), so Bob acts first"
    pos = pos.after("Bob: meditate", "Ann: meditate", "Bob: meditate")  # Bob flips the last
    assert pos.has("start", "Ann")


def test_counts_and_places_the_notation_refuses_are_judged_by_their_rule():
    """Rules council_count, banish_count, move_count, travel_active and
    meditate_markers: moves the notation refuses to read (a count of 0, a travel from
    the jetty, a meditation with no time marker left) can still be built by a program
    (the service's JSON moves); each is judged by its own rule, named first."""
    from helpers.luna import Position
    assert round_one().judge_term("Ann", fn("council", 2, 0, 0)).first == "council_count"
    assert round_one().judge_term("Ann", fn("banish", 0, 0)).first == "banish_count"
    assert round_one().judge_term("Ann", fn("travel", 2, 6, 0)).first == "move_count"
    # From the jetty (whose novices are inactive, so none can travel: move_novices too).
    from_jetty = round_one().judge_term("Ann", fn("travel", fn("jetty"), 3, 1))
    assert from_jetty.rules == {"travel_active", "move_novices"} and from_jetty.first == "travel_active"
    no_markers = Position(round_one().rules, frozenset(f for f in round_one().state if f.name != "markers") | {fn("markers", 0)})
    assert no_markers.judge_term("Ann", fn("meditate")).rules == {"meditate_markers"}

