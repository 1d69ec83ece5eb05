"""Luna, the temple: temple tiles, entering, expelling, books (seed 002: 神庙动作).

2 players, introductory layout: temple parts 1 and 2 (data.toml, unverified):
Ann's tile 1 and Bob's tile 2 are in the temple with books; the path groups
are (5, 6), (9, 10), (13, 14)...; tile T shows island ((T-1) mod 7)+1.
"""

from __future__ import annotations

from helpers.luna import position, round_one

from referee.base.terms import fn


def test_tile_take_first_novice_on_the_tile_second_inactive():
    """Rule tile_take: "将第一个学徒放在指定的神庙块上，将第二个学徒放在岛下变为不可用"."""
    after = round_one().after("Ann: occupy 5 from 5")
    assert after.has("on_tile", 5, "Ann")
    assert after.novices("Ann", 5, "active") == 0 and after.novices("Ann", 5, "inactive") == 1


def test_tile_take_with_a_shrine_only_the_first_novice():
    """Rule tile_take (神殿奖励): with a shrine on the island, one novice is enough."""
    pos = round_one().changed([fn("shrine", "Ann", 5)])
    after = pos.after("Ann: occupy 5 from 5")
    assert after.novices("Ann", 5, "active") == 1 and after.novices("Ann", 5, "inactive") == 0


def test_tile_free_not_a_tile_someone_occupies():
    """Rule tile_free: "占领一个空闲 ... 的神庙块"."""
    pos = round_one().after("Ann: occupy 5 from 5").set_novices("Bob", 5, "active", 2)
    assert pos.judge("Bob: occupy 5 from 5").rules == {"tile_free"}


def test_tile_symbol_must_be_the_islands():
    """Rule tile_symbol: tile 6 shows island 6's symbol."""
    assert round_one().judge("Ann: occupy 6 from 5").rules == {"tile_symbol"}


def test_tile_available_between_guard_and_jetty_bribe_one_group_further():
    """Rules tile_available and bribe / bribe_reach."""
    pos = round_one().after("Ann: favour on 5", "Bob: meditate")
    assert pos.judge("Ann: occupy 9 from 2").rules == {"tile_available"}
    assert pos.judge("Ann: occupy 9 from 2 with bribe").legal
    far = pos.set_novices("Ann", 6, "active", 2)
    assert far.judge("Ann: occupy 13 from 6 with bribe").rules == {"bribe_reach"}
    after = pos.after("Ann: occupy 9 from 2 with bribe")
    assert "bribe" not in after.holds("Ann") and after.pool(5) == pos.pool(5) + 1


def test_tile_available_grows_as_the_guard_moves():
    """Rule next_guard: in round 2 the guard stands on the 5; group 2 is available."""
    pos = round_one().after("Ann: meditate", "Bob: meditate", "Ann: meditate").game_step().game_step()
    assert pos.value("round") == 2
    assert pos.judge("Bob: occupy 10 from 3").rules == {"island_novices"}  # available now; Bob has no novice on 3
    assert pos.set_novices("Bob", 3, "active", 2).judge("Bob: occupy 10 from 3").legal


def test_temple_enter_scores_the_guards_tile():
    """Rule temple_enter: the guard's tile (6 in round 1) is scored."""
    pos = round_one().after("Ann: occupy 5 from 5", "Bob: meditate")
    after = pos.after("Ann: enter 5")
    assert after.has("temple", 5, "Ann") and not after.has("path", 5)
    assert after.score("Ann") == pos.score("Ann") + 6


def test_enter_own_tile_and_enter_available():
    """Rules enter_own_tile, enter_available (a bribe enters a tile that is not available)."""
    assert round_one().judge("Ann: enter 5").rules == {"enter_own_tile"}
    pos = round_one().after("Ann: favour on 5", "Bob: meditate", "Ann: occupy 9 from 2 with bribe",
                      "Bob: recruit on 4")
    assert pos.judge("Ann: enter 9").rules == {"enter_available"}
    assert pos.judge("Ann: enter 9 with bribe").rules == {"favour_missing"}  # the bribe went back


def test_temple_expel_lower_unprotected_neighbours_go_to_the_jetty():
    """Rule temple_expel: neighbouring lower tiles of other players without a book
    are expelled; 1 influence each; they go to the jetty."""
    # Bob's novice on tile 2 loses its book; tile 6 (part 2, next to 2) is Ann's.
    pos = round_one().after("Ann: meditate").changed(
        [fn("on_tile", 6, "Ann")], [fn("book", 2)])
    pos = pos.after("Bob: meditate")  # Ann to play
    after = pos.after("Ann: enter 6")
    assert not after.has("temple", 2, "Bob") and after.has("vacant", 2)
    assert after.novices("Bob", "jetty", "inactive") == 1
    assert after.score("Ann") == pos.score("Ann") + 6 + 1


def test_temple_expel_a_book_protects():
    """Rule temple_expel, seed 002: "3.对方的学徒没有被智慧之书保护" -- a book protects."""
    pos = round_one().after("Ann: meditate").changed([fn("on_tile", 6, "Ann")]).after("Bob: meditate")
    after = pos.after("Ann: enter 6")
    assert after.has("temple", 2, "Bob") and after.score("Ann") == pos.score("Ann") + 6


def test_temple_expel_only_lower_numbers():
    """Rule temple_expel: a higher-numbered neighbour stays."""
    pos = round_one().after("Ann: meditate").changed([fn("on_tile", 5, "Ann"), fn("temple", 6, "Bob")]) \
        .after("Bob: meditate")
    after = pos.after("Ann: enter 5")
    assert after.has("temple", 6, "Bob")


def test_book_moves_any_book_under_a_novice_without_one_for_1():
    """Rule book: 1 influence; book_source and book_target."""
    pos = round_one().changed([fn("holds", "Ann", fn("book")), fn("temple", 5, "Ann")], [])
    after = pos.after("Ann: book 2 -> 5")
    assert after.has("book", 5) and not after.has("book", 2)
    assert pos.judge("Ann: book 2 -> 1").rules == {"book_target"}   # tile 1 has a book
    assert pos.judge("Ann: book 9 -> 5").rules == {"book_source"}


def test_two_player_book_the_first_book_of_a_round_scores_2():
    """Rule two_player_book: "每回合中，首次使用书特权块的玩家获得2影响力"."""
    pos = round_one().changed([fn("holds", "Ann", fn("book")), fn("holds", "Bob", fn("book")),
                         fn("temple", 5, "Ann"), fn("temple", 6, "Bob")], [])
    first = pos.after("Ann: book 2 -> 5")
    assert first.score("Ann") == pos.score("Ann") + 2
    second = first.after("Bob: book 1 -> 6")
    assert second.score("Bob") == pos.score("Bob") + 1


def test_book_with_three_players_scores_1():
    """Rule book: 1 influence (the 2-player bonus is for 2 players only)."""
    pos = position("round 1", 3).changed([fn("holds", "Ann", fn("book")), fn("temple", 5, "Ann")])
    assert pos.after("Ann: book 2 -> 5").score("Ann") == pos.score("Ann") + 1


def test_bribe_may_be_spent_on_an_available_tile_and_is_then_listed():
    """Rule bribe (the referee's reading): the seed does not forbid a bribe for an
    available tile; such a move is legal, so it is among the legal moves."""
    pos = round_one().after("Ann: favour on 5", "Bob: meditate").set_novices("Ann", 5, "active", 2)
    assert pos.judge("Ann: occupy 5 from 5 with bribe").legal
    assert fn("occupy", 5, 5, 1, 0) in pos.legal()
    entered = pos.after("Ann: occupy 5 from 5", "Bob: meditate")
    assert entered.judge("Ann: enter 5 with bribe").legal and fn("enter", 5, 1) in entered.legal()
