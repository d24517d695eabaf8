"""The command line parses a board once, at the edge (``oxo.cli.common.GameType``), and hands the
parsed game down: no command reads the board's text a second time on its way to the answer."""

from __future__ import annotations

from collections import Counter

import click
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oxo.cli import main
from oxo.cli.common import ANY_GAME, CLASSIC_BOARD
from oxo.errors import BoardSpecError, UnsupportedError
from oxo.geometry import Geometry
from oxo.gravity.board import GravityBoard
from oxo.registry import BOARD_NAMES, _named, find_game, find_game_or_none, may_name_a_game

#: Commands reached with a board's text (as the BOARD argument, --board or POSITION naming a
#: board), each cheap: the board parser should run once for each.
ONE_PARSE = [
    ("count", "3x3"),
    ("count", "connect4", "--plies", "2"),
    ("classes", "4x4", "--k", "3"),
    ("show", "3x3x3"),
    ("show", "connect4"),
    ("show", "xo./.x./..o", "--board", "3x3"),
    ("check", "xxx/oo./...", "--k", "3", "--board", "3x3"),
    ("analyze", "3x3"),
    ("solve", "3x3"),
    ("solve", "8x8", "--k", "5"),
    ("move", "3x3", "--level", "random", "--seed", "1"),
    ("move", "44", "--gravity", "--board", "6x7", "--k", "4", "--level", "random"),
    ("deadends", "2x2"),
    ("terminal", "3x3"),
    ("games", "3x3"),
    ("notation", "views", "3x3"),
    ("fullboards", "2x2"),
    ("map", "2x2"),
    ("book", "3x3x3"),
    ("selfplay", "3x3", "--games", "1", "--x", "random", "--o", "random", "--quiet"),
]

#: Commands given a position without a board: the position's text is read, no board's.
NO_BOARD = [
    ("show", "xo./.x./..o"),
    ("check", "xxx/oo./..."),
    ("move", "44", "--gravity", "--level", "random", "--seed", "1"),
]


def count_parses(monkeypatch: pytest.MonkeyPatch, args: list[str]) -> Counter[str]:
    """Calls of the two board parsers while the command runs, after a first run of it (which
    loads the modules it needs: some parse a board of their own once, as they load)."""
    assert main(args) == 0
    for spec in BOARD_NAMES.values():  # the registry parses these names once a process
        _named(spec)
    calls: Counter[str] = Counter()
    parse_geometry, parse_gravity = Geometry.parse, GravityBoard.parse

    def geometry(*args: object, **kwargs: object) -> Geometry:
        calls["geometry"] += 1
        return parse_geometry(*args, **kwargs)  # type: ignore[arg-type]  # passed through

    def gravity(*args: object, **kwargs: object) -> GravityBoard:
        calls["gravity"] += 1
        return parse_gravity(*args, **kwargs)  # type: ignore[arg-type]  # passed through

    with monkeypatch.context() as patch:
        patch.setattr(Geometry, "parse", staticmethod(geometry))
        patch.setattr(GravityBoard, "parse", staticmethod(gravity))
        assert main(args) == 0
    return calls


@pytest.mark.parametrize("args", ONE_PARSE, ids=" ".join)
def test_each_command_parses_its_board_once(
    args: tuple[str, ...], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    parses = count_parses(monkeypatch, list(args))
    capsys.readouterr()
    assert sum(parses.values()) == 1, parses


@pytest.mark.parametrize("args", NO_BOARD, ids=" ".join)
def test_a_position_alone_parses_no_board(
    args: tuple[str, ...], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    parses = count_parses(monkeypatch, list(args))
    capsys.readouterr()
    assert not parses, parses


def test_the_board_argument_is_the_parsed_game() -> None:
    """The parameter type turns text into the game (or a classic board's geometry), with --k and
    --gravity read first, and refuses another game by name where a classic board is needed."""
    command = click.Command("c", params=[click.Option(["--k"], type=int)])
    with click.Context(command) as context:
        context.params.update(k=3, gravity=False)
        assert ANY_GAME.convert("4x4", None, context) == find_game("4x4,k=3")
        assert CLASSIC_BOARD.convert("4x4", None, context) == Geometry((4, 4), 3)
        context.params.update(k=4, gravity=True)
        assert ANY_GAME.convert("6x7", None, context) == find_game("connect4")
        context.params.update(k=None, gravity=False)
        with pytest.raises(UnsupportedError, match="Connect Four is not a board of m,n,k"):
            CLASSIC_BOARD.convert("connect4", None, context)
        with pytest.raises(BoardSpecError, match="k=9 does not fit a 3x3 board"):
            ANY_GAME.convert("3x3,k=9", None, context)


def test_bad_boards_keep_their_one_line_and_exit_status(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Bad text in the board argument: one line, exit status 2, JSON with --json, as when the
    commands parsed it themselves."""
    assert main(["classes", "mega"]) == 2
    _, err = capsys.readouterr()
    assert err.startswith("oxo: error: mega tic-tac-toe is not a board of m,n,k") and (
        err.count("\n") == 1
    )
    assert main(["solve", "gomoku", "--k", "4", "--json"]) == 2
    out, err = capsys.readouterr()
    assert '"code": 2' in out and "gomoku is 15x15,k=5 with 5 in a row, not 4" in err
    assert main(["count", "3x3x"]) == 2
    _, err = capsys.readouterr()
    assert err.startswith("oxo: error: bad board spec '3x3x'")


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.sampled_from([*BOARD_NAMES, "connect4", "Connect-Four", " mega ", "uttt", "ultimate"]),
        st.text(alphabet="0123456789xXo.,/ =kmn()gravity×*", max_size=14),
    )
)
def test_text_that_names_no_game_is_not_looked_up(text: str) -> None:
    """``game_of_text`` skips :func:`find_game` for text that :func:`may_name_a_game` rules out
    (a position): no game is missed by that shortcut."""
    if find_game_or_none(text) is not None:
        assert may_name_a_game(text)
