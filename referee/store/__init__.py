"""Derived files: what the referee computes once and keeps for the next
process (parsers, parsed data, indexed programs, judgements, whole runs), each
under a key, a format and a checksum, so that a damaged or foreign file is
rebuilt, never trusted: one store (files.py: each kind of file declared
where it is built, each file under its kind, version, key and checksum) and
one codec (codec.py). Imports only the base layer: every layer above keeps
its derived files through it."""
