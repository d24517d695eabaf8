"""One schema per endpoint: every field a request may carry, its type and its bounds (msgspec).

JSON bodies are decoded straight into these structs by msgspec's strict decoder, so a number must be
a JSON number written with ASCII digits (no ``"²"``, no Arabic-Indic digits, no text where a number
is due), unknown fields are refused, and nothing nests deeper than the schema allows. Query strings
are converted with the same structs (text to number with ASCII digits only). Every refusal becomes a
:class:`~oxo.web.sessions.WebInputError` whose message starts with the field's name.
"""

from __future__ import annotations

import re
from typing import Annotated, TypeVar

import msgspec
from msgspec import Meta, Struct

from oxo.web.sessions import WebInputError

#: Longest text field accepted, in characters.
MAX_TEXT = 400

Text = Annotated[str, Meta(max_length=MAX_TEXT)]
Seed = Annotated[int, Meta(ge=0, le=2**32 - 1)]
K = Annotated[int, Meta(ge=1, le=64)]
Move = int | Annotated[str, Meta(max_length=12)]


class Players(Struct, forbid_unknown_fields=True):
    """Who plays each side: ``"human"`` or a level."""

    x: Text = "human"
    o: Text = "best"


class NewGame(Struct, forbid_unknown_fields=True):
    """``POST /api/games``."""

    kind: Text | None = None
    board: Text | None = None
    k: K | None = None
    players: Players | None = None
    seconds: float | None = None
    seed: Seed | None = None
    moves: Annotated[list[Move], Meta(max_length=400)] = []


#: The number of moves a page saw in a game when it sent a move or an undo: a tab showing an
#: older state of the game (another tab moved since) is refused rather than playing the other side.
Ply = Annotated[int, Meta(ge=0, le=1_000)]


class PlayMove(Struct, forbid_unknown_fields=True):
    """``POST /api/games/{id}/move``: a cell ID (classic) or GC text (mega), and optionally the
    number of moves the sender saw before it."""

    move: Move
    ply: Ply | None = None


class TakeBack(Struct, forbid_unknown_fields=True):
    """``POST /api/games/{id}/undo``: an empty object (or no body), or the number of moves the
    sender saw."""

    ply: Ply | None = None


class Nothing(Struct, forbid_unknown_fields=True):
    """Bodies of ``/cancel`` and ``/hint``: an empty object (or no body)."""


class ComputerMove(Struct, forbid_unknown_fields=True):
    """``POST /api/games/{id}/ai``: an empty object (or no body), or a new thinking time for this
    move and the later ones."""

    seconds: float | None = None


class GameQuery(Struct, forbid_unknown_fields=True):
    """The query of every game endpoint."""

    values: bool = False


class ExploreQuery(Struct, forbid_unknown_fields=True):
    """``GET /api/explore``."""

    position: Text
    board: Text | None = None
    k: K | None = None


class CountQuery(Struct, forbid_unknown_fields=True):
    """``GET /api/count``."""

    board: Text
    k: K | None = None


class MapQuery(Struct, forbid_unknown_fields=True):
    """``GET /api/map``: the board and the side whose strategy is drawn."""

    board: Text
    side: Text = "x"
    k: K | None = None


class ProofQuery(Struct, forbid_unknown_fields=True):
    """``GET /api/proof``: a board (and k)."""

    board: Text
    k: K | None = None


class PrepareProof(Struct, forbid_unknown_fields=True):
    """``POST /api/proofs/prepare``: the board (and k) and the side whose certificate is prepared,
    or on a board being proved the settled ``opening`` (``0-3``) whose certificate is."""

    board: Text
    side: Text | None = None
    k: K | None = None
    opening: Text | None = None


S = TypeVar("S", bound=Struct)
_WHERE = re.compile(r"^(.*?)(?: - at `\$(?:\.)?(.*)`)?$", re.DOTALL)


def _explain(error: Exception, what: str) -> WebInputError:
    """A one-line refusal that names the field first."""
    text = str(error).replace("\n", " ")
    match = _WHERE.match(text)
    message, field = (match.group(1), match.group(2)) if match else (text, None)
    message = message.replace("`", "")
    prefix = f"{field}." if field else ""
    unknown = re.match(r"Object contains unknown field (.*)", message)
    if unknown:
        return WebInputError(f"{prefix}{unknown.group(1)}: unknown field in the {what}")
    missing = re.match(r"Object missing required field (.*)", message)
    if missing:
        return WebInputError(f"{prefix}{missing.group(1)}: missing from the {what}")
    if field:
        return WebInputError(f"{field}: {message[0].lower()}{message[1:]}")
    return WebInputError(f"the {what}: {message[0].lower()}{message[1:]}")


def decode_body(raw: bytes, schema: type[S]) -> S:
    """A JSON body decoded into ``schema`` (an empty body counts as ``{}``)."""
    if not raw.strip():
        raw = b"{}"
    try:
        # First, so that the refusal names the byte of the body (msgspec counts from the start of
        # the string it was reading) and bytes outside strings are named as not UTF-8 too.
        raw.decode("utf-8")
        return msgspec.json.decode(raw, type=schema)
    except UnicodeDecodeError as error:  # bytes that are not UTF-8
        raise WebInputError(
            f"the request body is not valid UTF-8 JSON: {error.reason} at byte {error.start}; "
            "send JSON text encoded as UTF-8"
        ) from None
    except msgspec.ValidationError as error:
        raise _explain(error, "request body") from None
    except msgspec.DecodeError as error:
        raise WebInputError(
            f'the request body is not a JSON object ({str(error).rstrip(".")}); send one such as {{"move": 4}}'
        ) from None
    except RecursionError:
        raise WebInputError("the request body nests too deeply") from None


def decode_query(params: dict[str, str], schema: type[S]) -> S:
    """A query string's parameters converted into ``schema`` (text to numbers, ASCII digits only)."""
    for name, value in params.items():
        if not value.isascii():
            # Allowed in positions and board text only through the schema's own checks below.
            if any(ch.isdigit() for ch in value):
                raise WebInputError(f"{name}: digits must be the ASCII digits 0-9")
    params = {name: value for name, value in params.items() if value != ""}  # empty: not given
    try:
        return msgspec.convert(params, schema, strict=False)
    except msgspec.ValidationError as error:
        raise _explain(error, "query") from None
