"""Comparing two readings of a rulebook: replaying records under both, the
solver's search for positions where they disagree, the witnesses, and the
translation report for editors."""
