"""Reports about one position, built once here and only formatted by the command line, the web page
and notebooks.

* :func:`position_status` (from :mod:`oxo.position`, where a position's rules live): the state a
  position is in (whose turn, won, full, or why no game reaches it) as a code and a sentence;
* :class:`SideValue`: a value with best play seen from one side ("win in 3 for X");
* :func:`analyze`: dead and open lines, winnability, and, where the exact solver reaches, the value
  and every move's value. On positions too big for the solver it still reports what is cheap to know
  (the lines, and whether anybody has a line left to complete), and the best answer oxo has about
  the value (:class:`Proven`): what oxo's proof book proves there (:mod:`oxo.book`), a forced win
  by fours and threes on gomoku boards (:mod:`oxo.tactics`, searched for the side to move and, as
  a threat, for its opponent), or else a proof search within a few seconds
  (:mod:`oxo.proofs.search`); only when none settles it is the value missing, and it says why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from oxo.analysis import can_win_by_lines, line_report, winnability
from oxo.book import open_board
from oxo.book.play import ProvenValue, book_answer, proven_value
from oxo.errors import OutOfReachError
from oxo.position import Player, Position, Status, position_status
from oxo.solve import Solution, Value, solve
from oxo.space import MAX_EMPTY, build_space, check_playable
from oxo.tactics import Tactics, forced_win

if TYPE_CHECKING:
    from oxo.analysis import LineReport, Winnability
    from oxo.geometry import Geometry

Relative = Literal["win", "draw", "loss"]


#: Symmetries named in a report's text before the rest are only counted (a 4D board has 384).
STABILIZER_NAMES = 8


@dataclass(frozen=True)
class PositionReport:
    """What ``oxo show`` says about a position: its state, complete lines and symmetry class, and
    what oxo's proof book proves about it (``proven``, None when no certificate covers it)."""

    position: Position
    status: Status
    proven: ProvenValue | None = None

    @property
    def stabilizer(self) -> tuple[str, ...]:
        """The names of the symmetries that leave the position unchanged."""
        return tuple(symmetry.name for symmetry in self.position.stabilizer)

    def to_dict(self) -> dict[str, object]:
        """The keys of ``oxo show --json``."""
        position = self.position
        return {
            **position.geometry.board_keys(),
            "position": position.to_status_string(),
            "letters": position.to_letters(rows=True),
            "ply": position.ply,
            "turn": position.to_move,
            "winner": position.winner,
            "status": self.status.text,
            "complete_lines": [
                {"player": player, "cells": list(cells)}
                for player, cells in position.complete_lines
            ],
            "canonical": position.canonical.to_status_string(),
            "stabilizer": list(self.stabilizer),
            "class_size": position.class_size,
            "proven": None if self.proven is None else self.proven.to_dict(),
        }

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text("\n".join([self.position.to_grid(), "", *self.text_lines()]))

    def _repr_svg_(self) -> str:
        return self.position._repr_svg_()

    def text_lines(self) -> list[str]:
        """The report as labelled lines for people (the grid not included)."""
        position = self.position
        complete = "; ".join(
            f"{player.upper()}: cells {', '.join(map(str, cells))}"
            for player, cells in position.complete_lines
        )
        symmetries = len(position.geometry.symmetries)
        names = self.stabilizer
        if len(names) == symmetries and symmetries > STABILIZER_NAMES:
            unchanged = f"all {symmetries} symmetries"
        elif len(names) > STABILIZER_NAMES:
            unchanged = (
                f"{', '.join(names[:STABILIZER_NAMES])} and {len(names) - STABILIZER_NAMES} more"
            )
        else:
            unchanged = ", ".join(names)
        out = [
            f"status:         {self.status.text}",
            f"complete lines: {complete or 'none'}",
            f"canonical form: {position.canonical.to_status_string()}",
            f"unchanged by:   {unchanged} (the symmetries that leave it as it is)",
            f"class size:     {position.class_size} of {symmetries} symmetries",
        ]
        if self.proven is not None:
            out.append(f"proved:         {self.proven.bound} ({self.proven.by})")
        return out


def describe(position: Position) -> PositionReport:
    """Everything ``oxo show`` says about a position, with what oxo's proof book proves about it
    (only from certificates whose index is built already: :func:`proven_value`)."""
    status = position_status(position)
    proven = proven_value(position, build=False) if status.code == "to_move" else None
    return PositionReport(position, status, proven)


# -- a value from one side ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SideValue:
    """A value with best play seen by ``side``: ``result`` win/draw/loss and ``plies`` until the game ends."""

    side: Player
    result: Relative
    plies: int

    @classmethod
    def of(cls, value: Value, side: Player) -> SideValue:
        """``value`` (who wins, plies to the end) as ``side`` sees it."""
        if value.winner is None:
            return cls(side, "draw", value.plies)
        return cls(side, "win" if value.winner == side else "loss", value.plies)

    def __str__(self) -> str:
        who = self.side.upper()
        if self.result == "draw":
            return f"draw for {who}" if self.plies else "drawn"
        if self.plies == 0:
            return f"{who} has {'won' if self.result == 'win' else 'lost'}"
        plies = f"{self.plies} {'ply' if self.plies == 1 else 'plies'}"
        return f"{self.result} in {plies} for {who}"

    def to_dict(self) -> dict[str, object]:
        return {"side": self.side, "result": self.result, "plies": self.plies, "text": str(self)}


# -- analysis ------------------------------------------------------------------------------------------

#: A value proved without the exact solver (who wins, not when): see :class:`oxo.book.play.ProvenValue`.
Proven = ProvenValue


@dataclass(frozen=True)
class MoveValue:
    """One move's value: the value of the position after it, absolute and for the side that plays it."""

    cell: int
    value: Value
    for_mover: SideValue

    def to_dict(self) -> dict[str, object]:
        return {
            "cell": self.cell,
            **self.value.to_dict(),
            "for_mover": self.for_mover.result,
        }


@dataclass(frozen=True)
class Analysis:
    """Everything ``oxo analyze`` says about a position.

    ``value`` and ``moves`` are None when the exact solver does not reach the position
    (``out_of_reach`` then says why). ``x_can_win``/``o_can_win`` say whether the side can still win in
    some continuation of legal play; beyond the solver's reach they are read from the lines
    (:func:`oxo.analysis.can_win_by_lines`) and None where that cannot tell. There, on gomoku
    boards, ``forced_win`` is the search for a forced win of the side to move (a win found is
    proven, and played out against every defence before it is reported) and ``threat`` the same
    search for its opponent, as if it were to move (what the mover must stop). ``proven`` is the
    best answer oxo has about the value there (who wins, not when): from its proof book, the forced
    win found, or a proof search; None when nothing settled it.
    """

    position: Position
    status: Status
    lines: LineReport
    x_can_win: bool | None
    o_can_win: bool | None
    value: Value | None
    moves: tuple[MoveValue, ...] | None
    best_moves: tuple[int, ...] = ()
    out_of_reach: str | None = None
    forced_win: Tactics | None = None
    threat: Tactics | None = None
    proven: Proven | None = None

    @property
    def winner(self) -> Player | None:
        """Who wins with best play, when that is known: from the value, or from a forced win found."""
        if self.value is not None:
            return self.value.winner
        if self.forced_win is not None and self.forced_win.found:
            return self.forced_win.attacker
        if self.proven is not None and self.proven.outcome in ("x", "o"):
            return self.proven.outcome  # type: ignore[return-value]  # "x" or "o": a player
        return None

    @property
    def outcome(self) -> str | None:
        """``"x"``, ``"o"`` or ``"draw"`` when the value with best play is known (exactly, or
        proved another way: :attr:`proven`), else None."""
        if self.value is not None:
            return self.value.outcome
        return None if self.proven is None else self.proven.outcome

    @property
    def winnable(self) -> bool | None:
        """Whether somebody can still win (None when that is not known)."""
        if self.x_can_win or self.o_can_win:
            return True
        return None if self.x_can_win is None or self.o_can_win is None else False

    @property
    def forced_draw(self) -> bool | None:
        """Nobody can win against best defence any more (None when the value is not known)."""
        if self.value is None:
            return None
        return self.value.winner is None and not self.position.is_terminal

    @property
    def for_mover(self) -> SideValue | None:
        """The value seen by the side to move ("win in 3 plies for X")."""
        mover = self.position.to_move
        return None if self.value is None or mover is None else SideValue.of(self.value, mover)

    def to_dict(self) -> dict[str, object]:
        """The keys of ``oxo analyze --json``."""
        position = self.position
        geometry = position.geometry
        return {
            **geometry.board_keys(),
            "position": position.to_status_string(),
            "ply": position.ply,
            "turn": position.to_move,
            "winner": position.winner,
            "status": self.status.text,
            **self.lines.to_dict(),
            "x_can_win": self.x_can_win,
            "o_can_win": self.o_can_win,
            "winnable": self.winnable,
            "value": self.outcome,
            "plies_to_end": None if self.value is None else self.value.plies,
            "value_text": str(self.value) if self.value is not None else self._proven_text(),
            "proven": None if self.proven is None else self.proven.to_dict(),
            "for_mover": None if self.for_mover is None else self.for_mover.to_dict(),
            "forced_draw": self.forced_draw,
            "best_moves": list(self.best_moves),
            "moves": None if self.moves is None else [move.to_dict() for move in self.moves],
            "out_of_reach": self.out_of_reach,
            "forced_win": None if self.forced_win is None else self.forced_win.to_dict(),
            "threat": None if self.threat is None else self.threat.to_dict(),
        }

    def _repr_html_(self) -> str:
        from oxo.render.html import analysis_html

        return analysis_html(self)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text("\n".join([self.position.to_grid(), "", *self.text_lines()]))

    def text_lines(self, *, why: bool = True) -> list[str]:
        """The analysis as labelled lines for people (the grid not included); without ``why`` an
        unknown value is just "not known" (the command line says why once, on its last line)."""
        out = self.line_text()
        position = self.position
        if self.value is None:
            out.extend(self.tactics_text())
            if self.proven is not None:
                import textwrap

                out.append(f"value:          {self._proven_text()}")
                out += textwrap.wrap(
                    self.proven.by,
                    79,
                    initial_indent="proved by:      ",
                    subsequent_indent=" " * 16,
                    break_on_hyphens=False,
                )
                if self.proven.outcome is None:
                    out.append(f"not known:      who wins{f': {self.out_of_reach}' if why else ''}")
                return out
            out.append(f"value:          not known{f': {self.out_of_reach}' if why else ''}")
            return out
        out.append(f"value:          {self.value}")
        if self.for_mover is not None:
            out.append(f"for the mover:  {self.for_mover}")
        if position.is_terminal:
            draw_text = "no: the game is over"
        else:
            draw_text = "yes: nobody can win against best defence" if self.forced_draw else "no"
        out.append(f"forced draw:    {draw_text}")
        if self.moves:
            out.append(f"best moves:     {' '.join(map(str, self.best_moves))}")
            for number, (value, cells) in enumerate(self.move_groups()):
                label = "each move:" if number == 0 else ""
                out.append(f"{label:<16}{value}: {' '.join(map(str, cells))}")
        return out

    def _proven_text(self) -> str | None:
        """The proven value in words (no distance to the end is known), or None."""
        if self.proven is None:
            return None
        if self.proven.outcome is None:
            return f"{self.proven.bound} (who wins is not known)"
        return self.proven.bound

    def move_groups(self) -> list[tuple[Value, tuple[int, ...]]]:
        """The moves grouped by their value, the best for the mover first, each value counted from
        this position as :attr:`value` is (the move itself is the first of its plies: "X wins in
        3 plies" after a move means the same as "X wins in 3 plies" here)."""
        groups: dict[Value, list[int]] = {}
        for move in self.moves or ():
            here = Value(move.value.winner, move.value.plies + 1)
            groups.setdefault(here, []).append(move.cell)
        rank = {"win": 0, "draw": 1, "loss": 2}
        mover = self.position.to_move

        def order(value: Value) -> tuple[int, int]:
            seen = SideValue.of(value, mover) if mover is not None else None
            if seen is None:
                return (1, 0)
            # a win: the sooner the better; a loss or a draw: the later the better
            return (rank[seen.result], value.plies if seen.result == "win" else -value.plies)

        return [(value, tuple(groups[value])) for value in sorted(groups, key=order)]

    def tactics_text(self) -> list[str]:
        """The forced wins found (or not) for the mover and its opponent, as labelled lines: the
        line in board coordinates (column letter, row from the bottom), then as cell IDs."""
        out = []
        for label, search in (("forced win:", self.forced_win), ("threat:", self.threat)):
            if search is None:
                continue
            text = search.summary()
            if search.attacker != self.position.to_move:
                text = f"if {search.attacker.upper()} were to move: {text}"
            if search.found:
                text += f": {' '.join(search.points)} (cells {' '.join(map(str, search.line))})"
            out.append(f"{label:<16}{text}")
        return out

    def line_text(self) -> list[str]:
        """The status, the lines and winnability as labelled lines for people (``oxo deadends POSITION``)."""
        position, lines = self.position, self.lines
        geometry = position.geometry
        out = [f"status:         {self.status.text}"]
        out.append(
            f"dead lines:     {len(lines.dead)} of {len(geometry.lines)}: {_lines(lines.dead, position)}"
        )
        out.append(f"open for X:     {_open(lines.open_for_x, position)}")
        out.append(f"open for O:     {_open(lines.open_for_o, position)}")
        empty = lines.empty
        if not empty:
            cells = "none"
        elif len(empty) == geometry.size:
            cells = f"all {len(empty)}"
        else:
            cells = _fitting(", ".join(map(str, empty)), f"{len(empty)} cells: ")
        out.append(f"empty cells:    {cells}")
        who = [name for name, can in (("X", self.x_can_win), ("O", self.o_can_win)) if can]
        unknown = [
            name for name, can in (("X", self.x_can_win), ("O", self.o_can_win)) if can is None
        ]
        winnable = "yes, by " + " or ".join(who) if who else "no" if not unknown else "not known"
        if who and unknown:
            winnable += f" (by {unknown[0]}: not known)"
        out.append(f"still winnable: {winnable} (if both players may move anywhere)")
        return out


def _cells(cells: tuple[int, ...], position: Position) -> str:
    return ("" if position.geometry.size <= 10 else "-").join(map(str, cells))


def _lines(lines: tuple[tuple[int, ...], ...], position: Position) -> str:
    return " ".join(_cells(line, position) for line in lines) or "none"


#: Room after a label ("open for X:     ") in an 80-column terminal.
TEXT_ROOM = 80 - 16


def _fitting(text: str, prefix: str, room: int = TEXT_ROOM) -> str:
    """``text`` when it fits in ``room`` columns, else ``prefix`` and as many of its words as fit,
    then "..."."""
    if len(text) <= room:
        return text
    kept = prefix
    for word in text.split(" "):
        if len(kept) + len(word) + 4 > room:
            break
        kept += word + " "
    return kept + "..."


def _open(lines: tuple[tuple[int, ...], ...], position: Position) -> str:
    return _fitting(_lines(lines, position), f"{len(lines)} lines, e.g. ")


def analyze(
    position: Position,
    *,
    solution: Solution | None = None,
    win: Winnability | None = None,
    max_empty: int = MAX_EMPTY,
    tactics_seconds: float | None = None,
    proof_seconds: float | None = None,
    book_build: bool | None = False,
) -> Analysis:
    """Analyse a position that can occur in a game (a :class:`~oxo.errors.PositionError` otherwise).

    With at most ``max_empty`` empty cells everything is exact: the state space that can follow the
    position is built once and shared by the solver and the winnability pass (a prebuilt whole-board
    ``solution`` and ``win`` containing the position may be passed instead). Beyond, the value is left
    out (``out_of_reach`` says why) and winnability is read from the lines alone; with
    ``tactics_seconds`` (the registry gives it on gomoku boards) forced wins by fours and threes are
    searched for the side to move and for its opponent within about that many seconds. Who wins
    there (``proven``) comes from oxo's proof book where a certificate covers the position, from a
    forced win found, or, with ``proof_seconds``, from a proof search of both sides' questions
    within about that many seconds (boards of at most 64 cells). The book reads the certificates
    whose index is built; ``book_build`` None builds the quick ones first (True: any), as
    :func:`oxo.book.play.load_player` does.
    """
    check_playable(position)
    lines = line_report(position)
    status = position_status(position)
    empty = len(position.empty_cells)
    if solution is None or position not in solution:
        if empty > max_empty:
            found, threat = _tactics(position, tactics_seconds)
            proven, note = _proven(position, found, proof_seconds, book_build)
            return Analysis(
                position,
                status,
                lines,
                can_win_by_lines(position, "x"),
                can_win_by_lines(position, "o"),
                None,
                None,
                (),
                f"{empty} empty cells are too many for the exact solver here (at most {max_empty}); "
                f"try a position with at most {max_empty} empty cells"
                + (
                    _empty_board_hint(position.geometry)
                    if empty == position.geometry.size and proven is None
                    else ""
                )
                + (
                    f", or a longer --time for the proof search ({proof_seconds:g} s now)"
                    if proof_seconds is not None and proven is None
                    else ""
                )
                + _here_note(note),
                found,
                threat,
                proven,
            )
        space = build_space(position)
        solution = solve(position, space=space)
        win = winnability(position, space=space)
    elif win is None or win.space is not solution.space:
        win = winnability(solution.root, space=solution.space)
    x_can, o_can = win.can_win(position)
    value = solution.value(position)
    mover = position.to_move
    moves = tuple(
        MoveValue(cell, move, SideValue.of(move, mover))
        for cell, move in solution.move_values(position).items()
        if mover is not None
    )
    best = solution.best_moves(position) if mover is not None else ()
    return Analysis(position, status, lines, x_can, o_can, value, moves, best)


def _proven(
    position: Position,
    found: Tactics | None,
    proof_seconds: float | None,
    book_build: bool | None = False,
) -> tuple[Proven | None, str | None]:
    """The best answer oxo has about who wins a position beyond the exact solver: the forced win
    found, what the proof book proves, or a proof search within ``proof_seconds`` (None: none);
    with it, when there is none, why a settled opening below the position gives it no value
    (:func:`~oxo.book.play.book_answer`)."""
    if found is not None and found.found:
        return Proven(
            found.attacker,
            f"{found.attacker.upper()} wins",
            "a forced win by fours and threes (shown above), played out against every defence",
        ), None
    book = book_answer(position, build=book_build)
    if book.value is not None and book.value.outcome is not None:
        return book.value, None
    searched = _proof_search(position, proof_seconds) or book.value
    return searched, book.note if searched is None else None


def _proof_search(position: Position, seconds: float | None) -> Proven | None:
    """Who wins ``position``, from the proof search (:mod:`oxo.proofs.search`) of the side to move
    and then of its opponent, within about ``seconds`` in all; None when not settled in time."""
    import time

    mover = position.to_move
    if seconds is None or mover is None or position.geometry.size > 64:
        return None
    from oxo.proofs.search import make_search

    started = time.perf_counter()
    nodes = 0
    opponent: Player = "o" if mover == "x" else "x"
    answers = []
    for attacker in (mover, opponent):
        left = seconds - (time.perf_counter() - started)
        if left <= 0:
            return None
        search = make_search(
            position.geometry, attacker, seconds=left, position=(position.x, position.o)
        )
        answer = search.solve(position.x, position.o)
        nodes += search.nodes
        if answer is None:
            return None
        answers.append(answer)
        if answer:
            break
    spent = time.perf_counter() - started
    by = f"a proof-number search ({nodes:,} positions in {spent:.1f} s)"
    if answers[-1]:
        winner = mover if len(answers) == 1 else opponent
        return Proven(winner, f"{winner.upper()} wins", by)
    return Proven("draw", "draw", by)


def _here_note(note: str | None) -> str:
    """``note`` after the reason a value is out of reach, or nothing."""
    return f"; {note}" if note else ""


def _empty_board_hint(geometry: Geometry) -> str:
    """What to try for the value of ``geometry``'s empty board: ``oxo solve``, which on a board
    oxo's proof run is settling says how far the run has got."""
    opened = open_board(geometry.spec)
    if opened is None:
        return (
            f", or 'oxo solve {geometry.spec}', which searches the empty board for up to 10 "
            "minutes (--time, --proof DIR to keep the work)"
        )
    board = opened.board_args
    known = ""
    if opened.settled:
        known = f" ({opened.settled:,} positions settled"
        if opened.openings:
            known += f", {len(opened.openings)} openings with certificates: 'oxo book {board}'"
        known += ")"
    return f", or 'oxo solve {board}', which says how far oxo's proof run of it has got{known}"


def _tactics(position: Position, seconds: float | None) -> tuple[Tactics | None, Tactics | None]:
    """The forced win of the side to move (two thirds of ``seconds``) and, when it has none, its
    opponent's as if it were to move (the rest); ``None`` for what was not searched."""
    mover = position.to_move
    if seconds is None or mover is None:
        return None, None
    found = forced_win(position, mover, seconds=seconds * 2 / 3)
    if found.found:
        return found, None
    opponent: Player = "o" if mover == "x" else "x"
    return found, forced_win(position, opponent, seconds=seconds / 3)


def require_value(analysis: Analysis) -> Analysis:
    """``analysis`` itself when its value is known; otherwise :class:`OutOfReachError` saying why."""
    if analysis.value is None:
        raise OutOfReachError(analysis.out_of_reach or "the value is out of reach")
    return analysis
