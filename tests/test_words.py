"""Plain words: no user-facing text speaks the project's own jargon.

The command line's help (every command and subcommand), the README, the web page's static files and
the output of the commands that used to say so are searched for the words a newcomer cannot know:
the names of the background documents ("seed 001"), "dense state space", "the seed guessed", an
unexplained "status string" or "stabilizer". The docs may still say where an idea comes from.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from oxo.cli import TOPICS, cli, main

ROOT = Path(__file__).resolve().parents[1]

#: Words that must never appear, with why.
FORBIDDEN = {
    r"\bseeds? ?0\d\d\b": "the names of background documents (say what the idea is instead)",
    r"\bseed's\b": "the background documents (say what the rule or table is)",
    r"seed guessed": "the background documents",
    r"seed rule": "the background documents",
    r"dense state spaces?": "internal term (say: the table of every reachable position)",
    r"\bissue \d+\b": "the project's issue tracker",
    r"\bthe puzzle\b": "a puzzle the reader never saw (say what the questions or boards are)",
    r"\((?:pairs|csp|lines|search)\)": "a method's name alone (say how it counted)",
    r"\bdrawn as \d": "a drawing the reader has not asked for (say which drawing)",
    r"\bexpects \d+%": "an engine's estimate without saying of what",
}

#: Words allowed only with a plain gloss nearby (within this many characters, either side).
GLOSSED = {
    r"status strings?": r"0 (?:for )?empty|digits",
    r"stabili[sz]er": r"symmetries that leave it",
}
GLOSS_WINDOW = 200


def find_jargon(text: str) -> list[str]:
    """Every forbidden word in ``text``, and every glossed word without its gloss nearby."""
    found = []
    for pattern, why in FORBIDDEN.items():
        for match in re.finditer(pattern, text, flags=re.IGNORECASE):
            found.append(f"{match.group(0)!r} ({why})")
    for pattern, gloss in GLOSSED.items():
        for match in re.finditer(pattern, text, flags=re.IGNORECASE):
            window = text[max(0, match.start() - GLOSS_WINDOW) : match.end() + GLOSS_WINDOW]
            if not re.search(gloss, window, flags=re.IGNORECASE):
                found.append(f"{match.group(0)!r} without a plain explanation nearby")
    return found


def test_find_jargon_finds_what_it_should() -> None:
    assert find_jargon("as in seed 001's table")
    assert find_jargon("Seed 004's five questions")
    assert find_jargon("the seed guessed: no")
    assert find_jargon("the stabilizer is rot90")
    assert find_jargon("a status string such as 120000000")
    assert not find_jargon("stabilizer (the symmetries that leave it unchanged)")
    assert not find_jargon("--seed 3 makes it reproducible")
    assert not find_jargon("a status string: one digit a cell, 0 empty, 1 x, 2 o")


def all_commands() -> Iterator[tuple[str, click.Command]]:
    """Every command and subcommand of ``oxo`` with its full name."""
    for topic in TOPICS:
        cli.load_topic(topic)

    def walk(prefix: str, command: click.Command) -> Iterator[tuple[str, click.Command]]:
        yield prefix, command
        if isinstance(command, click.Group):
            for name in command.list_commands(click.Context(command)):
                sub = command.get_command(click.Context(command), name)
                if sub is not None:
                    yield from walk(f"{prefix} {name}", sub)

    yield from walk("oxo", cli)


def help_text(capsys: pytest.CaptureFixture[str], name: str) -> str:
    code = main([*name.split()[1:], "--help"])
    out, err = capsys.readouterr()
    assert code == 0 and not err, (name, err)
    return out


def test_every_command_is_listed() -> None:
    names = {name for name, _ in all_commands()}
    assert {"oxo count", "oxo notation", "oxo mega rules", "oxo verify", "oxo solve"} <= names


def test_help_of_every_command_is_in_plain_words(capsys: pytest.CaptureFixture[str]) -> None:
    problems = {}
    for name, _ in all_commands():
        found = find_jargon(help_text(capsys, name))
        if found:
            problems[name] = found
    assert not problems, problems


def test_readme_is_in_plain_words() -> None:
    assert find_jargon((ROOT / "README.md").read_text()) == []


def visible_text(path: Path) -> str:
    """What a visitor of the page can read: HTML without its tags and attributes, and the JS string
    literals that hold words (with a space), not identifiers such as element ids or JSON keys."""
    text = path.read_text()
    if path.suffix == ".html":
        text = re.sub(r"<script.*?</script>|<style.*?</style>", " ", text, flags=re.DOTALL)
        return re.sub(r"<[^>]*>", " ", text)
    literals = re.findall(r"'([^'\n]*)'|\"([^\"\n]*)\"|`([^`]*)`", text)
    words = (next(part for part in parts if part) for parts in literals if any(parts))
    return "\n".join(re.sub(r"\$\{[^}]*\}", " ", word) for word in words if " " in word)


def test_visible_text_skips_identifiers(tmp_path: Path) -> None:
    page = tmp_path / "app.js"
    page.write_text('$("explore-stabilizer").textContent = data.stabilizer + " the stabilizer";')
    assert visible_text(page).strip() == "the stabilizer"


def test_web_page_is_in_plain_words() -> None:
    static = ROOT / "src" / "oxo" / "web" / "static"
    problems = {}
    for path in sorted(static.iterdir()):
        if path.suffix in (".html", ".js"):
            found = find_jargon(visible_text(path))
            if found:
                problems[path.name] = found
    assert not problems, problems


def test_mega_reference_is_in_plain_words(capsys: pytest.CaptureFixture[str]) -> None:
    """``oxo mega rules --full`` prints docs/mega.md to users, so it follows the same rule."""
    assert main(["mega", "rules", "--full"]) == 0
    assert find_jargon(capsys.readouterr().out) == []


@pytest.mark.parametrize(
    "args",
    [
        ["deadends", "3x3", "--quiet"],
        ["notation", "views"],
        ["show", "xo./.x./..."],
        ["classes", "3x3"],
        ["mega", "rules"],
    ],
)
def test_output_is_in_plain_words(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    code = main(args)
    out, err = capsys.readouterr()
    assert code == 0, err
    assert find_jargon(out + err) == []
