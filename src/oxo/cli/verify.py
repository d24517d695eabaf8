"""``oxo verify``: check a strategy certificate (``oxo-strategy/1``) against every defence."""

from __future__ import annotations

import textwrap
import time

import click

from oxo.cli.common import echo_json
from oxo.cli.options import json_option
from oxo.phrases import duration
from oxo.progress import progress_status


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--leaves",
    default="0",
    show_default=True,
    metavar="N|all",
    help="Gravity certificates: how many of the leaves (positions where the tree stops) to solve "
    "again, chosen at random, or all.",
)
@click.option("--seed", default=0, show_default=True, help="The random choice of leaves to solve.")
@click.option(
    "--whole",
    is_flag=True,
    help="Check a certificate written in sections (by a long proof run) in one piece, every "
    "entry in memory at once, instead of a section at a time.",
)
@json_option
def verify(file: str, leaves: str, seed: int, whole: bool, as_json: bool) -> None:
    """Check that the strategy in a certificate FILE wins (or never loses) against every defence.

    A certificate is gzip-compressed JSON lines: a header naming the board, k, the side and the
    guarantee ("win" or "no-loss"), then the side's move in each position it can face (in any
    orientation), or for no-loss a pairing where the opponent is to move (empty cells in pairs
    covering every line the opponent could still complete: whenever the opponent takes one cell
    of a pair, the side takes the other). The checker walks from
    the empty board, plays the side's moves and every reply of the opponent, and names the first
    position where the strategy fails. A won board needs one win certificate; a draw needs two
    no-loss certificates, one per side. The format is described in the module oxo.proofs.certificate.

    A gravity certificate (Connect Four and its relatives, written by 'oxo solve BOARD --gravity
    --proof DIR') proves a bound on one side's score the same way: the side's column in each
    position it can face, every reply of the other side; on big boards the tree stops at leaves,
    positions the solver settles in about a second each: --leaves N solves N of them again.

    A certificate may name rules in its header: then the side's moves that a rule gives are left
    out (complete a line at once; block the opponent's only threat; a forced chain of threats
    ending in two at once), and the checker works them out itself; the answer counts the blocks and
    chains the rules gave. It may also name symmetries beyond the board's own (cell permutations
    that carry lines onto lines; Qubic has 192), which the checker verifies before using.

    A certificate written by a long proof run ('oxo solve BOARD --proof DIR') may come in
    sections: the moves from the empty board, then one section per job of the run; it is checked
    a section at a time, so memory holds one section, not the whole file. The answer gives the
    certificate's size: the positions checked and the moves of the side it plays.

    Exit status: 0 valid, 1 invalid (the failing position printed), 2 not a readable certificate.

    Example: oxo verify 4x4-o-no-loss.jsonl.gz
    """
    from oxo.gravity.proof import (
        GravityVerifyResult,
        is_gravity_certificate,
        verify_gravity_certificate,
    )
    from oxo.proofs.certificate import VerifyResult, verify_certificate

    if leaves.strip().lower() == "all":
        count: int | None = None
    elif leaves.strip().isascii() and leaves.strip().isdigit():
        count = int(leaves)
    else:
        raise click.BadParameter(
            f"a number of leaves or 'all', got {leaves!r}", param_hint="--leaves"
        )
    result: GravityVerifyResult | VerifyResult
    if is_gravity_certificate(file):
        with progress_status(quiet=as_json) as status:
            result = verify_gravity_certificate(file, count, seed, on_status=status)
    else:
        with progress_status(quiet=as_json) as status:
            started = time.monotonic()
            shown = [0.0]

            def report(read: int, total: int, checked: int) -> None:
                now = time.monotonic()
                if now - shown[0] < 0.2 and read < total:
                    return  # a certificate of many small sections reports often
                shown[0] = now
                if not total:
                    status(f"checking: {read:,} entries read, {checked:,} positions checked")
                    return
                elapsed = time.monotonic() - started
                left = (
                    f", about {duration(elapsed * (total - read) / read)} left"
                    if 0 < read < total
                    else ""
                )
                status(
                    f"checking: {100 * read / total:.0f}% of {total:,} entries read, {checked:,} "
                    f"positions checked{left}"
                )

            result = verify_certificate(file, whole=whole, on_progress=report)
    if as_json:
        echo_json(result.to_dict())
    else:  # within 80 columns (a failing position's status string, one word, may be longer)
        for line in textwrap.wrap(
            str(result), 79, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False
        ):
            click.echo(line)
    if not result.valid:
        raise click.exceptions.Exit(1)


COMMANDS = [verify]
