"""``oxo verify``: check a strategy certificate (``oxo-strategy/1``) against every defence."""

from __future__ import annotations

import click

from oxo.cli.common import echo_json, json_option


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@json_option
def verify(file: str, as_json: bool) -> None:
    """Check that the strategy in a certificate FILE wins (or never loses) against every defence.

    A certificate is gzip-compressed JSON lines: a header naming the board, k, the side and the
    guarantee ("win" or "no-loss"), then the side's move in each position it can face (in any
    orientation), or for no-loss a pairing where the opponent is to move (empty cells in pairs
    covering every line the opponent could still complete: whenever the opponent takes one cell
    of a pair, the side takes the other). The checker walks from
    the empty board, plays the side's moves and every reply of the opponent, and names the first
    position where the strategy fails. A won board needs one win certificate; a draw needs two
    no-loss certificates, one per side. The format is described in the module oxo.proofs.certificate.

    Exit status: 0 valid, 1 invalid (the failing position printed), 2 not a readable certificate.

    Example: oxo verify 4x4-o-no-loss.jsonl.gz
    """
    from oxo.proofs.certificate import verify_certificate

    result = verify_certificate(file)
    if as_json:
        echo_json(result.to_dict())
    else:
        click.echo(str(result))
    if not result.valid:
        raise click.exceptions.Exit(1)


COMMANDS = [verify]
