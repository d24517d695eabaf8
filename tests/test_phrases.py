"""oxo.phrases: lists joined for a sentence and counts with their noun."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from oxo.phrases import counted, duration, listing


def test_listing_joins_the_last_item_with_the_conjunction() -> None:
    assert listing([]) == ""
    assert listing([3]) == "3"
    assert listing([3, 15]) == "3 and 15"
    assert listing((3, 15, 63)) == "3, 15 and 63"
    assert listing([3, 15, 63], "or") == "3, 15 or 63"


@given(st.lists(st.integers(0, 10**6), max_size=8), st.sampled_from(["and", "or"]))
def test_listing_keeps_every_item_in_order(items: list[int], conjunction: str) -> None:
    """Taking the conjunction and the commas out gives the items back, in their order."""
    text = listing(items, conjunction)
    assert text.replace(f" {conjunction} ", ", ").split(", ") == (
        [str(item) for item in items] or [""]
    )
    assert text.count(f" {conjunction} ") == (len(items) >= 2)


def test_counted_puts_the_noun_in_the_singular_for_one_only() -> None:
    assert counted(1, "move") == "1 move"
    assert counted(0, "move") == "0 moves"
    assert counted(2, "move") == "2 moves"
    assert counted(1557, "job") == "1,557 jobs"
    assert counted(1, "reply", "replies") == "1 reply"
    assert counted(3, "reply", "replies") == "3 replies"


def test_duration_picks_the_unit_that_reads_best() -> None:
    assert duration(40) == "40 s"
    assert duration(89) == "89 s"
    assert duration(90) == "2 min"
    assert duration(12 * 60) == "12 min"
    assert duration(3.5 * 3600) == "3.5 h"
    assert duration(2.1 * 86400) == "2.1 days"
    assert duration(3 * 365.25 * 86400) == "3 years"
