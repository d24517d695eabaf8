"""The ``oxo`` command line: a thin layer that parses options, calls the library and formats results.

Each topic lives in its own module with a ``COMMANDS`` list, named in :data:`TOPICS` below. Any
:class:`oxo.errors.OxoError` or usage error becomes one line on stderr and exit status 2; a question
out of reach within the limits (:class:`oxo.errors.OutOfReachError`) exits with status 3.
"""

from __future__ import annotations

import sys

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
    "play": ("play", "move", "selfplay"),
    "mega": ("mega",),
    "map": ("map",),
    "web": ("serve",),
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

    def load_topic(self, topic: str) -> None:
        import importlib

        module = importlib.import_module(f"oxo.cli.{topic}")
        for command in module.COMMANDS:
            self.add_command(command)


@click.group(cls=LazyTopicGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="oxo", prog_name="oxo")
def cli() -> None:
    """Exact answers about tic-tac-toe and its relatives.

    Boards are written like 3x3, 4x4, 3x5 (k-in-a-row defaults to the shortest side,
    change it with --k) or 3x3x3 for a cube. Positions are written as status strings
    (120000000: 0 empty, 1 first player, 2 second player), with x/o/. letters, and
    optionally with rows separated by '/'.

    Exit status: 0 an answer, 1 a "no" (such as an illegal position), 2 bad input,
    3 not answered within the limits (the message says what is known and what to try).
    """


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; bad input gives one line on stderr and exit status 2, never a traceback."""
    try:
        outcome = cli.main(args=argv, prog_name="oxo", standalone_mode=False)
    except OutOfReachError as error:
        click.echo(f"oxo: out of reach: {error}", err=True)
        return 3
    except OxoError as error:
        click.echo(f"oxo: error: {error}", err=True)
        return 2
    except click.exceptions.NoArgsIsHelpError as error:
        click.echo(error.ctx.get_help() if error.ctx else str(error))
        return 2
    except click.UsageError as error:
        hint = (
            f" (see 'oxo {error.ctx.command_path.split(' ', 1)[1]} --help')"
            if error.ctx and " " in error.ctx.command_path
            else " (see 'oxo --help')"
        )
        click.echo(f"oxo: error: {error.format_message()}{hint}", err=True)
        return 2
    except click.exceptions.Exit as done:
        return done.exit_code
    except click.Abort:
        click.echo("oxo: aborted", err=True)
        return 130
    except BrokenPipeError:
        return 0
    # Without standalone mode click returns the status of ``ctx.exit(n)`` / ``Exit(n)`` instead of raising it.
    return outcome if isinstance(outcome, int) else 0


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
