"""Positions per ply of ultimate tic-tac-toe, and their classes up to the board's eight symmetries.

A position is the marks on the 81 cells and the grid the side to move is sent to (or "any open
grid"); two move orders that reach the same marks with the same grid to play in are one position.
Finished positions are counted at their ply and not continued (no game ends before ply 17).

**Symmetries.** A rotation or reflection of the square, applied at once to the big grid (which
small grid goes where) and inside every small grid (which cell goes where), maps games to games:
a move in cell c sends to grid c before, and to the image of c after. So the eight symmetries of
the square act on positions, and a *class* is a position together with its images.

**The walk.** Ply by ply over classes only, each held as its least image (a key of three
``int64`` words, 18 bits per small grid: X's 9 cells then O's, and the target grid in the top
bits of the last word). The moves out of one position of each class give every class of the next
ply; a class stands for ``8 / s`` positions, ``s`` the number of symmetries that fix it, and these
sizes add up to the ply's positions. Memory grows with the moves out of a ply's classes (24 bytes
each while they are sorted): ply 8 needs about 1 GiB.

``oxo count uttt --plies 7`` on the command line. :func:`reference_counts` walks every position
with the rules of :class:`~oxo.uttt.rules.UtttState` (no symmetry, no compiled code): the tests hold
the two walks to the same figures.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numba import njit

from oxo.counting import PerPlyCounts, PlyCount
from oxo.counting.budget import MemoryLimitError, MiB, format_bytes
from oxo.geometry import Geometry
from oxo.ninegrids import WINS
from oxo.uttt.rules import UtttState

#: Peak bytes per move out of a ply's classes: the moves' keys (24 bytes), the sort's order and
#: key columns, the sorted copy and the flags (measured: ply 8, from 34 million moves, peaked at
#: 2.7 GB in all).
BYTES_PER_MOVE = 80
#: The interpreter, numpy and numba before the count starts.
BASE_MEMORY = 200 * MiB
#: Parents handled per call of the compiled step (progress and Ctrl-C are heard between calls).
CHUNK = 1 << 18

_WIN = np.array(WINS, dtype=np.bool_)
#: The eight symmetries of a 3×3 grid as cell permutations (``_PERM[t, c]`` is where c goes), from
#: the shared geometry.
_PERM = np.array([symmetry.perm for symmetry in Geometry.parse("3x3").symmetries], dtype=np.int64)
#: ``_MAP[t, m]``: the 9-bit mask ``m`` with its cells moved by symmetry ``t``.
_MAP = np.array(
    [
        [sum(1 << int(_PERM[t, c]) for c in range(9) if m >> c & 1) for m in range(512)]
        for t in range(len(_PERM))
    ],
    dtype=np.int64,
)


@dataclass(frozen=True)
class UtttCounts(PerPlyCounts):
    """Positions per ply of ultimate tic-tac-toe from ply 0, classes up to the eight symmetries."""

    positions: tuple[int, ...]
    classes: tuple[int, ...]
    finished: tuple[int, ...]

    spec = "uttt"
    complete = False  # the whole game (81 plies) is far out of reach

    def to_dict(self) -> dict[str, object]:
        """The keys of ``oxo count uttt --json`` (the shape of the other boards' counts)."""
        return {
            "board": "uttt",
            "game": "ultimate tic-tac-toe",
            "classes_up_to": "the 8 rotations and reflections of the square",
            **self.plies_dict("uttt"),
        }


# -- the compiled step -----------------------------------------------------------------------------


@njit(cache=True)
def _decode(key: np.ndarray, xs: np.ndarray, os: np.ndarray) -> int:
    """Fill the grids' X and O masks from a key; return the target grid (-1: any open grid)."""
    for g in range(9):
        bits = (key[g // 3] >> (18 * (g % 3))) & 0x3FFFF
        xs[g] = bits & 511
        os[g] = bits >> 9
    return ((key[2] >> 54) & 15) - 1


@njit(cache=True)
def _status(xs: np.ndarray, os: np.ndarray) -> tuple[int, int, int]:
    """The grids won by X, won by O, and closed (won or full), as 9-bit masks."""
    xw = 0
    ow = 0
    closed = 0
    for g in range(9):
        if _WIN[xs[g]]:
            xw |= 1 << g
            closed |= 1 << g
        elif _WIN[os[g]]:
            ow |= 1 << g
            closed |= 1 << g
        elif (xs[g] | os[g]) == 511:
            closed |= 1 << g
    return xw, ow, closed


@njit(cache=True)
def _least_image(xs: np.ndarray, os: np.ndarray, target: int, out: np.ndarray) -> int:
    """Write the least of the eight images of a position into ``out``; return how many symmetries
    fix it (the class holds 8 / that many positions)."""
    best0 = -1
    best1 = 0
    best2 = 0
    fixed = 0
    for t in range(8):
        w0 = 0
        w1 = 0
        w2 = 0
        for g in range(9):
            h = _PERM[t, g]
            bits = _MAP[t, xs[g]] | (_MAP[t, os[g]] << 9)
            if h < 3:
                w0 |= bits << (18 * h)
            elif h < 6:
                w1 |= bits << (18 * (h - 3))
            else:
                w2 |= bits << (18 * (h - 6))
        w2 |= (_PERM[t, target] + 1 if target >= 0 else 0) << 54
        if best0 < 0 or (w0, w1, w2) < (best0, best1, best2):
            best0 = w0
            best1 = w1
            best2 = w2
            fixed = 1
        elif (w0, w1, w2) == (best0, best1, best2):
            fixed += 1
    out[0] = best0
    out[1] = best1
    out[2] = best2
    return fixed


@njit(cache=True)
def _playable(g: int, target: int, closed: int) -> bool:
    """Whether the side to move may play in grid ``g``: the grid it is sent to, or any open grid."""
    return g == target if target >= 0 else not (closed >> g) & 1


@njit(cache=True)
def _moves_out(keys: np.ndarray) -> int:
    """How many moves the positions ``keys`` (none of them finished) have in all."""
    xs = np.empty(9, dtype=np.int64)
    os = np.empty(9, dtype=np.int64)
    total = 0
    for i in range(keys.shape[0]):
        target = _decode(keys[i], xs, os)
        xw, ow, closed = _status(xs, os)
        for g in range(9):
            if _playable(g, target, closed):
                free = ~(xs[g] | os[g]) & 511
                while free:
                    free &= free - 1
                    total += 1
    return total


@njit(cache=True)
def _children(keys: np.ndarray, mover: int, out: np.ndarray) -> int:
    """Write the least image of every position after each move out of ``keys`` into ``out``
    (``mover`` 0 when X moves); return how many rows were written."""
    xs = np.empty(9, dtype=np.int64)
    os = np.empty(9, dtype=np.int64)
    n = 0
    for i in range(keys.shape[0]):
        target = _decode(keys[i], xs, os)
        xw, ow, closed = _status(xs, os)
        for g in range(9):
            if not _playable(g, target, closed):
                continue
            before_x = xs[g]
            before_o = os[g]
            free = ~(before_x | before_o) & 511
            for c in range(9):
                if not (free >> c) & 1:
                    continue
                if mover == 0:
                    xs[g] = before_x | (1 << c)
                else:
                    os[g] = before_o | (1 << c)
                # The next grid is the one named by the cell, unless it is closed after this move
                # or the game is over (a finished position has no grid to play in).
                took = _WIN[xs[g]] if mover == 0 else _WIN[os[g]]
                won = (xw if mover == 0 else ow) | (1 << g if took else 0)
                if _WIN[won]:
                    shut = True
                elif c == g:
                    shut = took or (xs[g] | os[g]) == 511
                else:
                    shut = (closed >> c) & 1 == 1
                _least_image(xs, os, -1 if shut else c, out[n])
                n += 1
            xs[g] = before_x
            os[g] = before_o
    return n


@njit(cache=True)
def _describe(keys: np.ndarray, sizes: np.ndarray, over: np.ndarray) -> None:
    """For each class: the positions it holds (``sizes``) and whether the game is over (``over``)."""
    xs = np.empty(9, dtype=np.int64)
    os = np.empty(9, dtype=np.int64)
    scratch = np.empty(3, dtype=np.int64)
    for i in range(keys.shape[0]):
        target = _decode(keys[i], xs, os)
        xw, ow, closed = _status(xs, os)
        over[i] = _WIN[xw] or _WIN[ow] or closed == 511
        sizes[i] = 8 // _least_image(xs, os, target, scratch)


def _distinct_rows(rows: np.ndarray) -> np.ndarray:
    """The distinct rows of an ``(n, 3)`` array, sorted."""
    if rows.shape[0] == 0:
        return rows.copy()
    order = np.lexsort((rows[:, 2], rows[:, 1], rows[:, 0]))
    ordered = rows[order]
    del order
    first = np.empty(ordered.shape[0], dtype=bool)
    first[0] = True
    np.any(ordered[1:] != ordered[:-1], axis=1, out=first[1:])
    return ordered[first]


# -- counting ----------------------------------------------------------------------------------------


def count_positions(
    last: int,
    on_ply: Callable[[int, int], None] | None = None,
    *,
    on_progress: Callable[[float], None] | None = None,
    memory: int | None = None,
    on_row: Callable[[PlyCount], None] | None = None,
) -> UtttCounts:
    """The positions, classes and finished positions of plies 0..``last``.

    ``on_ply(ply, positions)`` hears each ply as it is done, ``on_row`` its whole row (so a
    stopped count can show the plies it finished), and ``on_progress`` the fraction of the plies
    done. With ``memory`` (bytes), a ply whose moves would not fit raises
    :class:`~oxo.counting.budget.MemoryLimitError` before it starts, naming the plies counted."""
    last = max(0, min(int(last), 81))
    keys = np.zeros((1, 3), dtype=np.int64)
    positions, classes, finished = [1], [1], [0]
    if on_row is not None:
        on_row(PlyCount(0, 1, 1, 0))
    if on_ply is not None:
        on_ply(0, 1)
    for ply in range(1, last + 1):
        moves = int(sum(_moves_out(keys[i : i + CHUNK]) for i in range(0, keys.shape[0], CHUNK)))
        if memory is not None and BASE_MEMORY + moves * BYTES_PER_MOVE > memory:
            raise MemoryLimitError(
                f"ply {ply} of ultimate tic-tac-toe needs about "
                f"{format_bytes(BASE_MEMORY + moves * BYTES_PER_MOVE)} of memory (the "
                f"{moves:,} moves out of ply {ply - 1}'s classes), more than the limit of "
                f"{format_bytes(memory)}; counted up to ply {ply - 1} "
                f"({positions[-1]:,} positions at that ply): --plies {ply - 1} gives plies 0 to "
                f"{ply - 1}, or give more with --memory"
            )
        rows = np.empty((moves, 3), dtype=np.int64)
        used = 0
        for start in range(0, keys.shape[0], CHUNK):
            used += _children(keys[start : start + CHUNK], (ply - 1) & 1, rows[used:])
            if on_progress is not None:
                part = min(1.0, (start + CHUNK) / keys.shape[0])
                on_progress((ply - 1 + 0.8 * part) / last)
        del keys
        keys = _distinct_rows(rows[:used])
        del rows
        sizes = np.empty(keys.shape[0], dtype=np.int64)
        over = np.empty(keys.shape[0], dtype=np.bool_)
        _describe(keys, sizes, over)
        positions.append(int(sizes.sum()))
        classes.append(int(keys.shape[0]))
        finished.append(int(sizes[over].sum()))
        if on_row is not None:  # first: whoever hears on_ply may stop the count at once
            on_row(PlyCount(ply, positions[-1], classes[-1], finished[-1]))
        if on_ply is not None:
            on_ply(ply, positions[-1])
        if on_progress is not None:
            on_progress(ply / last)
        keys = keys[~over]
    return UtttCounts(tuple(positions), tuple(classes), tuple(finished))


def key_of(state: UtttState) -> np.ndarray:
    """The walk's key of a position as it stands (not its least image): three ``int64`` words."""
    key = np.zeros(3, dtype=np.int64)
    for g in range(9):
        x = (state.x_marks >> (9 * g)) & 511
        o = (state.o_marks >> (9 * g)) & 511
        key[g // 3] |= (x | o << 9) << (18 * (g % 3))
    target = state.target
    key[2] |= (0 if target is None else target + 1) << 54
    return key


def least_image_of(state: UtttState) -> tuple[tuple[int, int, int], int]:
    """The least image of a position (the compiled walk's form of its class) and the number of
    symmetries that fix it."""
    xs = np.empty(9, dtype=np.int64)
    os = np.empty(9, dtype=np.int64)
    target = _decode(key_of(state), xs, os)
    out = np.empty(3, dtype=np.int64)
    fixed = _least_image(xs, os, target, out)
    return (int(out[0]), int(out[1]), int(out[2])), int(fixed)


def children_of(state: UtttState) -> list[tuple[int, int, int]]:
    """The compiled step's least images of the positions after each legal move (for the tests)."""
    keys = key_of(state).reshape(1, 3)
    rows = np.empty((int(_moves_out(keys)), 3), dtype=np.int64)
    written = _children(keys, state.player, rows)
    return [(int(a), int(b), int(c)) for a, b, c in rows[:written]]


@functools.cache
def _symmetries() -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Each symmetry of the grid: where it takes the nine cells (and grids), and where it takes
    each of the 81 cells (grid g's cell c to grid perm[g]'s cell perm[c])."""
    return tuple(
        (tuple(perm), tuple(9 * perm[g] + perm[c] for g in range(9) for c in range(9)))
        for perm in _PERM.tolist()
    )


def _images(key: tuple[tuple[int, int], int]) -> list[tuple[tuple[int, int], int]]:
    """A position's eight images under the symmetries, each written as the rules' state key."""
    (x, o), target = key
    out = []
    for perm, cell_to in _symmetries():
        moved = [0, 0]
        for side, marks in enumerate((x, o)):
            while marks:
                low = marks & -marks
                moved[side] |= 1 << cell_to[low.bit_length() - 1]
                marks ^= low
        out.append(((moved[0], moved[1]), perm[target] if target >= 0 else -1))
    return out


def reference_counts(last: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Positions, classes and finished positions of plies 0..``last`` by walking every position
    with the rules' own states (a set of distinct positions per ply, classes counted once per orbit
    of the eight images in the rules' own terms): slow and plain, for the tests."""
    layer = {((0, 0), -1): UtttState()}
    positions, classes, finished = [1], [1], [0]
    for _ in range(last):
        following: dict[tuple[tuple[int, int], int], UtttState] = {}
        for state in layer.values():
            for move in state.legal_moves:
                child = state.play(move)
                # The marks and the grid to play in (none once the game is over: -1, as "any").
                target = -1 if child.target is None else child.target
                following.setdefault(((child.x_marks, child.o_marks), target), child)
        positions.append(len(following))
        # a class once per orbit: counted at the first of its positions met, whose eight images
        # (all in this ply, which the symmetries map onto itself) are then set aside
        seen: set[tuple[tuple[int, int], int]] = set()
        orbits = 0
        for key in following:
            if key not in seen:
                orbits += 1
                seen.update(_images(key))
        classes.append(orbits)
        finished.append(sum(state.is_over for state in following.values()))
        layer = {key: state for key, state in following.items() if not state.is_over}
    return tuple(positions), tuple(classes), tuple(finished)
