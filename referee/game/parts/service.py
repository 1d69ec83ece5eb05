"""What the service (referee/service/) needs of a game: the names a header's
file line may give that name no file, and a short transcript a worker judges
as it starts. Asked of the game's class, before any set-up."""

from __future__ import annotations

from typing import ClassVar

from referee.game.parts import Part


class Service(Part):
    """No built-in files, no warm-up."""

    #: The values a header's file line may give that name no file (the service
    #: refuses any other: a transcript sent to it cannot name a file of the server).
    builtin_files: ClassVar[frozenset[str]] = frozenset()
    #: A short transcript a service worker judges as it starts, so that the game's
    #: grammar, catalogue and programs are loaded before the first request ("" for none).
    warm_up: ClassVar[str] = ""
