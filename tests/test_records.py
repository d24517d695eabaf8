"""oxo.records: a result's fields as a dict, by name and in order, with values changed in place."""

from __future__ import annotations

from dataclasses import dataclass

from oxo.records import Record, attributes, record


@dataclass(frozen=True)
class Row(Record):
    ply: int
    seconds: float
    cells: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Slotted(Record):
    position: str
    move: int


def test_the_fields_in_order_values_as_they_are() -> None:
    row = Row(3, 1.25, (1, 2))
    assert list(row.to_dict().items()) == [("ply", 3), ("seconds", 1.25), ("cells", (1, 2))]
    assert row.to_dict()["cells"] is row.cells  # not copied, unlike dataclasses.asdict
    assert Slotted("x..", 4).to_dict() == {"position": "x..", "move": 4}


def test_a_keyword_changes_a_value_in_its_place_or_adds_a_key_at_the_end() -> None:
    row = Row(3, 1.25, (1, 2))
    changed = record(row, seconds=round(row.seconds, 1), cells=list(row.cells), text="three")
    assert list(changed.items()) == [
        ("ply", 3),
        ("seconds", 1.2),
        ("cells", [1, 2]),
        ("text", "three"),
    ]


def test_attributes_by_name_in_the_order_given_properties_included() -> None:
    class Board:
        size = 9

        @property
        def k(self) -> int:
            return 3

    row = Row(3, 1.25, (1, 2))
    assert list(attributes(row, "cells ply").items()) == [("cells", (1, 2)), ("ply", 3)]
    assert attributes(row, "cells")["cells"] is row.cells
    assert attributes(Board(), "k size") == {"k": 3, "size": 9}
    assert attributes(row, "") == {}


def test_keys_rename_fields_in_their_place_and_changes_go_by_field_name() -> None:
    row = Row(3, 1.25, (1, 2))
    renamed = record(row, {"ply": "depth", "cells": "cell_list"}, seconds=1)
    assert list(renamed.items()) == [("depth", 3), ("seconds", 1), ("cell_list", (1, 2))]
    swapped = record(row, {"ply": "seconds", "seconds": "ply"})
    assert list(swapped.items()) == [("seconds", 3), ("ply", 1.25), ("cells", (1, 2))]
