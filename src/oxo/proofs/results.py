"""What a proof of a board's value reports: the value, each search asked, the certificates written.

Shared by the one-process proof (:mod:`oxo.proofs.solver`) and the resumable split run
(:mod:`oxo.proofs.runs`), which answer in the same shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from oxo.geometry import Geometry
from oxo.phrases import counted, listing
from oxo.records import record

Value = Literal["x", "o", "draw", "unknown"]
METHOD = "proof-number search (df-pn) with pairing strategies and threat-space search"
#: The search of boards past 64 cells and boxes with gravity (:mod:`oxo.proofs.wide`): no pairings.
WIDE_METHOD = (
    "proof-number search (df-pn) over line counts with wins by continuous threats "
    "(threat-space search)"
)


def goes_wide(geometry: Geometry) -> bool:
    """Whether the board's questions go to the search over line counts (:mod:`oxo.proofs.wide`):
    boards of more than 64 cells, and boards with gravity (on their side when tall)."""
    return geometry.size > 64 or geometry.gravity


def method_of(geometry: Geometry) -> str:
    """The words for the search that proves the board's value (:data:`METHOD`, or
    :data:`WIDE_METHOD` where :func:`goes_wide`)."""
    return WIDE_METHOD if goes_wide(geometry) else METHOD


@dataclass(frozen=True)
class SearchSummary:
    """One of the (at most two) searches of a proof: who attacked, what came out, at what cost."""

    attacker: str
    result: bool | None
    nodes: int
    seconds: float
    entries: int | None
    statistics: dict[str, int] = field(default_factory=dict)
    #: For a search that did not settle: X's first moves by what is known of them (see
    #: :meth:`ProofSearch.first_moves`), in the words of this search's attacker.
    first_moves: dict[str, list[int]] | None = None

    def to_dict(self) -> dict[str, object]:
        answer = {True: "wins", False: "cannot win", None: "unknown"}[self.result]
        out: dict[str, object] = {
            "question": f"can {self.attacker} force a line?",
            "answer": answer,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "strategy_entries": self.entries,
            "statistics": self.statistics,
        }
        if self.first_moves is not None:
            out["first_moves"] = {
                f"{self.attacker} wins after": self.first_moves["win"],
                f"{self.attacker} does not win after": self.first_moves["no win"],
                "open": self.first_moves["open"],
            }
        return out


@dataclass(frozen=True)
class ProofResult:
    """The value of a board's empty position with best play, how it was found and the certificates.

    ``run`` describes the split run (jobs, workers, the folder that keeps its state) when the proof
    was made by :mod:`oxo.proofs.runs`, and is None for a proof made in one search."""

    geometry: Geometry
    value: Value
    searches: tuple[SearchSummary, ...]
    seconds: float
    proofs: tuple[str, ...]
    limit: float | None
    run: dict[str, object] | None = None

    @property
    def nodes(self) -> int:
        return sum(search.nodes for search in self.searches)

    def settled_text(self) -> str:
        """What the searches had settled, in a sentence: for a proof stopped before its end
        (Ctrl-C), said in the one line that reports the stop."""
        settled = [
            f"{search.attacker.upper()} {'can' if search.result else 'cannot'} force a line"
            for search in self.searches
            if search.result is not None
        ]
        said = f"settled: {', '.join(settled)}" if settled else "nothing settled yet"
        for search in self.searches:
            if search.result is not None:
                continue
            side = search.attacker.upper()
            searched = f"{search.nodes:,} positions searched" if search.nodes else "just begun"
            said += f" (can {side} force a line? {searched}"
            first = search.first_moves
            if first is not None:
                moves = sum(len(first[key]) for key in ("win", "no win", "open"))
                known = [
                    f"{side} {words} after {', '.join(map(self.geometry.move_name, first[key]))}"
                    for key, words in (("win", "wins"), ("no win", "does not win"))
                    if first[key]
                ]
                said += f"; of X's {moves} first moves, one of each set alike by symmetry, " + (
                    f"{'; '.join(known)}; {len(first['open'])} not settled"
                    if known
                    else "none settled"
                )
            said += ")"
        return said

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            **self.geometry.board_keys(),
            "value": self.value,
            "method": method_of(self.geometry),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "proofs": list(self.proofs),
            "searches": [search.to_dict() for search in self.searches],
        }
        if self.run is not None:
            out["run"] = self.run
        return out


@dataclass(frozen=True)
class Waiting:
    """What one open reply to a root's move waits on: the first open position below it with more
    than one way on, reached through the one move the run follows where the attacker is to move
    and the one open reply where the defender is (``oxo.proofs.runs.Tree.waits_on``); the reply's own
    position when it has no such path. Its marks are in the orientation the run first met it in;
    ``moves`` its moves once split (0: not split, a job of its own, ``jobs`` run so far; once
    split, ``jobs`` its own that searched and settled nothing before), of which ``settled`` are
    settled and ``searched`` had a job; ``same_as``: an earlier reply that waits on this position
    too (up to symmetry); ``aside``: where the attacker is to move, its split moves the run set
    aside (``oxo.proofs.runs.Tree._set_aside``: they lag, another has fewer replies open, or
    the search's first moves are searched first), each as (move, replies settled, replies)."""

    reply: int
    x: tuple[int, ...]
    o: tuple[int, ...]
    attacker_to_move: bool
    moves: int
    settled: int
    searched: int
    jobs: int
    same_as: int | None = None
    #: Where the position waited on is the defender's with a few replies open: what each of those
    #: waits on in turn (one level further down).
    below: tuple[Waiting, ...] = ()
    aside: tuple[tuple[int, int, int], ...] = ()

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Waiting:
        fields = dict(data)
        fields["x"], fields["o"] = tuple(fields["x"]), tuple(fields["o"])
        fields["below"] = tuple(cls.from_dict(item) for item in fields.get("below", ()))
        fields["aside"] = tuple(tuple(item) for item in fields.get("aside", ()))
        return cls(**fields)

    def to_dict(self) -> dict[str, object]:
        return record(
            self,
            x=list(self.x),
            o=list(self.o),
            below=[wait.to_dict() for wait in self.below],
            aside=[list(item) for item in self.aside],
        )

    def lines(
        self, attacker: str, depth: int = 0, geometry: Geometry | None = None
    ) -> list[tuple[int, str]]:
        """This wait and those below it in words (:meth:`words`), each with its depth: 0 for this
        one, 1 for those it waits on in turn."""
        out = [(depth, self.words(attacker, geometry))]
        for wait in self.below:
            out.extend(wait.lines(attacker, depth + 1, geometry))
        return out

    def words(self, attacker: str, geometry: Geometry | None = None) -> str:
        """In words, ``attacker`` the side whose question it is: ``O on 7 waits on X on 0 and
        103, O on 7, O to move: 104 of its 253 replies settled``. On a board with gravity
        (``geometry``), by columns, as people type the moves: ``O in column 2 waits on X O in
        column 1, O in column 2 and X in column 6 (from the bottom up), X to move: ...``."""
        gravity = geometry if geometry is not None and geometry.gravity else None

        def mark(side: str, cell: int) -> str:
            return f"{side} on {cell}" if geometry is None else geometry.mark_words(side, cell)

        if self.same_as is not None:
            same = mark("O", self.same_as)
            return f"{mark('O', self.reply)} waits on the same position as {same}"

        mover = "X" if len(self.x) == len(self.o) else "O"
        if gravity is None:
            marks = f"X on {listing(self.x)}, O on {listing(self.o)}"
        else:
            marks = f"{_stacks(gravity, self.x, self.o)} (from the bottom up)"
        where = f"{marks}, {mover} to move"
        if not self.moves:
            runs = f"{counted(self.jobs, 'job')} run" if self.jobs else "no job yet"
            what = f"a job of its own ({runs})"
        elif self.attacker_to_move:
            moves = counted(self.moves, "move")
            what = (
                f"its {moves} not searched yet"
                if not self.searched
                else f"{self.searched:,} of its {moves} searched, none won by "
                f"{attacker.upper()} yet"
            )
            if self.jobs:  # its own jobs settled nothing before it was split
                what = f"split after {counted(self.jobs, 'job')} of its own, {what}"
        else:
            what = f"{self.settled:,} of its {counted(self.moves, 'reply', 'replies')} settled"
        for move, settled, replies in self.aside:
            what += (
                f"; {mark(attacker.upper(), move)} set aside, {settled:,} of the {replies:,} "
                "replies to it settled"
            )
        return f"{mark('O', self.reply)} waits on {where}: {what}"


def _stacks(geometry: Geometry, x: tuple[int, ...], o: tuple[int, ...]) -> str:
    """The marks of a position with gravity by column, each column's from the bottom up: ``X O in
    column 1 and X in column 6``."""
    owner = {cell: "X" for cell in x} | {cell: "O" for cell in o}
    stacks = []
    for column in range(geometry.column_count):
        marks = [owner[cell] for cell in geometry.column_cells(column) if cell in owner]
        if marks:
            stacks.append(f"{' '.join(marks)} in column {geometry.column_name(column)}")
    return listing(stacks)


def sessions_span(first: int, last: int) -> str:
    """Sessions of a run from ``first`` to ``last`` in words: ``session 60``, ``sessions 60 to
    62``."""
    return f"session {last}" if first == last else f"sessions {first} to {last}"


def certificate_name(geometry: Geometry, side: str, guarantee: str) -> str:
    """The file name of a certificate: ``5x5-k4-x-no-loss.jsonl.gz`` (``4x4x4-k4-gravity-x-win...``
    with gravity)."""
    gravity = "-gravity" if geometry.gravity else ""
    return f"{geometry.spec_shape}-k{geometry.k}{gravity}-{side}-{guarantee}.jsonl.gz"
