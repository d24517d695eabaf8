"""Gomoku tactics: forced wins by continuous fours (VCF) and by fours and threes (VCT), on any board.

The rule is oxo's own: a line of k cells (every line of :attr:`oxo.geometry.Geometry.lines`) filled by
one side wins, so a longer row wins too (free-style gomoku when k = 5). Words used below, for the
side S to move (the *attacker*) and its opponent D (the *defender*):

* a *five* is a move that fills a line of S: S wins;
* a *four* is a move after which some line holds k-1 marks of S, no mark of D, and one empty cell:
  D must take that cell at once or lose (two such cells, a *double four*, cannot both be taken);
* a *threat* is a move after which S, were it to move again, would win by fours within a few moves
  (an open three, say: S threatens to make a four that cannot be stopped). D may answer a threat in
  many ways, so a win made of threats is a tree, not a line.

**VCF** (victory by continuous fours) plays only fours: each reply of D is forced, so a win is one
line, and the search over all fours is complete. **VCT** (victory by continuous threats) also plays
threats (tried among the moves that make k-2 marks of S in a line free of D, and the moves that
prepare a four-three: :meth:`_Search.threat_candidates`) and searches every defence that matters,
by proof-number search (the threat with the fewest defences left to refute first).

Which defences matter, and why the others lose: after S's threat, the search finds S's shortest
win by fours as if D passed, a line ``L``. A reply of D on none of the cells of ``L`` and on no cell
where D could make a four of its own with its marks and the cells it takes in ``L`` leaves ``L``
standing: every move of S in ``L`` is still a four with the same single reply, and D never gets a
four of its own to answer with. So only the cells of ``L`` and those cells (the *relevant* cells)
are searched, and after any other reply S plays ``L``. The same holds for D's counter-fours: a
reply that makes a four of D is a relevant cell, and a position in which D has a four lets S move
only to take that cell (or to win at once).

A found win is a :class:`Proof` (S's move, the proof after each searched reply, and the line that
wins after any other reply) that :func:`check` confirms by playing every reply of D with the plain
rules, independently of the search. "Not found" proves nothing, except for a VCF search that ran to
the end (:attr:`Tactics.exhausted`): then S has no win by fours (within ``max_moves`` when given).

The same holds with the sides swapped: when D would win by fours if S did nothing, S's moves that
are not fours must spoil that win, and a threat after which D wins by fours first is no threat.

The search keeps the lines in buckets by how many marks of each side they hold (lines holding a mark
of both sides are dead), updated move by move, so a node costs a few dozen set operations on a
15x15 board (572 lines of 5) rather than a pass over every line. ``docs/gomoku.md`` has the tests
and the score on a public suite.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from oxo.engines.base import Advice
from oxo.errors import MoveError, PositionError
from oxo.game import GameState, other
from oxo.geometry import Geometry, completing_cells, mask_cells
from oxo.phrases import counted
from oxo.position import Player, Position

Kind = Literal["vcf", "vct"]

#: Positions a search may visit by default before it gives up.
DEFAULT_NODES = 200_000
#: Attacker moves of the win by fours (as if the defender passed) that make a move a threat: 2 finds
#: open threes (an open four, then a five), 3 also the moves that prepare a four-three.
THREAT_MOVES = 3
#: Attacker moves (the last one completing the line) a threat search looks ahead by default.
VCT_MOVES = 10

#: Weights of a line holding n marks of one side only, for ordering moves (more marks: sooner).
_WEIGHTS = (0, 1, 4, 20, 120, 1000)


@dataclass(frozen=True)
class Proof:
    """A forced win for the attacker, who is to move: play ``move``; after each of the defender's
    ``replies`` go on with the proof given for it; after any other reply play ``fallback`` (a line of
    fours: attacker and forced replies alternating, the last move completing a line), or complete a
    line at once when ``fallback`` is empty. ``completes`` marks a move that completes a line (the
    leaves). A proof from elsewhere is judged by :func:`check`, which plays it out."""

    move: int
    replies: tuple[tuple[int, Proof], ...] = ()
    fallback: tuple[int, ...] = ()
    completes: bool = False

    @property
    def attacker_moves(self) -> int:
        """The most moves the attacker needs against any defence, the last one completing a line."""
        if self.completes:
            return 1
        deepest = max((proof.attacker_moves for _, proof in self.replies), default=0)
        after_other = (len(self.fallback) + 1) // 2 if self.fallback else 1
        return 1 + max(deepest, after_other)

    def principal(self) -> tuple[int, ...]:
        """The main line: the attacker's moves and, at each turn of the defender, the searched reply
        that holds out longest (after a double four, the reply that blocks one of the two cells)."""
        line = [self.move]
        if self.replies:
            reply, proof = max(self.replies, key=lambda item: item[1].attacker_moves)
            line.append(reply)
            line.extend(proof.principal())
        return tuple(line)

    def all_fours(self) -> bool:
        """Whether every attacker move of the proof is a four or a five: one searched reply at each
        turn of the defender, none left to a fallback line (a win by continuous fours)."""
        if self.fallback:
            return False
        return len(self.replies) <= 1 and all(proof.all_fours() for _, proof in self.replies)

    def to_dict(self) -> dict[str, object]:
        return {
            "move": self.move,
            "replies": [
                {"reply": reply, "proof": proof.to_dict()} for reply, proof in self.replies
            ],
            "fallback": list(self.fallback),
            "completes": self.completes,
        }


def five(cell: int) -> Proof:
    """The proof that completes a line at ``cell``."""
    return Proof(cell, completes=True)


def line_proof(line: Sequence[int]) -> Proof:
    """A line of fours (attacker, forced reply, attacker, ..., the last move completing a line; or
    ending in a double four, its block and the other cell) as a :class:`Proof`."""
    if len(line) % 2 == 0:
        raise ValueError(f"a line of fours ends with the attacker's move: {list(line)}")
    proof = five(line[-1])
    for index in range(len(line) - 3, -1, -2):
        proof = Proof(line[index], ((line[index + 1], proof),))
    return proof


# -- the result -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tactics:
    """What a forcing-move search found for ``attacker`` in ``position``.

    ``proof`` is the win when one was found (checked by :func:`check`), else None. ``exhausted``
    says the search ran to its end within the budget: for ``kind == "vcf"`` and no proof, the
    attacker then has no win by continuous fours (within ``max_moves`` attacker moves when given);
    a VCT search that ran out says nothing.
    """

    position: Position
    attacker: Player
    kind: Kind
    proof: Proof | None
    nodes: int
    seconds: float
    exhausted: bool
    max_moves: int | None

    @property
    def found(self) -> bool:
        return self.proof is not None

    @property
    def by_fours(self) -> bool:
        """Whether the win found is by continuous fours alone."""
        return self.proof is not None and self.proof.all_fours()

    @property
    def line(self) -> tuple[int, ...]:
        """The winning line: the attacker's moves and the defender's replies, alternating (at each
        threat the defence that holds out longest); empty when nothing was found."""
        return () if self.proof is None else self.proof.principal()

    @property
    def points(self) -> tuple[str, ...]:
        """The line in board coordinates (``h8``: column letter, row counted from the bottom)."""
        return tuple(point_name(self.position.geometry, cell) for cell in self.line)

    @property
    def attacker_moves(self) -> int | None:
        """The most attacker moves the win takes against any defence (None when nothing was found)."""
        return None if self.proof is None else self.proof.attacker_moves

    def summary(self) -> str:
        """One sentence for people."""
        who = self.attacker.upper()
        if self.proof is not None:
            how = "continuous fours" if self.by_fours else "fours and threes"
            moves = self.proof.attacker_moves
            return f"{who} wins by {how}, {counted(moves, 'move')} of {who} at most"
        limit = f" within {self.max_moves} moves of {who}" if self.max_moves else ""
        if self.kind == "vcf" and self.exhausted:
            return f"{who} has no win by continuous fours{limit}"
        searched = "continuous fours" if self.kind == "vcf" else "fours and threes"
        reason = "the search ran to its end" if self.exhausted else "the search ran out of budget"
        return f"no win by {searched} found for {who}{limit} ({reason}; this proves nothing)"

    def to_dict(self) -> dict[str, object]:
        return {
            "attacker": self.attacker,
            "search": self.kind,
            "found": self.found,
            "by_fours": self.by_fours if self.found else None,
            "line": list(self.line),
            "points": list(self.points),
            "attacker_moves": self.attacker_moves,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
            "exhausted": self.exhausted,
            "max_moves": self.max_moves,
            "text": self.summary(),
        }


# -- coordinates -------------------------------------------------------------------------------------

_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def point_name(geometry: Geometry, cell: int) -> str:
    """A cell as gomoku players write it on a flat board: the column's letter (``a`` on the left),
    then the row counted from 1 at the bottom (``h8`` is the centre of 15x15); the cell ID elsewhere."""
    if geometry.dimensions != 2 or geometry.shape[1] > len(_LETTERS):
        return str(cell)
    row, col = geometry.coords(cell)
    return f"{_LETTERS[col]}{geometry.shape[0] - row}"


def parse_point(geometry: Geometry, text: str) -> int:
    """The cell named ``h8`` (see :func:`point_name`) or by its ID."""
    word = text.strip().lower()
    if word.isdigit():
        cell = int(word)
        if cell < geometry.size:
            return cell
    elif geometry.dimensions == 2 and len(word) >= 2 and word[0] in _LETTERS and word[1:].isdigit():
        rows, cols = geometry.shape
        col, row = _LETTERS.index(word[0]), rows - int(word[1:])
        if col < cols and 0 <= row < rows:
            return row * cols + col
    points = (
        f"a point a1..{point_name(geometry, geometry.shape[1] - 1)} (column letter, row from the bottom) or "
        if geometry.dimensions == 2 and geometry.shape[1] <= len(_LETTERS)
        else ""
    )
    raise MoveError(
        f"{text.strip()[:20]!r} is not a cell of a {geometry.spec_shape} board; give {points}"
        f"a cell ID 0..{geometry.size - 1}"
    )


# -- the search --------------------------------------------------------------------------------------


class _OutOfBudget(Exception):
    pass


@lru_cache(maxsize=16)
def _lines_through(geometry: Geometry) -> tuple[tuple[int, ...], ...]:
    """For each cell, the indices in ``geometry.lines`` of the lines through it."""
    through: list[list[int]] = [[] for _ in range(geometry.size)]
    for index, line in enumerate(geometry.lines):
        for cell in mask_cells(line):
            through[cell].append(index)
    return tuple(tuple(indices) for indices in through)


class _Search:
    """The board of one search: side 0 is the attacker, side 1 the defender."""

    def __init__(
        self,
        geometry: Geometry,
        attacker: int,
        defender: int,
        *,
        nodes: int | None,
        seconds: float | None,
        threat_moves: int = THREAT_MOVES,
    ) -> None:
        self.k = k = geometry.k
        self.lines = lines = geometry.lines
        self.through = _lines_through(geometry)
        self.full = geometry.full_mask
        self.stones = [attacker, defender]
        #: each line's marks as one number: attacker's + base * defender's
        self.base = base = k + 1
        self.step = (1, base)
        self.code = [
            (line & attacker).bit_count() + base * (line & defender).bit_count() for line in lines
        ]
        #: the lowest number of attacker marks whose lines are kept (the threats' lines need
        #: k-1-threat_moves, and a threat of a VCT is at least a three: k-3); the defender's lines
        #: are kept from k-2 marks (its fours and the cells where it would make one)
        self.low = low = max(1, min(k - 3, k - 1 - threat_moves))
        #: ``bucket[code]``: the lines with that code, for the codes searched (None for the others)
        self.bucket: list[set[int] | None] = [None] * (base * base)
        for marks in range(low, k + 1):
            self.bucket[marks] = set()
        for marks in range(max(1, k - 2), k + 1):
            self.bucket[base * marks] = set()
        for index, code in enumerate(self.code):
            bucket = self.bucket[code]
            if bucket is not None:
                bucket.add(index)
        self.threat_moves = threat_moves
        weights = [_WEIGHTS[min(n, len(_WEIGHTS) - 1)] for n in range(k + 1)]
        #: ``scores[side][code]``: what a line with that code adds to a move's promise for ``side``
        self.scores = [[0] * (base * base), [0] * (base * base)]
        for mine in range(base):
            for theirs in range(base):
                code = mine + base * theirs
                if theirs == 0:
                    self.scores[0][code] = 2 * weights[mine]
                    self.scores[1][code] = weights[mine]
                elif mine == 0:
                    self.scores[0][code] = weights[theirs]
                    self.scores[1][code] = 2 * weights[theirs]
        self.nodes = 0
        self.max_nodes = nodes
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self.vcf_failed: tuple[dict[tuple[int, int], float], ...] = ({}, {})
        self.table: dict[tuple[int, int], _Node] = {}
        #: set when a win by fours was cut short by its depth limit (a deeper search might find
        #: one): its failure is then remembered with that depth only
        self.cut = False

    # -- the board, move by move ------------------------------------------------------------------

    def play(self, cell: int, side: int) -> None:
        self._recode(cell, self.step[side])
        self.stones[side] |= 1 << cell

    def unplay(self, cell: int, side: int) -> None:
        self._recode(cell, -self.step[side])
        self.stones[side] ^= 1 << cell

    def _recode(self, cell: int, step: int) -> None:
        """Add ``step`` to the code of every line through ``cell`` (a stone placed, or taken back
        with the step negated), moving each line to the bucket of its new code."""
        code, bucket = self.code, self.bucket
        for index in self.through[cell]:
            value = code[index]
            lines = bucket[value]
            if lines is not None:
                lines.discard(index)
            value += step
            code[index] = value
            lines = bucket[value]
            if lines is not None:
                lines.add(index)

    def empty(self) -> int:
        return self.full & ~(self.stones[0] | self.stones[1])

    def lines_of(self, side: int, marks: int) -> set[int]:
        """The lines holding ``marks`` marks of ``side`` and none of the other (only the counts
        kept: see ``low``)."""
        lines = self.bucket[marks if side == 0 else self.base * marks]
        if lines is None:
            raise ValueError(f"lines with {marks} marks of side {side} are not kept")
        return lines

    def cells_of(self, side: int, marks: int) -> int:
        """The empty cells of the lines holding ``marks`` marks of ``side`` and none of the other."""
        lines = self.lines
        cells = 0
        for index in self.lines_of(side, marks):
            cells |= lines[index]
        return cells & self.empty()

    def completions(self, side: int) -> int:
        """The cells where ``side`` would complete a line."""
        return self.cells_of(side, self.k - 1)

    def tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise _OutOfBudget
        if self.deadline is not None and self.nodes & 255 == 0:
            if time.perf_counter() > self.deadline:
                raise _OutOfBudget

    def ordered(self, cells: int, side: int) -> list[int]:
        """The cells, most promising first for ``side``: by the lines through each, its own weighed
        by its marks, the other side's less (a move there also blocks)."""
        code, through, scores = self.code, self.through, self.scores[side]
        scored = []
        while cells:
            low = cells & -cells
            cell = low.bit_length() - 1
            cells ^= low
            scored.append((-sum(scores[code[index]] for index in through[cell]), cell))
        scored.sort()
        return [cell for _, cell in scored]

    # -- wins by fours ----------------------------------------------------------------------------

    def vcf(self, depth: float, me: int = 0) -> list[int] | None:
        """The win by continuous fours of side ``me`` (to move; the attacker unless told) within
        ``depth`` of its moves (the last one completing a line): the line, its moves and the forced
        replies alternating; or None."""
        self.tick()
        you = 1 - me
        win = self.completions(me)
        if win:
            return [(win & -win).bit_length() - 1]
        if depth <= 1:
            if self.cells_of(me, self.k - 2):
                self.cut = True
            return None
        threat = self.completions(you)
        if threat & (threat - 1):
            return None  # two cells complete a line of the other side: one four cannot stop both
        key = (self.stones[me], self.stones[you])
        failures = self.vcf_failed[me]
        failed = failures.get(key)
        if failed is not None and failed >= depth:
            if failed != float("inf"):
                self.cut = True
            return None
        moves = self.cells_of(me, self.k - 2)
        if threat:
            moves &= threat  # the other side's four must be blocked, and the block must be a four
        outer_cut, self.cut = self.cut, False
        found: list[int] | None = None
        for move in mask_cells(moves):
            self.play(move, me)
            cells = self.completions(me)
            if cells & (cells - 1):
                low = cells & -cells
                other = cells ^ low
                self.unplay(move, me)
                found = [move, low.bit_length() - 1, (other & -other).bit_length() - 1]
                break
            block = cells.bit_length() - 1
            self.play(block, you)
            try:
                rest = self.vcf(depth - 1, me)
            finally:
                self.unplay(block, you)
                self.unplay(move, me)
            if rest is not None:
                found = [move, block, *rest]
                break
        cut, self.cut = self.cut, outer_cut or self.cut
        if found is None:
            if len(failures) > 1_000_000:
                failures.clear()
            failures[key] = depth if cut else float("inf")
        return found

    def shortest_vcf(self, depth: float, me: int = 0) -> list[int] | None:
        """The shortest win by fours of side ``me`` within ``depth`` of its moves."""
        steps = 1
        while steps <= depth:
            line = self.vcf(steps, me)
            if line is not None:
                return line
            steps += 1
        return None

    def relevant(self, line: Sequence[int], me: int = 0) -> int:
        """The empty cells where the other side's move can spoil ``line`` (a win by fours of side
        ``me``, to move): the line's cells, and the cells where the other side would make a four
        with its marks and the cells it takes in the line (see the module docstring)."""
        cells = 0
        for cell in line:
            cells |= 1 << cell
        if len(line) > 1:
            k, lines = self.k, self.lines
            you = 1 - me
            blocks = 0
            for cell in line[1::2]:
                blocks |= 1 << cell
            own, theirs = self.stones[me], self.stones[you] | blocks
            for marks in range(k - 2, k):
                for index in self.lines_of(you, marks):
                    cells |= lines[index]
            for cell in line[1::2]:
                for index in self.through[cell]:
                    mask = lines[index]
                    if not mask & own and (mask & theirs).bit_count() >= k - 2:
                        cells |= mask
        return cells & self.empty()

    # -- wins by threats: proof-number search ---------------------------------------------------

    def threat_candidates(self) -> int:
        """The attacker's moves that may be threats, given that the attacker has no win by fours
        now: a threat ``m`` must be used by the win by fours it makes (of at most T =
        ``threat_moves`` moves). With T = 2 that win starts with a move leaving two cells to
        complete, on lines that ``m`` fills up to k-2 marks: ``m`` is on a line free of the
        defender holding k-3 marks or more. With T = 3 the win is a four ``a``, its block, then two
        cells to complete: either ``m`` is on ``a``'s line (again k-3 marks or more), or ``a`` is a
        four already and ``m`` is on a line through ``a`` that the next move fills up to k-1 marks
        (k-4 marks or more now). Longer wins by fours are looked for from the same cells."""
        k = self.k
        cells = self.cells_of(0, k - 2) | self.cells_of(0, k - 3)
        if self.threat_moves >= 3:
            code, base, lines = self.code, self.base, self.lines
            fewest = max(1, k - 1 - self.threat_moves)
            fours = self.cells_of(0, k - 2)
            while fours:
                low = fours & -fours
                fours ^= low
                for index in self.through[low.bit_length() - 1]:
                    if fewest <= code[index] < base:
                        cells |= lines[index]
        return cells & self.empty()

    def leaf(self, depth: float) -> _Node:
        """A new OR node (the attacker to move), valued at once: a line to complete or a win by
        fours proves it; no move left, or a double four of the defender, disproves it."""
        self.tick()
        node = _Node(None, True, depth)
        win = self.completions(0)
        if win:
            node.line = ((win & -win).bit_length() - 1,)
        elif self.completions(1) & (self.completions(1) - 1) or depth <= 1:
            node.pn, node.dn = _INF, 0
            return node
        else:
            line = self.vcf(depth)
            if line is None:
                return node
            node.line = tuple(line)
        node.pn, node.dn = 0, _INF
        return node

    def expand_or(self, node: _Node) -> None:
        """The attacker's candidate threats at ``node``, each an AND node not yet looked at (it is
        tested for a threat when the search first goes there)."""
        threat = self.completions(1)
        if threat:
            # a four of the defender must be blocked first: then the block is the one move tried,
            # a threat when the attacker's other threats still stand (whatever its own lines)
            moves = threat
        else:
            moves = self.threat_candidates()
            counter = self.shortest_vcf(_COUNTER_MOVES, 1)
            if counter is not None:
                # the defender would win by fours if the attacker did nothing: a move that is no
                # four must spoil that win, else the defender plays it
                moves &= self.relevant(counter, 1) | self.cells_of(0, self.k - 2)
        ordered = self.ordered(moves, 0)
        children = []
        for move in ordered:
            child = _Node(move, False, node.depth - 1)
            child.pn, child.dn = len(ordered), 1
            children.append(child)
        node.children = children

    def expand_and(self, node: _Node) -> None:
        """The attacker's move at ``node`` tested for a threat, and the OR node after each of the
        defender's replies that matter, valued at once (stopping at the first refutation)."""
        assert node.move is not None
        self.play(node.move, 0)
        try:
            node.replies = self._replies(node)
            table = self.table
            children = []
            for reply in node.replies:
                self.play(reply, 1)
                try:
                    # the same position is reached by threats in another order: one node serves
                    # both (the attacker moves left follow from the position)
                    key = (self.stones[0], self.stones[1])
                    child = table.get(key)
                    if child is None:
                        child = self.leaf(node.depth)
                        if child.pn and child.dn:
                            child.dn = len(node.replies)
                        table[key] = child
                finally:
                    self.unplay(reply, 1)
                children.append(child)
                if child.dn == 0:
                    break
            node.children = children
        finally:
            self.unplay(node.move, 0)

    def _replies(self, node: _Node) -> tuple[int, ...]:
        """The defender's replies that matter after the attacker's move (played): none after a
        double four (``node.line`` then holds its two cells); :class:`_NoThreat` when the move is
        no threat, or lets the defender win by fours first."""
        cells = self.completions(0)
        if cells:
            if cells & (cells - 1):
                low = cells & -cells  # two cells to complete: after any reply, one is left
                node.line = (
                    low.bit_length() - 1,
                    ((cells ^ low) & -(cells ^ low)).bit_length() - 1,
                )
                return ()
            node.line = None
            return (cells.bit_length() - 1,)
        depth = node.depth + 1  # the attacker moves left at the OR node above
        if depth < 3:
            raise _NoThreat  # no room for a threat, its four and the five
        line = self.shortest_vcf(min(self.threat_moves, depth - 1))
        if line is None or self.vcf(_COUNTER_MOVES, 1) is not None:
            raise _NoThreat  # no threat, or the defender wins by fours first
        node.line = tuple(line)
        return tuple(self.ordered(self.relevant(line), 1))

    def prove(self, depth: float) -> Proof | None:
        """The attacker's win by fours and threats within ``depth`` attacker moves, by proof-number
        search (the threat with the fewest defences to refute first), or None when there is none
        of the kinds searched."""
        root = self.leaf(depth)
        self.table = {}
        while root.pn and root.dn:
            path = [root]
            node = root
            moves: list[tuple[int, int]] = []
            while node.children is not None and node.pn and node.dn:
                children = node.children
                if node.or_node:
                    node = min(children, key=_by_pn)
                    if node.children is None:
                        path.append(node)
                        break  # an attack not looked at yet: expand_and plays it
                    assert node.move is not None
                    moves.append((node.move, 0))
                else:
                    index = _weakest(children)
                    moves.append((node.replies[index], 1))
                    node = children[index]
                self.play(*moves[-1])
                path.append(node)
            try:
                if not node.pn or not node.dn:
                    pass  # reached through a parent that had not heard yet: only update
                elif node.or_node:
                    self.expand_or(node)
                else:
                    try:
                        self.expand_and(node)
                    except _NoThreat:
                        node.children, node.refuted = [], True
            finally:
                for move, side in reversed(moves):
                    self.unplay(move, side)
            for visited in reversed(path):
                visited.update()
        return self.proof(root) if root.pn == 0 else None

    def proof(self, node: _Node) -> Proof:
        """The proof below a proven OR node."""
        if node.line is not None:
            return line_proof(node.line)
        assert node.children is not None
        threat = next(child for child in node.children if child.pn == 0)
        assert threat.move is not None and threat.children is not None
        if not threat.replies:  # a double four: one cell blocked, the other completes
            assert threat.line is not None
            return Proof(threat.move, ((threat.line[0], five(threat.line[1])),))
        replies = tuple(
            (reply, self.proof(child))
            for reply, child in zip(threat.replies, threat.children, strict=True)
        )
        return Proof(threat.move, replies, threat.line or ())


class _NoThreat(Exception):
    """The attacker's move tried at an AND node is no threat (or lets the defender win first)."""


#: Moves of the defender's win by fours (the last one completing a line) that a threat must stop.
_COUNTER_MOVES = 3
_INF = 1 << 40


def _by_pn(node: _Node) -> int:
    return node.pn


def _weakest(children: list[_Node]) -> int:
    """The index of the child with the least disproof number (the first of them)."""
    best, least = 0, children[0].dn
    for index in range(1, len(children)):
        if children[index].dn < least:
            best, least = index, children[index].dn
    return best


class _Node:
    """A node of the proof-number search. An OR node (the attacker to move) was reached by the
    defender's ``move`` (None at the root), has ``depth`` attacker moves left and, once expanded,
    the attacker's threats as ``children``; ``line`` is its win by fours when it has one. An AND
    node (the defender to move) was reached by the attacker's threat ``move``, lists the defender's
    ``replies`` that matter and the ``line`` that wins after any other (None after a four), and once
    expanded holds an OR node per reply. ``pn`` and ``dn`` are the proof and disproof numbers: how
    many more nodes must be proven (disproven) at least to prove (disprove) this one."""

    __slots__ = ("move", "or_node", "depth", "pn", "dn", "children", "replies", "line", "refuted")

    def __init__(self, move: int | None, or_node: bool, depth: float) -> None:
        self.move = move
        self.or_node = or_node
        self.depth = depth
        self.pn = 1
        self.dn = 1
        self.children: list[_Node] | None = None
        self.replies: tuple[int, ...] = ()
        self.line: tuple[int, ...] | None = None
        self.refuted = False

    def update(self) -> None:
        children = self.children
        if children is None:
            return
        if self.or_node:
            if not children:
                self.pn, self.dn = _INF, 0
            else:
                self.pn = min(child.pn for child in children)
                self.dn = min(_INF, sum(child.dn for child in children))
        else:
            if self.refuted or any(child.dn == 0 for child in children):
                self.pn, self.dn = _INF, 0
            else:
                self.pn = min(_INF, sum(child.pn for child in children))
                self.dn = min(child.dn for child in children)


# -- the questions -----------------------------------------------------------------------------------


def _sides(position: Position, attacker: Player | None) -> tuple[Player, int, int]:
    if position.x_lines or position.o_lines:
        raise PositionError("the game is over: a line is complete")
    side = attacker or position.turn
    if side not in ("x", "o"):
        raise PositionError(
            f"no side to move in {position.to_status_string()}: name the attacker ('x' or 'o')"
        )
    own, other = (position.x, position.o) if side == "x" else (position.o, position.x)
    return side, own, other


def _search(
    position: Position,
    attacker: Player | None,
    kind: Kind,
    max_moves: int | None,
    **budget: Any,
) -> Tactics:
    """One search for the attacker's win (``kind``: by continuous fours, or by fours and threats)
    within ``max_moves`` attacker moves (None: no bound), reported however it ends: found, searched
    to the end, or out of budget (``budget``: the :class:`_Search`'s nodes, seconds, threat moves)."""
    side, own, other = _sides(position, attacker)
    started = time.perf_counter()
    search = _Search(position.geometry, own, other, **budget)
    depth = float("inf") if max_moves is None else max_moves
    proof: Proof | None = None
    exhausted = True
    try:
        if kind == "vcf":
            line = search.vcf(depth)
            proof = None if line is None else line_proof(line)
        else:
            proof = search.prove(depth)
    except _OutOfBudget:
        exhausted = False
    return Tactics(
        position,
        side,
        kind,
        proof,
        search.nodes,
        time.perf_counter() - started,
        exhausted,
        max_moves,
    )


def find_vcf(
    position: Position,
    attacker: Player | None = None,
    *,
    max_moves: int | None = None,
    nodes: int | None = DEFAULT_NODES,
    seconds: float | None = None,
) -> Tactics:
    """The attacker's (default: the side to move's) win by continuous fours, searched to the end
    unless ``nodes`` or ``seconds`` run out; ``max_moves`` bounds the attacker's moves (the last one
    completing a line)."""
    return _search(position, attacker, "vcf", max_moves, nodes=nodes, seconds=seconds)


def find_vct(
    position: Position,
    attacker: Player | None = None,
    *,
    max_moves: int | None = VCT_MOVES,
    threat_moves: int = THREAT_MOVES,
    nodes: int | None = DEFAULT_NODES,
    seconds: float | None = None,
) -> Tactics:
    """The attacker's (default: the side to move's) win by fours and threats within ``max_moves``
    attacker moves (None: as deep as the budget allows), shortest first; a threat is a move after
    which the attacker would win by fours in ``threat_moves`` moves if the defender passed."""
    return _search(
        position,
        attacker,
        "vct",
        max_moves,
        nodes=nodes,
        seconds=seconds,
        threat_moves=threat_moves,
    )


def forced_win(
    position: Position,
    attacker: Player | None = None,
    *,
    seconds: float | None = 2.0,
    nodes: int | None = None,
    checked: bool = True,
) -> Tactics:
    """The attacker's (default: the side to move's) forced win: by continuous fours first (a third
    of the budget), then by fours and threes (the rest). With ``checked`` a win found is played out
    by :func:`check` before it is reported (a win that failed the check would be a bug: it raises
    ``AssertionError`` rather than be reported)."""
    started = time.perf_counter()
    share = None if seconds is None else seconds / 3
    result = find_vcf(
        position, attacker, seconds=share, nodes=None if nodes is None else nodes // 3
    )
    if result.proof is None:
        rest = None if seconds is None else max(0.0, seconds - (time.perf_counter() - started))
        threats = find_vct(
            position,
            attacker,
            seconds=rest,
            nodes=None if nodes is None else nodes - result.nodes,
        )
        if threats.proof is not None or not result.exhausted:
            result = threats  # (a VCF search that ran to its end says more than a VCT that found nothing)
    if checked and result.proof is not None:
        if not check(position, result.attacker, result.proof):
            raise AssertionError(f"a forced win failed its check: {result.to_dict()}")
    return result


def relevant_cells(position: Position, attacker: Player, line: Sequence[int]) -> tuple[int, ...]:
    """The empty cells where the defender, moving now instead of ``attacker``, could spoil
    ``attacker``'s win by fours ``line``: after a move on any other cell the line still wins."""
    _, own, other = _sides(position, attacker)
    search = _Search(position.geometry, own, other, nodes=None, seconds=None)
    return mask_cells(search.relevant(line))


# -- the engines' tactics -----------------------------------------------------------------------------


def engine_advice(state: GameState, seconds: float) -> Advice | None:
    """The forcing-move search of the engine level ``hard`` on gomoku boards, within ``seconds``:
    the mover's forced win (by fours, then by fours and threes) to play at once; else, when the
    opponent would have a win by fours were it to move, the moves that stop it (proven: every other
    move loses to it), those after which it still has one left out while some remain; else, when
    the opponent would win by fours and threes, the moves among the likely defences after which no
    such win is found any more. ``None`` when nothing is found."""
    if not isinstance(state, Position) or state.to_move is None:
        return None
    started = time.perf_counter()
    deadline = started + seconds
    mover = state.to_move
    opponent = other(mover)

    def left(share: float) -> float:
        return max(0.0, (deadline - time.perf_counter()) * share)

    searches: list[Tactics] = []
    searches.append(find_vcf(state, mover, seconds=left(0.3)))
    if searches[-1].proof is None:
        searches.append(find_vcf(state, opponent, seconds=left(0.3)))
        searches.append(find_vct(state, mover, seconds=left(0.5)))
    win = next((search for search in searches if search.attacker == mover and search.proof), None)
    if win is None and searches[1].proof is None:
        searches.append(find_vct(state, opponent, seconds=left(0.6)))
    nodes = sum(search.nodes for search in searches)
    if win is not None and win.proof is not None:
        return Advice(
            win.proof.move, mover, (), nodes, time.perf_counter() - started, win.summary()
        )
    threat = next(
        (search for search in searches[1:] if search.attacker == opponent and search.proof), None
    )
    if threat is None or threat.proof is None:
        return None
    if threat.kind == "vcf":
        proven = relevant_cells(state, opponent, threat.line)
        guesses = proven
    else:
        # no set of moves is proven to stop a win by threats: the likely ones are the cells of its
        # main line and of the line that answers the other replies to its first threat, and the
        # mover's own fours
        proven = ()
        _, own, theirs = _sides(state, mover)
        fours = _Search(state.geometry, own, theirs, nodes=None, seconds=None).cells_of(
            0, state.geometry.k - 2
        )
        cells = set(threat.proof.principal()) | set(threat.proof.fallback) | set(mask_cells(fours))
        guesses = tuple(sorted(cell for cell in cells if state.empty_mask >> cell & 1))
    kept: list[int] = []
    for cell in guesses:
        if time.perf_counter() > deadline:
            kept = []
            break
        after = state.play(cell)
        if after.is_over:
            kept.append(cell)
            continue
        again = find_vcf(after, opponent, nodes=2000)
        if again.proof is None and threat.kind == "vct":
            again = find_vct(after, opponent, nodes=2000)
        if again.proof is None:
            kept.append(cell)
    defences = tuple(kept) or proven
    if not defences:
        return None
    return Advice(
        None, None, defences, nodes, time.perf_counter() - started, f"defending: {threat.summary()}"
    )


# -- the independent check ---------------------------------------------------------------------------


def check(position: Position, attacker: Player, proof: Proof) -> bool:
    """Whether ``proof`` wins for ``attacker`` (to move) in ``position`` against every defence,
    played out with the plain rules (the lines of the board, no search): each move is legal, the
    defender never has a line to complete when it is to move, each reply listed goes on with a
    proof that wins, and every other reply of the defender loses to the fallback line (or at once)."""
    if position.x_lines or position.o_lines:
        return False
    own, other = (position.x, position.o) if attacker == "x" else (position.o, position.x)
    geometry = position.geometry
    through = tuple(
        tuple(geometry.lines[index] for index in indices) for indices in _lines_through(geometry)
    )
    return _Checker(geometry.lines, through, geometry.full_mask).proof(own, other, proof)


def _holds_line(lines: Iterable[int], marks: int) -> bool:
    return any(marks & line == line for line in lines)


def _one_short(lines: Iterable[int], own: int, other: int) -> list[tuple[int, int]]:
    """(line, cell) for each line holding ``own``'s marks but one and none of ``other``'s."""
    found = []
    for line in lines:
        if not line & other:
            rest = line & ~own
            if rest and not rest & (rest - 1):
                found.append((line, rest))
    return found


class _Checker:
    """Plays proofs out (see :func:`check`): ``lines`` of the board, ``through[c]`` those through
    cell ``c``, ``full`` every cell."""

    def __init__(
        self, lines: tuple[int, ...], through: tuple[tuple[int, ...], ...], full: int
    ) -> None:
        self.lines = lines
        self.through = through
        self.full = full

    def proof(self, own: int, other: int, proof: Proof) -> bool:
        """Whether ``proof`` wins for ``own`` (to move) against ``other``."""
        lines = self.lines
        bit = 1 << proof.move
        if not self.full & bit or (own | other) & bit:
            return False
        own |= bit
        if _holds_line(lines, own):
            return True
        if completing_cells(lines, other, own):
            return False  # the defender completes a line with its reply
        empty = self.full & ~(own | other)
        if not empty:
            return False  # the board is full: a draw
        listed = dict(proof.replies)
        if len(listed) != len(proof.replies) or any(not empty >> r & 1 for r in listed):
            return False
        wins_at_once = completing_cells(lines, own, other) & empty
        fallback = _Line(self, own, other, proof.fallback) if proof.fallback else None
        for reply in mask_cells(empty):
            if reply in listed:
                if not self.proof(own, other | 1 << reply, listed[reply]):
                    return False
            elif fallback is not None:
                if not fallback.wins_after(reply):
                    return False
            elif not wins_at_once & ~(1 << reply):
                return False
        return True


class _Line:
    """A line of fours (attacker, reply, ..., the attacker completing a line) to play after each
    of many replies of the defender: played once without the reply, keeping at each move of the
    attacker the lines one mark short for either side; a reply changes only the lines through it,
    which are looked at again (any other line is as it was)."""

    def __init__(self, checker: _Checker, own: int, other: int, line: tuple[int, ...]) -> None:
        self.checker, self.own, self.other, self.line = checker, own, other, line
        self.cells = 0
        for cell in line:
            self.cells |= 1 << cell
        lines = checker.lines
        self.steps = []
        mine, theirs = own, other
        #: every move of the line on an empty cell of the board when it is played (else it loses
        #: after any reply)
        self.legal = len(line) % 2 == 1
        for index, cell in enumerate(line):
            if not checker.full >> cell & 1 or (mine | theirs) >> cell & 1:
                self.legal = False
            if index % 2 == 0:
                mine |= 1 << cell
            else:
                theirs |= 1 << cell
        mine, theirs = own, other
        for index in range(0, len(line), 2):
            mine |= 1 << line[index]
            reply = line[index + 1] if index + 1 < len(line) else None
            self.steps.append(
                (
                    line[index],
                    reply,
                    _holds_line(lines, mine),
                    _one_short(lines, mine, theirs),
                    _one_short(lines, theirs, mine),
                )
            )
            if reply is not None:
                theirs |= 1 << reply

    def wins_after(self, reply: int) -> bool:
        """Whether the line wins after the defender's ``reply`` (the attacker then to move)."""
        blocked = 1 << reply
        if not self.legal:
            return False
        if self.cells & blocked:  # the reply takes a cell of the line: play it out in full
            return self.checker.proof(self.own, self.other | blocked, line_proof(self.line))
        mine, theirs = self.own, self.other | blocked
        full = self.checker.full
        for move, answer, completes, attacker_short, defender_short in self.steps:
            mine |= 1 << move  # a cell of the line: empty, since the reply took none
            if completes:
                return True  # the completed line holds only the attacker's marks: not the reply
            empty = full & ~(mine | theirs)
            defender = 0
            for line, cell in defender_short:
                if not line & blocked:
                    defender |= cell
            for line in self.checker.through[reply]:
                if not line & mine:
                    rest = line & ~theirs
                    if rest and not rest & (rest - 1):
                        defender |= rest
            if defender & empty:
                return False  # the defender completes a line instead of answering
            attacker = 0
            for line, cell in attacker_short:
                if not line & blocked:
                    attacker |= cell
            attacker &= empty
            if answer is None:  # the line's last move: a win when it leaves two cells to complete
                return bool(attacker & (attacker - 1))  # (the defender blocks one, as in full)
            if not attacker:
                return False
            if not attacker & (attacker - 1) and attacker != 1 << answer:
                return False  # one cell to complete, and the line answers elsewhere
            theirs |= 1 << answer
        return False
