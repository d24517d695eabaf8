"""What the Connect Four solver answers, as values: a position's value with best play, each column's,
and the conversions between the solver's scores and "who wins, at which ply"."""

from __future__ import annotations

from dataclasses import dataclass

from oxo.game import Outcome
from oxo.gravity.board import GravityState
from oxo.phrases import counted


@dataclass(frozen=True)
class GravityValue:
    """The value of a position with best play, for the side to move, and how long the game lasts.

    ``score`` is the solver's score (see the module docstring); ``outcome`` is ``"x"``, ``"o"`` or
    ``"draw"``; ``end_ply`` is the ply of the winning mark (for a draw, the board's size: the game
    ends on a full board); ``plies`` the marks still to be played; ``winner_moves`` the marks the
    winner still plays ("wins in N moves"), 0 for a draw.
    """

    score: int
    outcome: Outcome
    ply: int
    end_ply: int
    weak: bool = False

    @property
    def plies(self) -> int:
        return self.end_ply - self.ply

    @property
    def winner_moves(self) -> int:
        return 0 if self.outcome == "draw" else (self.plies + 1) // 2

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"value": self.outcome, "score": self.score}
        if not self.weak:
            data.update(
                plies_to_end=self.plies, end_ply=self.end_ply, winner_moves=self.winner_moves
            )
        return data

    def __str__(self) -> str:
        if self.outcome == "draw":
            return "draw"
        who = self.outcome.upper()
        if self.weak:
            return f"{who} wins"
        moves = self.winner_moves
        return f"{who} wins in {counted(moves, 'move')} (the game ends at ply {self.end_ply})"


def value_from_score(
    score: int, ply: int, cells: int, mover: Outcome, weak: bool = False
) -> GravityValue:
    """The value meant by a score of the side ``mover`` at ``ply`` on a board of ``cells`` cells."""
    opponent: Outcome = "o" if mover == "x" else "x"
    if score == 0:
        return GravityValue(0, "draw", ply, cells, weak)
    if score > 0:
        end = ply + 1 + 2 * ((cells + 1 - ply) // 2 - score)
        return GravityValue(score, mover, ply, end, weak)
    end = ply + 2 + 2 * ((cells - ply) // 2 + score)
    return GravityValue(score, opponent, ply, end, weak)


@dataclass(frozen=True)
class ColumnValue:
    """One column's value for the side to move (``None`` when the column is full)."""

    column: int
    value: GravityValue

    def to_dict(self) -> dict[str, object]:
        return {"column": self.column + 1, **self.value.to_dict()}


@dataclass(frozen=True)
class GravityAnalysis:
    """A position's exact value and every playable column's, with the search's effort."""

    state: GravityState
    value: GravityValue
    columns: tuple[ColumnValue, ...]
    nodes: int
    seconds: float

    @property
    def best_columns(self) -> tuple[int, ...]:
        """The columns (from 0) that keep the position's value at its best: the quickest win, the
        slowest loss, or a draw."""
        if not self.columns:
            return ()
        best = max(c.value.score for c in self.columns)
        return tuple(c.column for c in self.columns if c.value.score == best)

    def to_dict(self) -> dict[str, object]:
        return {
            **self.state.to_dict(),
            **self.value.to_dict(),
            "best_moves": [c + 1 for c in self.best_columns],
            "moves": [c.to_dict() for c in self.columns],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }


def finished_score(state: GravityState, player: Outcome) -> int:
    """``player``'s score in a finished game: ``(cells + 2 - ply) // 2`` for the winner, the
    opposite for the loser, 0 for a draw."""
    if state.outcome == "draw":
        return 0
    won = (state.board.size + 2 - state.ply) // 2
    return won if state.outcome == player else -won
