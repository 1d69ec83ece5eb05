"""Judging a record: the visitor that walks its plays, the engine (the only
module importing clingo), the relevance analysis that keeps solver calls small,
and the values a run is made of."""
