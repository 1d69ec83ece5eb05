"""Nim, the example game of docs/adding-a-game.md: the contract's executable
documentation. It is registered as an entry point of ``referee.games`` only
while the tests run (tests/game/test_example_game.py), never in pyproject.toml."""
