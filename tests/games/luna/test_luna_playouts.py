"""Random playouts of Luna (tests/helpers/playouts.py): the first rounds of a
game of every player count, on both layouts, each decision drawn among the
referee's listed legal moves, written as a record that must read back all
legal, the same moves, on both paths alike. Whole games and more of them:
``python bench/playouts.py --game luna`` (README.md, Robustness)."""

from __future__ import annotations

import pytest
from helpers.playouts import luna_playout, read_back


@pytest.mark.parametrize("players, layout", [(2, "normal"), (3, "intro"), (4, "normal")])
def test_a_random_game_reads_back_all_legal_on_both_paths(players, layout):
    game = luna_playout(players, seed=1, rounds=2, layout=layout)
    assert game.stuck is None, game.summary()
    assert len(game.played) > 20, game.summary()
    assert read_back(game) == [], game.text
