"""The complete optimal strategy of one side, read off the exact solver: a strategy map.

For every position the side meets when it follows the map, the map holds one move, and after that
move it holds every reply the opponent can make, recursively, until the game ends (in the spirit of
the famous poster that draws X's and O's strategies on 3x3 as nested grids; the drawing is
:mod:`oxo.render.strategy`).

The move is chosen deterministically among the moves that keep the position's value: the solver's
scores already prefer the quickest win (and the slowest loss); among those left the map takes the
move whose strategy tree is smallest (fewest boards to draw), then the lowest cell ID. The same
position always gets the same move, however it was reached.

Choosing the smallest map means sizing the tree under every value-keeping move, which on a drawn
16-cell board (4x4) looks at far more positions than the map holds. Past ``max_positions`` looked
at, the map takes the lowest cell ID among the value-keeping moves instead (``smallest`` false):
still a complete optimal strategy, found in one pass, only not the smallest one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from oxo.errors import OutOfReachError, OxoError
from oxo.game import Player, other
from oxo.geometry import Geometry
from oxo.position import Position
from oxo.solve import Solution, Value, solve
from oxo.space import MAX_EMPTY

#: Most positions where the side moves that choosing the smallest map may look at.
DEFAULT_MAX_POSITIONS = 50_000
#: Most positions where the side moves in a map of the lowest value-keeping cells (the map taken
#: when the smallest is beyond ``max_positions``); past it :func:`strategy_map` gives up.
FALLBACK_MAX_POSITIONS = 500_000


@dataclass(frozen=True, eq=False)
class StrategyNode:
    """One board of the map: a position, the side's move in it (``None`` when the side does not
    move here: the game is over, or it is the opponent's turn at the very start), and after that
    move every reply of the opponent with the board that follows it."""

    position: Position
    move: int | None
    replies: tuple[tuple[int, StrategyNode], ...]

    @property
    def after(self) -> Position:
        """The position once the side has played its move (the position itself when it has none)."""
        return self.position if self.move is None else self.position.play(self.move)

    def walk(self) -> Iterator[StrategyNode]:
        """Every board of the map under this one, this one first, as the drawing nests them."""
        stack: list[StrategyNode] = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(child for _, child in reversed(node.replies))


@dataclass(frozen=True, eq=False)
class StrategyMap:
    """A side's complete optimal strategy on a board, with the figures that describe it."""

    geometry: Geometry
    side: Player
    value: Value
    root: StrategyNode
    moves: dict[tuple[int, int], int] = field(repr=False)
    boards: int
    outcomes: dict[str, int]
    classes: int
    #: False when the smallest map was beyond reach and the map takes the lowest value-keeping cell.
    smallest: bool = True

    @property
    def positions(self) -> int:
        """Distinct positions where the side moves in the map."""
        return len(self.moves)

    def move_for(self, position: Position) -> int:
        """The map's move in a position the side meets while following it."""
        found = self.moves.get((position.x, position.o))
        if found is None:
            raise OxoError(
                f"position {position.to_status_string()} is not on the map of {self.side.upper()}"
            )
        return found

    def first_answers(self) -> tuple[tuple[int, int | None], ...]:
        """The opponent's first moves in the map and the side's answer to each (``None``: game over)."""
        return tuple((reply, child.move) for reply, child in self.root.replies)

    def to_dict(self) -> dict[str, object]:
        return {
            **self.geometry.board_keys(),
            "side": self.side,
            "value": self.value.outcome,
            "first_move": self.root.move,
            "positions": self.positions,
            "classes": self.classes,
            "boards": self.boards,
            "outcomes": dict(self.outcomes),
            "smallest": self.smallest,
            "first_answers": [
                {"reply": reply, "answer": answer} for reply, answer in self.first_answers()
            ],
            "moves": self.move_table(),
        }

    def _repr_svg_(self) -> str | None:
        """The drawing in a notebook (``None``, so the text form shows, when it cannot be drawn)."""
        from oxo.render.strategy import strategy_svg

        try:
            return strategy_svg(self)
        except (OxoError, OutOfReachError):
            return None

    def move_table(self) -> dict[str, int]:
        """The whole strategy as a table: each position where the side moves (its status string,
        ``0`` empty, ``1`` X, ``2`` O) and the map's move there, in status-string order."""
        table = {
            Position(self.geometry, x, o).to_status_string(): move
            for (x, o), move in self.moves.items()
        }
        return dict(sorted(table.items()))


def strategy_map(
    board: Geometry | str,
    side: Player,
    *,
    solution: Solution | None = None,
    max_positions: int = DEFAULT_MAX_POSITIONS,
    fallback_positions: int | None = FALLBACK_MAX_POSITIONS,
    on_progress: Callable[[float], None] | None = None,
) -> StrategyMap:
    """The complete optimal strategy of ``side`` (``"x"`` or ``"o"``) from the empty board.

    The smallest map, unless choosing it means looking at more than ``max_positions`` positions
    where ``side`` moves: then the map of the lowest value-keeping cells, of at most
    ``fallback_positions`` such positions (``None``: no such map). Raises
    :class:`OutOfReachError` when the board is beyond the exact solver (more than 16 cells) or
    both maps are beyond their limits. ``on_progress`` hears the fraction of the board's solving
    done (the longest part on 16 cells).
    """
    geometry = Geometry.parse(board) if isinstance(board, str) else board
    geometry.refuse_gravity("the strategy map")
    if side not in ("x", "o"):
        raise OxoError(f"a side is 'x' or 'o', got {side!r}")
    if geometry.size > MAX_EMPTY:
        raise OutOfReachError(
            f"a strategy map needs every position of the board solved, which oxo does for boards of "
            f"at most {MAX_EMPTY} cells; {geometry.spec} has {geometry.size}. Try 3x3 or 3x4."
        )
    root = Position.empty(geometry)
    solution = solution if solution is not None else solve(root, on_progress=on_progress)
    builder = _Builder(solution, side, max_positions)
    try:
        node = builder.node(root)
    except OutOfReachError as too_many:
        if fallback_positions is None:
            raise
        builder = _Builder(solution, side, fallback_positions, smallest=False, why=str(too_many))
        node = builder.node(root)
    moves = {key: built.move for key, built in builder.nodes.items() if built.move is not None}
    classes = len({Position(geometry, x, o).key for x, o in moves})
    return StrategyMap(
        geometry=geometry,
        side=side,
        value=solution.value(root),
        root=node,
        moves=moves,
        boards=builder.size(root),
        outcomes=_outcomes(node, side),
        classes=classes,
        smallest=builder.smallest,
    )


def _outcomes(root: StrategyNode, side: Player) -> dict[str, int]:
    """How the games that follow the map end: a count per last board of each (a board shared by
    several branches counts once per branch, as the drawing shows it), without walking the tree."""
    memo: dict[int, tuple[int, int, int]] = {}

    def count(node: StrategyNode) -> tuple[int, int, int]:
        found = memo.get(id(node))
        if found is not None:
            return found
        if not node.replies:
            end = node.after
            result = end.outcome if end.is_over else None
            found = (
                int(result == side),
                int(result == "draw"),
                int(result is not None and result not in (side, "draw")),
            )
        else:
            parts = [count(child) for _, child in node.replies]
            found = (
                sum(p[0] for p in parts),
                sum(p[1] for p in parts),
                sum(p[2] for p in parts),
            )
        memo[id(node)] = found
        return found

    wins, draws, losses = count(root)
    return {"win": wins, "draw": draws, "loss": losses}


class _Builder:
    """Chooses the side's moves with memoised strategy sizes and builds the (shared) nodes."""

    def __init__(
        self,
        solution: Solution,
        side: Player,
        max_positions: int,
        smallest: bool = True,
        why: str = "",
    ) -> None:
        self.solution = solution
        self.side = side
        self.max_positions = max_positions
        #: Whether the move kept is the one with the smallest tree (else the lowest cell ID).
        self.smallest = smallest
        self.why = why  # why the smallest map was not chosen
        self.moves: dict[tuple[int, int], int] = {}
        self.sizes: dict[tuple[int, int], int] = {}
        self.nodes: dict[tuple[int, int], StrategyNode] = {}

    def choose(self, position: Position) -> int:
        """The side's move: a value-keeping move with the smallest strategy tree, then the lowest ID."""
        key = (position.x, position.o)
        found = self.moves.get(key)
        if found is not None:
            return found
        best = self.solution.best_moves(position)
        if self.smallest:
            move = min(best, key=lambda cell: (self._replies_size(position.play(cell)), cell))
        else:
            move = min(best)
        self.moves[key] = move
        if len(self.moves) > self.max_positions:
            if not self.smallest:
                raise OutOfReachError(
                    f"{self.why.split(';')[0]}, and the map of the lowest cells that keep the "
                    f"best result holds more than {self.max_positions:,} positions where "
                    f"{self.side.upper()} moves; try a smaller board such as 3x3 or 3x4"
                )
            raise OutOfReachError(
                f"choosing the smallest map of {self.side.upper()} on {position.geometry.spec} "
                f"meant looking at more than {self.max_positions:,} positions where "
                f"{self.side.upper()} moves (every move that keeps the best result, and every "
                "reply to it); try a smaller board such as 3x3 or 3x4"
            )
        return move

    def _replies_size(self, after: Position) -> int:
        """Boards under a position where the opponent is to move (one per reply, recursively)."""
        return sum(self.size(after.play(reply)) for reply in after.legal_moves)

    def size(self, position: Position) -> int:
        """Boards the map draws from ``position`` on: this one and every board nested in it."""
        key = (position.x, position.o)
        found = self.sizes.get(key)
        if found is not None:
            return found
        if position.is_over:
            total = 1
        elif position.to_move == self.side:
            total = 1 + self._replies_size(position.play(self.choose(position)))
        else:
            total = 1 + self._replies_size(position)
        self.sizes[key] = total
        return total

    def node(self, position: Position) -> StrategyNode:
        key = (position.x, position.o)
        found = self.nodes.get(key)
        if found is not None:
            return found
        move: int | None = None
        after = position
        if not position.is_over and position.to_move == self.side:
            move = self.choose(position)
            after = position.play(move)
        replies: tuple[tuple[int, StrategyNode], ...] = ()
        if not after.is_over:
            assert after.to_move == other(self.side)
            replies = tuple((reply, self.node(after.play(reply))) for reply in after.legal_moves)
        built = StrategyNode(position, move, replies)
        self.nodes[key] = built
        return built
