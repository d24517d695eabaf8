"""One error taxonomy: bad input is an OxoError (a ValueError, exit 2), a question out of reach is an
OutOfReachError (exit 3), a "no" is an answer (exit 1); the classes live in ``oxo.errors`` only."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import oxo.errors as errors
from oxo.cli import main
from oxo.errors import OptionError, OutOfReachError, OxoError, PositionError
from oxo.geometry import Geometry
from oxo.position import Position

SOURCE = Path(__file__).resolve().parents[1] / "src" / "oxo"
#: The shells may define request-level errors for their own status codes, built on oxo.errors.
SHELLS = ("cli", "web")


def _exception_classes(tree: ast.Module) -> list[tuple[int, str, list[str]]]:
    """(line, name, base names) of the module-level classes that look like exceptions."""
    found = []
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        bases = [ast.unparse(base).rpartition(".")[2] for base in node.bases]
        if any(
            b.endswith(("Error", "Exception")) or b in ("Exception", "BaseException") for b in bases
        ):
            found.append((node.lineno, node.name, bases))
    return found


def test_the_scan_recognises_exception_classes() -> None:
    tree = ast.parse(
        "class A(ValueError): pass\nclass B(errors.OxoError): pass\nclass C: pass\n"
        "class D(Exception): pass\n"
    )
    assert [name for _, name, _ in _exception_classes(tree)] == ["A", "B", "D"]


def test_exceptions_are_defined_in_oxo_errors_only() -> None:
    """Outside oxo.errors only private control-flow exceptions (``_Name``) are defined; the shells may
    add request-level errors that subclass oxo.errors' classes."""
    public = set(errors.__all__)
    misplaced = []
    for path in sorted(SOURCE.rglob("*.py")):
        if path == SOURCE / "errors.py":
            continue
        shell = path.relative_to(SOURCE).parts[0] in SHELLS
        for line, name, bases in _exception_classes(ast.parse(path.read_text(encoding="utf-8"))):
            if name.startswith("_"):
                continue
            if shell and any(base in public for base in bases):
                continue
            misplaced.append(
                f"{path.relative_to(SOURCE.parent)}:{line}: {name}({', '.join(bases)})"
            )
    assert misplaced == []


def test_three_kinds() -> None:
    """Bad input, out of reach, and a stop (Ctrl-C) that carries what was settled: each class is
    exactly one of them."""
    classes = [
        value
        for name in errors.__all__
        if inspect.isclass(value := getattr(errors, name)) and issubclass(value, BaseException)
    ]
    assert len(classes) == len(errors.__all__)
    for cls in classes:
        kinds = [issubclass(cls, kind) for kind in (OxoError, OutOfReachError, KeyboardInterrupt)]
        assert kinds.count(True) == 1, cls
        assert issubclass(cls, ValueError) == issubclass(cls, OxoError), cls
    assert errors.Stopped("partial").partial == "partial"


def test_library_raises_the_right_kind() -> None:
    from oxo.engines.levels import normalize_level
    from oxo.fullboards import count_full_boards
    from oxo.space import build_space
    from oxo.terminal import count_terminal

    with pytest.raises(OutOfReachError) as too_big:
        build_space(Geometry.parse("5x5"))
    assert not isinstance(too_big.value, ValueError)
    with pytest.raises(OutOfReachError):
        count_full_boards(Geometry.parse("4x4x4"))
    with pytest.raises(OutOfReachError, match="--ply"):
        count_terminal(Geometry.parse("4x4x4"))
    with pytest.raises(OptionError):
        count_terminal(Geometry.parse("3x3"), "magic")  # type: ignore[arg-type]  # a bad method on purpose
    with pytest.raises(OptionError):
        normalize_level("grandmaster")
    with pytest.raises(PositionError):
        build_space(Position.from_string("oo......."))


@pytest.mark.parametrize(
    "args,code,prefix",
    [
        (["count", "2x2x2x2x2x2"], 2, "oxo: error:"),
        (["show", "xo"], 2, "oxo: error:"),
        (["terminal", "4x4x4"], 3, "oxo: out of reach:"),
        (["fullboards", "4x4x4"], 3, "oxo: out of reach:"),
        (["check", "xxx/ooo/..."], 1, None),
    ],
)
def test_the_cli_maps_each_kind_to_its_exit_status(
    capsys: pytest.CaptureFixture[str], args: list[str], code: int, prefix: str | None
) -> None:
    assert main(args) == code
    err = capsys.readouterr().err
    if prefix is None:
        assert "Traceback" not in err
    else:
        assert err.startswith(prefix) and err.count("\n") == 1
