"""Counting games by inclusion–exclusion over lines: boards with few lines, whatever their size.

A game that X wins at move ``p`` ends at a position where X holds ``a`` cells, O holds ``b``; X's last
cell ``c`` completes a line and nothing before did. Take ``c`` away: X's other ``a - 1`` cells and O's
``b`` cells are both *line-free*, and ``c`` is a free cell completing a line for X. The earlier marks
come in any order, so such a triple (X's cells without ``c``, O's cells, ``c``) stands for
``(a-1)! · b!`` games. Counting the triples as "all free cells ``c``" minus "cells ``c`` after which
X is still line-free" gives, with ``F(a, b)`` the number of disjoint pairs of line-free sets of sizes
``a`` and ``b`` on ``N`` cells::

    wins(a, b) = (a-1)! · b! · ( F(a-1, b) · (N - a - b + 1)  -  a · F(a, b) )
    draws      = a! · b! · F(a, b)            (a + b = N, the board full)

O's wins are the same with the roles swapped (``F`` is symmetric). ``F`` itself comes from
inclusion–exclusion over the sets of lines each side contains: for sets of lines ``S`` (in A) and
``T`` (in B) whose cells do not meet,

    F(a, b) = Σ_{u, v} W(u, v) · (N-u-v)! / ((a-u)! (b-v)! (N-a-b)!)

where ``W(u, v)`` sums ``(-1)^{|S|+|T|}`` over the pairs with ``|∪S| = u``, ``|∪T| = v``. ``W`` is
computed over the lattice of line sets (2^lines of them), never over cells, so 8×8 with k = 8 (18
lines) takes seconds. See ``docs/counting.md``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

#: The lattice of line sets has 2^lines entries of (cells + 1) numbers each; 22 lines is ~1.7 GB.
MAX_GAME_LINES = 22


def _memory_bytes(lines: int, cells: int) -> int:
    """Peak memory of :func:`disjoint_line_set_weights`, roughly: the lattice of polynomials."""
    return (1 << lines) * (cells + 1) * 4 * 2 + (1 << lines) * 8 * 6


def games_memory_estimate(lines: int, cells: int) -> int:
    """Bytes the lines method needs for a board with this many lines and cells (an estimate)."""
    return _memory_bytes(lines, cells)


def disjoint_line_set_weights(lines: Sequence[int], cells: int) -> np.ndarray:
    """``W[u, v]``: the sum of (-1)^(|S|+|T|) over pairs of line sets whose cells do not meet, by the
    number of cells each covers (``u`` for S, ``v`` for T).

    ``cells`` is the number of cells of the board (the polynomial degree bound).
    """
    count = len(lines)
    size = 1 << count
    words = max(1, (cells + 63) // 64)  # boards beyond 64 cells keep each union in several words
    unions = np.zeros((1, words), dtype=np.uint64)
    signs = np.ones(1, dtype=np.int8)
    # meets[i]: the lines that share a cell with line i (itself included), as a bitmask over lines.
    meets = [
        sum(1 << j for j, other in enumerate(lines) if other & line) for i, line in enumerate(lines)
    ]
    # away[S]: the lines that share no cell with any line of S.
    away = np.full(1, size - 1, dtype=np.int64)
    for index, line in enumerate(lines):
        pieces = np.array([(line >> (64 * w)) & (2**64 - 1) for w in range(words)], np.uint64)
        unions = np.concatenate([unions, unions | pieces])
        signs = np.concatenate([signs, -signs])
        away = np.concatenate([away, away & np.int64(~meets[index] & (size - 1))])
    sizes = np.bitwise_count(unions).sum(axis=1).astype(np.intp)
    del unions
    # h[M] = Σ_{T ⊆ M} sign(T) y^|∪T|: a subset sum (zeta transform) over the lattice of line sets.
    table = np.zeros((size, cells + 1), dtype=np.int32)
    table[np.arange(size), sizes] = signs
    for bit in range(count):
        view = table.reshape(size >> (bit + 1), 2, 1 << bit, cells + 1)
        view[:, 1] += view[:, 0]
    weights = np.zeros((cells + 1, cells + 1), dtype=np.int64)
    order = np.argsort(sizes, kind="stable")
    bounds = np.searchsorted(sizes[order], np.arange(cells + 2))
    chunk = 1 << 14
    for u in range(cells + 1):
        members = order[bounds[u] : bounds[u + 1]]
        for start in range(0, len(members), chunk):
            part = members[start : start + chunk]
            rows = table[away[part]].astype(np.int64)
            weights[u] += (signs[part].astype(np.int64)[:, None] * rows).sum(axis=0)
    return weights


def line_free_pairs(weights: np.ndarray, cells: int, a: int, b: int) -> int:
    """``F(a, b)``: disjoint pairs (A, B) of sizes a and b on ``cells`` cells, neither containing a line."""
    if a < 0 or b < 0 or a + b > cells:
        return 0
    rest = cells - a - b
    total = 0
    for u in range(a + 1):
        row = weights[u]
        for v in range(b + 1):
            w = int(row[v])
            if w:
                free = cells - u - v
                total += w * (
                    math.factorial(free)
                    // (math.factorial(a - u) * math.factorial(b - v) * math.factorial(rest))
                )
    return total


def games_by_lines(
    lines: Sequence[int], cells: int, *, full_board: bool = True
) -> list[tuple[int, int, int]]:
    """Games by length (index = number of moves) as (X wins, O wins, draws), on ``cells`` cells whose
    lines are ``lines`` (each a bitmask inside the cells).

    ``full_board=False`` counts games on part of a board (the cells a symmetry fixes): they cannot
    end in a draw, since a draw fills the whole board.
    """
    if len(lines) > MAX_GAME_LINES:
        raise ValueError(f"the lines method takes at most {MAX_GAME_LINES} lines, got {len(lines)}")
    weights = disjoint_line_set_weights(lines, cells)
    cache: dict[tuple[int, int], int] = {}

    def free_pairs(a: int, b: int) -> int:
        key = (min(a, b), max(a, b))
        if key not in cache:
            cache[key] = line_free_pairs(weights, cells, *key)
        return cache[key]

    out = []
    for length in range(cells + 1):
        x_count, o_count = (length + 1) // 2, length // 2
        x_wins = o_wins = draws = 0
        if length:
            winner, other = (x_count, o_count) if length % 2 else (o_count, x_count)
            triples = free_pairs(winner - 1, other) * (cells - winner - other + 1) - winner * (
                free_pairs(winner, other)
            )
            games = triples * math.factorial(winner - 1) * math.factorial(other)
            if length % 2:
                x_wins = games
            else:
                o_wins = games
        if full_board and length == cells:
            draws = free_pairs(x_count, o_count) * math.factorial(x_count) * math.factorial(o_count)
        out.append((x_wins, o_wins, draws))
    return out


def count_games_by_lines(
    lines: Sequence[int],
    full_mask: int,
    fixed_cells: Sequence[int],
    *,
    on_progress: Callable[[float], None] | None = None,
) -> list[list[tuple[int, int, int]]]:
    """Games by length for the whole board and, for each mask in ``fixed_cells``, the games that play
    only those cells (the games a symmetry fixes). Repeated masks are counted once."""
    results: dict[int, list[tuple[int, int, int]]] = {}
    masks = list(fixed_cells)
    distinct = list(dict.fromkeys(masks))
    for done, mask in enumerate(distinct, start=1):
        inside = [line for line in lines if line & mask == line]
        cells = mask.bit_count()
        compact = [_compact(line, mask) for line in inside]
        rows = games_by_lines(compact, cells, full_board=mask == full_mask)
        results[mask] = rows + [(0, 0, 0)] * (full_mask.bit_count() - cells)
        if on_progress is not None:
            on_progress(done / len(distinct))
    return [results[mask] for mask in masks]


def _compact(line: int, mask: int) -> int:
    """The line's cells renumbered within ``mask`` (so a sub-board's cells are 0..|mask|-1)."""
    out, position = 0, 0
    while mask:
        low = mask & -mask
        if line & low:
            out |= 1 << position
        position += 1
        mask ^= low
    return out
