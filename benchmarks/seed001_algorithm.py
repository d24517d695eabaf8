"""Seed 001's own algorithm, re-implemented faithfully in plain Python, for comparison only.

Depth-first traversal of the game tree with an explicit stack and a list (here a set) of visited
boards: a board not yet visited is added together with its seven transforms, counted as a new
class, and, unless it is an end state, its children are pushed. Boards are tuples of statuses.
"""

from __future__ import annotations


def seed_count(rows: int) -> tuple[list[int], list[int]]:
    """Positions and classes per ply on a rows×rows board (k = rows), the seed's way."""
    n = rows
    size = n * n

    def rotate(board: tuple[int, ...]) -> tuple[int, ...]:  # counterclockwise
        return tuple(board[r * n + (n - 1 - c)] for c in range(n) for r in range(n))

    def mirror(board: tuple[int, ...]) -> tuple[int, ...]:  # flip on the vertical axis
        return tuple(board[r * n + (n - 1 - c)] for r in range(n) for c in range(n))

    lines = [[r * n + c for c in range(n)] for r in range(n)]
    lines += [[r * n + c for r in range(n)] for c in range(n)]
    lines += [[i * n + i for i in range(n)], [i * n + (n - 1 - i) for i in range(n)]]

    def is_end(board: tuple[int, ...]) -> bool:
        for line in lines:
            first = board[line[0]]
            if first and all(board[cell] == first for cell in line):
                return True
        return all(board)

    visited: set[tuple[int, ...]] = set()
    positions = [0] * (size + 1)
    classes = [0] * (size + 1)
    stack = [tuple([0] * size)]
    while stack:
        node = stack.pop()
        if node in visited:
            continue
        ply = size - node.count(0)
        classes[ply] += 1
        transforms = {node}
        current = node
        for _ in range(3):
            current = rotate(current)
            transforms.add(current)
        transforms |= {mirror(t) for t in list(transforms)}
        for board in transforms:
            if board not in visited:
                visited.add(board)
                positions[ply] += 1
        if not is_end(node):
            player = 1 if ply % 2 == 0 else 2
            for cell in range(size):
                if not node[cell]:
                    stack.append(node[:cell] + (player,) + node[cell + 1 :])
    return positions, classes
