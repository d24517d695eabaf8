"""Gravity boards: marks drop to the lowest empty cell of their column (6x7 with k=4 is Connect Four).

:mod:`oxo.gravity.board` holds the game (:class:`GravityBoard`, :class:`GravityState`),
:mod:`oxo.gravity.solver` the exact bitboard solver (its parts one idea a file: ``bitboard``,
``ordering``, ``table``, ``search``, ``values``), :mod:`oxo.gravity.proof` the proof run (with
``parallel``, ``certificate`` and ``book``), :mod:`oxo.gravity.counting` the positions per ply and
:mod:`oxo.gravity.reference` the slow, obviously correct versions the tests compare with.
"""

from oxo.gravity.board import GravityBoard, GravityState

__all__ = ["GravityBoard", "GravityState"]
