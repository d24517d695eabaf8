"""Playing from oxo's proofs: the certificate's move wherever a certificate covers the position.

One small class per certificate format gives the move of the certificate's side in a position of
its board, or None where the certificate does not cover it: :class:`StrategyPlayer` for
``oxo-strategy/1`` (:mod:`oxo.proofs.certificate`), from its index (:mod:`oxo.book.index`).
A certificate *with rules* (its header names them: win at once, block the opponent's only threat,
a forced chain of threats; its entries leave out the moves a rule gives) is played by the same
class: the rule's move first (``oxo.proofs.rules.rule_move``), the index after; its index is built
by the same walk (the checker tells the recorder the stored moves it used; the header kept in the
index classes positions as that checker did). Another format plugs in as another class with the
same :meth:`~StrategyPlayer.move`, registered in :data:`FORMATS` under the name the book gives it.

How :class:`StrategyPlayer` finds a move, side to move, in this order:

1. a line it completes at once (the checker plays it too, without an entry); with rules, then
   the move the certificate's rules give;
2. the index: the move the checker's walk played in the position's class;
3. (``no-loss``) when every line holds a mark of the side, the opponent can make no line: any move
   keeps the guarantee;
4. a *pairing*: below a position where the certificate answers the opponent by pairs of cells,
   the side answers each opponent move in a pair with the other cell. A position carries no
   history, so the pairing is found two ways: the player remembers the pairing it reached during
   a game (the quick way), and otherwise looks for a position of the index's pairings whose marks
   are all on the board now (under the board's symmetries), the deepest first. Either way the
   move is played only when it is proved safe: after it, every line without a mark of the side
   holds a whole pair of empty cells, exactly what the checker accepts at a pairing.

Nothing else: a position the certificate's side never lets happen is *off the certificate*, and
the caller says so and plays another way (the level ``hard``).

:class:`BoardBook` is what the engines get (through :mod:`oxo.registry`): the book's play on one
board, both sides, with the files checked and the indexes loaded on first use (on a board no one
has proved, :class:`OpeningsBook`: the same from the certificates of the positions its run has
settled); and
:func:`proven_value` tells ``analyze`` and ``show`` what the certificates prove about a position.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from oxo.book import (
    BookCertificate,
    BookEntry,
    BookOpening,
    OpenBoard,
    book_entry,
    checked_certificate,
    find_certificate,
    openings_row,
)
from oxo.book.index import StrategyIndex, build_index, estimate_seconds, load_index
from oxo.engines.base import BookMove
from oxo.errors import CertificateUnavailableError
from oxo.game import GameState, Outcome
from oxo.geometry import Geometry, Symmetry, mask_cells
from oxo.phrases import counted, listing
from oxo.position import Position

if TYPE_CHECKING:
    from oxo.book.index import BuildProgress

#: An index whose build is estimated under this many seconds is built when first needed, even
#: without being asked (the small certificates); a longer one only when asked (``oxo book BOARD --index``,
#: the level perfect on the command line), so that a move or a page never waits minutes unasked.
AUTO_BUILD_SECONDS = 60.0


def quick_to_index(certificate: BookCertificate) -> bool:
    """Whether ``certificate``'s index counts as quick to build (its estimate within
    :data:`AUTO_BUILD_SECONDS`), so that it is built unasked when first needed. The page's
    thinking processes are given the server's limit with each move (``oxo.web.thinking.Task``)."""
    return estimate_seconds(certificate) <= AUTO_BUILD_SECONDS


#: How a player found its move (:attr:`CertificatePlayer.how`), in words for reports.
HOW_WORDS = {
    "win at once": "a line completed at once",
    "certificate": "the certificate's move",
    "rule": "the move a rule of the certificate gives (a block or a forced chain)",
    "pairing": "the other cell of a pair of the certificate's pairing",
    "any move": "any move: no line is left to the opponent",
}


def _rule_move(header: object, x: int, o: int) -> int | None:
    """The move the rules of a certificate with rules give (``oxo.proofs.rules.rule_move``: win at
    once, block the opponent's only threat, a forced chain of threats), None where none applies.
    Looked up by name: only a certificate whose header names rules comes here, and only an oxo
    that reads such headers makes one."""
    import importlib

    rules = importlib.import_module("oxo.proofs.rules")
    cell = rules.rule_move(header, x, o)
    return None if cell is None else int(cell)


class CertificatePlayer(Protocol):
    """A player of one certificate format: the move of the certificate's side in a position of its
    board, or None where the certificate does not cover the position. ``how`` says how the last
    move was found (``"win at once"``, ``"certificate"``, ``"pairing"``, ``"any move"``)."""

    side: str
    how: str

    def move(self, position: Position) -> int | None: ...

    def covers(self, position: Position) -> bool: ...


class StrategyPlayer:
    """Plays an ``oxo-strategy/1`` certificate from its index (see the module's text)."""

    format = "oxo-strategy/1"

    def __init__(self, index: StrategyIndex, geometry: Geometry, side: str, guarantee: str) -> None:
        from oxo.proofs.certificate import StrategyHeader, position_class

        self.index = index
        self.geometry = geometry
        self.side = side
        self.guarantee = guarantee
        self.no_loss = guarantee == "no-loss"
        written = index.meta.get("header")
        header = (
            StrategyHeader.from_dict(written)
            if written is not None
            else StrategyHeader(geometry.shape, geometry.k, side, guarantee)  # type: ignore[arg-type]  # side and guarantee: from a checked certificate
        )
        self._classify = position_class(header)
        #: The header, when its certificate names rules (win, block, forced chains) that give the
        #: side's moves its entries leave out; None for a certificate without rules.
        self.rules_header: object | None = (
            header if getattr(getattr(header, "rules", None), "any", False) else None
        )
        self.size = geometry.size
        self.lines = geometry.lines
        self.symmetries: tuple[Symmetry, ...] = geometry.symmetries
        self.how = ""
        #: The pairing reached during the game: (X marks, O marks) of the position where it
        #: started and its pairs, in the board's own orientation.
        self.remembered: tuple[int, int, tuple[tuple[int, int], ...]] | None = None

    # -- the moves -----------------------------------------------------------------------------

    def _masks(self, position: Position) -> tuple[int, int]:
        return (position.x, position.o) if self.side == "x" else (position.o, position.x)

    def _to_move(self, position: Position) -> bool:
        return (position.x.bit_count() == position.o.bit_count()) == (self.side == "x")

    def move(self, position: Position) -> int | None:
        """The side's move in ``position`` (the side to move), or None off the certificate."""
        return self._move(position, remember=True)

    def _move(self, position: Position, remember: bool) -> int | None:
        if position.is_terminal or not self._to_move(position):
            return None
        own, other = self._masks(position)
        win = self._win_at_once(own, other)
        if win is not None:
            self.how = "win at once"
            return win
        x, o = position.x, position.o
        if self.rules_header is not None:
            ruled = _rule_move(self.rules_header, x, o)
            if ruled is not None:
                self.how = "rule"
                return ruled
        key, symmetry = self._classify(x, o)
        found = self.index.move_of(key >> self.size, key & ((1 << self.size) - 1))
        if found is not None:
            cell = symmetry.inverse_perm[found]
            self.how = "certificate"
            if remember:
                self._remember_pairing_after(position, cell)
            return cell
        if self.no_loss and all(line & own for line in self.lines):
            self.how = "any move"
            return mask_cells(self.geometry.full_mask & ~(x | o))[0]
        if self.no_loss:
            for pairs in self._pairings_below(x, o):
                paired = self._pairing_move(own, other, pairs)
                if paired is not None:
                    self.how = "pairing"
                    if remember:
                        self.remembered = (x, o, pairs)
                    return paired
        return None

    def _win_at_once(self, own: int, other: int) -> int | None:
        for line in self.lines:
            if not line & other:
                rest = line & ~own
                if rest and rest & (rest - 1) == 0:
                    return rest.bit_length() - 1
        return None

    def _remember_pairing_after(self, position: Position, cell: int) -> None:
        """After the side's move ``cell``: when the position it leads to is one where the
        certificate answers by pairs, remember them (in the board's own orientation)."""
        if not self.no_loss or not len(self.index.pairs_x):
            return
        after = position.play(cell)
        key, symmetry = self._classify(after.x, after.o)
        pairs = self.index.pairing_of(key >> self.size, key & ((1 << self.size) - 1))
        if pairs is not None:
            back = symmetry.inverse_perm
            self.remembered = (after.x, after.o, tuple((back[a], back[b]) for a, b in pairs))

    def _pairings_below(self, x: int, o: int) -> list[tuple[tuple[int, int], ...]]:
        """Pairings of positions whose marks are all on the board (x, o) now: the one remembered
        first, then the index's, the deepest first; each in the board's own orientation."""
        found: list[tuple[tuple[int, int], ...]] = []
        if self.remembered is not None:
            rx, ro, pairs = self.remembered
            if rx & ~x == 0 and ro & ~o == 0:
                found.append(pairs)
        if not len(self.index.pairs_x):
            return found
        candidates: list[tuple[int, int, Symmetry]] = []
        for symmetry in self.symmetries:
            # The position carried by the symmetry; a pairing position of the index below it.
            for number in self.index.pairings_within(
                symmetry.apply_mask(x), symmetry.apply_mask(o)
            ):
                candidates.append((self.index.pairing_marks(number), number, symmetry))
        candidates.sort(key=lambda item: -item[0])
        for _, number, symmetry in candidates:
            back = symmetry.inverse_perm
            found.append(tuple((back[a], back[b]) for a, b in self.index.pairs_at(number)))
        return found

    def _pairing_move(self, own: int, other: int, pairs: tuple[tuple[int, int], ...]) -> int | None:
        """A move after which the pairs still hold (every line without a mark of the side holds
        a whole pair of empty cells): the partner of the opponent's cell first; None if none."""
        occupied = own | other
        empty = self.geometry.full_mask & ~occupied
        intact = [(a, b) for a, b in pairs if empty >> a & 1 and empty >> b & 1]
        partners = [
            b if other >> a & 1 else a
            for a, b in pairs
            if (other >> a & 1 and empty >> b & 1) or (other >> b & 1 and empty >> a & 1)
        ]
        paired = 0
        for a, b in intact:
            paired |= 1 << a | 1 << b
        order = partners + [c for c in mask_cells(empty & ~paired) if c not in partners]
        order += mask_cells(paired)
        for cell in order:
            mine = own | 1 << cell
            kept = [(1 << a | 1 << b) for a, b in intact if cell not in (a, b)]
            if self._pairs_hold(mine, kept):
                return cell
        return None

    def _pairs_hold(self, own: int, pair_masks: list[int]) -> bool:
        for line in self.lines:
            if line & own:
                continue
            if not any(mask & line == mask for mask in pair_masks):
                return False
        return True

    # -- what is covered -----------------------------------------------------------------------

    def covers(self, position: Position) -> bool:
        """Whether the certificate's guarantee holds from ``position`` (either side to move): the
        side's move is known, or every reply of the opponent leads to such a position."""
        if position.is_terminal:
            return position.winner == self.side or (position.winner is None and self.no_loss)
        if self._to_move(position):
            return self._move(position, remember=False) is not None
        own, other = self._masks(position)
        if self.no_loss and all(line & own for line in self.lines):
            return True
        if self.no_loss:
            empty = self.geometry.full_mask & ~(own | other)
            for pairs in self._pairings_below(position.x, position.o):
                whole = [1 << a | 1 << b for a, b in pairs if empty >> a & 1 and empty >> b & 1]
                if self._pairs_hold(own, whole):
                    return True
        for reply in position.empty_cells:
            child = position.play(reply)
            if child.is_terminal:
                if not (child.winner == self.side or (child.winner is None and self.no_loss)):
                    return False
                continue
            if self._move(child, remember=False) is None:
                return False
        return True


#: The player class of each certificate format.
FORMATS: dict[str, Callable[[StrategyIndex, Geometry, str, str], CertificatePlayer]] = {
    StrategyPlayer.format: StrategyPlayer,
}


# -- a board's book, for the engines ------------------------------------------------------------------


@dataclass
class _Side:
    """One side's certificate on a board: its player once loaded, or why it cannot be."""

    certificate: BookCertificate
    player: CertificatePlayer | None = None
    problem: str | None = None
    #: Whether the index was missing when the player could not load (it is looked for again).
    retry: bool = False


def certificate_geometry(entry: BookEntry, certificate: BookCertificate) -> Geometry:
    """The board a certificate of ``entry`` is written for (turned a quarter when ``turned``)."""
    shape = tuple(int(side) for side in certificate.board.split("x"))
    return Geometry(shape, entry.k)


def load_player(
    entry: BookEntry,
    certificate: BookCertificate,
    *,
    build: bool | None = None,
    on_progress: BuildProgress | None = None,
) -> CertificatePlayer:
    """The player of one certificate of ``entry``: the file found and its SHA-256 compared, the
    index loaded, or built when ``build`` (None: when it is quick, :data:`AUTO_BUILD_SECONDS`).
    Raises :class:`~oxo.errors.CertificateUnavailableError` saying why it cannot be played from."""
    return _load_player(
        certificate,
        certificate_geometry(entry, certificate),
        f"oxo book {entry.board_args} --index",
        build=build,
        on_progress=on_progress,
    )


def _load_player(
    certificate: BookCertificate,
    geometry: Geometry,
    command: str,
    *,
    build: bool | None = None,
    on_progress: BuildProgress | None = None,
) -> CertificatePlayer:
    """:func:`load_player` of a certificate written for ``geometry``; ``command`` builds its
    index (said when it is not built and may not be built now)."""
    from oxo.book import missing_message

    make = FORMATS.get(certificate.format)
    if make is None:
        raise CertificateUnavailableError(
            f"oxo does not play certificates of the format {certificate.format}"
        )
    index = load_index(certificate)
    if index is None:
        if build is None:
            build = quick_to_index(certificate)
        if not build:
            checked_certificate(certificate)  # a missing or altered file says so first
            raise CertificateUnavailableError(index_missing_message(command, certificate))
        index = build_index(certificate, on_progress=on_progress)
    else:
        try:
            checked_certificate(certificate)
        except CertificateUnavailableError as error:
            # The index was built from the right file, but the file must be there and whole.
            raise CertificateUnavailableError(str(error) or missing_message(certificate)) from None
    return make(index, geometry, certificate.side, certificate.guarantee)


def index_missing_message(command: str, certificate: BookCertificate) -> str:
    """Why a certificate is not played from yet: its index is not built; the ``command`` that
    builds it."""
    minutes = estimate_seconds(certificate) / 60
    took = f"about {minutes:.0f} min" if minutes >= 1.5 else "under 2 min"
    return (
        f"{certificate.side.upper()}'s certificate {certificate.file} needs an index, built once "
        f"({took}): {command}"
    )


class BoardBook:
    """The proof book's play on one board, for one engine (the registry gives every engine its
    own: the player remembers the pairing of its game). :meth:`advise` is what the engines ask."""

    def __init__(self, entry: BookEntry, build: bool | None = None) -> None:
        self.entry = entry
        self.build = build
        self._sides: dict[str, _Side] = {}
        self._turn: Symmetry | None = None
        board_shape = entry.shape
        for certificate in entry.certificates:
            if certificate.format not in FORMATS or certificate.side in self._sides:
                continue
            self._sides[certificate.side] = _Side(certificate)
            if certificate.turned and self._turn is None:
                from oxo.proofs.orient import transposition

                self._turn = transposition(Geometry(board_shape, entry.k))

    @property
    def summary(self) -> str:
        """What the book proves here, for the description of a level."""
        sides = (
            "both sides" if len(self._sides) == 2 else listing(side.upper() for side in self._sides)
        )
        return f"oxo's proof of this board ({self.entry.value_words}; certificates for {sides})"

    def player(self, side: str) -> CertificatePlayer | None:
        """The side's player, loaded on first use (None when it cannot be: :meth:`problem` says why)."""
        known = self._sides.get(side)
        if known is None:
            return None
        if known.player is None and known.problem is not None and known.retry:
            # The index was missing: built since (``oxo book --index``, the page), it is used
            # from the next move on.
            if load_index(known.certificate) is not None:
                known.problem = None
        if known.player is None and known.problem is None:
            try:
                known.player = load_player(self.entry, known.certificate, build=self.build)
            except CertificateUnavailableError as error:
                known.problem = str(error)
                known.retry = load_index(known.certificate) is None
        return known.player

    def problem(self, side: str) -> str | None:
        """Why the side cannot play from the book here (None when it can, or has not tried)."""
        known = self._sides.get(side)
        if known is None:
            return (
                f"oxo's proof of {self.entry.board} has no certificate for {side.upper()} "
                f"({self.entry.value_words} with best play)"
            )
        return known.problem

    def _inside(self, state: Position) -> Position:
        """The position on the certificate's board (turned a quarter when the certificate is)."""
        if self._turn is None:
            return state
        shape = tuple(reversed(state.geometry.shape))
        turned = Geometry(shape, state.geometry.k)
        return Position(turned, self._turn.apply_mask(state.x), self._turn.apply_mask(state.o))

    def advise(self, state: GameState) -> BookMove:
        """The certificate's move for the side to move, or why there is none (see :class:`BookMove`)."""
        started = time.perf_counter()
        if not isinstance(state, Position) or state.to_move is None:
            return BookMove(None, note="the proof book plays classic boards in play")
        side = state.to_move
        player = self.player(side)
        if player is None:
            return BookMove(None, note=self.problem(side) or "no certificate")
        cell = player.move(self._inside(state))
        certificate = self._sides[side].certificate
        if cell is None:
            return BookMove(
                None,
                note=f"the position is off {side.upper()}'s certificate (moves of "
                f"{side.upper()} outside it led here)",
            )
        if self._turn is not None:
            cell = self._turn.inverse_perm[cell]
        value: Outcome | None = side if certificate.guarantee == "win" else None
        return BookMove(
            cell,
            value=value,
            note=f"{certificate.claim}; {HOW_WORDS.get(player.how, player.how)}",
            seconds=time.perf_counter() - started,
        )


@dataclass(frozen=True)
class OpeningFrame:
    """A settled opening found under a position (:meth:`OpeningsBook.frames_under`): ``frame``,
    one of the board's :attr:`~oxo.geometry.Geometry.line_frames`, carries the certificate's
    cells to the position's, so that the position carried back (:meth:`inside`) holds the
    opening or an image of it under the board's own symmetries, the classes the certificate's
    index knows. The identity, but for a position that holds only an inside-out image of the
    opening (the same game with the cells renamed: the center for a corner on 4x4x4x4)."""

    opening: BookOpening
    frame: Symmetry

    def inside(self, position: Position) -> Position:
        """The position in the certificate's cells (itself in the identity frame)."""
        if self.frame.is_identity:
            return position
        back = self.frame.inverse
        return Position(position.geometry, back.apply_mask(position.x), back.apply_mask(position.o))

    @property
    def renamed_words(self) -> str:
        """``with the cells renamed by inside-out(1,0,3,2), a map that carries every line onto a
        line``, or nothing in the identity frame: for notes."""
        if self.frame.is_identity:
            return ""
        return f"with the cells renamed by {self.frame.name}, a map that carries every line onto a line"


@functools.lru_cache(maxsize=8)
def _opening_images(
    board: OpenBoard | BookEntry, geometry: Geometry
) -> tuple[tuple[BookOpening, frozenset[tuple[int, int]]], ...]:
    """Each settled opening of ``board`` with the images of its marks (X's, O's) under the
    board's symmetries: made once, looked at for every position the book is asked about."""
    from oxo.proofs.certificate import status_masks

    found = []
    for opening in board.openings:
        x, o = status_masks(opening.position)
        images = frozenset((s.apply_mask(x), s.apply_mask(o)) for s in geometry.symmetries)
        found.append((opening, images))
    return tuple(found)


class OpeningsBook:
    """The proof book's play on a board no one has proved yet, for one engine: from the
    certificates of the positions a few moves in that oxo's run of it has settled
    (:attr:`oxo.book.OpenBoard.openings`). In a position whose marks include an opening's (or an
    image of it under a map that keeps lines lines: the board's symmetries, and the inside-out
    maps, in the frame that carries it back, :class:`OpeningFrame`), the opening's side plays
    the move of its certificate where the certificate's walk reached the position; anywhere
    else there is no move (:meth:`advise` says why). Boards without gravity only (a gravity
    certificate is played by the board's own solver)."""

    def __init__(self, board: OpenBoard | BookEntry, build: bool | None = None) -> None:
        self.board = board
        self.build = build
        self.geometry = Geometry(board.shape, board.k, board.gravity)
        self._players: dict[str, CertificatePlayer] = {}
        self._problems: dict[str, str] = {}

    @property
    def summary(self) -> str:
        """What the book proves here, for the description of a level."""
        count = len(self.board.openings)
        return (
            f"oxo's certificates of the {counted(count, 'opening')} its run of "
            "this board has settled"
        )

    @property
    def index_seconds(self) -> float:
        """About how long indexing every settled opening's certificate takes here."""
        return sum(estimate_seconds(o.certificate) for o in self.board.openings)

    def index_command(self, opening: BookOpening) -> str:
        """The command that indexes ``opening``'s certificate, and the one that indexes every
        settled opening's, with how long that takes."""
        return (
            f"oxo book {self.board.board_args} --index --opening {opening.name} (every settled "
            f"opening's: without --opening, about {self.index_seconds / 60:,.0f} min in all)"
        )

    def renamed_example(self) -> tuple[BookOpening, tuple[int, ...]] | None:
        """A settled opening and its moves under an inside-out map that carries its first cell
        to a cell no rotation or reflection reaches (X on 85 and O on 86 for X on 0 and O on 3
        on 4x4x4x4): the same game with the cells renamed, which the book plays and answers too.
        None on a board without inside-out maps, or without settled openings."""
        if not self.board.openings or len(self.geometry.line_frames) < 2:
            return None
        opening = self.board.openings[0]
        first = opening.moves[0]
        alike = {symmetry.perm[first] for symmetry in self.geometry.symmetries}
        frames = self.geometry.line_frames[1:]
        frame = next((f for f in frames if f.perm[first] not in alike), frames[0])
        return opening, tuple(frame.perm[cell] for cell in opening.moves)

    def frames_under(self, position: Position) -> list[OpeningFrame]:
        """The settled openings whose marks, carried by a map that keeps lines lines, are all
        among the position's: each with the frame that carries the position back to the
        certificate's cells (:class:`OpeningFrame`; one per frame of
        :attr:`~oxo.geometry.Geometry.line_frames` in which it is found), the board's own
        orientation first."""
        found = []
        openings = _opening_images(self.board, self.geometry)
        for frame in self.geometry.line_frames:
            back = frame.inverse
            x, o = back.apply_mask(position.x), back.apply_mask(position.o)
            for opening, alike in openings:
                if any(ix & ~x == 0 and io & ~o == 0 for ix, io in alike):
                    found.append(OpeningFrame(opening, frame))
        return found

    def openings_under(self, position: Position) -> list[BookOpening]:
        """The settled openings whose marks (or an image's, under a map that keeps lines lines)
        are all among the position's, each once."""
        found: list[BookOpening] = []
        for match in self.frames_under(position):
            if match.opening not in found:
                found.append(match.opening)
        return found

    def player(self, opening: BookOpening) -> CertificatePlayer | None:
        """The player of the opening's certificate, loaded on first use (None when it cannot
        be: :meth:`problem` says why; a missing index is looked for again each time)."""
        file = opening.certificate.file
        if file not in self._players:
            try:
                self._players[file] = _load_player(
                    opening.certificate,
                    self.geometry,
                    self.index_command(opening),
                    build=self.build,
                )
                self._problems.pop(file, None)
            except CertificateUnavailableError as error:
                self._problems[file] = str(error)
                return None
        return self._players[file]

    def answer(self, position: Position) -> BookAnswer:
        """What the settled openings prove about ``position`` in one look for the openings under
        it: the value of the opening it is (or an image of one), or of an opening below it whose
        certificate's walk reaches it; failing that, why there is none, in words (the opening's
        certificate needs its index, with the command that builds it, or its strategy does not
        lead here: what is known is the opening's value, not the position's)."""
        marks = (position.x | position.o).bit_count()
        matches = self.frames_under(position)
        for match in matches:
            if marks <= len(match.opening.moves):  # the opening itself
                return BookAnswer(self._value(match), None)
        if self.board.gravity:  # a gravity certificate is played by the board's own solver
            return BookAnswer(None, None)
        problem, stray = None, None
        for match in matches:
            player = self.player(match.opening)
            if player is None:
                problem = problem or self.problem(match.opening)
            elif player.covers(match.inside(position)):
                return BookAnswer(self._value(match), None)
            else:
                stray = stray or match
        if problem is not None or stray is None:
            return BookAnswer(None, problem)
        opening = stray.opening
        return BookAnswer(
            None,
            f"oxo's run settled {moves_words(opening.moves)}"
            f"{_here(stray.renamed_words, ' (here {})')} ({opening.value_words}), but this "
            f"position is off the strategy of its certificate {opening.certificate.file} "
            f"({opening.side.upper()} moved elsewhere)",
        )

    def unknown_note(self, position: Position) -> str | None:
        """Why a position below a settled opening has no value from it (:meth:`answer`); None
        when no settled opening is below the position, or its value is known."""
        return self.answer(position).note

    def _value(self, match: OpeningFrame) -> ProvenValue:
        """The value of ``match``'s opening, said of a position at or below it."""
        opening = match.opening
        outcome = opening.side if opening.guarantee == "win" else None
        by = (
            f"the certificate {opening.certificate.file} of oxo's run of the board, which is not "
            f"settled yet ('oxo book {self.board.board_args}')"
            f"{_here(match.renamed_words, '; here {}')}"
        )
        return ProvenValue(outcome, opening.value_words, by)

    def problem(self, opening: BookOpening) -> str | None:
        """Why the opening's certificate cannot be played from (None when it can, or untried)."""
        return self._problems.get(opening.certificate.file)

    def advise(self, state: GameState) -> BookMove:
        """The move of a settled opening's certificate for the side to move, or why there is none."""
        started = time.perf_counter()
        if not isinstance(state, Position) or state.to_move is None:
            return BookMove(None, note="the proof book plays classic boards in play")
        side = state.to_move
        matches = [m for m in self.frames_under(state) if m.opening.side == side]
        if not matches:
            return BookMove(
                None,
                note=f"no position oxo's run has settled for {side.upper()} leads here "
                f"(settled: {'; '.join(self.board.openings_words()) or 'none yet'})",
            )
        problems = []
        for match in matches:
            opening = match.opening
            player = self.player(opening)
            if player is None:
                problems.append(self.problem(opening) or "")
                continue
            cell = player.move(match.inside(state))
            if cell is not None:
                return BookMove(
                    match.frame.perm[cell],
                    value=side if opening.guarantee == "win" else None,
                    note=f"{opening.value_words} after {moves_words(opening.moves)}"
                    f"{_here(match.renamed_words, ' (here {})')}, by the certificate "
                    f"{opening.certificate.file}; "
                    f"{HOW_WORDS.get(player.how, player.how)}",
                    seconds=time.perf_counter() - started,
                )
        if problems:
            return BookMove(None, note=problems[0])
        return BookMove(
            None,
            note=f"the position is off {side.upper()}'s certificates of the openings it follows "
            f"(moves of {side.upper()} outside them led here)",
        )


def _here(words: str, form: str) -> str:
    """``form`` around ``words`` when there are any, else nothing."""
    return form.format(words) if words else ""


def moves_words(moves: tuple[int, ...]) -> str:
    """``X on 0 and O on 3``: an opening's moves, X first."""
    return listing(f"{'XO'[number % 2]} on {cell}" for number, cell in enumerate(moves))


def board_book(name: str, build: bool | None = None) -> BoardBook | OpeningsBook | None:
    """A fresh :class:`BoardBook` of the game named ``name``, or None when oxo has not proved it
    or its certificates are of a kind no player plays (Connect Four's, played by its own solver).
    On a board no one has proved whose run has settled openings, or a proved one whose own
    certificate is not here but whose run settled openings first (4x4x4x4: :func:`from_openings`),
    an :class:`OpeningsBook` of them."""
    entry = book_entry(name)
    if entry is None or from_openings(entry):
        opened = openings_row(name)
        if opened is None or opened.gravity:
            return None
        return OpeningsBook(opened, build)
    if not entry.playable_sides:
        return None
    return BoardBook(entry, build)


def from_openings(entry: BookEntry) -> bool:
    """Whether a proved board is played and answered from the openings its run settled first:
    it has some, and none of its own certificates is on this machine (too big to ship, and not
    rebuilt here yet: once it is, the board's certificate answers everywhere)."""
    return bool(entry.openings) and all(find_certificate(c) is None for c in entry.certificates)


# -- what the certificates prove about a position --------------------------------------------------


@dataclass(frozen=True)
class ProvenValue:
    """What oxo's proof book proves about a position: ``outcome`` (``"x"``, ``"o"``, ``"draw"``)
    when that is settled, else None with ``bound`` saying what is (``"X does not lose"``); ``by``
    says how, in words."""

    outcome: str | None
    bound: str
    by: str

    def to_dict(self) -> dict[str, object]:
        return {"outcome": self.outcome, "bound": self.bound, "by": self.by}


@dataclass(frozen=True)
class BookAnswer:
    """What the proof book says about a position: its ``value`` (None when no certificate gives
    one) and, when a settled opening of a board being proved is below the position but gives it
    no value, a ``note`` saying why (:meth:`OpeningsBook.answer`)."""

    value: ProvenValue | None
    note: str | None = None


def book_answer(position: Position, *, build: bool | None = None) -> BookAnswer:
    """What the book's certificates prove about ``position``, or why they prove nothing though a
    settled opening is below it, in one look (``build`` as in :func:`load_player`: whether an
    index not built yet is built now). On a board no one has proved, or a proved one played from
    its openings (:func:`from_openings`), a position a few moves in that oxo's run has settled
    (one of the row's openings, or an image of one) has its certificate's value, and so has a
    position below one that the certificate covers; the empty board of a proved one, its value."""
    if position.is_terminal:
        return BookAnswer(None)
    entry = book_entry(position.geometry.spec)
    if entry is None or from_openings(entry):
        board = openings_row(position.geometry.spec)
        if board is None:
            return BookAnswer(None)
        if entry is not None and position.x == 0 and position.o == 0:
            return BookAnswer(_book_value(entry, position, build))  # the board's own value
        return OpeningsBook(board, build).answer(position)
    return BookAnswer(_book_value(entry, position, build))


def unknown_note(position: Position, *, build: bool | None = False) -> str | None:
    """Why oxo's certificates of a board being proved give ``position`` no value though a settled
    opening is below it (:meth:`OpeningsBook.answer`), or None."""
    return book_answer(position, build=build).note


def proven_value(position: Position, *, build: bool | None = None) -> ProvenValue | None:
    """What the book's certificates prove about ``position`` (None when no certificate covers it,
    or its index is not built and not quick to build: ``build`` as in :func:`load_player`);
    :func:`book_answer` says why when a settled opening is below it."""
    return book_answer(position, build=build).value


def _book_value(entry: BookEntry, position: Position, build: bool | None) -> ProvenValue | None:
    """What the certificates of a proved board's book entry prove about ``position``."""
    words = entry.value_words
    geometry = position.geometry
    board = geometry.spec_shape + ("" if geometry.k == geometry.default_k else f" --k {geometry.k}")
    if position.x == 0 and position.o == 0:
        return ProvenValue(entry.value, words, f"oxo's proof book ('oxo book {board}' shows how)")
    book = BoardBook(entry, build)
    claims: list[BookCertificate] = []
    for side in ("x", "o"):
        player = book.player(side)
        if player is not None and player.covers(book._inside(position)):
            claims.append(book._sides[side].certificate)
    if not claims:
        return None
    files = listing(f"{c.side.upper()}'s certificate {c.file}" for c in claims)
    by = f"{files} in oxo's proof book ('oxo book {board}')"
    wins = [c for c in claims if c.guarantee == "win"]
    if wins:
        side = wins[0].side
        return ProvenValue(side, f"{side.upper()} wins", by)
    if len(claims) == 2:
        return ProvenValue("draw", "draw", by)
    return ProvenValue(None, claims[0].claim, by)


# -- what is here ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CertificateHere:
    """A certificate of the book on this machine: where its file is (``path``, None when it is not
    here; not yet compared with the book's SHA-256), whether its index is built, and about how long
    building it takes (``index_seconds``). Connect Four's certificates are played by its own
    solver: they need no index (``indexed`` is None)."""

    certificate: BookCertificate
    path: str | None
    indexed: bool | None
    index_seconds: float

    def to_dict(self) -> dict[str, object]:
        return {
            "file": self.certificate.file,
            "path": self.path,
            "indexed": self.indexed,
            "index_seconds": round(self.index_seconds, 1),
        }


def certificates_here(entry: BookEntry) -> tuple[CertificateHere, ...]:
    """Each certificate of ``entry`` as it is on this machine (cheap: nothing is read or hashed)."""
    from oxo.book import find_certificate

    out = []
    for certificate in entry.certificates:
        path = find_certificate(certificate)
        playable = certificate.format in FORMATS
        out.append(
            CertificateHere(
                certificate,
                None if path is None else str(path),
                (load_index(certificate) is not None) if playable else None,
                estimate_seconds(certificate) if playable else 0.0,
            )
        )
    return tuple(out)


def prepare(
    entry: BookEntry,
    certificate: BookCertificate,
    *,
    on_progress: BuildProgress | None = None,
    on_status: Callable[[str], None] | None = None,
) -> CertificatePlayer:
    """Everything perfect play from ``certificate`` needs, made now: the file (rebuilt from its
    kept run when that is how it is made, :func:`~oxo.book.rebuild_certificate`), compared with the
    book's SHA-256, and its index (:func:`~oxo.book.index.build_index`); then its player."""
    from oxo.book import find_certificate, rebuild_certificate

    if find_certificate(certificate) is None and certificate.run is not None:
        rebuild_certificate(certificate, on_status)
    return load_player(entry, certificate, build=True, on_progress=on_progress)


def prepare_opening(
    board: OpenBoard | BookEntry, opening: BookOpening, *, on_progress: BuildProgress | None = None
) -> CertificatePlayer:
    """The player of a settled opening's certificate (:class:`OpeningsBook`), its index built now
    when it is not built yet (the file compared with the book's SHA-256 first)."""
    geometry = Geometry(board.shape, board.k, board.gravity)
    # built now: no command to name
    return _load_player(opening.certificate, geometry, "", build=True, on_progress=on_progress)


def proof_summary(name: str) -> dict[str, object] | None:
    """Everything a page or a notebook needs to offer play against oxo's proof of the game named
    ``name`` (None when oxo has not proved it): the value and where it is published, the command
    that proves it again, and for each side with a certificate: what it proves, the file (where it
    is here, None when absent), whether perfect plays from it now (``ready``: the file is here and
    its index built or quick to build) and otherwise what makes it ready (``make``, with an
    estimate). On a gravity board (Connect Four) perfect plays the exact solver, which needs no
    index: each side is ready. Cheap: nothing is hashed or built."""
    entry = book_entry(name)
    if entry is None:
        return None
    sides: dict[str, object] = {}
    for here in certificates_here(entry):
        certificate = here.certificate
        if certificate.side in sides:  # a side is played from its first certificate only
            continue
        if certificate.format not in FORMATS:
            if entry.gravity:  # Connect Four: perfect plays its exact solver, always ready
                sides[certificate.side] = {
                    "claim": certificate.claim,
                    "file": certificate.file,
                    "path": here.path,
                    "sha256": certificate.sha256,
                    "indexed": None,
                    "ready": True,
                    "make": None,
                    "make_seconds": None,
                }
            continue
        quick = quick_to_index(certificate)
        ready = here.path is not None and bool(here.indexed or quick)
        sides[certificate.side] = {
            "claim": certificate.claim,
            "file": certificate.file,
            "path": here.path,
            "sha256": certificate.sha256,
            "indexed": here.indexed,
            "ready": ready,
            "make": None if ready else f"oxo book {entry.board_args} --index",
            "make_seconds": None if ready else round(here.index_seconds, 1),
        }
    return {
        "board": entry.board,
        "value": entry.value,
        "value_words": entry.value_words,
        "ending_ply": entry.ending_ply,
        "published": entry.published,
        "source": entry.source,
        "command": entry.command,
        "sides": sides,
    }
