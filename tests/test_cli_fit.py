"""Text broken between words at the terminal's width (``oxo.cli.fit``)."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st

from oxo.cli.fit import FittingStream, continuation, fit_line


def test_continuations_keep_the_shape_of_the_line() -> None:
    assert continuation("moves:          2: X wins in 1 ply, 3: X wins") == " " * 16
    assert continuation("  - O moved last, but the game was over") == " " * 4
    assert continuation("    plain words go on at the indent") == " " * 4
    assert continuation("oxo: error: one label, one space") == ""


def test_a_long_label_line_is_broken_under_its_value() -> None:
    line = "moves:          " + ", ".join(f"{cell}: X wins in 1 ply" for cell in range(9))
    lines = fit_line(line, 80).split("\n")
    assert len(lines) > 1 and all(len(part) <= 80 for part in lines)
    assert all(part.startswith(" " * 16) and part[16] != " " for part in lines[1:])
    assert " ".join(" ".join(lines).split()) == " ".join(line.split())  # no word lost or cut


def test_cell_lists_are_not_broken_at_their_hyphens() -> None:
    line = "  side-1     " + " ".join(f"{a}-{a + 1}-{a + 2}" for a in range(0, 60, 3))
    for part in fit_line(line, 40).split("\n"):
        assert all(word.count("-") in (0, 1, 2) for word in part.split())
        assert not part.rstrip().endswith("-")


def test_lines_drawn_in_place_pass_unchanged() -> None:
    for line in ("\rcounting 4x4x4: 40%" + " " * 90, "\x1b[2K" + "x" * 120):
        assert fit_line(line, 80) == line


@given(st.text(alphabet="ab cd-:,.", max_size=300), st.integers(20, 120))
def test_no_line_is_wider_than_the_width(text: str, width: int) -> None:
    for part in fit_line(text, width).split("\n"):
        assert len(part) <= width


def test_the_stream_keeps_partial_lines_until_a_flush() -> None:
    out = io.StringIO()
    stream = FittingStream(out, width=80)
    stream.write("your move (X): ")
    assert out.getvalue() == ""
    stream.flush()  # a prompt is shown as it is
    assert out.getvalue() == "your move (X): "
    stream.write("a " * 50 + "\n")  # after the answer, typed on the terminal with its Enter
    after = out.getvalue().removeprefix("your move (X): ")
    assert after.count("\n") == 2 and all(len(line) <= 80 for line in after.split("\n"))


def test_a_hanging_continuation_and_a_word_kept_whole() -> None:
    """``hanging`` sets plain lines' continuations further in than the next item of their list;
    with ``cut=False`` a word longer than a line (a path, a digest) stands whole on its own line,
    the other words still broken to the width."""
    item = "    O's 21 replies to X on 0: " + "X wins after 0, " * 8
    lines = fit_line(item, 80, hanging=4).split("\n")
    assert len(lines) > 1 and all(part.startswith(" " * 8) for part in lines[1:])
    assert all(len(part) <= 80 for part in lines)
    labelled = "moves:          " + ", ".join(f"{cell}: X wins" for cell in range(20))
    assert fit_line(labelled, 80, hanging=4) == fit_line(labelled, 80)  # a label sets its own
    path = "/tmp/" + "d" * 100 + "/4x4x4x4-k4-x-win.jsonl.gz"
    line = f"certificate: {path}  (check it with: oxo verify {path})"
    kept = fit_line(line, 80, cut=False).split("\n")
    assert sum(path in part for part in kept) == 2
    assert all(len(part) <= 80 for part in kept if path not in part)
    assert all(path not in part for part in fit_line(line, 80).split("\n"))  # cut by default


@given(st.text(alphabet="ab cd-:,.", max_size=300), st.integers(20, 120), st.integers(0, 8))
def test_uncut_lines_are_wider_only_by_a_long_word(text: str, width: int, hanging: int) -> None:
    for part in fit_line(text, width, hanging, cut=False).split("\n"):
        assert len(part) <= width or len(part.split()) == 1
