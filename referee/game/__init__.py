"""What a game is to the referee: the contract a game implements (its rules
side, and the optional parts in referee/game/parts/), the registry that finds
games by entry point, the rule catalogue, the readings of a
rulebook, and the shared rule-program contract (rules.lp)."""
