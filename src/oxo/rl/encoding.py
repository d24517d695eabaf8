"""How a game's states become arrays for learning: observations, action masks, symmetries, pictures.

One :class:`Encoding` per kind of game. Every encoding lays each observation channel out over the
*actions*, so a symmetry of the game is one permutation of the action indices, applied alike to the
observation (through :attr:`Encoding.layout`), to the action mask and to an action or a policy
vector. That is what :meth:`Encoding.symmetries` hands out for data augmentation.

* :class:`ClassicEncoding`: any m×n (or n×n×n) board with k in a row; actions are cell IDs;
  observation ``shape + (2,)``: the marks of the agent observing, then the opponent's; symmetries
  are the board's (:attr:`oxo.geometry.Geometry.symmetries`).
* :class:`GravityEncoding`: a gravity board (``"6x7,k=4,gravity"`` is Connect Four); actions are
  columns, the observation is the board by cells (top row first), the symmetry is left-right.
* :class:`UtttEncoding`: ultimate tic-tac-toe, laid out as mega (below) with its own channels and
  the 8 symmetries that act alike on grids and cells.
* :class:`MegaEncoding`: mega tic-tac-toe; actions are move indices ``9 * grid + cell`` (0-based);
  observation ``(9, 9, 6)`` laid out as the big board (row ``3 * (grid // 3) + cell // 3``): own
  marks, opponent's marks, grids covered by each side, grids already played in the current string,
  cell positions already used by it. Symmetries: a symmetry of the square on the grids together with
  one (possibly another) on the cell positions: the rules look only at lines, at the set of grids of
  a string and at the set of positions it used, so all 64 pairs keep the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from oxo.errors import MoveError, OxoError
from oxo.game import GameState, Player
from oxo.geometry import Geometry
from oxo.position import Position
from oxo.registry import Game, find_game, new_game

if TYPE_CHECKING:
    from oxo.gravity.board import GravityBoard, GravityState
    from oxo.mega.rules import MegaState


@dataclass(frozen=True)
class ActionSymmetry:
    """A symmetry of a game as a permutation of its action indices: action ``a`` becomes ``perm[a]``;
    ``cells`` permutes the places of one observation channel the same way (by default the places of
    the actions, through :attr:`Encoding.layout`)."""

    name: str
    perm: tuple[int, ...]
    cells: tuple[int, ...] | None = None


class Encoding:
    """The arrays of one game: what the environment and :func:`oxo.rl.symmetries` rely on."""

    #: Name of the game (the environment's metadata name is built from it).
    name: str
    #: Shape of an observation.
    shape: tuple[int, ...]
    #: Number of actions.
    actions: int
    #: ``layout[a]``: the flat index, in one channel of the observation, of the place of action ``a``.
    layout: tuple[int, ...]

    def start(self) -> GameState:
        raise NotImplementedError

    def channels(self, state: GameState, player: Player) -> np.ndarray:
        """Per-action planes ``(channels, actions)`` of 0/1 as seen by ``player``."""
        raise NotImplementedError

    def move(self, state: GameState, action: int) -> int:
        """The game's move for an action (raises :class:`MoveError` when illegal)."""
        if not isinstance(action, (int, np.integer)) or not 0 <= int(action) < self.actions:
            raise MoveError(f"action {action!r} is not one of 0..{self.actions - 1}")
        if int(action) not in state.legal_moves:
            raise MoveError(f"action {action} is not legal here (see the action mask)")
        return int(action)

    def mask(self, state: GameState) -> np.ndarray:
        """1 for the legal actions, 0 elsewhere."""
        mask = np.zeros(self.actions, dtype=np.int8)
        mask[list(state.legal_moves)] = 1
        return mask

    def observation(self, state: GameState, player: Player) -> np.ndarray:
        """The observation array (int8, :attr:`shape`) of ``state`` seen by ``player``."""
        planes = self.channels(state, player)
        out = np.zeros((planes.shape[0], int(np.prod(self.shape[:-1]))), dtype=np.int8)
        out[:, list(self.layout)] = planes
        return np.moveaxis(out, 0, -1).reshape(self.shape)

    def svg(self, state: GameState) -> str:
        raise NotImplementedError

    def action_symmetries(self) -> tuple[ActionSymmetry, ...]:
        raise NotImplementedError

    def symmetries(
        self, observation: np.ndarray | dict[str, np.ndarray], action: int | np.ndarray
    ) -> list[tuple[np.ndarray | dict[str, np.ndarray], int | np.ndarray]]:
        """Every symmetric image of ``(observation, action)``, the pair itself first.

        ``observation`` is an observation array or the environment's ``{"observation", "action_mask"}``
        dict (both parts are transformed); ``action`` is an action index or a vector over the actions
        (such as a policy), which is permuted the same way.
        """
        channel_size = int(np.prod(self.shape[:-1]))
        layout = np.asarray(self.layout)
        pairs: list[tuple[np.ndarray | dict[str, np.ndarray], int | np.ndarray]] = []
        for symmetry in self.action_symmetries():
            perm = np.asarray(symmetry.perm)
            if symmetry.cells is None:
                places = np.arange(channel_size)
                places[layout] = layout[perm]
            else:
                places = np.asarray(symmetry.cells)

            def move_obs(array: np.ndarray, places: np.ndarray = places) -> np.ndarray:
                flat = np.asarray(array).reshape(channel_size, -1)
                image = np.zeros_like(flat)
                image[places] = flat
                return image.reshape(self.shape)

            def move_vector(vector: np.ndarray, perm: np.ndarray = perm) -> np.ndarray:
                vector = np.asarray(vector)
                image = np.zeros_like(vector)
                image[perm] = vector
                return image

            new_obs: np.ndarray | dict[str, np.ndarray]
            if isinstance(observation, dict):
                new_obs = {
                    "observation": move_obs(observation["observation"]),
                    "action_mask": move_vector(observation["action_mask"]),
                }
            else:
                new_obs = move_obs(observation)
            new_action: int | np.ndarray
            if isinstance(action, (int, np.integer)):
                new_action = int(perm[int(action)])
            else:
                if np.shape(action) != (self.actions,):
                    raise OxoError(
                        f"an action is an index or a vector of {self.actions} values, got shape "
                        f"{np.shape(action)}"
                    )
                new_action = move_vector(action)
            pairs.append((new_obs, new_action))
        return pairs


class ClassicEncoding(Encoding):
    """Any m×n or n×n×n board with k in a row (see the module docstring)."""

    def __init__(self, geometry: Geometry) -> None:
        self.geometry = geometry
        self.name = geometry.spec.replace(",", "_").replace("=", "")
        self.shape = (*geometry.shape, 2)
        self.actions = geometry.size
        self.layout = tuple(range(geometry.size))

    def start(self) -> GameState:
        return Position.empty(self.geometry)

    def channels(self, state: GameState, player: Player) -> np.ndarray:
        assert isinstance(state, Position)
        statuses = np.asarray(state.statuses, dtype=np.int8)
        own, other = (1, 2) if player == "x" else (2, 1)
        return np.stack([statuses == own, statuses == other]).astype(np.int8)

    def svg(self, state: GameState) -> str:
        from oxo.render.svg import classic_svg

        assert isinstance(state, Position)
        return classic_svg(state)

    def action_symmetries(self) -> tuple[ActionSymmetry, ...]:
        return tuple(ActionSymmetry(s.name, s.perm) for s in self.geometry.symmetries)


def _square_symmetries() -> tuple[ActionSymmetry, ...]:
    return ClassicEncoding(Geometry.parse("3x3")).action_symmetries()


class MegaEncoding(Encoding):
    """Mega tic-tac-toe (see the module docstring)."""

    name = "mega"
    shape = (9, 9, 6)
    actions = 81
    layout = tuple(
        9 * (3 * (m // 27) + (m % 9) // 3) + 3 * ((m // 9) % 3) + m % 3 for m in range(81)
    )

    def start(self) -> GameState:
        return new_game("mega")

    def channels(self, state: GameState, player: Player) -> np.ndarray:
        state = _mega(state)
        opponent: Player = "o" if player == "x" else "x"
        own, theirs = state.marks(player), state.marks(opponent)
        covered = state.covered
        string = state.current_string
        planes = np.zeros((6, 81), dtype=np.int8)
        planes[0] = _bits81(own)
        planes[1] = _bits81(theirs)
        planes[2] = _by_nine([g - 1 for g, p in covered.items() if p == player])[_GRID_OF]
        planes[3] = _by_nine([g - 1 for g, p in covered.items() if p == opponent])[_GRID_OF]
        planes[4] = _by_nine([g - 1 for g in string.grids])[_GRID_OF]
        planes[5] = _by_nine([c - 1 for c in string.positions])[_CELL_OF]
        return planes

    def svg(self, state: GameState) -> str:
        from oxo.render.svg import mega_svg

        return mega_svg(_mega(state))

    def action_symmetries(self) -> tuple[ActionSymmetry, ...]:
        square = _square_symmetries()
        return tuple(
            ActionSymmetry(
                f"grids {grids.name}, cells {cells.name}",
                tuple(9 * grids.perm[m // 9] + cells.perm[m % 9] for m in range(81)),
            )
            for grids in square
            for cells in square
        )


class GravityEncoding(Encoding):
    """A gravity board such as Connect Four (6x7, k=4): actions are columns (from 0); the
    observation is ``(rows, cols, 2)``, top row first, own marks then the opponent's; the one
    symmetry besides the identity is the mirror that swaps left and right."""

    def __init__(self, board: GravityBoard) -> None:
        self.board = board
        self.name = f"{board.rows}x{board.cols}_k{board.k}_gravity"
        self.shape = (board.rows, board.cols, 2)
        self.actions = board.cols
        self.layout = tuple(range(board.cols))  # the top row's places; observations are by cell

    def start(self) -> GameState:
        from oxo.gravity.board import GravityState

        return GravityState(self.board)

    def observation(self, state: GameState, player: Player) -> np.ndarray:
        state = _gravity(state)
        rows, cols = self.board.rows, self.board.cols
        own, other = (state.x, state.o) if player == "x" else (state.o, state.x)
        out = np.zeros(self.shape, dtype=np.int8)
        for col in range(cols):
            for row in range(rows):
                bit = self.board.bit(row, col)
                out[rows - 1 - row, col] = (bool(own & bit), bool(other & bit))
        return out

    def channels(self, state: GameState, player: Player) -> np.ndarray:
        return np.moveaxis(self.observation(state, player), -1, 0).reshape(2, -1)

    def svg(self, state: GameState) -> str:
        from oxo.render.svg import classic_svg

        state = _gravity(state)
        rows, cols = self.board.rows, self.board.cols
        geometry = Geometry.parse(f"{rows}x{cols},k={self.board.k}")
        picture = self.observation(state, "x")
        x = sum(1 << (r * cols + c) for r in range(rows) for c in range(cols) if picture[r, c, 0])
        o = sum(1 << (r * cols + c) for r in range(rows) for c in range(cols) if picture[r, c, 1])
        return classic_svg(Position(geometry, x, o))

    def action_symmetries(self) -> tuple[ActionSymmetry, ...]:
        rows, cols = self.board.rows, self.board.cols
        mirror_cells = tuple(r * cols + (cols - 1 - c) for r in range(rows) for c in range(cols))
        return (
            ActionSymmetry("identity", tuple(range(cols)), tuple(range(rows * cols))),
            ActionSymmetry("mirror", tuple(reversed(range(cols))), mirror_cells),
        )


class UtttEncoding(Encoding):
    """Ultimate tic-tac-toe: actions and layout as in mega (``9 * grid + cell``, the 9×9 big board);
    observation ``(9, 9, 5)``: own marks, the opponent's, grids won by each side, and the grids where
    the side to move may play now. A move's cell names the next grid, so a symmetry of the square
    must act alike on grids and cells: 8 symmetries."""

    name = "uttt"
    shape = (9, 9, 5)
    actions = 81
    layout = MegaEncoding.layout

    def start(self) -> GameState:
        return new_game("uttt")

    def channels(self, state: GameState, player: Player) -> np.ndarray:
        from oxo.uttt.rules import UtttState

        assert isinstance(state, UtttState)
        own, theirs = (
            (state.x_marks, state.o_marks) if player == "x" else (state.o_marks, state.x_marks)
        )
        won = state.won_grids
        own_grids, their_grids = (won[0], won[1]) if player == "x" else (won[1], won[0])
        playable = {m // 9 for m in state.legal_moves}
        planes = np.zeros((5, 81), dtype=np.int8)
        planes[0] = _bits81(own)
        planes[1] = _bits81(theirs)
        planes[2] = _by_nine([g for g in range(9) if own_grids >> g & 1])[_GRID_OF]
        planes[3] = _by_nine([g for g in range(9) if their_grids >> g & 1])[_GRID_OF]
        planes[4] = _by_nine(list(playable))[_GRID_OF]
        return planes

    def svg(self, state: GameState) -> str:
        from oxo.uttt.rules import UtttState

        assert isinstance(state, UtttState)
        return state._repr_svg_()

    def action_symmetries(self) -> tuple[ActionSymmetry, ...]:
        return tuple(
            ActionSymmetry(s.name, tuple(9 * s.perm[m // 9] + s.perm[m % 9] for m in range(81)))
            for s in _square_symmetries()
        )


#: The grid and the cell of each of the 81 moves of mega and ultimate tic-tac-toe.
_GRID_OF = np.arange(81) // 9
_CELL_OF = np.arange(81) % 9


def _by_nine(indices: list[int]) -> np.ndarray:
    """A 0/1 vector of nine with ones at ``indices``."""
    out = np.zeros(9, dtype=np.int8)
    out[indices] = 1
    return out


def _bits81(mask: int) -> np.ndarray:
    """The 81 bits of a mask as 0/1 values, bit 0 first."""
    raw = np.frombuffer(mask.to_bytes(11, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:81]


def _gravity(state: GameState) -> GravityState:
    from oxo.gravity.board import GravityState

    assert isinstance(state, GravityState)
    return state


def _mega(state: GameState) -> MegaState:
    from oxo.mega.rules import MegaState

    assert isinstance(state, MegaState)
    return state


def encoding_for(game: str | Geometry | Game, k: int | None = None) -> Encoding:
    """The encoding of a game named as :func:`oxo.registry.find_game` names it (``"3x3"``,
    ``"5x5,k=4"``, ``"3x3x3"``, ``"6x7,k=4,gravity"``, ``"mega"``, ``"uttt"``; the text parsed
    once), of a game found already, or of a geometry."""
    if isinstance(game, Geometry):
        return ClassicEncoding(game)
    if isinstance(game, Game) and k is None:
        found = game
    elif isinstance(game, str):
        found = find_game(game, k)
    else:
        raise OxoError(
            f"a game is named by text such as '3x3' or 'mega', got {type(game).__name__}"
        )
    found.require("rl_encoding")
    if found.family == "board":
        return ClassicEncoding(found.geometry)  # type: ignore[attr-defined]  # a board's game
    if found.family == "mega":
        return MegaEncoding()
    if found.family == "gravity":
        return GravityEncoding(found.board)  # type: ignore[attr-defined]  # a gravity game's board
    return UtttEncoding()


def as_rgb(svg: str) -> np.ndarray:
    """An SVG drawing rasterised to an ``(height, width, 3)`` uint8 array (resvg and Pillow, from
    the ``rl`` extra)."""
    try:
        import io

        import resvg_py
        from PIL import Image
    except ImportError as error:  # pragma: no cover - depends on the installed extras
        raise OxoError(
            "render_mode 'rgb_array' needs resvg-py and Pillow: pip install 'oxo[rl]'"
        ) from error
    png = resvg_py.svg_to_bytes(svg_string=svg, background="#ffffff")
    with Image.open(io.BytesIO(bytes(png))) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8).copy()
