"""The layout shared by the games played on nine 3x3 grids (mega and ultimate tic-tac-toe).

Both number grids and cells 1..9 in reading order (1 2 3 / 4 5 6 / 7 8 9) and write a move ``GC``,
the grid G then the cell C, so ``55`` is the centre of the centre grid. Inside the library a move is
the integer ``9*(G-1) + (C-1)`` (0..80), also its bit in the games' 81-bit bitboards. A record is
moves separated by spaces (commas and move numbers such as ``1.`` are tolerated). The games differ in
their rules, not in the lines of a 3x3 grid, this notation, the text board drawn here or the driver
of their compiled tree search (each game brings its own compiled kernel), so both use this one module (games never import
each other).
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from oxo.errors import MoveSyntaxError
from oxo.game import Player
from oxo.geometry import Geometry

if TYPE_CHECKING:
    import numpy as np
    from rich.text import Text

_GRID = Geometry.parse("3x3")
#: The eight straights of a 3×3 grid as 9-bit masks (bit c is cell c+1 in reading order), from the
#: shared geometry. Both games need them twice: inside a small grid and on the big grid of grids.
LINES: tuple[int, ...] = _GRID.lines
#: ``WINS[mask]``: the 9-bit ``mask`` holds three in a row (one table look-up).
WINS: tuple[bool, ...] = _GRID.win_table

#: The sides by index (0 moves first), as both games keep their bitboards.
NAMES: tuple[Player, Player] = ("x", "o")
#: Every cell of the 81-cell board (bit ``9*g + c``: cell c of grid g).
FULL = (1 << 81) - 1
#: ``GRID_CELLS[m]``: the 81-bit mask of every cell of the grids in the 9-bit grid mask ``m``.
GRID_CELLS: tuple[int, ...] = tuple(
    sum(511 << (9 * g) for g in range(9) if m >> g & 1) for m in range(512)
)

ACCEPTED = (
    "a move is two digits GC, grid then cell, each 1..9 in reading order "
    "(e.g. 55 is the centre of the centre grid)"
)


def parse_move(text: str | int) -> int:
    """The move index 0..80 of ``GC`` text such as ``"37"`` (an int 0..80 is passed through)."""
    if isinstance(text, bool):
        raise MoveSyntaxError(f"not a move: {text!r}; {ACCEPTED}")
    if isinstance(text, numbers.Integral):
        if 0 <= text < 81:
            return int(text)
        raise MoveSyntaxError(f"move index {text} is outside 0..80; {ACCEPTED}")
    if not isinstance(text, str):
        raise MoveSyntaxError(f"not a move: {text!r}; {ACCEPTED}")
    raw = text.strip()
    if len(raw) != 2 or raw[0] not in "123456789" or raw[1] not in "123456789":
        raise MoveSyntaxError(f"not a move: {text!r}; {ACCEPTED}")
    return 9 * (int(raw[0]) - 1) + int(raw[1]) - 1


def format_move(move: int) -> str:
    """``GC`` text of a move index (``40`` → ``"55"``)."""
    if not 0 <= move < 81:
        raise MoveSyntaxError(f"move index {move} is outside 0..80")
    return f"{move // 9 + 1}{move % 9 + 1}"


_MOVE_NUMBER = re.compile(r"^\d+\.+$")


def parse_record(record: str | Iterable[str | int]) -> list[int]:
    """Move indices of a game record: ``"55 51 15"`` or a list of moves.

    Tokens are split on spaces and commas; move numbers like ``1.`` or ``12...`` are skipped so a
    record copied from an annotated listing still reads.
    """
    if isinstance(record, str):
        tokens: list[str | int] = [
            tok
            for tok in re.split(r"[\s,]+", record.strip())
            if tok and not _MOVE_NUMBER.match(tok)
        ]
    else:
        tokens = list(record)
    moves = []
    for number, token in enumerate(tokens, start=1):
        try:
            moves.append(parse_move(token))
        except MoveSyntaxError as error:
            raise MoveSyntaxError(f"move {number} of the record: {error}") from None
    return moves


def format_record(moves: Iterable[int]) -> str:
    """A record: the moves in ``GC`` notation separated by spaces."""
    return " ".join(format_move(move) for move in moves)


class RecordedState:
    """What a state of either game on nine grids shares as a game written down by its record (the
    moves played, ``_moves``): the record in ``GC`` notation, the number of moves, and how it shows
    itself: ``Class.replay(record)`` as its repr, its text drawing in IPython."""

    __slots__ = ()
    _moves: Sequence[int]

    @property
    def record(self) -> str:
        """The game so far in ``GC`` notation."""
        return format_record(self._moves)

    @property
    def move_count(self) -> int:
        return len(self._moves)

    def text(self) -> str:
        """The board as plain text (each game draws its own)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}.replay({self.record!r})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(self.text())


Token = tuple[str, str]

#: What the text board's characters mean, in one sentence (``oxo show``, the help of ``oxo play``).
LEGEND = (
    "x and o are marks, the last move in capitals (X or O); a digit is a cell where the side to "
    "move may play (its number C, under the grid's number G on the frame: the move GC); . is a "
    "cell where no move is allowed now"
)

STYLES: dict[str, str] = {
    "frame": "dim",
    "x": "red",
    "o": "blue",
    "x last": "bold red reverse",
    "o last": "bold blue reverse",
    "legal": "bold green",
    "empty": "dim",
    "big x": "bold red",
    "big o": "bold blue",
}

BIG_MARKS: dict[str, tuple[str, str, str]] = {
    "x": (" \\   / ", "   X   ", " /   \\ "),
    "o": (" /---\\ ", " | O | ", " \\---/ "),
}


def board_tokens(
    mark_at: Callable[[int], str | None],
    owner_of: Callable[[int], str | None],
    legal: set[int],
    last: int | None,
) -> list[list[Token]]:
    """The nine grids as lines of (text, style) tokens.

    ``mark_at(move)`` is ``"x"``, ``"o"`` or None for a move 0..80; ``owner_of(grid)`` is the side whose
    big mark covers grid 0..8, or None to draw its cells. Empty cells in ``legal`` show their cell
    number, so with the grid number on the frame above the move ``GC`` can be read off the board.
    """
    lines: list[list[Token]] = []
    for big_row in range(3):
        header = "+".join(f"-- {3 * big_row + col + 1} --" for col in range(3))
        lines.append([(f"+{header}+", "frame")])
        for row in range(3):
            line: list[Token] = [("|", "frame")]
            for big_col in range(3):
                grid = 3 * big_row + big_col
                owner = owner_of(grid)
                if owner is not None:
                    line.append((BIG_MARKS[owner][row], f"big {owner}"))
                else:
                    line.append((" ", ""))
                    for col in range(3):
                        cell = 3 * row + col
                        move = 9 * grid + cell
                        mark = mark_at(move)
                        if mark is not None:
                            line.append(
                                (mark.upper(), f"{mark} last") if move == last else (mark, mark)
                            )
                        elif move in legal:
                            line.append((str(cell + 1), "legal"))
                        else:
                            line.append((".", "empty"))
                        line.append((" ", ""))
                line.append(("|", "frame"))
            lines.append(line)
    lines.append([("+" + "+".join(["-------"] * 3) + "+", "frame")])
    return lines


class Drawable(Protocol):
    """A state of a game on nine grids that lays itself out as token lines (its ``board_tokens``)."""

    def board_tokens(self, *, highlight: bool = True) -> list[list[Token]]: ...


def board_text(state: Drawable, *, highlight: bool = True) -> str:
    """The board as plain ASCII lines; legal moves shown as cell digits if ``highlight``."""
    return tokens_text(state.board_tokens(highlight=highlight))


def board_rich(state: Drawable, *, highlight: bool = True) -> Text:
    """The board as a rich ``Text`` with colours (marks, big marks, legal moves, last move)."""
    return tokens_rich(state.board_tokens(highlight=highlight))


def tokens_text(lines: list[list[Token]]) -> str:
    """Token lines as plain ASCII (files, pipes, tests)."""
    return "\n".join("".join(text for text, _ in line) for line in lines)


def tokens_rich(lines: list[list[Token]]) -> Text:
    """Token lines as a rich ``Text`` coloured by :data:`STYLES` (a terminal)."""
    from rich.text import Text

    out = Text()
    for number, line in enumerate(lines):
        if number:
            out.append("\n")
        for text, style in line:
            out.append(text, style=STYLES.get(style, ""))
    return out


# -- the compiled tree search's driver ---------------------------------------------------------

#: Simulations run between clock checks, and the most tree nodes kept (about 16 bytes each).
CHUNK = 256
MAX_NODES = 1 << 22
#: Room for the children of one expansion (at most 81 moves).
FAN_OUT = 82


class _Clock(Protocol):
    def expired(self) -> bool: ...


class CompiledKernel(Protocol):
    """What a game's compiled module offers the search: its random stream, its state as an array,
    and the tree search over the flat tree arrays (plain, or with the options it knows)."""

    mcts_iterations: Callable[..., int]

    def warm_up(self) -> None: ...
    def make_rng(self, seed: int | None = None) -> np.ndarray: ...
    def state_from(self, state: Any) -> np.ndarray: ...


#: A root move's statistics after a search: the move, its visits, the summed result for the side
#: to move, and what the solver proved for that side (0 nothing, 1 loss, 2 draw, 3 win).
MoveStats = tuple[int, int, float, int]


class CompiledSearch:
    """UCT with random playouts in a game's compiled code (the kernel a game's subclass imports in
    :meth:`_kernel`); one instance serves a whole game (its random stream and tree arrays are
    reused from move to move). The tree lives in flat arrays that grow up to :data:`MAX_NODES`;
    past that the search keeps simulating from its leaves without growing. With an iteration
    budget a seeded game repeats move for move.

    ``exploration`` is the UCT constant (``None``: 0.7); ``options`` choose the compiled search the kernel builds (``kernel.tree_search(**options)``;
    none: its plain ``mcts_iterations``); ``fpu`` is the first-play urgency (the score an unvisited
    child gets; negative: every child is tried once first); with ``reuse`` the part of the last
    tree below the new position is kept when the new position follows the last one searched.
    """

    def __init__(
        self,
        seed: int | None = None,
        exploration: float | None = None,
        expand_after: int = 2,
        *,
        fpu: float = -1.0,
        reuse: bool = False,
        **options: Any,
    ) -> None:
        from oxo.compiled import search_params

        kernel = self._kernel()
        if options and not hasattr(kernel, "tree_search"):
            from oxo.errors import OptionError

            raise OptionError(f"this game's search has no option {', '.join(sorted(options))}")
        self._search: Callable[..., int] = (
            kernel.tree_search(**options)  # type: ignore[attr-defined]  # a kernel with options
            if options
            else kernel.mcts_iterations
        )
        kernel.warm_up(**options)  # (a kernel without options takes none: checked above)
        self._compiled = kernel
        self.exploration = 0.7 if exploration is None else float(exploration)
        self.expand_after = int(expand_after)
        self.fpu = float(fpu)
        self.reuse = bool(reuse)
        self._params = search_params(self.exploration, self.expand_after, self.fpu)
        self._rng = kernel.make_rng(seed)
        self._arrays: tuple[np.ndarray, ...] | None = None
        #: The moves from the start to the root of the tree in the arrays (tree reuse), and its size.
        self._root_moves: tuple[int, ...] | None = None
        self._used = 0
        #: Simulations of the last search that came from the tree kept from the search before.
        self.reused = 0

    @staticmethod
    def _kernel() -> CompiledKernel:
        """The game's compiled kernel (imported when a search is first made)."""
        raise NotImplementedError

    def _tree(self, nodes: int) -> tuple[np.ndarray, ...]:
        from oxo.compiled import tree_arrays

        if self._arrays is None or self._arrays[0].shape[0] < nodes:
            self._arrays = tree_arrays(nodes)
        return self._arrays

    @staticmethod
    def _grow(arrays: tuple[np.ndarray, ...], used: int, nodes: int) -> tuple[np.ndarray, ...]:
        import numpy as np

        grown = []
        for array in arrays:
            bigger = np.empty(nodes, dtype=array.dtype)
            bigger[:used] = array[:used]
            grown.append(bigger)
        return tuple(grown)

    def tree(self) -> tuple[np.ndarray, ...]:
        """The last search's tree: the arrays (first child, children, move, mover, visits, summed
        value, proof) cut to the nodes in use, node 0 the root."""
        if self._arrays is None:
            return ()
        return tuple(array[: self._used] for array in self._arrays)

    def _kept(self, state: Any, room: int) -> tuple[tuple[np.ndarray, ...], int] | None:
        """The arrays holding the last tree's part below ``state`` as the new tree (with room for
        ``room`` more nodes) and its size, when reuse is on and ``state`` follows the last root."""
        from oxo.compiled import copy_subtree, subtree_size, tree_arrays

        old, arrays = self._root_moves, self._arrays
        if not self.reuse or old is None or arrays is None:
            return None
        moves = tuple(state.moves)
        if len(moves) <= len(old) or moves[: len(old)] != old:
            return None
        first, nchild, move = arrays[0], arrays[1], arrays[2]
        node = 0
        for played in moves[len(old) :]:
            f = int(first[node])
            if f < 0:
                return None
            children = move[f : f + int(nchild[node])]
            found = (children == played).nonzero()[0]
            if not len(found):
                return None
            node = f + int(found[0])
        if first[node] < 0:
            return None
        size = int(subtree_size(node, first, nchild))
        fresh = tree_arrays(min(MAX_NODES, max(size + room, 2 * size)))
        used = int(copy_subtree(node, *arrays, *fresh))
        return fresh, used

    def run(
        self, state: Any, clock: _Clock, iterations: int | None
    ) -> tuple[list[MoveStats], int, int]:
        """Search from ``state`` until ``clock`` expires, ``iterations`` simulations ran, or (with
        the solver) the position is proven.

        Returns each root move with its visits, summed result and proof (for the side to move),
        the simulations run and the tree's size.
        """
        import numpy as np

        c = self._compiled
        root = c.state_from(state)
        budget = iterations if iterations is not None else 1 << 62
        room = min(MAX_NODES, FAN_OUT * min(budget, 4 * CHUNK) + FAN_OUT)
        kept = self._kept(state, room)
        if kept is None:
            arrays = self._tree(room)
            first, nchild, move, mover, visits, value, proof = arrays
            first[0], nchild[0], visits[0], value[0], mover[0], proof[0] = (
                -1,
                0,
                0,
                0.0,
                1 - state.player,
                0,
            )
            used = 1
        else:
            arrays, used = kept
            self._arrays = arrays
            first, nchild, move, mover, visits, value, proof = arrays
        self.reused = int(visits[0])
        meta = np.array([used], dtype=np.int64)
        done = 0
        while done < budget:
            chunk = min(CHUNK, budget - done)
            want = int(meta[0]) + FAN_OUT * chunk
            if want > arrays[0].shape[0] and arrays[0].shape[0] < MAX_NODES:
                arrays = self._grow(
                    arrays, int(meta[0]), min(MAX_NODES, max(want, 2 * arrays[0].shape[0]))
                )
                self._arrays = arrays
                first, nchild, move, mover, visits, value, proof = arrays
            ran = self._search(
                root,
                chunk,
                self._rng,
                first,
                nchild,
                move,
                mover,
                visits,
                value,
                proof,
                meta,
                self._params,
            )
            done += ran
            if ran < chunk or clock.expired():
                break
        self._root_moves = tuple(state.moves)
        self._used = int(meta[0])
        f, k = int(first[0]), int(nchild[0])
        stats = (
            [
                (int(move[i]), int(visits[i]), float(value[i]), int(proof[i]))
                for i in range(f, f + k)
            ]
            if f >= 0
            else []
        )
        return stats, done, int(meta[0])
