"""Results as JSON-ready dicts: the fields of a frozen dataclass by name, in the order declared.

Results are small frozen dataclasses with ``to_dict()`` for ``--json`` (docs/architecture.md); where
that dict is the fields themselves, :class:`Record` gives it, and :func:`record` builds it with a few
values changed or keys renamed, so a class lists its fields once; :func:`attributes` gives some
attributes (fields or properties) by name in an order of its own, for a dict whose keys are partly
the names themselves.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


def record(
    value: DataclassInstance, /, keys: Mapping[str, str] | None = None, **changes: Any
) -> dict[str, Any]:
    """The fields of the dataclass ``value`` by name, in the order they are declared, each value as it
    is (unlike :func:`dataclasses.asdict`, nothing is copied or turned into a dict); a keyword gives
    that field another value in its place, or adds a key at the end; ``keys`` gives some fields
    another key, in their place (``{"disk": "disk_bytes"}``: a JSON key that says more than the
    field's name)."""
    result = {field.name: getattr(value, field.name) for field in fields(value)}
    result.update(changes)
    if keys:
        result = {keys.get(name, name): item for name, item in result.items()}
    return result


def attributes(value: object, names: str, /) -> dict[str, Any]:
    """The attributes of ``value`` (fields or properties) named in ``names``, separated by spaces as
    :func:`collections.namedtuple` takes them, by name in that order, each value as it is: a JSON
    layout whose keys are attribute names writes each name once."""
    return {name: getattr(value, name) for name in names.split()}


class Record:
    """A base for frozen result dataclasses whose JSON form is every field, by name, in order."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        return record(cast("DataclassInstance", self))
