"""Luna, scoring a round, the next round and the end (seed 002: 计分阶段,
下回合准备, 游戏结束, 2人特殊规则).

2 players, introductory layout: the priestess starts on island 1 (Ann's
shrine), the Apostate on 5 (Ann's and Bob's pairs), the Builder on 3;
priestess values 5, 3, 1 and council values are data (unverified).
"""

from __future__ import annotations

from helpers.luna import check, round_one, transcript

from referee.base.terms import fn
from referee.game.parts import part
from referee.game.parts.words import Words
from referee.games.luna.fluents import BuilderStep, CouncilValue, PriestessValue

END_OF_ACTIONS = ("Ann: meditate", "Bob: meditate", "Ann: meditate")


def scored(pos):
    """The position after the round's scoring step."""
    pos = pos.after(*END_OF_ACTIONS) if pos.phase() == "actions" else pos
    assert pos.phase() == "scoring"
    return pos, pos.game_step()


def priestess_values(pos):
    return [f.value for f in PriestessValue.of(sorted(pos.rules.static, key=str))]


def test_score_priestess_active_novices_and_shrines_on_her_island():
    """Rule score_priestess: the most scores her largest value, the second the next."""
    values = sorted(priestess_values(round_one()), reverse=True)
    pos = round_one().set_novices("Bob", 1, "active", 2)   # Bob 2, Ann 1 (her shrine)
    before, after = scored(pos)
    apostate = {p: -(before.novices(p, 5) + before.novices(p, 5, "inactive") + 1) for p in ("Ann", "Bob")}
    temple = 1
    assert after.score("Bob") - before.score("Bob") == values[0] + apostate["Bob"] + temple
    assert after.score("Ann") - before.score("Ann") == values[1] + apostate["Ann"] + temple


def test_score_priestess_inactive_novices_do_not_count():
    """Rule score_priestess: only active novices (and shrines) count."""
    values = sorted(priestess_values(round_one()), reverse=True)
    pos = round_one().set_novices("Bob", 1, "inactive", 3)
    before, after = scored(pos)
    assert after.score("Ann") - before.score("Ann") == values[0] - 3 + 1  # Apostate: Ann's 2 on island 5


def test_score_priestess_ties_go_to_the_player_ahead_on_the_council():
    """Rule score_priestess: equal counts -- the disc further along wins, and on
    one seat the higher in the stack (seed 002: 如果数量相等，再按照玩家在牧师教会中的位置来决定;
    the publisher's forum and spielen.de say the council breaks these ties too)."""
    values = sorted(priestess_values(round_one()), reverse=True)
    pos = round_one().set_novices("Bob", 1, "active", 1)  # 1 each (Ann's shrine)
    before, after = scored(pos)  # both on seat 0, Bob higher in the stack
    gain = {p: after.score(p) - before.score(p) for p in ("Ann", "Bob")}
    assert gain["Bob"] - gain["Ann"] == values[0] - values[1]
    ahead = pos.changed([fn("disc", "Ann", 1, 1)], [fn("disc", "Ann", 0, 1)])
    before, after = scored(ahead)
    gain = {p: after.score(p) - before.score(p) for p in ("Ann", "Bob")}
    assert gain["Ann"] - gain["Bob"] == values[0] - values[1]


def test_score_apostate_count_plus_one_shrines_do_not_count():
    """Rule score_apostate: on or beside his island, the count plus 1 is lost; a
    shrine there costs nothing; a player with no novice there loses nothing."""
    pos = round_one().changed([fn("figure", fn("apostate"), 3)], [fn("figure", fn("apostate"), 5)])
    pos = pos.set_novices("Bob", 3, "inactive", 2)  # Bob's shrine is on 3 too
    values = sorted(priestess_values(round_one()), reverse=True)
    before, after = scored(pos)
    assert after.score("Bob") - before.score("Bob") == -(2 + 1) + 1  # inactive novices count; +1 temple
    assert after.score("Ann") - before.score("Ann") == values[0] - (2 + 1) + 1


def test_score_temple_one_per_novice_in_the_temple():
    """Rule score_temple: "玩家在每个神庙中的学徒都为玩家带来1影响力"."""
    pos = round_one().changed([fn("temple", 5, "Bob"), fn("temple", 6, "Bob")])
    before, after = scored(pos)
    assert after.score("Bob") - before.score("Bob") == 3 - 3  # 3 temple novices, Apostate -3


def test_next_reactivate_inactive_novices_return_active():
    """Rule next_reactivate: beside the islands -> on them; the jetty keeps its own."""
    pos = round_one().after("Ann: recruit on 2").set_novices("Bob", "jetty", "inactive", 1)
    pos = pos.after("Bob: meditate", "Ann: meditate", "Bob: meditate")
    nxt = pos.game_step().game_step()
    assert nxt.novices("Ann", 2, "active") == 3 and nxt.novices("Ann", 2, "inactive") == 0
    assert nxt.novices("Bob", "jetty", "inactive") == 1


def test_next_figures_priestess_and_builder_move_by_their_largest_number():
    """Rule next_figures: clockwise, by the largest number."""
    _, after = scored(round_one())
    nxt = after.game_step()
    step = max(priestess_values(round_one()))
    builder = BuilderStep.one(round_one().rules.static).steps
    assert nxt.figure("priestess") == (round_one().figure("priestess") - 1 + step) % 7 + 1
    assert nxt.figure("builder") == (round_one().figure("builder") - 1 + builder) % 7 + 1


def test_next_apostate_to_the_next_island_with_a_novice():
    """Rule next_apostate: clockwise, skipping islands without novices."""
    pos = round_one().changed([fn("figure", fn("apostate"), 7)], [fn("figure", fn("apostate"), 5)])
    pos = pos.set_novices("Ann", 2, "active", 0).set_novices("Bob", 4, "active", 0)
    _, after = scored(pos.set_novices("Bob", 7, "active", 0))
    nxt = after.game_step()
    # island 1: nobody's novices (Ann's shrine only); 2: emptied; 3: Ann's pair
    assert nxt.figure("apostate") == 3


def test_next_guard_and_markers_a_new_round():
    """Rules next_guard and next_markers: the guard moves on (the round counts the
    guard tiles) and the time markers are stacked again."""
    _, after = scored(round_one())
    nxt = after.game_step()
    assert nxt.value("round") == 2 and nxt.value("markers") == 3 and nxt.phase() == "actions"


def test_end_scoring_shrines_favours_and_council_seat():
    """Rule end_scoring: after round 6: 4 per shrine, 1 per favour, the seat's value."""
    last = round_one().changed([fn("round", 6), fn("disc", "Ann", 3, 1)], [fn("round", 1), fn("disc", "Ann", 0, 1)])
    before, after = scored(last)
    assert after.phase() == "final"
    end = after.game_step()
    council = {f.seat: f.value for f in CouncilValue.of(round_one().rules.static)}
    assert end.phase() == "over"
    assert end.score("Ann") - after.score("Ann") == 4 * 1 + 2 + council[3]
    assert end.score("Bob") - after.score("Bob") == 4 * 1 + 2 + council[0]


def test_end_tie_goes_to_the_player_ahead_on_the_council():
    """Rule end_tie: equal influence -- the council decides."""
    last = round_one().changed([fn("round", 6)], [fn("round", 1)])
    _, after = scored(last)
    scores = [f for f in after.state if f.name == "score"]
    even = after.changed([fn("score", "Ann", 20), fn("score", "Bob", 20)], scores)
    end = even.game_step()
    assert end.has("winner", "Bob")  # same seat, Bob's disc on top
    ahead = even.changed([fn("disc", "Ann", 1, 1)], [fn("disc", "Ann", 0, 1)])
    assert ahead.game_step().has("winner", "Ann")
    # and the outcome line ranks the tied players as the rule does: the winner first, whatever
    # order the state's fluents are walked in (it followed Python's hash seed)
    words = part(round_one().rules, Words)
    for finished, first, second in ((end, "Bob", "Ann"), (ahead.game_step(), "Ann", "Bob")):
        points = finished.score(first)
        assert finished.score(second) == points
        assert words.describe_outcome(finished.state) == (f"{first} wins with {points} influence "
                                                         f"({first} {points}, {second} {points})")


def test_the_game_lasts_six_rounds():
    """Rule next_guard: the last guard tile means the last round -- no round 7."""
    rounds = "\n".join(f"round {r}\nAnn: meditate\nBob: meditate\nAnn: meditate" if r % 2 else
                       f"round {r}\nBob: meditate\nAnn: meditate\nBob: meditate" for r in range(1, 7))
    session, report = check(transcript(rounds))
    assert report.problems == [] and report.winners
    assert session.rules.is_over(session.referee.run().final)


def test_game_step_bookkeeping_only_at_its_point_of_the_round():
    """Rule game_step: "The bookkeeping steps of the game happen at their point of the
    round only." — with the scoring due, the game cannot prepare the next round yet; a
    catch-all, alone when no other rule applies."""
    pos = round_one().after("Ann: meditate", "Bob: meditate", "Ann: meditate")
    assert pos.phase() == "scoring"
    assert pos.judge_term(fn("game"), fn("next_round")).rules == {"game_step"}

