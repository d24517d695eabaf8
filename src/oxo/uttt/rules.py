"""The rules of ultimate tic-tac-toe, as CodinGame and OpenSpiel (``ultimate_tic_tac_toe``) play them.

The board is nine small 3×3 grids laid out in a 3×3 big grid: 81 cells. Bit ``9*g + c`` of a
Python int is cell ``c`` of grid ``g`` (both 0-based here, 1-based in ``GC`` notation), and each
player has one such 81-bit bitboard. A grid is **closed** once somebody has three in a row in it
(it is won, and no more moves go there even if it has empty cells) or once it is full without a
line (drawn: it counts for nobody).

1. X moves first and the players alternate.
2. The first move may go to any cell.
3. After that, the cell a move is played in (1..9) names the grid the opponent must play in next;
   if that grid is closed, the opponent may play in any empty cell of any grid that is not closed.
4. Three in a row inside a small grid wins that grid for the mover.
5. Three won grids in a row (on the big grid) win the game. When every grid is closed and nobody
   has three won grids in a row, the game is a draw (a drawn grid never counts for anyone, and
   the game goes on while some grid is open even if nobody can make a line any more).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from oxo import ninegrids
from oxo.errors import IllegalMoveError
from oxo.game import Outcome, Player
from oxo.geometry import mask_cells
from oxo.ninegrids import GRID_CELLS, NAMES, WINS, RecordedState, Token
from oxo.records import record
from oxo.uttt.notation import format_move, parse_move, parse_record

if TYPE_CHECKING:
    from oxo.uttt.search import CompiledSearch


RULES: tuple[str, ...] = (
    "X moves first and the players alternate.",
    "A move goes to an empty cell; the first move may go to any cell.",
    "The cell a move is played in (1..9) names the small grid the opponent must play in next; "
    "if that grid is won or full, the opponent may play in any grid that is neither.",
    "Three in a row inside a small grid wins that grid; no more moves go there.",
    "Three won grids in a row win the game. When every grid is won or full and nobody has three "
    "in a row, the game is a draw (a full grid without a line counts for nobody).",
)


def illegal_move_error(number: int, move: int, rule: int, reason: str) -> IllegalMoveError:
    """The error for a well-formed move the rules forbid: its number in the game, the move, the rule
    (1..5, as numbered in :data:`RULES`) and why."""
    return IllegalMoveError(
        f"move {number} ({format_move(move)}) is illegal: {reason}",
        number=number,
        move=move,
        rule=rule,
        reason=reason,
    )


@dataclass(frozen=True)
class UtttSummary:
    """What ``oxo uttt replay`` reports: turn, winner, legal moves, won and drawn grids, where to play."""

    to_move: Player | None
    winner: Outcome | None
    legal: tuple[int, ...]
    won: tuple[tuple[int, Player], ...]
    drawn: tuple[int, ...]
    target: int | None
    moves: int

    def to_dict(self) -> dict[str, object]:
        return record(
            self,
            {"target": "grid"},
            legal=[format_move(m) for m in self.legal],
            won={str(grid): owner for grid, owner in self.won},
            drawn=list(self.drawn),
        )


class UtttState(RecordedState):
    """A position of ultimate tic-tac-toe: an immutable value implementing :class:`oxo.game.GameState`.

    Moves are indices 0..80 (``9*g + c``) or ``GC`` text; :meth:`play` returns a new state. The
    record of moves from the start travels with the state (:attr:`moves`, :attr:`record`).
    """

    #: The opponent's winning cell is often out of the mover's reach (moves are sent to one grid),
    #: so an engine may not assume such a cell must be taken at once.
    blocks_are_forced = False

    __slots__ = ("_marks", "_won", "_closed", "_target", "_outcome", "_moves", "_legal")

    def __init__(self) -> None:
        self._marks: tuple[int, int] = (0, 0)
        self._won: tuple[int, int] = (0, 0)
        self._closed = 0
        self._target = -1
        self._outcome: Outcome | None = None
        self._moves: tuple[int, ...] = ()
        self._legal: tuple[int, ...] | None = None

    # -- construction ----------------------------------------------------------------------------

    @classmethod
    def replay(cls, record: str | Iterable[str | int]) -> UtttState:
        """The state after a game record, every move checked; raises :class:`IllegalMoveError`."""
        state = cls()
        for move in parse_record(record):
            state = state.play(move)
        return state

    # -- what the position is --------------------------------------------------------------------

    @property
    def player(self) -> int:
        """0 when X is to move (or moved last in a finished game of odd length), 1 for O."""
        return len(self._moves) & 1

    @property
    def to_move(self) -> Player | None:
        return None if self._outcome is not None else NAMES[len(self._moves) & 1]

    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    winner = outcome

    @property
    def moves(self) -> tuple[int, ...]:
        """The moves played from the start, as indices."""
        return self._moves

    @property
    def last_move(self) -> int | None:
        return self._moves[-1] if self._moves else None

    @property
    def x_marks(self) -> int:
        """X's cells as an 81-bit mask (bit ``9*g + c``)."""
        return self._marks[0]

    @property
    def o_marks(self) -> int:
        """O's cells as an 81-bit mask."""
        return self._marks[1]

    @property
    def won_grids(self) -> tuple[int, int]:
        """9-bit masks of the grids won by X and by O."""
        return self._won

    @property
    def closed_grids(self) -> int:
        """9-bit mask of the grids that take no more moves (won, or full)."""
        return self._closed

    @property
    def target(self) -> int | None:
        """The grid (0..8) the side to move must play in, or ``None`` when any open grid will do."""
        if self._outcome is not None or self._target < 0:
            return None
        return self._target

    def grid_owner(self, grid: int) -> Outcome | None:
        """Who won grid ``grid`` (0..8): ``"x"``, ``"o"``, ``"draw"`` when full without a line, else ``None``."""
        bit = 1 << grid
        if self._won[0] & bit:
            return "x"
        if self._won[1] & bit:
            return "o"
        return "draw" if self._closed & bit else None

    @property
    def legal_moves(self) -> tuple[int, ...]:
        if self._legal is None:
            if self._outcome is not None:
                self._legal = ()
            else:
                allowed = (
                    511 << (9 * self._target)
                    if self._target >= 0
                    else GRID_CELLS[~self._closed & 511]
                )
                self._legal = mask_cells(~(self._marks[0] | self._marks[1]) & allowed)
        return self._legal

    @property
    def key(self) -> Hashable:
        return (self._marks, self._target)

    # -- moves -------------------------------------------------------------------------------------

    def why_illegal(self, move: str | int) -> str | None:
        """Why ``move`` cannot be played here, in a sentence, or ``None`` when it is legal."""
        broken = self._broken_rule(parse_move(move))
        return None if broken is None else broken[1]

    def _broken_rule(self, m: int) -> tuple[int, str] | None:
        g, c = divmod(m, 9)
        if self._outcome is not None:
            return 5, "the game is over"
        owner = self.grid_owner(g)
        if owner in ("x", "o"):
            return 4, f"grid {g + 1} is already won by {owner}; no more moves go there"
        if owner == "draw":
            return 2, f"grid {g + 1} is full"
        if (self._marks[0] | self._marks[1]) >> m & 1:
            return 2, f"cell {c + 1} of grid {g + 1} is already taken"
        if self._target >= 0 and g != self._target:
            previous = self._moves[-1] % 9 + 1
            return 3, (
                f"the last move was played in cell {previous} of its grid, "
                f"so this move must go to grid {self._target + 1}"
            )
        return None

    def play(self, move: str | int) -> UtttState:
        """The state after a legal move (raises :class:`~oxo.errors.IllegalMoveError` for an illegal one)."""
        m = parse_move(move)
        if m not in self.legal_moves:
            rule, reason = self._broken_rule(m) or (2, "not a legal move here")
            raise illegal_move_error(len(self._moves) + 1, m, rule, reason)
        p = len(self._moves) & 1
        g, c = divmod(m, 9)
        marks = list(self._marks)
        marks[p] |= 1 << m
        won = list(self._won)
        closed = self._closed
        if WINS[(marks[p] >> (9 * g)) & 511]:
            won[p] |= 1 << g
            closed |= 1 << g
        elif ((marks[0] | marks[1]) >> (9 * g)) & 511 == 511:
            closed |= 1 << g
        child = UtttState.__new__(UtttState)
        child._marks = (marks[0], marks[1])
        child._won = (won[0], won[1])
        child._closed = closed
        child._moves = self._moves + (m,)
        child._legal = None
        child._outcome = None
        if WINS[won[p]]:
            child._outcome = NAMES[p]
        elif closed == 511:
            child._outcome = "draw"
        child._target = -1 if closed >> c & 1 else c
        return child

    def winning_moves(self, player: Player | None = None) -> tuple[int, ...]:
        """Moves with which ``player`` (default: the side to move) wins the game at once.

        For the side to move these are legal moves; for the other side, every empty cell of an open
        grid that would win it the game, wherever it is sent next.
        """
        if self._outcome is not None:
            return ()
        mover = len(self._moves) & 1
        p = mover if player is None else NAMES.index(player)
        won = self._won[p]
        mine = self._marks[p]
        empty = ~(self._marks[0] | self._marks[1])
        grids = (
            [self._target]
            if p == mover and self._target >= 0
            else [g for g in range(9) if not self._closed >> g & 1]
        )
        out = []
        for g in grids:
            if self._closed >> g & 1 or not WINS[won | 1 << g]:
                continue
            own = (mine >> (9 * g)) & 511
            free = (empty >> (9 * g)) & 511
            for c in range(9):
                if free >> c & 1 and WINS[own | 1 << c]:
                    out.append(9 * g + c)
        return tuple(out)

    # -- text ----------------------------------------------------------------------------------------

    def format_move(self, move: int) -> str:
        return format_move(move)

    def parse_move(self, text: str) -> int:
        return parse_move(text)

    def board_tokens(self, *, highlight: bool = True) -> list[list[Token]]:
        """The board as lines of (text, style) tokens (see :mod:`oxo.uttt.render`); legal moves
        shown as cell digits if ``highlight``."""
        x, o = self.x_marks, self.o_marks

        def owner(grid: int) -> str | None:
            won = self.grid_owner(grid)
            return won if won in ("x", "o") else None

        return ninegrids.board_tokens(
            lambda move: "x" if x >> move & 1 else "o" if o >> move & 1 else None,
            owner,
            set(self.legal_moves) if highlight else set(),
            self.last_move,
        )

    def text(self) -> str:
        """The board as text: the nine grids, won grids as big marks, legal moves as their digit."""
        return ninegrids.board_text(self)

    def summary(self) -> UtttSummary:
        """An immutable report of the position (the replay JSON)."""
        won: tuple[tuple[int, Player], ...] = tuple(
            (g + 1, NAMES[0] if self._won[0] >> g & 1 else NAMES[1])
            for g in range(9)
            if (self._won[0] | self._won[1]) >> g & 1
        )
        drawn = tuple(g + 1 for g in range(9) if self.grid_owner(g) == "draw")
        target = self.target
        return UtttSummary(
            self.to_move,
            self._outcome,
            self.legal_moves,
            won,
            drawn,
            None if target is None else target + 1,
            len(self._moves),
        )

    # -- engines ----------------------------------------------------------------------------------------

    def compiled_search(
        self, seed: int | None = None, exploration: float | None = None, **options: Any
    ) -> CompiledSearch:
        """The compiled Monte Carlo tree search (numba) that :class:`oxo.engines.MCTSEngine` runs
        here: ``hard``'s settings (:data:`oxo.uttt.search.HARD`) unless ``exploration`` or
        ``options`` say otherwise."""
        from oxo.uttt.search import CompiledSearch

        return CompiledSearch(seed, exploration, **options)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, UtttState) and (self._marks, self._target, self._outcome) == (
            other._marks,
            other._target,
            other._outcome,
        )

    def __hash__(self) -> int:
        return hash((self._marks, self._target))

    def _repr_svg_(self) -> str:
        """The board as SVG, for notebooks (see :func:`oxo.uttt.svg.uttt_svg`)."""
        from oxo.uttt.svg import uttt_svg

        return uttt_svg(self)
