"""The games shipped with the referee, a package each (``referee/games/<game>/``).

The contract with a game and the registry of the games are :mod:`referee.game`
(the games are found through the entry-point group ``referee.games``); its
names are handed on here for code that imports them from this package.
"""

from ..game import Game, UnknownGameError, check_game, default_game, game_class, game_rules, known_games

__all__ = ["Game", "UnknownGameError", "check_game", "default_game", "game_class", "game_rules", "known_games"]
