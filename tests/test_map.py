"""The strategy map: every opponent reply played against the map's moves, the drawing, the command."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import dataclass

import pytest

from oxo.cli import main
from oxo.errors import OutOfReachError, OxoError
from oxo.geometry import Geometry
from oxo.position import Position
from oxo.render.strategy import strategy_svg
from oxo.solve import reference_value
from oxo.strategy_map import StrategyMap, strategy_map

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module", params=["x", "o"])
def map3(request: pytest.FixtureRequest) -> StrategyMap:
    return strategy_map("3x3", request.param)


@dataclass(frozen=True)
class Table:
    """A strategy read back from the command's JSON or from the drawing: status string -> move."""

    side: str
    table: dict[str, int]

    def move_for(self, position: Position) -> int:
        return self.table[position.to_status_string()]


def play_every_reply(
    strategy: StrategyMap | Table, position: Position, memo: dict, seen: set
) -> frozenset[str]:
    """The outcomes of every game from ``position`` in which the side follows the map and the
    opponent tries every legal move; checks on the way, with the slow reference solver, that each
    move of the map keeps the value and that a position the side can win is won."""
    key = (position.x, position.o)
    if key in memo:
        return memo[key]
    values = memo.setdefault("values", {})
    side = strategy.side
    if position.is_over:
        result = frozenset({position.outcome})
    elif position.to_move == side:
        seen.add(key)
        move = strategy.move_for(position)
        assert move in position.legal_moves
        before = reference_value(position, values)
        after = reference_value(position.play(move), values)
        # the move keeps the value, down to the number of plies (the quickest win)
        assert (after.winner, after.plies + 1) == (before.winner, before.plies)
        result = play_every_reply(strategy, position.play(move), memo, seen)
        if before.winner == side:
            assert result == {side}, position.to_status_string()
        else:
            assert "draw" in result or before.winner is not None
    else:
        result = frozenset().union(
            *(
                play_every_reply(strategy, position.play(m), memo, seen)
                for m in position.legal_moves
            )
        )
    assert ("o" if side == "x" else "x") not in result, position.to_status_string()
    memo[key] = result
    return result


def test_map_never_loses_and_wins_when_it_can(map3: StrategyMap) -> None:
    seen: set = set()
    outcomes = play_every_reply(map3, Position.empty(map3.geometry), {}, seen)
    assert outcomes == {"x", "draw"} if map3.side == "x" else {"o", "draw"}
    # every position the side meets is on the map, and the map holds nothing else
    assert seen == set(map3.moves)
    assert map3.positions == len(seen)


@pytest.mark.slow
def test_map_wins_a_won_board() -> None:
    strategy = strategy_map("3x4", "x")
    assert strategy.value.winner == "x"
    outcomes = play_every_reply(strategy, Position.empty(strategy.geometry), {}, set())
    assert outcomes == {"x"}
    assert strategy.outcomes["draw"] == strategy.outcomes["loss"] == 0


def test_map_tree_covers_every_reply_and_counts(map3: StrategyMap) -> None:
    nodes = list(map3.root.walk())
    assert len(nodes) == map3.boards
    ends = {"win": 0, "draw": 0, "loss": 0}
    for node in nodes:
        after = node.after
        if node.move is not None:
            assert node.position.to_move == map3.side
            assert map3.move_for(node.position) == node.move
        assert [reply for reply, _ in node.replies] == list(after.legal_moves)
        for reply, child in node.replies:
            assert child.position == after.play(reply)
        if not node.replies:
            assert after.is_over
            outcome = after.outcome
            ends["draw" if outcome == "draw" else "win" if outcome == map3.side else "loss"] += 1
    assert ends == map3.outcomes and ends["loss"] == 0
    keys = {node.position.key for node in nodes if node.move is not None}
    assert map3.classes == len(keys)


def _smallest_trees(side: str) -> tuple[dict[tuple[int, int], int], dict[tuple[int, int], int]]:
    """Plain recursion with the slow reference solver: for each position, the fewest boards a
    value-keeping strategy needs from it, and the quickest-win moves that achieve it."""
    values: dict = {}
    sizes: dict[tuple[int, int], int] = {}
    best: dict[tuple[int, int], int] = {}

    def keeps(position: Position, move: int) -> bool:
        before, after = (
            reference_value(position, values),
            reference_value(position.play(move), values),
        )
        return (after.winner, after.plies + 1) == (before.winner, before.plies)

    def size(position: Position) -> int:
        key = (position.x, position.o)
        if key not in sizes:
            if position.is_over:
                sizes[key] = 1
            elif position.to_move == side:
                options = {
                    move: sum(
                        size(position.play(move).play(r)) for r in position.play(move).legal_moves
                    )
                    for move in position.legal_moves
                    if keeps(position, move)
                }
                best[key] = min(options, key=lambda move: (options[move], move))
                sizes[key] = 1 + options[best[key]]
            else:
                sizes[key] = 1 + sum(size(position.play(r)) for r in position.legal_moves)
        return sizes[key]

    size(Position.empty(Geometry.parse("3x3")))
    return sizes, best


def test_map_takes_the_smallest_value_keeping_strategy(map3: StrategyMap) -> None:
    sizes, best = _smallest_trees(map3.side)
    assert map3.boards == sizes[(0, 0)]
    for key, move in map3.moves.items():
        assert best[key] == move


@pytest.mark.parametrize("side", ["x", "o"])
def test_past_the_limit_the_map_takes_the_lowest_value_keeping_cell(side: str) -> None:
    """When choosing the smallest map looks at too many positions (4x4 at the default limit; 3x3
    with a limit of 5 here) the map is still complete and optimal: in every position the side
    meets, the lowest cell that keeps the value (checked with the slow reference solver)."""
    strategy = strategy_map("3x3", side, max_positions=5)
    assert not strategy.smallest and strategy.to_dict()["smallest"] is False
    seen: set = set()
    outcomes = play_every_reply(strategy, Position.empty(strategy.geometry), {}, seen)
    assert outcomes == {side, "draw"} and seen == set(strategy.moves)
    values: dict = {}

    def keeps(position: Position, cell: int) -> bool:
        before = reference_value(position, values)
        after = reference_value(position.play(cell), values)
        return (after.winner, after.plies + 1) == (before.winner, before.plies)

    for (x, o), move in strategy.moves.items():
        position = Position(strategy.geometry, x, o)
        assert move == min(cell for cell in position.legal_moves if keeps(position, cell))
    # the figures, counted without walking the tree, are the tree's
    nodes = list(strategy.root.walk())
    assert strategy.boards == len(nodes)
    ends = {"win": 0, "draw": 0, "loss": 0}
    for node in nodes:
        if not node.replies:
            outcome = node.after.outcome
            ends["draw" if outcome == "draw" else "win" if outcome == side else "loss"] += 1
    assert ends == strategy.outcomes
    assert strategy.positions >= strategy_map("3x3", side).positions  # not the smallest


def test_cli_map_says_when_it_is_not_the_smallest(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path
) -> None:
    """'oxo map 4x4' worked 8 s, then refused (issue 30, item 13); now it answers with the map of
    the lowest value-keeping cells and says so (here: a limit of 5 positions on 3x3, for speed)."""
    import functools

    import oxo.cli.map as map_cli

    monkeypatch.setattr(map_cli, "strategy_map", functools.partial(strategy_map, max_positions=5))
    assert main(["map", "3x3", "--as", "o"]) == 0
    out = capsys.readouterr().out
    assert "not the smallest map" in out and "lowest cell" in out
    expected = strategy_map("3x3", "o", max_positions=5)
    assert f"positions where O moves: {expected.positions:,}" in out
    # a map too large to draw: the summary, then why there is no drawing (exit 3)
    import oxo.render.strategy as drawing

    monkeypatch.setattr(
        drawing, "strategy_svg", functools.partial(drawing.strategy_svg, max_boards=10)
    )
    target = tmp_path / "o.svg"
    assert main(["map", "3x3", "--as", "o", "--svg", str(target)]) == 3
    captured = capsys.readouterr()
    assert f"positions where O moves: {expected.positions:,}" in captured.out
    assert "no drawing written" in captured.err and not target.exists()


def test_map_is_deterministic() -> None:
    assert strategy_map("3x3", "x").moves == strategy_map("3x3", "x").moves


def test_map_value_from_the_solver(map3: StrategyMap) -> None:
    assert map3.value == reference_value(Position.empty(map3.geometry))
    data = map3.to_dict()
    assert data["side"] == map3.side and data["boards"] == map3.boards
    json.dumps(data)


def test_map_limits_and_bad_input() -> None:
    with pytest.raises(OutOfReachError):
        strategy_map("5x5", "x")
    with pytest.raises(OutOfReachError, match="looking at more than 100 positions where O moves"):
        # the message does not claim the map's size
        strategy_map("3x4", "o", max_positions=100, fallback_positions=None)
    with pytest.raises(OutOfReachError, match="the lowest cells .* more than 10 positions"):
        strategy_map("3x4", "o", max_positions=100, fallback_positions=10)
    with pytest.raises(OxoError):
        strategy_map("3x3", "z")  # type: ignore[arg-type]
    strategy = strategy_map("3x3", "x")
    with pytest.raises(OxoError):
        strategy.move_for(Position.from_string("o........"))


def _depth(node) -> int:  # type: ignore[no-untyped-def]
    return 1 + max((_depth(child) for _, child in node.replies), default=0)


def _board_depth(element: ET.Element) -> int:
    below = [_board_depth(child) for child in element]
    own = 1 if element.get("class") == "map-board" else 0
    return own + max(below, default=0)


def test_svg_is_well_formed_with_one_nested_grid_per_board(map3: StrategyMap) -> None:
    svg = strategy_svg(map3)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    boards = [g for g in root.iter(f"{SVG}g") if g.get("class") == "map-board"]
    assert len(boards) == map3.boards
    moves = [g for g in boards if g.get("data-move") is not None]
    assert len(moves) == sum(1 for node in map3.root.walk() if node.move is not None)
    for g in moves:
        position = Position.from_string(g.get("data-position", ""))
        assert map3.move_for(position) == int(g.get("data-move", "-1"))
    assert _board_depth(root) == _depth(map3.root)


def test_svg_refuses_too_many_boards() -> None:
    with pytest.raises(OutOfReachError):
        strategy_svg(strategy_map("3x3", "o"), max_boards=10)
    assert strategy_map("3x3", "x")._repr_svg_() == strategy_svg(strategy_map("3x3", "x"))
    assert strategy_map("2x2x2,k=2", "x")._repr_svg_() is None  # a cube is not drawn


@pytest.mark.parametrize("side", ["x", "o"])
def test_cli_map_json_and_drawing_play_perfectly(side: str, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """``oxo map 3x3 --as x|o``: the strategy printed as JSON and the one drawn in the SVG (each
    board's ``data-move``) are played against every opponent reply."""
    target = tmp_path / "map.svg"
    assert main(["map", "3x3", "--as", side, "--json", "--svg", str(target)]) == 0
    data = json.loads(capsys.readouterr().out)
    empty = Position.empty(Geometry.parse("3x3"))
    seen: set = set()
    outcomes = play_every_reply(Table(side, data["moves"]), empty, {}, seen)
    assert outcomes == {side, "draw"} and len(seen) == data["positions"] == len(data["moves"])
    drawn = {
        g.get("data-position", ""): int(g.get("data-move", "-1"))
        for g in ET.fromstring(target.read_text()).iter(f"{SVG}g")
        if g.get("class") == "map-board" and g.get("data-move") is not None
    }
    assert drawn == data["moves"]
    assert play_every_reply(Table(side, drawn), empty, {}, set()) == {side, "draw"}


def test_cli_map(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    strategy = strategy_map("3x3", "x")
    assert main(["map", "3x3", "--as", "x"]) == 0
    out = capsys.readouterr().out
    assert f"positions where X moves: {strategy.positions}" in out
    assert f"shows {strategy.boards} boards" in out
    target = tmp_path / "o.svg"
    assert main(["map", "3x3", "--as", "o", "--svg", str(target), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == {**strategy_map("3x3", "o").to_dict(), "svg": str(target)}
    ET.fromstring(target.read_text())
    assert main(["map", "5x5"]) == 3
    assert main(["map", "3x"]) == 2
    assert main(["map", "3x3", "--as", "z"]) == 2
    assert main(["map", "2x2x2", "--k", "2", "--svg", str(tmp_path / "cube.svg")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
