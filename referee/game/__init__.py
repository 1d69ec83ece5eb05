"""What a game is to the referee: the contract a game implements, the registry
that finds games by entry point, the rule catalogue, the readings of a
rulebook, and the shared rule-program contract (rules.lp)."""
