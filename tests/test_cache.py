"""The bounded cache: least recently used dropped first, one computation per key under concurrency."""

from __future__ import annotations

import random
import threading
from collections import OrderedDict

import pytest

from oxo.cache import BoundedCache


def test_keeps_at_most_maxsize_and_drops_least_recently_used() -> None:
    cache: BoundedCache[str, int] = BoundedCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # "a" is now the most recently used
    cache.put("c", 3)
    assert "b" not in cache
    assert list(cache) == ["a", "c"]
    assert len(cache) == 2
    assert cache.get("b") is None
    assert cache.get("b", -1) == -1


def test_put_refreshes_an_existing_key() -> None:
    cache: BoundedCache[str, int] = BoundedCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    cache.put("a", 10)
    cache.put("c", 3)
    assert list(cache) == ["a", "c"]
    assert cache.get("a") == 10


def test_items_is_a_snapshot_that_leaves_the_order_alone() -> None:
    cache: BoundedCache[str, int] = BoundedCache(3)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.items() == [("a", 1), ("b", 2)]
    cache.put("c", 3)
    cache.put("d", 4)  # "a" goes: reading items() did not refresh it
    assert [key for key, _ in cache.items()] == ["b", "c", "d"]


def test_pop_and_clear() -> None:
    cache: BoundedCache[int, str] = BoundedCache(3)
    cache.put(1, "one")
    cache.put(2, "two")
    assert cache.pop(1) == "one"
    assert cache.pop(1) is None
    cache.clear()
    assert len(cache) == 0


def test_matches_a_plain_lru_model_on_random_operations() -> None:
    """Against an obviously-correct model: a list of keys in use order, cut to the bound."""
    rng = random.Random(18)
    for maxsize in (1, 2, 5):
        cache: BoundedCache[int, int] = BoundedCache(maxsize)
        model: OrderedDict[int, int] = OrderedDict()
        for step in range(2000):
            key = rng.randrange(8)
            if rng.random() < 0.5:
                cache.put(key, step)
                model[key] = step
                model.move_to_end(key)
                while len(model) > maxsize:
                    model.popitem(last=False)
            else:
                expected = model.get(key)
                if key in model:
                    model.move_to_end(key)
                assert cache.get(key) == expected
            assert list(cache) == list(model)


def test_get_or_compute_computes_once_per_key_and_keeps_the_value() -> None:
    cache: BoundedCache[str, int] = BoundedCache(4)
    calls: list[str] = []

    def compute(key: str) -> int:
        calls.append(key)
        return len(key)

    assert cache.get_or_compute("abc", lambda: compute("abc")) == 3
    assert cache.get_or_compute("abc", lambda: compute("abc")) == 3
    assert calls == ["abc"]


def test_get_or_compute_keeps_nothing_when_the_computation_fails() -> None:
    cache: BoundedCache[str, int] = BoundedCache(4)

    def fail() -> int:
        raise RuntimeError("no")

    with pytest.raises(RuntimeError):
        cache.get_or_compute("k", fail)
    assert "k" not in cache
    assert cache.get_or_compute("k", lambda: 7) == 7


def test_concurrent_callers_of_one_key_share_one_computation() -> None:
    cache: BoundedCache[str, object] = BoundedCache(4)
    started = threading.Event()
    release = threading.Event()
    calls = []

    def slow() -> object:
        calls.append(1)
        started.set()
        release.wait(10)
        return object()

    results: list[object] = []
    threads = [
        threading.Thread(target=lambda: results.append(cache.get_or_compute("k", slow)))
        for _ in range(4)
    ]
    threads[0].start()
    assert started.wait(10)
    for thread in threads[1:]:
        thread.start()
    # Another key is served while "k" is being computed.
    assert cache.get_or_compute("other", lambda: "free") == "free"
    release.set()
    for thread in threads:
        thread.join(10)
    assert len(calls) == 1
    assert len(results) == 4 and all(result is results[0] for result in results)


def test_maxsize_must_be_positive() -> None:
    with pytest.raises(ValueError):
        BoundedCache(0)
