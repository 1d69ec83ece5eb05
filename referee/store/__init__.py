"""Derived files: what the referee computes once and keeps for the next
process (parsers, parsed data, indexed programs, judgements, whole runs), each
under a key, a format and a checksum, so that a damaged or foreign file is
rebuilt, never trusted. Imports only the base layer: every layer above keeps
its own derived files here."""
