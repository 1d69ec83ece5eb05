"""Words of messages: 'did you mean ...?', the nearest valid names to one that
cannot be read, and a count with its noun ('1 player', '2 players').

Used wherever a record names something the game does not have (a piece, a
unit, an action word, a player, a place): the message then
offers the nearest names of the game, found by :mod:`difflib`."""

from __future__ import annotations

from typing import Iterable

#: How close a name must be to be offered (difflib's ratio: 'Harpie' and 'Harpy' are 0.73).
CUTOFF = 0.6
#: The most names offered.
MOST = 3


def nearest(written: str, names: Iterable[str], n: int = MOST, cutoff: float = CUTOFF) -> list[str]:
    """The names closest to ``written``, best first, compared without regard to
    case; each as given (the first spelling of names that fold alike)."""
    import difflib  # here: only a record with a name it cannot read needs it

    folded: dict[str, str] = {}
    for name in names:
        folded.setdefault(" ".join(name.split()).casefold(), name)
    folded.pop(written.casefold(), None)  # the word itself is not a suggestion
    key = " ".join(written.split()).casefold()
    close = difflib.get_close_matches(key, list(folded), n=n, cutoff=cutoff)
    if close:  # only the names about as near as the nearest ('tkae': take, not tale)
        best = difflib.SequenceMatcher(None, key, close[0]).ratio()
        close = [c for c in close if difflib.SequenceMatcher(None, key, c).ratio() >= best - 0.1]
    return [folded[c] for c in close]


def did_you_mean(written: str, names: Iterable[str], n: int = MOST, cutoff: float = CUTOFF,
                 quote: bool = False) -> str:
    """' (did you mean A, B or C?)' for the names nearest ``written``, or ''."""
    close = nearest(written, names, n, cutoff)
    if not close:
        return ""
    shown = [f"'{c}'" for c in close] if quote else close
    listed = shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"
    return f" (did you mean {listed}?)"


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """``'1 player'``, ``'3 players'``: a count with its noun in the number it needs."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"
