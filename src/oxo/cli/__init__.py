"""The ``oxo`` command line: a thin layer that parses options, calls the library and formats results.

Each topic lives in its own module with a ``COMMANDS`` list, named in :data:`TOPICS` below. Any
:class:`oxo.errors.OxoError` or usage error becomes one line on stderr and exit status 2; a question
out of reach within the limits (:class:`oxo.errors.OutOfReachError`) exits with status 3.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import click

from oxo.errors import OutOfReachError, OxoError


class OxoGroup(click.Group):
    """A click group that lists commands in the order they were added in ``--help``."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.commands)


#: The CLI's topic modules (in ``oxo.cli``) and the commands each defines in its ``COMMANDS`` list,
#: in the order ``oxo --help`` shows them. A topic is imported only when one of its commands runs,
#: so ``oxo count`` never pays for loading the solver or mega tic-tac-toe.
TOPICS: dict[str, tuple[str, ...]] = {
    "core": ("count", "show", "classes"),
    "terminal": ("check", "terminal"),
    "games": ("games", "notation", "fullboards"),
    "solve": ("deadends", "solve", "analyze"),
    "verify": ("verify",),
    "book": ("book",),
    "play": ("play", "move", "selfplay"),
    "mega": ("mega",),
    "uttt": ("uttt",),
    "map": ("map",),
    "web": ("serve",),
    "warmup": ("compile",),
}


class LazyTopicGroup(OxoGroup):
    """The top-level group: it imports a topic's module the first time one of its commands is needed."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [name for names in TOPICS.values() for name in names]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            topic = next((topic for topic, names in TOPICS.items() if cmd_name in names), None)
            if topic is None:
                return None
            self.load_topic(topic)
        return self.commands.get(cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """click's, with "did you mean count?" for ``oxo cout``: click suggests among the commands
        loaded (from click 8.4), and here a topic loads only when one of its commands runs."""
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            from difflib import get_close_matches

            close = get_close_matches(name, self.list_commands(ctx))
            if close:
                guess = " or ".join(close[:2])
                raise click.UsageError(f"No such command {name!r}; did you mean {guess}?", ctx)
        return super().resolve_command(ctx, args)

    def load_topic(self, topic: str) -> None:
        import importlib

        module = importlib.import_module(f"oxo.cli.{topic}")
        for command in module.COMMANDS:
            self.add_command(command)


@click.group(
    cls=LazyTopicGroup,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(package_name="oxo", prog_name="oxo")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Exact answers about tic-tac-toe and its relatives.

    Boards are written like 3x3, 4x4, 3x5 (k in a row to win defaults to the shortest
    side, change it with --k) or 3x3x3 for a cube; some have names: tictactoe,
    qubic (4x4x4), gomoku (15x15, k=5), connect4, mega, uttt. A position is written cell by cell
    in reading order, with x, o and . (xo./.x./..o, the '/' between rows optional) or
    with digits, 0 empty, 1 the first player (x), 2 the second (o): 120000000. A ply
    is one move of one player; ply 0 is the empty board.

    Exit status: 0 an answer; 1 a "no" (such as an illegal position or an illegal
    move); 2 bad input (one line on stderr); 3 not answered within the limits (the
    message says what is known and what to try instead). With --json, errors are
    also printed on stdout as {"error": "...", "code": N}, N the exit status.
    """
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())
        click.echo()
        click.echo(TRY_THIS)


#: What ``oxo`` with no arguments suggests after the help: three first commands.
TRY_THIS = """Try this:
  oxo count 3x3            positions of tic-tac-toe per move, and up to symmetry
  oxo check xxx/ooo/...    can this position happen in a real game? (and why not)
  oxo play 3x3             play against the computer"""


def _error(message: str, code: int, as_json: bool) -> int:
    """Report an error: one line on stderr, and with ``--json`` the same as JSON on stdout."""
    click.echo(message, err=True)
    if as_json:
        import json

        text = message.split(": ", 2)[-1] if message.startswith("oxo: ") else message
        click.echo(json.dumps({"error": text, "code": code}))
    return code


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; bad input gives one line on stderr and exit status 2, never a traceback.

    Under ``--json`` an error is also a JSON object ``{"error": ..., "code": N}`` on stdout, where
    N is the exit status, so scripts that read stdout see it.
    """
    args = sys.argv[1:] if argv is None else list(argv)
    options = args[: args.index("--")] if "--" in args else args  # after "--" all is operands
    as_json = "--json" in options
    from oxo.progress import notices_to

    def say(text: str) -> None:
        click.echo(f"oxo: {text}", err=True)

    with _one_interrupt(until_exit=argv is None), _fitted(not as_json), notices_to(say):
        return _main(args, as_json)


@contextmanager
def _fitted(wanted: bool) -> Iterator[None]:
    """On a terminal, text wider than it is broken between words (:mod:`oxo.cli.fit`); pipes,
    files and ``--json`` stay as they are."""
    replaced = []
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        try:
            terminal = wanted and stream is not None and stream.isatty()
        except (AttributeError, ValueError):  # closed or not a real stream
            terminal = False
        if terminal:
            from oxo.cli.fit import FittingStream  # loaded only for a terminal

            replaced.append((name, stream))
            setattr(sys, name, FittingStream(stream))
    try:
        yield
    finally:
        for name, stream in replaced:
            fitting = getattr(sys, name)
            setattr(sys, name, stream)
            try:
                fitting.flush()
            except (OSError, ValueError):
                pass


def _quiet(unraisable: object) -> None:
    """Drop an exception raised where nothing can catch it (a finalizer) once Ctrl-C was pressed."""


@contextmanager
def _one_interrupt(until_exit: bool) -> Iterator[None]:
    """Ctrl-C stops the command once; a second SIGINT while it stops is ignored, up to the
    process's exit when ``until_exit`` (the console script). ``timeout -s INT`` signals the command
    and then its whole group: the second signal used to land in Python's exit and print a
    traceback after "oxo: interrupted"."""
    import signal

    interrupted = False

    def stop(signum: int, frame: object) -> None:
        nonlocal interrupted
        interrupted = True
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if until_exit:
            # The interrupt may land inside a constructor (numpy's reader of a zip file, say);
            # the half-built object's finalizer then fails later and Python prints its traceback
            # after "oxo: interrupted". The command is stopping: such failures are not news.
            sys.unraisablehook = _quiet
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGINT, stop)
    except ValueError:  # not the main thread: signals are not ours to handle
        yield
        return
    try:
        yield
    finally:
        if not (interrupted and until_exit):
            signal.signal(signal.SIGINT, previous)


def _main(args: list[str], as_json: bool) -> int:
    try:
        # click's own main() would turn a Ctrl-C pressed while the command starts (before its
        # clean stop) into a blank line and "Aborted"; run the command as main() does otherwise.
        with cli.make_context("oxo", args) as context:
            outcome = cli.invoke(context)
    except OutOfReachError as error:
        return _error(f"oxo: out of reach: {error}", 3, as_json)
    except OxoError as error:
        return _error(f"oxo: error: {error}", 2, as_json)
    except click.exceptions.NoArgsIsHelpError as error:  # "oxo mega": the help was asked for
        click.echo(error.ctx.get_help())
        return 0
    except click.UsageError as error:
        hint = (
            f" (see 'oxo {error.ctx.command_path.split(' ', 1)[1]} --help')"
            if error.ctx and " " in error.ctx.command_path
            else " (see 'oxo --help')"
        )
        return _error(f"oxo: error: {error.format_message()}{hint}", 2, as_json)
    except click.exceptions.Exit as done:
        return done.exit_code
    except click.Abort:
        click.echo("oxo: aborted", err=True)
        return 130
    except KeyboardInterrupt:  # Ctrl-C outside a command's own clean stop (while it starts, say)
        click.echo("oxo: interrupted", err=True)
        return 130
    except BrokenPipeError:
        return 0
    # invoke() returns what the command returned; ``ctx.exit(n)`` / ``Exit(n)`` is caught above.
    return outcome if isinstance(outcome, int) else 0


def run() -> None:
    """Console-script entry point.

    Before the exit, every object left is moved out of the garbage collector's reach
    (``gc.freeze``): the interpreter's last collection then has nothing to walk, which took
    0.05-0.15 s of a proof run's exit (docs/performance.md). The command's files are closed by
    then (written through :mod:`oxo.fileio`); what the exit frees, it still frees."""
    code = main()
    gc.freeze()
    sys.exit(code)
