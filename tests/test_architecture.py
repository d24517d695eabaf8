"""The import contract of docs/architecture.md, checked on the source with ``ast``.

- The library never imports the command line (``oxo.cli``) or the web app (``oxo.web``); the web app
  never imports the command line.
- Games (``oxo.mega``, ``oxo.uttt``, ``oxo.gravity``) never import each other.
- Engines (``oxo.engines``) know only the game interface: besides themselves they import
  ``oxo.game`` and the plumbing (errors, progress, cache), never a game or the classic board modules.

Every import counts, including those inside functions and under ``TYPE_CHECKING``: a lazy import is
still a dependency. The page must also name every package and top-level module, so it stays whole.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src" / "oxo"
PAGE = ROOT / "docs" / "architecture.md"

SHELLS = ("oxo.cli", "oxo.web")
GAMES = ("oxo.mega", "oxo.uttt", "oxo.gravity")
#: What an engine may import besides ``oxo.engines`` itself.
ENGINE_ALLOWED = ("oxo.game", "oxo.errors", "oxo.progress", "oxo.cache")


def module_name(path: Path) -> str:
    parts = path.relative_to(SOURCE.parent).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def imports_of(source: str, module: str, is_package: bool = False) -> Iterator[tuple[int, str]]:
    """(line, imported module) for every ``oxo`` import in a module's source, relative ones resolved.

    ``from oxo.x import y`` yields both ``oxo.x`` and ``oxo.x.y`` (``y`` may be a submodule).
    """
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            yield node.lineno, target
            for alias in node.names:
                yield node.lineno, f"{target}.{alias.name}"


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def violations(module: str, imported: str) -> list[str]:
    """The rules of the contract that ``module`` importing ``imported`` breaks."""
    if not within(imported, "oxo"):
        return []
    broken = []
    shell = next((s for s in SHELLS if within(module, s)), None)
    for target in SHELLS:
        if within(imported, target) and shell is None:
            broken.append(f"the library imports {target}")
    if shell == "oxo.web" and within(imported, "oxo.cli"):
        broken.append("the web app imports the command line")
    game = next((g for g in GAMES if within(module, g)), None)
    if game is not None:
        for other in GAMES:
            if other != game and within(imported, other):
                broken.append(f"game {game} imports game {other}")
    if within(module, "oxo.engines") and not within(imported, "oxo.engines"):
        if imported != "oxo" and not any(within(imported, a) for a in ENGINE_ALLOWED):
            broken.append(f"an engine imports {imported} (engines know only oxo.game)")
    return broken


def source_modules() -> list[tuple[str, Path]]:
    return sorted((module_name(path), path) for path in SOURCE.rglob("*.py"))


def test_the_checker_sees_every_kind_of_breach() -> None:
    """The rules on made-up sources: each forbidden import is reported, the allowed ones are not."""
    lazy = "def f():\n    from oxo.cli import main\n"
    found = [
        v
        for _, name in imports_of(lazy, "oxo.counting.pairs")
        for v in violations("oxo.counting.pairs", name)
    ]
    assert found and "the library imports oxo.cli" in found
    relative = "from ..uttt import rules\n"
    found = [
        v
        for _, name in imports_of(relative, "oxo.mega.rules")
        for v in violations("oxo.mega.rules", name)
    ]
    assert "game oxo.mega imports game oxo.uttt" in found
    found = [
        v
        for _, name in imports_of("import oxo.position\n", "oxo.engines.mcts")
        for v in violations("oxo.engines.mcts", name)
    ]
    assert found == ["an engine imports oxo.position (engines know only oxo.game)"]
    assert violations("oxo.web.app", "oxo.cli.common") == ["the web app imports the command line"]
    for module, name in (
        ("oxo.cli.core", "oxo.web"),
        ("oxo.cli.core", "oxo.position"),
        ("oxo.engines.mcts", "oxo.game"),
        ("oxo.engines.mcts", "oxo.engines.base"),
        ("oxo.mega.rules", "oxo.mega.notation"),
        ("oxo.engines.base", "numpy"),
    ):
        assert violations(module, name) == [], (module, name)


def test_imports_follow_the_contract() -> None:
    modules = source_modules()
    assert len(modules) > 40
    broken = [
        f"{path.relative_to(ROOT)}:{line}: {rule}"
        for module, path in modules
        for line, name in imports_of(
            path.read_text(encoding="utf-8"), module, path.name == "__init__.py"
        )
        for rule in violations(module, name)
    ]
    assert broken == []


@pytest.mark.parametrize("game", GAMES)
def test_each_game_exists_as_a_package(game: str) -> None:
    """The contract names real packages (a renamed game would make its rule vacuous)."""
    assert (SOURCE / game.split(".")[1] / "__init__.py").exists()


def test_the_page_names_every_package_and_module() -> None:
    page = PAGE.read_text(encoding="utf-8")
    named = set(re.findall(r"`([a-z_]+)/?`", page))
    parts = {
        path.stem if path.is_file() else path.name
        for path in SOURCE.iterdir()
        if (path.suffix == ".py" and path.stem != "__init__")
        or (path.is_dir() and (path / "__init__.py").exists())
    }
    assert sorted(parts - named) == []


# -- type hints: every silenced check says which and why -------------------------------------------

_IGNORE = re.compile(r"#\s*type:\s*ignore(?P<codes>\[[^\]]*\])?(?P<rest>.*)$")


def ignores_without_reason(source: str) -> list[tuple[int, str]]:
    """(line, text) of each ``type: ignore`` that names no error code or gives no reason after it."""
    found = []
    for number, line in enumerate(source.splitlines(), start=1):
        match = _IGNORE.search(line)
        if match and (not match["codes"] or not match["rest"].strip().startswith("#")):
            found.append((number, line.strip()))
    return found


def test_the_ignore_scan() -> None:
    assert ignores_without_reason("x = f()  # type: ignore[arg-type]  # f is untyped\n") == []
    assert len(ignores_without_reason("x = f()  # type: ignore[arg-type]\n")) == 1
    assert len(ignores_without_reason("x = f()  # type: ignore  # no code\n")) == 1


def test_every_type_ignore_names_its_code_and_says_why() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {text}"
        for _, path in source_modules()
        for number, text in ignores_without_reason(path.read_text(encoding="utf-8"))
    ]
    assert found == []
