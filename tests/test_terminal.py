"""Terminal positions: pair counter, constraint search, game-tree walk and full enumeration agree."""

from __future__ import annotations

import json
from math import comb

import numpy as np
import pytest

from oxo.cli import main
from oxo.counting.reference import count_classes
from oxo.errors import OptionError, OutOfReachError
from oxo.geometry import Geometry
from oxo.legality import check_position
from oxo.terminal import (
    count_terminal,
    parse_plies,
    terminal_by_search,
    terminal_positions,
)
from positions import SMALL_BOARDS


def full_enumeration(geometry: Geometry) -> dict[tuple[int, str], set[tuple[int, int]]]:
    """Seed 003's brute force: test every one of the 3^N boards with the rules, keep the finished games.

    The rules: X has one mark more than O (X moved last) or as many (O moved last); the player who
    did not move last has no line; the last mover's lines, if any, share a cell. Vectorised over O's
    cells for each choice of X's cells, with per-set tables built by plain loops over the lines.
    """
    n, lines = geometry.size, geometry.lines
    masks = np.arange(1 << n, dtype=np.int64)
    has = np.zeros(1 << n, dtype=bool)
    common = np.full(1 << n, geometry.full_mask, dtype=np.int64)
    for line in lines:
        inside = (masks & line) == line
        has |= inside
        common[inside] &= line
    sizes = np.array([int(m).bit_count() for m in range(1 << n)])
    by_size = [masks[sizes == size] for size in range(n + 1)]
    found: dict[tuple[int, str], set[tuple[int, int]]] = {}
    for x in range(1 << n):
        a = int(sizes[x])
        if 2 * a - 1 > n:
            continue
        o = np.concatenate(
            [by_size[a - 1] if a else by_size[0][:0], by_size[a] if 2 * a <= n else by_size[0][:0]]
        )
        o = o[(o & x) == 0]
        b = sizes[o]
        x_last = (b == a - 1) & ~has[o] & (common[x] != 0)
        o_last = (b == a) & (not has[x]) & (common[o] != 0)
        legal = x_last | o_last
        over = bool(has[x]) | has[o] | (a + b == n)
        for o_mask in o[legal & over]:
            o_mask = int(o_mask)
            outcome = "x" if has[x] else "o" if has[o_mask] else "draw"
            found.setdefault((a + sizes[o_mask], outcome), set()).add((x, o_mask))
    return found


def test_3x3_published_figures() -> None:
    # 958 terminal positions (626 X wins, 316 O wins, 16 draws) and 138 up to symmetry.
    table = count_terminal(Geometry.parse("3x3"))
    assert table.total_positions == 958 and table.total_classes == 138
    assert (table.total["x_wins"], table.total["o_wins"], table.total["draws"]) == (626, 316, 16)
    assert table.method == "pairs"


@pytest.mark.parametrize("spec", SMALL_BOARDS)
def test_pairs_csp_and_search_agree(spec: str) -> None:
    geometry = Geometry.parse(spec)
    search = count_terminal(geometry, "search")
    assert count_terminal(geometry, "pairs").plies == search.plies
    assert count_terminal(geometry, "csp").plies == search.plies


@pytest.mark.parametrize("spec", ["3x3", "2x4", "3x3,k=2", "2x2x2", "1x6,k=3"])
def test_search_agrees_with_full_enumeration(spec: str) -> None:
    geometry = Geometry.parse(spec)
    walked = terminal_by_search(geometry)
    listed = full_enumeration(geometry)
    for ply, ended in walked.items():
        for outcome, positions in ended.items():
            assert positions == listed.get((ply, outcome), set())
    assert sum(len(v) for v in listed.values()) == sum(
        len(p) for ended in walked.values() for p in ended.values()
    )


@pytest.mark.parametrize("spec", ["4x4", "4x4,k=3"])
def test_pairs_and_csp_agree_on_4x4(spec: str) -> None:
    geometry = Geometry.parse(spec)
    assert count_terminal(geometry, "pairs").plies == count_terminal(geometry, "csp").plies


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["3x4", "4x4", "4x4,k=3"])
def test_full_enumeration_agrees_on_big_small_boards(spec: str) -> None:
    geometry = Geometry.parse(spec)
    listed = full_enumeration(geometry)
    table = count_terminal(geometry, "pairs")
    assert count_terminal(geometry, "csp").plies == table.plies
    for row in table.plies:
        for outcome, key in (("x", "x_wins"), ("o", "o_wins"), ("draw", "draws")):
            positions = listed.get((row.ply, outcome), set())
            assert getattr(row, key) == len(positions)
            if spec != "4x4,k=3":  # class counts by canonical forms cost a minute there
                assert getattr(row, f"{key}_classes") == count_classes(
                    positions, geometry.symmetries
                )


@pytest.mark.parametrize("spec", ["3x3", "2x4", "3x3,k=2", "2x2x2", "3x4"])
def test_listing_is_the_set_of_terminal_positions(spec: str) -> None:
    geometry = Geometry.parse(spec)
    walked = terminal_by_search(geometry)
    listed = list(terminal_positions(geometry))
    assert len(listed) == len({(t.position.x, t.position.o) for t in listed})
    plies = [t.ply for t in listed]
    assert plies == sorted(plies)
    by_key: dict[tuple[int, str], set[tuple[int, int]]] = {}
    for found in listed:
        by_key.setdefault((found.ply, found.winner or "draw"), set()).add(
            (found.position.x, found.position.o)
        )
        assert found.position.winner == found.winner
    for ply, ended in walked.items():
        for outcome, positions in ended.items():
            assert by_key.get((ply, outcome), set()) == positions
    # each listed position is a legal, finished game by the legality check
    for found in listed[:: max(1, len(listed) // 500)]:
        verdict = check_position(found.position)
        assert (
            verdict.is_terminal
            and verdict.status == {"x": "x_won", "o": "o_won", None: "draw"}[found.winner]
        )


@pytest.mark.parametrize("spec", ["3x3", "4x4", "4x4,k=3", "3x4", "2x2x2", "3x5"])
def test_last_ply_is_every_reachable_full_board(spec: str) -> None:
    # Every reachable full board has ended, so the last row equals the position counter's last row
    # (for 3x3 and 4x4 that is seed 001's published 78/15 and 8220/1059).
    from oxo.counting import count_positions

    geometry = Geometry.parse(spec)
    last = count_terminal(geometry, plies=[geometry.size]).plies[0]
    counted = count_positions(geometry).plies[-1]
    assert (last.positions, last.classes) == (counted.positions, counted.classes)


@pytest.mark.parametrize("spec", ["3x3", "4x4", "5x5", "3x3x3", "4x4,k=3", "3x5"])
def test_first_possible_win_in_closed_form(spec: str) -> None:
    # At ply 2k-1 X's k marks are exactly a line and O's k-1 marks are anywhere else: lines × C(N-k, k-1).
    geometry = Geometry.parse(spec)
    k, n = geometry.k, geometry.size
    row = count_terminal(geometry, "csp", plies=[2 * k - 1, 2 * k - 2]).plies
    assert row[1].x_wins == len(geometry.lines) * comb(n - k, k - 1)
    assert row[0].positions == 0 and row[1].o_wins == 0


@pytest.mark.parametrize("spec", ["4x4", "4x4,k=3"])
def test_the_pair_counter_split_into_shards_agrees(
    monkeypatch: pytest.MonkeyPatch, spec: str
) -> None:
    """Boards of more than 20 cells (5x5: a minute on two processes) are counted in shards that
    fix O's part of the last cells, and their full-board draws are scanned in slices; with shards
    of 10 cells a 16-cell board takes the same path, and gives the counts of the whole board and
    of the constraint search."""
    import oxo.terminal as terminal

    geometry = Geometry.parse(spec)
    whole = count_terminal(geometry, "pairs")
    monkeypatch.setattr(terminal, "SHARD_CELLS", 10)
    sharded = count_terminal(geometry, "pairs")
    assert sharded.plies == whole.plies
    assert sharded.plies == count_terminal(geometry, "csp").plies


@pytest.mark.slow
def test_qubic_first_wins_in_closed_form() -> None:
    geometry = Geometry.parse("4x4x4")
    row = count_terminal(geometry, "csp", plies=[7, 8]).plies
    assert len(geometry.lines) == 76
    assert row[0].x_wins == 76 * comb(60, 3)
    # At ply 8 O's 4 marks are a line and X's 4 marks any line-free set of the other 60 cells.
    line_free = sum(
        comb(60, 4) - sum(1 for other in geometry.lines if not other & line)
        for line in geometry.lines
    )
    assert row[1].o_wins == line_free


@pytest.mark.slow
def test_3x3x3_classes_by_canonical_forms() -> None:
    geometry = Geometry.parse("3x3x3")
    table = count_terminal(geometry, "csp", plies=[5, 6])
    for row, outcome in zip(table.plies, ("x", "o"), strict=True):
        positions = {
            (t.position.x, t.position.o)
            for t in terminal_positions(geometry, [row.ply])
            if t.winner == outcome
        }
        assert len(positions) == row.positions
        assert count_classes(positions, geometry.symmetries) == row.classes


def test_table_dict_and_plies() -> None:
    table = count_terminal(Geometry.parse("3x3"), plies=[7, 9])
    data = table.to_dict()
    assert data["board"] == "3x3" and data["k"] == 3
    assert [row["ply"] for row in data["plies"]] == [7, 9]
    assert set(data["total"]) == {
        "x_wins",
        "o_wins",
        "draws",
        "x_wins_classes",
        "o_wins_classes",
        "draws_classes",
    }
    nine = data["plies"][1]
    assert nine["draws"] == 16 and nine["draws_classes"] == 3
    assert data["total"]["x_wins"] == data["plies"][0]["x_wins"] + nine["x_wins"]


def test_parse_plies_and_errors() -> None:
    geometry = Geometry.parse("3x3")
    assert parse_plies("7", geometry) == (7,)
    assert parse_plies("0-3", geometry) == (0, 1, 2, 3)
    assert parse_plies("9,5,5", geometry) == (5, 9)
    for bad in ("10", "a", "3-1", "-2", ""):
        with pytest.raises(OptionError):
            parse_plies(bad, geometry)
    with pytest.raises(OptionError):
        count_terminal(geometry, "magic")  # type: ignore[arg-type]
    with pytest.raises(OptionError):
        count_terminal(geometry, plies=[12])
    with pytest.raises(OutOfReachError, match="--ply"):
        count_terminal(Geometry.parse("3x3x3"))


# -- oxo terminal ------------------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_terminal_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "terminal", "3x3")
    assert code == 0
    lines = out.splitlines()
    assert lines[-1].split() == [
        "total",
        "(plies",
        "0-9)",
        "626",
        "316",
        "16",
        "958",
        "91",
        "44",
        "3",
        "138",
    ]


def test_terminal_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "terminal", "3x3x3", "--ply", "5-6", "--json")
    data = json.loads(out)
    assert code == 0 and data["board"] == "3x3x3" and data["k"] == 3
    assert data["plies"][0]["x_wins"] == 49 * comb(24, 2)
    assert data == count_terminal(Geometry.parse("3x3x3"), plies=[5, 6]).to_dict()


def test_terminal_list(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "terminal", "3x3", "--list")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 958
    assert lines[0].split()[1] == "x" and len(lines[0].split()[0]) == 9
    assert sum(line.endswith(" draw") for line in lines) == 16
    code, out, _ = run(capsys, "terminal", "4x4x4", "--ply", "7", "--limit", "3")
    assert (
        code == 0
        and len(out.splitlines()) == 3
        and all(line.endswith(" x") for line in out.splitlines())
    )
    code, out, _ = run(capsys, "terminal", "3x3", "--ply", "6", "--list", "--json", "--limit", "2")
    rows = [json.loads(line) for line in out.splitlines()]
    assert [row["winner"] for row in rows] == ["o", "o"] and all(row["ply"] == 6 for row in rows)


def test_terminal_errors(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["terminal", "3x3", "--ply", "x"], ["terminal", "5x5x5x5"]):
        code, out, err = run(capsys, *args)
        assert code == 2 and err.startswith("oxo: error:") and err.count("\n") == 1
    # Every ply of a 64-cell board is out of reach (exit 3), and the message says what to try.
    code, out, err = run(capsys, "terminal", "4x4x4")
    assert code == 3 and err.startswith("oxo: out of reach:") and "--ply" in err
