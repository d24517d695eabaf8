"""The PettingZoo environments: PettingZoo's own API and seed tests, rewards, masks, pictures,
symmetries checked against the games' own transforms, and the docs' example loop run verbatim."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

import oxo.rl as rl  # noqa: E402
from oxo.errors import MoveError, OxoError  # noqa: E402
from oxo.geometry import Geometry  # noqa: E402
from oxo.gravity.board import GravityState  # noqa: E402
from oxo.mega.rules import MegaState  # noqa: E402
from oxo.position import Position  # noqa: E402
from oxo.render.svg import COLORS  # noqa: E402
from oxo.uttt.rules import UtttState  # noqa: E402

GAMES = ["3x3", "4x4,k=3", "3x4", "3x3x3", "6x7,k=4,gravity", "4x5,k=3,gravity", "mega", "uttt"]


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_and_seed(game: str) -> None:
    api_test(rl.env(game), num_cycles=300)
    seed_test(lambda: rl.env(game), num_cycles=100)


def test_rewards_masks_and_end() -> None:
    env = rl.env("3x3")
    env.reset(seed=1)
    assert env.agents == ["player_0", "player_1"]
    for move in (0, 3, 1, 4):
        agent = env.agent_selection
        observation, reward, terminated, truncated, _ = env.last()
        assert observation["action_mask"][move] == 1
        other = env.observe("player_1" if agent == "player_0" else "player_0")
        assert not other["action_mask"].any()
        assert not terminated and not truncated and reward == 0
        env.step(move)
    # X to move again: own marks in the first channel, O's in the second
    seen = env.observe("player_0")["observation"]
    assert seen[0, 0, 0] == seen[0, 1, 0] == 1 and seen[1, 0, 1] == seen[1, 1, 1] == 1
    assert env.observe("player_1")["observation"][0, 0, 1] == 1
    with pytest.raises(MoveError):
        env.step(0)  # taken
    with pytest.raises(MoveError):
        env.step(9)  # off the board
    env.step(2)  # X completes the top row
    assert all(env.terminations.values())
    assert env._cumulative_rewards == {"player_0": 1.0, "player_1": -1.0}
    for agent in env.agent_iter():
        _, reward, terminated, _, _ = env.last()
        assert terminated and reward == (1.0 if agent == "player_0" else -1.0)
        env.step(None)
    assert env.agents == []


def test_draw_gives_nothing() -> None:
    env = rl.env("3x3")
    env.reset()
    for move in (4, 0, 2, 6, 3, 5, 1, 7, 8):
        env.step(move)
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}


def test_render_ansi_and_rgb() -> None:
    env = rl.env("3x3", render_mode="ansi")
    env.reset()
    env.step(4)
    assert env.render() == Position.from_string("....x....").text()
    pytest.importorskip("resvg_py")
    pytest.importorskip("PIL")
    for game in ("3x3", "6x7,k=4,gravity", "mega", "uttt"):
        env = rl.env(game, render_mode="rgb_array")
        env.reset()
        blank = env.render()
        env.step(env.observe(env.agent_selection)["action_mask"].argmax())
        picture = env.render()
        assert isinstance(picture, np.ndarray) and picture.dtype == np.uint8
        assert picture.ndim == 3 and picture.shape[2] == 3 and picture.shape == blank.shape
        red = np.array([int(COLORS["x"][i : i + 2], 16) for i in (1, 3, 5)])
        near = np.abs(picture.astype(int) - red).sum(axis=2) < 30
        before = np.abs(blank.astype(int) - red).sum(axis=2) < 30
        assert near.sum() > before.sum()  # the X's strokes were drawn
    with pytest.raises(OxoError):
        rl.env("3x3", render_mode="human")


def _random_position(geometry: Geometry, rng: random.Random) -> Position:
    position = Position.empty(geometry)
    for _ in range(rng.randrange(geometry.size)):
        if position.is_over:
            break
        position = position.play(rng.choice(position.legal_moves))
    return position


@pytest.mark.parametrize("board", ["3x3", "4x4,k=3", "3x5", "3x3x3"])
def test_classic_symmetries_match_the_board(board: str) -> None:
    rng = random.Random(7)
    env = rl.env(board)
    geometry = env.encoding.geometry
    for _ in range(20):
        position = _random_position(geometry, rng)
        if position.is_over:
            continue
        player = position.to_move
        assert player is not None
        observation = {
            "observation": env.encoding.observation(position, player),
            "action_mask": env.encoding.mask(position),
        }
        action = rng.choice(position.legal_moves)
        policy = np.array([rng.random() for _ in range(geometry.size)])
        pairs = env.symmetries(observation, action)
        vectors = rl.symmetries(env, observation["observation"], policy)
        assert len(pairs) == len(vectors) == len(geometry.symmetries)
        assert pairs[0][1] == action
        for symmetry, (image, moved), (plain, moved_policy) in zip(
            geometry.symmetries, pairs, vectors
        ):
            seen = position.transform(symmetry)
            assert np.array_equal(image["observation"], env.encoding.observation(seen, player))
            assert np.array_equal(plain, image["observation"])
            assert np.array_equal(image["action_mask"], env.encoding.mask(seen))
            assert seen.play(moved) == position.play(action).transform(symmetry)
            assert moved_policy[moved] == policy[action]
            assert sorted(moved_policy) == sorted(policy)


def test_mega_symmetries_keep_the_rules() -> None:
    """Each of the 64 pairs (a symmetry of the grids, one of the cell positions) turns every game
    into a game: the same legal moves (moved), the same covered grids and the same end."""
    rng = random.Random(3)
    encoding = rl.MegaEncoding()
    symmetries = encoding.action_symmetries()
    assert len(symmetries) == 64 and len({s.perm for s in symmetries}) == 64
    for _ in range(3):
        state = MegaState()
        moves = []
        while not state.is_over:
            move = rng.choice(state.legal_moves)
            moves.append(move)
            state = state.play(move)
        chosen = rng.sample(range(64), 12)
        original = MegaState()
        images = [MegaState() for _ in chosen]
        for move in moves:
            player = original.to_move
            assert player is not None
            pictures = encoding.symmetries(encoding.observation(original, player), 0)
            for number, image in zip(chosen, images):
                perm = symmetries[number].perm
                assert sorted(perm[m] for m in original.legal_moves) == list(image.legal_moves)
                assert np.array_equal(pictures[number][0], encoding.observation(image, player))
            original = original.play(move)
            images = [
                image.play(symmetries[number].perm[move]) for number, image in zip(chosen, images)
            ]
        for image in images:
            assert image.is_over and image.outcome == original.outcome


def test_uttt_symmetries_keep_the_rules() -> None:
    """The 8 symmetries of the square, applied alike to grids and cells, turn every game of ultimate
    tic-tac-toe into a game; a symmetry on the grids alone does not (the cell names the next grid)."""
    rng = random.Random(11)
    encoding = rl.UtttEncoding()
    symmetries = encoding.action_symmetries()
    assert len(symmetries) == 8
    for _ in range(3):
        state, moves = UtttState(), []
        while not state.is_over:
            moves.append(rng.choice(state.legal_moves))
            state = state.play(moves[-1])
        original = UtttState()
        images = [UtttState() for _ in symmetries]
        for move in moves:
            player = original.to_move
            assert player is not None
            pictures = encoding.symmetries(encoding.observation(original, player), move)
            for symmetry, image, (picture, moved) in zip(symmetries, images, pictures):
                assert sorted(symmetry.perm[m] for m in original.legal_moves) == list(
                    image.legal_moves
                )
                assert np.array_equal(picture, encoding.observation(image, player))
                assert moved == symmetry.perm[move]
            original = original.play(move)
            images = [image.play(s.perm[move]) for s, image in zip(symmetries, images)]
        assert all(image.outcome == original.outcome for image in images)
    rot90 = Geometry.parse("3x3").symmetry("rot90").perm
    rotate_grids_only = [9 * rot90[m // 9] + m % 9 for m in range(81)]
    state, image = UtttState().play(0), UtttState().play(rotate_grids_only[0])
    assert sorted(rotate_grids_only[m] for m in state.legal_moves) != list(image.legal_moves)


def test_gravity_columns_and_mirror() -> None:
    rng = random.Random(5)
    env = rl.env("6x7,k=4,gravity")
    encoding = env.encoding
    assert isinstance(encoding, rl.GravityEncoding)
    board = encoding.board
    env.reset()
    env.step(3)
    env.step(3)
    seen = env.observe("player_0")["observation"]
    assert seen[5, 3, 0] == 1 and seen[4, 3, 1] == 1 and seen.sum() == 2  # bottom row is last
    for _ in range(10):
        moves: list[int] = []
        state = GravityState(board)
        while not state.is_over and len(moves) < rng.randrange(30):
            moves.append(rng.choice(state.legal_moves))
            state = state.play(moves[-1])
        if state.is_over:
            continue
        mirrored = GravityState.from_moves(board, [board.cols - 1 - m for m in moves])
        player = state.to_move
        assert player is not None
        observation = {
            "observation": encoding.observation(state, player),
            "action_mask": encoding.mask(state),
        }
        action = rng.choice(state.legal_moves)
        pairs = env.symmetries(observation, action)
        assert len(pairs) == 2 and pairs[0][1] == action
        image, moved = pairs[1]
        assert np.array_equal(image["observation"], encoding.observation(mirrored, player))
        assert np.array_equal(image["action_mask"], encoding.mask(mirrored))
        assert isinstance(moved, int)
        after = encoding.observation(mirrored.play(moved), player)
        assert np.array_equal(
            after, env.symmetries(encoding.observation(state.play(action), player), 0)[1][0]
        )


def test_bad_input() -> None:
    with pytest.raises(OxoError):
        rl.env("nope")
    env = rl.env("3x3")
    with pytest.raises(OxoError):
        env.symmetries(np.zeros((3, 3, 2), dtype=np.int8), np.zeros(4))


def test_docs_example_runs_verbatim() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, "docs/rl.md shows the example loop in a python block"
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], "docs/rl.md", "exec"), namespace)
    assert namespace["env"].agents == []  # type: ignore[attr-defined]


def test_mega_and_uttt_channels_read_the_state() -> None:
    """Each channel against the state read cell by cell through its own API."""
    rng = random.Random(2)
    for _ in range(40):
        mega, uttt = MegaState(), UtttState()
        for _ in range(rng.randrange(60)):
            if not mega.is_over:
                mega = mega.play(rng.choice(mega.legal_moves))
            if not uttt.is_over:
                uttt = uttt.play(rng.choice(uttt.legal_moves))
        for player, other in (("x", "o"), ("o", "x")):
            planes = rl.MegaEncoding().channels(mega, player)  # type: ignore[arg-type]
            string = mega.current_string
            for m in range(81):
                grid, cell = m // 9 + 1, m % 9 + 1
                expected = [
                    mega.cell(grid, cell) == player,
                    mega.cell(grid, cell) == other,
                    mega.covered.get(grid) == player,
                    mega.covered.get(grid) == other,
                    grid in string.grids,
                    cell in string.positions,
                ]
                assert list(planes[:, m]) == [int(e) for e in expected]
            planes = rl.UtttEncoding().channels(uttt, player)  # type: ignore[arg-type]
            playable = {move // 9 for move in uttt.legal_moves}
            marks = {"x": uttt.x_marks, "o": uttt.o_marks}
            for m in range(81):
                expected = [
                    marks[player] >> m & 1,
                    marks[other] >> m & 1,
                    uttt.grid_owner(m // 9) == player,
                    uttt.grid_owner(m // 9) == other,
                    m // 9 in playable,
                ]
                assert list(planes[:, m]) == [int(e) for e in expected]
