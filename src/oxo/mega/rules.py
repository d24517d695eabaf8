"""The rules engine of mega tic-tac-toe (seed 002, made precise by issue 6).

The board is 81 cells: bit ``9*g + c`` of a Python int is cell ``c`` of inner grid ``g`` (both
0-based here, 1-based in ``GC`` notation). Each player has one such 81-bit bitboard, and each has
a 9-bit mask of the inner grids they covered with a big marker. The current string is two 9-bit
masks, the grids played in it and the cell positions used by it, so every legal move of a
position is

    empty cells  &  cells of the grids neither covered nor played  &  ~cells at used positions

and, when that is empty, the same without the last term (rule 8, the string turns abnormal).

The nine rules, as this module applies them:

1. X moves first; X and O alternate on every move (``to_move`` is the parity of the move count).
2. A move goes to an empty cell of an inner grid that is not covered.
3. The empty-cell counts of the uncovered grids differ by at most one: it follows from 5 and the
   string lengths and is asserted after every move.
4. A played cell is no longer empty.
5. Within a string each move goes to an uncovered grid not yet played in that string; a string is
   as long as the number of grids uncovered when it starts.
6. Within a string no two moves use the same cell position.
7. Three in a row inside an inner grid covers it at once with the mover's big marker.
8. With no move satisfying 5 and 6, the mover ignores 6 (never 5); the string is abnormal.
9. Three big markers in a row win. With no move possible and no winner, the game is drawn.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from oxo import ninegrids
from oxo.errors import IllegalMoveError, MoveError
from oxo.game import Outcome, Player
from oxo.geometry import mask_cells
from oxo.mega.notation import format_move, parse_move, parse_record
from oxo.ninegrids import FULL, GRID_CELLS, NAMES, WINS, RecordedState, Token
from oxo.records import record

if TYPE_CHECKING:
    from oxo.mega.search import CompiledSearch

#: ``POSITION_CELLS[m]``: the 81-bit mask of the cell positions in ``m``, in all nine grids.
POSITION_CELLS: tuple[int, ...] = tuple(sum(m << (9 * g) for g in range(9)) for m in range(512))

RULES: dict[int, str] = {
    1: "X moves first and the players alternate",
    2: "a move goes to an empty cell of an inner grid",
    3: "the empty-cell counts of uncovered grids differ by at most one",
    4: "a played cell is no longer empty",
    5: "each move of a string goes to an uncovered grid not yet played in that string",
    6: "no two moves of a string use the same cell position",
    7: "three in a row covers an inner grid with a big marker; no more moves go there",
    8: "with no move keeping rules 5 and 6, rule 6 may be ignored (the string is abnormal)",
    9: "three big markers in a row win, and the game ends",
}


@dataclass(frozen=True)
class Illegal:
    """Why a move cannot be played: the rule it breaks and a sentence saying how."""

    rule: int
    reason: str


def illegal_move_error(number: int, move: int, illegal: Illegal) -> IllegalMoveError:
    """The error for a well-formed move the rules forbid: the move, its number in the record and the rule."""
    return IllegalMoveError(
        f"move {number} ({format_move(move)}) is illegal: {illegal.reason} "
        f"(rule {illegal.rule}: {RULES[illegal.rule]})",
        number=number,
        move=move,
        rule=illegal.rule,
        reason=illegal.reason,
    )


@dataclass(frozen=True)
class StringInfo:
    """A string of moves: its index (from 0), length, the moves played in it so far, abnormal or not."""

    index: int
    length: int
    played: tuple[int, ...]
    abnormal: bool
    first_move: int
    """Number (from 1) of the string's first move, played or to come."""

    @property
    def grids(self) -> tuple[int, ...]:
        """Inner grids (1..9) played in this string so far, in order of play."""
        return tuple(move // 9 + 1 for move in self.played)

    @property
    def positions(self) -> tuple[int, ...]:
        """Cell positions (1..9) used by this string so far, sorted, without repeats."""
        return tuple(sorted({move % 9 + 1 for move in self.played}))

    @property
    def remaining(self) -> int:
        """Moves still to come in this string."""
        return self.length - len(self.played)

    def to_dict(self) -> dict[str, object]:
        return {
            "number": self.index + 1,
            "index": self.index,
            "length": self.length,
            "played": [format_move(m) for m in self.played],
            "abnormal": self.abnormal,
        }


@dataclass(frozen=True)
class MegaSummary:
    """What ``oxo mega replay`` reports about a position: turn, winner, legal moves, covers, string."""

    to_move: Player | None
    winner: Outcome | None
    legal: tuple[int, ...]
    covered: tuple[tuple[int, Player], ...]
    string: StringInfo
    moves: int

    def to_dict(self) -> dict[str, object]:
        return record(
            self,
            legal=sorted(format_move(m) for m in self.legal),
            covered={str(grid): owner for grid, owner in self.covered},
            string=self.string.to_dict(),
        )


class MegaState(RecordedState):
    """A game of mega tic-tac-toe in progress: legal moves, why a move is illegal, play and take back.

    Moves are given as ``GC`` text or as indices 0..80 (see :mod:`oxo.mega.notation`). It implements
    :class:`oxo.game.GameState`: :meth:`play` returns a new state and leaves this one alone. For
    loops that play and take back many moves, :meth:`push` and :meth:`pop` change the state in
    place (as python-chess's ``Board`` does); :meth:`summary` is an immutable report.
    """

    #: Marks of the opponent cannot always be played where they would win (strings restrict moves),
    #: so an engine may not assume that a cell where the opponent would win must be blocked.
    blocks_are_forced = False

    __slots__ = (
        "_marks",
        "_covered",
        "_played",
        "_used",
        "_length",
        "_count",
        "_abnormal",
        "_index",
        "_start",
        "_winner",
        "_moves",
        "_abnormal_strings",
        "_history",
    )

    def __init__(self) -> None:
        self._marks = [0, 0]
        self._covered = [0, 0]
        self._played = 0
        self._used = 0
        self._length = 9
        self._count = 0
        self._abnormal = False
        self._index = 0
        self._start = 0
        self._winner: int | None = None
        self._moves: list[int] = []
        self._abnormal_strings: list[int] = []
        self._history: list[tuple[int, ...]] = []

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def replay(cls, record: str | Iterable[str | int]) -> MegaState:
        """The state after a game record, every move checked; raises :class:`IllegalMoveError`."""
        state = cls()
        for move in parse_record(record):
            state.push(move)
        return state

    @classmethod
    def new(cls) -> MegaState:
        """The empty board (the start of a game)."""
        return cls()

    def copy(self) -> MegaState:
        """An independent copy (history included, so it can be undone as far as this one)."""
        other = MegaState.__new__(MegaState)
        for name in self.__slots__:
            value = getattr(self, name)
            setattr(other, name, list(value) if isinstance(value, list) else value)
        return other

    # -- reading -----------------------------------------------------------------------------

    @property
    def moves(self) -> tuple[int, ...]:
        """Move indices played so far."""
        return tuple(self._moves)

    @property
    def player(self) -> int:
        """0 for X, 1 for O: whose turn it is by rule 1, game over or not."""
        return len(self._moves) & 1

    @property
    def to_move(self) -> Player | None:
        """``"x"`` or ``"o"``, or ``None`` once the game is over."""
        return None if self.is_over else NAMES[len(self._moves) & 1]

    @property
    def winner(self) -> Outcome | None:
        """``"x"`` or ``"o"`` after three big markers in a row, ``"draw"`` when no move is left."""
        if self._winner is not None:
            return NAMES[self._winner]
        return "draw" if self._legal_mask()[0] == 0 else None

    @property
    def is_over(self) -> bool:
        return self._winner is not None or self._legal_mask()[0] == 0

    @property
    def covered(self) -> dict[int, Player]:
        """Big markers: grid (1..9) → owner, in grid order."""
        return {g + 1: NAMES[p] for g in range(9) for p in (0, 1) if self._covered[p] >> g & 1}

    @property
    def abnormal_strings(self) -> tuple[int, ...]:
        """Indices of the strings that turned abnormal (rule 8) so far."""
        return tuple(self._abnormal_strings)

    @property
    def current_string(self) -> StringInfo:
        """The string the next move belongs to (the new, empty one right after a string ends)."""
        return StringInfo(
            self._index,
            self._length,
            tuple(self._moves[self._start :]),
            self._abnormal,
            self._start + 1,
        )

    def cell(self, grid: int, cell: int) -> Player | None:
        """The mark on cell ``cell`` (1..9) of inner grid ``grid`` (1..9), if any."""
        bit = 1 << (9 * (grid - 1) + cell - 1)
        return "x" if self._marks[0] & bit else "o" if self._marks[1] & bit else None

    def marks(self, player: Player) -> int:
        """The 81-bit bitboard of a player's marks."""
        return self._marks[NAMES.index(player)]

    def empty_counts(self) -> dict[int, int]:
        """Empty cells of each uncovered grid (1..9): rule 3 says they differ by at most one."""
        occupied = self._marks[0] | self._marks[1]
        covered = self._covered[0] | self._covered[1]
        return {
            g + 1: 9 - ((occupied >> (9 * g)) & 511).bit_count()
            for g in range(9)
            if not covered >> g & 1
        }

    def summary(self) -> MegaSummary:
        """An immutable report of this position (what ``oxo mega replay`` prints)."""
        covered = tuple((grid, owner) for grid, owner in self.covered.items())
        return MegaSummary(
            self.to_move,
            self.winner,
            tuple(self.legal_moves),
            covered,
            self.current_string,
            len(self._moves),
        )

    # -- the game interface (oxo.game.GameState) --------------------------------------------

    @property
    def outcome(self) -> Outcome | None:
        """``"x"``, ``"o"`` or ``"draw"`` once the game is over; ``None`` while it goes on."""
        return self.winner

    @property
    def key(self) -> tuple[int, ...]:
        """What decides the rest of the game (marks, big markers, the current string), for transposition tables."""
        return (*self._marks, *self._covered, self._played, self._used, self._length, self._count)

    def winning_moves(self, player: Player | None = None) -> tuple[int, ...]:
        """Moves that win at once: for the side to move (the default), its legal moves that complete
        three big markers in a row; for the other side, the cells where a mark would do so if the
        strings let it play there."""
        if self._winner is not None:
            return ()
        side = len(self._moves) & 1 if player is None else NAMES.index(player)
        covered = self._covered[0] | self._covered[1]
        if player is None or side == len(self._moves) & 1:
            candidates = self._legal_mask()[0]
        else:
            candidates = ~(self._marks[0] | self._marks[1]) & GRID_CELLS[~covered & 511]
        marks, own = self._marks[side], self._covered[side]
        wins: list[int] = []
        for g in range(9):
            if covered >> g & 1 or not WINS[own | 1 << g]:
                continue
            grid = (marks >> (9 * g)) & 511
            free = (candidates >> (9 * g)) & 511
            wins.extend(9 * g + c for c in range(9) if free >> c & 1 and WINS[grid | 1 << c])
        return tuple(wins)

    def compiled_search(
        self, seed: int | None = None, exploration: float | None = None, **options: Any
    ) -> CompiledSearch:
        """The compiled Monte Carlo tree search of this game (see :mod:`oxo.mega.search`):
        ``exploration`` is the UCT constant (default 0.7); ``options`` are the shared driver's
        (``fpu``, ``reuse``: see :class:`oxo.ninegrids.CompiledSearch`)."""
        from oxo.mega.search import CompiledSearch

        return CompiledSearch(seed, exploration, **options)

    def board_tokens(self, *, highlight: bool = True) -> list[list[Token]]:
        """The board as lines of (text, style) tokens (see :mod:`oxo.mega.render`); legal moves
        shown as cell digits if ``highlight``."""
        covered = self.covered
        return ninegrids.board_tokens(
            lambda move: self.cell(move // 9 + 1, move % 9 + 1),
            lambda grid: covered.get(grid + 1),
            set(self.legal_moves) if highlight else set(),
            self.moves[-1] if self.moves else None,
        )

    def text(self) -> str:
        """The board as text: grids with X and O, big markers, legal moves as their cell digit."""
        return ninegrids.board_text(self)

    @staticmethod
    def format_move(move: int) -> str:
        """A move index as ``GC`` text."""
        return format_move(move)

    @staticmethod
    def parse_move(text: str | int) -> int:
        """A move index from ``GC`` text (or an index); raises :class:`MoveSyntaxError` when malformed."""
        return parse_move(text)

    # -- legal moves -------------------------------------------------------------------------

    def _legal_mask(self) -> tuple[int, bool]:
        """(81-bit mask of legal moves, whether they come from rule 8)."""
        if self._winner is not None:
            return 0, False
        open_grids = ~(self._covered[0] | self._covered[1] | self._played) & 511
        base = ~(self._marks[0] | self._marks[1]) & GRID_CELLS[open_grids]
        normal = base & ~POSITION_CELLS[self._used]
        if normal or not base:
            return normal, False
        return base, True

    @property
    def legal_moves(self) -> tuple[int, ...]:
        """Every legal move index, ascending (empty once the game is over)."""
        return mask_cells(self._legal_mask()[0])

    def rule8_applies(self) -> bool:
        """True when no move keeps rules 5 and 6, so the next move ignores rule 6."""
        return self._legal_mask()[1]

    def why_illegal(self, move: str | int) -> Illegal | None:
        """``None`` when ``move`` is legal, otherwise the rule it breaks and how."""
        m = parse_move(move)
        g, c = divmod(m, 9)
        if self._winner is not None:
            return Illegal(
                9, f"the game is over: {NAMES[self._winner]} has three big markers in a row"
            )
        for p in (0, 1):
            if self._covered[p] >> g & 1:
                return Illegal(7, f"grid {g + 1} is covered by a big marker of {NAMES[p]}")
        if (self._marks[0] | self._marks[1]) >> m & 1:
            return Illegal(2, f"cell {c + 1} of grid {g + 1} is already taken")
        if self._played >> g & 1:
            earlier = next(
                i for i in range(self._start, len(self._moves)) if self._moves[i] // 9 == g
            )
            return Illegal(
                5,
                f"grid {g + 1} was already played in this string (string {self._index + 1}, move {earlier + 1})",
            )
        mask, rule8 = self._legal_mask()
        if self._used >> c & 1 and not rule8:
            earlier = next(
                i for i in range(self._start, len(self._moves)) if self._moves[i] % 9 == c
            )
            return Illegal(
                6,
                f"cell position {c + 1} was already used in this string (move {earlier + 1}) and a move on an unused position exists",
            )
        if not mask >> m & 1:  # pragma: no cover - the checks above are exhaustive
            raise AssertionError(f"move {format_move(m)} passed every check but is not legal")
        return None

    # -- play --------------------------------------------------------------------------------

    def play(self, move: str | int) -> MegaState:
        """The state after a legal move of the player to move (this state is unchanged)."""
        after = self.copy()
        after.push(move)
        return after

    def push(self, move: str | int) -> None:
        """Play a legal move for the player to move, in place; raises :class:`IllegalMoveError` otherwise."""
        m = parse_move(move)
        mask = self._legal_mask()[0]
        if not mask >> m & 1:
            illegal = self.why_illegal(m)
            if illegal is None:  # pragma: no cover
                raise AssertionError("a move outside the legal mask must break a rule")
            raise illegal_move_error(len(self._moves) + 1, m, illegal)
        self._apply(m)

    def _apply(self, m: int) -> None:
        p = len(self._moves) & 1
        self._history.append(
            (
                self._marks[p],
                self._covered[p],
                self._played,
                self._used,
                self._length,
                self._count,
                int(self._abnormal),
                self._index,
                self._start,
                -1 if self._winner is None else self._winner,
                len(self._abnormal_strings),
            )
        )
        g, c = divmod(m, 9)
        self._marks[p] |= 1 << m
        if WINS[(self._marks[p] >> (9 * g)) & 511]:
            self._covered[p] |= 1 << g
            if WINS[self._covered[p]]:
                self._winner = p
        if self._used >> c & 1 and not self._abnormal:
            self._abnormal = True
            self._abnormal_strings.append(self._index)
        self._played |= 1 << g
        self._used |= 1 << c
        self._count += 1
        self._moves.append(m)
        if self._count == self._length:
            self._index += 1
            self._start = len(self._moves)
            self._played = self._used = self._count = 0
            self._abnormal = False
            self._length = 9 - (self._covered[0] | self._covered[1]).bit_count()
        assert self._rule3_holds(), f"rule 3 broken after {self.record}"

    def pop(self) -> int:
        """Take back the last move, in place, and return it; raises :class:`MoveError` at the start."""
        if not self._moves:
            raise MoveError("there is no move to undo")
        m = self._moves.pop()
        p = len(self._moves) & 1
        (
            marks,
            covered,
            self._played,
            self._used,
            self._length,
            self._count,
            abnormal,
            self._index,
            self._start,
            winner,
            n_abnormal,
        ) = self._history.pop()
        self._marks[p] = marks
        self._covered[p] = covered
        self._abnormal = bool(abnormal)
        self._winner = None if winner < 0 else winner
        del self._abnormal_strings[n_abnormal:]
        return m

    # -- invariants --------------------------------------------------------------------------

    def _rule3_holds(self) -> bool:
        counts = self.empty_counts().values()
        return not counts or max(counts) - min(counts) <= 1

    def check_invariants(self) -> None:
        """Raise ``AssertionError`` unless every structural rule holds (used by the tests)."""
        x, o = self._marks
        cx, co = self._covered
        n = len(self._moves)
        assert x & o == 0 and (x | o) & ~FULL == 0, "marks overlap or leave the board"
        assert x.bit_count() == (n + 1) // 2 and o.bit_count() == n // 2, (
            "rule 1: X first, then alternate"
        )
        assert x | o == sum(1 << m for m in self._moves), "rule 4: each move fills its cell"
        assert cx & co == 0, "a grid has two big markers"
        for g in range(9):
            for p, cov in ((0, cx), (1, co)):
                line = WINS[(self._marks[p] >> (9 * g)) & 511]
                if cov >> g & 1:
                    assert line, f"rule 7: grid {g + 1} covered without a straight"
                elif line:
                    assert cx >> g & 1 or co >> g & 1, (
                        f"rule 7: grid {g + 1} has a straight but no big marker"
                    )
        assert not (WINS[cx] and WINS[co]), "both players have three big markers in a row"
        if self._winner is not None:
            assert WINS[self._covered[self._winner]], (
                "rule 9: a winner needs three big markers in a row"
            )
        else:
            assert not WINS[cx] and not WINS[co], (
                "rule 9: three big markers in a row must end the game"
            )
        assert self._rule3_holds(), (
            "rule 3: empty counts of uncovered grids differ by more than one"
        )
        string = self._moves[self._start :]
        assert len(string) == self._count < max(self._length, 1), (
            "a string is longer than its length"
        )
        grids = [m // 9 for m in string]
        assert len(set(grids)) == len(grids), "rule 5: a grid played twice in one string"
        positions = [m % 9 for m in string]
        if not self._abnormal:
            assert len(set(positions)) == len(positions), (
                "rule 6: a position used twice in a normal string"
            )
        assert self._played == sum(1 << g for g in grids) and self._used == sum(
            1 << c for c in set(positions)
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MegaState):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable (play works in place): not hashable

    def _key(self) -> tuple[object, ...]:
        return (
            tuple(self._marks),
            tuple(self._covered),
            self._played,
            self._used,
            self._length,
            self._count,
            self._abnormal,
            self._index,
            self._start,
            self._winner,
            tuple(self._moves),
            tuple(self._abnormal_strings),
        )

    def _repr_svg_(self) -> str:
        """The board as SVG, for notebooks (see :func:`oxo.render.svg.mega_svg`)."""
        from oxo.render.svg import mega_svg

        return mega_svg(self)
