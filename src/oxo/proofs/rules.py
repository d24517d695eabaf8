"""The rules a certificate may name: moves of the certified side that a checker works out itself.

A certificate with rules (the header key ``rules``, :mod:`oxo.proofs.certificate`) leaves out the
side's move wherever a rule gives it. The rules come in a fixed order; where the side is to move
and the game is not over, the first that applies decides:

1. **win** (always on): the side completes a line at once;
2. **block** (``"block": true``): the opponent has a *threat* (an empty cell that would complete a
   line of the opponent's); with one such cell the side takes it, with two or more the position is
   lost;
3. **chain** (``"chain": D``): the side has a *forced chain* of at most D moves (:class:`ChainSearch`:
   threats the opponent must answer, ending in two threats at once), and wins by playing it;
4. otherwise the certificate's entry for the position.

Patashnik's proof of Qubic (1980) stored only his "strategic" moves and let rules give the rest in
a similar order (his dictionary before his forced wins; see docs/proofs.md for why a certificate
puts the chain first). The verdict of the chain rule does not depend on the order in which a search
tries cells (the rule asks whether a chain exists, and the search is exhaustive within its bound);
the order only says which move a player picks: :func:`rule_move` takes the least cell.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from oxo.errors import CertificateHeaderError
from oxo.geometry import Geometry, completing_cells, mask_cells

#: The keys a ``rules`` object may hold.
RULE_KEYS = ("block", "chain")


@dataclass(frozen=True)
class Rules:
    """The rules a certificate names: the block rule on or off, and the chain rule's bound (the most
    moves of the side in a chain, its last move, the double threat, included; 0: no chain rule).
    The win rule is always on."""

    block: bool = False
    chain: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.block, bool):
            raise CertificateHeaderError(
                f'rules: "block" must be true or false, got {self.block!r}'
            )
        if not isinstance(self.chain, int) or isinstance(self.chain, bool) or self.chain < 0:
            raise CertificateHeaderError(
                f'rules: "chain" must be the most moves of a chain, a whole number, got {self.chain!r}'
            )

    @property
    def any(self) -> bool:
        """Whether a rule beyond the win at once is on."""
        return self.block or self.chain > 0

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {}
        if self.block:
            out["block"] = True
        if self.chain:
            out["chain"] = self.chain
        return out

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        """The rules of a header's ``rules`` object; raises :class:`CertificateHeaderError` on a key
        it does not know (a checker must not guess what an unknown rule allows)."""
        if not isinstance(data, dict):
            raise CertificateHeaderError(
                f'rules must be an object such as {{"block": true, "chain": 32}}, got {data!r}'
            )
        unknown = sorted(str(key) for key in data if key not in RULE_KEYS)
        if unknown:
            raise CertificateHeaderError(
                f"rules: unknown rule {', '.join(unknown)} (known: {', '.join(RULE_KEYS)})"
            )
        return cls(data.get("block", False), data.get("chain", 0))

    def __str__(self) -> str:
        names = ["win at once"]
        if self.block:
            names.append("block")
        if self.chain:
            names.append(f"forced chains of at most {self.chain} moves")
        return ", ".join(names)


def threats(lines: Sequence[int], own: int, other: int) -> int:
    """The threats of the player with marks ``own``: the empty cells that would complete one of its
    lines (a line holding ``own``'s marks but one and none of ``other``'s), as a mask."""
    return completing_cells(lines, own, other)


def least_depth(exists: Callable[[int], bool], bound: int) -> int | None:
    """The least depth d in 1..``bound`` with ``exists(d)``, or None when ``exists(bound)`` is
    false; ``exists`` must be monotone (a chain of at most d moves is one of at most d + 1), so a
    bisection finds it with about log2(bound) calls."""
    if bound < 1 or not exists(bound):
        return None
    low, high = 1, bound  # the least d with a chain lies in [low, high]
    while low < high:
        middle = (low + high) // 2
        if exists(middle):
            high = middle
        else:
            low = middle + 1
    return low


class ChainSearch:
    """Forced chains over a board's ``lines`` (bitmasks): the rule ``chain`` of a certificate.

    The side S is to move in a position where it cannot complete a line at once. A *forcing move*
    is a move after which S has a threat; S has a **forced chain of at most d moves**, ``exists(s,
    t, d)`` with S's marks ``s`` and the opponent T's ``t``, when d >= 1 and:

    - T has at most one threat (with two, T completes a line whatever S does);
    - the *candidates* are T's threat when T has one (S must take it), else every empty cell;
    - some candidate m leaves S, once played, either two threats or more (T blocks one, S completes
      another), or exactly one threat n such that d >= 2 and S has a forced chain of at most d - 1
      moves after T takes n.

    After a forcing move T has no threat (a threat of T was the cell S took), so every reply of T
    but the block loses at once, and the block cannot complete a line of T's; the block may leave T
    a threat of its own (one or more), which the next step of the chain must take. So S wins
    against every defence by playing, at each turn, a candidate that fits the definition (the
    position after the block again has a chain, of at most d - 1 moves and so of at most d).

    The search is exhaustive (every candidate, to the bound), so its answer is the definition's,
    whatever order it tries cells in. Positions already answered within one call are remembered.
    """

    def __init__(self, lines: Sequence[int]) -> None:
        self.lines = tuple(lines)
        #: Positions the searches looked at (for measurements).
        self.nodes = 0

    def exists(self, own: int, other: int, depth: int) -> bool:
        """Whether S (marks ``own``, to move, no line to complete at once) has a forced chain of at
        most ``depth`` moves against T (marks ``other``)."""
        return depth >= 1 and self._exists(own, other, depth, {})

    def length(self, own: int, other: int, bound: int) -> int | None:
        """The fewest moves of a forced chain of S's (at most ``bound``), or None when none is."""
        memo: dict[tuple[int, int], int] = {}
        return least_depth(lambda depth: self._exists(own, other, depth, memo), bound)

    def moves(self, own: int, other: int, depth: int) -> list[int]:
        """Every move that starts a forced chain of at most ``depth`` moves, in increasing order."""
        if depth < 1:
            return []
        partners, their = self._scan(own, other)
        if their & (their - 1):
            return []
        memo: dict[tuple[int, int], int] = {}
        out = []
        for move in sorted(_candidates(partners, their)):
            threatened = partners[move]
            if threatened & (threatened - 1) or (
                depth >= 2 and self._exists(own | 1 << move, other | threatened, depth - 1, memo)
            ):
                out.append(move)
        return out

    def first_move(self, own: int, other: int, depth: int) -> int | None:
        """The least cell that starts a forced chain of at most ``depth`` moves, or None."""
        if depth < 1:
            return None
        partners, their = self._scan(own, other)
        if their & (their - 1):
            return None
        memo: dict[tuple[int, int], int] = {}
        for move in sorted(_candidates(partners, their)):
            threatened = partners[move]
            if threatened & (threatened - 1) or (
                depth >= 2 and self._exists(own | 1 << move, other | threatened, depth - 1, memo)
            ):
                return move
        return None

    def _scan(self, own: int, other: int) -> tuple[dict[int, int], int]:
        """One pass over the lines: for each cell where S would make a threat, the cells it would
        threaten (a mask); and T's threats."""
        partners: dict[int, int] = {}
        their = 0
        for line in self.lines:
            if line & other:
                if not line & own:
                    rest = line & ~other
                    if rest and not rest & (rest - 1):
                        their |= rest
                continue
            rest = line & ~own
            if rest.bit_count() == 2:
                low = rest & -rest
                high = rest ^ low
                a = low.bit_length() - 1
                b = high.bit_length() - 1
                partners[a] = partners.get(a, 0) | high
                partners[b] = partners.get(b, 0) | low
        return partners, their

    def _exists(self, own: int, other: int, depth: int, memo: dict[tuple[int, int], int]) -> bool:
        # memo: position -> d > 0 (a chain of at most d moves exists) or -d (none of at most d).
        self.nodes += 1
        key = (own, other)
        known = memo.get(key)
        if known is not None and (0 < known <= depth or -known >= depth):
            return known > 0
        partners, their = self._scan(own, other)
        found = False
        if not their & (their - 1):
            candidates = _candidates(partners, their)
            if any(threatened & (threatened - 1) for threatened in candidates.values()):
                found = True
            elif depth >= 2:
                for move, threatened in candidates.items():
                    if self._exists(own | 1 << move, other | threatened, depth - 1, memo):
                        found = True
                        break
        memo[key] = depth if found else -depth
        return found


def chain_witness(
    lines: Sequence[int],
    own: int,
    other: int,
    path: Callable[[int], int | None],
    depth: int,
    through: Sequence[Sequence[int]] | None = None,
) -> bool:
    """Whether one line of play is a forced chain of at most ``depth`` moves of S (marks ``own``,
    to move) against T (``other``) by the definition of :class:`ChainSearch`, or S completes a line
    at once (the win rule comes first): ``path(n)`` is S's next move after T took ``n`` (the
    first move: ``path(-1)``), None where the line of play stops.

    It follows that one line, checking each step against the definition (T at most one threat,
    S's move on T's threat when T has one, after it two threats of S or exactly one, ``n``, which
    T takes), with no search: a writer that found a win by fours uses it to leave the win to the
    chain rule only where the rule accepts it for certain (the line is a chain, so one exists).

    Only the first position is scanned whole. After it, S has no threat before each of its moves
    (none at first, else it wins at once; after a block, its one threat is taken), so its threats
    after a move lie on the lines through that move; and T has none after S's move (its one threat,
    if any, was the cell S took), so T's after its block lie on the lines through the block.
    ``through[c]``, the lines through cell c, saves finding them (else they are picked out)."""
    if threats(lines, own, other):
        return True

    def on(cell: int) -> Sequence[int]:
        return (
            through[cell] if through is not None else [line for line in lines if line >> cell & 1]
        )

    their = threats(lines, other, own)
    move = path(-1)
    while move is not None and depth >= 1:
        if (own | other) >> move & 1:
            return False
        if their & (their - 1) or (their and their != 1 << move):
            return False
        own |= 1 << move
        mine = threats(on(move), own, other)
        if mine & (mine - 1):
            return True
        if not mine or depth < 2:
            return False
        other |= mine
        block = mine.bit_length() - 1
        their = threats(on(block), other, own)
        move = path(block)
        depth -= 1
    return False


def _candidates(partners: dict[int, int], their: int) -> dict[int, int]:
    """The forcing moves among the candidates: T's one threat if it has one, else every cell where
    S makes a threat (an empty cell that makes none cannot start a chain), with the cells each
    would threaten."""
    if not their:
        return partners
    cell = their.bit_length() - 1
    return {cell: partners[cell]} if cell in partners else {}


class RulesHeader(Protocol):
    """What :func:`rule_move` reads of a certificate's header (a
    :class:`oxo.proofs.certificate.StrategyHeader` has it): the board, the certified side and the
    rules it names."""

    @property
    def geometry(self) -> Geometry: ...

    @property
    def side(self) -> str: ...

    @property
    def rules(self) -> Rules: ...


def rule_move(header: RulesHeader, x: int, o: int) -> int | None:
    """The move the rules of ``header`` give the certificate's side in the position (X's and O's
    marks as bitmasks, the side to move, the game not over), or None where no rule gives one (the
    position then needs the certificate's entry, or is lost: the opponent has two threats).

    The rules apply in their order: a win at once (the least cell that completes a line), the
    block of the opponent's only threat (if the header names the block rule), the least cell that
    starts a forced chain within the header's bound (if it names the chain rule). A player that
    plays these moves, and the certificate's entries elsewhere, plays the strategy the checker
    accepted."""
    lines = header.geometry.lines
    own, other = (x, o) if header.side == "x" else (o, x)
    wins = threats(lines, own, other)
    if wins:
        return mask_cells(wins)[0]
    rules = header.rules
    their = threats(lines, other, own)
    if rules.block and their:
        return mask_cells(their)[0] if not their & (their - 1) else None
    if rules.chain:
        return ChainSearch(lines).first_move(own, other, rules.chain)
    return None
