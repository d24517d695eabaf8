"""The PettingZoo AEC environment over oxo's games (classic boards of any size and k, and mega).

Two agents, ``"player_0"`` (X, moves first) and ``"player_1"`` (O), take turns. Each observation is the PettingZoo
dictionary ``{"observation": int8 array, "action_mask": int8 vector}`` seen by the agent observing
(its own marks in the first channel); the mask is all zeros for the agent not to move. At the end
the winner gets +1 and the loser -1 (0 each for a draw). An illegal action raises
:class:`oxo.errors.MoveError`. ``render_mode`` is ``"ansi"`` (the text board) or ``"rgb_array"``
(oxo's SVG drawing, rasterised).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped, unused-ignore]  # typed only in some versions
from pettingzoo.utils import AgentSelector  # type: ignore[import-untyped, unused-ignore]  # likewise

from oxo.errors import OxoError
from oxo.game import GameState, Player
from oxo.geometry import Geometry
from oxo.rl.encoding import Encoding, as_rgb, encoding_for

RENDER_MODES = ("ansi", "rgb_array")
#: The agents in PettingZoo's naming and the side each plays: X moves first.
AGENTS: dict[str, Player] = {"player_0": "x", "player_1": "o"}


class OxoEnv(AECEnv):  # type: ignore[misc, unused-ignore]  # AECEnv is Any when pettingzoo is untyped
    """A two-player, turn-based environment for one of oxo's games (see the module docstring)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "oxo_v0", "is_parallelizable": False}

    def __init__(
        self, game: str | Geometry = "3x3", k: int | None = None, render_mode: str | None = None
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise OxoError(
                f"render_mode is one of {', '.join(RENDER_MODES)} or None, got {render_mode!r}"
            )
        self.encoding: Encoding = encoding_for(game, k)
        self.metadata = {**self.metadata, "name": f"oxo_{self.encoding.name}_v0"}
        self.render_mode = render_mode
        self.possible_agents: list[str] = list(AGENTS)
        self.agents = list(self.possible_agents)
        size = self.encoding.actions
        self._action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0, 1, self.encoding.shape, dtype=np.int8),
                    "action_mask": spaces.Box(0, 1, (size,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.game_state: GameState = self.encoding.start()
        self._selector = AgentSelector(self.agents)
        self.agent_selection = self._selector.reset()
        self._reset_tables()

    # -- spaces --------------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    # -- the loop ------------------------------------------------------------------------------

    def _reset_tables(self) -> None:
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (the games are deterministic: ``seed`` changes nothing)."""
        self.agents = list(self.possible_agents)
        self.game_state = self.encoding.start()
        self._selector.reinit(self.agents)
        self.agent_selection = self._selector.reset()
        self._reset_tables()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = AGENTS[agent]
        mask = (
            self.encoding.mask(self.game_state)
            if agent == self.agent_selection and not self.game_state.is_over
            else np.zeros(self.encoding.actions, dtype=np.int8)
        )
        return {
            "observation": self.encoding.observation(self.game_state, player),
            "action_mask": mask,
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise OxoError("the agent to move must give an action (None only after the end)")
        move = self.encoding.move(self.game_state, int(action))
        self._cumulative_rewards[agent] = 0.0
        self.game_state = self.game_state.play(move)
        self._clear_rewards()
        if self.game_state.is_over:
            outcome = self.game_state.outcome
            if outcome in ("x", "o"):
                for name in self.agents:
                    self.rewards[name] = 1.0 if AGENTS[name] == outcome else -1.0
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self._selector.next()
        self._accumulate_rewards()

    # -- pictures and augmentation -------------------------------------------------------------

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        if self.render_mode == "ansi":
            return self.game_state.text()
        return as_rgb(self.encoding.svg(self.game_state))

    def close(self) -> None:
        pass

    def symmetries(
        self, observation: np.ndarray | dict[str, np.ndarray], action: int | np.ndarray
    ) -> list[tuple[np.ndarray | dict[str, np.ndarray], int | np.ndarray]]:
        """Every symmetric image of an (observation, action) pair, for data augmentation (see
        :meth:`oxo.rl.encoding.Encoding.symmetries`)."""
        return self.encoding.symmetries(observation, action)
