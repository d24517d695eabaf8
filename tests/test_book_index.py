"""The index of a certificate (``oxo.book.index``) on boards of any size: its arrays against plain
dictionaries of what was recorded (one ``uint64`` a mask up to 64 cells, rows of words past it),
and perfect play from the index of a certificate of a board past 64 cells (9x9 with k = 4, made
here by a proof run) against many defences."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from book_rows import checked_row
from oxo import api
from oxo.book.index import (
    StrategyIndex,
    _Recorder,
    _write_folder,
    build_index,
    mask_words,
    words_mask,
    words_of,
)
from oxo.book.play import StrategyPlayer
from oxo.geometry import Geometry
from oxo.position import Position
from oxo.proofs.certificate import WalkStep
from positions import blocking_x

SIZES = (9, 16, 63, 64, 65, 81, 128, 129, 256, 300)


@st.composite
def recordings(
    draw: st.DrawFn,
) -> tuple[int, dict[int, int], dict[int, tuple[tuple[int, int], ...]]]:
    """A board's size, classes (X and O masks as one key) with their moves, and pairings."""
    size = draw(st.sampled_from(SIZES))

    def key() -> int:
        cells = draw(st.lists(st.integers(0, size - 1), max_size=12, unique=True))
        split = draw(st.integers(0, len(cells)))
        x = sum(1 << cell for cell in cells[:split])
        o = sum(1 << cell for cell in cells[split:])
        return x << size | o

    moves = {key(): draw(st.integers(0, size - 1)) for _ in range(draw(st.integers(0, 30)))}
    pairings = {
        key(): tuple(
            (draw(st.integers(0, size - 1)), draw(st.integers(0, size - 1))) for _ in range(2)
        )
        for _ in range(draw(st.integers(0, 6)))
    }
    return size, moves, pairings


@given(recording=recordings(), rng=st.randoms(use_true_random=False))
def test_an_index_finds_what_was_recorded_and_nothing_else(
    recording: tuple[int, dict[int, int], dict[int, tuple[tuple[int, int], ...]]],
    rng: random.Random,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    size, moves, pairings = recording
    recorder = _Recorder(size)
    told = list(moves.items())
    rng.shuffle(told)
    mask = (1 << size) - 1
    for key, move in told + told[: len(told) // 2]:  # some told twice, as two sections do
        recorder(WalkStep(0, key, move, key >> size, key & mask, size, move))
    for key, pairs in pairings.items():
        recorder(WalkStep(0, key, pairs, key >> size, key & mask, size, pairs))
    folder = tmp_path_factory.mktemp("index") / "index"
    _write_folder(folder, recorder.arrays(), {"version": 1})
    index = StrategyIndex.load(folder)
    assert index.words == words_of(size) and len(index) == len(moves)
    if size <= 64:  # the layout of the first indexes: one uint64 a mask
        assert index.keys_x.ndim == 1
    assert index.keys() == sorted((key >> size, key & mask) for key in moves)
    for key, move in moves.items():
        assert index.move_of(key >> size, key & mask) == move
    for _ in range(20):
        other = rng.getrandbits(2 * size) & ~(rng.getrandbits(2 * size))
        if other not in moves:
            assert index.move_of(other >> size, other & mask) is None
    for key, pairs in pairings.items():
        assert index.pairing_of(key >> size, key & mask) == pairs
    # the pairings whose marks are all on a board: each one's, and one board of them all
    numbers = {key: number for number, key in enumerate(sorted(pairings))}
    for key in pairings:
        x, o = key >> size, key & mask
        within = index.pairings_within(x, o)
        assert within == sorted(
            numbers[k] for k in pairings if (k >> size) & ~x == 0 and (k & mask) & ~o == 0
        )
        assert numbers[key] in within
        assert index.pairing_marks(numbers[key]) == x.bit_count() + o.bit_count()


@given(st.integers(1, 5), st.data())
def test_words_round_trip(words: int, data: st.DataObject) -> None:
    mask = data.draw(st.integers(0, (1 << (64 * words)) - 1))
    row = mask_words(mask, words)
    assert len(row) == words and all(0 <= word < 1 << 64 for word in row)
    assert words_mask(row) == mask


def test_perfect_plays_from_a_certificate_past_64_cells(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """9x9 with k = 4 (81 cells), which X wins: the index of the certificate a proof run writes
    holds two words a mask, and X played from it wins against every defence tried, every move
    of X from the index (or a line completed at once)."""
    monkeypatch.setenv("OXO_CACHE", str(tmp_path / "cache"))
    solved = api.solve(Geometry((9, 9), 4), proof_dir=tmp_path / "run", seconds=300)
    assert solved.value == "x"
    path = Path(solved.proofs[0])
    certificate = checked_row(path, "9x9")
    index = build_index(certificate, path=path)
    assert index.words == 2 and index.keys_x.shape == (len(index), 2)
    geometry = Geometry((9, 9), 4)
    rng = random.Random(9)
    for game in range(12):
        player = StrategyPlayer(index, geometry, "x", "win")
        position = Position.empty(geometry)
        while not position.is_terminal:
            if position.to_move == "x":
                cell = player.move(position)
                assert cell is not None, (game, position)
                assert player.how in ("win at once", "certificate", "rule"), player.how
            else:  # half the games O blocks where it can, the others at random
                cell = blocking_x(position) if game % 2 else None
                if cell is None:
                    cell = rng.choice(list(position.empty_cells))
            position = position.play(cell)
        assert position.winner == "x", game
