"""oxo's small public API: a board, a position, and one function per question.

Every function returns a result object with attributes and ``to_dict()`` (the keys of the command
line's ``--json``); the command line calls exactly these functions and only formats their results.

>>> import oxo
>>> oxo.Board("3x3").count().total_positions
5478
>>> oxo.analyze(oxo.Position.parse("xo./.x./..o")).value.outcome
'x'
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from oxo.errors import MoveError, OutOfReachError, OxoError
from oxo.geometry import Geometry, mask_cells
from oxo.position import Position
from oxo.registry import Game, classic_board, game_of, looks_like_board, refuse_other_games

# The modules behind each question load when it is first asked, so that ``import oxo.api`` (and
# with it every command of the command line) stays cheap.
if TYPE_CHECKING:
    from oxo.analysis import DeadEndReport
    from oxo.book import BookEntry
    from oxo.book.play import ProvenValue
    from oxo.counting import CountTable
    from oxo.counting.drops import DropCounts
    from oxo.engines.base import SearchReport
    from oxo.gravity.board import GravityBoard
    from oxo.gravity.counting import GravityCounts
    from oxo.legality import Legality
    from oxo.proofs.solver import ProofResult, RunOptions
    from oxo.reports import Analysis, PositionReport
    from oxo.solve import SolveTable
    from oxo.uttt.counting import UtttCounts

#: Boards (or positions) with at most this many empty cells are solved exactly (as ``oxo.space.MAX_EMPTY``).
MAX_EMPTY = 16

__all__ = [
    "Board",
    "MoveResult",
    "Solved",
    "analyze",
    "board_of",
    "check",
    "count",
    "deadends",
    "describe",
    "move",
    "open_boards",
    "prepare_opening",
    "prepare_proof",
    "proof",
    "proved_boards",
    "solve",
]

Progress = Callable[[float], None]


def _refuse_other_games(text: str) -> None:
    """Another game's name where a classic board or position is expected (``oxo.Board("connect4")``)
    is refused by name, instead of a parser's complaint about its letters."""
    refuse_other_games(text, "this function of oxo")


class Board:
    """A board: its shape and how many marks in a row win (``Board("4x4", k=3)``, ``Board("3x3x3")``).

    Boards compare equal when their shape and k are equal. The questions about a whole board are
    methods: :meth:`count`, :meth:`solve`, :meth:`analyze` (of the empty board), :meth:`deadends`.
    """

    __slots__ = ("geometry",)
    geometry: Geometry

    def __init__(self, spec: str | Geometry | Board | Game = "3x3", k: int | None = None) -> None:
        if isinstance(spec, Board):
            spec = spec.geometry
        if isinstance(spec, Game):  # found already (oxo.find_game): a classic board's, else refused
            spec = _classic_geometry(spec)
        if isinstance(spec, Geometry):
            geometry = spec if k is None or k == spec.k else replace(spec, k=k)
        elif isinstance(spec, str):  # parsed here, once; another game's name is refused by name
            geometry = classic_board(spec, k, "this function of oxo")
        else:
            raise OxoError(f"a board is written like '3x3' or '4x4,k=3', got {spec!r}")
        object.__setattr__(self, "geometry", geometry)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Board cannot be changed")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and other.geometry == self.geometry

    def __hash__(self) -> int:
        return hash(self.geometry)

    def __repr__(self) -> str:
        return f"Board({self.spec!r})"

    @property
    def spec(self) -> str:
        """The board as written on the command line: ``"4x4,k=3"`` (k only when not the default)."""
        return self.geometry.spec

    @property
    def shape(self) -> tuple[int, ...]:
        return self.geometry.shape

    @property
    def k(self) -> int:
        return self.geometry.k

    @property
    def cells(self) -> int:
        return self.geometry.size

    @property
    def lines(self) -> tuple[tuple[int, ...], ...]:
        """Every line of k cells, as cell IDs."""
        return tuple(mask_cells(line) for line in self.geometry.lines)

    def empty(self) -> Position:
        """The position before the first move."""
        return Position.empty(self.geometry)

    def position(self, text: str) -> Position:
        """A position of this board from its text (``"x...o...."``, ``"xo./.../..."``, ``"120000000"``)."""
        return Position.from_string(text, self.geometry)

    def count(self, method: str = "auto", *, on_progress: Progress | None = None) -> CountTable:
        """Reachable positions per ply and their classes up to symmetry (see :func:`count`)."""
        from oxo.counting import count_positions

        return count_positions(self.geometry, method, on_progress=on_progress)  # type: ignore[arg-type]  # checked inside

    def solve(
        self,
        *,
        seconds: float | None = 600.0,
        proof_dir: str | Path | None = None,
        on_progress: Progress | None = None,
        again: bool = False,
    ) -> Solved:
        """The value with perfect play (see :func:`solve`)."""
        return solve(
            self, seconds=seconds, proof_dir=proof_dir, on_progress=on_progress, again=again
        )

    def analyze(self) -> Analysis:
        """The empty board's analysis (see :func:`analyze`)."""
        return analyze(self)

    def deadends(self, *, examples: int | None = 3) -> DeadEndReport:
        """Dead lines against exact winnability over every reachable position (see :func:`deadends`)."""
        return deadends(self, examples=examples)

    def _repr_svg_(self) -> str:
        from oxo.render.svg import classic_svg

        return classic_svg(self.empty(), labels=True, cell=_cell_size(self.geometry))


def _cell_size(geometry: Geometry) -> float:
    return max(14.0, min(48.0, 320.0 / max(geometry.shape[-2:])))


def board_of(board: Board | Geometry | Game | str, k: int | None = None) -> Geometry:
    """The geometry of a board given as a :class:`Board`, a geometry, its game
    (:func:`oxo.find_game`) or its text (parsed here, once)."""
    return Board(board, k).geometry


def _classic_geometry(game: Game) -> Geometry:
    """The geometry of a classic board's game; another game is refused by name."""
    from oxo.registry import refuse_game

    refuse_game(game, "this function of oxo")
    return game.geometry  # type: ignore[attr-defined, no-any-return]  # a classic board's game


def position_of(position: Position | str, board: Board | Geometry | str | None = None) -> Position:
    """A position given as a :class:`Position` or its text (the board guessed from the text unless given)."""
    if isinstance(position, Position):
        return position
    if not isinstance(position, str):
        raise OxoError(f"a position is written like 'xo./.x./..o', got {position!r}")
    _refuse_other_games(position)
    return Position.from_string(position, None if board is None else board_of(board))


# -- one function per question --------------------------------------------------------------------------


def count(
    board: Board | Geometry | GravityBoard | Game | str,
    method: str = "auto",
    *,
    plies: int | None = None,
    executor: str = "auto",
    workers: int | None = None,
    scheduler: str | None = None,
    on_progress: Progress | None = None,
) -> CountTable | GravityCounts | UtttCounts | DropCounts:
    """Reachable positions per ply and their classes up to symmetry (the keys of ``oxo count --json``).

    Besides the classic boards: a gravity board (``"connect4"``, ``"6x7,k=4,gravity"`` or a
    :class:`~oxo.gravity.board.GravityBoard`; ``"scorefour"``, ``"4x4x4,gravity"`` or a geometry
    with gravity), counted in memory up to ply ``plies`` (every ply by default, on boards of at
    most 20 cells), and ``"uttt"``, ultimate tic-tac-toe, up to ply
    ``plies`` (which it needs). ``plies`` stops the classic boards' count only with the frontier
    method (``oxo.counting.frontier``); here it is refused for them.
    """
    from oxo.gravity.board import GravityBoard
    from oxo.registry import find_game

    if isinstance(board, str | Game):
        game = find_game(board) if isinstance(board, str) else board  # parsed once
        game.require("counter")
        if game.family == "uttt":
            from oxo.uttt.counting import count_positions as count_uttt

            if plies is None:
                raise OutOfReachError(
                    "ultimate tic-tac-toe cannot be counted to its end: give plies=N to stop after ply N"
                )
            return count_uttt(plies, on_progress=on_progress)
        if game.family == "gravity":
            board = game.board  # type: ignore[attr-defined]  # a gravity game has a board
        else:
            board = game.geometry  # type: ignore[attr-defined]  # a board game has a geometry
    if isinstance(board, Geometry) and board.gravity:
        from oxo.counting import drops

        if plies is None and board.size > drops.WHOLE_GAME_CELLS:
            raise OutOfReachError(
                f"{board.spec} has {board.size} cells: every ply is counted only on gravity "
                f"boards of at most {drops.WHOLE_GAME_CELLS} cells; give plies=N to stop after "
                "ply N"
            )
        return drops.count_positions(board, plies)
    if isinstance(board, GravityBoard):
        from oxo.gravity.counting import WHOLE_GAME_CELLS
        from oxo.gravity.counting import count_positions as count_gravity

        if plies is None and board.size > WHOLE_GAME_CELLS:
            raise OutOfReachError(
                f"{board.spec} has {board.size} cells: every ply is counted only on gravity "
                f"boards of at most {WHOLE_GAME_CELLS} cells; give plies=N to stop after ply N"
            )
        return count_gravity(board, plies, on_progress=on_progress)
    if plies is not None:
        raise OxoError(
            "plies=N stops the count of gravity boards and uttt; a classic board's count takes "
            "every ply (oxo.counting.frontier.count_frontier stops early)"
        )
    from oxo.counting import count_positions

    return count_positions(
        board_of(board),
        method,  # type: ignore[arg-type]  # checked against METHODS inside, with a clear error
        executor=executor,  # type: ignore[arg-type]  # checked against EXECUTORS inside
        workers=workers,
        scheduler=scheduler,
        on_progress=on_progress,
    )


def describe(position: Position | str) -> PositionReport:
    """What ``oxo show`` says about a position: its state, complete lines and symmetry class."""
    from oxo.reports import describe as describe_position

    return describe_position(position_of(position))


def check(position: Position | str) -> Legality:
    """Whether a position can occur in a real game and, if not, every reason why (``oxo check``)."""
    from oxo.legality import check_position

    return check_position(position_of(position))


#: Seconds ``analyze`` spends by default on forced wins by fours and threes on gomoku boards.
TACTICS_SECONDS = 3.0


def analyze(
    position: Position | Board | Geometry | Game | str, *, seconds: float | None = None
) -> Analysis:
    """Dead and open lines, winnability, value and every move's value (``oxo analyze``).

    A board (or its text, such as ``"5x5"``) means its empty position. Where the exact solver does
    not reach (more than 16 empty cells), the exact value is None and ``out_of_reach`` says why; the
    lines are reported all the same, and who wins is given where oxo can prove it (``proven``):
    from its proof book, on gomoku boards (k = 5) from forced wins by fours and threes searched for
    both sides within ``seconds`` (default 3; ``forced_win`` and ``threat``), on other boards of up
    to 64 cells from a proof search within ``seconds`` (default 3).
    """
    from oxo.reports import analyze as analyze_position

    pos = _position_or_empty(position)
    gomoku = game_of(pos).gomoku
    budget = TACTICS_SECONDS if seconds is None else seconds
    if gomoku:
        return analyze_position(pos, tactics_seconds=budget, book_build=None)
    return analyze_position(pos, proof_seconds=budget, book_build=None)


def deadends(board: Board | Geometry | Game | str, *, examples: int | None = 3) -> DeadEndReport:
    """Every reachable position still in play by dead lines, empty cells and exact winnability, with the
    five questions about dead lines answered (``oxo deadends BOARD``; boards of at most 16 cells)."""
    geometry = board_of(board)
    check_space_fits(geometry)
    from oxo.analysis import deadend_report, winnability

    return deadend_report(geometry, examples=examples, win=winnability(geometry))


def check_space_fits(geometry: Geometry) -> None:
    """Raise :class:`~oxo.errors.OutOfReachError` when a board has more cells than a whole state space holds."""
    if geometry.size > MAX_EMPTY:
        raise OutOfReachError(
            f"{geometry.spec} has {geometry.size} cells; tables over every reachable position are built for "
            f"boards of at most {MAX_EMPTY} cells. Try 'oxo analyze POSITION' for one position with at most "
            f"{MAX_EMPTY} empty cells"
        )


def _position_or_empty(value: Position | Board | Geometry | Game | str) -> Position:
    if isinstance(value, Position):
        return value
    if isinstance(value, Board):
        return value.empty()
    if isinstance(value, Geometry):
        return Position.empty(value)
    if isinstance(value, Game):
        return Position.empty(board_of(value))
    if isinstance(value, str):
        return Position.empty(board_of(value)) if looks_like_board(value) else position_of(value)
    raise OxoError(f"give a position such as 'xo./.x./..o' or a board such as '3x3', got {value!r}")


# -- solving ------------------------------------------------------------------------------------------

SolveMethod = Literal["retrograde", "proof"]
RETROGRADE = "retrograde analysis of every reachable position"


@dataclass(frozen=True)
class Solved:
    """The value of a board with perfect play, how it was found, and the certificates written.

    ``value`` is ``"x"``, ``"o"``, ``"draw"`` or ``"unknown"`` (the proof search ran out of time).
    Boards of at most 16 cells come with ``table`` (values of every reachable position, per ply);
    larger ones with ``proof`` (the proof search's questions and cost), or, when the value was
    read from oxo's proof book, with neither: ``book`` is then the book's row (how and when it was
    proved, its certificates). ``book`` is the row on the small boards too, where there is one.
    """

    board: Geometry
    value: str
    plies: int | None
    method: str
    nodes: int
    seconds: float
    proofs: tuple[str, ...]
    table: SolveTable | None = None
    proof: ProofResult | None = None
    book: BookEntry | None = None

    @property
    def known(self) -> bool:
        return self.value != "unknown"

    @property
    def from_book(self) -> bool:
        """Whether the value was read from oxo's proof book (nothing was searched now)."""
        return self.table is None and self.proof is None

    def to_dict(self) -> dict[str, object]:
        """The keys of ``oxo solve --json`` (and ``book``: the proof book's row, when there is one)."""
        book = {} if self.book is None else {"book": self.book.to_dict()}
        if self.table is not None:
            return {
                **self.table.to_dict(),
                "method": self.method,
                "nodes": self.nodes,
                "seconds": round(self.seconds, 3),
                "proofs": list(self.proofs),
                **book,
            }
        if self.proof is not None:
            return {**self.proof.to_dict(), **book}
        return {
            **self.board.board_keys(),
            "value": self.value,
            "plies_to_end": self.plies,
            "method": self.method,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "proofs": list(self.proofs),
            "searches": [],
            "from_book": True,
            **book,
        }

    def _repr_html_(self) -> str:
        from oxo.render.html import solved_html

        return solved_html(self.board, self.value, self.table, self.proof, self.book)


def solve(
    board: Board | Geometry | Game | str,
    *,
    seconds: float | None = 600.0,
    proof_dir: str | Path | None = None,
    on_progress: Progress | None = None,
    on_search: Callable[[str, int, int, float], None] | None = None,
    run: RunOptions | None = None,
    on_status: Callable[[str], None] | None = None,
    again: bool = False,
) -> Solved:
    """The value of a board's empty position with perfect play (``oxo solve``).

    Boards of at most 16 cells are solved completely (every reachable position, per-ply table).
    A larger board that oxo has proved is answered from its proof book at once (:mod:`oxo.book`:
    how and when it was proved, the certificates), unless ``again`` or ``proof_dir`` asks for the
    proof itself; other boards by a proof search limited to ``seconds`` (value ``"unknown"`` past
    it). With ``proof_dir``, the strategies that prove the value are written there as
    certificates, by a proof run kept in that folder (:mod:`oxo.proofs.runs`, with the ``run``
    options, reporting to ``on_status``): the same call on the same folder continues a run that
    was stopped.
    """
    from oxo.book import book_entry
    from oxo.proofs.solver import method_of, prove_board
    from oxo.solve import solve as solve_space
    from oxo.space import build_space

    geometry = board_of(board)
    entry = book_entry(geometry.spec)
    if entry is not None and geometry.size > MAX_EMPTY and not again and proof_dir is None:
        from oxo.book import find_certificate

        found = [find_certificate(certificate) for certificate in entry.certificates]
        return Solved(
            geometry,
            entry.value,
            entry.ending_ply,
            entry.method,
            entry.positions,
            entry.seconds,
            tuple(
                str(path) if path is not None else certificate.file
                for path, certificate in zip(found, entry.certificates, strict=True)
            ),
            book=entry,
        )
    if geometry.size <= MAX_EMPTY and not geometry.gravity:  # the table knows no gravity
        started = time.perf_counter()
        space = build_space(geometry, on_progress=on_progress)
        table = solve_space(geometry, space=space).ply_table()
        elapsed = time.perf_counter() - started
        proofs: tuple[str, ...] = ()
        if proof_dir is not None:
            result = prove_board(
                geometry, seconds=None, proof_dir=proof_dir, run=run, on_status=on_status
            )
            if result.value != table.value.outcome:
                raise AssertionError("the proof search and the per-ply tables disagree")
            proofs = tuple(result.proofs)
        return Solved(
            geometry,
            table.value.outcome,
            table.value.plies,
            RETROGRADE,
            space.total,
            elapsed,
            proofs,
            table=table,
            book=entry,
        )
    result = prove_board(
        geometry,
        seconds=seconds,
        proof_dir=proof_dir,
        on_progress=on_search,
        run=run,
        on_status=on_status,
    )
    return Solved(
        geometry,
        result.value,
        None,
        method_of(geometry),
        result.nodes,
        result.seconds,
        tuple(result.proofs),
        proof=result,
        book=entry,
    )


# -- the computer's move ------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoveResult:
    """The computer's move in a position, at a level, and what its search found; ``proven`` is
    what oxo's proof book proves about the position when the search itself did not settle its
    value (a board oxo has proved: ``"draw"`` on the empty 8x8 with k=5, or ``X does not lose``
    where only X's certificate covers it)."""

    position: Position
    level: str
    move: int
    report: SearchReport
    proven: ProvenValue | None = None

    @property
    def value(self) -> str | None:
        """Who wins with best play from the position (``"x"``, ``"o"``, ``"draw"``) when proven, else None."""
        if self.report.value is not None:
            return self.report.value
        return None if self.proven is None else self.proven.outcome

    @property
    def value_words(self) -> str:
        """The value in words, or what is proved of it (``X does not lose``), or ``not proven``."""
        words = {"x": "X wins", "o": "O wins", "draw": "draw"}
        if self.value is not None:
            return words[self.value]
        if self.proven is not None:
            return f"{self.proven.bound} (who wins is not known)"
        return "not proven"

    @property
    def after(self) -> Position:
        """The position after the move."""
        return self.position.play(self.move)

    def to_dict(self) -> dict[str, object]:
        """The keys of ``oxo move --json`` (``proven`` only where the proof book adds to it)."""
        geometry = self.position.geometry
        out: dict[str, object] = {
            **geometry.board_keys(),
            "position": self.position.to_status_string(),
            "level": self.level,
            "move": self.move,
            **({"column": self.position.format_move(self.move)} if geometry.gravity else {}),
            "value": self.value,
            "seconds": round(self.report.seconds, 4),
        }
        if self.proven is not None:
            out["proven"] = self.proven.to_dict()
        return out

    def _repr_svg_(self) -> str:
        from oxo.render.svg import classic_svg

        return classic_svg(self.after, last=self.move, labels=True)


def move(
    position: Position | str,
    level: str = "best",
    *,
    seconds: float | None = None,
    iterations: int | None = None,
    depth: int | None = None,
    seed: int | None = None,
) -> MoveResult:
    """The computer's move at ``level`` (``random``, ``easy``, ``medium``, ``hard``, ``perfect``, ``best``)."""
    from oxo.space import check_playable

    pos = position_of(position)
    check_playable(pos)
    if pos.is_terminal:
        over = "draw" if pos.winner is None else pos.winner.upper() + " has won"
        raise MoveError(f"position {pos.to_status_string()} is finished ({over}): there is no move")
    engine = game_of(pos).make_engine(
        level, pos, seconds=seconds, iterations=iterations, depth=depth, seed=seed
    )
    cell = engine.choose(pos)
    report = engine.last
    if report is None:
        raise AssertionError("an engine reports on every move it chooses")
    proven = None
    if report.value is None:
        from oxo.book.play import proven_value

        proven = proven_value(pos, build=False)  # only indexes that are there: never a wait
    return MoveResult(pos, level, cell, report, proven)


# -- oxo's proof book, for a page: what is proved, and the level that plays the proof -------------


def _book_name(board: Board | Geometry | Game | str, k: int | None, gravity: bool) -> str:
    """The game's name as the book keys it (``"8x8,k=5"``, ``"6x7,k=4,gravity"``)."""
    if isinstance(board, Game) and k is None and not gravity:
        return board.name
    if isinstance(board, str):
        from oxo.registry import find_game

        return find_game(board, k, gravity).name
    return board_of(board, k).spec


def proved_boards() -> list[dict[str, object]]:
    """Every board oxo has proved, in the book's order (small boards first), each as
    :func:`proof` gives it: for a page's menu of proved boards. Cheap: nothing is hashed or built."""
    from oxo.book import proved_boards as rows
    from oxo.book.play import proof_summary

    return [summary for row in rows() if (summary := proof_summary(row.board)) is not None]


def open_boards() -> list[dict[str, object]]:
    """The boards no one has published the value of, that oxo's long runs are proving
    (4x4x4x4, Score Four, 9x8 with k=5), each with how far its run has got as of its last
    session (:class:`oxo.book.OpenBoard` as a dict: what is published, sessions, date, positions,
    per question the positions settled and the jobs open, the command that takes it further)."""
    from oxo.book import open_boards as rows

    return [row.to_dict() for row in rows()]


def proof(
    board: Board | Geometry | Game | str, k: int | None = None, *, gravity: bool = False
) -> dict[str, object] | None:
    """What oxo has proved about ``board`` (``"qubic"``, ``"8x8"`` with ``k=5``, ``"connect4"``),
    or None where it has proved nothing: ``value`` (``"x"``, ``"o"``, ``"draw"``) and
    ``value_words``, ``ending_ply``, the ``published`` value and its ``source``, the ``command``
    that proves it again, and ``sides``: per side with a certificate, what it proves (``claim``),
    its ``file``, ``path`` here (None when absent) and ``sha256``, and whether the level
    ``perfect`` plays from it now (``ready``) or what makes it ready (``make``, about
    ``make_seconds``: :func:`prepare_proof`). Play it with :func:`move` at level ``"perfect"``."""
    from oxo.book.play import proof_summary

    return proof_summary(_book_name(board, k, gravity))


def prepare_proof(
    board: Board | Geometry | Game | str,
    k: int | None = None,
    *,
    gravity: bool = False,
    side: str | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    on_status: Callable[[str], None] | None = None,
) -> list[str]:
    """Make what the level ``perfect`` needs to play ``board``'s proof (``side``'s certificate
    only, if given): each certificate's file (rebuilt from its kept run where that is how it is
    made: Qubic's), compared with the book's SHA-256, and its index in oxo's cache. Long for the
    big ones (minutes; about an hour for Qubic), once per machine. Returns the sides now ready.
    Raises :class:`~oxo.errors.OutOfReachError` (``CertificateUnavailableError``) when a file
    cannot be had or does not match the book, saying why."""
    from oxo.book import book_entry
    from oxo.book.play import FORMATS, prepare

    name = _book_name(board, k, gravity)
    entry = book_entry(name)
    if entry is None:
        raise OxoError(f"oxo has proved nothing about {name}: 'oxo book' lists what it has")
    ready: list[str] = []
    for certificate in entry.certificates:
        if certificate.format not in FORMATS or (side is not None and certificate.side != side):
            continue
        prepare(entry, certificate, on_progress=on_progress, on_status=on_status)
        ready.append(certificate.side)
    return ready


def prepare_opening(
    board: Board | Geometry | Game | str,
    opening: str,
    k: int | None = None,
    *,
    on_progress: Callable[[int, int], None] | None = None,
) -> str:
    """Make what the level ``perfect`` needs to play from the certificate of ``opening`` (its
    moves' cells joined by ``-``: ``0-3``), a position oxo's run of ``board``, a board no one has
    proved, has settled (``oxo book 4x4x4x4`` lists them): the file compared with the book's
    SHA-256, and its index in oxo's cache (minutes on 4x4x4x4, once per machine). Returns the
    certificate's file name. Raises :class:`~oxo.errors.OxoError` when the board has no such
    opening, and ``CertificateUnavailableError`` when the file cannot be had or does not match."""
    from oxo.book import board_with_openings
    from oxo.book.play import prepare_opening as prepare

    opened = board_with_openings(_book_name(board, k, False))
    chosen = opened.settled_opening(opening)
    prepare(opened, chosen, on_progress=on_progress)
    return chosen.certificate.file


__all__ += ["PositionReport", "check_space_fits", "looks_like_board", "position_of"]
