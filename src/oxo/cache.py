"""oxo's one cache helper: values kept in memory between requests, and a folder on disk for what
is computed once and kept between runs.

In memory: one bounded, thread-safe least-recently-used cache. The web page keeps solved boards,
winnability tables, count tables and games in progress; each is a :class:`BoundedCache`.
``functools.lru_cache`` stays the tool for small pure functions; this one is for values keyed by
something a caller chooses, shared between threads, and expensive enough that two threads asking
for the same key at once should compute it once (:meth:`BoundedCache.get_or_compute`).

On disk: :func:`cache_folder`, the folder where oxo keeps what takes long to compute and is the same
every time (the index of a certificate, say, built once and then read in a moment). It follows the
XDG convention: ``$OXO_CACHE`` when set, else ``$XDG_CACHE_HOME/oxo``, else ``~/.cache/oxo``.
Everything in it can be deleted: it is computed again when needed. Files go in through
:mod:`oxo.fileio` (atomically), and :func:`cache_lock` lets one process build a file while others
that want the same file wait for it instead of building it too.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Generic, TypeVar, overload

from oxo.errors import OxoError

#: The environment variable that names oxo's cache folder (see :func:`cache_folder`).
CACHE_ENV = "OXO_CACHE"

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


# -- on disk ---------------------------------------------------------------------------------------


def cache_root() -> Path:
    """The folder of oxo's cache, not created: ``$OXO_CACHE``, else ``$XDG_CACHE_HOME/oxo``, else
    ``~/.cache/oxo`` (relative values of the variables are ignored, as XDG says)."""
    chosen = os.environ.get(CACHE_ENV, "")
    if chosen:
        return Path(chosen).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "oxo"
    return Path.home() / ".cache" / "oxo"


def cache_folder(*parts: str) -> Path:
    """A folder of oxo's cache (``parts`` name a subfolder), created when missing; raises
    :class:`~oxo.errors.OxoError` naming the folder and :data:`CACHE_ENV` when it cannot be."""
    folder = cache_root().joinpath(*parts)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OxoError(
            f"cannot create oxo's cache folder {folder} ({error.strerror or error}); set "
            f"{CACHE_ENV} to a folder oxo may write"
        ) from None
    return folder


@contextmanager
def cache_lock(path: str | os.PathLike[str]) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` + ``.lock`` for the block, waiting while another process
    (or thread) holds it: one builds a cached file, the others wait and then find it built. Where
    the system has no file locks (not POSIX), the block runs unlocked."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no fcntl
        yield
        return
    lock_path = Path(f"{os.fspath(path)}.lock")
    with open(lock_path, "a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
