"""The one terminal game loop (:mod:`oxo.cli.session`) behind ``oxo play GAME``, ``oxo mega play`` and
``oxo uttt play``: piped sessions print what a game against the computer printed before the loops
were merged (the transcript is rebuilt here move by move from the rules and a second engine with the
same seed), and help, moves and undo work on every game."""

from __future__ import annotations

import io
import sys

import pytest

from oxo.cli import main
from oxo.game import GameState
from oxo.registry import Game, find_game


def run_play(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], typed: str, *args: str
) -> tuple[int, list[str]]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    code = main(list(args))
    return code, capsys.readouterr().out.splitlines()


def classic_picture(state: GameState) -> list[str]:
    """The board as the classic game draws it: marks, empty cells as their number, right-aligned;
    the layers of a cube headed "layer n" and side by side (the cubes here fit in 80 columns)."""
    geometry = state.geometry  # type: ignore[attr-defined]
    labels = [".XO"[s] if s else str(cell) for cell, s in enumerate(state.statuses)]  # type: ignore[attr-defined]
    width = max(map(len, labels))
    rows, cols = geometry.shape[-2:]
    layer_count = geometry.size // (rows * cols)
    grid = [
        "  " + " ".join(label.rjust(width) for label in labels[row * cols : (row + 1) * cols])
        for row in range(geometry.size // cols)
    ]
    if layer_count == 1:
        return grid
    block = len(grid[0])
    heads = "    ".join(f"  layer {n + 1}".ljust(block) for n in range(layer_count)).rstrip()
    rows_side_by_side = [
        "    ".join(grid[layer * rows + row] for layer in range(layer_count)) for row in range(rows)
    ]
    return [heads, *rows_side_by_side]


def picture(game: Game, state: GameState) -> list[str]:
    return classic_picture(state) if game.family == "board" else state.text().splitlines()


def expected_session(
    game: Game, human: str, level: str, seed: int, turns: int
) -> tuple[str, list[str]]:
    """What a session against the computer prints when the person plays the first legal move each
    turn for ``turns`` turns and then types q: the typed input and the lines after the first."""
    start = game.start()
    engine = game.make_engine(level, start, seed=seed)
    state, typed, lines = start, [], []
    while not state.is_over:
        lines += ["", *picture(game, state)]
        mover = state.to_move
        assert mover is not None
        if mover == human:
            if len(typed) == turns:
                lines += [f"your move ({human.upper()}): q", "game abandoned"]
                typed.append("q")
                return "".join(f"{t}\n" for t in typed), lines
            move = state.legal_moves[0]
            text = state.format_move(move)
            typed.append(text)
            lines.append(f"your move ({human.upper()}): {text}")
        else:
            move = engine.choose(state)
            column = "column " if game.family == "gravity" else ""
            lines.append(f"computer ({mover.upper()}) plays {column}{state.format_move(move)}")
        state = state.play(move)
    lines += ["", *picture(game, state)]
    winner = state.outcome
    if winner == "draw":
        lines.append("draw: the board is full")
    else:
        assert winner is not None
        if game.family == "board":
            cells = next(c for p, c in state.complete_lines if p == winner)  # type: ignore[attr-defined]
            where = "the line " + ", ".join(map(str, cells))
        else:
            board = game.board  # type: ignore[attr-defined]
            where = ", ".join(board.cell_name(bit) for bit in state.winning_line())  # type: ignore[attr-defined]
        who = "you win" if winner == human else "the computer wins"
        lines.append(f"{winner.upper()} wins with {where}: {who}")
    return "".join(f"{t}\n" for t in typed), lines


@pytest.mark.parametrize(
    ("args", "human", "level", "seed", "turns"),
    [
        (["3x3"], "x", "random", 0, 9),
        (["3x3", "--as", "o"], "o", "perfect", 0, 9),
        (["5x5", "--k", "4"], "x", "easy", 3, 4),
        (["3x3x3"], "x", "random", 5, 14),
        (["4x4", "--k", "3", "--gravity"], "x", "random", 1, 16),
        (["connect4", "--as", "o"], "o", "easy", 4, 5),
    ],
)
def test_a_session_prints_the_board_and_moves_turn_by_turn(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    human: str,
    level: str,
    seed: int,
    turns: int,
) -> None:
    k = int(args[args.index("--k") + 1]) if "--k" in args else None
    game = find_game(args[0], k, "--gravity" in args)
    typed, lines = expected_session(game, human, level, seed, turns)
    code, out = run_play(
        monkeypatch, capsys, typed, "play", *args, "--level", level, "--seed", str(seed)
    )
    assert code == 0
    start = out.index("")  # the introduction, broken to 80 columns, then the first picture
    intro = " ".join(out[:start])
    assert f"You are {human.upper()}" in intro and "help" in intro
    assert all(len(line) <= 80 for line in out[:start])
    assert out[start:] == lines


def test_help_moves_and_undo_on_a_classic_board(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = find_game("3x3")
    after_4 = game.start().play(4)
    reply = game.make_engine("random", after_4, seed=1).choose(after_4)
    code, out = run_play(
        monkeypatch,
        capsys,
        "4\nhelp\nmoves\nundo\nundo\nq\n",
        "play",
        "--level",
        "random",
        "--seed",
        "1",
    )
    assert code == 0
    legal = after_4.play(reply).legal_moves
    at = out.index("your move (X): help")
    assert "cell number 0..8" in out[at + 1] and "'undo' takes back" in out[at + 2]
    assert out[at + 3] == "your move (X): moves"
    assert out[at + 4] == " ".join(map(str, legal))
    assert out[at + 5] == "your move (X): undo"
    assert out[at + 6 : at + 10] == ["", *classic_picture(game.start())]  # both moves taken back
    assert out[at + 10 :] == [
        "your move (X): undo",
        "nothing to undo",
        "your move (X): q",
        "game abandoned",
    ]


def test_undo_on_a_gravity_board_keeps_the_computers_opening(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = find_game("4x4", 3, True)
    start = game.start()
    engine = game.make_engine("random", start, seed=2)
    opening = start.play(engine.choose(start))
    code, out = run_play(
        monkeypatch,
        capsys,
        "help\nmoves\n1\nundo\nundo\nq\n",
        "play",
        "4x4",
        "--k",
        "3",
        "--gravity",
        "--as",
        "o",
        "--level",
        "random",
        "--seed",
        "2",
    )
    assert code == 0
    at = out.index("your move (O): help")
    assert "a column number, 1..4" in out[at + 1]
    assert out[at + 4] == " ".join(opening.format_move(m) for m in opening.legal_moves)
    undo = out.index("your move (O): undo")
    assert out[undo + 1 : undo + 2 + len(opening.text().splitlines())] == [
        "",
        *opening.text().splitlines(),
    ]
    assert out[-4:] == [
        "your move (O): undo",
        "nothing to undo",
        "your move (O): q",
        "game abandoned",
    ]


def test_moves_are_listed_as_keys_with_a_keypad(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run_play(
        monkeypatch, capsys, "moves\nq\n", "play", "--keypad", "numpad", "--level", "random"
    )
    assert code == 0
    keys = out[out.index("your move (X): moves") + 1].split()
    assert sorted(map(int, keys)) == list(range(1, 10)) and keys[0] == "7"  # cell 0 is key 7


def test_oxo_play_mega_and_oxo_mega_play_are_the_same_session(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    typed = "55\nhelp\nundo\n44\nq\n"
    _, via_play = run_play(
        monkeypatch, capsys, typed, "play", "mega", "--level", "random", "--seed", "6"
    )
    _, via_mega = run_play(
        monkeypatch, capsys, typed, "mega", "play", "--o", "random", "--seed", "6"
    )
    assert via_play == via_mega and via_play[-1].startswith("record: 44 ")


def test_rules_on_ultimate_tic_tac_toe(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = find_game("uttt").rules_text()
    assert rules is not None
    code, out = run_play(monkeypatch, capsys, "rules\nq\n", "uttt", "play", "--o", "random")
    assert code == 0 and "\n".join(out).count(rules.strip()) == 1
    code, out = run_play(monkeypatch, capsys, "rules\nq\n", "play", "3x3", "--level", "random")
    assert "illegal move: 'rules' is not a move; type a cell ID 0..8, or q to quit" in out


def test_a_big_board_shows_marks_and_numbers_on_the_edges_only(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = find_game("15x15", 5)
    start = game.start()
    engine = game.make_engine("easy", start, seed=3)
    after = start.play(112)
    after = after.play(engine.choose(after))
    code, out = run_play(
        monkeypatch,
        capsys,
        "112\nq\n",
        "play",
        "15x15",
        "--k",
        "5",
        "--level",
        "easy",
        "--seed",
        "3",
    )
    assert code == 0
    last = len(out) - 1 - out[::-1].index("your move (X): q")
    # the top edge, 15 rows, the columns' letters, the lines saying how to read cells and points
    # (a gomoku board: points such as h8 too, as oxo analyze writes them)
    board = out[last - 19 : last]
    offsets = [int(word) for word in board[0].split()]
    assert offsets == list(range(15)) and "left of its row + the one on top" in board[-2]
    assert board[16].split() == list("abcdefghijklmno") and "(h8)" in board[-1]
    assert all(len(line) <= 80 for line in board)
    seen = {}
    for number, row in enumerate(board[1:16]):
        first, *marks, point_row = row.split()
        assert int(point_row) == 15 - number  # rows counted from the bottom
        for offset, mark in zip(offsets, marks, strict=True):
            seen[int(first) + offset] = mark
    assert seen == {cell: ".XO"[s] for cell, s in enumerate(after.statuses)}  # type: ignore[attr-defined]


def test_a_keypad_game_names_the_winning_line_in_keys(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = find_game("3x3")
    engine = game.make_engine("random", game.start(), seed=0)
    state, typed = game.start(), []
    while not state.is_over:  # X plays the first free key each turn
        cell = state.legal_moves[0] if state.to_move == "x" else engine.choose(state)
        if state.to_move == "x":
            typed.append(f"{cell + 1}\n")
        state = state.play(cell)
    code, out = run_play(
        monkeypatch,
        capsys,
        "".join(typed),
        "play",
        "--keypad",
        "phone",
        "--level",
        "random",
        "--seed",
        "0",
    )
    assert code == 0
    if state.outcome == "draw":
        assert out[-1] == "draw: the board is full"
    else:
        cells = next(c for p, c in state.complete_lines if p == state.outcome)  # type: ignore[attr-defined]
        assert f"with keys {', '.join(str(c + 1) for c in cells)}:" in out[-1]


def _first_free_cell_game(seed: int) -> tuple[list[str], GameState]:
    """The cells X types when it always takes the first free cell against perfect O (seeded as
    'oxo play 3x3 --level perfect --seed N' seeds it), and the end of that game."""
    game = find_game("3x3")
    engine = game.make_engine("perfect", game.start(), seed=seed)
    state, typed = game.start(), []
    while not state.is_over:
        if state.to_move == "x":
            cell = state.legal_moves[0]
            typed.append(str(cell))
        else:
            cell = engine.choose(state)
        state = state.play(cell)
    return typed, state


@pytest.mark.parametrize("then", ["undo", "new"])
def test_after_the_end_a_person_may_take_back_or_play_again(then: str) -> None:
    """At a terminal, a game that has ended offers 'undo' (take back your last move) and 'new'
    (a new game) before the command stops (issue 45, item 6)."""
    from terminals import run_in_terminal

    typed, final = _first_free_cell_game(seed=1)
    assert final.winner == "o"  # the person lost: the case the offer is for
    run = run_in_terminal(
        ["play", "3x3", "--level", "perfect", "--seed", "1"], typed=[*typed, then, "q"], seconds=60
    )
    assert run.code == 0, run.output
    text = run.output.replace("\r\n", "\n")
    assert text.count("game over: 'undo' takes back your last move, 'new' starts a new game") == 1
    after = text.split("Enter stops: ")[1]
    assert "your move (X): q" in after and after.rstrip().endswith("game abandoned")
    board = after.split("your move")[0]
    marks = sum(board.count(mark) for mark in "XO")
    assert marks == (len(typed) * 2 - 2 if then == "undo" else 0)  # before the last move, or empty


def test_before_move_is_given_each_position_a_computer_plays_in(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``before_move`` (what ``oxo play`` offers a level there) sees every position a computer
    moves in, just before it moves, and none a person moves in."""
    from oxo.cli.session import terminal_game, view_of

    game = find_game("3x3")
    seen: list[GameState] = []
    engines = [game.make_engine("random", game.start(), seed=3), None]
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    last = terminal_game(view_of(game), ["random", "human"], engines, before_move=seen.append)
    assert seen == [game.start()] and last != game.start()  # X moved, then O quit
    seen.clear()
    engines = [None, game.make_engine("random", game.start(), seed=3)]
    monkeypatch.setattr(sys, "stdin", io.StringIO("4\n0\nquit\n"))
    terminal_game(view_of(game), ["human", "random"], engines, before_move=seen.append)
    assert seen[0] == game.start().play(4)  # X's first move, typed
    assert all(state.to_move == "o" for state in seen)  # type: ignore[attr-defined]  # a Position
