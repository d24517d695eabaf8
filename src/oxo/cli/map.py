"""``oxo map``: the complete optimal strategy of one side, as a summary or a drawing of nested grids."""

from __future__ import annotations

import click

from oxo.cli.common import ANY_GAME, classic_geometry, echo_json, echo_lines
from oxo.cli.options import choice_option, json_option, k_option, svg_option
from oxo.errors import OxoError
from oxo.fileio import write_atomic
from oxo.game import Player
from oxo.progress import progress_bar
from oxo.registry import Game
from oxo.strategy_map import DEFAULT_MAX_POSITIONS, StrategyMap, strategy_map


@click.command(name="map")
@click.argument("board", type=ANY_GAME)
@choice_option(
    "--as",
    ["x", "o"],
    "x",
    "The side whose strategy is mapped.",
    name="side",
    case_sensitive=False,
)
@k_option
@svg_option("Also draw the map as nested grids in an SVG file.")
@json_option
def map_command(board: Game, side: str, k: int | None, svg_path: str | None, as_json: bool) -> None:
    """The complete optimal strategy of one side: its move in every position it can meet, and
    every reply of the opponent, until each game ends.

    The move is one that keeps the best result (the quickest win, or the slowest loss); among
    those, the one needing the fewest positions to cover, then the lowest cell ID. With --svg the
    map is drawn as nested grids: every reply of the opponent holds, in the cell it was played in,
    the board that follows it, at a third of the scale on 3x3.

    Works on boards of up to 16 cells. Where choosing the smallest map would look at more than
    50,000 positions (4x4, or O on 4x4 with --k 3), the map takes the lowest cell among the moves
    that keep the best result instead, and says so; its drawing may then be too large to write.

    Example: oxo map 3x3 --as o --svg o.svg
    """
    game = board  # parsed at the edge, with --k
    game.require("strategy_map")
    geometry = classic_geometry(game)
    player: Player = "x" if side.lower() == "x" else "o"
    with progress_bar(f"solving every position of {geometry.spec} for the map") as bar:
        strategy = strategy_map(geometry, player, on_progress=bar)
    if svg_path is not None:
        from oxo.errors import OutOfReachError
        from oxo.render.strategy import strategy_svg

        try:
            drawing = strategy_svg(strategy)
        except OutOfReachError as too_large:
            # The map was found: say what it is before saying why it is not drawn.
            if as_json:
                echo_json(strategy.to_dict())
            else:
                echo_lines(summary_lines(strategy))
            raise OutOfReachError(f"{str(too_large).split(';')[0]}; no drawing written") from None
        try:
            write_atomic(svg_path, drawing + "\n")
        except OSError as error:
            raise OxoError(f"cannot write {svg_path}: {error.strerror or error}") from None
    if as_json:
        data = strategy.to_dict()
        if svg_path is not None:
            data["svg"] = svg_path
        echo_json(data)
        return
    echo_lines(summary_lines(strategy))
    if svg_path is not None:
        click.echo(f"drawing written to {svg_path}")


def summary_lines(strategy: StrategyMap) -> list[str]:
    """The map in a few lines: value, coverage, how its games end, and the first answers."""
    side, opponent = strategy.side.upper(), "O" if strategy.side == "x" else "X"
    value = strategy.value
    result = "a draw" if value.winner is None else f"a win for {value.winner.upper()}"
    lines = [
        f"strategy map for {side} on {strategy.geometry.spec}: best play gives {result}",
    ]
    if not strategy.smallest:
        lines.append(
            "not the smallest map (choosing it meant looking at more than "
            f"{DEFAULT_MAX_POSITIONS:,} positions): {side} takes the lowest cell among the moves "
            "that keep the best result"
        )
    lines += [
        f"positions where {side} moves: {strategy.positions:,} ({strategy.classes:,} up to "
        "symmetry)",
        f"its drawing (--svg) shows {strategy.boards:,} boards, one per position on the way",
        f"games that follow the map end: {side} wins {strategy.outcomes['win']:,}, "
        f"draws {strategy.outcomes['draw']:,}, {opponent} wins {strategy.outcomes['loss']:,}",
    ]
    if strategy.root.move is not None:
        lines.append(f"{side} opens in cell {strategy.root.move}")
    answers = ", ".join(
        f"{reply}→{'end' if answer is None else answer}"
        for reply, answer in strategy.first_answers()
    )
    if answers:
        lines.append(f"{opponent}'s first moves and {side}'s answers (cell→cell): {answers}")
    return lines


COMMANDS = [map_command]
