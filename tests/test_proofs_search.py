"""Which proof search a question gets (oxo.proofs.search): the plain one for small proofs, without
loading numba; the compiled one beyond."""

from __future__ import annotations

import subprocess
import sys

import pytest

from oxo.geometry import Geometry
from oxo.proofs.dfpn import ProofSearch
from oxo.proofs.orient import Transposed
from oxo.proofs.reference import ReferenceSearch
from oxo.proofs.search import QUICK_NODES, make_search


def test_a_small_proof_is_settled_by_the_plain_search() -> None:
    search = make_search(Geometry.parse("3x3"), "x")
    assert isinstance(search, ReferenceSearch)
    assert search.solve() is False  # settled already: answers at once
    assert 0 < search.nodes <= QUICK_NODES


def test_a_position_is_searched_not_the_empty_board() -> None:
    """On 3x3, X on the centre and a corner against O on an edge: X wins; from the empty board X
    does not, so the quick search must have looked at the position it was given."""
    x, o = 1 << 4 | 1 << 0, 1 << 1
    search = make_search(Geometry.parse("3x3"), "x", position=(x, o))
    assert search.solve(x, o) is True


def test_a_big_proof_goes_to_the_compiled_search() -> None:
    search = make_search(Geometry.parse("7x7,k=5"), "x", max_nodes=2_000)
    assert isinstance(search, ProofSearch)
    assert search.solve() is None and search.nodes <= 2_000


def test_a_node_budget_under_the_quick_one_goes_to_the_compiled_search() -> None:
    """The compiled search keeps a budget of positions exactly (the plain one looks every 64)."""
    search = make_search(Geometry.parse("4x4"), "x", max_nodes=5)
    assert isinstance(search, ProofSearch)
    assert search.solve() is None and search.nodes <= 5


def test_proving_a_small_board_does_not_load_numba() -> None:
    code = (
        "import sys\n"
        "from oxo.geometry import Geometry\n"
        "from oxo.proofs.solver import prove_board\n"
        "assert prove_board(Geometry.parse('4x4'), seconds=60).value == 'draw'\n"
        "print('numba' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_loading_the_compiled_search_loads_what_a_job_calls() -> None:
    """A worker started before its job loads the compiled search's entry points (in a fresh
    process, so that nothing else loaded them): a 7x7 (k = 5) search then loads no more, its table
    growing aside (the growth's rehash is loaded when the table first grows)."""
    code = (
        "from oxo.proofs.search import load_compiled_search\n"
        "load_compiled_search()\n"
        "from oxo.proofs import kernel\n"
        "names = ('hashes_of', 'class_key', 'run', 'table_find', 'strategy_walk', 'expand')\n"
        "print(sorted(name for name in names if not getattr(kernel, name).signatures))\n"
        "from oxo.geometry import Geometry\n"
        "from oxo.proofs.dfpn import ProofSearch\n"
        "search = ProofSearch(Geometry.parse('4x5,k=4'), 'x', table_bytes=1 << 16)\n"
        "loaded = {name: len(getattr(kernel, name).signatures) for name in names}\n"
        "search.solve()\n"
        "search.strategy()\n"
        "print(loaded == {name: len(getattr(kernel, name).signatures) for name in names})\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[:2] == ["[]", "True"]


@pytest.mark.parametrize("kind", ["compiled", "plain", "tall board"])
def test_solve_until_goes_on_from_where_it_stopped(kind: str) -> None:
    """A call with a small budget stops unsettled; the next call starts from what the first left in
    the table, and the search's own bounds are as they were. 4x5 (k = 4): X cannot win; on its side
    (5x4) the search runs on the transposed board."""
    spec = "5x4,k=4" if kind == "tall board" else "4x5,k=4"
    geometry = Geometry.parse(spec)
    fresh = ReferenceSearch if kind == "plain" else ProofSearch
    search = (
        make_search(geometry, "x", seconds=600, max_nodes=10**6, quick_nodes=0)
        if kind == "tall board"
        else fresh(geometry, "x", seconds=600, max_nodes=10**6)
    )
    assert kind != "tall board" or isinstance(search, Transposed)
    assert search.solve_until(0, 0, None, 100) is None
    stopped = search.nodes
    assert 100 <= stopped < 100 + 4096  # the compiled search looks at its budget between slices
    assert search.solve_until(0, 0, None, None) is False
    whole = fresh(Geometry.parse("4x5,k=4"), "x")
    assert whole.solve() is False
    assert search.nodes - stopped < whole.nodes  # the second call did not start again from nothing
    inner = search.inner if isinstance(search, Transposed) else search
    assert inner.max_nodes == 10**6
