"""Random playouts of Cyclades (tests/helpers/playouts.py): short games of every
player count, each move chosen uniformly among the referee's listed legal moves
(chance included), written as a record that must read back all legal, the same
moves, with the fast path and the solver alone agreeing step for step. Longer
and more games: ``python bench/playouts.py`` (README.md, Robustness)."""

from __future__ import annotations

import pytest
from helpers.playouts import cyclades_playout, read_back


@pytest.mark.parametrize("players", (2, 3, 4, 5))
def test_a_random_game_reads_back_all_legal_on_both_paths(players):
    game = cyclades_playout(players, seed=1, cycles=3)
    assert game.stuck is None, game.summary()
    assert game.periods >= 3 and len(game.played) > 30, game.summary()
    assert read_back(game) == [], game.text
