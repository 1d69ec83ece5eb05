"""A scenario of ``referee compare``'s search (referee/compare/search.py): a
bounded search space for the rule blocks some variants change, which a game
supplies (its Scenarios part, referee/game/parts/scenarios.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Scenario:
    """A bounded search space for the rule blocks some variants change."""

    name: str
    blocks: tuple[str, ...]  # the catalogue rule ids of the blocks exercised
    variants: tuple[str, ...]  # the variants whose difference it can show
    header: tuple[str, ...]
    lines: tuple[str, ...]  # the moves leading to the decision point
    extras: tuple[str, ...]  # the free parts: position: items (docs/notation.md)
    moves: tuple  # (role, move, line); line "" for a bookkeeping step the referee makes itself
    description: str
    fixed: tuple[str, ...] = ()  # position: items every position of the scenario has
    then: tuple = ()  # (role, move, line) made after the lines to reach the decision point
    follow: tuple = ()  # tuples of lines written after a move whose effect alone differs, to show it
