"""The optional parts of a game, and how the generic referee finds them.

A game's rules class (:class:`referee.game.contract.Game`) holds its rules
only. Everything else the referee may ask of a game is a part, each a small
class of its own whose base here gives the default behaviour: its words
(:mod:`.words`), its speed (:mod:`.speed`), its tolerance of what a hurried
writer leaves out (:mod:`.tolerance`), the scenarios of ``referee compare``
(:mod:`.scenarios`), what one player sees (:mod:`.screen`), the values its
data file marks unverified (:mod:`.values`), its picture
(:class:`referee.game.picture.Picture`) and what the service needs
(:mod:`.service`).

A game supplies a part by one declaration, its class's ``parts`` mapping: the
part's kind (the base class) to the game's own class, or to the text
``"package.module:Class"`` (imported when first asked for: a process that only
judges never imports the drawing code). The generic code asks for a part by
its kind and gets the game's, or the default when the game has none; it never
probes a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from referee.game.registry import load_object

if TYPE_CHECKING:
    from referee.game.contract import Game


class Part:
    """An optional part of a game: made for one game set up from a transcript
    (``game``, the rules object: its static facts, its players), or for the
    game's class alone (``game`` None: the parts asked before any set-up)."""

    def __init__(self, game: Game | None = None):
        self.game = game


P = TypeVar("P", bound=Part)


def part_class(game: Game | type[Game], kind: type[P]) -> type[P]:
    """The class a game (its rules object, or its class) supplies as the part
    ``kind``: the one its ``parts`` declare, else ``kind`` itself (the default)."""
    cls = game if isinstance(game, type) else type(game)
    declared = cls.parts.get(kind, kind)
    if isinstance(declared, str):
        declared = load_object(declared)
    if not (isinstance(declared, type) and issubclass(declared, kind)):
        raise TypeError(f"{cls.__name__}.parts gives {declared!r} as its {kind.__name__}, not a subclass of it")
    return declared


def part(game: Game, kind: type[P]) -> P:
    """The part ``kind`` of the game set up as ``game``: made once per game,
    for the game (a part may keep what it noted while the record is read)."""
    made = game.__dict__.setdefault("_parts", {})
    found = made.get(kind)
    if found is None:
        found = made[kind] = part_class(game, kind)(game)
    return found
