"""Environments for reinforcement learning (PettingZoo's AEC API), from the ``rl`` extra:
``pip install 'oxo[rl]'``.

``oxo.rl.env("3x3")``, ``oxo.rl.env("5x5", k=4)``, ``oxo.rl.env("3x3x3")``,
``oxo.rl.env("6x7,k=4,gravity")`` (Connect Four), ``oxo.rl.env("mega")`` or ``oxo.rl.env("uttt")``
build an environment with action masks; ``env.symmetries(observation, action)`` (or
:func:`symmetries`) gives the symmetric images of a pair for data augmentation. See ``docs/rl.md``.
"""

from __future__ import annotations

try:  # the extra's packages: without them, say how to get them rather than a bare import error
    import gymnasium  # noqa: F401
    import pettingzoo  # type: ignore[import-untyped, unused-ignore]  # noqa: F401  # typed only in some versions
except ModuleNotFoundError as missing:
    if missing.name not in ("gymnasium", "pettingzoo"):
        raise
    raise ModuleNotFoundError(
        f"oxo.rl needs the rl extra ({missing.name} is not installed): pip install 'oxo[rl]'",
        name=missing.name,
    ) from None

import numpy as np

from oxo.geometry import Geometry
from oxo.rl.encoding import (
    ActionSymmetry,
    ClassicEncoding,
    Encoding,
    GravityEncoding,
    MegaEncoding,
    UtttEncoding,
    encoding_for,
)
from oxo.rl.env import OxoEnv

__all__ = [
    "ActionSymmetry",
    "ClassicEncoding",
    "Encoding",
    "GravityEncoding",
    "MegaEncoding",
    "OxoEnv",
    "UtttEncoding",
    "env",
    "mega_env",
    "symmetries",
]


def env(
    game: str | Geometry = "3x3", k: int | None = None, render_mode: str | None = None
) -> OxoEnv:
    """An AEC environment for a game named as :func:`oxo.registry.find_game` names it: a board such as
    ``"3x3"``, ``"5x5"`` with ``k=4``, ``"3x3x3"``, a gravity board such as ``"6x7,k=4,gravity"``
    (Connect Four: actions are columns), ``"mega"`` or ``"uttt"`` (ultimate tic-tac-toe)."""
    return OxoEnv(game, k, render_mode)


def mega_env(render_mode: str | None = None) -> OxoEnv:
    """The AEC environment of mega tic-tac-toe."""
    return OxoEnv("mega", None, render_mode)


def symmetries(
    game: OxoEnv | Encoding | str,
    observation: np.ndarray | dict[str, np.ndarray],
    action: int | np.ndarray,
) -> list[tuple[np.ndarray | dict[str, np.ndarray], int | np.ndarray]]:
    """The symmetric images of an (observation, action) pair of a game, the pair itself first."""
    encoding = (
        game.encoding
        if isinstance(game, OxoEnv)
        else game
        if isinstance(game, Encoding)
        else encoding_for(game)
    )
    return encoding.symmetries(observation, action)
