"""One bounded, thread-safe least-recently-used cache for the results worth keeping between requests.

The web page keeps solved boards, winnability tables, count tables and games in progress; each is a
:class:`BoundedCache`. ``functools.lru_cache`` stays the tool for small pure functions; this one is
for values keyed by something a caller chooses, shared between threads, and expensive enough that
two threads asking for the same key at once should compute it once (:meth:`BoundedCache.get_or_compute`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Generic, TypeVar, overload

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
D = TypeVar("D")


class BoundedCache(Generic[K, V]):
    """At most ``maxsize`` values by key; the least recently used is dropped first.

    Every method is safe to call from several threads. ``get_or_compute`` holds a lock per key while
    it computes, so a value is computed once even when many threads want it at the same time, while
    other keys stay available.
    """

    def __init__(self, maxsize: int) -> None:
        if maxsize < 1:
            raise ValueError(f"a cache holds at least one value, got maxsize={maxsize}")
        self.maxsize = maxsize
        self._values: OrderedDict[K, V] = OrderedDict()
        self._guard = threading.Lock()
        self._computing: dict[K, threading.Lock] = {}

    def __len__(self) -> int:
        with self._guard:
            return len(self._values)

    def __contains__(self, key: object) -> bool:
        with self._guard:
            return key in self._values

    def __iter__(self) -> Iterator[K]:
        """The keys, least recently used first (a snapshot)."""
        with self._guard:
            return iter(list(self._values))

    def items(self) -> list[tuple[K, V]]:
        """A snapshot of the (key, value) pairs, least recently used first; reading it uses nothing."""
        with self._guard:
            return list(self._values.items())

    @overload
    def get(self, key: K) -> V | None: ...

    @overload
    def get(self, key: K, default: D) -> V | D: ...

    def get(self, key: K, default: object = None) -> object:
        """The value under ``key`` (now the most recently used), or ``default``."""
        with self._guard:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
            return default

    def put(self, key: K, value: V) -> V:
        """Keep ``value`` under ``key`` as the most recently used, dropping the oldest beyond the bound."""
        with self._guard:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.maxsize:
                self._values.popitem(last=False)
        return value

    def get_or_compute(self, key: K, compute: Callable[[], V]) -> V:
        """The value under ``key``, computing and keeping it first if it is missing.

        ``compute`` runs without the cache's lock (other keys stay available) but under a lock for
        this key, so concurrent callers of the same key wait for one computation. An exception from
        ``compute`` propagates and nothing is kept.
        """
        with self._guard:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
            lock = self._computing.setdefault(key, threading.Lock())
        with lock:
            try:
                with self._guard:
                    if key in self._values:
                        self._values.move_to_end(key)
                        return self._values[key]
                return self.put(key, compute())
            finally:
                with self._guard:
                    if self._computing.get(key) is lock:
                        del self._computing[key]

    def pop(self, key: K) -> V | None:
        """Forget ``key``; its value, or ``None`` when it was not kept."""
        with self._guard:
            return self._values.pop(key, None)

    def clear(self) -> None:
        """Forget every value."""
        with self._guard:
            self._values.clear()
