"""The ground floor: the project's own terms, its one exception hierarchy, and
the words every message shares. It knows no game, no file and no solver."""
