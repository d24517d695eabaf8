"""The registry of games (:mod:`oxo.registry`): every name finds its game, unknown text lists the known
names, and every command that takes a game answers each game by name or says what it lacks.

The matrix runs each command on each game through the real CLI and checks the answer against the
game's own abilities: a command the descriptor says the game supports answers (exit 0, 1 or 3), any
other refuses in one line naming the game (exit 2), never with "bad board spec".
"""

from __future__ import annotations

import io
import json
import sys

import pytest

import oxo
from oxo.cli import main
from oxo.errors import BoardSpecError, OxoError, UnknownGameError, UnsupportedError
from oxo.game import GameState
from oxo.geometry import Geometry
from oxo.gravity.board import GravityBoard, GravityState
from oxo.mega.rules import MegaState
from oxo.position import Position
from oxo.registry import (
    ABILITIES,
    KNOWN_NAMES,
    Game,
    find_game,
    find_game_or_none,
    game_of,
    games,
    new_game,
)
from oxo.uttt.rules import UtttState

#: The games of the matrix, as a user would type them.
MATRIX_GAMES = ("connect4", "mega", "uttt", "3x3x3", "6x7,k=4,gravity")
#: Each command with small limits, so that every cell of the matrix takes seconds at most.
COMMANDS: dict[str, tuple[str, ...]] = {
    "play": ("--time", "0.2"),
    "selfplay": ("--games", "1", "--x", "random", "--o", "random"),
    "move": ("--level", "easy"),
    "count": ("--plies", "2"),
    "solve": ("--time", "1"),
    "analyze": (),
    "map": (),
    "show": (),
    "check": (),
}
#: What the refusals must never say: the words of a parser that did not know the game.
NOT_KNOWN = ("bad board spec", "unknown character")


def run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _cell_args(command: str, game: str) -> list[str]:
    args = [command, game, *COMMANDS[command]]
    if command == "analyze" and find_game(game).family == "gravity":
        args += ["--time", "1"]  # gravity positions are analysed within a time limit
    return args


def _matrix() -> list[object]:
    cells: list[object] = []
    for command in COMMANDS:
        for game in MATRIX_GAMES:
            cells.append(pytest.param(command, game, id=f"{command}-{game}"))
    return cells


@pytest.mark.parametrize(("command", "game"), _matrix())
def test_every_command_answers_every_game_by_name(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: str, game: str
) -> None:
    described = find_game(game)
    code, out, err = run(monkeypatch, capsys, *_cell_args(command, game))
    for words in NOT_KNOWN:
        assert words not in err.lower() and words not in out.lower(), (code, out, err)
    if command in described.commands():
        assert code in (0, 1, 3), (code, out, err)
        assert out.strip() or err.strip()
        if code == 3:  # what is known and what to try, on the last line
            assert err.splitlines()[-1].startswith("oxo: out of reach: "), err
    else:
        assert code == 2, (code, out, err)
        assert out == ""
        assert err.count("\n") == 1 and err.startswith("oxo: error: "), err
        assert described.title in err
        # it says what does work on the game, as commands to type
        assert any(f"oxo {other} {described.short_name}" in err for other in described.commands())


def test_the_matrix_holds_both_answers_and_refusals() -> None:
    """The matrix is not vacuous: some cells answer and some refuse (by the games' abilities)."""
    supported = [c in find_game(g).commands() for c in COMMANDS for g in MATRIX_GAMES]
    assert any(supported) and not all(supported)


def test_a_refusal_under_json_is_json(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(monkeypatch, capsys, "solve", "mega", "--json")
    assert code == 2 and json.loads(out) == {"error": err.strip()[len("oxo: error: ") :], "code": 2}
    assert "mega tic-tac-toe has no exact solver; try oxo play mega or oxo selfplay mega" in err


def test_move_on_a_named_board_answers_for_its_empty_position(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``oxo move 5x5 --k 4`` plays on the empty 5x5 board, as ``oxo analyze`` reads a board."""
    code, out, err = run(
        monkeypatch, capsys, "move", "5x5", "--k", "4", "--json", "--level", "easy"
    )
    assert code == 0, err
    data = json.loads(out)
    start = Position.empty(Geometry.parse("5x5", 4))
    assert data["move"] in start.legal_moves


def _record(start: GameState, moves: int) -> tuple[str, GameState]:
    """A record of ``moves`` moves (each the first legal one) and the state it reaches."""
    words = []
    state = start
    for _ in range(moves):
        move = state.legal_moves[0]
        words.append(state.format_move(move))
        state = state.play(move)
    return " ".join(words), state


def test_move_reads_a_record_of_a_game_of_nine_grids(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    record, state = _record(UtttState(), 2)
    code, out, err = run(
        monkeypatch, capsys, "move", record, "--board", "uttt", "--level", "random", "--json"
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["game"] == "uttt" and state.parse_move(data["move"]) in state.legal_moves


def test_show_draws_a_game_by_its_name(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(monkeypatch, capsys, "show", "connect4", "--json")
    start = GravityState(GravityBoard(6, 7, 4))
    assert code == 0
    data = json.loads(out)
    assert data["to_move"] == "x" and len(data["legal_moves"]) == len(start.legal_moves)


# -- find_game -----------------------------------------------------------------------------------


def _examples() -> list[Game]:
    return [
        *games(),
        find_game("3x3x3"),
        find_game("5x5", 4),
        find_game("6x7,k=4,gravity"),
        find_game("5x4", 3, gravity=True),
        find_game("mnk(m=4,n=3,k=3)"),
        find_game("scorefour"),
    ]


@pytest.mark.parametrize("game", _examples(), ids=repr)
def test_every_alias_finds_its_game(game: Game) -> None:
    assert game.aliases[0] == game.name
    for alias in game.aliases:
        assert find_game(alias) == game
        assert find_game(alias.upper()) == game
        assert find_game(f"  {alias} ") == game


@pytest.mark.parametrize("game", _examples(), ids=repr)
def test_a_name_round_trips(game: Game) -> None:
    again = find_game(game.name)
    assert again == game and hash(again) == hash(game) and again.name == game.name
    assert game.short_name in game.aliases
    data = game.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert set(data["abilities"]) == set(ABILITIES)


@pytest.mark.parametrize(
    ("spec", "family"),
    [
        ("connect4", "gravity"),
        ("connect-four", "gravity"),
        ("6x7,k=4,gravity", "gravity"),
        ("uttt", "uttt"),
        ("ultimate", "uttt"),
        ("mega", "mega"),
        ("3x3", "board"),
        ("3x3x3", "board"),
        ("mnk(m=4,n=4,k=3)", "board"),
    ],
)
def test_each_name_of_the_issue_finds_its_family(spec: str, family: str) -> None:
    assert find_game(spec).family == family


def test_mnk_is_openspiel_order() -> None:
    """OpenSpiel's ``mnk(m=.., n=.., k=..)``: m columns, n rows."""
    assert find_game("mnk(m=4,n=4,k=3)") == find_game("4x4", 3) == find_game("4x4,k=3")
    wide = find_game("mnk(m=5,n=3,k=3)")
    assert wide == find_game("3x5")
    assert wide.start() == Position.empty(Geometry((3, 5), 3))


def test_gravity_and_k_given_as_options() -> None:
    assert find_game("6x7", 4, gravity=True) == find_game("connect4")
    assert find_game("6x7,k=5,gravity").name == "6x7,k=5,gravity"
    assert find_game("6x7", 4) != find_game("connect4")  # without gravity a classic board
    assert find_game("6x7", 4).family == "board"


@pytest.mark.parametrize("text", ["chess", "go", "", "mega2", "tic tac toe", "x.o"])
def test_unknown_names_list_the_known_ones(text: str) -> None:
    with pytest.raises(UnknownGameError) as caught:
        find_game(text)
    message = str(caught.value)
    assert isinstance(caught.value, BoardSpecError) and isinstance(caught.value, OxoError)
    for name in ("connect4", "mega", "uttt", "mnk(", "3x3", "gravity"):
        assert name in message and name in KNOWN_NAMES
    assert find_game_or_none(text) is None


@pytest.mark.parametrize(
    "text",
    ["0x3", "3x3,k=9", "4x", "mnk(m=3)", "4x,gravity", "2x2x2x2x2x2,gravity", "4x4x4,k=5,gravity"],
)
def test_a_board_written_wrong_says_why(text: str) -> None:
    """Text that starts like a board gets the board's own error, not the list of names."""
    with pytest.raises(BoardSpecError) as caught:
        find_game(text)
    assert not isinstance(caught.value, UnknownGameError)


def test_the_games_of_nine_grids_take_no_k_nor_gravity() -> None:
    for name in ("mega", "uttt"):
        with pytest.raises(BoardSpecError, match="neither --k nor --gravity"):
            find_game(name, 3)
        with pytest.raises(BoardSpecError, match="neither --k nor --gravity"):
            find_game(name, gravity=True)


def test_find_game_refuses_what_is_not_text() -> None:
    with pytest.raises(BoardSpecError):
        find_game(3)  # type: ignore[arg-type]  # what an untyped caller may pass


# -- the descriptors -----------------------------------------------------------------------------


def test_each_family_builds_its_own_state() -> None:
    kinds = {"board": Position, "gravity": GravityState, "mega": MegaState, "uttt": UtttState}
    for game in _examples():
        start = game.start()
        assert isinstance(start, kinds[game.family]) and isinstance(start, GameState)
        assert new_game(game.name) == start == oxo.new_game(game.name)
        assert oxo.find_game(game.name) == game


@pytest.mark.parametrize("game", _examples(), ids=repr)
def test_game_of_a_state_is_its_game(game: Game) -> None:
    start = game.start()
    assert game_of(start) == game
    after = start.play(start.legal_moves[0])
    assert game_of(after) == game


@pytest.mark.parametrize("game", _examples(), ids=repr)
def test_positions_and_moves_are_read_by_the_game(game: Game) -> None:
    start = game.start()
    assert game.parse_position(game.name) == start
    for move in start.legal_moves[:3]:
        assert game.parse_move(start, start.format_move(move)) == move


def test_records_and_cells_are_positions_of_their_games() -> None:
    for start in (MegaState(), UtttState()):
        record, state = _record(start, 3)
        assert find_game(game_of(start).name).parse_position(record) == state
    assert find_game("3x3").parse_position("x...o....") == Position.from_string("x...o....")
    c4 = GravityBoard(6, 7, 4)
    assert find_game("connect4").parse_position("4453") == GravityState.from_moves(c4, [3, 3, 4, 2])


@pytest.mark.parametrize("game", _examples(), ids=repr)
def test_the_engine_of_every_game_plays_a_legal_move(game: Game) -> None:
    start = game.start()
    engine = game.make_engine("random", start, seed=1)
    assert engine.choose(start) in start.legal_moves


@pytest.mark.parametrize("game", _examples(), ids=repr)
def test_every_game_is_drawn(game: Game) -> None:
    assert game.svg and game.draw_svg(game.start()).lstrip().startswith("<svg")
    start = game.start()
    empty = len(getattr(start, "empty_cells", start.legal_moves))  # with gravity: not all playable
    assert game.size == empty or game.family == "gravity"


def test_require_names_the_game_and_what_it_supports() -> None:
    for game in _examples():
        for ability in ABILITIES:
            if game.supports(ability):
                game.require(ability)  # no error
                continue
            with pytest.raises(UnsupportedError) as caught:
                game.require(ability)
            message = str(caught.value)
            assert message.startswith(f"{game.title} has no {ABILITIES[ability][0]}")
            assert "oxo " in message
    with pytest.raises(KeyError):
        find_game("3x3").supports("flying")


def test_abilities_follow_the_games() -> None:
    """What the descriptors claim is what the library has: rules texts exist where claimed, and
    the exact questions of classic boards are not claimed for the games of nine grids."""
    for game in _examples():
        assert (game.rules_text() is not None) == game.rules
    for name in ("mega", "uttt"):
        game = find_game(name)
        assert not (game.solver or game.analyzer or game.strategy_map or game.legality)
    assert find_game("uttt").counter and not find_game("mega").counter
    for game in _examples():
        assert ("perfect" in game.levels) == game.solver, game
        # the engines get the exact solver from the descriptor exactly where it claims one
        assert (game.exact_solver() is not None) == game.solver, game


def test_the_exact_solver_handed_to_the_engines_answers_for_its_game() -> None:
    """The descriptor's solver knows the values of the game it comes with (a state holds none)."""
    for name, moves in (("3x3", (4, 0)), ("4x4,k=3,gravity", (1, 2, 1))):
        game = find_game(name)
        state = game.start()
        for move in moves:
            state = state.play(move)
        solver = game.exact_solver()
        assert solver is not None and not hasattr(state, "solution")
        solution = solver(state, 16)
        assert state in solution and solution.value(state).outcome in ("x", "o", "draw")
        assert set(solution.best_moves(state)) <= set(state.legal_moves)
        assert solver(game.start(), 1) is None  # beyond the limit: out of reach


@pytest.mark.parametrize("game", _examples(), ids=repr)
def test_perfect_play_is_offered_where_it_is_reached(game: Game) -> None:
    """A level the descriptor offers makes an engine; perfect, where not offered, is out of reach."""
    start = game.start()
    for level in game.levels:
        if level != "perfect":  # perfect on an empty big board may be out of reach: tried below
            game.make_engine(level, start, seconds=0.05, seed=1)
    if "perfect" not in game.levels:
        with pytest.raises(oxo.OutOfReachError):
            game.make_engine("perfect", start, seed=1).choose(start)


@pytest.mark.parametrize("name", ["connect4", "mega", "uttt", "6x7,k=4,gravity"])
def test_the_api_refuses_other_games_by_name(name: str) -> None:
    """oxo.Board and the position questions answer classic boards; another game's name is refused
    naming the game, not as letters a position cannot hold."""
    game = find_game(name)
    for call in (
        lambda: oxo.Board(name),
        lambda: oxo.analyze(name),
        lambda: oxo.check(name),
        lambda: oxo.move(name),
    ):
        with pytest.raises(UnsupportedError) as caught:
            call()
        assert game.title in str(caught.value)
        assert "unknown character" not in str(caught.value)


def test_the_api_counts_by_name() -> None:
    """oxo.count finds its game in the registry: the names of a gravity board agree, mega has no
    counter."""
    assert (
        oxo.count("connect4", plies=3).to_dict() == oxo.count("6x7,k=4,gravity", plies=3).to_dict()
    )
    with pytest.raises(UnsupportedError, match="mega tic-tac-toe has no position counter"):
        oxo.count("mega")


@pytest.mark.parametrize("command", ["classes", "terminal", "games", "deadends", "fullboards"])
@pytest.mark.parametrize("name", ["connect4", "mega", "uttt"])
def test_commands_of_classic_boards_refuse_other_games_by_name(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: str, name: str
) -> None:
    code, out, err = run(monkeypatch, capsys, command, name)
    game = find_game(name)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"oxo: error: {game.title} is not a board of m,n,k tic-tac-toe")
    assert f"oxo play {game.short_name}" in err
    for words in NOT_KNOWN:
        assert words not in err


@pytest.mark.parametrize(
    "name", ["scorefour", "Score-Four", "sogo", "4x4x4,gravity", "4x4x4,k=4,gravity"]
)
def test_score_four_is_found_by_its_names(name: str) -> None:
    game = find_game(name)
    assert game.title == "Score Four" and game.name == "4x4x4,gravity" and game.family == "board"
    assert game.short_name == "scorefour"
    assert {"scorefour", "score-four", "sogo", "4x4x4,gravity"} <= set(game.aliases)
    assert find_game("4x4x4", gravity=True) == game
    state = game.start()
    assert len(state.legal_moves) == 16 and state.format_move(state.legal_moves[0]) == "1"
    assert "column" in game.move_help and "16 columns of 4" in game.description


def test_score_four_refuses_by_name_what_it_does_not_answer() -> None:
    game = find_game("scorefour")
    for ability in ("analyzer", "strategy_map"):
        with pytest.raises(UnsupportedError, match="Score Four has no .*; try oxo solve scorefour"):
            game.require(ability)
    assert {"play", "selfplay", "move", "show", "count", "solve"} <= set(game.commands())
    with pytest.raises(BoardSpecError, match="4x4x4,k=3,gravity"):
        find_game("scorefour", k=3)


def test_boxes_of_four_dimensions_and_gravity_on_them() -> None:
    game = find_game("4x4x4x4")
    assert game.title == "the 4x4x4x4 hypercube with 4 in a row" and game.size == 256
    dropped = find_game("4x4x4x4,gravity")
    assert dropped.title == "the 4x4x4x4 hypercube with gravity and 4 in a row"
    assert len(dropped.start().legal_moves) == 64
    assert find_game("6x7,k=4,gravity").family == "gravity"  # flat: Connect Four's own game


#: The names people use for classic boards (issue 45, item 4), and the boards they stand for.
NAMED_BOARDS = [
    ("tictactoe", "3x3"),
    ("tic-tac-toe", "3x3"),
    ("qubic", "4x4x4"),
    ("gomoku", "15x15,k=5"),
]


@pytest.mark.parametrize(("name", "board"), NAMED_BOARDS)
def test_a_board_answers_to_the_name_people_use(name: str, board: str) -> None:
    from oxo.registry import BOARD_NAMES, board_geometry, looks_like_board

    assert BOARD_NAMES[name] == board
    game = find_game(name)
    assert game == find_game(board) and game.family == "board"
    assert name in game.aliases and find_game(name.upper()) == game
    assert board_geometry(f" {name.title()} ") == Geometry.parse(board) == game.geometry  # type: ignore[attr-defined]
    assert looks_like_board(name) and find_game_or_none(name) == game
    assert oxo.Board(board) == oxo.Board(game.name)
    assert find_game(name, game.geometry.k) == game  # type: ignore[attr-defined]  # its own k
    with pytest.raises(BoardSpecError, match="give the board itself"):
        find_game(name, game.geometry.k + 1)  # type: ignore[attr-defined]
    with pytest.raises(BoardSpecError, match="without gravity"):
        find_game(name, gravity=True)


@pytest.mark.parametrize(
    "args",
    [
        ["count", "qubic", "--plies", "2"],
        ["count", "tictactoe"],
        ["solve", "tic-tac-toe"],
        ["analyze", "tictactoe"],
        ["show", "gomoku"],
        ["check", "tictactoe"],
        ["move", "qubic", "--level", "easy"],
        ["play", "qubic", "--level", "random"],
        ["play", "gomoku", "--level", "random"],
        ["map", "tictactoe"],
    ],
    ids=" ".join,
)
def test_every_command_takes_the_names_of_boards(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    code, out, err = run(monkeypatch, capsys, *args)
    assert code == 0, (out, err)
    assert "unknown game" not in err and not any(words in err for words in NOT_KNOWN), err
