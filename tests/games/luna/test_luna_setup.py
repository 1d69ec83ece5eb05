"""Luna, setting up and the preparation round (seed 002: 初始设置, 准备回合).

Rules setup_*, prep_*, two_player_herbs, two_player_markers, action_turns.
"""

from __future__ import annotations

import pytest
from helpers.luna import NAMES, initial, position

from referee.games.luna.fluents import Book, GuardValue, IslandKind, Path, PathTile, PriestessValue, Shrine, Temple


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_influence_five_each(players):
    """Rule setup_influence: "每位玩家获得初始5点影响力"."""
    pos = initial(players)
    assert {p: pos.score(p) for p in NAMES[:players]} == {p: 5 for p in NAMES[:players]}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_start_player_acts_first(players):
    """Rule setup_start_player: the first player of the 'players:' line holds the
    start player marker and makes the first action."""
    pos = position("round 1", players)
    assert pos.has("start", "Ann")
    assert pos.control() == "Ann" and pos.phase() == "actions"
    bob_first = pos.judge("Bob: meditate")
    assert bob_first.rules == {"setup_start_player", "not_in_control"}
    assert bob_first.first == "setup_start_player"
    assert bob_first.message("setup_start_player") == "Ann is the start player and makes the first action of the game"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_temple_one_tile_of_1_to_4_per_player_with_novice_and_book(players):
    """Rule setup_temple: each player's tile of 1-4 lies in the temple with the
    player's novice and a Book of Wisdom on it; unused parts' tiles leave the game."""
    pos = initial(players)
    temple = {f.tile: f.player for f in Temple.of(pos.state)}
    assert temple == {t: NAMES[t - 1] for t in range(1, players + 1)}
    assert {f.tile for f in Book.of(pos.state)} == set(temple)
    path = {f.tile for f in Path.of(pos.state)}
    assert len(path) + len(temple) == 7 * players  # seven tiles per temple part in use


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_path_a_guard_tile_after_every_group_of_as_many_tiles_as_players(players):
    """Rule setup_path: the path tiles lie in six groups of as many tiles as
    players, between the guard tiles 6, 5, 4, 3, 2, 2, the highest numbers at the
    temple gate; group 1 (the lowest tiles) lies between the 6 and the jetty."""
    pos = initial(players)
    groups: dict[int, list[int]] = {}
    for f in PathTile.of(pos.rules.static):
        groups.setdefault(f.group, []).append(f.tile)
    assert sorted(groups) == [1, 2, 3, 4, 5, 6]
    assert all(len(tiles) == players for tiles in groups.values())
    assert max(groups[1]) < min(groups[2]) and max(groups[5]) < min(groups[6])
    guards = sorted((f.round, f.value) for f in GuardValue.of(pos.rules.static))
    assert guards == [(1, 6), (2, 5), (3, 4), (4, 3), (5, 2), (6, 2)]


def test_setup_guard_on_the_6_makes_the_first_group_available():
    """Rule setup_guard (and tile_available): with the guard on the 6, the tiles
    of group 1 may be taken, those of group 2 only with a bribe."""
    pos = position("round 1", 2)
    assert pos.judge("Ann: occupy 5 from 5").legal          # group 1, island 5's symbol
    assert pos.judge("Ann: occupy 9 from 2").rules == {"tile_available"}  # group 2


@pytest.mark.parametrize("players, markers", [(2, 3), (3, 4), (4, 4)])
def test_setup_time_markers_four_three_with_two_players(players, markers):
    """Rules setup_time_markers and two_player_markers: 4 time markers, 3 in the 2-player game."""
    assert initial(players).value("markers") == markers


def test_setup_council_discs_stacked_in_turn_order():
    """Rule setup_council: from the start player on, each disc goes on top of the
    stack on the first seat."""
    assert initial(4).discs() == {"Ann": (0, 1), "Bob": (0, 2), "Cy": (0, 3), "Dee": (0, 4)}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_islands_as_many_favours_as_players(players):
    """Rule setup_islands: seven islands, each with as many favour tokens of its kind as players."""
    pos = initial(players)
    assert {i: pos.pool(i) for i in range(1, 8)} == {i: players for i in range(1, 8)}
    kinds = {f.kind.name for f in IslandKind.of(pos.rules.static)}
    assert kinds == {"shrine", "herbs", "waves", "sailboat", "bribe", "book", "substitute"}


@pytest.mark.parametrize("players, largest", [(2, 5), (3, 5), (4, 6)])
def test_setup_figures_priestess_by_player_count(players, largest):
    """Rule setup_figures: the priestess marked 6 with 4 players, 5 with 2 and 3;
    the three figures stand on islands."""
    pos = initial(players)
    values = [f.value for f in PriestessValue.of(pos.rules.static)]
    assert max(values) == largest
    assert all(1 <= pos.figure(f) <= 7 for f in ("priestess", "builder", "apostate"))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_intro_shrine_four_pairs_and_the_two_free_islands_favours(players):
    """Rule setup_intro: a shrine and 8 novices (four pairs) each; the favours of
    the two islands without the player's pieces."""
    pos = position("round 1", players)
    kinds = {f.island: f.kind.name for f in IslandKind.of(pos.rules.static)}
    for p in NAMES[:players]:
        shrines = {f.island for f in Shrine.of(pos.state) if f.player == p}
        pairs = {i for i in range(1, 8) if pos.novices(p, i) == 2}
        assert len(shrines) == 1 and len(pairs) == 4 and not shrines & pairs
        free = set(range(1, 8)) - shrines - pairs
        assert pos.holds(p) == {kinds[i] for i in free}


def test_prep_shrine_alone_one_shrine_per_island_in_the_preparation():
    """Rule prep_shrine_alone: "在准备回合中，一个岛上最多只能有一个神殿"."""
    pos = position("preparation\nAnn: shrine on 3", 3, "normal")
    assert pos.judge("Bob: shrine on 3").rules == {"prep_shrine_alone"}
    assert pos.judge("Bob: shrine on 4").legal


def test_two_player_herbs_no_preparation_shrine_on_the_herb_island():
    """Rule two_player_herbs: in the 2-player game no shrine on the herb island (2)."""
    assert position("preparation", 2, "normal").judge("Ann: shrine on 2").rules == {"two_player_herbs"}
    assert position("preparation", 3, "normal").judge("Ann: shrine on 2").legal


def test_prep_novices_place_not_where_the_player_has_a_piece():
    """Rule prep_novices_place: pairs go on islands without the player's shrine or
    novices; other players' pieces do not matter."""
    pos = position("preparation\nAnn: shrine on 1\nBob: shrine on 4", 2, "normal")
    assert pos.judge("Ann: novices on 1").rules == {"prep_novices_place"}
    assert pos.judge("Ann: novices on 4").legal  # Bob's shrine is there
    after = pos.after("Ann: novices on 2")
    assert after.judge("Ann: novices on 2").rules == {"prep_novices_place"}


def test_prep_novices_four_pairs_each_then_the_next_player():
    """Rule prep_novices: each player in turn places four pairs."""
    pos = position("preparation\nAnn: shrine on 1\nBob: shrine on 4\nAnn: novices on 2, 3, 5", 2, "normal")
    assert pos.control() == "Ann"
    pos = pos.after("Ann: novices on 6")
    assert pos.control() == "Bob"
    assert pos.judge("Bob: shrine on 5").rules == {"prep_order"}
    # Bob places before Ann has placed her fourth pair.
    early = position("preparation\nAnn: shrine on 1\nBob: shrine on 4\nAnn: novices on 2, 3, 5", 2,
                     "normal").judge("Bob: novices on 6")
    assert early.rules == {"prep_novices", "not_in_control"} and early.first == "prep_novices"
    assert early.message("prep_novices") == \
        "it is Ann's turn to place novices: each player places all four pairs, clockwise from the start player"


def test_prep_shrine_one_each_clockwise_from_the_start_player():
    """Rule prep_shrine: from the start player on, each player puts a shrine on an island."""
    pos = position("preparation\nAnn: shrine on 7", 3, "normal")
    assert pos.control() == "Bob"
    cy_first = pos.judge("Cy: shrine on 1")
    assert cy_first.rules == {"prep_shrine", "not_in_control"} and cy_first.first == "prep_shrine"
    assert cy_first.message("prep_shrine") == \
        "it is Bob's turn to place a shrine: the shrines go down one each, clockwise from the start player"


def test_prep_favours_the_two_islands_without_the_players_pieces():
    """Rule prep_favours: "每位玩家获得自己没有任何标记的2个岛对应的特权块"."""
    body = """preparation
        Ann: shrine on 1
        Bob: shrine on 4
        Ann: novices on 2, 3, 5, 6
        Bob: novices on 1, 2, 3, 5
        round 1"""
    pos = position(body, 2, "normal")
    assert pos.holds("Ann") == {"sailboat", "substitute"}   # islands 4 and 7
    assert pos.holds("Bob") == {"waves", "substitute"}      # islands 6 and 7
    assert pos.pool(7) == 0 and pos.pool(4) == 1 and pos.pool(6) == 1
    assert pos.phase() == "actions" and pos.control() == "Ann"


def test_action_turns_each_player_one_action_in_seat_order():
    """Rule action_turns: from the start player on, one action each, clockwise."""
    pos = position("round 1\nAnn: recruit on 2", 3)
    assert pos.control() == "Bob"
    assert pos.judge("Ann: recruit on 3").rules == {"action_turn_order", "not_in_control"}
    assert pos.after("Bob: meditate").control() == "Cy"
    assert pos.after("Bob: meditate", "Cy: meditate").control() == "Ann"
