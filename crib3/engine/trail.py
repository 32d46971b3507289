"""`Trail`: an immutable sequence that grows at its end in constant time.

The state is folded one event at a time, and a field that only ever grows
(every cut for the deal, which a run of tied cuts can make as long as the
log) cost a copy of the whole tuple per event when it was a tuple: reading
a long log was quadratic. A Trail shares everything before its last item
with the Trail it grew from, so `plus` is O(1) and a replay that keeps every
state keeps each item once. It reads like a tuple (len, iteration, indexing,
slicing, equality with tuples and Trails).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")


class Trail(Sequence[T], Generic[T]):
    __slots__ = ("_before", "_last", "_len")

    _before: Trail[T] | None
    _last: Any
    _len: int

    def __init__(self, items: Iterable[T] = ()) -> None:
        self._before, self._last, self._len = None, None, 0
        trail: Trail[T] = Trail.__new__(Trail)  # the empty root, not `self`: no cycle
        trail._before, trail._last, trail._len = None, None, 0
        for item in items:
            trail = trail.plus(item)
        if trail._len:
            self._before, self._last, self._len = trail._before, trail._last, trail._len

    def plus(self, item: T) -> Trail[T]:
        """This trail with `item` at the end; this one is unchanged."""
        new: Trail[T] = Trail.__new__(Trail)
        new._before, new._last, new._len = self, item, self._len + 1
        return new

    def __len__(self) -> int:
        return self._len

    def __bool__(self) -> bool:
        return self._len > 0

    def _backwards(self) -> Iterator[T]:
        node: Trail[T] | None = self
        while node is not None and node._len:
            yield node._last
            node = node._before

    def __iter__(self) -> Iterator[T]:
        items = list(self._backwards())
        items.reverse()
        return iter(items)

    def __reversed__(self) -> Iterator[T]:
        return self._backwards()

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice):
            start, stop, step = index.start, index.stop, index.step
            if step is None and stop is None and isinstance(start, int) and start < 0:
                # the last few items (the screens' view[-3:]): walk back only that far
                tail: list[T] = []
                for item in self._backwards():
                    if len(tail) == -start:
                        break
                    tail.append(item)
                return tuple(reversed(tail))
            return tuple(self)[index]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("Trail index out of range")
        for back, item in enumerate(self._backwards()):
            if back == self._len - 1 - index:
                return item
        raise IndexError("Trail index out of range")  # pragma: no cover

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Trail):
            return self._len == other._len and tuple(self) == tuple(other)
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __reduce__(self) -> tuple[type, tuple[tuple[T, ...]]]:
        # flat, not one nested object per item (a long chain would overflow
        # pickle's recursion)
        return (Trail, (tuple(self),))

    def __repr__(self) -> str:
        return f"Trail({list(self)!r})"
