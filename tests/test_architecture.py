"""The import contract of docs/architecture.md, checked on the source with ``ast``.

- The library never imports the command line (``oxo.cli``) or the web app (``oxo.web``); the web app
  never imports the command line.
- Games (``oxo.mega``, ``oxo.uttt``, ``oxo.gravity``) never import each other.
- Engines (``oxo.engines``) know only the game interface: besides themselves they import
  ``oxo.game`` and the plumbing (errors, progress, cache, records), never a game or the classic board modules.

Every import counts, including those inside functions and under ``TYPE_CHECKING``: a lazy import is
still a dependency. The page must also name every package and top-level module, so it stays whole.
"""

from __future__ import annotations

import ast
import functools
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
ENGINE_ALLOWED = (
    "oxo.game",
    "oxo.errors",
    "oxo.progress",
    "oxo.cache",
    "oxo.records",
    "oxo.phrases",
)


def module_name(path: Path) -> str:
    parts = path.relative_to(SOURCE.parent).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


@functools.cache
def parsed(source: str) -> ast.Module:
    """A module's syntax tree, parsed once however many checks read it (never changed by them)."""
    return ast.parse(source)


def imports_of(source: str, module: str, is_package: bool = False) -> Iterator[tuple[int, str]]:
    """(line, imported module) for every ``oxo`` import in a module's source, relative ones resolved.

    ``from oxo.x import y`` yields both ``oxo.x`` and ``oxo.x.y`` (``y`` may be a submodule).
    """
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(parsed(source)):
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


# -- layers: every import points down, and no import goes round --------------------------------------

#: The layers of src/oxo, bottom first; a module belongs to the layer of the longest prefix that names
#: it. docs/architecture.md draws the same table. A module may import its own layer and those below.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "plumbing",
        (
            "oxo.errors",
            "oxo.cache",
            "oxo.progress",
            "oxo.fileio",
            "oxo.compiled",
            "oxo.palette",
            "oxo.records",
            "oxo.phrases",
        ),
    ),
    ("geometry", ("oxo.geometry",)),
    ("game interface", ("oxo.game",)),
    ("engines", ("oxo.engines",)),
    # values: positions, states and moves with their rules, notation, text and own drawing
    ("values", ("oxo.position", "oxo.ninegrids", "oxo.mega", "oxo.uttt", "oxo.gravity")),
    # questions about values: counts, legality, values with best play, proofs, reports
    (
        "questions",
        (
            "oxo.counting",
            "oxo.legality",
            "oxo.terminal",
            "oxo.winsearch",
            "oxo.space",
            "oxo.solve",
            "oxo.analysis",
            "oxo.games",
            "oxo.notation",
            "oxo.fullboards",
            "oxo.proofs",
            "oxo.book",
            "oxo.strategy_map",
            "oxo.reports",
            "oxo.tactics",
            "oxo.uttt.counting",
            "oxo.uttt.diskcount",
            "oxo.gravity.counting",
            "oxo.gravity.bitboard",
            "oxo.gravity.ordering",
            "oxo.gravity.table",
            "oxo.gravity.search",
            "oxo.gravity.wide",
            "oxo.gravity.values",
            "oxo.gravity.solver",
            "oxo.gravity.parallel",
            "oxo.gravity.certificate",
            "oxo.gravity.book",
            "oxo.gravity.proof",
            "oxo.gravity.reference",
            "oxo.gravity.engine",
        ),
    ),
    ("drawings", ("oxo.render",)),
    ("registry", ("oxo.registry",)),
    ("public API", ("oxo", "oxo.api", "oxo.rl", "oxo.warmup")),
    ("shells", ("oxo.cli", "oxo.web")),
)

#: Functions whose imports are allowed to point up: the notebook display methods, which draw a value
#: with the drawings above it (as python-chess does), and are called only by notebooks.
DISPLAY_METHODS = frozenset({"_repr_svg_", "_repr_html_"})

#: Imports that still break the layers (an import upward, or one that closes a circle), each
#: ``(importer, imported)``: none. The test fails on any violation not listed here, and on a listed
#: edge that no longer exists; an entry added here needs its reason beside it and in
#: docs/architecture.md.
KNOWN_VIOLATIONS: frozenset[tuple[str, str]] = frozenset()


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of the longest prefix naming ``module``."""
    best, found = -1, None
    for number, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if within(module, prefix) and len(prefix) > best:
                best, found = len(prefix), number
    if found is None:
        raise KeyError(f"{module} is in no layer of LAYERS")
    return found


def scoped_imports(
    source: str, module: str, is_package: bool = False
) -> Iterator[tuple[int, str, str]]:
    """(line, imported module, enclosing function or "") for every import, as :func:`imports_of`
    reads them."""
    scope: dict[int, str] = {}
    # One walk down the tree, each node with its innermost enclosing function.
    stack: list[tuple[ast.AST, str]] = [(parsed(source), "")]
    while stack:
        node, function = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)) and function:
            scope[node.lineno] = function
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            function = node.name
        stack.extend((child, function) for child in ast.iter_child_nodes(node))
    for line, name in imports_of(source, module, is_package):
        yield line, name, scope.get(line, "")


def import_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """Module → the modules it imports (every import, at module level or in a function), among the
    modules of ``sources`` (name → (source, is_package)).

    ``from P import m`` with ``m`` a module is an edge to ``P.m`` only; a module importing its own
    package (which Python loads first anyway) is no edge; imports inside the display methods are left
    out (see :data:`DISPLAY_METHODS`)."""
    names = set(sources)
    graph: dict[str, set[str]] = {}
    for module, (source, is_package) in sources.items():
        by_line: dict[int, set[str]] = {}
        for line, name, function in scoped_imports(source, module, is_package):
            if function not in DISPLAY_METHODS and name in names:
                by_line.setdefault(line, set()).add(name)
        targets = set()
        for found in by_line.values():
            for name in found:
                if name == module or within(module, name) or name == "oxo":
                    continue
                if any(other.startswith(name + ".") for other in found):
                    continue  # from P import m: the edge goes to P.m
                targets.add(name)
        graph[module] = targets
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (each holds an import circle)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:
        # Tarjan's algorithm, iterative so that deep graphs need no recursion.
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def layer_violations(
    graph: dict[str, set[str]], known: frozenset[tuple[str, str]] = frozenset()
) -> list[str]:
    """What breaks the layers, beyond the ``known`` edges: imports pointing up, circles left once
    the known edges are taken out, and known edges that no longer exist."""
    problems = []
    for module, targets in sorted(graph.items()):
        for target in sorted(targets):
            if (module, target) in known:
                continue
            if layer_of(target) > layer_of(module):
                problems.append(
                    f"{module} ({LAYERS[layer_of(module)][0]}) imports {target} "
                    f"({LAYERS[layer_of(target)][0]}), a layer above"
                )
    rest = {m: {t for t in ts if (m, t) not in known} for m, ts in graph.items()}
    for group in circles(rest):
        inside = set(group)
        edges = [f"{m} -> {t}" for m in group for t in sorted(rest[m]) if t in inside]
        problems.append(f"import circle: {', '.join(edges)}")
    for module, target in sorted(known):
        if target not in graph.get(module, set()):
            problems.append(f"{module} no longer imports {target}: take it off KNOWN_VIOLATIONS")
    return problems


def test_the_layer_checker_can_fail() -> None:
    """Made-up sources: an upward import, a circle within a layer, a display method's import
    (allowed), and a known edge that went away are each seen."""
    sources = {
        "oxo.errors": ("", False),
        "oxo.position": (
            "from oxo.errors import OxoError\n"
            "def check():\n    from oxo.legality import why\n"
            "class P:\n    def _repr_svg_(self):\n        from oxo.render.svg import draw\n",
            False,
        ),
        "oxo.legality": ("from oxo.solve import value\n", False),
        "oxo.solve": ("import oxo.legality\n", False),
        "oxo.render.svg": ("from oxo.position import P\n", False),
        "oxo.render": ("from . import svg\n", True),
    }
    graph = import_graph(sources)
    assert graph["oxo.position"] == {"oxo.errors", "oxo.legality"}  # not the display method's
    assert graph["oxo.render"] == {"oxo.render.svg"}
    problems = layer_violations(graph)
    assert any("oxo.position (values) imports oxo.legality (questions)" in p for p in problems)
    assert any(p.startswith("import circle") and "oxo.solve -> oxo.legality" in p for p in problems)
    assert len(problems) == 2
    assert layer_violations(graph, frozenset({("oxo.position", "oxo.legality")})) == [problems[1]]
    gone = layer_violations(graph, frozenset({("oxo.errors", "oxo.cache")}))
    assert "oxo.errors no longer imports oxo.cache: take it off KNOWN_VIOLATIONS" in gone


def test_every_module_is_in_a_layer() -> None:
    for module, _ in source_modules():
        layer_of(module)


def test_imports_point_down_and_never_go_round() -> None:
    sources = {
        module: (path.read_text(encoding="utf-8"), path.name == "__init__.py")
        for module, path in source_modules()
    }
    assert layer_violations(import_graph(sources), KNOWN_VIOLATIONS) == []


def test_the_page_draws_the_layer_table() -> None:
    page = PAGE.read_text(encoding="utf-8")
    for name, _ in LAYERS:
        assert f"| {name} |" in page, name
