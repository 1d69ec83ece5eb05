"""A read-only, hashable mapping: the header's spans and options of a
transcript, and any value kept in a derived file."""

from __future__ import annotations

from collections.abc import Iterator, Mapping


class FrozenMap(Mapping):
    """A read-only, hashable mapping (used for ``Header.spans``)."""

    __slots__ = ("_items",)

    def __init__(self, items: Mapping | None = None, /, **kwargs) -> None:
        data = dict(items or {}, **kwargs)
        object.__setattr__(self, "_items", data)

    def __getitem__(self, key):
        return self._items[key]

    def __iter__(self) -> Iterator:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(frozenset(self._items.items()))

    def __eq__(self, other) -> bool:
        if isinstance(other, Mapping):
            return dict(self._items) == dict(other)
        return NotImplemented

    def __setattr__(self, name, value):
        raise AttributeError("FrozenMap is read-only")

    def __repr__(self) -> str:
        return f"FrozenMap({self._items!r})"
