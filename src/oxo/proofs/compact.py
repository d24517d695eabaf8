"""A certificate rewritten with rules: the same strategy, without the moves a rule gives.

:func:`compact_certificate` checks a certificate under a header that names rules (and, if asked,
symmetries beyond the board's own), keeps the entries the walk plays (a rule's move is never looked
up, and an entry the walk does not reach is dropped), writes them with that header and checks the
written file. The written certificate proves what the source proves: its checker plays the same
strategy where an entry gives the move, and the rules elsewhere (:mod:`oxo.proofs.rules`).
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from oxo.errors import CertificateError
from oxo.fileio import digests
from oxo.geometry import Symmetry, mask_cells
from oxo.proofs.certificate import (
    Entry,
    MoveEntry,
    StrategyHeader,
    VerifyProgress,
    VerifyResult,
    compiled_chains_fit,
    open_certificate,
    read_certificate,
    read_header,
    status_masks,
    status_string,
    verify_certificate,
)
from oxo.proofs.rules import ChainSearch, Rules, threats
from oxo.proofs.symmetry import canonical

if TYPE_CHECKING:
    from oxo.proofs.chainkernel import CompiledChainSearch, CompiledClasses

#: A section of the source that keeps this many entries or fewer joins section 0.
SMALL_SECTION = 16


@dataclass(frozen=True)
class CompactResult:
    """What :func:`compact_certificate` did: the source's check under the rules, the written
    file's check, and the written file's size (bytes, SHA-256 of the file and of its text)."""

    source: VerifyResult
    written: VerifyResult
    entries: int
    sections: int
    bytes: int
    sha256: str
    text_sha256: str

    def to_dict(self) -> dict[str, object]:
        return {
            "source": self.source.to_dict(),
            "written": self.written.to_dict(),
            "entries": self.entries,
            "sections": self.sections,
            "bytes": self.bytes,
            "sha256": self.sha256,
            "text_sha256": self.text_sha256,
        }


def compact_certificate(
    source: str | os.PathLike[str],
    target: str | os.PathLike[str],
    rules: Rules,
    symmetries: Sequence[Sequence[int]] | None = None,
    *,
    on_progress: VerifyProgress | None = None,
) -> CompactResult:
    """Write ``target``: the certificate ``source`` with ``rules`` (and ``symmetries``) in its
    header and only the entries its walk then plays; both files are checked. Raises
    :class:`CertificateError` when the source does not hold under the rules (it then proves
    nothing to compact) or the written file does not (a fault of this function)."""
    extra = None if symmetries is None else tuple(tuple(perm) for perm in symmetries)
    used: dict[int, list[Entry]] = {}

    def reheader(header: StrategyHeader) -> StrategyHeader:
        return dataclasses.replace(header, rules=rules, symmetries=extra)

    checked = verify_certificate(
        source,
        on_progress=on_progress,
        reheader=reheader,
        observer=lambda step: used.setdefault(step.section, []).append(step.entry),
    )
    if not checked.valid:
        raise CertificateError(
            f"{source} does not hold under the rules ({rules}): {checked.failure} at position "
            f"{checked.failure_position}"
        )
    header = read_header(source)
    kept: list[tuple[str | None, list[Entry]]] = [(None, used.get(0, []))]
    for number, (root, _) in enumerate(header.sections or (), start=0):
        if number == 0 or number not in used:
            continue
        entries = used[number]
        if len(entries) <= SMALL_SECTION:
            kept[0][1].extend(entries)
        else:
            kept.append((root, entries))
    sections = None if len(kept) == 1 else tuple((root, len(part)) for root, part in kept)
    written_header = dataclasses.replace(header, sections=sections, rules=rules, symmetries=extra)
    with open_certificate(target, written_header) as writer:
        for _, part in kept:
            for entry in part:
                writer.write(entry)
    written = verify_certificate(target, on_progress=on_progress)
    if not written.valid:
        raise CertificateError(
            f"the rewritten certificate {target} does not hold: {written.failure} at position "
            f"{written.failure_position}"
        )
    size = digests(target)
    return CompactResult(
        source=checked,
        written=written,
        entries=writer.count,
        sections=0 if sections is None else len(sections),
        bytes=os.path.getsize(target),
        sha256=str(size["sha256"]),
        text_sha256=str(size["sha256_uncompressed"]),
    )


# -- fewer stored moves ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ImproveResult:
    """What :func:`improve_certificate` did: the stored moves before and after, how many were
    replaced by a move after which the rules alone win, and the written file's check."""

    before: int
    after: int
    replaced: int
    written: VerifyResult

    def to_dict(self) -> dict[str, object]:
        return {
            "before": self.before,
            "after": self.after,
            "replaced": self.replaced,
            "written": self.written.to_dict(),
        }


class _Invalid(Exception):
    """The walk met a position the certificate does not win (control flow only)."""


class RulesWalk:
    """The side's strategy in a win certificate with rules, walked as its checker walks it (the
    rules, then the entries), keeping the positions where the side plays an entry's move in the
    order first met (each before the entries below it) and, for each, where the entries below it
    end in that order."""

    def __init__(self, header: StrategyHeader, moves: dict[int, int]) -> None:
        self.header = header
        geometry = header.geometry
        self.lines = geometry.lines
        self.through = geometry.lines_through
        self.size = geometry.size
        self.full = geometry.full_mask
        self.group = header.group
        self.is_x = header.side == "x"
        self.chain = header.rules.chain
        self.block = header.rules.block
        self.search: ChainSearch | CompiledChainSearch = ChainSearch(self.lines)
        self._classes: CompiledClasses | None = None
        if self.chain and compiled_chains_fit(geometry):
            # The compiled twins, on the boards where the checker takes them (the same answers,
            # held to the plain ones in the tests). numba loads only here.
            from oxo.proofs.chainkernel import CompiledChainSearch, CompiledClasses

            self.search = CompiledChainSearch(geometry.line_cells, self.size)
            self._classes = CompiledClasses([s.perm for s in self.group], self.size)
        #: Class key -> the side's move in the class's canonical orientation.
        self.moves = moves

    def canonical(self, x: int, o: int) -> tuple[int, Symmetry]:
        if self._classes is not None:
            key, index = self._classes.canonical(x, o)
            return key, self.group[index]
        return canonical(self.group, self.size, x, o)

    def walk(self) -> list[tuple[int, int, int, int]]:
        """(class key, X, O, end) of each position where the side plays an entry's move, in the
        order first met; ``end`` is the index after the last entry met below it. Raises
        :class:`CertificateError` where the strategy does not win. The walk also records which
        stored positions each one leads to (:attr:`graph`), so that :meth:`order` gives the same
        list, without walking again, after :meth:`replace`."""
        #: Class key (None: the walk's root) -> the classes with an entry met next below it.
        self.graph: dict[int | None, dict[int, None]] = {None: {}}
        #: Class key -> the position (X, O) where the walk first met it.
        self.position: dict[int, tuple[int, int]] = {}
        # The classes with an entry met next below each position of the opponent (walked once).
        self._below: dict[int, dict[int, None]] = {}
        self._collect: list[dict[int, None]] = [self.graph[None]]
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 8 * self.size + 1000))
        try:
            x, o = self.header.start_masks  # the empty board, or the header's start
            side_to_move = (x.bit_count() == o.bit_count()) == self.is_x
            (self._side if side_to_move else self._opponent)(x, o)
        except _Invalid as error:
            raise CertificateError(f"the strategy does not win: {error}") from None
        finally:
            sys.setrecursionlimit(limit)
        return self.order()

    def order(self) -> list[tuple[int, int, int, int]]:
        """The list :meth:`walk` gives, from the recorded graph (after replacements too)."""
        out: list[list[int]] = []
        seen: set[int] = set()
        stack: list[tuple[list[int], Iterator[int]]] = []

        def enter(key: int) -> None:
            seen.add(key)
            node = [key, *self.position[key], 0]
            out.append(node)
            stack.append((node, iter(self.graph[key])))

        for top in self.graph[None]:
            if top in seen:
                continue
            enter(top)
            while stack:
                node, children = stack[-1]
                child = next((c for c in children if c not in seen), None)
                if child is None:
                    node[3] = len(out)
                    stack.pop()
                else:
                    enter(child)
        return [(key, x, o, end) for key, x, o, end in out]

    def replace(self, key: int, move: int, below: Sequence[tuple[int, int, int]]) -> None:
        """Give the class ``key`` the side's ``move`` (in the class's canonical orientation), and
        each position (X, O, move) of ``below`` its move: the positions where the strategy then
        needs an entry below ``key``, each finished by the rules."""
        self.moves[key] = move
        self.graph[key] = {}
        for x, o, cell in below:
            child, symmetry = self.canonical(x, o)
            self.moves[child] = symmetry.perm[cell]
            self.graph[key][child] = None
            self.graph[child] = {}
            self.position[child] = (x, o)

    def _marks(self, x: int, o: int) -> tuple[int, int]:
        return (x, o) if self.is_x else (o, x)

    def _side(self, x: int, o: int) -> None:
        own, other = self._marks(x, o)
        if threats(self.lines, own, other):
            return
        their = threats(self.lines, other, own)
        if self.block and their:
            if their & (their - 1):
                raise _Invalid(f"two threats of the opponent at {status_string(x, o, self.size)}")
            self._opponent(*self._play(x, o, their.bit_length() - 1))
            return
        if self.chain and self.search.exists(own, other, self.chain):
            return
        key, symmetry = self.canonical(x, o)
        self._collect[-1][key] = None
        if key in self.position:
            return
        self.position[key] = (x, o)
        if key not in self.moves:
            raise _Invalid(f"no entry at {status_string(x, o, self.size)}")
        self.graph[key] = {}
        self._collect.append(self.graph[key])
        self._opponent(*self._play(x, o, symmetry.inverse_perm[self.moves[key]]))
        self._collect.pop()

    def _play(self, x: int, o: int, cell: int) -> tuple[int, int]:
        return (x | 1 << cell, o) if self.is_x else (x, o | 1 << cell)

    def _opponent(self, x: int, o: int) -> None:
        key, _ = self.canonical(x, o)
        below = self._below.get(key)
        if below is not None:  # walked before: what it leads to, for the graph
            self._collect[-1].update(below)
            return
        below = self._below[key] = {}
        own, other = self._marks(x, o)
        empty = self.full & ~(x | o)
        if not empty:
            raise _Invalid(f"a full board at {status_string(x, o, self.size)}")
        self._collect.append(below)
        try:
            for reply in mask_cells(empty):
                after = other | 1 << reply
                if any(line & after == line for line in self.through[reply]):
                    raise _Invalid(
                        f"the opponent completes a line at {status_string(x, o, self.size)}"
                    )
                self._side(*((own, after) if self.is_x else (after, own)))
        finally:
            self._collect.pop()
        self._collect[-1].update(below)

    def closed(self, x: int, o: int, blocks: int = 2) -> bool:
        """Whether the rules alone win for the side to move in (x, o): a win at once, a forced
        chain, or a block (at most ``blocks`` in a row) after which every reply is again won by the
        rules alone."""
        own, other = self._marks(x, o)
        if any(line & other == line for line in self.lines):
            return False
        if threats(self.lines, own, other):
            return True
        their = threats(self.lines, other, own)
        if self.block and their:
            if their & (their - 1) or blocks == 0:
                return False
            x, o = self._play(x, o, their.bit_length() - 1)
            own, other = self._marks(x, o)
            if x | o == self.full:
                return False
            return all(
                self.closed(
                    *((own, other | 1 << r) if self.is_x else (other | 1 << r, own)), blocks - 1
                )
                for r in mask_cells(self.full & ~(x | o))
            )
        return bool(self.chain) and self.search.exists(own, other, self.chain)

    def closed_move(self, x: int, o: int) -> int | None:
        """A move of the side in (x, o) after which every reply is won by the rules alone, or None.
        Replies near the side's open lines are tried first (they are the likeliest to hold)."""
        found = self.cheaper_move(x, o, 0)
        return None if found is None else found[0]

    def cheaper_move(
        self, x: int, o: int, budget: int
    ) -> tuple[int, list[tuple[int, int, int]]] | None:
        """A move of the side in (x, o) after which every reply is won by the rules alone but at
        most ``budget`` classes of positions, each of which has a move after which every reply is
        won by the rules alone; with those positions (X, O) and moves. None when there is none
        (positions already given an entry do not count as won)."""
        own, other = self._marks(x, o)
        open_lines = [line for line in self.lines if line & own and not line & other]
        empty = mask_cells(self.full & ~(x | o))
        weight = {cell: sum(1 for line in open_lines if line >> cell & 1) for cell in empty}
        replies = sorted(empty, key=lambda cell: -weight[cell])
        if len(replies) < 2:
            return None
        for move in replies:  # the moves on the most open lines first too
            mine = own | 1 << move
            open_ones: dict[int, tuple[int, int]] = {}
            for reply in replies:
                if reply == move:
                    continue
                after = (mine, other | 1 << reply) if self.is_x else (other | 1 << reply, mine)
                if self.closed(*after):
                    continue
                key, _ = self.canonical(*after)
                if key not in open_ones:
                    if len(open_ones) == budget or key in self.moves:
                        break
                    open_ones[key] = after
            else:
                below = []
                for after in open_ones.values():
                    finish = self.cheaper_move(*after, 0) if budget else None
                    if finish is None:
                        break
                    below.append((*after, finish[0]))
                else:
                    return move, below
        return None


def improve_certificate(
    source: str | os.PathLike[str],
    target: str | os.PathLike[str],
    *,
    extra: int = 0,
    on_progress: Callable[[int, int, int], None] | None = None,
) -> ImproveResult:
    """Write ``target``: the win certificate with rules ``source`` with fewer stored moves. Where
    the side plays an entry's move with more entries below it, a move after which the rules alone
    win against every reply (a forced chain or a win at once, through at most two blocks in a
    row) replaces it, and the entries below it that nothing else needs are dropped. With
    ``extra``, a move after which the rules win against every reply but at most ``extra`` (up to
    symmetry) also replaces one, where each of those replies has a move the rules then finish and
    the new entries are fewer than those they spare. Entries kept are written as they were in
    ``source``; the written file is checked, and an entry its check never plays is left out.
    ``on_progress(done, total, replaced)`` is called as the stored positions are tried."""
    certificate = read_certificate(source)
    header = certificate.header
    if header.guarantee != "win" or not header.rules.any:
        raise CertificateError(f"{source}: not a win certificate with rules")
    group = header.group
    moves: dict[int, int] = {}
    written: dict[int, MoveEntry] = {}
    for entry in certificate.entries:
        if not isinstance(entry, MoveEntry):
            raise CertificateError(f"{source}: a pairing in a win certificate")
        x, o = status_masks(entry.position)
        key, symmetry = canonical(group, header.geometry.size, x, o)
        moves.setdefault(key, symmetry.perm[entry.move])
        written.setdefault(key, entry)
    walk = RulesWalk(header, dict(moves))
    stored = walk.walk()
    before = len(stored)
    replaced = 0
    size = header.geometry.size
    for budget in sorted({0, extra}):  # moves the rules finish first, then those needing more
        while True:  # pass after pass, until one spares nothing
            kept = (dict(walk.moves), dict(written), {k: dict(v) for k, v in walk.graph.items()})
            count = len(stored)
            replaced_before = replaced
            index = 0
            while index < len(stored):
                key, x, o, end = stored[index]
                found = None
                if end - index >= 2 + (budget > 0):  # a replacement must spare an entry
                    found = walk.cheaper_move(x, o, min(budget, end - index - 2))
                if found is not None:
                    move, below = found
                    _, symmetry = walk.canonical(x, o)
                    walk.replace(key, symmetry.perm[move], below)
                    written[key] = MoveEntry(status_string(x, o, size), move)
                    for entry_x, entry_o, entry_move in below:
                        entry_key, _ = walk.canonical(entry_x, entry_o)
                        written[entry_key] = MoveEntry(
                            status_string(entry_x, entry_o, size), entry_move
                        )
                    replaced += 1
                    index = end
                else:
                    index += 1
                if on_progress is not None:
                    on_progress(index, len(stored), replaced)
            if replaced == replaced_before:
                break
            stored = walk.order()
            if len(stored) >= count:  # entries shared with other branches: no saving, undo
                walk.moves, written, graph = kept
                walk.graph.clear()
                walk.graph.update(graph)
                replaced = replaced_before
                stored = walk.order()
                break
    used = [key for key, _, _, _ in walk.order()]
    plain = dataclasses.replace(header, sections=None)
    with open_certificate(target, plain) as writer:
        for key in used:
            writer.write(written[key])
    played: set[int] = set()
    checked = verify_certificate(
        target, observer=lambda step: played.add(canonical(group, size, step.x, step.o)[0])
    )
    if checked.valid and len(played) < len(used):
        # An entry the checker never plays: a move stored for a position where the block rule
        # gives the move (a block followed by more than two blocks before the rules win alone).
        used = [key for key in used if key in played]
        with open_certificate(target, plain) as writer:
            for key in used:
                writer.write(written[key])
        checked = verify_certificate(target)
    if not checked.valid:
        raise CertificateError(
            f"the improved certificate {target} does not hold: {checked.failure} at position "
            f"{checked.failure_position}"
        )
    return ImproveResult(
        before=before, after=checked.strategy_moves, replaced=replaced, written=checked
    )
